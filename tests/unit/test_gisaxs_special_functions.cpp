// Special functions of the gisaxs form factors against mpmath (40 digits,
// tests/data/gisaxs/special_values.txt from tools/gisaxs_reference.py).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "../physics/test_gisaxs_support.hpp"
#include "gisaxs/special_functions.hpp"

namespace nanoscatter::gisaxs {
namespace {

using test::read_reference;
using test::rel_error;

TEST(GisaxsSpecialFunctions, BesselJ1OverXAgainstMpmath) {
  const auto lines = read_reference("j1c");
  ASSERT_GE(lines.size(), 70u);
  for (const auto& l : lines) {
    const Complex z(l.values[0], l.values[1]), ref(l.values[2], l.values[3]);
    // 2e-14 relative: the series at |z| ≤ 8 carries terms up to ~20× the
    // result (≈ 20 ulp); the Chebyshev table, the trapezoid and Hankel
    // branches are good to a few ulp. Plus 1e-16 absolute: near a zero of
    // J1 any double evaluation is only known to a few ulp of the function's
    // nearby scale (J1(x)/x ≲ 0.5).
    EXPECT_LT(std::abs(bessel_j1c(z) - ref), 2e-14 * std::abs(ref) + 1e-16) << "z = " << z;
  }
}

TEST(GisaxsSpecialFunctions, BesselJ1OverXIsEven) {
  // The reference values include points just inside and outside the branch
  // boundaries |z| = 8 and 25 (continuity); here the parity J1(−z)/(−z) = J1(z)/z.
  for (const Complex z : {Complex(3, 1), Complex(12, -2), Complex(40, 3), Complex(7.5, 0)})
    EXPECT_LT(rel_error(bessel_j1c(-z), bessel_j1c(z)), 1e-15);
  EXPECT_EQ(bessel_j1c(0.0), 0.5);
}

TEST(GisaxsSpecialFunctions, SphereAmplitudeAgainstMpmath) {
  const auto lines = read_reference("sphere_amp");
  ASSERT_GE(lines.size(), 8u);
  for (const auto& l : lines) {
    const Complex x(l.values[0], l.values[1]), ref(l.values[2], l.values[3]);
    // 1e-14: the series below |x| = 1 is exact to rounding; above, the
    // closed form loses at most one digit (at |x| ≈ 1).
    EXPECT_LT(rel_error(sphere_amplitude(x), ref), 1e-14) << "x = " << x;
  }
}

TEST(GisaxsSpecialFunctions, SincSeriesMeetsClosedForm) {
  // Below |z| = 1e-4 a series replaces sin(z)/z; both sides must agree to rounding.
  for (double arg : {0.0, 0.5, 2.0}) {
    const Complex in = std::polar(1e-4 * (1 - 1e-12), arg), out = std::polar(1e-4 * (1 + 1e-12), arg);
    EXPECT_LT(std::abs(sinc(in) - std::sin(out) / out), 2.3e-16);  // one ulp of 1
  }
  EXPECT_EQ(sinc(Complex(0)), Complex(1));
  EXPECT_NEAR(sinc(std::numbers::pi), 0.0, 1e-16);
}

TEST(GisaxsSpecialFunctions, GaussLegendreIsExactForPolynomials) {
  for (int n : {8, 16, 24, 32, 48, 64, 96, 128}) {
    const GaussRule& g = gauss_legendre(n);
    ASSERT_EQ(static_cast<int>(g.nodes.size()), n);
    // ∫_{-1}^{1} x^{2k} dx = 2/(2k+1) for 2k ≤ 2n − 1; 1e-14 allows the
    // rounding of n terms.
    for (int k = 0; 2 * k <= 2 * n - 2; k += std::max(1, n / 8)) {
      double sum = 0;
      for (int i = 0; i < n; ++i) sum += g.weights[i] * std::pow(g.nodes[i], 2 * k);
      EXPECT_NEAR(sum, 2.0 / (2 * k + 1), 1e-14) << n << " " << k;
    }
  }
  EXPECT_EQ(gauss_legendre(20).nodes.size(), 24u);  // the next larger rule
  EXPECT_THROW(gauss_legendre(129), Error);
}

}  // namespace
}  // namespace nanoscatter::gisaxs
