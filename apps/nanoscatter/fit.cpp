// `nanoscatter fit FIT.toml`: fits a model to a detector image as the fit
// file describes (docs/fitting.md). Flags override the file's [output] and
// the engine's device and threads; the checks are the library's.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "memory_size.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/fit_file.hpp"
#include "nanoscatter/output_format.hpp"

namespace nanoscatter::cli {
namespace {

struct FitCliOptions {
  std::string fit_file, data, output, png, device = "auto";
  bool quiet = false;
  gisaxs::GisaxsOptions engine;  // --threads, --max-device-memory
};

void run(const FitCliOptions& o, const RunContext& context) {
  fit::FitDescription d = fit::read_fit_file(o.fit_file);
  if (!o.data.empty()) d.data_file = o.data, d.data_where = Where{"", 0, "data", true};
  if (!o.output.empty()) d.output = o.output;
  if (!o.png.empty()) d.png = o.png;
  if (o.quiet) d.minimizer.quiet = true;
  // Output names first, so that bad input costs no work and leaves no file.
  if (!d.output.empty()) checked_output_path(d.output, "output", {OutputFormat::hdf5}, "fit");
  if (!d.png.empty()) checked_output_path(d.png, "png", {OutputFormat::png}, "fit");
  gisaxs::GisaxsOptions engine = o.engine;
  engine.compute.device = select_device(parse_device(o.device));
  engine.validate();

  const fit::FitRun run = fit::run_fit_description(d, std::nullopt, engine);
  const fit::FitResult& r = run.result;
  if (!context.comm.root()) return;
  RunRecord record{"fit", context.command_line, run.run_lines};
  record.lines.push_back("result: " + std::string(r.converged ? "converged" : "NOT converged") + ": " + r.message);
  if (!d.output.empty()) fit::write_fit_hdf5(d.output, run, record);
  if (!d.png.empty()) fit::write_fit_png(d.png, run);
  if (!d.minimizer.quiet) std::fputs(fit::fit_summary(r).c_str(), stderr);
  if (!d.minimizer.quiet && std::isfinite(run.rw))
    std::fprintf(stderr, "fit: %s = %.6g, chi2_red = %.6g\n", run.rw_name.c_str(), run.rw, r.chi2_reduced);
  // A fit that did not converge says so even when quiet; its outputs hold the last state.
  if (!r.converged) std::fprintf(stderr, "fit: warning: did not converge: %s\n", r.message.c_str());
}

}  // namespace

void add_fit_command(CLI::App& app, const RunContext& context) {
  auto* sub = app.add_subcommand("fit", "fit a model (GISAXS image, PDF G(r), powder pattern) to data (see docs/fitting.md)");
  auto options = std::make_shared<FitCliOptions>();
  FitCliOptions& o = *options;
  sub->add_option("fit_file", o.fit_file, "fit description (TOML, see docs/fitting.md)")->required();
  sub->add_option("--output,-o", o.output, "HDF5 file of the result (.h5; default: [output] file)");
  sub->add_option("--png", o.png, "figure of data / fit / residual (.png; default: [output] png)");
  sub->add_flag("--quiet,-q", o.quiet, "no line per iteration nor summary on stderr");
  sub->add_option("--device", o.device, "auto|cpu|gpu (auto: the GPU when one is present)")->capture_default_str();
  add_compute_options(*sub, o.engine.compute);
  sub->add_option("--data", o.data, "data image in place of the fit file's [data] file (any detector format)");
  sub->callback([options, context] { run(*options, context); });
}

}  // namespace nanoscatter::cli
