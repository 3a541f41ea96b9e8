// Device-side math of the analytic GPU path (analytic_pixel.hpp), written
// once as __host__ __device__ templates over the working precision Real
// (float or double) so that the CPU tests run the very code the CUDA kernel
// runs (tests/unit/test_gisaxs_analytic_math.cpp):
//   - a minimal complex type (std::complex is not usable in device code),
//   - the special functions of special_functions.hpp, same series, same
//     switch points and the same Chebyshev table for J1(x)/x,
//   - the form factors of the analytic shapes (formfactors/*.cpp; lengths nm,
//     q nm⁻¹, F nm³) for in-plane q real (no particle rotation) and q_z
//     complex (the DWBA's k_z inside absorbing layers).
// Equations: sphere  F = V · 3(sin x − x cos x)/x³ · e^{i q_z R},  x = R|q|;
//            spheroid the sphere's with x = sqrt(R² q∥² + c² q_z²), c = H/2;
//            cylinder F = 2π R² H · J1(q∥R)/(q∥R) · sinc(q_z H/2) e^{i q_z H/2};
//            box      F = L W H sinc(q_x L/2) sinc(q_y W/2) sinc(q_z H/2) e^{i q_z H/2};
//            truncated sphere, cone: ∫ 2π r(z)² J1(q∥ r)/(q∥ r) e^{i q_z z} dz by
//            Gauss–Legendre panels sized as solid_of_revolution.hpp says.
#pragma once
#include <cmath>
#include <cstdint>

#include "nanoscatter/constants.hpp"  // kPi: a constexpr scalar, usable in device code

#if defined(__CUDACC__)
#define NS_GISAXS_HD __host__ __device__ __forceinline__
#else
#define NS_GISAXS_HD [[gnu::always_inline]] inline
#endif

