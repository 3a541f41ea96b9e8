// CPU benchmarks of mesh form factors (fast path, OpenMP + SIMD) on small 3D
// q grids: 2,292-triangle ellipsoid on 10 × 40 × 40 q, float32 and float64,
// and the float64 reference (part 1's face sums) for comparison.
// Throughput in triangle·q per second.
#include <benchmark/benchmark.h>

#include <string>

#include "nanoscatter/gisaxs_mesh.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;

namespace {

QGrid3D grid(std::size_t nx, std::size_t nyz) {
  QGrid3D g;
  for (std::size_t i = 0; i < nx; ++i) g.qx.push_back(-1 + 2.0 * double(i) / double(nx - 1));
  for (std::size_t i = 0; i < nyz; ++i) g.qy.push_back(-2 + 4.0 * double(i) / double(nyz - 1));
  for (std::size_t i = 0; i < nyz; ++i) g.qz.push_back(3.0 * double(i) / double(nyz - 1));
  return g;
}

void run_case(benchmark::State& state, Precision precision) {
  const std::size_t triangles = std::size_t(state.range(0));
  const TriangleMesh mesh = sphere_mesh_with_triangles(20, triangles, 0.6);
  const QGrid3D g = grid(10, 40);
  MeshFormFactorOptions o;
  o.compute.precision = precision;
  const MeshFormFactorPlan plan(mesh, o);
  std::vector<Complex> out(g.size());
  for (auto _ : state) plan.execute(g, out);
  state.counters["throughput"] =
      benchmark::Counter(double(triangles) * double(g.size()), benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(std::string("gisaxs|mesh cpu ") + to_string(precision) + " T=" + std::to_string(triangles) +
                 " 10x40x40|triangle*q/s");
}

void BM_GisaxsMeshCpuSingle(benchmark::State& s) { run_case(s, Precision::float32); }
void BM_GisaxsMeshCpuDouble(benchmark::State& s) { run_case(s, Precision::float64); }

void BM_GisaxsMeshReference(benchmark::State& state) {
  const TriangleMesh mesh = sphere_mesh_with_triangles(20, std::size_t(state.range(0)), 0.6);
  const MeshFormFactor f(mesh);
  std::vector<CVec3> q;
  for (int i = 0; i < 200; ++i) q.push_back(CVec3(Vec3{0.01 * i, 0.02 * i - 1, 0.015 * i}));
  std::vector<Complex> out(q.size());
  for (auto _ : state) f.evaluate_reference(q, out);
  state.counters["throughput"] = benchmark::Counter(double(mesh.triangles.size()) * double(q.size()),
                                                    benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel("gisaxs|mesh reference double T=" + std::to_string(mesh.triangles.size()) + "|triangle*q/s");
}

}  // namespace

BENCHMARK(BM_GisaxsMeshCpuSingle)->Arg(2292)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GisaxsMeshCpuDouble)->Arg(2292)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GisaxsMeshReference)->Arg(2292)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
