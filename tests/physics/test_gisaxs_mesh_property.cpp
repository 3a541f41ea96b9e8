// Property test of the mesh form factor paths on inputs nobody chose (issue
// 20): every run draws fresh meshes (boxes, pyramid frusta, convex hulls of
// random points, non-convex bumpy icospheres, tori; stretched, rotated and
// shifted at random) and fresh q (|q| log-uniform over 1e-10–1e2 nm⁻¹,
// random directions and the mesh's face normals, edges and in-face
// directions, exact or tilted by 1e-9–1e-2 rad; complex q for the
// reference), and compares every path with an independent binary128
// evaluation (signed tetrahedra, test_gisaxs_mesh_property_support.hpp).
// A failure prints the case's seed; NS_TEST_SEED replays it, and
// NS_PROPERTY_CASES sets the number of meshes (default 16, ~7 s on 2 cores).
//
// Bounds (docs/gisaxs.md, "Meshes"), errors |F − F_exact| / max(|F_exact|,
// floor·F(0)): the float64 reference and complex q ≤ 1e-9 with floor 1e-9;
// the fast float64 kernel and MeshFormFactor::evaluate ≤ 1e-9 with floor
// 1e-7 (was 1e-9: on a GPU test draw, seed 3665670689148475212, a 0.3 nm box
// at |q| R ≈ 29 where |F| = 6e-9 F(0), the fast CPU float64 kernel is 2.25e-9
// off binary128 at floor 1e-9, an absolute 1.3e-17 F(0) = 1.2e-15 × Σ_T
// |triangle term|: the rounding of terms that cancel to F); fast
// float32 ≤ 1e-4 with floor 1e-3 (its triangle terms are O(V) each and
// cancel to F: an absolute error ~1e-8 V remains). Measured over 350 drawn
// meshes × 40–48 q (runs of 150 and 200): reference ≤ 6.9e-11 (q exactly
// along an edge at |q| R ≈ 600), fast float64 ≤ 1.2e-10, complex q ≤
// 3.5e-11, fast float32 ≤ 3.0e-5. The float64 errors above 1e-11 occur at
// two q only, both where |F| is 2–4e-8 F(0), far below its neighbourhood
// (a deep zero of a box's F, where even the closed-form box agrees with
// binary128 only to 7.8e-11: the conditioning of F there; absolute errors
// ~1e-18 F(0)); everywhere else every float64 path is within 1e-11.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "nanoscatter/gisaxs_mesh.hpp"
#include "physics/test_gisaxs_mesh_property_support.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;
using namespace nanoscatter::gisaxs::mesh_property;
using nanoscatter::test::case_seed;

namespace {

using nanoscatter::test::property_cases;

std::vector<Complex> run_plan(const TriangleMesh& m, const std::vector<Vec3>& q, Precision precision) {
  MeshFormFactorOptions o;
  o.compute.precision = precision;
  const MeshFormFactorPlan plan(m, o);
  std::vector<Complex> out(q.size());
  plan.execute(q, out);
  return out;
}

std::string format_error(double e) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2e", e);
  return buffer;
}

struct Worst {
  double value = 0;
  double q = 0;  // |q| where it occurred
  void add(double e, double qm) {
    if (e > value) value = e, q = qm;
  }
};

}  // namespace