namespace nanoscatter::gisaxs::analytic {

// ---- real functions: one spelling for host and device ---------------------
// (device code has the overloaded ::sin(float) etc.; host code std::.)
#if defined(__CUDA_ARCH__)
#define NS_GISAXS_MATH(f) ::f
#else
#define NS_GISAXS_MATH(f) std::f
#endif
template <class R> NS_GISAXS_HD R rsin(R x) { return NS_GISAXS_MATH(sin)(x); }
template <class R> NS_GISAXS_HD R rcos(R x) { return NS_GISAXS_MATH(cos)(x); }
template <class R> NS_GISAXS_HD R rexp(R x) { return NS_GISAXS_MATH(exp)(x); }
template <class R> NS_GISAXS_HD R rsqrt(R x) { return NS_GISAXS_MATH(sqrt)(x); }
template <class R> NS_GISAXS_HD R rabs(R x) { return NS_GISAXS_MATH(fabs)(x); }
template <class R> NS_GISAXS_HD R rhypot(R x, R y) { return NS_GISAXS_MATH(hypot)(x, y); }
template <class R> NS_GISAXS_HD R rsinh(R x) { return NS_GISAXS_MATH(sinh)(x); }
template <class R> NS_GISAXS_HD R rcosh(R x) { return NS_GISAXS_MATH(cosh)(x); }
template <class R> NS_GISAXS_HD R rceil(R x) { return NS_GISAXS_MATH(ceil)(x); }
template <class R> NS_GISAXS_HD R rfma(R x, R y, R z) { return NS_GISAXS_MATH(fma)(x, y, z); }

// ---- complex numbers --------------------------------------------------------
template <class R>
struct Cx {
  R re = 0, im = 0;
  NS_GISAXS_HD Cx() = default;
  NS_GISAXS_HD Cx(R r) : re(r), im(0) {}
  NS_GISAXS_HD Cx(R r, R i) : re(r), im(i) {}
  template <class S>
  NS_GISAXS_HD explicit Cx(const Cx<S>& o) : re(R(o.re)), im(R(o.im)) {}
};
template <class R> NS_GISAXS_HD Cx<R> operator+(Cx<R> a, Cx<R> b) { return {a.re + b.re, a.im + b.im}; }
template <class R> NS_GISAXS_HD Cx<R> operator-(Cx<R> a, Cx<R> b) { return {a.re - b.re, a.im - b.im}; }
template <class R> NS_GISAXS_HD Cx<R> operator-(Cx<R> a) { return {-a.re, -a.im}; }
template <class R> NS_GISAXS_HD Cx<R> operator*(Cx<R> a, Cx<R> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class R> NS_GISAXS_HD Cx<R> operator*(R s, Cx<R> a) { return {s * a.re, s * a.im}; }
template <class R> NS_GISAXS_HD Cx<R> operator*(Cx<R> a, R s) { return {s * a.re, s * a.im}; }
template <class R> NS_GISAXS_HD Cx<R> operator+(Cx<R> a, R s) { return {a.re + s, a.im}; }
template <class R> NS_GISAXS_HD Cx<R> operator+(R s, Cx<R> a) { return {a.re + s, a.im}; }
template <class R> NS_GISAXS_HD Cx<R> operator-(R s, Cx<R> a) { return {s - a.re, -a.im}; }
template <class R> NS_GISAXS_HD Cx<R> operator-(Cx<R> a, R s) { return {a.re - s, a.im}; }
template <class R> NS_GISAXS_HD Cx<R>& operator+=(Cx<R>& a, Cx<R> b) { return a = a + b; }
template <class R> NS_GISAXS_HD R norm(Cx<R> a) { return a.re * a.re + a.im * a.im; }
template <class R> NS_GISAXS_HD R abs(Cx<R> a) { return rhypot(a.re, a.im); }
template <class R> NS_GISAXS_HD Cx<R> conj(Cx<R> a) { return {a.re, -a.im}; }
// Smith's algorithm: no overflow of |b|² for large b.
template <class R> NS_GISAXS_HD Cx<R> operator/(Cx<R> a, Cx<R> b) {
  if (rabs(b.re) >= rabs(b.im)) {
    const R r = b.im / b.re, d = b.re + b.im * r;
    return {(a.re + a.im * r) / d, (a.im - a.re * r) / d};
  }
  const R r = b.re / b.im, d = b.im + b.re * r;
  return {(a.re * r + a.im) / d, (a.im * r - a.re) / d};
}
template <class R> NS_GISAXS_HD Cx<R> operator/(Cx<R> a, R s) { return {a.re / s, a.im / s}; }
// exp(i z)
template <class R> NS_GISAXS_HD Cx<R> exp_i(Cx<R> z) {
  const R m = rexp(-z.im);
  return {m * rcos(z.re), m * rsin(z.re)};
}
template <class R> NS_GISAXS_HD Cx<R> cexp(Cx<R> z) {
  const R m = rexp(z.re);
  return {m * rcos(z.im), m * rsin(z.im)};
}
template <class R> NS_GISAXS_HD Cx<R> csin(Cx<R> z) {
  return {rsin(z.re) * rcosh(z.im), rcos(z.re) * rsinh(z.im)};
}
template <class R> NS_GISAXS_HD Cx<R> ccos(Cx<R> z) {
  return {rcos(z.re) * rcosh(z.im), -rsin(z.re) * rsinh(z.im)};
}
// Principal square root (Re ≥ 0), as std::sqrt.
template <class R> NS_GISAXS_HD Cx<R> csqrt(Cx<R> z) {
  if (z.re == 0 && z.im == 0) return {R(0), z.im};
  const R t = rsqrt((rabs(z.re) + abs(z)) / R(2));
  if (z.re >= 0) return {t, z.im / (R(2) * t)};
  return {rabs(z.im) / (R(2) * t), z.im < 0 ? -t : t};
}

// ---- special functions (special_functions.hpp) -----------------------------

// sinc(z) exp(i z) = (exp(2iz) − 1)/(2iz); Taylor series below |2z| = 1/2.
template <class R> NS_GISAXS_HD Cx<R> sinc_exp_i(Cx<R> z) {
  const Cx<R> w(-R(2) * z.im, R(2) * z.re);
  if (abs(w) < R(0.5)) {
    Cx<R> sum(R(1));
    for (int n = 17; n >= 1; --n) sum = R(1) + w * sum / R(n + 1);
    return sum;
  }
  return (cexp(w) - R(1)) / w;
}

// sin(x)/x for real x (the box's in-plane factors).
template <class R> NS_GISAXS_HD R sinc(R x) {
  if (rabs(x) < R(1e-4)) {
    const R x2 = x * x;
    return R(1) - x2 / R(6) + x2 * x2 / R(120);
  }
  return rsin(x) / x;
}

// 3 (sin x − x cos x)/x³, the series below |x| = 1.
template <class R> NS_GISAXS_HD Cx<R> sphere_amplitude(Cx<R> x) {
  if (abs(x) < R(1)) {
    const Cx<R> x2 = x * x;
    Cx<R> power(R(1)), sum(R(0));
    R factorial = 6;
    for (int k = 1; k <= 12; ++k) {
      const R sign = (k % 2) ? R(1) : R(-1);
      sum += (sign * R(2 * k) / factorial) * power;
      power = power * x2;
      factorial *= R((2 * k + 2) * (2 * k + 3));
    }
    return R(3) * sum;
  }
  return R(3) * (csin(x) - x * ccos(x)) / (x * x * x);
}

// J1(x)/x for real x ≥ 0, as bessel_j1c(double): power series below 1, the
// Chebyshev interpolants of special_functions.cpp on [1, 25] (the table is
// j1c_chebyshev_table(), kJ1cIntervals × (kJ1cDegree + 1) coefficients),
// Hankel's expansion above.
inline constexpr int kJ1cIntervals = 25;
inline constexpr int kJ1cDegree = 15;
template <class R> NS_GISAXS_HD R bessel_j1c(R x, const double* chebyshev) {
  const R ax = rabs(x);
  if (ax < R(1)) {
    // J1(x)/x = (1/2) Σ_k (−x²/4)^k / (k! (k+1)!)
    const R w = R(-0.25) * ax * ax;
    R term = R(0.5), sum = R(0.5);
    for (int k = 1; k < 60; ++k) {
      term *= w / R(k * (k + 1));
      sum += term;
      if (rabs(term) < R(1e-17) * rabs(sum)) break;
    }
    return sum;
  }
  if (ax > R(kJ1cIntervals)) {
    // DLMF 10.17.3, ν = 1: P (even k) and Q (odd k), alternating in pairs.
    constexpr R mu = 4;
    R p = 0, q = 0, term = 1;
    for (int k = 0; k < 80; ++k) {
      if (k > 0) term *= (mu - R((2 * k - 1) * (2 * k - 1))) / (R(8) * R(k)) / ax;
      const R sign = ((k / 2) % 2 == 0) ? R(1) : R(-1);
      if (k % 2 == 0)
        p += sign * term;
      else
        q += sign * term;
      if (k > 2 && rabs(term) < R(1e-17)) break;
    }
    const R s = rsin(ax), c = rcos(ax);
    const R j1 = rsqrt(R(1) / (R(kPi) * ax)) * (p * (s - c) + q * (s + c));
    return j1 / ax;
  }
  int m = static_cast<int>(ax);
  if (m > kJ1cIntervals - 1) m = kJ1cIntervals - 1;
  const double* c = chebyshev + m * (kJ1cDegree + 1);
  const R t = R(2) * (ax - R(m)) - R(1), t2 = R(2) * t;
  R b1 = 0, b2 = 0;
  for (int k = kJ1cDegree; k > 0; --k) {
    const R b0 = R(c[k]) + t2 * b1 - b2;
    b2 = b1;
    b1 = b0;
  }
  return R(c[0]) + t * b1 - b2;
}

// ---- the analytic shapes ----------------------------------------------------

enum class Shape : std::int32_t { sphere, spheroid, cylinder, box, truncated_sphere, cone };

// A shape with its parameters fixed (lengths nm): p[] in the catalogue's
// order; for the solids of revolution z_top, r_max and the section radius
// r(z): truncated sphere r² = R² − (z − c)², c = H − R, with
// revolution = {R, c}; cone r = R − z cot α with revolution = {R, cot α}.
struct ShapeParams {
  Shape shape = Shape::sphere;
  double p[3] = {0, 0, 0};
  double volume = 0;  // nm³, F(0)
  double z_top = 0, r_max = 0;
  double revolution[2] = {0, 0};
};

// Gauss–Legendre rules of orders kGaussOrders packed one after the other
// (nodes, then weights, each kGaussTotal long), as gauss_legendre() picks them.
// (A function, not an array: namespace-scope arrays are not visible in device code.)
inline constexpr int kGaussOrderCount = 8;
NS_GISAXS_HD constexpr int gauss_order(int i) {
  return i < 4 ? 8 * (i + 1) : i == 4 ? 48 : i == 5 ? 64 : i == 6 ? 96 : 128;
}
inline constexpr int kGaussTotal = 8 + 16 + 24 + 32 + 48 + 64 + 96 + 128;
// Nodes beyond the bandwidth and the largest rule per panel (solid_of_revolution.cpp).
inline constexpr double kRevolutionExtraNodes = 16;
inline constexpr int kRevolutionMaxNodes = 128;

// Tables the form factors read: J1(x)/x Chebyshev coefficients and the
// Gauss–Legendre rules (device or host pointers).
struct MathTables {
  const double* chebyshev = nullptr;
  const double* gauss = nullptr;
};

// F at the `terms` q vectors (q_x, q_y, q_z[t]) of one pixel, which share
// (q_x, q_y) as the DWBA's four terms do; out[t] in nm³.
template <class R>
NS_GISAXS_HD void form_factors(const ShapeParams& s, R qx, R qy, const Cx<R>* qz, int terms, Cx<R>* out,
                               const MathTables& tables) {
  const R q_par2 = qx * qx + qy * qy;
  switch (s.shape) {
    case Shape::sphere: {
      const R radius = R(s.p[0]), v = R(s.volume);
      for (int t = 0; t < terms; ++t) {
        const Cx<R> qq = q_par2 + qz[t] * qz[t];
        out[t] = v * sphere_amplitude(radius * csqrt(qq)) * exp_i(qz[t] * radius);
      }
      return;
    }
    case Shape::spheroid: {
      const R radius = R(s.p[0]), c = R(s.p[1]) / R(2), v = R(s.volume);
      for (int t = 0; t < terms; ++t) {
        const Cx<R> x2 = radius * radius * q_par2 + (c * c) * (qz[t] * qz[t]);
        out[t] = v * sphere_amplitude(csqrt(x2)) * exp_i(qz[t] * c);
      }
      return;
    }
    case Shape::cylinder: {
      const R radius = R(s.p[0]), height = R(s.p[1]);
      const R radial = R(2 * kPi) * radius * radius * height * bessel_j1c(radius * rsqrt(q_par2), tables.chebyshev);
      for (int t = 0; t < terms; ++t) out[t] = radial * sinc_exp_i(R(0.5) * height * qz[t]);
      return;
    }
    case Shape::box: {
      const R height = R(s.p[2]);
      const R in_plane = R(s.volume) * sinc(R(0.5) * qx * R(s.p[0])) * sinc(R(0.5) * qy * R(s.p[1]));
      for (int t = 0; t < terms; ++t) out[t] = in_plane * sinc_exp_i(R(0.5) * height * qz[t]);
      return;
    }
    case Shape::truncated_sphere:
    case Shape::cone: {
      // solid_of_revolution.cpp: the rule from the bandwidth over all terms.
      const R q_par = rsqrt(q_par2);
      const R half_height = R(0.5) * R(s.z_top);
      R qz_max = 0;
      for (int t = 0; t < terms; ++t) qz_max = abs(qz[t]) > qz_max ? abs(qz[t]) : qz_max;
      const R bandwidth = qz_max * half_height + q_par * R(s.r_max);
      const R needed = bandwidth + R(kRevolutionExtraNodes);
      int panels = static_cast<int>(rceil(needed / R(kRevolutionMaxNodes - kRevolutionExtraNodes)));
      if (panels < 1) panels = 1;
      const int order = static_cast<int>(rceil(bandwidth / R(panels) + R(kRevolutionExtraNodes)));
      int rule = 0, offset = 0;
      while (rule + 1 < kGaussOrderCount && gauss_order(rule) < order) offset += gauss_order(rule++);
      const int n = gauss_order(rule);
      const double* nodes = tables.gauss + offset;
      const double* weights = tables.gauss + kGaussTotal + offset;
      const R panel_half = half_height / R(panels);
      const double panel_half_exact = 0.5 * s.z_top / panels;
      for (int t = 0; t < terms; ++t) out[t] = Cx<R>(R(0));
      for (int p = 0; p < panels; ++p) {
        const double centre = (2 * p + 1) * panel_half_exact;
        for (int k = 0; k < n; ++k) {
          // The node as z + z_low (float-float for Real = float): the
          // rounding of z alone, 2⁻²⁴ z, would move each node's phase q_z z
          // by its own 2⁻²⁴ |q_z z|, an error of the sum relative to V that
          // the integral's cancellation (|F| ≪ V at large q_z) does not
          // shrink.
          const double z_exact = centre + panel_half_exact * nodes[k];
          const R z = R(z_exact), z_low = R(z_exact - double(z));
          R r2;
          if (s.shape == Shape::cone) {
            const R r = R(s.revolution[0]) - z * R(s.revolution[1]);
            r2 = r * r;
          } else {
            const R dz = z - R(s.revolution[1]);
            r2 = R(s.revolution[0]) * R(s.revolution[0]) - dz * dz;
          }
          if (r2 < R(0)) r2 = R(0);
          const R part = R(2 * kPi) * r2 * panel_half * R(weights[k]) *
                         bessel_j1c(q_par * rsqrt(r2), tables.chebyshev);
          for (int t = 0; t < terms; ++t) {
            // e^{i q_z z}: the phase q_z z as phase + phase_low exactly (an
            // FMA gives the product's rounding), then cos and sin of
            // phase + phase_low to first order in phase_low (≤ 2⁻²⁴ |q_z z|).
            const R q = qz[t].re;
            const R phase = q * z;
            const R phase_low = rfma(q, z, -phase) + q * z_low;
            const R c = rcos(phase), sn = rsin(phase), m = rexp(-qz[t].im * z);
            out[t] += part * Cx<R>(m * (c - phase_low * sn), m * (sn + phase_low * c));
          }
        }
      }
      return;
    }
  }
}

}  // namespace nanoscatter::gisaxs::analytic
