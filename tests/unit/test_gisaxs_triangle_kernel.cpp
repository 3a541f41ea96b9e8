// The triangle kernel of the fast mesh paths (src/gisaxs/mesh/
// triangle_kernel.hpp): both forms (branching, used on the GPU, and
// branch-free, used on the CPU), in float and double, against an
// independent evaluation of e[ip0, ip1, ip2] = ∫∫_simplex exp(i(p0 + s(p1 − p0)
// + t(p2 − p0))) ds dt by Gauss–Legendre quadrature (smooth integrand; 48 × 48
// points are exact to ~1e-15 for |p| ≤ 12). Phase sets cover coincident,
// nearly coincident (1e-9 .. 1e-2 apart, q ⟂ an edge), straddling the series
// switch δ = 1/2, and far apart.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>
#include <random>
#include <utility>

#include "core/quadrature.hpp"
#include "gisaxs/mesh/triangle_kernel.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs::mesh;

namespace {

std::complex<double> quadrature(double p0, double p1, double p2) {
  static const GaussRule rule = gauss_legendre_rule(48);
  std::complex<double> sum = 0;
  // s ∈ [0, 1], t ∈ [0, 1 − s]
  for (std::size_t i = 0; i < rule.nodes.size(); ++i) {
    const double s = 0.5 * (rule.nodes[i] + 1), ws = 0.5 * rule.weights[i];
    for (std::size_t j = 0; j < rule.nodes.size(); ++j) {
      const double t = (1 - s) * 0.5 * (rule.nodes[j] + 1), wt = (1 - s) * 0.5 * rule.weights[j];
      sum += ws * wt * std::polar(1.0, p0 + s * (p1 - p0) + t * (p2 - p0));
    }
  }
  return sum;
}

template <class Real, bool kBlend>
std::complex<double> kernel(double p0, double p1, double p2) {
  // Phases relative to p0 (as the kernels see them: tile-relative), exp from float64.
  auto e = [](double p) { return ExpPhase<Real>{Real(std::cos(p)), Real(std::sin(p))}; };
  Real re, im;
  if constexpr (kBlend)
    triangle_integral_blend<Real>(Real(0), e(p0), Real(p1 - p0), e(p1), Real(p2 - p0), e(p2), re, im);
  else
    triangle_integral<Real>(Real(0), e(p0), Real(p1 - p0), e(p1), Real(p2 - p0), e(p2), re, im);
  return {double(re), double(im)};
}

}  // namespace

TEST(GisaxsTriangleKernel, BothFormsMatchQuadrature) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> base(-6, 6), spread(-1, 1);
  std::vector<std::array<double, 3>> cases{{0, 0, 0}, {1, 1, 1}, {0.3, 0.3, 2.0}, {0, 0.5, 1.0}, {0, 0.499999, 0.5},
                                           {2, 2 + 1e-9, 2 - 1e-9}, {-3, 4, 9}, {5, 5.2, -1}};
  for (int k = 0; k < 400; ++k) {
    const double p0 = base(rng);
    const double scale = std::pow(10.0, -9 + 10 * double(k % 10) / 9);  // 1e-9 .. 10
    cases.push_back({p0, p0 + scale * spread(rng), p0 + (k % 3 == 0 ? scale * spread(rng) : 3 * spread(rng))});
  }
  double worst[4] = {0, 0, 0, 0};
  for (const auto& c : cases) {
    const auto want = quadrature(c[0], c[1], c[2]);
    const double size = std::abs(want);  // ≥ ~0.05 for these spreads
    const std::complex<double> got[4] = {kernel<double, false>(c[0], c[1], c[2]), kernel<double, true>(c[0], c[1], c[2]),
                                         kernel<float, false>(c[0], c[1], c[2]), kernel<float, true>(c[0], c[1], c[2])};
    for (int v = 0; v < 4; ++v) worst[v] = std::max(worst[v], std::abs(got[v] - want) / size);
  }
  std::printf("triangle kernel vs quadrature: double %.2e / %.2e, float %.2e / %.2e (branching / branch-free)\n",
              worst[0], worst[1], worst[2], worst[3]);
  // float64: rounding of the inputs (~1e-16) times at most 2/δ² = 8.
  EXPECT_LE(worst[0], 1e-13);
  EXPECT_LE(worst[1], 1e-13);
  // float32: ε₃₂ = 6e-8 times 8, plus the float phases.
  EXPECT_LE(worst[2], 2e-6);
  EXPECT_LE(worst[3], 2e-6);
}

namespace {

// e[i p_a, i p_b, i p_c] by the fast paths, from y1 = p_b − p_a, y2 = p_c − p_a
// (as the GPU kernel forms them) and exp from float64.
template <class Real, int K>
std::complex<double> anchored(double pa, double pb, double pc) {
  Real re, im;
  anchored_series<Real, K>(Real(pb - pa), Real(pc - pa), Real(1), re, im);
  return std::polar(1.0, pa) * std::complex<double>(double(re), double(im));
}

template <class Real>
std::complex<double> lagrange(double pa, double pb, double pc) {
  auto e = [](double p) { return ExpPhase<Real>{Real(std::cos(p)), Real(std::sin(p))}; };
  Real re, im;
  three_point<Real>(Real(pb - pa), Real(pc - pa), e(pa), e(pb), e(pc), Real(1), re, im);
  return {double(re), double(im)};
}

}  // namespace

