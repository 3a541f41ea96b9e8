// nanoscatter: one executable, one subcommand per engine (DESIGN.md).
#include <cstdio>
#include <exception>

#include "commands.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::cli {

void add_common_options(CLI::App& sub, CommonOptions& options, bool with_precision,
                        bool output_required) {
  sub.add_option("--device", options.device, "auto|cpu|gpu (auto: the GPU when one is present)")
      ->capture_default_str();
  if (with_precision)
    sub.add_option("--precision", options.precision, "single|double")->capture_default_str();
  auto* out = sub.add_option("--output,-o", options.output,
                             "output file; the format follows the extension (.dat/.txt, .h5, .png, .xyz)");
  if (output_required) out->required();
  sub.add_flag("--quiet,-q", options.quiet, "no progress bar or summary on stderr");
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
  cli::add_info_command(app, context);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const Error& e) {
    std::fprintf(stderr, "nanoscatter: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nanoscatter: internal error: %s\n", e.what());
    return 2;
  }
  return 0;
}
