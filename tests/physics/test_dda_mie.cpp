// DDA against Mie theory (issue 7 acceptance) and internal consistency:
// solvers agree, float vs double, symmetry, energy balance, non-convergence.
#include <gtest/gtest.h>

#include <cmath>

#include "nanoscatter/constants.hpp"
#include "nanoscatter/dda.hpp"
#include "nanoscatter/mie.hpp"

using namespace nanoscatter;

namespace {

DdaOptions sphere(int grid, std::complex<double> m) {
  DdaOptions o;
  o.grid = {grid};
  o.eq_rad = 5;  // λ = 2π: x = k a = 5
  o.m = {m};
  return o;
}

double rel(double a, double b) { return std::abs(a / b - 1); }

}  // namespace

// Issue 7: sphere x = 5, m = 1.5, grid 32 → Qext within 0.3% of Mie
// (3.92783); measured 0.163%. X comes from Y by the 90° rotation and equals it.
TEST(DdaMie, SphereGrid32Qext) {
  const MieResult mie = mie_sphere(5, {1.5, 0});
  const DdaResult r = DdaPlan(sphere(32, {1.5, 0})).execute();
  ASSERT_TRUE(r.converged);
  EXPECT_EQ(r.dipoles, 17256u);
  EXPECT_NEAR(r.ka_eq, 5, 1e-12);
  ASSERT_EQ(r.runs.size(), 2u);
  EXPECT_LT(rel(r.runs[0].qext, mie.qext), 3e-3);
  EXPECT_TRUE(r.runs[1].from_symmetry);
  EXPECT_EQ(r.runs[1].qext, r.runs[0].qext);
  // no absorption for real m: |Qabs| at rounding level
  EXPECT_LT(std::abs(r.runs[0].qabs), 1e-12);
  EXPECT_LT(r.runs[0].residual, 1e-5);
}

// Issue 7: grid 64 is closer to Mie than grid 32 (1.52e-3 vs 1.63e-3).
TEST(DdaMie, SphereGrid64CloserThanGrid32) {
  const MieResult mie = mie_sphere(5, {1.5, 0});
  const double e32 = rel(DdaPlan(sphere(32, {1.5, 0})).execute().runs[0].qext, mie.qext);
  const double e64 = rel(DdaPlan(sphere(64, {1.5, 0})).execute().runs[0].qext, mie.qext);
  EXPECT_LT(e64, e32);
  EXPECT_LT(e64, 3e-3);
}

// Absorbing sphere m = 1.33 + 0.1i, grid 32: Qext 0.22%, Qabs 0.08%, g 0.06%
// off Mie (LDR discretisation error); 0.3%, 0.3% and 0.3% allowed.
TEST(DdaMie, AbsorbingSphere) {
  const MieResult mie = mie_sphere(5, {1.33, 0.1});
  DdaOptions o = sphere(32, {1.33, 0.1});
  o.asym = true;
  const DdaResult r = DdaPlan(o).execute();
  ASSERT_TRUE(r.converged);
  const auto& y = r.runs[0];
  EXPECT_LT(rel(y.qext, mie.qext), 3e-3);
  EXPECT_LT(rel(y.qabs, mie.qabs), 3e-3);
  EXPECT_LT(rel(y.g[2], mie.g), 3e-3);
  // energy balance: integrated Csca = Cext − Cabs up to the solver tolerance
  // and the quadrature (measured 2e-7)
  EXPECT_LT(rel(y.qsca_int, y.qext - y.qabs), 1e-5);
}

// Coated sphere (shell m = 1.5, core m = 1.33 + 0.1i, d_in/d = 0.5), grid 32:
// Qext −0.07%, Qabs +1.9% (the absorbing core's staircase surface); allowed
// 0.3% and 3%.
TEST(DdaMie, CoatedSphere) {
  DdaOptions o = sphere(32, {1.5, 0});
  o.shape.kind = DdaShapeKind::coated;
  o.shape.params = {0.5};
  o.m.push_back({1.33, 0.1});
  const MieResult mie = mie_coated_sphere(2.5, 5, {1.33, 0.1}, {1.5, 0});
  const DdaResult r = DdaPlan(o).execute();
  ASSERT_TRUE(r.converged);
  EXPECT_LT(rel(r.runs[0].qext, mie.qext), 3e-3);
  EXPECT_LT(rel(r.runs[0].qabs, mie.qabs), 3e-2);
}

// Mueller matrix in the yz plane against Mie at grid 32 (m = 1.33 + 0.1i):
// S11 within 5% up to 90° (measured ≤ 0.5% below 60°, 3.8% at the minimum near 80°),
// and the sphere's zero elements vanish to rounding relative to S11.
TEST(DdaMie, MuellerAgainstMie) {
  DdaOptions o = sphere(32, {1.33, 0.1});
  o.mueller = true;
  o.ntheta = 19;
  const DdaResult r = DdaPlan(o).execute();
  const MieResult mie = mie_sphere(5, {1.33, 0.1});
  ASSERT_EQ(r.mueller.size(), 19u);
  for (const auto& row : r.mueller) {
    const MieMueller mm = mie_mueller(mie, row.theta * kPi / 180);
    if (row.theta <= 90) EXPECT_LT(rel(row.s[0], mm.s11), 5e-2) << "theta " << row.theta;
    EXPECT_LT(std::abs(row.s[2]), 1e-9 * row.s[0]) << "s13 at " << row.theta;
    EXPECT_LT(std::abs(row.s[3]), 1e-9 * row.s[0]) << "s14 at " << row.theta;
  }
}

