// CPU benchmarks of the pattern2d engine, end to end through Pattern2DPlan
// on gold fcc spheres (a = 4.078 Å) and a polar detector on the Ewald sphere
// (λ = 1 Å, |q| ≤ 5 Å⁻¹). Axes: atom count, detector pixels, precision,
// threads. Counters: `throughput` in atom·pixel per second and `per_core`
// (throughput / threads): the docs/design.md performance model counts one
// complex exponential per atom·pixel.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cmath>
#include <numbers>
#include <string>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/pattern2d.hpp"

using namespace nanoscatter;

namespace {

constexpr double kGoldNumberDensity = 4.0 / (4.078 * 4.078 * 4.078);  // atoms per Å³

Structure gold_sphere(double n_atoms) {
  LatticeOptions lattice;
  lattice.type = LatticeType::fcc;
  lattice.a = 4.078;
  lattice.elements = {"Au"};
  const double radius = std::cbrt(3.0 * n_atoms / (4.0 * std::numbers::pi * kGoldNumberDensity));
  return cut_crystal(make_lattice(lattice), Sphere{radius});
}

// Args: atoms, detector side (side² pixels: side rings × side azimuths),
// threads (0: all the OpenMP runtime offers).
void run_case(benchmark::State& state, Precision precision) {
  const Structure particle = gold_sphere(double(state.range(0)));
  const int side = int(state.range(1));
  Pattern2DOptions options;
  options.compute.precision = precision;
  options.compute.threads = int(state.range(2));
  const int threads = options.compute.threads > 0 ? options.compute.threads : omp_get_max_threads();
  Pattern2DGeometry g;
  g.wavelength = 1.0;
  g.detector = PolarDetector{5.0, side, side};
  g.orientation = rotation_zyz_degrees(10, 20, 30);
  const Pattern2DPlan plan(particle, options);
  for (auto _ : state) benchmark::DoNotOptimize(plan.execute(g));
  const double work = double(particle.atoms.size()) * double(side) * double(side);
  state.counters["atoms"] = double(particle.atoms.size());
  state.counters["throughput"] = benchmark::Counter(work, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["per_core"] =
      benchmark::Counter(work / double(threads), benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(std::string("pattern2d|cpu ") + to_string(precision) + " Au N=" +
                 std::to_string(particle.atoms.size()) + " " + std::to_string(side) + "^2 px, " +
                 std::to_string(threads) + " threads|atom*pixel/s");
}

void BM_Pattern2DCpuSingle(benchmark::State& s) { run_case(s, Precision::float32); }
void BM_Pattern2DCpuDouble(benchmark::State& s) { run_case(s, Precision::float64); }

}  // namespace

BENCHMARK(BM_Pattern2DCpuSingle)
    ->Args({10000, 128, 1})
    ->Args({10000, 128, 0})
    ->Args({100000, 128, 0})
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK(BM_Pattern2DCpuDouble)->Args({10000, 128, 1})->Args({10000, 128, 0})->Unit(benchmark::kSecond)->UseRealTime();

BENCHMARK_MAIN();
