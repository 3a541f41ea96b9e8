// RmcPlan: option checks, the multi-resolution stages, the automatic
// initial temperature, and the chunked drive of a backend (CPU or CUDA)
// with periodic exact refreshes of F.
#include <algorithm>
#include <cmath>

#include "core/omp_errors.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/progress.hpp"
#include "nanoscatter/rmc.hpp"
#include "nanoscatter/stopwatch.hpp"
#include "rmc/backend.hpp"
#include "rmc/chi2.hpp"
#include "rmc/model.hpp"
#include "rmc/moves.hpp"
#include "rmc/schedule.hpp"
#include "rmc/spectrum.hpp"

namespace nanoscatter {

using namespace rmc;

namespace {

// Trace points when RmcOptions::trace_interval is 0.
constexpr std::uint64_t kDefaultTracePoints = 1000;
// Each backend call should take about this long, so that the progress bar
// moves and a call's fixed cost (a kernel launch, thread start-up) is small.
constexpr double kSecondsPerCall = 0.25;
// The smallest model a stage may have (multi-resolution levels stop here).
constexpr std::size_t kMinModelSize = 4;

int schedule_code(CoolingSchedule s) {
  switch (s) {
    case CoolingSchedule::fixed: return kScheduleFixed;
    case CoolingSchedule::exponential: return kScheduleExponential;
    case CoolingSchedule::linear: return kScheduleLinear;
  }
  return kScheduleFixed;
}

double tile_loading(const RmcOptions& o, std::size_t t) { return o.loading.size() == 1 ? o.loading[0] : o.loading[t]; }

void check_options(const RmcTarget& target, const RmcOptions& o) {
  if (target.size < kMinModelSize) fail_option("tile", "model size must be at least ", kMinModelSize, ", got ", target.size);
  if (target.intensity.size() != target.size * target.size) fail("RmcTarget: intensity has the wrong size");
  if (target.size > 32768) fail_option("tile", "model size ", target.size, " exceeds 32768");
  if (o.tiles < 1 || o.tiles > (1u << 20)) fail_option("tiles", "must lie in [1, 1048576], got ", o.tiles);
  if (o.loading.size() != 1 && o.loading.size() != o.tiles)
    fail_option("loading", "give one loading or one per tile (", o.tiles, "), got ", o.loading.size());
  for (double l : o.loading) particle_count(l, int(target.size));
  if (o.steps < 1) fail_option("steps", "must be at least 1");
  if (!(o.max_distance >= 0) || !std::isfinite(o.max_distance))
    fail_option("max_distance", "must be ≥ 0 and finite, got ", o.max_distance);
  if (o.max_distance > 0 && o.max_distance < 1)
    fail_option("max_distance", "must be 0 (anywhere) or ≥ 1 lattice unit, got ", o.max_distance);
  if (o.temperature && (!(*o.temperature >= 0) || !std::isfinite(*o.temperature)))
    fail_option("temperature", "must be ≥ 0 and finite, got ", *o.temperature);
  if (!(o.target_acceptance > 0 && o.target_acceptance < 1))
    fail_option("target_acceptance", "must lie in (0, 1), got ", o.target_acceptance);
  if (!o.temperature && o.probe_moves < 1) fail_option("probe_moves", "must be at least 1");
  if (o.schedule == CoolingSchedule::exponential && !(o.final_ratio > 0 && std::isfinite(o.final_ratio)))
    fail_option("final_ratio", "exponential cooling needs T_final/T0 > 0, got ", o.final_ratio);
  if (o.schedule == CoolingSchedule::linear && !(o.final_ratio >= 0 && std::isfinite(o.final_ratio)))
    fail_option("final_ratio", "linear cooling needs T_final/T0 ≥ 0, got ", o.final_ratio);
  if (o.multires_levels < 0) fail_option("multires", "must be ≥ 0, got ", o.multires_levels);
  if (o.multires_levels > 0) {
    const std::size_t f = std::size_t(1) << std::min(o.multires_levels, 20);
    if (o.multires_levels > 20 || target.size % f != 0 || target.size / f < kMinModelSize)
      fail_option("multires", o.multires_levels, " levels need the model size ", target.size,
              " to be a multiple of 2^", o.multires_levels, " with at least ", kMinModelSize, " sites left");
    for (double l : o.loading) particle_count(l, int(target.size / f));
  }
  if (o.threads < 0) fail_option("threads", "must be ≥ 0, got ", o.threads);
  validate_work_share(o.share);
  if (o.cluster_size < 0 || o.cluster_size > 8) fail_option("cluster", "must lie in [0, 8], got ", o.cluster_size);
  if (o.device == Device::gpu) {
#if NANOSCATTER_HAVE_CUDA
    if (cuda_device_count() == 0) fail_option("device", "gpu requested but no CUDA device is available");
#else
    fail_option("device", "gpu requested but this build has no CUDA support");
#endif
  }
}

// The central n×n crop of a centred target: the low-q part a coarser
// lattice (site spacing ×N/n, same field of view) reaches.
RmcTarget central_crop(const RmcTarget& t, std::size_t n) {
  RmcTarget c;
  c.size = n;
  c.source = t.source;
  c.intensity.resize(n * n);
  const std::size_t r0 = t.size / 2 - n / 2;
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t col = 0; col < n; ++col) c.intensity[r * n + col] = t.intensity[(r0 + r) * t.size + r0 + col];
  return c;
}

struct StageResult {
  std::vector<TileStatus> status;
  std::vector<double> temperature;
  std::vector<double> chi2_initial;
  std::vector<std::vector<double>> trace;
  std::uint64_t trace_interval = 1;
  double move_seconds = 0;
  int cluster_size = 1;
};

StageResult run_stage(const RmcTarget& target, std::vector<TileSites> tiles, std::uint64_t steps,
                      const RmcOptions& o, std::size_t first_tile, const std::string& label) {
  const FoldedTarget folded = fold_target(target);
  RunSettings s;
  s.seed = o.seed;
  s.first_tile = std::uint32_t(first_tile);
  s.schedule = schedule_code(o.schedule);
  s.final_ratio = o.final_ratio;
  s.total_moves = steps;
  s.trace_interval = o.trace_interval ? o.trace_interval : std::max<std::uint64_t>(1, (steps + kDefaultTracePoints - 1) / kDefaultTracePoints);
  s.trace_points = std::size_t(steps / s.trace_interval);
  s.offsets = move_offsets(o.max_distance, int(target.size));

  std::unique_ptr<RmcBackend> backend;
  if (o.device == Device::gpu) {
#if NANOSCATTER_HAVE_CUDA
    CudaRmcOptions c;
    c.cluster_size = o.cluster_size;
    c.max_device_memory = o.max_device_memory;
    backend = make_cuda_backend(folded, std::move(tiles), s, c);
#else
    fail_option("device", "gpu requested but this build has no CUDA support");
#endif
  } else {
    backend = make_cpu_backend(folded, std::move(tiles), s, o.threads);
  }
  StageResult r;
  r.trace_interval = s.trace_interval;
  r.cluster_size = backend->cluster_size();
  const auto start = backend->status();
  for (const TileStatus& t : start) r.chi2_initial.push_back(relative_chi2(t.sums.s_pi, t.sums.s_ii, folded.s_pp));

  if (o.temperature) {
    r.temperature.assign(start.size(), *o.temperature);
  } else {
    const auto deltas = backend->probe(o.probe_moves);
    for (const auto& d : deltas) r.temperature.push_back(initial_temperature(d, o.target_acceptance));
  }
  backend->set_temperatures(r.temperature);

  ProgressOptions po;
  po.quiet = o.quiet;
  Progress progress(label, steps * start.size(), po);
  std::uint64_t chunk = 1;  // grows to about kSecondsPerCall of work per call
  for (std::uint64_t m = 0; m < steps;) {
    const std::uint64_t next_refresh = o.refresh_interval ? (m / o.refresh_interval + 1) * o.refresh_interval : steps;
    const std::uint64_t count = std::min({chunk, steps - m, next_refresh - m});
    const Stopwatch t0;
    backend->run(m, count);
    const double dt = t0.seconds();
    r.move_seconds += dt;
    m += count;
    progress.advance(count * start.size());
    if (o.refresh_interval && m % o.refresh_interval == 0 && m < steps) backend->refresh();
    const double grow = dt > 0 ? kSecondsPerCall / dt : 4.0;
    chunk = std::max<std::uint64_t>(1, std::uint64_t(double(count) * std::clamp(grow, 0.5, 4.0)));
  }
  progress.finish();
  r.status = backend->status();
  r.trace = backend->trace();
  return r;
}

}  // namespace

