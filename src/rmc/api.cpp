// RmcPlan: the options checked against the target, the multi-resolution
// stages, the automatic initial temperature, and the chunked drive of a
// backend (CPU or CUDA) with periodic exact refreshes of F.
#include <algorithm>
#include <cmath>
#include <cstdio>

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
// The largest model: N² = 2^30 sites keep the int32 site indices (TileSites) valid.
constexpr std::size_t kMaxModelSize = 32768;
// More levels than any model size allows (2^20 > kMaxModelSize), checked
// before the shift 1 << levels.
constexpr int kMaxMultiresLevels = 20;
// A stage's final acceptance is measured over its last 1/kFinalWindow of moves.
constexpr std::uint64_t kFinalWindow = 10;

int schedule_code(CoolingSchedule s) {
  switch (s) {
    case CoolingSchedule::fixed: return kScheduleFixed;
    case CoolingSchedule::exponential: return kScheduleExponential;
    case CoolingSchedule::linear: return kScheduleLinear;
  }
  return kScheduleFixed;
}

double tile_loading(const RmcOptions& o, std::size_t t) { return o.loading.size() == 1 ? o.loading[0] : o.loading[t]; }

// The options against the target: its size, the particle counts the
// loadings give at every level (RmcOptions::validate has checked each
// option alone).
void check_for_target(const RmcTarget& target, const RmcOptions& o) {
  if (target.size < kMinModelSize) fail_option("tile", "model size must be at least ", kMinModelSize, ", got ", target.size);
  if (target.intensity.size() != target.size * target.size) fail("RmcTarget: intensity has the wrong size");
  if (target.size > kMaxModelSize) fail_option("tile", "model size ", target.size, " exceeds ", kMaxModelSize);
  for (double l : o.loading) particle_count(l, int(target.size));
  if (o.multires_levels > 0) {
    const std::size_t f = std::size_t(1) << std::min(o.multires_levels, kMaxMultiresLevels);
    if (o.multires_levels > kMaxMultiresLevels || target.size % f != 0 || target.size / f < kMinModelSize)
      fail_option("multires", o.multires_levels, " levels need the model size ", target.size,
                  " to be a multiple of 2^", o.multires_levels, " with at least ", kMinModelSize, " sites left");
    for (double l : o.loading) particle_count(l, int(target.size / f));
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
  std::vector<double> final_acceptance;  // per tile, over the last 1/kFinalWindow of the moves
  std::vector<double> chi2_initial;
  std::vector<std::vector<double>> trace;
  std::uint64_t trace_interval = 1;
  double move_seconds = 0;
  int cluster_size = 1;
};

// Per-tile initial temperatures. A given T0 is every tile's. Otherwise each
// tile's own probe sets it: at the first (coarsest) stage so that the
// expected acceptance is target_acceptance, which melts the random start;
// at a later multi-resolution stage so that it is the acceptance that tile
// had at the end of the previous stage (`previous_acceptance`), capped at
// target_acceptance. The grown structure is thus annealed on from the
// temperature the coarse fit had reached instead of being melted again,
// and a tile that was still hot stays hot.
std::vector<double> stage_temperatures(RmcBackend& backend, const RmcOptions& o,
                                       const std::vector<double>& previous_acceptance) {
  const std::size_t tiles = backend.status().size();
  if (o.temperature) return std::vector<double>(tiles, *o.temperature);
  const auto deltas = backend.probe(o.probe_moves);
  std::vector<double> t0;
  for (std::size_t t = 0; t < deltas.size(); ++t) {
    const double acceptance =
        previous_acceptance.empty() ? o.target_acceptance : std::min(previous_acceptance[t], o.target_acceptance);
    t0.push_back(initial_temperature(deltas[t], acceptance));
  }
  return t0;
}

StageResult run_stage(const RmcTarget& target, std::vector<TileSites> tiles, std::uint64_t steps,
                      const RmcOptions& o, std::size_t first_tile, const std::string& label,
                      const std::vector<double>& previous_acceptance) {
  const FoldedTarget folded = fold_target(target);
  RunSettings s;
  s.seed = o.seed;
  s.first_tile = std::uint32_t(first_tile);
  s.schedule = schedule_code(o.schedule);
  s.final_ratio = o.final_ratio;
  s.fixed_scale = o.fixed_scale();
  s.total_moves = steps;
  s.trace_interval = o.trace_interval ? o.trace_interval : std::max<std::uint64_t>(1, (steps + kDefaultTracePoints - 1) / kDefaultTracePoints);
  s.trace_points = std::size_t(steps / s.trace_interval);
  s.offsets = move_offsets(o.max_distance, int(target.size));

  std::unique_ptr<RmcBackend> backend;
  if (o.compute.device == Device::gpu) {
#if NANOSCATTER_HAVE_CUDA
    CudaRmcOptions c;
    c.cluster_size = o.cluster_size;
    c.max_device_memory = o.compute.max_device_memory;
    backend = make_cuda_backend(folded, std::move(tiles), s, c);
#else
    require_gpu();  // validate() has said it: this build has no CUDA support
#endif
  } else {
    backend = make_cpu_backend(folded, std::move(tiles), s, o.compute.threads);
  }
  StageResult r;
  r.trace_interval = s.trace_interval;
  r.cluster_size = backend->cluster_size();
  const auto start = backend->status();
  for (const TileStatus& t : start)
    r.chi2_initial.push_back(relative_chi2(t.sums.s_pi, t.sums.s_ii, folded.s_pp, s.fixed_scale));
  r.temperature = stage_temperatures(*backend, o, previous_acceptance);
  backend->set_temperatures(r.temperature);
  // The last window's counts start from the status at this move.
  const std::uint64_t window_start = steps - std::max<std::uint64_t>(1, steps / kFinalWindow);
  std::vector<TileStatus> at_window = start;

  ProgressOptions po;
  po.quiet = o.compute.quiet;
  Progress progress(label, steps * start.size(), po);
  std::uint64_t chunk = 1;  // grows to about kSecondsPerCall of work per call
  for (std::uint64_t m = 0; m < steps;) {
    const std::uint64_t next_refresh = o.refresh_interval ? (m / o.refresh_interval + 1) * o.refresh_interval : steps;
    const std::uint64_t to_window = m < window_start ? window_start - m : steps - m;
    const std::uint64_t count = std::min({chunk, steps - m, next_refresh - m, to_window});
    const Stopwatch t0;
    backend->run(m, count);
    const double dt = t0.seconds();
    r.move_seconds += dt;
    m += count;
    progress.advance(count * start.size());
    if (o.refresh_interval && m % o.refresh_interval == 0 && m < steps) backend->refresh();
    if (m == window_start && m > 0) at_window = backend->status();
    const double grow = dt > 0 ? kSecondsPerCall / dt : 4.0;
    chunk = std::max<std::uint64_t>(1, std::uint64_t(double(count) * std::clamp(grow, 0.5, 4.0)));
  }
  progress.finish();
  r.status = backend->status();
  r.trace = backend->trace();
  for (std::size_t t = 0; t < r.status.size(); ++t) {
    const double tried = double(r.status[t].tried - at_window[t].tried);
    r.final_acceptance.push_back(tried > 0 ? double(r.status[t].accepted - at_window[t].accepted) / tried : 0.0);
  }
  return r;
}

}  // namespace

