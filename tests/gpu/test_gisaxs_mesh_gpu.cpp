// CUDA mesh form factors (issue 6): float32 and float64 GPU kernels against
// the float64 CPU path for the box, pyramid and icosahedron meshes; the GPU
// detector image against the CPU image; a small --max-device-memory cap
// (more hyperblocks, the mesh itself in blocks) gives the same numbers.
// Skips (not fails) where no CUDA device exists.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "nanoscatter/device.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"
#include "physics/test_gisaxs_mesh_support.hpp"
#include "test_util.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

namespace {

std::vector<Complex> run(const TriangleMesh& m, const std::vector<Vec3>& q, Device device, Precision precision,
                         std::size_t cap = 0, MeshRunStats* stats = nullptr) {
  MeshFormFactorOptions o;
  o.compute.device = device;
  o.compute.precision = precision;
  o.compute.max_device_memory = cap;
  const MeshFormFactorPlan plan(m, o);
  std::vector<Complex> out(q.size());
  plan.execute(q, out);
  if (stats) *stats = plan.last_stats();
  return out;
}

// max |a − b| / max(|b|, floor·V) (tests/physics/test_gisaxs_mesh.cpp
// explains the float32 floor of 1e-3 F(0)).
double max_error(const std::vector<Complex>& a, const std::vector<Complex>& b, double volume, double floor) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]) / std::max(std::abs(b[i]), floor * volume));
  return worst;
}

struct Shape {
  const char* name;
  TriangleMesh mesh;
};

std::vector<Shape> shapes() {
  return {{"box", box_mesh(10, 8, 6)},
          {"pyramid", mesh_test::hull_mesh(mesh_test::pyramid_points(10, 4, std::numbers::pi / 3), "pyramid")},
          {"icosahedron", mesh_test::hull_mesh(mesh_test::icosahedron_points(6), "icosahedron")}};
}

}  // namespace

// Acceptance: float32 GPU within 1e-4 of float64 CPU (where |F| > 1e-3
// F(0)), float64 GPU within 1e-10, for |q| from 1e-6 to 10 nm⁻¹ along
// face normals, edges and in-face directions.
TEST(GisaxsMeshGpu, KernelsMatchCpuFloat64) {
  SKIP_WITHOUT_GPU();
  for (const Shape& s : shapes()) {
    const auto q = mesh_test::q_along(mesh_test::special_directions(s.mesh));
    const double v = mesh_volume(s.mesh);
    const auto cpu = run(s.mesh, q, Device::cpu, Precision::float64);
    const double e32 = max_error(run(s.mesh, q, Device::gpu, Precision::float32), cpu, v, 1e-3);
    const double e64 = max_error(run(s.mesh, q, Device::gpu, Precision::float64), cpu, v, 1e-9);
    std::printf("%s: GPU float32 %.2e, GPU float64 %.2e (vs CPU float64, %zu q)\n", s.name, e32, e64, q.size());
    EXPECT_LE(e32, 1e-4) << s.name;
    EXPECT_LE(e64, 1e-10) << s.name;
  }
}

// Many q and a fine mesh (several tiles, tile splits over blockIdx.y for the
// small launches): GPU float32 vs CPU float32 (the same algorithm) and vs
// CPU float64.
TEST(GisaxsMeshGpu, FineMeshMatchesCpu) {
  SKIP_WITHOUT_GPU();
  const TriangleMesh m = sphere_mesh_with_triangles(8, 2292, 1.3);
  const auto q = nanoscatter::test::random_q(20000, 4.0, 11);
  const double v = mesh_volume(m);
  const auto cpu64 = run(m, q, Device::cpu, Precision::float64);
  const auto cpu32 = run(m, q, Device::cpu, Precision::float32);
  const auto gpu32 = run(m, q, Device::gpu, Precision::float32);
  const auto gpu64 = run(m, q, Device::gpu, Precision::float64);
  const double e_same = max_error(gpu32, cpu32, v, 1e-3), e32 = max_error(gpu32, cpu64, v, 1e-3),
               e64 = max_error(gpu64, cpu64, v, 1e-9);
  std::printf("2292 triangles, 2e4 q: GPU32 vs CPU32 %.2e, GPU32 vs CPU64 %.2e, GPU64 vs CPU64 %.2e\n", e_same, e32,
              e64);
  EXPECT_LE(e32, 1e-4);
  EXPECT_LE(e_same, 1e-4);
  EXPECT_LE(e64, 1e-10);
}