CoolingSchedule parse_cooling_schedule(const std::string& name) {
  if (name == "fixed") return CoolingSchedule::fixed;
  if (name == "exponential") return CoolingSchedule::exponential;
  if (name == "linear") return CoolingSchedule::linear;
  fail_option("schedule", "unknown schedule '", name, "' (expected fixed, exponential or linear)");
}

const char* to_string(CoolingSchedule schedule) {
  switch (schedule) {
    case CoolingSchedule::fixed: return "fixed";
    case CoolingSchedule::exponential: return "exponential";
    case CoolingSchedule::linear: return "linear";
  }
  return "?";
}

struct RmcPlan::Impl {
  RmcTarget target;
  RmcOptions options;
  std::vector<std::vector<std::uint8_t>> initial;
};

RmcPlan::RmcPlan(RmcTarget target, RmcOptions options) : impl_(std::make_unique<Impl>()) {
  check_options(target, options);
  impl_->target = std::move(target);
  impl_->options = std::move(options);
}

RmcPlan::~RmcPlan() = default;
RmcPlan::RmcPlan(RmcPlan&&) noexcept = default;
RmcPlan& RmcPlan::operator=(RmcPlan&&) noexcept = default;
const RmcTarget& RmcPlan::target() const { return impl_->target; }
const RmcOptions& RmcPlan::options() const { return impl_->options; }

