// `nanoscatter rmc`: reverse Monte Carlo fit of 2D particle arrangements
// (tiles) to a small-angle image. Binds the flags to the library's options,
// runs the plan, reduces the ranks' tiles and writes the output directory
// (rank 0); every check is the library's.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "memory_size.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/rmc.hpp"
#include "nanoscatter/rmc_output.hpp"

namespace nanoscatter::cli {
namespace {

// Flags that set a field of the library's options are bound to it; the rest
// are the CLI's own (strings the library parses, file names, the device
// request and the ranks per GPU).
struct RmcCliOptions {
  RmcOptions engine;
  TargetOptions target_options;
  std::string target, mask, output_dir;
  std::string device = "auto";
  bool quiet = false;
  std::string schedule = "exponential";
  std::string temperature = "auto";
  std::string layout = "centred", resample = "crop";
  std::string chi2_scale = "free";
  std::string loading_scan, initial_model;
  int ranks_per_gpu = 1;
};

void run(const RmcCliOptions& o, const RunContext& context) {
  // Every option first, so that bad input costs no work and leaves no
  // directory (the checks are the library's: RmcOptions::validate, which
  // the plan calls again with the target's size).
  const DeviceRequest request = parse_device(o.device);
  RmcOptions options = o.engine;
  options.schedule = parse_cooling_schedule(o.schedule);
  options.temperature = parse_rmc_temperature(o.temperature);
  options.chi2_scale = parse_chi2_scale(o.chi2_scale);
  if (!o.loading_scan.empty()) options.loading_scan = parse_loading_scan(o.loading_scan);
  // An initial model may set the loading: checked with the target's size below.
  const bool loading_from_model = options.loading.empty() && options.loading_scan.empty() && !o.initial_model.empty();
  if (loading_from_model) options.loading = {0.5};
  const parallel::Communicator& comm = context.comm;
  options.compute.quiet = o.quiet || !comm.root();  // one progress bar: rank 0's
  options.share = comm.share();
  options.validate();
  TargetOptions target_options = o.target_options;
  target_options.layout = parse_target_layout(o.layout);
  target_options.resample = parse_resample(o.resample);
  check_rmc_output_dir(o.output_dir);

  RmcTarget target = load_rmc_target(o.target, o.mask, target_options);
  std::vector<std::uint8_t> initial;
  if (!o.initial_model.empty()) {
    if (loading_from_model) options.loading.clear();
    initial = rmc_initial_model(read_image(o.initial_model), target.size, options, o.initial_model);
  }
  options.compute.device = select_rank_device(request, o.ranks_per_gpu, context);
  RmcPlan plan(std::move(target), options);
  if (!initial.empty()) plan.set_initial_occupancy(std::vector<std::vector<std::uint8_t>>(options.tiles, initial));
  RmcResult result = plan.execute();
  parallel::report_load(comm, "rmc", result.seconds, double(result.tiles.size()), o.quiet, options.compute.device);
  // Under mpirun each rank holds its run of tiles: every rank gets all of
  // them, in the order of their global indices, and rank 0 writes.
  result.reduce(comm);
  if (!comm.root()) return;

  RmcOptions whole = plan.options();  // a scan's tiles expanded
  whole.share = WorkShare{};
  const RunRecord record{"rmc", context.command_line, rmc_run_lines(plan.target(), whole, result)};
  write_rmc_outputs(o.output_dir, result, plan.target(), whole, record);
  if (!whole.loading_scan.empty() && !o.quiet) {
    const RmcLoadingScan scan = rmc_loading_scan(result, whole);
    std::fprintf(stderr, "rmc: loading scan minimum at %.4g (chi2 %.4g), refined %.4g\n", scan.best_loading,
                 scan.best_chi2, scan.refined_loading);
  }
}

}  // namespace

void add_rmc_command(CLI::App& app, const RunContext& context) {
  auto opts = std::make_shared<RmcCliOptions>();
  auto* sub = app.add_subcommand("rmc", "reverse Monte Carlo fit of 2D particle arrangements to a small-angle image");
  sub->add_option("--target", opts->target,
                  "target image: file.h5[:/dataset] (first 2D dataset by default), .tif/.tiff, or a text matrix; "
                  "q = 0 at the centre pixel (rows/2, cols/2)")
      ->required();
  sub->add_option("--mask", opts->mask, "mask image of the target's shape (same formats); nonzero = use the pixel");
  sub->add_option("--loading", opts->engine.loading,
                  "fraction of occupied sites, in (0, 1): one value or one per tile (required unless --loading-scan "
                  "or --initial-model gives it)");
  sub->add_option("--loading-scan", opts->loading_scan,
                  "fit every loading start:stop:step (e.g. 0.05:0.45:0.05) with --tiles tiles each; writes "
                  "loading_scan.dat with chi2 per loading and its (parabola-refined) minimum");
  sub->add_option("--chi2-scale", opts->chi2_scale,
                  "scale s of chi2 = sum (P - s|F|^2)^2: free (best s), absolute (s = 1) or fixed (s = --scale)")
      ->capture_default_str();
  sub->add_option("--scale", opts->engine.scale, "s for --chi2-scale fixed (the data's calibration)")
      ->capture_default_str();
  sub->add_flag("--keep-zero-q", opts->engine.keep_zero_q, "use the q = 0 pixel (masked by default)");
  sub->add_option("--initial-model", opts->initial_model,
                  "start every tile from this N x N 0/1 occupancy image (same formats as --target); sets the "
                  "loading when --loading is not given");
  sub->add_option("--tile", opts->target_options.model_size, "model size N (N×N sites); default: the target's size");
  sub->add_option("--tiles", opts->engine.tiles, "independent replicas fitted at once")->capture_default_str();
  sub->add_option("--steps", opts->engine.steps, "trial moves per tile")->capture_default_str();
  sub->add_option("--seed", opts->engine.seed, "random seed (runs are reproducible for a seed)")->capture_default_str();
  sub->add_option("--max-distance", opts->engine.max_distance, "moves go at most this far (lattice units); 0: anywhere")
      ->capture_default_str();
  sub->add_option("--schedule", opts->schedule, "cooling: fixed|exponential|linear")->capture_default_str();
  sub->add_option("--temperature", opts->temperature,
                  "initial temperature (units of relative chi2), or auto (from a probe targeting --target-acceptance)")
      ->capture_default_str();
  sub->add_option("--final-ratio", opts->engine.final_ratio, "T_final / T0 of the cooling schedule")->capture_default_str();
  sub->add_option("--target-acceptance", opts->engine.target_acceptance, "acceptance ratio the automatic T0 aims at")
      ->capture_default_str();
  sub->add_option("--probe-moves", opts->engine.probe_moves, "trial moves per tile probed for the automatic T0")
      ->capture_default_str();
  sub->add_option("--multires", opts->engine.multires_levels,
                  "multi-resolution start: fit N/2^L … N/2 models to the central low-q crop first")
      ->capture_default_str();
  sub->add_option("--multires-steps", opts->engine.multires_steps, "moves per tile at each coarse level (0: steps/4)")
      ->capture_default_str();
  sub->add_option("--refresh-interval", opts->engine.refresh_interval,
                  "moves between exact FFT recomputations of the model (0: never)")
      ->capture_default_str();
  sub->add_option("--trace-interval", opts->engine.trace_interval, "moves between chi2 trace points (0: ~1000 points)")
      ->capture_default_str();
  sub->add_flag("--crop", opts->target_options.crop_to_square, "take the central square of a non-square target");
  sub->add_option("--layout", opts->layout, "centred (q = 0 at the centre) or fft (q = 0 at [0][0])")
      ->capture_default_str();
  sub->add_option("--resample", opts->resample, "a target larger than --tile: crop (central window) or rebin")
      ->capture_default_str();
  add_output_folder_option(*sub, opts->output_dir, "folder for rmc.h5, PNGs, chi2 trace, statistics, g(r)");
  sub->add_option("--device", opts->device, "auto|cpu|gpu (auto: the GPU when one is present)")->capture_default_str();
  add_compute_options(*sub, opts->engine.compute, "CPU threads over tiles (0: all)");
  sub->add_option("--cluster", opts->engine.cluster_size, "GPU thread blocks per tile, 1–8 (0: from the SM count)")
      ->capture_default_str();
  sub->add_flag("--quiet,-q", opts->quiet, "no progress bar or summary on stderr");
  add_ranks_per_gpu_option(*sub, opts->ranks_per_gpu);
  sub->callback([opts, context] { run(*opts, context); });
}

}  // namespace nanoscatter::cli