// A small cap: the same numbers from more hyperblocks; a cap below the
// mesh's size puts the mesh itself in blocks of tiles; a cap too small for
// anything is an error naming the option.
TEST(GisaxsMeshGpu, MemoryCapGivesSameResultWithMoreHyperblocks) {
  SKIP_WITHOUT_GPU();
  const TriangleMesh m = sphere_mesh(6, 4);  // 5120 triangles, ~0.3 MB of tiles
  const auto q = nanoscatter::test::random_q(50000, 3.0, 5);
  const double v = mesh_volume(m);
  MeshRunStats free_stats, capped_stats, tiny_stats;
  const auto free_run = run(m, q, Device::gpu, Precision::float64, 0, &free_stats);
  const auto capped = run(m, q, Device::gpu, Precision::float64, std::size_t(2) << 20, &capped_stats);
  const auto tiny = run(m, q, Device::gpu, Precision::float64, std::size_t(160) << 10, &tiny_stats);
  std::printf("hyperblocks: free %zu (%zu q each), 2 MiB cap %zu (%zu q), 160 KiB cap %zu (%zu q, %zu triangles)\n",
              free_stats.hyperblocks, free_stats.q_per_hyperblock, capped_stats.hyperblocks,
              capped_stats.q_per_hyperblock, tiny_stats.hyperblocks, tiny_stats.q_per_hyperblock,
              tiny_stats.triangles_per_hyperblock);
  EXPECT_GT(capped_stats.hyperblocks, free_stats.hyperblocks);
  // Kernel time from CUDA events: recorded for every hyperblock.
  EXPECT_GT(free_stats.kernel_seconds, 0.0);
  EXPECT_GT(tiny_stats.kernel_seconds, 0.0);
  EXPECT_LE(capped_stats.device_bytes, std::size_t(2) << 20);
  EXPECT_LT(tiny_stats.triangles_per_hyperblock, m.triangles.size());
  EXPECT_LE(tiny_stats.device_bytes, std::size_t(160) << 10);
  // Same float64 sums in another order (triangle tiles per hyperblock): the
  // terms cancel down to F, so the difference is measured against the volume
  // V = F(0) (measured on an H200: ≤ 3.1e-10 of max(|F|, 1e-9 V), hence
  // ≤ 3.1e-10 V); a lost or repeated tile of triangles would change F by ~V/10.
  EXPECT_LE(max_error(capped, free_run, v, 1.0), 1e-9);
  EXPECT_LE(max_error(tiny, free_run, v, 1.0), 1e-9);
  try {
    run(m, q, Device::gpu, Precision::float64, 4096);
    FAIL() << "no error for a 4 KiB cap";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().field, "max_device_memory");
  }
}

// Acceptance: the GPU detector image equals the CPU image (float64) to
// ≤ 1e-5 relative where I > 1e-6 max I (the cylinders sample with a 96-gon
// mesh cylinder, DWBA), with the float64 kernels (the default) and with the
// float32 kernels (the CPU float32 image measures 4.9e-6 against float64
// since the compact tiles of 719c6eb, tests/physics/test_gisaxs_mesh_dwba.cpp;
// before them 1.15e-5).
TEST(GisaxsMeshGpu, DetectorImageMatchesCpu) {
  SKIP_WITHOUT_GPU();
  const auto path =
      std::filesystem::path(NS_TEST_DATA_DIR) / ".." / ".." / "examples" / "gisaxs" / "cylinders_on_substrate.toml";
  Sample s = read_sample(path);
  ParticleSpec& p = s.layouts[0].particles[0];
  p.mesh = std::make_shared<MeshFormFactor>(cylinder_mesh(p.parameters[0], p.parameters[1], 96));
  p.shape = "mesh";
  p.parameters.clear();
  s.validated = false;  // edited after reading: the plan checks it again
  GisaxsOptions o;
  const auto cpu = GisaxsPlan(s, o).execute().intensity;
  o.compute.device = Device::gpu;
  for (Precision precision : {Precision::float32, Precision::float64}) {
    o.compute.precision = precision;
    const auto gpu = GisaxsPlan(s, o).execute().intensity;
    const double err = nanoscatter::test::max_rel_error(gpu, cpu, 1e-6);
    std::printf("cylinders sample, 96-gon mesh, 200x200 DWBA image: GPU %s vs CPU %.2e\n", to_string(precision), err);
    EXPECT_LE(err, 1e-5) << to_string(precision);
  }
}
