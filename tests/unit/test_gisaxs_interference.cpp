// Interference functions: the paracrystal chain sum against its defining
// series, the 2D lattice's mean over a reciprocal cell, and spot values of
// BornAgain 1.19.0 (Debian's python3-bornagain, evaluated once with the
// parameters below) for every kind, to pin the conventions (angles, axes,
// normalisations, truncation of the reciprocal sums).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "nanoscatter/constants.hpp"
#include "gisaxs/interference/interference.hpp"

namespace nanoscatter::gisaxs {
namespace {

const std::vector<double> kQx{0.013, 0.11, 0.3, -0.62, 1.3, 0.05};
const std::vector<double> kQy{0.0, -0.05, 0.2, 0.41, -0.9, 0.02};

void expect_values(const Interference& spec, const std::vector<double>& expected, double position_variance = 0) {
  auto f = make_interference(spec, position_variance);
  ASSERT_TRUE(f);
  std::vector<double> out(kQx.size());
  f->evaluate(kQx, kQy, out);
  for (std::size_t i = 0; i < out.size(); ++i)
    // 1e-12 relative (1e-14 absolute for values that underflow in the
    // reference): the same double-precision formulas, summed in another order.
    EXPECT_NEAR(out[i], expected[i], 1e-12 * std::abs(expected[i]) + 1e-14) << "q = (" << kQx[i] << ", " << kQy[i] << ")";
}

TEST(GisaxsInterference, ParacrystalSumEqualsItsSeries) {
  // S = 1 + 2 Re Σ_{m=1}^{n−1} (1 − m/n) p^m for a finite domain of n steps,
  // and (1 + p)/(1 − p) for the infinite chain.
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0, 1);
  for (int trial = 0; trial < 200; ++trial) {
    const Complex p = std::polar(0.99 * u(rng), 2 * std::numbers::pi * u(rng));
    const int n = 1 + static_cast<int>(40 * u(rng));
    Complex series = 0, power = 1;
    for (int m = 1; m < n; ++m) {
      power *= p;
      series += (1.0 - double(m) / n) * power;
    }
    // Domain n·D + D/2 so that ⌊domain/D⌋ = n; 1e-12: n ≤ 40 terms.
    EXPECT_NEAR(paracrystal_sum(p, (n + 0.5) * 3.0, 3.0, 0.0), 1.0 + 2.0 * series.real(), 1e-12);
    EXPECT_NEAR(paracrystal_sum(p, 0.0, 3.0, 0.0), ((1.0 + p) / (1.0 - p)).real(), 1e-12);
  }
  // p → 1 (q → 0 without damping): the second-order series branch.
  const Complex near_one = std::polar(1.0 - 1e-9, 1e-8);
  Complex series = 0, power = 1;
  for (int m = 1; m < 50; ++m) {
    power *= near_one;
    series += (1.0 - m / 50.0) * power;
  }
  EXPECT_NEAR(paracrystal_sum(near_one, 50 * 2.0 + 1.0, 2.0, 0.0), 1.0 + 2.0 * series.real(), 1e-9);
}

TEST(GisaxsInterference, RadialParacrystalMatchesBornAgain) {
  expect_values(RadialParacrystal{20.0, 1000.0, 0.0, {ProfileKind::gauss, 3.0}},
                {0.61379650422950405, 0.048970256000367751, 1.0906846036764941, 0.89063860860661881,
                 1.0000249561895178, 0.062772164301816646});
  expect_values(RadialParacrystal{20.0, 0.0, 300.0, {ProfileKind::cauchy, 2.0}},
                {3.4359433969842001, 0.06892034970814731, 0.97709755127319031, 0.62177167562677937,
                 1.180246325992119, 0.24557014112941522});
  // With PositionVariance 0.5 nm².
  expect_values(RadialParacrystal{20.0, 1000.0, 0.0, {ProfileKind::gauss, 3.0}},
                {0.61382913704614073, 0.055887494492791734, 1.0849775915345174, 0.91703590570107996,
                 1.0000071500680081, 0.06413015987885351},
                0.5);
}

TEST(GisaxsInterference, Paracrystal1DIsAChainAlongXi) {
  // A chain along ξ sees only q₁ = q_x cos ξ + q_y sin ξ: along its own axis
  // it equals the radial paracrystal at |q∥| = |q₁|, and moving q
  // perpendicular to the chain changes nothing.
  const Distribution1D pdf{ProfileKind::cauchy, 2.5};
  const double xi = 35 * kDegree;
  auto chain = make_interference(Paracrystal1D{18.0, 600.0, 0.0, xi, pdf}, 0);
  auto radial = make_interference(RadialParacrystal{18.0, 600.0, 0.0, pdf}, 0);
  for (double q1 : {0.01, 0.2, 0.35, 0.9, 2.0}) {
    const std::vector<double> qx{q1 * std::cos(xi), q1 * std::cos(xi) - 0.7 * std::sin(xi)};
    const std::vector<double> qy{q1 * std::sin(xi), q1 * std::sin(xi) + 0.7 * std::cos(xi)};
    std::vector<double> s(2), r(1);
    chain->evaluate(qx, qy, s);
    radial->evaluate(std::vector<double>{q1}, std::vector<double>{0.0}, r);
    EXPECT_NEAR(s[0], r[0], 1e-12 * r[0]);
    EXPECT_NEAR(s[1], s[0], 1e-12 * s[0]);
  }
}

TEST(GisaxsInterference, Paracrystal2DMatchesBornAgain) {
  Paracrystal2D s;
  s.lattice = {12.0, 15.0, 100 * kDegree, 20 * kDegree};
  s.damping_length = 800;
  s.pdf_1 = {ProfileKind::gauss, 1.5, 2.0, 10 * kDegree};
  s.pdf_2 = {ProfileKind::cauchy, 1.0, 2.5, -30 * kDegree};
  expect_values(s, {5.7630834998155418, 0.01176268090806043, 0.25557998336998677, 0.92581345895358358,
                    0.96124480651441169, 0.51373919140160296});
  Paracrystal2D d;
  d.lattice = {10.0, 10.0, 90 * kDegree, 0};
  d.domain_size_1 = 150;
  d.domain_size_2 = 80;
  d.pdf_1 = d.pdf_2 = {ProfileKind::gauss, 1.0, 1.0, 0};
  expect_values(d, {86.557777696851858, 0.3686518369201921, 0.010977189660522524, 1.3368675271506834,
                    0.97482575691923357, 2.373341087639361});
}

TEST(GisaxsInterference, LatticesMatchBornAgain) {
  expect_values(Lattice2D{{12.0, 15.0, 100 * kDegree, 20 * kDegree}, {ProfileKind::cauchy, 100.0, 60.0, 15 * kDegree}},
                {59.678168192689782, 0.35228129555172993, 0.082861218335179343, 0.2005970931289347,
                 0.097402892391678098, 1.4011711002641354});
  expect_values(Lattice2D{{10.0, 10.0, 120 * kDegree, 0}, {ProfileKind::gauss, 50.0, 50.0, 0}},
                {146.84005416558605, 2.1513692189945033e-06, 0, 10.222175909022383, 5.5511151231257827e-16,
                 4.8336115806097322});
  expect_values(Lattice1D{8.0, 30 * kDegree, {ProfileKind::cauchy, 200.0}},
                {8.2430044868838905, 0.25779743910789832, 0.019441177682220312, 0.020321474541810325,
                 0.10991130724570186, 0.44197441759597755});
  expect_values(Lattice1D{8.0, -10 * kDegree, {ProfileKind::gauss, 100.0}},
                {13.806604232116147, 0, 0, 0, 0, 0.00088615527834901009});
}

TEST(GisaxsInterference, Lattice2DAveragesToOneOverAReciprocalCell) {
  // ∫Φ d²q = 4π² for the normalised decay functions, so the mean of
  // S = (1/A) Σ_G Φ(q − G) over one reciprocal cell (area 4π²/A) is 1. With
  // a Gauss decay the truncated sum is complete to 1e-80; the midpoint rule
  // on a 200² grid over the periodic cell is spectrally accurate.
  const Lattice2D spec{{9.0, 11.0, 75 * kDegree, 10 * kDegree}, {ProfileKind::gauss, 6.0, 4.0, 20 * kDegree}};
  auto f = make_interference(spec, 0);
  const double a = 9.0, b = 11.0, angle = 75 * kDegree, xi = 10 * kDegree, two_pi = 2 * std::numbers::pi;
  // Reciprocal vectors of a = L1(cos ξ, sin ξ), b = L2(cos(ξ+γ), sin(ξ+γ)).
  const double ax = a * std::cos(xi), ay = a * std::sin(xi), bx = b * std::cos(xi + angle), by = b * std::sin(xi + angle);
  const double det = ax * by - ay * bx;
  const double asx = two_pi * by / det, asy = -two_pi * bx / det, bsx = -two_pi * ay / det, bsy = two_pi * ax / det;
  const int n = 200;
  std::vector<double> qx, qy;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double u = (i + 0.5) / n, v = (j + 0.5) / n;
      qx.push_back(u * asx + v * bsx);
      qy.push_back(u * asy + v * bsy);
    }
  std::vector<double> s(qx.size());
  f->evaluate(qx, qy, s);
  double mean = 0;
  for (double x : s) mean += x;
  mean /= double(s.size());
  EXPECT_NEAR(mean, 1.0, 1e-12);
}

TEST(GisaxsInterference, NoInterferenceIsAbsent) { EXPECT_FALSE(make_interference(NoInterference{}, 0.3)); }

}  // namespace
}  // namespace nanoscatter::gisaxs
