// `nanoscatter rmc`: reverse Monte Carlo fit of 2D particle arrangements
// (tiles) to a small-angle image. Parses, checks every option and input
// before any work, runs the plan, then writes the output directory.
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/rmc.hpp"

namespace nanoscatter::cli {
namespace {

struct RmcCliOptions {
  std::string target, mask, output_dir;
  std::string device = "auto";
  bool quiet = false;
  std::vector<double> loading;
  std::size_t tile = 0, tiles = 1;
  std::uint64_t steps = 100000, seed = 1;
  double max_distance = 0;
  std::string schedule = "exponential";
  std::string temperature = "auto";
  double final_ratio = 1e-3, target_acceptance = 0.8;
  std::uint64_t probe_moves = 256;
  int multires = 0;
  std::uint64_t multires_steps = 0, refresh_interval = 20000, trace_interval = 0;
  bool crop = false;
  std::string layout = "centred", resample = "crop";
  int threads = 0, cluster = 0;
  int ranks_per_gpu = 1;
};

double parse_temperature(const std::string& s) {
  std::size_t used = 0;
  double t = 0;
  try {
    t = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || s.empty()) fail_at({"", 0, "--temperature"}, "expected a number or 'auto', got '", s, "'");
  return t;
}

// Under mpirun every rank fits its run of tiles; rank 0 collects all tiles
// in rank order, which is the order of their global indices.
void gather_tiles(const parallel::Communicator& comm, RmcResult& result) {
  if (!comm.distributed()) return;
  parallel::ByteWriter w;
  w.put<std::uint64_t>(result.tiles.size());
  for (std::size_t t = 0; t < result.tiles.size(); ++t) {
    const RmcTileResult& r = result.tiles[t];
    w.put(r.loading);
    w.put<std::uint64_t>(r.particles);
    w.put_vector(r.occupancy);
    w.put(r.temperature);
    w.put(r.chi2_initial);
    w.put(r.chi2_final);
    w.put(r.scale);
    w.put(r.tried);
    w.put(r.accepted);
    w.put(r.blocked);
    w.put_vector(result.trace[t]);
  }
  const std::vector<std::string> parts = comm.gather(w.bytes());
  if (!comm.root()) return;
  result.tiles.clear();
  result.trace.clear();
  for (const std::string& part : parts) {
    parallel::ByteReader r(part);
    const auto count = r.get<std::uint64_t>();
    for (std::uint64_t t = 0; t < count; ++t) {
      RmcTileResult tile;
      tile.loading = r.get<double>();
      tile.particles = r.get<std::uint64_t>();
      tile.occupancy = r.get_vector<std::uint8_t>();
      tile.temperature = r.get<double>();
      tile.chi2_initial = r.get<double>();
      tile.chi2_final = r.get<double>();
      tile.scale = r.get<double>();
      tile.tried = r.get<std::uint64_t>();
      tile.accepted = r.get<std::uint64_t>();
      tile.blocked = r.get<std::uint64_t>();
      result.tiles.push_back(std::move(tile));
      result.trace.push_back(r.get_vector<double>());
    }
  }
  result.first_tile = 0;
}

// The output directory may exist (files in it are replaced) or be created
// in an existing parent; checked before the work, created after it.
void check_output_dir(const std::filesystem::path& dir) {
  if (std::filesystem::exists(dir)) {
    if (!std::filesystem::is_directory(dir)) fail_at({dir.string(), 0, "--output-dir"}, "exists and is not a directory");
    return;
  }
  const auto parent = dir.parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent))
    fail_at({dir.string(), 0, "--output-dir"}, "parent directory '", parent.string(), "' does not exist");
}

