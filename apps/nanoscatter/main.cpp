// nanoscatter: one executable, one subcommand per engine (docs/design.md).
#include <cstdio>
#include <exception>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "flag_names.hpp"
#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/one_line.hpp"

namespace nanoscatter::cli {

void add_common_options(CLI::App& sub, CommonOptions& options, bool with_precision, const std::string& formats,
                        bool output_required) {
  sub.add_option("--device", options.device, "auto|cpu|gpu (auto: the GPU when one is present)")
      ->capture_default_str();
  if (with_precision)
    sub.add_option("--precision", options.precision, "auto|single|double (auto: the engine's fastest choice proven to 1e-5 of double on the device; its page says which)")->capture_default_str();
  auto* out = sub.add_option("--output,-o", options.output, "output file; the format follows the extension: " + formats);
  if (output_required) out->required();
  sub.add_flag("--quiet,-q", options.quiet, "no progress bar or summary on stderr");
  add_ranks_per_gpu_option(sub, options.ranks_per_gpu);
}

}  // namespace nanoscatter::cli

int main(int argc, char** argv) {
  using namespace nanoscatter;
  cli::RunContext context;
  context.version = NANOSCATTER_VERSION;
  for (int i = 0; i < argc; ++i) {
    if (i) context.command_line += ' ';
    context.command_line += argv[i];
  }
  std::unique_ptr<parallel::Session> session;
  try {
    session = std::make_unique<parallel::Session>(argc, argv);
  } catch (const Error& e) {
    std::fprintf(stderr, "nanoscatter: error: %s\n", cli::cli_message(e).c_str());
    return 1;
  }
  install_output_signal_handlers();
  context.comm = session->world();
  const parallel::Communicator& comm = context.comm;
  cli::share_cores_between_ranks(comm);

  CLI::App app{"nanoscatter: X-ray, neutron, electron and light scattering from nanostructures"};
  app.set_version_flag("--version", std::string("nanoscatter ") + NANOSCATTER_VERSION);
  app.require_subcommand(1);
  cli::add_build_command(app, context);
  cli::add_debye_command(app, context);
  cli::add_pattern2d_command(app, context);
  cli::add_rmc_command(app, context);
  cli::add_dda_command(app, context);
  cli::add_mie_command(app, context);
  cli::add_gisaxs_command(app, context);
  cli::add_fit_command(app, context);
  cli::add_info_command(app, context);

  // Every rank ends here, through one agreement (parallel.hpp), so that a
  // rank that failed cannot leave the others waiting.
  int code = 0;
  std::string message;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      std::ostringstream sink;  // --help and --version: printed by rank 0 only
      code = comm.root() ? app.exit(e) : app.exit(e, sink, sink);
    } else {
      // A usage error is the user's to fix, like bad input: the same one line and exit 1.
      code = 1;
      message = "nanoscatter: error: " + one_line(e.what());
    }
  } catch (const parallel::RankFailure& f) {
    // Another rank failed and every rank knows it already.
    if (comm.root()) std::fprintf(stderr, "%s\n", f.what());
    return f.failure().code;
  } catch (const Error& e) {
    code = 1;
    message = "nanoscatter: error: " + cli::cli_message(e);
  } catch (const std::exception& e) {
    code = 2;
    message = "nanoscatter: internal error: " + one_line(e.what());
  }
  if (code != 0) {
    const parallel::Failure f = comm.fail(code, message);
    if (comm.root() && !f.message.empty()) std::fprintf(stderr, "%s\n", parallel::failure_line(f, comm.size()).c_str());
    return f.code;
  }
  try {
    comm.check();
  } catch (const parallel::RankFailure& f) {
    if (comm.root()) std::fprintf(stderr, "%s\n", f.what());
    return f.failure().code;
  }
  return 0;
}
