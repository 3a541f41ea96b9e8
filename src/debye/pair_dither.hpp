// Dithered rounding for the float32 Debye pair sums (CPU and CUDA).
//
// Why: in a crystal, thousands of pairs share one distance exactly, so every
// float32 rounding made on the way from r to a pair's terms (1/r, the
// recurrence's start values and step, each recurrence step) is the same for
// all of them. Those errors then add up coherently, shell by shell, instead
// of averaging out over pairs: measured on an fcc Au sphere of 1,985 atoms,
// Q = 0.5 + 0.01k, the float32 pattern was off by 2.0e-4 of I at the
// low-angle fringe minima; the same particle with every atom displaced by
// 1e-4 Å (no physical difference) gave 1.3e-6. Perturbing each pair's
// float32 inputs by a pseudo-random relative amount of a few ulps, drawn
// from a hash of the pair's atom indices, turns these shell-coherent
// errors into independent ones, which average out as √(pairs).
//
// The perturbation is a multiplicative (1 + η) with η uniform in
// (−kDitherWidth, kDitherWidth) on quantities the pair's terms depend on
// linearly (the amplitude w_i w_j/r and the recurrence's start values), so
// it adds no bias at any order: E[η] = 0. On the recurrence's step it
// changes the frequency by ~η·θ/2 and the phase after k steps by k times
// that, a bias of second order, (kηθ)²/6 ≲ 1e-11. The extra noise per term
// is a few float32 ulps, like the rounding it decorrelates.
#pragma once
#include <cstdint>
#include <cstring>

#ifdef __CUDACC__
#define NS_DITHER_HD __host__ __device__ __forceinline__
#else
#define NS_DITHER_HD inline
#endif

namespace nanoscatter::debye::dither {

// Half-width of η on the recurrence's step d: 2^-22, i.e. ±2–4 float32 ulps of the perturbed value.
// Narrower (2^-24, below one ulp) leaves most pairs of a shell rounding
// alike; measured widths in tests/physics/test_debye_float32.cpp.
inline constexpr float kDitherWidth = 2.384185791015625e-7f;  // 2^-22

// Half-width of the scale of a pair's recurrence sequence, (1 + η) on its
// start values and 1/(1 + η) on its amplitude: wide, so that the rounding of
// t_k + D_k (a small step added to a large value) lands at unrelated points
// of the float grid for pairs of one shell.
inline constexpr float kSequenceScaleWidth = 0.0625f;  // 2^-8

// murmur3's 32-bit finaliser: every input bit affects every output bit.
NS_DITHER_HD std::uint32_t fmix32(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

// A well-mixed 32-bit hash of the pair (i, j).
NS_DITHER_HD std::uint32_t pair_hash(std::uint32_t i, std::uint32_t j) {
  return fmix32(i * 0x9E3779B1u ^ (j + 0x7F4A7C15u) * 0x85EBCA77u);
}

// The next hash of a chain: each dithered quantity of a pair takes its own.
NS_DITHER_HD std::uint32_t next_hash(std::uint32_t h) { return fmix32(h + 0x6A09E667u); }

// 1 + η with η uniform in (−width, width) on 2^24 levels. Many levels
// matter: pairs of one shell that draw the same level round alike, so with
// 256 levels a shell of 10⁴ pairs still rounded coherently in groups of ~40.
NS_DITHER_HD float factor(std::uint32_t hash, float width) {
  const float u = float(hash >> 8) * (1.f / 16777216.f) - 0.5f;  // [−1/2, 1/2)
  return 1.f + u * (2.f * width);
}

// x rounded to one of its two neighbouring floats at random, the upper with
// probability (x − lower)/(upper − lower): E[result] = x exactly. Used for
// the recurrence's step (d on the CPU, λ on the GPU), whose rounding error
// shifts the frequency: a plain or uniformly dithered rounding leaves the
// mean shift over a shell's pairs nonzero (a dither of a width that is not
// a whole number of ulps has a bias of its own), and that mean drift adds
// up over the shell as a coherent ramp along Q.
NS_DITHER_HD float stochastic_round(double x, std::uint32_t hash) {
  const float f = static_cast<float>(x);
  const double df = f;
  if (df == x) return f;
  // The float on the other side of x: one step up or down in magnitude
  // (x and f have the same sign, and f ≠ 0 unless |x| < the smallest float).
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  const bool away = (x < 0) == (x < df);  // |x| > |f|: the neighbour is one step away from zero
  bits = away ? bits + 1u : bits - 1u;
  float g;
  std::memcpy(&g, &bits, sizeof g);
  const double p = (x - df) / (double(g) - df);  // in (0, 1)
  const double u = double(hash >> 8) * (1.0 / 16777216.0);
  return u < p ? g : f;
}

}  // namespace nanoscatter::debye::dither