void RmcPlan::set_initial_occupancy(std::vector<std::vector<std::uint8_t>> occupancy) {
  if (occupancy.size() != impl_->options.tiles)
    fail("set_initial_occupancy: ", occupancy.size(), " occupancies for ", impl_->options.tiles, " tiles");
  if (impl_->options.multires_levels > 0) fail_option("multires", "cannot start from a given occupancy");
  const int n = int(impl_->target.size);
  for (const auto& occ : occupancy) tile_from_occupancy(n, occ);  // checks size and counts
  impl_->initial = std::move(occupancy);
}

RmcResult RmcPlan::execute() const {
  const Stopwatch start;
  const RmcOptions& o = impl_->options;
  const int n = int(impl_->target.size);
  const int levels = o.multires_levels;
  // This part's tiles [t0, t0 + local); t0 + i is tile i's global index.
  const auto [t0, t_end] = o.share.range(o.tiles);
  const std::size_t local = t_end - t0;
  if (local == 0) {  // more parts than tiles: nothing to do here
    RmcResult idle;
    idle.size = std::size_t(n);
    idle.device = o.device;
    idle.first_tile = t0;
    idle.seconds = start.seconds();
    return idle;
  }

  std::vector<TileSites> tiles(local);
  if (!impl_->initial.empty()) {
    for (std::size_t i = 0; i < local; ++i) tiles[i] = tile_from_occupancy(n, impl_->initial[t0 + i]);
  } else {
    const int first = n >> levels;
    for (std::size_t i = 0; i < local; ++i)
      tiles[i] = random_tile(first, particle_count(tile_loading(o, t0 + i), first), o.seed, std::uint32_t(t0 + i));
  }
  // Coarse stages: same field of view with 2^L-times larger sites, fitted
  // to the central low-q crop, then grown to the next size.
  for (int level = levels; level >= 1; --level) {
    const int size = n >> level;
    const std::uint64_t steps = o.multires_steps ? o.multires_steps : std::max<std::uint64_t>(1, o.steps / 4);
    const StageResult stage = run_stage(central_crop(impl_->target, std::size_t(size)), std::move(tiles), steps, o,
                                        t0, "rmc " + std::to_string(size) + "²");
    tiles.assign(local, TileSites{});
    for (std::size_t i = 0; i < local; ++i) {
      const std::uint32_t particles = particle_count(tile_loading(o, t0 + i), 2 * size);
      tiles[i] = tile_from_occupancy(2 * size, grow_occupancy(stage.status[i].occupancy, size, particles, o.seed,
                                                                std::uint32_t(t0 + i)));
    }
  }
  const StageResult stage = run_stage(impl_->target, std::move(tiles), o.steps, o, t0, "rmc");

  RmcResult result;
  result.size = std::size_t(n);
  result.first_tile = t0;
  result.device = o.device;
  result.cluster_size = stage.cluster_size;
  result.move_seconds = stage.move_seconds;
  result.trace_moves.push_back(0);
  for (std::size_t p = 0; p < stage.trace.front().size(); ++p) result.trace_moves.push_back((p + 1) * stage.trace_interval);
  const FoldedTarget folded = fold_target(impl_->target);
  // The final χ² from an exact FFT of each final occupancy, independent of
  // the running sums (OpenMP over tiles).
  std::vector<ChiSums> exact(local);
  OmpErrors errors;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t t = 0; t < local; ++t)
    errors.capture([&] { exact[t] = chi_sums(folded, exact_spectrum(stage.status[t].occupancy, n)); });
  errors.rethrow();
  for (std::size_t t = 0; t < local; ++t) {
    const TileStatus& s = stage.status[t];
    RmcTileResult tr;
    tr.loading = tile_loading(o, t0 + t);
    tr.particles = s.particles;
    tr.occupancy = s.occupancy;
    tr.temperature = stage.temperature[t];
    tr.chi2_initial = stage.chi2_initial[t];
    tr.chi2_final = relative_chi2(exact[t].s_pi, exact[t].s_ii, folded.s_pp);
    tr.scale = fitted_scale(exact[t].s_pi, exact[t].s_ii);
    tr.tried = s.tried;
    tr.accepted = s.accepted;
    tr.blocked = s.blocked;
    result.tiles.push_back(std::move(tr));
    std::vector<double> trace{stage.chi2_initial[t]};
    trace.insert(trace.end(), stage.trace[t].begin(), stage.trace[t].end());
    result.trace.push_back(std::move(trace));
  }
  result.seconds = start.seconds();
  return result;
}

}  // namespace nanoscatter