// The anchored series of each tier up to its reach, corners in every order
// (y1, y2 of either sign, the reach on y1, y2 or both), and the three-point
// form wherever all pairwise differences are ≥ δ, against quadrature.
// Bounds: the tails of the tiers are < 1e-8 |e| (float) and < 1e-17 |e|
// (double) by construction (triangle_kernel.hpp), so what is left is
// rounding: float ε₃₂ = 6e-8 times a few (terms ≤ 1/2, |e| ≥ 0.46) plus the
// float rounding of y (≤ ε₃₂ · 1 rad, derivative ≤ 1/2) → 1e-6; double
// 1e-13 (the quadrature's own ~1e-15 and ε₆₄ times a few). Three-point: the
// 2ε/δ² = 8ε amplification of the sorted form (absolute, as below).
TEST(GisaxsTriangleKernel, FastPathsMatchQuadrature) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> base(-6, 6), unit(-1, 1);
  double worst_tier[2][4] = {}, worst_three[2] = {0, 0};
  static_assert(SeriesTiers<float>::count <= 4 && SeriesTiers<double>::count <= 4);
  int three_cases = 0;
  for (int k = 0; k < 600; ++k) {
    const double pa = base(rng);
    // Reach just below each tier's limit for a third of the cases.
    const double scale = std::pow(10.0, -6 + 6 * double(k % 7) / 6);
    double y1 = scale * unit(rng), y2 = scale * unit(rng);
    if (k % 3 == 0) y1 = (k % 2 ? 1 : -1) * scale;
    auto clamp_reach = [&](double limit, double& a, double& b) {
      const double r = std::max(std::abs(a), std::abs(b));
      if (r >= limit) a *= 0.999 * limit / r, b *= 0.999 * limit / r;
    };
    // Every tier up to its reach (the first tier for small reaches too), in
    // float (row 0) and double (row 1).
    const auto tiers = [&]<class Real>(int row) {
      [&]<int... I>(std::integer_sequence<int, I...>) {
        (
            [&] {
              double a = y1, b = y2;
              clamp_reach(SeriesTiers<Real>::reach[I], a, b);
              const auto want = quadrature(pa, pa + a, pa + b);
              worst_tier[row][I] =
                  std::max(worst_tier[row][I],
                           std::abs(anchored<Real, SeriesTiers<Real>::terms[I]>(pa, pa + a, pa + b) - want) /
                               std::abs(want));
            }(),
            ...);
      }(std::make_integer_sequence<int, SeriesTiers<Real>::count>());
    };
    tiers.template operator()<float>(0);
    tiers.template operator()<double>(1);
    {
      // Three-point: phases spread over up to 12 rad, every gap ≥ δ.
      const double a = 6 * unit(rng), b = 6 * unit(rng);
      if (std::min({std::abs(a), std::abs(b), std::abs(b - a)}) < kSeriesSwitch) continue;
      ++three_cases;
      const auto want = quadrature(pa, pa + a, pa + b);
      worst_three[0] = std::max(worst_three[0], std::abs(lagrange<float>(pa, pa + a, pa + b) - want));
      worst_three[1] = std::max(worst_three[1], std::abs(lagrange<double>(pa, pa + a, pa + b) - want));
    }
  }
  for (int i = 0; i < SeriesTiers<float>::count; ++i) {
    std::printf("float tier K = %d (reach < %.2f): %.2e relative\n", SeriesTiers<float>::terms[i],
                SeriesTiers<float>::reach[i], worst_tier[0][i]);
    EXPECT_LE(worst_tier[0][i], 1e-6) << "float tier " << i;
  }
  for (int i = 0; i < SeriesTiers<double>::count; ++i) {
    std::printf("double tier K = %d (reach < %.2f): %.2e relative\n", SeriesTiers<double>::terms[i],
                SeriesTiers<double>::reach[i], worst_tier[1][i]);
    EXPECT_LE(worst_tier[1][i], 1e-13) << "double tier " << i;
  }
  std::printf("three-point vs quadrature (float / double): %.2e / %.2e (absolute, %d cases)\n", worst_three[0],
              worst_three[1], three_cases);
  EXPECT_GT(three_cases, 200);
  // Absolute (|e| ≤ 1/2; for spans up to 12 rad it falls to ~0.01, and the
  // rounding bound 2ε/δ² = 8ε is absolute): float 8 ε₃₂ (5e-7) plus the float
  // rounding of y (ε₃₂ · 12 rad, derivative ≤ 1/2), double 8 ε₆₄ and the
  // quadrature's ~1e-15.
  EXPECT_LE(worst_three[0], 2e-6);
  EXPECT_LE(worst_three[1], 1e-14);
}

// exp(iπh) of the GPU's float vertex phases (exp_i_half_pi of t = 2h)
// against float64 sin/cos over |h| ≤ 1e4 half-turns (|q·v| ≤ 3e4 rad) and
// at the quadrant boundaries. Bound: r = t − j rounded to float (≤ 2^-26 ·
// π/2 = 2.3e-8), the polynomials (≤ 5.4e-9) and float rounding (≤ 2 ε₃₂ =
// 1.2e-7): 2e-7.
TEST(GisaxsTriangleKernel, FloatExpOfHalfTurnsMatchesFloat64) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> wide(-1e4, 1e4), narrow(-2, 2);
  double worst = 0;
  for (int k = 0; k < 200000; ++k) {
    double h = k % 2 ? wide(rng) : narrow(rng);
    if (k % 10 == 0) h = 0.25 * std::round(4 * h);       // quadrant boundaries
    if (k % 10 == 1) h = 0.25 * std::round(4 * h) + 1.25e-1;  // mid-quadrant
    const ExpPhase<float> e = exp_i_half_pi(2 * h);
    const double p = std::numbers::pi * std::remainder(h, 2.0);  // exact reduction
    worst = std::max({worst, std::abs(double(e.c) - std::cos(p)), std::abs(double(e.s) - std::sin(p))});
  }
  std::printf("exp_i_half_pi vs float64: %.2e\n", worst);
  EXPECT_LE(worst, 2e-7);
}
