// Property test of the CUDA mesh form factors on inputs nobody chose (issue
// 20): the meshes of tests/physics/test_gisaxs_mesh_property_support.hpp
// (boxes, pyramids, random convex hulls, bumpy non-convex icospheres, tori)
// plus fine stretched icospheres of 2,000–20,000 triangles, rotated and
// shifted, on 10⁴–10⁵ drawn q (|q| log-uniform over 1e-10–1e2 nm⁻¹, random
// and special directions), some under a small --max-device-memory. A
// failure prints the case's seed; NS_TEST_SEED replays it, NS_PROPERTY_CASES
// sets the number of cases (default 30).
//
// Per case: GPU float64 and float32 against the CPU float64 path (itself
// checked against the binary128 tetrahedra on the CPU, test_gisaxs_mesh_
// property.cpp), and on 24 of the q (meshes ≤ 400 triangles) against the
// binary128 reference directly. Bounds (docs/gisaxs.md, "Meshes"), errors
// relative to max(|F|, floor·F(0)):
//   float64: ≤ 1e-9 with floor 1e-7;  float32: ≤ 1e-4 with floor 1e-3.
// The float64 floor was 1e-9 until a run on an H100 failed at 2.28e-9 (seed
// 3665670689148475212, a 0.3 nm box, |q| R ≈ 29, |F| = 6e-9 F(0)): there the
// CPU float64 path itself is 2.25e-9 off binary128 (host replay), an
// absolute error of 1.3e-17 F(0) = 1.2e-15 × Σ_T |triangle term|: rounding
// of terms that cancel to F, which no float64 path can beat. With the
// floor at 1e-7 F(0) the same case gives 8.5e-11 (host emulation of the
// CUDA arithmetic). The float32 failures of that run (seeds
// 17701277722443132949, 12333719932451631635, 549528059980723581: boxes of
// 8–20 nm, 1.5–2.7e-4) were the float32 phase differences q·(b − a), on the
// CPU as well; fixed in triangle_kernel.hpp ("Phase accuracy"), replayed on
// the CPU by GisaxsMeshProperty.Float32PhaseDifferencesOnGpuTestSeeds.
//
// Time: of the q of the float64 reference route (|q| R < 1e-3, host code
// shared by the CPU and GPU plans) only every 32nd is kept (draw_gpu_case);
// they took most of the 235 s of the first run on an H100.
// Skips (not fails) where no CUDA device exists.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "nanoscatter/device.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"
#include "physics/test_gisaxs_mesh_property_support.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;
using namespace nanoscatter::gisaxs::mesh_property;
using nanoscatter::test::case_seed;

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

namespace {

using nanoscatter::test::property_cases;

std::vector<Complex> run(const TriangleMesh& m, const std::vector<Vec3>& q, Device device, Precision precision,
                         std::size_t cap = 0) {
  MeshFormFactorOptions o;
  o.compute.device = device;
  o.compute.precision = precision;
  o.compute.max_device_memory = cap;
  const MeshFormFactorPlan plan(m, o);
  std::vector<Complex> out(q.size());
  plan.execute(q, out);
  return out;
}

double max_error(const std::vector<Complex>& a, const std::vector<Complex>& b, double volume, double floor) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, rel_error(a[i], b[i], volume, floor));
  return worst;
}

}  // namespace

TEST(GisaxsMeshPropertyGpu, CudaPathsMatchCpuFloat64AndBinary128OnDrawnMeshes) {
  SKIP_WITHOUT_GPU();
  const int cases = property_cases(30);
  double worst64 = 0, worst32 = 0, worst_exact64 = 0, worst_exact32 = 0;
  std::size_t q_total = 0;
  for (int k = 0; k < cases; ++k) {
    const auto seed = case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    GpuCase c = draw_gpu_case(rng);
    const DrawnMesh& d = c.drawn;
    const std::vector<Vec3>& q = c.q;
    const std::size_t nq = q.size(), nq_drawn = c.q_drawn;
    const bool capped = uniform(rng, 0, 1) < 0.25;
    const std::size_t cap = capped ? std::size_t(log_uniform(rng, 256 << 10, 8 << 20)) : 0;
    SCOPED_TRACE(d.what + ", " + std::to_string(nq) + " q" +
                 (capped ? ", max device memory " + std::to_string(cap) + " B" : ""));
    const double v = mesh_volume(d.mesh);
    const auto cpu64 = run(d.mesh, q, Device::cpu, Precision::float64);
    const auto gpu64 = run(d.mesh, q, Device::gpu, Precision::float64, cap);
    const auto gpu32 = run(d.mesh, q, Device::gpu, Precision::float32, cap);
    const double e64 = max_error(gpu64, cpu64, v, 1e-7), e32 = max_error(gpu32, cpu64, v, 1e-3);
    double x64 = 0, x32 = 0;
    if (d.mesh.triangles.size() <= 400) {
      for (std::size_t i = 0; i < 24; ++i) {
        const std::size_t j = std::size_t(uniform_int(rng, 0, int(q.size()) - 1));
        const Complex exact = tetrahedra_form_factor(d.mesh, CVec3(q[j]));
        x64 = std::max(x64, rel_error(gpu64[j], exact, v, 1e-7));
        x32 = std::max(x32, rel_error(gpu32[j], exact, v, 1e-3));
      }
    }
    std::printf("[ measured ] case %d seed %llu: %s, %zu q (of %zu drawn)%s\n  GPU float64 %.2e, GPU float32 %.2e vs "
                "CPU float64; vs binary128 (24 q) %.2e, %.2e\n",
                k, static_cast<unsigned long long>(seed), d.what.c_str(), nq, nq_drawn, capped ? " (capped)" : "", e64,
                e32, x64, x32);
    EXPECT_LE(e64, 1e-9) << "GPU float64 vs CPU float64";
    EXPECT_LE(e32, 1e-4) << "GPU float32 vs CPU float64";
    EXPECT_LE(x64, 1e-9) << "GPU float64 vs binary128";
    EXPECT_LE(x32, 1e-4) << "GPU float32 vs binary128";
    worst64 = std::max(worst64, e64);
    worst32 = std::max(worst32, e32);
    worst_exact64 = std::max(worst_exact64, x64);
    worst_exact32 = std::max(worst_exact32, x32);
    q_total += nq;
  }
  std::printf("[ measured ] %d drawn meshes, %zu q: GPU float64 %.2e (bound 1e-9, floor 1e-7), GPU float32 %.2e (bound 1e-4) vs "
              "CPU float64; vs binary128 %.2e, %.2e\n",
              cases, q_total, worst64, worst32, worst_exact64, worst_exact32);
}