TEST(GisaxsMeshProperty, EveryPathMatchesBinary128TetrahedraOnDrawnMeshes) {
  const int cases = property_cases(16);
  const std::size_t nq = 48, nq_complex = 8;
  Worst all_ref, all_fast64, all_eval, all_fast32, all_complex, all_analytic;
  for (int k = 0; k < cases; ++k) {
    const auto seed = case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    const DrawnMesh d = draw_mesh(rng);
    SCOPED_TRACE(d.what);
    const TriangleMesh& m = d.mesh;
    const double v = mesh_volume(m);
    const auto q = draw_q(rng, m, nq);
    const MeshFormFactor ff(m);
    std::vector<CVec3> cq(q.begin(), q.end());
    std::vector<Complex> ref(q.size()), eval(q.size());
    ff.evaluate_reference(cq, ref);
    ff.evaluate(cq, eval);
    const auto fast64 = run_plan(m, q, Precision::float64), fast32 = run_plan(m, q, Precision::float32);
    std::vector<Complex> exact_all(q.size());
#pragma omp parallel for schedule(dynamic, 1)
    for (std::size_t i = 0; i < q.size(); ++i) exact_all[i] = tetrahedra_form_factor(m, cq[i]);
    Worst w_ref, w_fast64, w_eval, w_fast32, w_analytic;
    for (std::size_t i = 0; i < q.size(); ++i) {
      const Complex exact = exact_all[i];
      const double qm = norm(q[i]);
      w_ref.add(rel_error(ref[i], exact, v, 1e-9), qm);
      if (std::getenv("NS_MESH_DEBUG")) {
        double normal_cos = 0, edge_cos = 0;
        for (const auto& t : m.triangles) {
          const Vec3 &a = m.vertices[std::size_t(t[0])], &b = m.vertices[std::size_t(t[1])],
                     &cc = m.vertices[std::size_t(t[2])];
          const Vec3 n = cross(b - a, cc - a);
          normal_cos = std::max(normal_cos, std::abs(dot(n, q[i])) / norm(n) / qm);
          for (const Vec3& e : {b - a, cc - b, a - cc}) edge_cos = std::max(edge_cos, std::abs(dot(e, q[i])) / norm(e) / qm);
        }
        std::printf("  1 - max|cos(q, normal)| = %.3e, 1 - max|cos(q, edge)| = %.3e\n", 1 - normal_cos, 1 - edge_cos);
      }
      if (std::getenv("NS_MESH_DEBUG"))
        std::printf("  q = (%.17g, %.17g, %.17g) |F|/V = %.3e: reference %.2e fast64 %.2e fast32 %.2e\n", q[i].x,
                    q[i].y, q[i].z, std::abs(exact) / v, rel_error(ref[i], exact, v, 1e-9),
                    rel_error(fast64[i], exact, v, 1e-7), rel_error(fast32[i], exact, v, 1e-3));
      w_fast64.add(rel_error(fast64[i], exact, v, 1e-7), qm);
      w_eval.add(rel_error(eval[i], exact, v, 1e-7), qm);
      w_fast32.add(rel_error(fast32[i], exact, v, 1e-3), qm);
      if (d.analytic) w_analytic.add(rel_error(analytic_form_factor(d, cq[i]), exact, v, 1e-9), qm);
    }
    // Complex q (DWBA inside absorbing layers): the reference path (and
    // evaluate(), which routes complex q to it).
    Worst w_complex;
    std::vector<CVec3> zq;
    for (std::size_t i = 0; i < nq_complex; ++i) {
      const Vec3 re = q[i];
      const double scale = log_uniform(rng, 1e-6, 1) * std::max(norm(re), 1e-3);
      std::normal_distribution<double> g(0, 1);
      zq.push_back({Complex(re.x, scale * g(rng)), Complex(re.y, scale * g(rng)), Complex(re.z, scale * g(rng))});
    }
    std::vector<Complex> zref(zq.size()), zeval(zq.size());
    ff.evaluate_reference(zq, zref);
    ff.evaluate(zq, zeval);
    std::vector<Complex> zexact(zq.size());
#pragma omp parallel for schedule(dynamic, 1)
    for (std::size_t i = 0; i < zq.size(); ++i) zexact[i] = tetrahedra_form_factor(m, zq[i]);
    for (std::size_t i = 0; i < zq.size(); ++i) {
      const Complex exact = zexact[i];
      w_complex.add(std::max(rel_error(zref[i], exact, v, 1e-9), rel_error(zeval[i], exact, v, 1e-9)),
                    magnitude(zq[i]));
    }
    std::printf("[ measured ] case %d seed %llu: %s, V = %.4g nm³\n  vs binary128 (%zu q): reference %.2e (|q| %.2g), "
                "fast float64 %.2e (%.2g), evaluate %.2e, fast float32 %.2e (%.2g); complex q %.2e%s\n",
                k, static_cast<unsigned long long>(seed), d.what.c_str(), v, q.size(), w_ref.value, w_ref.q,
                w_fast64.value, w_fast64.q, w_eval.value, w_fast32.value, w_fast32.q, w_complex.value,
                d.analytic ? (", analytic box vs binary128 " + format_error(w_analytic.value)).c_str() : "");
    EXPECT_LE(w_ref.value, 1e-9) << "reference (float64 face sums), at |q| = " << w_ref.q;
    EXPECT_LE(w_fast64.value, 1e-9) << "fast float64, at |q| = " << w_fast64.q;
    EXPECT_LE(w_eval.value, 1e-9) << "MeshFormFactor::evaluate";
    EXPECT_LE(w_fast32.value, 1e-4) << "fast float32, at |q| = " << w_fast32.q;
    EXPECT_LE(w_complex.value, 1e-9) << "complex q, at |q| = " << w_complex.q;
    if (d.analytic) {
      EXPECT_LE(w_analytic.value, 1e-9) << "analytic box against the binary128 tetrahedra";
    }
    all_ref.add(w_ref.value, w_ref.q);
    all_fast64.add(w_fast64.value, w_fast64.q);
    all_eval.add(w_eval.value, 0);
    all_fast32.add(w_fast32.value, w_fast32.q);
    all_complex.add(w_complex.value, w_complex.q);
    all_analytic.add(w_analytic.value, w_analytic.q);
  }
  std::printf("[ measured ] %d meshes: reference %.2e, fast float64 %.2e, evaluate %.2e, fast float32 %.2e, complex "
              "%.2e, analytic box %.2e\n",
              cases, all_ref.value, all_fast64.value, all_eval.value, all_fast32.value, all_complex.value,
              all_analytic.value);
}

