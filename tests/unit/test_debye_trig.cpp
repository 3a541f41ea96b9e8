// The vectorisable sincos of the CPU kernels (src/core/simd_trig.hpp)
// against the C library's correctly rounded-ish std::sin/std::cos.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "nanoscatter/constants.hpp"
#include "core/simd_trig.hpp"

using namespace nanoscatter;

// Double: x is exact as given; the reduction by π/2 in three parts is exact
// for |k| < 2^20 up to the rounding of the last two subtractions (≤ 1 ulp of
// the reduced argument ≤ π/4), and the Cephes polynomials add ~1 ulp of a
// value ≤ 1: absolute tolerance 3e-16 (measured 1.4e-16).
TEST(DebyeTrig, DoubleMatchesLibm) {
  for (double x = -60; x <= 1.2e4; x += 0.00731) {
    double s, c;
    trig::sincos(x, s, c);
    const double tol = 3e-16;
    ASSERT_LE(std::abs(s - std::sin(x)), tol) << "x = " << x;
    ASSERT_LE(std::abs(c - std::cos(x)), tol) << "x = " << x;
  }
}

// Float: the argument is a float32 value x (exact); the reduction is exact
// for |k| < 2^13 (|x| ≲ 1.2e4) and Cephes' float polynomials are accurate to
// ~1 float ulp of 1 (6e-8); 2.5e-7 leaves room for the final rounding.
TEST(DebyeTrig, FloatMatchesLibm) {
  float worst = 0;
  for (double xd = -60; xd <= 1.2e4; xd += 0.00731) {
    const float x = float(xd);
    float s, c;
    trig::sincos(x, s, c);
    const double err = std::max(std::abs(double(s) - std::sin(double(x))),
                                std::abs(double(c) - std::cos(double(x))));
    worst = std::max<float>(worst, float(err));
  }
  EXPECT_LE(worst, 2.5e-7f);
}

// Quadrant boundaries and exact points, where the bit-mask selection between
// the sine and cosine polynomials switches.
TEST(DebyeTrig, QuadrantsAndSigns) {
  for (int k = -8; k <= 8; ++k) {
    const double x = k * kPi / 2;
    double s, c;
    trig::sincos(x, s, c);
    EXPECT_NEAR(s, std::sin(x), 1e-15) << k;
    EXPECT_NEAR(c, std::cos(x), 1e-15) << k;
    for (double eps : {-1e-9, 1e-9, -0.7853, 0.7853}) {
      trig::sincos(x + eps, s, c);
      EXPECT_NEAR(s, std::sin(x + eps), 1e-15) << k << " " << eps;
      EXPECT_NEAR(c, std::cos(x + eps), 1e-15) << k << " " << eps;
    }
  }
  EXPECT_EQ(trig::sin(0.0), 0.0);
  EXPECT_EQ(trig::sin(0.0f), 0.0f);
}

// The same function inside an `omp simd` loop (the way the kernels call it)
// gives the same values as the scalar calls.
TEST(DebyeTrig, VectorisedLoopAgreesWithScalarCalls) {
  std::vector<float> x(1031), y(1031);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.37f * float(i) - 11.0f;
#pragma omp simd
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = trig::sin(x[i]);
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_EQ(y[i], trig::sin(x[i])) << i;
}
