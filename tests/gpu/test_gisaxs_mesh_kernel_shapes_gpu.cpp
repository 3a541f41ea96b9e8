// Every shape the mesh kernel autotuner can choose (mesh_cuda.cu: threads
// per block, threads per q, q per thread, branching or branch-free triangle
// kernel), forced
// one by one, against the float64 CPU path on the same tiles: the autotuner
// keeps only the fastest, so the plan-level tests see one shape per mesh.
// Skips (not fails) where no CUDA device exists.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gisaxs/mesh/mesh_backends.hpp"
#include "gisaxs/mesh/mesh_tiles.hpp"
#include "nanoscatter/device.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"
#include "test_util.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

// The kernel shapes are CUDA-only entry points (mesh_backends.hpp): a build
// without CUDA has no such code to test.
#if NANOSCATTER_HAVE_CUDA

namespace {

// max |a − b| / max(|b|, floor·V), as in test_gisaxs_mesh_gpu.cpp.
double max_error(const std::vector<Complex>& a, const std::vector<Complex>& b, double volume, double floor) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]) / std::max(std::abs(b[i]), floor * volume));
  return worst;
}

std::vector<Complex> gpu(const mesh::MeshTiles& tiles, const std::vector<Vec3>& q, Precision precision, double q_min,
                         int threads, int lanes, int qs, bool blend, MeshRunStats& stats) {
  mesh::CudaMeshOptions o;
  o.precision = precision;
  o.q_min = q_min;
  o.threads_per_block = threads;
  o.threads_per_q = lanes;
  o.q_per_thread = qs;
  o.blend = blend;
  const auto state = mesh::make_mesh_cuda_state();
  std::vector<Complex> out(q.size());
  mesh::form_factor_cuda(tiles, q, out, o, *state, stats);
  return out;
}

}  // namespace

// float32 within 1e-4 of the float64 CPU path where |F| > 1e-3 F(0) (the
// plan-level bound, tests/physics/test_gisaxs_mesh.cpp), float64 within
// 1e-10 of max(|F|, 1e-9 F(0)); a shape that dropped or repeated a share of
// a tile's triangles or vertices would be off by ~F, one that mixed up the
// two q of a thread by far more. 3001 q: a partial last block for every
// block size (with 2 q per thread, threads with one q in range and one
// beyond); 2292 triangles in ~50 tiles: tile splits.
TEST(GisaxsMeshKernelShapesGpu, EveryShapeMatchesCpuFloat64) {
  SKIP_WITHOUT_GPU();
  const mesh::MeshTiles tiles = mesh::make_mesh_tiles(sphere_mesh_with_triangles(8, 2292, 1.3));
  const auto q = nanoscatter::test::random_q(3001, 4.0, 23);
  // mesh_plan.cpp: the fast kernels in float32 from |q| R = 2 up (below, the
  // plan uses float64 routes); both precisions are compared there.
  const double q_min = 2.0 / tiles.radius;
  std::vector<Complex> cpu(q.size());
  mesh::form_factor_cpu(tiles, q, cpu, Precision::float64, 1, q_min);
  const struct {
    int threads, lanes, qs;
  } shapes[] = {{64, 1, 1},  {128, 1, 1}, {256, 1, 1}, {64, 2, 1},  {128, 2, 1},  {256, 2, 1}, {128, 4, 1},
                {256, 4, 1}, {64, 1, 2},  {128, 1, 2}, {64, 2, 2},  {128, 2, 2}, {256, 2, 2}, {128, 4, 2},
                {256, 4, 2}};  // 256 threads, 1 per q, 2 q each: 512 q, more shared memory than float64 allows
  for (const auto& s : shapes)
    for (bool blend : {false, true}) {
      MeshRunStats st32, st64;
      const double e32 =
          max_error(gpu(tiles, q, Precision::float32, q_min, s.threads, s.lanes, s.qs, blend, st32), cpu,
                    tiles.volume, 1e-3);
      const double e64 = max_error(gpu(tiles, q, Precision::float64, q_min, s.threads, s.lanes, s.qs, blend, st64), cpu,
                                   tiles.volume, 1e-9);
      std::printf("%d threads, %d per q, %d q per thread, %s: float32 %.2e, float64 %.2e\n", s.threads, s.lanes,
                  s.qs, blend ? "blend" : "branch", e32, e64);
      EXPECT_LE(e32, 1e-4) << s.threads << " threads, " << s.lanes << " per q, " << s.qs << " q, blend " << blend;
      EXPECT_LE(e64, 1e-10) << s.threads << " threads, " << s.lanes << " per q, " << s.qs << " q, blend " << blend;
      EXPECT_EQ(st32.threads_per_q, s.lanes);
      EXPECT_EQ(st32.q_per_thread, s.qs);
      EXPECT_EQ(st64.q_per_thread, s.qs);
      EXPECT_EQ(st32.threads_per_block, s.threads);
    }
  MeshRunStats st;
  EXPECT_THROW(gpu(tiles, q, Precision::float32, q_min, 96, 3, 1, false, st), Error);
  EXPECT_THROW(gpu(tiles, q, Precision::float32, q_min, 128, 2, 3, false, st), Error);
}

#else

TEST(GisaxsMeshKernelShapesGpu, EveryShapeMatchesCpuFloat64) { GTEST_SKIP() << "built without CUDA"; }

#endif  // NANOSCATTER_HAVE_CUDA