// The float32 failures of the first GPU run of the property test (H100, vs
// CPU float64): 1.94e-4, 1.47e-4 and 2.73e-4 on boxes of 8–20 nm (floor
// 1e-3). The CPU float32 path gave 2.45e-4, 2.09e-4 and 1.36e-4 on the same
// q: both formed the phase differences y = q·(b − a) in float32 from
// float32 q and edges, ≈ 2^-24 |q| |b − a| absolute (up to 1e-4 rad at |q|
// 70 nm⁻¹ on a 13 nm face) against ~1e-7 for exp(i q·v). With y in float64
// where |q| · edge > 2 (triangle_kernel.hpp): 6.7e-5, 2.5e-5, 6.3e-6. The
// seeds replay the GPU test's draws (draw_gpu_case) on the CPU float32 path.
TEST(GisaxsMeshProperty, Float32PhaseDifferencesOnGpuTestSeeds) {
  for (const std::uint64_t seed : {17701277722443132949ull, 12333719932451631635ull, 549528059980723581ull}) {
    std::mt19937_64 rng(seed);
    const GpuCase c = draw_gpu_case(rng);
    SCOPED_TRACE(c.drawn.what);
    const double v = mesh_volume(c.drawn.mesh);
    const auto f64 = run_plan(c.drawn.mesh, c.q, Precision::float64), f32 = run_plan(c.drawn.mesh, c.q, Precision::float32);
    double worst = 0;
    for (std::size_t i = 0; i < c.q.size(); ++i) worst = std::max(worst, rel_error(f32[i], f64[i], v, 1e-3));
    std::printf("[ measured ] GPU test seed %llu: %s, %zu q: CPU float32 vs float64 %.2e\n",
                static_cast<unsigned long long>(seed), c.drawn.what.c_str(), c.q.size(), worst);
    EXPECT_LE(worst, 1e-4);
  }
}
