// One histogram bin's Taylor-corrected sinc sum at one Q (histogram_intensity.hpp
// has the expansion and its error bound), written once for the CPU loop
// (vectorised) and the CUDA kernel: no branches, so that GCC vectorises the
// loop that calls it under `#pragma omp simd`; the caller supplies sin u
// and cos u (the CPU's trig::sincos, CUDA's sincos).
#pragma once
#ifndef __CUDA_ARCH__
#include <bit>
#endif
#include <cstdint>

#ifdef __CUDACC__
#define NS_SINC_HD __host__ __device__ __forceinline__
#else
#define NS_SINC_HD inline
#endif

namespace nanoscatter::debye {

// Below u = Qr = 1e-2 the closed forms of h' and h'' lose digits to
// cancellation (relative error ~ε/u²); the series used there instead are
// truncated after u⁴, an error ≤ u⁶/6480 < 2e-16.
constexpr double kSincSeriesBelow = 1e-2;

// Picks a where u is below kSincSeriesBelow, else b. On the host with
// integer masks: GCC does not vectorise a floating-point compare-and-select
// under the default -ftrapping-math (the compare may raise "invalid"), but
// it does integer arithmetic; u ≥ 0, so bit patterns order like the values.
#ifdef __CUDA_ARCH__
using SeriesMask = bool;
NS_SINC_HD SeriesMask series_mask(double u) { return u < kSincSeriesBelow; }
NS_SINC_HD double pick(SeriesMask series, double a, double b) { return series ? a : b; }
#else
using SeriesMask = std::uint64_t;
inline SeriesMask series_mask(double u) {
  // The sign bit of bits(u) − bits(1e-2), spread: subtraction and a logical
  // shift, which SSE2 has for 64-bit lanes (a 64-bit compare it has not).
  const std::uint64_t below = (std::bit_cast<std::uint64_t>(u) - std::bit_cast<std::uint64_t>(kSincSeriesBelow)) >> 63;
  return std::uint64_t(0) - below;
}
inline double pick(SeriesMask mask, double a, double b) {
  return std::bit_cast<double>((std::bit_cast<std::uint64_t>(a) & mask) | (std::bit_cast<std::uint64_t>(b) & ~mask));
}
#endif

// h = sinc u and its first two derivatives.
struct SincDerivatives {
  double h, d1, d2;
};

// The series about u = 0 (for u below kSincSeriesBelow). Reciprocals of the
// constants, not divisions: a division costs ~10 instructions on the GPU
// and is not vectorised as cheaply on the CPU (1 ulp of u²/6 ≤ 1e-4/6 is far
// below the series' own truncation).
NS_SINC_HD SincDerivatives sinc_series(double u, double u2) {
  return {1 - u2 * (1.0 / 6) + u2 * u2 * (1.0 / 120), u * (-1.0 / 3 + u2 * (1.0 / 30) - u2 * u2 * (1.0 / 840)),
          -1.0 / 3 + u2 * (1.0 / 10) - u2 * u2 * (1.0 / 168)};
}

// The closed forms, given s = sin u, c = cos u and inv = 1/u.
NS_SINC_HD SincDerivatives sinc_closed(double u, double u2, double s, double c, double inv) {
  return {s * inv, (u * c - s) * inv * inv, ((2 - u2) * s - 2 * u * c) * inv * inv * inv};
}

// n h(u) + t·(Q m1 h'(u) + ½ Q² m2 h''(u)) with h = sinc, u = Q r ≥ 0,
// s = sin u, c = cos u; t = 1 applies the correction, t = 0 gives the
// bin-centre rule. On the host both forms (series, closed) are computed and
// one is picked (the loop stays vectorised); on the GPU a branch, which is
// uniform in practice (u < 1e-2 means Q r < 1e-2: Q = 0 alone, for any pair
// of distinct atoms) and spares the series and the select.
NS_SINC_HD double sinc_taylor_term(double q, double u, double s, double c, double n, double m1, double m2,
                                   double t) {
  const double u2 = u * u;
#ifdef __CUDA_ARCH__
  const SincDerivatives d = u < kSincSeriesBelow ? sinc_series(u, u2) : sinc_closed(u, u2, s, c, 1.0 / u);
  const double h = d.h, d1 = d.d1, d2 = d.d2;
#else
  const SeriesMask series = series_mask(u);
  const double us = pick(series, 1.0, u);  // keeps the unused closed form finite
  const SincDerivatives a = sinc_series(u, u2), b = sinc_closed(us, us * us, s, c, 1.0 / us);
  const double h = pick(series, a.h, b.h), d1 = pick(series, a.d1, b.d1), d2 = pick(series, a.d2, b.d2);
#endif
  return n * h + t * q * (m1 * d1 + 0.5 * q * m2 * d2);
}

}  // namespace nanoscatter::debye
