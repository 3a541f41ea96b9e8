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

// n h(u) + t·(Q m1 h'(u) + ½ Q² m2 h''(u)) with h = sinc, u = Q r ≥ 0,
// s = sin u, c = cos u; t = 1 applies the correction, t = 0 gives the
// bin-centre rule. Both forms (series, closed) are computed and one is picked.
NS_SINC_HD double sinc_taylor_term(double q, double u, double s, double c, double n, double m1, double m2,
                                   double t) {
  const SeriesMask series = series_mask(u);
  const double us = pick(series, 1.0, u);  // keeps the unused closed form finite
  const double inv = 1.0 / us;
  const double u2 = u * u;
  const double h = pick(series, 1 - u2 / 6 + u2 * u2 / 120, s * inv);
  const double d1 = pick(series, u * (-1.0 / 3 + u2 / 30 - u2 * u2 / 840), (us * c - s) * inv * inv);
  const double d2 = pick(series, -1.0 / 3 + u2 / 10 - u2 * u2 / 168, ((2 - u2) * s - 2 * us * c) * inv * inv * inv);
  return n * h + t * q * (m1 * d1 + 0.5 * q * m2 * d2);
}

}  // namespace nanoscatter::debye
