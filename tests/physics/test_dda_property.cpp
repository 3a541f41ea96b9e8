// Property tests of the DDA paths on cases nobody chose (issue 20, items 1
// and 4): every run draws fresh cases (tests/property_seed.hpp; a failure
// prints the case's seed, NS_TEST_SEED replays it) over shape (sphere, cube,
// ellipsoid, cylinder, capsule), size parameter, refractive index (absorbing
// or not), grid, solver, the polarisations solved (symmetry on or off) and
// precision, and checks
//   (a) single (float32 FFT products in the float64 iteration) against
//       double at the same discretisation: both converge, each to a true
//       float64 residual ≤ eps, and the cross sections agree within
//       kSolverTol·eps relative (the solver-tolerance bound, below);
//   (b) spheres, either precision, against Mie within the discretisation
//       bound mie_tolerance(|m|kd) (below).
// NS_DDA_PROPERTY_CASES=n draws n cases per test instead of the CI default.
//
// (a) Two solutions with true residuals |r_i| ≤ eps |b| differ by
// A^{-1}(r_1 − r_2); Cext is a linear functional of the solution, c^T x with
// c ≈ b (Cext ∝ Im(E_inc*·P), b = S E_inc), so the two differ by at most
// 2 eps |b| |A^{-1} b| / |b^T x| = 2 eps/γ relative, γ = |b^T x|/(|b||x|)·
// |x|/|A^{-1}b|, of order 1 here: a first-order bound in eps. kSolverTol = 5
// allows γ down to 0.4; the largest difference seen over the drawn cases was
// 0.1 eps (docs/dda.md).
//
// (b) See mie_tolerance in dda_property_cases.hpp: 0.15·|m|kd.
//
// Fixed regression (issue 20): the sphere x = 6, m = 2, grid 24, where the
// old all-float32 solver stopped on its float32 residual with Qext 2.5e-5 off
// the double one; single must now be within 1e-5.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>

#include "nanoscatter/dda.hpp"
#include "nanoscatter/mie.hpp"
#include "dda_property_cases.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;
using nanoscatter::test::case_seed;

namespace {

using namespace nanoscatter::test;

}  // namespace

TEST(DdaProperty, SingleMatchesDoubleOnDrawnCases) {
  const int n = dda_property_cases(6);
  double worst = 0;
  for (int k = 0; k < n; ++k) {
    const auto seed = case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    DrawnDda c = draw_dda_case(rng, false);
    SCOPED_TRACE(c.text);
    c.o.compute.precision = Precision::float64;
    const DdaResult d = DdaPlan(c.o).execute();
    c.o.compute.precision = Precision::float32;
    const DdaResult s = DdaPlan(c.o).execute();
    ASSERT_TRUE(d.converged);
    // BiCG-CS and CGNR restarted from a noise-like residual may stagnate
    // (docs/dda.md, § Precision): not converging is then the documented,
    // flagged outcome, not a wrong answer.
    if (!s.converged && (c.o.solver == DdaSolver::bicg_cs || c.o.solver == DdaSolver::cgnr)) {
      std::printf("[dda property] %s: single not converged with %s (documented limit): %s\n", c.text.c_str(),
                  to_string(c.o.solver), s.log.empty() ? "" : s.log[0].c_str());
      continue;
    }
    ASSERT_TRUE(s.converged);
    ASSERT_EQ(s.runs.size(), d.runs.size());
    for (std::size_t p = 0; p < d.runs.size(); ++p) {
      EXPECT_LE(d.runs[p].residual, c.o.eps);
      EXPECT_LE(s.runs[p].residual, c.o.eps);
      const double dq = rel_diff(s.runs[p].qext, d.runs[p].qext);
      const double da = std::abs(s.runs[p].qabs - d.runs[p].qabs) / d.runs[p].qext;
      worst = std::max({worst, dq / c.o.eps, da / c.o.eps});
      EXPECT_LE(dq, kSolverTol * c.o.eps) << "Qext single " << s.runs[p].qext << " double " << d.runs[p].qext;
      EXPECT_LE(da, kSolverTol * c.o.eps) << "Qabs single " << s.runs[p].qabs << " double " << d.runs[p].qabs;
    }
    std::printf("[dda property] %s: Qext %.9f (double, %d it.) %.9f (single, %d it., %d restarts), |dQ|/Q/eps %.3f\n",
                c.text.c_str(), d.runs[0].qext, d.runs[0].iterations, s.runs[0].qext, s.runs[0].iterations,
                s.runs[0].restarts, rel_diff(s.runs[0].qext, d.runs[0].qext) / c.o.eps);
  }
  std::printf("[dda property] largest |dQ|/Q in units of eps: %.3f (allowed %.1f)\n", worst, kSolverTol);
}

