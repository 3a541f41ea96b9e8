#include "gisaxs/special_functions.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "nanoscatter/error.hpp"

namespace nanoscatter::gisaxs {

Complex sinc(Complex z) {
  // Below |z| = 1e-4 the series 1 − z²/6 + z⁴/120 is exact to double
  // precision (next term z⁶/5040 < 2e-28); sin(z)/z itself does not cancel.
  if (std::abs(z) < 1e-4) {
    const Complex z2 = z * z;
    return 1.0 - z2 / 6.0 + z2 * z2 / 120.0;
  }
  return std::sin(z) / z;
}

double sinc(double x) {
  if (std::abs(x) < 1e-4) {
    const double x2 = x * x;
    return 1.0 - x2 / 6.0 + x2 * x2 / 120.0;
  }
  return std::sin(x) / x;
}

namespace {

// J1(z)/z = (1/2) Σ_k (−z²/4)^k / (k! (k+1)!)
Complex j1c_series(Complex z) {
  const Complex w = -0.25 * z * z;
  Complex term = 0.5, sum = 0.5;
  for (int k = 1; k < 60; ++k) {
    term *= w / double(k * (k + 1));
    sum += term;
    if (std::abs(term) < 1e-17 * std::abs(sum)) break;
  }
  return sum;
}

// Bessel's integral with the M-interval trapezoidal rule on [0, π]; the end
// points contribute cos(0)/2 + cos(π)/2 = 0. For |z| ≤ 25 the aliasing error
// is of order |J_{2M−1}(z)| < 1e-25 with M = 48.
Complex j1c_trapezoid(Complex z) {
  constexpr int M = 48;
  static const std::array<std::array<double, 2>, M> nodes = [] {
    std::array<std::array<double, 2>, M> t{};
    for (int m = 0; m < M; ++m) {
      const double tau = std::numbers::pi * m / M;
      t[m] = {tau, std::sin(tau)};
    }
    return t;
  }();
  Complex sum = 0;
  for (int m = 1; m < M; ++m) sum += std::cos(nodes[m][0] - z * nodes[m][1]);
  return sum / double(M) / z;
}

// Hankel's expansion, DLMF 10.17.3 with ν = 1 (μ = 4ν² = 4), for Re z ≥ 0
// and |z| > 25, where the smallest term (~e^{−2|z|}) is far below 1e-17.
Complex j1c_hankel(Complex z) {
  constexpr double mu = 4.0;
  Complex p = 0, q = 0;
  Complex term = 1.0;  // a_k(1)/z^k
  for (int k = 0; k < 80; ++k) {
    if (k > 0) term *= (mu - double((2 * k - 1) * (2 * k - 1))) / (8.0 * k) / z;
    // (−1)^{⌊k/2⌋}: P collects even k, Q odd k, each with alternating sign.
    const double sign = ((k / 2) % 2 == 0) ? 1.0 : -1.0;
    if (k % 2 == 0)
      p += sign * term;
    else
      q += sign * term;
    if (k > 2 && std::abs(term) < 1e-17) break;
  }
  // cos(z − 3π/4) = (sin z − cos z)/√2, sin(z − 3π/4) = −(sin z + cos z)/√2:
  // the library reduces the exact z, where z − 3π/4 would carry the rounding
  // of 3π/4 times |z| into the phase.
  const Complex s = std::sin(z), c = std::cos(z);
  const Complex j1 = std::sqrt(1.0 / (std::numbers::pi * z)) * (p * (s - c) + q * (s + c));
  return j1 / z;
}

}  // namespace

namespace {

// J1(x)/x on [0, 25] as Chebyshev interpolants of degree kChebDegree on the
// unit intervals [m, m + 1]: the interpolation error of an entire function
// with |f^(n)| ≤ 1 on a half-width 1/2 is below (1/4)^16/16! ≈ 1e-23, so the
// table is as good as its node values (libstdc++'s cyl_bessel_j, a few ulp;
// the power series below x = 1).
constexpr int kChebIntervals = 25;  // [0, 1] is kept for the table's uniformity
constexpr int kChebDegree = 15;
using ChebTable = std::array<std::array<double, kChebDegree + 1>, kChebIntervals>;

double j1c_reference(double x) {
  return x < 1.0 ? j1c_series(Complex(x)).real() : std::cyl_bessel_j(1.0, x) / x;
}

const ChebTable& j1c_table() {
  static const ChebTable table = [] {
    ChebTable t{};
    constexpr int n = kChebDegree + 1;
    for (int m = 0; m < kChebIntervals; ++m) {
      std::array<double, n> f{};
      for (int j = 0; j < n; ++j) f[j] = j1c_reference(m + 0.5 + 0.5 * std::cos(std::numbers::pi * (j + 0.5) / n));
      for (int k = 0; k < n; ++k) {
        double c = 0;
        for (int j = 0; j < n; ++j) c += f[j] * std::cos(std::numbers::pi * k * (j + 0.5) / n);
        t[m][k] = (k == 0 ? 1.0 : 2.0) * c / n;
      }
    }
    return t;
  }();
  return table;
}

}  // namespace

double bessel_j1c(double x) {
  const double ax = std::abs(x);
  // libstdc++'s cyl_bessel_j drifts to ~1e-11 at x ~ 400 (its large-x
  // phase); Hankel's expansion serves x > 25.
  if (ax > kChebIntervals) return j1c_hankel(Complex(ax)).real();
  if (ax < 1.0) return j1c_series(Complex(ax)).real();  // few terms, exact 1/2 at 0
  const int m = std::min(static_cast<int>(ax), kChebIntervals - 1);
  const auto& c = j1c_table()[m];
  // Clenshaw's recurrence at t = 2(x − m) − 1 ∈ [−1, 1].
  const double t = 2 * (ax - m) - 1, t2 = 2 * t;
  double b1 = 0, b2 = 0;
  for (int k = kChebDegree; k > 0; --k) {
    const double b0 = c[k] + t2 * b1 - b2;
    b2 = b1;
    b1 = b0;
  }
  return c[0] + t * b1 - b2;
}

const std::vector<double>& bessel_j1c_chebyshev() {
  static const std::vector<double> flat = [] {
    std::vector<double> f;
    for (const auto& interval : j1c_table()) f.insert(f.end(), interval.begin(), interval.end());
    return f;
  }();
  return flat;
}

Complex sinc_exp_i(Complex z) {
  // (e^w − 1)/w with w = 2iz is Σ_{n≥0} w^n/(n+1)!; 18 terms below
  // |w| = 1/2 (the first omitted is below 2^-18/19! ≈ 3e-23), by Horner's scheme.
  const Complex w(-2 * z.imag(), 2 * z.real());
  if (std::abs(w) < 0.5) {
    Complex sum = 1.0;
    for (int n = 17; n >= 1; --n) sum = 1.0 + w * sum / double(n + 1);
    return sum;
  }
  return (std::exp(w) - 1.0) / w;
}

Complex bessel_j1c(Complex z) {
  if (z.imag() == 0) return bessel_j1c(z.real());
  // J1(z)/z is even: work in the right half plane.
  if (z.real() < 0) z = -z;
  const double r = std::abs(z);
  if (r <= 8.0) return j1c_series(z);
  if (r <= 25.0) return j1c_trapezoid(z);
  return j1c_hankel(z);
}

Complex sphere_amplitude(Complex x) {
  // 3(sin x − x cos x)/x³ = 3 Σ_{k≥1} (−1)^{k+1} 2k x^{2k−2}/(2k+1)!; the closed
  // form loses ~2 log10(1/|x|) digits to cancellation, so the series serves
  // |x| < 1 (terms fall below 1e-17 by k = 10).
  if (std::abs(x) < 1.0) {
    const Complex x2 = x * x;
    Complex power = 1.0, sum = 0;
    double factorial = 6.0;  // (2k+1)! for k = 1
    for (int k = 1; k <= 12; ++k) {
      const double sign = (k % 2) ? 1.0 : -1.0;
      sum += sign * 2.0 * k * power / factorial;
      power *= x2;
      factorial *= double((2 * k + 2) * (2 * k + 3));
    }
    return 3.0 * sum;
  }
  return 3.0 * (std::sin(x) - x * std::cos(x)) / (x * x * x);
}

double sphere_amplitude(double x) {
  if (std::abs(x) < 1.0) {  // the series of the complex version, in real arithmetic
    const double x2 = x * x;
    double power = 1.0, sum = 0, factorial = 6.0;
    for (int k = 1; k <= 12; ++k) {
      const double sign = (k % 2) ? 1.0 : -1.0;
      sum += sign * 2.0 * k * power / factorial;
      power *= x2;
      factorial *= double((2 * k + 2) * (2 * k + 3));
    }
    return 3.0 * sum;
  }
  return 3.0 * (std::sin(x) - x * std::cos(x)) / (x * x * x);
}

namespace {


constexpr std::array<int, 8> kGaussOrders{8, 16, 24, 32, 48, 64, 96, 128};

}  // namespace

const GaussRule& gauss_legendre(int n) {
  static const std::array<GaussRule, kGaussOrders.size()> rules = [] {
    std::array<GaussRule, kGaussOrders.size()> r;
    for (std::size_t i = 0; i < kGaussOrders.size(); ++i) r[i] = gauss_legendre_rule(kGaussOrders[i]);
    return r;
  }();
  for (std::size_t i = 0; i < kGaussOrders.size(); ++i)
    if (kGaussOrders[i] >= n) return rules[i];
  fail("gauss_legendre: no rule with ", n, " points (at most 128)");
}

}  // namespace nanoscatter::gisaxs
