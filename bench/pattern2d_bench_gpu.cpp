// GPU benchmarks of the pattern2d engine, end to end through Pattern2DPlan:
// gold fcc spheres (a = 4.078 Å) on a 512 × 512 polar detector on the Ewald
// sphere (λ = 1 Å, |q| ≤ 5 Å⁻¹, general orientation). Throughput in
// atom·pixel per second. Floor (docs/design.md performance model, issue 4):
// 4.0e12 /s, the measured __sinf rate of one H200 counted as one sincos per
// atom·pixel (an H100 SXM has the same 132 SMs and special-function rate);
// the target is ≥ 1e12 /s for 10⁵ atoms × 512² pixels.
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <string>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/device.hpp"
#include "nanoscatter/pattern2d.hpp"
#include "pattern2d/phase_sums.hpp"

using namespace nanoscatter;

namespace {

constexpr double kSincosFloor = 4.0e12;  // atom·pixel/s (issue 4: __sinf rate on one H200)
constexpr double kGoldNumberDensity = 4.0 / (4.078 * 4.078 * 4.078);  // atoms per Å³

Structure gold_sphere(double n_atoms) {
  LatticeOptions lattice;
  lattice.type = LatticeType::fcc;
  lattice.a = 4.078;
  lattice.elements = {"Au"};
  const double radius = std::cbrt(3.0 * n_atoms / (4.0 * std::numbers::pi * kGoldNumberDensity));
  return cut_crystal(make_lattice(lattice), Sphere{radius});
}

// Args: atoms, detector side (side rings × side azimuths).
void run_case(benchmark::State& state, Precision precision) {
  if (cuda_device_count() == 0) {
    state.SkipWithError("no CUDA device");
    return;
  }
  const Structure particle = gold_sphere(double(state.range(0)));
  const int side = int(state.range(1));
  Pattern2DOptions options;
  options.compute.device = Device::gpu;
  options.compute.precision = precision;
  Pattern2DGeometry g;
  g.wavelength = 1.0;
  g.detector = PolarDetector{5.0, side, side};
  g.orientation = rotation_zyz_degrees(10, 20, 30);
  const Pattern2DPlan plan(particle, options);
  benchmark::DoNotOptimize(plan.execute(g));  // warm-up: context, module load
  for (auto _ : state) benchmark::DoNotOptimize(plan.execute(g));
  const double work = double(particle.atoms.size()) * double(side) * double(side);
  state.counters["atoms"] = double(particle.atoms.size());
  state.counters["throughput"] = benchmark::Counter(work, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["floor"] = kSincosFloor;
  state.SetLabel(std::string("pattern2d|") + to_string(precision) + " Au N=" +
                 std::to_string(particle.atoms.size()) + " " + std::to_string(side) + "^2 px|atom*pixel/s");
}

// The phase sums alone (internal kernel entry: atom packing, transfers and
// kernels, without the detector grid, factors and intensity on the host).
void BM_Pattern2DGpuKernel(benchmark::State& state) {
  if (cuda_device_count() == 0) {
    state.SkipWithError("no CUDA device");
    return;
  }
#if NANOSCATTER_HAVE_CUDA
  const Structure particle = gold_sphere(double(state.range(0)));
  const int side = int(state.range(1));
  const auto species = pattern2d::group_species(particle);
  std::vector<pattern2d::AtomGroups> groups;
  for (const auto& list : species.atoms) groups.push_back(pattern2d::make_atom_groups(list));
  Pattern2DGeometry g;
  g.wavelength = 1.0;
  g.detector = PolarDetector{5.0, side, side};
  const auto grid = make_detector_grid(g);
  std::vector<std::complex<double>> out(grid.q.size());
  pattern2d::phase_sums_cuda(groups, grid.q, out, {});  // warm-up
  for (auto _ : state) pattern2d::phase_sums_cuda(groups, grid.q, out, {});
  const double work = double(particle.atoms.size()) * double(grid.q.size());
  state.counters["atoms"] = double(particle.atoms.size());
  state.counters["throughput"] = benchmark::Counter(work, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["floor"] = kSincosFloor;
  state.SetLabel("pattern2d|kernel single Au N=" + std::to_string(particle.atoms.size()) + " " +
                 std::to_string(side) + "^2 px|atom*pixel/s");
#endif
}

void BM_Pattern2DGpuSingle(benchmark::State& s) { run_case(s, Precision::float32); }
void BM_Pattern2DGpuDouble(benchmark::State& s) { run_case(s, Precision::float64); }

}  // namespace

// 10⁵ atoms × 512² pixels is the benchmark row.
BENCHMARK(BM_Pattern2DGpuSingle)
    ->Args({100000, 512})
    ->Args({10000, 512})
    ->Args({1000000, 512})
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(3);
BENCHMARK(BM_Pattern2DGpuKernel)->Args({100000, 512})->Unit(benchmark::kSecond)->UseRealTime()->Iterations(5);
BENCHMARK(BM_Pattern2DGpuDouble)->Args({100000, 512})->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);

BENCHMARK_MAIN();
