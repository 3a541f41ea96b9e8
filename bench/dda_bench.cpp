// CPU benchmark of the DDA engine: time per matrix–vector product and the
// whole solve for spheres (x = 5·grid/32, m = 1.5) on 16³, 32³, 64³ grids.
#include <benchmark/benchmark.h>

#include <string>

#include "nanoscatter/dda.hpp"

using namespace nanoscatter;

namespace {

DdaOptions sphere_case(int grid, bool single) {
  DdaOptions o;
  o.grid = {grid};
  o.eq_rad = 5.0 * grid / 32;
  o.m = {{1.5, 0}};
  o.compute.precision = single ? Precision::float32 : Precision::float64;
  return o;
}

void BM_DdaCpuMatvec(benchmark::State& state) {
  DdaPlan plan(sphere_case(static_cast<int>(state.range(1)), state.range(0) == 0));
  const auto& b = plan.setup().geometry.box;
  double t = 0;
  for (auto _ : state) {
    t = plan.time_matvec(3);
    state.SetIterationTime(t);
  }
  state.counters["ns_per_voxel"] = t / (static_cast<double>(b[0]) * b[1] * b[2]) * 1e9;
  state.SetLabel(std::string(state.range(0) ? "double" : "single"));
}

void BM_DdaCpuSolve(benchmark::State& state) {
  DdaPlan plan(sphere_case(static_cast<int>(state.range(1)), state.range(0) == 0));
  for (auto _ : state) {
    const DdaResult r = plan.execute();
    state.SetIterationTime(r.seconds_solve);
    state.counters["iterations"] = r.runs[0].iterations;
  }
  state.SetLabel(std::string(state.range(0) ? "double" : "single"));
}

}  // namespace

BENCHMARK(BM_DdaCpuMatvec)->ArgsProduct({{0, 1}, {16, 32, 64}})->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DdaCpuSolve)->ArgsProduct({{0, 1}, {16, 32}})->UseManualTime()->Iterations(1)->Unit(benchmark::kSecond);

BENCHMARK_MAIN();
