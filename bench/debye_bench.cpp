// CPU benchmarks of the Debye pair kernels (src/debye/pair_sums_*.cpp) on a
// triangle (one species, every unique pair once) of N atoms spread with
// the number density of a metal (0.06 Å⁻³) in a ball, N_Q = 1456 (a uniform
// grid 0.1–12 Å⁻¹, the recurrence path; "direct" cases jitter the grid so
// that the kernels evaluate sin(q r) directly for every pair·Q).
//
// Counters (rates over the process CPU time, i.e. summed over all threads,
// so they are per core, include OpenMP's waiting, and stay meaningful when
// other processes share the machine; the Time column is wall time):
//   pairQ_per_s_core  unique pair·Q per second per core (exact)
//   pairs_per_s_core  unique pairs per second per core (histogram)
// Arguments: {N, threads}. Operation counts: N(N−1)/2 · N_Q sinc terms
// (exact), N(N−1)/2 distances (histogram) — docs/design.md performance model.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>

#include "debye/pair_sums.hpp"
#include "nanoscatter/constants.hpp"
#include "nanoscatter/debye.hpp"

using namespace nanoscatter;
using namespace nanoscatter::debye;

namespace {

constexpr int kQPoints = 1456;
constexpr double kNumberDensity = 0.06;  // atoms per Å³ (Au: 0.059)

AtomBlock ball(std::size_t n) {
  const double radius = std::cbrt(3.0 * double(n) / (4.0 * kPi * kNumberDensity));
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-1, 1);
  AtomBlock b;
  while (b.size() < n) {
    const double x = u(rng), y = u(rng), z = u(rng);
    if (x * x + y * y + z * z > 1) continue;
    b.x.push_back(radius * x);
    b.y.push_back(radius * y);
    b.z.push_back(radius * z);
    b.w.push_back(1.0);
  }
  return b;
}

std::vector<double> q_grid(bool uniform) {
  auto q = uniform_q_grid(0.1, 12.0, kQPoints);
  if (!uniform)
    for (std::size_t k = 1; k + 1 < q.size(); k += 2) q[k] += 1e-4;  // breaks uniformity
  return q;
}

enum class Path { fast_single, fast_double, reference };

void exact_case(benchmark::State& state, Path path, bool uniform) {
  const auto n = std::size_t(state.range(0));
  const int threads = path == Path::reference ? 1 : int(state.range(1));
  const AtomBlock atoms = ball(n);
  const auto q = q_grid(uniform);
  std::vector<double> out(q.size());
  for (auto _ : state) {
    std::fill(out.begin(), out.end(), 0.0);
    if (path == Path::reference)
      exact_pair_sums_reference(atoms, atoms, PairSet::triangle, q, out);
    else
      exact_pair_sums_cpu(atoms, atoms, PairSet::triangle, q, out,
                          path == Path::fast_single ? Precision::float32 : Precision::float64, threads);
    benchmark::DoNotOptimize(out.data());
  }
  const double pairs = 0.5 * double(n) * double(n - 1);
  state.counters["threads"] = threads;
  state.counters["pairQ_per_s_core"] =
      benchmark::Counter(pairs * kQPoints, benchmark::Counter::kIsIterationInvariantRate);
}

void histogram_case(benchmark::State& state) {
  const auto n = std::size_t(state.range(0));
  const int threads = int(state.range(1));
  const AtomBlock atoms = ball(n);
  for (auto _ : state) {
    PairHistogram h;
    h.bin_width = 1e-3;
    pair_histogram_cpu(atoms, atoms, PairSet::triangle, h, threads);
    benchmark::DoNotOptimize(h.count.data());
  }
  const double pairs = 0.5 * double(n) * double(n - 1);
  state.counters["threads"] = threads;
  state.counters["pairs_per_s_core"] =
      benchmark::Counter(pairs, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_DebyeCpuFloat32(benchmark::State& s) { exact_case(s, Path::fast_single, true); }
void BM_DebyeCpuFloat64(benchmark::State& s) { exact_case(s, Path::fast_double, true); }
void BM_DebyeCpuFloat32Direct(benchmark::State& s) { exact_case(s, Path::fast_single, false); }
void BM_DebyeCpuFloat64Direct(benchmark::State& s) { exact_case(s, Path::fast_double, false); }
void BM_DebyeCpuReference(benchmark::State& s) { exact_case(s, Path::reference, true); }
void BM_DebyeCpuHistogram(benchmark::State& s) { histogram_case(s); }

}  // namespace

// {N, threads}: one thread (per-core rate) and two (the CI machine's cores).
#define NS_SIZES ->Args({2000, 1})->Args({2000, 2})->Args({5000, 2})->Args({20000, 2})
BENCHMARK(BM_DebyeCpuFloat32) NS_SIZES->Unit(benchmark::kSecond)->MeasureProcessCPUTime()->Iterations(1);
BENCHMARK(BM_DebyeCpuFloat64) NS_SIZES->Unit(benchmark::kSecond)->MeasureProcessCPUTime()->Iterations(1);
BENCHMARK(BM_DebyeCpuFloat32Direct)->Args({2000, 1})->Args({2000, 2})->Unit(benchmark::kSecond)->MeasureProcessCPUTime()->Iterations(1);
BENCHMARK(BM_DebyeCpuFloat64Direct)->Args({2000, 1})->Args({2000, 2})->Unit(benchmark::kSecond)->MeasureProcessCPUTime()->Iterations(1);
// The reference is serial: ~10 ns per pair·Q, 30 s at N = 2000.
BENCHMARK(BM_DebyeCpuReference)->Args({2000, 1})->Unit(benchmark::kSecond)->MeasureProcessCPUTime()->Iterations(1);
BENCHMARK(BM_DebyeCpuHistogram)->Args({20000, 1})->Args({20000, 2})->Unit(benchmark::kSecond)->MeasureProcessCPUTime()->Iterations(1);

BENCHMARK_MAIN();