TEST(DdaProperty, SpheresAgainstMie) {
  const int n = dda_property_cases(6);
  for (int k = 0; k < n; ++k) {
    const auto seed = case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    DrawnDda c = draw_dda_case(rng, true);
    c.o.compute.precision = rng() % 2 ? Precision::float32 : Precision::float64;
    SCOPED_TRACE(c.text + (c.o.compute.precision == Precision::float32 ? ", single" : ", double"));
    const DdaResult r = DdaPlan(c.o).execute();
    ASSERT_TRUE(r.converged);
    const MieResult mie = mie_sphere(r.ka_eq, c.o.m[0]);
    const double y = std::abs(c.o.m[0]) * 2 * kPi / c.o.lambda * r.dipole_size;
    const double tol = mie_tolerance(y);
    const double e = rel_diff(r.runs[0].qext, mie.qext);
    const double ea = std::abs(r.runs[0].qabs - mie.qabs) / mie.qext;
    EXPECT_LE(e, tol) << "Qext " << r.runs[0].qext << " Mie " << mie.qext << " |m|kd " << y;
    EXPECT_LE(ea, tol) << "Qabs " << r.runs[0].qabs << " Mie " << mie.qabs << " |m|kd " << y;
    std::printf("[dda mie] %s: |m|kd %.3f, Qext %.6f Mie %.6f: err %.2e, Qabs err %.2e (tol %.2e)\n", c.text.c_str(), y,
                r.runs[0].qext, mie.qext, e, ea, tol);
  }
}

// Issue 20 regression at CPU size: m = 2, x = 6, grid 24 (7,208 dipoles,
// 531 QMR iterations in double). The all-float32 solver stopped after 944
// iterations on its own residual with Qext 3.070619 (2.5e-5 off); mixed
// precision converges on the float64 residual within 1e-5 of double.
TEST(DdaProperty, HighContrastSphereSingleWithin1e5OfDouble) {
  DdaOptions o;
  o.grid = {24};
  o.eq_rad = 6;
  o.m = {{2.0, 0}};
  const DdaResult d = DdaPlan(o).execute();
  o.compute.precision = Precision::float32;
  const DdaResult s = DdaPlan(o).execute();
  ASSERT_TRUE(d.converged);
  ASSERT_TRUE(s.converged);
  EXPECT_NEAR(d.runs[0].qext, 3.070695142, 1e-8);
  EXPECT_LE(s.runs[0].residual, 1e-5);
  EXPECT_LE(rel_diff(s.runs[0].qext, d.runs[0].qext), 1e-5);
  std::printf("[dda regression] double %.9f (%d it.), single %.9f (%d it., %d restarts)\n", d.runs[0].qext,
              d.runs[0].iterations, s.runs[0].qext, s.runs[0].iterations, s.runs[0].restarts);
}

// A run that cannot reach eps says so: too few iterations leave converged =
// false with the true residual reported, in single precision as in double.
TEST(DdaProperty, SingleNonConvergenceIsFlagged) {
  DdaOptions o;
  o.grid = {16};
  o.eq_rad = 5;
  o.compute.precision = Precision::float32;
  o.maxiter = 5;
  const DdaResult r = DdaPlan(o).execute();
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.runs[0].iterations, 5);
  EXPECT_GT(r.runs[0].residual, 1e-5);
  ASSERT_FALSE(r.log.empty());
  EXPECT_NE(r.log[0].find("maximum number of iterations"), std::string::npos) << r.log[0];
}
