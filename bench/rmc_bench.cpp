// CPU benchmark of the RMC engine: trial moves per second (float64, OpenMP
// over tiles) through RmcPlan, for N = 64, 256, 512 and K = 1, 2 tiles.
// Time: the move loops only (RmcResult::move_seconds). The floor is the
// same memory model as the GPU's (bench/rmc_bench_gpu.cpp) with this
// path's bytes, 32 B per half-plane pixel (float64 F and target), at an
// assumed 20 GB/s of DRAM bandwidth for one desktop socket; small N run
// from cache and exceed it.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <string>

#include "nanoscatter/rmc.hpp"

using namespace nanoscatter;

namespace {

constexpr double kDramBandwidth = 20e9;    // B/s, one desktop socket (assumed, not measured)
constexpr double kBytesPerHalfPixel = 32;  // re, im, a, w in float64
constexpr double kWorkPerCase = 5e8;       // half-plane pixel updates per case: ~1 s

RmcTarget random_target(int n) {
  std::mt19937_64 rng(2);
  std::bernoulli_distribution occupied(0.3);
  std::vector<std::uint8_t> occ(std::size_t(n) * std::size_t(n));
  for (auto& o : occ) o = occupied(rng) ? 1 : 0;
  RmcTarget t;
  t.size = std::size_t(n);
  t.intensity = rmc_model_intensity(occ, t.size);
  t.intensity[std::size_t(n / 2) * std::size_t(n) + std::size_t(n / 2)] = std::nan("");
  return t;
}

void BM_RmcCpu(benchmark::State& state) {
  const int n = int(state.range(0));
  const auto tiles = std::size_t(state.range(1));
  const double half_pixels = double(n) * double(n / 2 + 1);
  RmcOptions o;
  o.tiles = tiles;
  o.loading = {0.3};
  o.steps = std::uint64_t(std::max(200.0, kWorkPerCase / half_pixels / double(tiles)));
  o.refresh_interval = 0;
  const RmcPlan plan(random_target(n), o);
  RmcResult r;
  for (auto _ : state) {
    r = plan.execute();
    state.SetIterationTime(r.move_seconds);
  }
  state.counters["throughput"] = double(o.steps * tiles) / r.move_seconds;
  state.counters["floor"] = kDramBandwidth / (kBytesPerHalfPixel * half_pixels);
  state.SetLabel("rmc|cpu N=" + std::to_string(n) + " K=" + std::to_string(tiles) + "|moves/s");
}

}  // namespace

BENCHMARK(BM_RmcCpu)->ArgsProduct({{64, 256, 512}, {1, 2}})->Unit(benchmark::kSecond)->UseManualTime()->Iterations(1);

BENCHMARK_MAIN();