// All four solvers reach the same solution: with eps = 1e-5 on the residual
// the cross sections agree to ~1e-5 (measured ≤ 1e-6); allowed 3e-5.
TEST(DdaMie, SolversAgree) {
  double ref = 0;
  for (DdaSolver s : {DdaSolver::qmr_cs, DdaSolver::bicg_cs, DdaSolver::bicgstab, DdaSolver::cgnr}) {
    DdaOptions o = sphere(16, {1.5, 0.02});
    o.solver = s;
    const DdaResult r = DdaPlan(o).execute();
    ASSERT_TRUE(r.converged) << to_string(s);
    if (ref == 0) ref = r.runs[0].qext;
    EXPECT_LT(rel(r.runs[0].qext, ref), 3e-5) << to_string(s);
  }
}

// Float and double both converge to eps = 1e-5 and give Qext within 1e-4
// (issue 7); measured 3e-6.
TEST(DdaMie, FloatVersusDouble) {
  DdaOptions o = sphere(32, {1.5, 0});
  const double qd = DdaPlan(o).execute().runs[0].qext;
  o.compute.precision = Precision::float32;
  const DdaResult rf = DdaPlan(o).execute();
  ASSERT_TRUE(rf.converged);
  EXPECT_LT(rel(rf.runs[0].qext, qd), 1e-4);
}

// Using the rotation symmetry equals solving X explicitly (--sym no) to the
// solver tolerance; the Mueller matrices agree too.
TEST(DdaMie, SymmetryEqualsExplicitSolve) {
  DdaOptions o = sphere(12, {1.5, 0.05});
  o.mueller = true;
  o.ntheta = 10;
  const DdaResult a = DdaPlan(o).execute();
  o.use_symmetry = false;
  const DdaResult b = DdaPlan(o).execute();
  ASSERT_FALSE(b.runs[1].from_symmetry);
  EXPECT_LT(rel(b.runs[1].qext, a.runs[1].qext), 3e-5);
  EXPECT_LT(rel(b.runs[1].qabs, a.runs[1].qabs), 3e-5);
  // without symmetry the yz plane covers 0..360°; the first 10 rows are 0..180°
  ASSERT_EQ(b.mueller.size(), 18u);
  for (int i = 0; i < 10; ++i)
    for (int e : {0, 1, 10, 11}) EXPECT_NEAR(b.mueller[i].s[e], a.mueller[i].s[e], 1e-4 * a.mueller[i].s[0]);
}

// A non-symmetric particle (ellipsoid y/x = 1.5): X and Y differ, both solved.
TEST(DdaMie, EllipsoidNeedsTwoPolarizations) {
  DdaOptions o;
  o.shape.kind = DdaShapeKind::ellipsoid;
  o.shape.params = {1.5, 1};
  o.grid = {10};
  o.size = 3;
  const DdaResult r = DdaPlan(o).execute();
  ASSERT_TRUE(r.converged);
  EXPECT_FALSE(r.runs[1].from_symmetry);
  EXPECT_GT(rel(r.runs[0].qext, r.runs[1].qext), 1e-3);
}

// --maxiter too small: partial results, converged = false, no exception.
TEST(DdaMie, NonConvergenceIsFlagged) {
  DdaOptions o = sphere(16, {1.5, 0});
  o.maxiter = 3;
  const DdaResult r = DdaPlan(o).execute();
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.runs[0].iterations, 3);
  EXPECT_GT(r.runs[0].residual, 1e-5);
}

// The (θ, φ) grid at φ = 90° is the yz plane: both Mueller outputs agree to
// rounding (they use different per/par constructions, ADDA SetScatPlane vs
// CalcEplaneYZ), here for a particle without symmetry.
TEST(DdaMie, ScatteringGridMatchesYzPlane) {
  DdaOptions o;
  o.shape.kind = DdaShapeKind::ellipsoid;
  o.shape.params = {1.4, 0.7};
  o.grid = {8};
  o.size = 2;
  o.m = {{1.4, 0.02}};
  o.mueller = true;
  o.ntheta = 7;
  o.grid_phi = 4;  // φ = 0, 90, 180, 270°
  const DdaResult r = DdaPlan(o).execute();
  ASSERT_EQ(r.mueller_grid.size(), 7u * 4);
  for (int i = 0; i < 7; ++i) {
    const DdaMuellerRow& g = r.mueller_grid[4 * i + 1];
    ASSERT_DOUBLE_EQ(g.phi, 90);
    const DdaMuellerRow& p = r.mueller[i];
    ASSERT_DOUBLE_EQ(g.theta, p.theta);
    for (int e = 0; e < 16; ++e) EXPECT_NEAR(g.s[e], p.s[e], 1e-10 * p.s[0]) << "theta " << p.theta << " element " << e;
  }
}
