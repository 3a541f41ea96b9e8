// The triangle kernel of the fast mesh paths (src/gisaxs/mesh/
// triangle_kernel.hpp): both forms (branching, used on the GPU, and
// branch-free, used on the CPU), in float and double, against an
// independent evaluation of e[ip0, ip1, ip2] = ∫∫_simplex exp(i(p0 + s(p1 − p0)
// + t(p2 − p0))) ds dt by Gauss–Legendre quadrature (smooth integrand; 48 × 48
// points are exact to ~1e-15 for |p| ≤ 12). Phase sets cover coincident,
// nearly coincident (1e-9 .. 1e-2 apart, q ⟂ an edge), straddling the series
// switch δ = 1/2, and far apart.
#include <gtest/gtest.h>

#include <complex>
#include <random>

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
