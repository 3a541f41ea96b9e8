// `nanoscatter gisaxs`: the GISAXS image of a sample file (DWBA or Born).
// Binds flags to the library's options, calls the plan, reduces the ranks'
// parts and writes the requested files on rank 0 (each appears whole or not
// at all). The checks are the library's (GisaxsOptions::validate).
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "gisaxs_formfactor.hpp"
#include "memory_size.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_output.hpp"

namespace nanoscatter::cli {
namespace {

// Flags that set a field of the library's options are bound to it; the rest
// are the CLI's own (strings the library parses, file names, the grid).
struct GisaxsCliOptions {
  CommonOptions common;
  gisaxs::GisaxsOptions engine;
  std::string sample;
  std::string approximation = "dwba";
  std::string png, text;
  bool formfactor_only = false;
  std::string qx, qy, qz;         // --formfactor-only grid axes
};

void run(const GisaxsCliOptions& o, const RunContext& context) {
  // Every option first, so that bad input costs no work and leaves no file.
  gisaxs::GisaxsOptions options = o.engine;
  options.approximation = gisaxs::parse_approximation(o.approximation);
  const parallel::Communicator& comm = context.comm;
  options.compute.quiet = o.common.quiet || !comm.root();  // one progress bar: rank 0's
  options.share = comm.share();
  options.validate();
  if (!o.formfactor_only) {
    gisaxs::checked_image_output(o.common.output, "output");
    if (!o.png.empty()) checked_output_path(o.png, "png", {OutputFormat::png}, "gisaxs");
    if (!o.text.empty()) checked_output_path(o.text, "text", {OutputFormat::text}, "gisaxs");
  }
  const DeviceRequest device = parse_device(o.common.device);
  options.compute.precision = parse_precision(o.common.precision);
  options.compute.device = select_rank_device(device, o.common.ranks_per_gpu, context);
  if (o.formfactor_only) {
    run_gisaxs_formfactor({o.sample, o.common.output, o.qx, o.qy, o.qz}, options.compute, o.common.quiet, context);
    return;
  }

  const gisaxs::Sample sample = gisaxs::read_sample(o.sample);
  if (context.comm.root())
    for (const std::string& warning : sample.warnings) std::fprintf(stderr, "nanoscatter: warning: %s\n", warning.c_str());
  gisaxs::GisaxsResult result = gisaxs::GisaxsPlan(sample, options).execute();
  // Under mpirun each rank computed its blocks and left the other pixels 0:
  // the parts are merged (exactly), and rank 0 alone writes.
  parallel::report_load(comm, "gisaxs", result.seconds, double(result.computed_pixels), o.common.quiet,
                        options.compute.device);
  result.reduce(comm);
  if (!comm.root()) return;

  const RunRecord record{"gisaxs", context.command_line, gisaxs::gisaxs_run_lines(sample, result)};
  for (const std::string& path : {o.common.output, o.png, o.text})
    if (!path.empty()) gisaxs::write_gisaxs(path, result, record, options.approximation);
  if (!o.common.quiet)
    std::fprintf(stderr, "gisaxs: %zu x %zu pixels, %zu particle kind(s), %s, %.3f s -> %s\n", result.cols,
                 result.rows, result.particle_kinds, gisaxs::to_string(options.approximation), result.seconds,
                 o.common.output.c_str());
}

}  // namespace

void add_gisaxs_command(CLI::App& app, const RunContext& context) {
  auto* sub = app.add_subcommand("gisaxs", "GISAXS image of particles on or in a multilayer (DWBA or Born)");
  auto options = std::make_shared<GisaxsCliOptions>();
  GisaxsCliOptions& o = *options;
  sub->add_option("sample", o.sample, "sample description (TOML, see docs/gisaxs.md)")->required();
  add_common_options(*sub, o.common, /*with_precision=*/true, ".h5 HDF5, .txt/.dat text, .png picture");
  sub->add_option("--approximation", o.approximation, "dwba|born")->capture_default_str();
  sub->add_option("--png", o.png, "also write a log-scale picture (.png)");
  sub->add_option("--text", o.text, "also write the image as text in BornAgain's layout (.txt, .dat)");
  add_compute_options(*sub, o.engine.compute);
  sub->add_flag("--formfactor-only", o.formfactor_only,
                "write F(q) of the first particle on the --qx/--qy/--qz grid to HDF5 instead of an image");
  sub->add_option("--qx", o.qx, "--formfactor-only grid axis: min,max,n (1/nm)");
  sub->add_option("--qy", o.qy, "--formfactor-only grid axis: min,max,n (1/nm)");
  sub->add_option("--qz", o.qz, "--formfactor-only grid axis: min,max,n (1/nm)");
  sub->callback([options, context] { run(*options, context); });
}

}  // namespace nanoscatter::cli
