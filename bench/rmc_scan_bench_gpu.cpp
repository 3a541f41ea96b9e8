// GPU cases of issue 22 (quality and time, not throughput): the 512×512
// loading scan with the absolute χ² and the 64×64 convergence case.
//   build/bench/rmc_scan_bench_gpu [--benchmark_format=json]
// (or bench/gpu_suite.sh, which runs every *_bench_gpu program).
// Scan: a Boolean-model disc target of loading ≈ 0.25 made by the forward
// model (I = |FFT2(A)|², absolute scale), Poisson noise at 1e4 counts in
// the brightest ring, q = 0 and its 8 neighbours masked; loadings
// 0.05:0.45:0.05, kScanTilesPerLoading tiles each, kScanMovesPerSite moves
// per site. Counters: true and found (parabola-refined) loading, |error|.
// Convergence: random sites at loading 0.25, 64×64, noise-free, 100 moves
// per site; counter: χ² reduction from the random start (issue: ≥ 0.99).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "nanoscatter/device.hpp"
#include "nanoscatter/rmc.hpp"

using namespace nanoscatter;

namespace {

constexpr double kRingCounts = 1e4;
constexpr double kBeamstop = 1.5;          // pixels
constexpr std::size_t kScanTilesPerLoading = 4;
constexpr std::uint64_t kScanMovesPerSite = 30;
constexpr std::uint64_t kConvergenceMovesPerSite = 100;

std::vector<std::uint8_t> discs(int n, double loading, double radius, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> position(0, n);
  std::vector<std::uint8_t> occ(std::size_t(n) * n, 0);
  std::size_t occupied = 0;
  while (double(occupied) < loading * n * n) {
    const double cx = position(rng), cy = position(rng);
    for (int x = int(cx - radius) - 1; x <= int(cx + radius) + 1; ++x)
      for (int y = int(cy - radius) - 1; y <= int(cy + radius) + 1; ++y) {
        auto& site = occ[std::size_t((x + n) % n) * n + std::size_t((y + n) % n)];
        if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius && !site) {
          site = 1;
          ++occupied;
        }
      }
  }
  return occ;
}

RmcTarget noisy_target(const std::vector<std::uint8_t>& occ, int n, std::mt19937_64& rng) {
  RmcTarget t;
  t.size = std::size_t(n);
  t.intensity = rmc_model_intensity(occ, t.size);
  const auto rings = radial_average(t.intensity, t.size);
  const double brightest = *std::max_element(rings.begin() + 2, rings.end());
  const double per_unit = kRingCounts / brightest;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      double& p = t.intensity[std::size_t(r) * n + c];
      if ((r - n / 2) * (r - n / 2) + (c - n / 2) * (c - n / 2) <= kBeamstop * kBeamstop) {
        p = std::nan("");
        continue;
      }
      std::poisson_distribution<long long> counts(p * per_unit);
      p = double(counts(rng)) / per_unit;
    }
  return t;
}

void BM_RmcLoadingScanGpu(benchmark::State& state) {
  if (cuda_device_count() == 0) {
    state.SkipWithError("no CUDA device");
    return;
  }
  const int n = int(state.range(0));
  std::mt19937_64 rng(7);
  const auto truth = discs(n, 0.25, n / 64.0 * 2.5, rng);
  double true_loading = 0;
  for (auto v : truth) true_loading += v;
  true_loading /= double(truth.size());
  const RmcTarget target = noisy_target(truth, n, rng);
  RmcOptions o;
  o.loading_scan = parse_loading_scan("0.05:0.45:0.05");
  o.tiles = kScanTilesPerLoading;
  o.chi2_scale = Chi2Scale::absolute;
  o.steps = kScanMovesPerSite * std::uint64_t(n) * std::uint64_t(n);
  o.compute.device = Device::gpu;
  o.compute.quiet = true;
  RmcLoadingScan scan;
  for (auto _ : state) {
    const RmcPlan plan(target, o);
    scan = rmc_loading_scan(plan.execute(), plan.options());
  }
  state.counters["true_loading"] = true_loading;
  state.counters["found_loading"] = scan.refined_loading;
  state.counters["error"] = std::abs(scan.refined_loading - true_loading);
}
BENCHMARK(BM_RmcLoadingScanGpu)->Arg(512)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

void BM_RmcConvergenceGpu(benchmark::State& state) {
  if (cuda_device_count() == 0) {
    state.SkipWithError("no CUDA device");
    return;
  }
  const int n = int(state.range(0));
  std::mt19937_64 rng(11);
  std::vector<std::uint8_t> truth(std::size_t(n) * n, 0);
  std::fill(truth.begin(), truth.begin() + std::ptrdiff_t(truth.size() / 4), 1);
  std::shuffle(truth.begin(), truth.end(), rng);
  RmcTarget target;
  target.size = std::size_t(n);
  target.intensity = rmc_model_intensity(truth, target.size);
  RmcOptions o;
  o.loading = {0.25};
  o.chi2_scale = Chi2Scale::absolute;
  o.steps = kConvergenceMovesPerSite * std::uint64_t(n) * std::uint64_t(n);
  o.compute.device = Device::gpu;
  o.compute.quiet = true;
  RmcTileResult tile;
  for (auto _ : state) tile = RmcPlan(target, o).execute().tiles[0];
  state.counters["chi2_initial"] = tile.chi2_initial;
  state.counters["chi2_final"] = tile.chi2_final;
  state.counters["reduction"] = 1 - tile.chi2_final / tile.chi2_initial;
}
BENCHMARK(BM_RmcConvergenceGpu)->Arg(64)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