void run(const RmcCliOptions& o, const RunContext& context) {
  const DeviceRequest request = parse_device(o.device);
  RmcOptions options;
  options.tiles = o.tiles;
  options.loading = o.loading;
  options.steps = o.steps;
  options.seed = o.seed;
  options.max_distance = o.max_distance;
  options.schedule = parse_cooling_schedule(o.schedule);
  if (o.temperature != "auto") options.temperature = parse_temperature(o.temperature);
  options.final_ratio = o.final_ratio;
  options.target_acceptance = o.target_acceptance;
  options.probe_moves = o.probe_moves;
  options.multires_levels = o.multires;
  options.multires_steps = o.multires_steps;
  options.refresh_interval = o.refresh_interval;
  options.trace_interval = o.trace_interval;
  options.threads = o.threads;
  options.cluster_size = o.cluster;
  const parallel::Communicator& comm = context.comm;
  options.quiet = o.quiet || !comm.root();  // one progress bar: rank 0's
  options.share = comm.share();
  TargetOptions target_options;
  target_options.model_size = o.tile;
  target_options.crop_to_square = o.crop;
  target_options.layout = parse_target_layout(o.layout);
  target_options.resample = parse_resample(o.resample);
  check_output_dir(o.output_dir);

  RmcTarget target = load_rmc_target(o.target, o.mask, target_options);
  options.device = select_rank_device(request, o.quiet, o.ranks_per_gpu, context);
  const RmcPlan plan(std::move(target), options);
  RmcResult result = plan.execute();
  const std::size_t my_tiles = result.tiles.size();
  gather_tiles(comm, result);
  parallel::report_load(comm, "rmc", result.seconds, double(my_tiles), o.quiet, options.device);
  if (!comm.root()) return;

  std::filesystem::create_directories(o.output_dir);
  options.share = WorkShare{};
  RmcRecord record{context.command_line, context.version, options};
  write_rmc_outputs(o.output_dir, result, plan.target(), record);
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
  sub->add_option("--loading", opts->loading, "fraction of occupied sites, in (0, 1): one value or one per tile")
      ->required();
  sub->add_option("--tile", opts->tile, "model size N (N×N sites); default: the target's size");
  sub->add_option("--tiles", opts->tiles, "independent replicas fitted at once")->capture_default_str();
  sub->add_option("--steps", opts->steps, "trial moves per tile")->capture_default_str();
  sub->add_option("--seed", opts->seed, "random seed (runs are reproducible for a seed)")->capture_default_str();
  sub->add_option("--max-distance", opts->max_distance, "moves go at most this far (lattice units); 0: anywhere")
      ->capture_default_str();
  sub->add_option("--schedule", opts->schedule, "cooling: fixed|exponential|linear")->capture_default_str();
  sub->add_option("--temperature", opts->temperature,
                  "initial temperature (units of relative chi2), or auto (from a probe targeting --target-acceptance)")
      ->capture_default_str();
  sub->add_option("--final-ratio", opts->final_ratio, "T_final / T0 of the cooling schedule")->capture_default_str();
  sub->add_option("--target-acceptance", opts->target_acceptance, "acceptance ratio the automatic T0 aims at")
      ->capture_default_str();
  sub->add_option("--probe-moves", opts->probe_moves, "trial moves per tile probed for the automatic T0")
      ->capture_default_str();
  sub->add_option("--multires", opts->multires,
                  "multi-resolution start: fit N/2^L … N/2 models to the central low-q crop first")
      ->capture_default_str();
  sub->add_option("--multires-steps", opts->multires_steps, "moves per tile at each coarse level (0: steps/4)")
      ->capture_default_str();
  sub->add_option("--refresh-interval", opts->refresh_interval,
                  "moves between exact FFT recomputations of the model (0: never)")
      ->capture_default_str();
  sub->add_option("--trace-interval", opts->trace_interval, "moves between chi2 trace points (0: ~1000 points)")
      ->capture_default_str();
  sub->add_flag("--crop", opts->crop, "take the central square of a non-square target");
  sub->add_option("--layout", opts->layout, "centred (q = 0 at the centre) or fft (q = 0 at [0][0])")
      ->capture_default_str();
  sub->add_option("--resample", opts->resample, "a target larger than --tile: crop (central window) or rebin")
      ->capture_default_str();
  sub->add_option("--output-dir", opts->output_dir, "directory for rmc.h5, PNGs, chi2 trace, statistics, g(r)")
      ->required();
  sub->add_option("--device", opts->device, "auto|cpu|gpu (auto: the GPU when one is present)")->capture_default_str();
  sub->add_option("--threads", opts->threads, "CPU threads over tiles (0: all)")->capture_default_str();
  sub->add_option("--cluster", opts->cluster, "GPU thread blocks per tile, 1–8 (0: from the SM count)")
      ->capture_default_str();
  sub->add_flag("--quiet,-q", opts->quiet, "no progress bar or summary on stderr");
  add_ranks_per_gpu_option(*sub, opts->ranks_per_gpu);
  sub->callback([opts, context] { run(*opts, context); });
}

}  // namespace nanoscatter::cli
