// GPU benchmarks of mesh form factors on 3D q grids (issue 6): the
// HipGISAXS datasets' sizes, 2,292 and 91,752 triangles (ellipsoids; a
// closed mesh has an even count, 91,752 stands for HipGISAXS's 91,753) on
// 90 × 200 × 200 and 90 × 800 × 800 grids (qx ∈ [−1, 1], qy ∈ [−2, 2],
// qz ∈ [0, 3] nm⁻¹), end to end through MeshFormFactorPlan::execute(grid)
// (q expansion, hyperblocks, transfers). Throughput in triangle·q per
// second. Floor (docs/design.md performance model): one sincos per vertex·q with
// shared vertices, 4.0e12 sincos/s on one H200 (the measured rate used by
// bench/pattern2d_bench_gpu.cpp) divided by the tile vertices per triangle
// (≈ 0.7). Target: ≥ 3e11 triangle·q/s, i.e. the 91,752 × 57.6 M case in
// under 20 s (HipGISAXS: 5,866 s on one Fermi GPU). `kernel_s`: GPU time of
// the mesh kernels alone (MeshRunStats::kernel_seconds), and
// `kernel_throughput` the triangle·q rate over it: against the wall time
// they tell kernel-bound cases from host- or transfer-bound ones.
#include <benchmark/benchmark.h>

#include <string>

#include "gisaxs/mesh/mesh_tiles.hpp"
#include "nanoscatter/device.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;

namespace {

constexpr double kSincosRate = 4.0e12;  // per second, one H200 (bench/pattern2d_bench_gpu.cpp)

QGrid3D grid(std::size_t nx, std::size_t nyz) {
  QGrid3D g;
  auto axis = [](std::size_t n, double lo, double hi) {
    std::vector<double> a(n);
    for (std::size_t i = 0; i < n; ++i) a[i] = n == 1 ? lo : lo + (hi - lo) * double(i) / double(n - 1);
    return a;
  };
  g.qx = axis(nx, -1, 1);
  g.qy = axis(nyz, -2, 2);
  g.qz = axis(nyz, 0, 3);
  return g;
}

// Args: triangles, grid side (90 × side × side).
void run_case(benchmark::State& state, Precision precision) {
  if (cuda_device_count() == 0) {
    state.SkipWithError("no CUDA device");
    return;
  }
  const std::size_t triangles = std::size_t(state.range(0)), side = std::size_t(state.range(1));
  const TriangleMesh mesh = sphere_mesh_with_triangles(20, triangles, 0.6);
  const QGrid3D g = grid(90, side);
  MeshFormFactorOptions o;
  o.compute.device = Device::gpu;
  o.compute.precision = precision;
  const MeshFormFactorPlan plan(mesh, o);
  std::vector<Complex> out(g.size());
  // Warm-up and autotune: 90 × 64 × 64 q, a hyperblock of ≥ 2^18 q like the
  // timed grids' (mesh_cuda.cu autotunes small and large hyperblocks apart).
  plan.execute(grid(90, 64), std::span<Complex>(out).first(90 * 64 * 64));
  // The grid's few q with |q| R < 2 run through the float64 kernel in single
  // precision (mesh_plan.cpp): autotune that one here too, not in the timing.
  std::vector<Vec3> small_q(1024);
  for (std::size_t j = 0; j < small_q.size(); ++j) {
    const double t = double(j) / double(small_q.size());
    small_q[j] = Vec3{0.05 * (1 - t), 0.02 + 0.05 * t, 0.03 * t};  // |q| ≈ 0.05..0.08 nm⁻¹
  }
  plan.execute(small_q, std::span<Complex>(out).first(small_q.size()));
  for (auto _ : state) plan.execute(g, out);
  const double phases = mesh::make_mesh_tiles(mesh).vertex_phases_per_triangle();
  const double work = double(triangles) * double(g.size());
  state.counters["triangles"] = double(triangles);
  state.counters["hyperblocks"] = double(plan.last_stats().hyperblocks);
  state.counters["threads_per_block"] = plan.last_stats().threads_per_block;
  state.counters["threads_per_q"] = plan.last_stats().threads_per_q;
  state.counters["q_per_thread"] = plan.last_stats().q_per_thread;
  state.counters["blend_kernel"] = plan.last_stats().blend_kernel ? 1 : 0;
  state.counters["throughput"] = benchmark::Counter(work, benchmark::Counter::kIsIterationInvariantRate);
  const double kernel_s = plan.last_stats().kernel_seconds;  // of the last iteration
  state.counters["kernel_s"] = kernel_s;
  state.counters["kernel_throughput"] = kernel_s > 0 ? work / kernel_s : 0;
  state.counters["floor"] = kSincosRate / phases;
  state.SetLabel(std::string("gisaxs|mesh ") + to_string(precision) + " T=" + std::to_string(triangles) + " 90x" +
                 std::to_string(side) + "x" + std::to_string(side) + "|triangle*q/s");
}

void BM_GisaxsMeshGpuSingle(benchmark::State& s) { run_case(s, Precision::float32); }
void BM_GisaxsMeshGpuDouble(benchmark::State& s) { run_case(s, Precision::float64); }

}  // namespace

BENCHMARK(BM_GisaxsMeshGpuSingle)
    ->Args({2292, 200})
    ->Args({91752, 200})
    ->Args({2292, 800})
    ->Args({91752, 800})
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK(BM_GisaxsMeshGpuDouble)->Args({2292, 200})->Args({91752, 200})->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);

BENCHMARK_MAIN();