struct RmcPlan::Impl {
  RmcTarget target;
  RmcOptions options;
  std::vector<std::vector<std::uint8_t>> initial;
};

RmcPlan::RmcPlan(RmcTarget target, RmcOptions options) : impl_(std::make_unique<Impl>()) {
  options.validate();
  if (!options.loading_scan.empty()) {  // one plan for all loadings: tiles per loading side by side
    options.loading.clear();
    for (double l : options.loading_scan) options.loading.insert(options.loading.end(), options.tiles, l);
    options.tiles *= options.loading_scan.size();
  }
  check_for_target(target, options);
  if (!options.keep_zero_q) {
    target.intensity[(target.size / 2) * target.size + target.size / 2] = std::nan("");
    if (!options.compute.quiet)
      std::fprintf(stderr, "rmc: the q = 0 pixel (image centre) is masked; --keep-zero-q (keep_zero_q=True) keeps it\n");
  }
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
    idle.device = o.compute.device;
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
  // to the central low-q crop, then grown to the next size. Each stage's
  // final acceptance per tile sets the next stage's T0 (stage_temperatures).
  std::vector<double> acceptance;
  for (int level = levels; level >= 1; --level) {
    const int size = n >> level;
    const std::uint64_t steps = o.multires_steps ? o.multires_steps : std::max<std::uint64_t>(1, o.steps / 4);
    const StageResult stage = run_stage(central_crop(impl_->target, std::size_t(size)), std::move(tiles), steps, o,
                                        t0, "rmc " + std::to_string(size) + "²", acceptance);
    acceptance = stage.final_acceptance;
    tiles.assign(local, TileSites{});
    for (std::size_t i = 0; i < local; ++i) {
      const std::uint32_t particles = particle_count(tile_loading(o, t0 + i), 2 * size);
      tiles[i] = tile_from_occupancy(2 * size, grow_occupancy(stage.status[i].occupancy, size, particles, o.seed,
                                                                std::uint32_t(t0 + i)));
    }
  }
  const StageResult stage = run_stage(impl_->target, std::move(tiles), o.steps, o, t0, "rmc", acceptance);

  RmcResult result;
  result.size = std::size_t(n);
  result.first_tile = t0;
  result.device = o.compute.device;
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
    tr.final_acceptance = stage.final_acceptance[t];
    tr.chi2_final = relative_chi2(exact[t].s_pi, exact[t].s_ii, folded.s_pp, o.fixed_scale());
    tr.chi2_free = relative_chi2(exact[t].s_pi, exact[t].s_ii, folded.s_pp);
    tr.scale = chi2_scale_used(exact[t].s_pi, exact[t].s_ii, o.fixed_scale());
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
