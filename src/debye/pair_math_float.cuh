// The per-pair float32 arithmetic of the CUDA exact Debye kernel, written
// once for device and host: the kernel (pair_sums_cuda.cu) runs it, and a
// CPU test (tests/unit/test_debye_gpu_math.cpp) runs the same code on the
// host against the float64 reference, so the precision design is checked
// in CI on machines without a GPU. Host results differ from the device only
// in FMA contraction and in rsqrt's last bits (corrected by a Newton step).
//
// Why every step carries a low part: float32 errors that are deterministic
// functions of r (rounding of r, of 1/r, of the phase step Δq·r) are alike
// for every pair at one distance; a crystal has 10⁴–10⁵ pairs per shell and
// a particle's low-Q fringes are a cancellation of N²/2 positive terms, so
// such errors add up coherently instead of averaging out (measured on an
// H200: 5–7e-5 relative error in I from each of them, alone).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "debye/pair_dither.hpp"

#ifdef __CUDACC__
#define NS_HD __host__ __device__ __forceinline__
#else
#define NS_HD inline
#endif

namespace nanoscatter::debye::fmath {

NS_HD float rsqrt(float x) {
#ifdef __CUDA_ARCH__
  return rsqrtf(x);
#else
  return 1.f / std::sqrt(x);
#endif
}

NS_HD float fma32(float a, float b, float c) {
#ifdef __CUDA_ARCH__
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

NS_HD int float_bits(float x) {
#ifdef __CUDA_ARCH__
  return __float_as_int(x);
#else
  int i;
  std::memcpy(&i, &x, sizeof i);
  return i;
#endif
}

// A double as an unevaluated float sum hi + lo (|lo| ≤ ulp(hi)/2).
struct FloatPair {
  float hi = 0, lo = 0;
};
NS_HD FloatPair split(double v) {
  const float hi = static_cast<float>(v);
  return {hi, static_cast<float>(v - double(hi))};
}

// Accurate float sin/cos of x_hi + x_lo (x_lo a small correction, e.g. the
// exact FMA residual of the product that gave x_hi); |x| < 2²² π/2.
// Cody–Waite reduction by π/2 (two-term constant; the quadrant from the
// 1.5·2²³ rounding trick), the reduced argument kept as a float pair,
// then Taylor polynomials on [−π/4, π/4] to
// degree 13 (sin) and 12 (cos), truncation < 3e-13, with the leading
// inexact coefficients (1/6, 1/24) as float pairs.
// Why not a float minimax polynomial (Cephes, ≤ 1 ulp): its error is a
// SMOOTH function of the reduced argument, a small distortion of the sine
// at harmonics of the phase, and summed over 10⁸ pairs it aliases Bragg
// intensity into a particle's weak low-Q fringes: 4.1e-5 relative error
// in I at I/Imax ~ 1e-3 for a 26k-atom CoO sphere (measured on an H200
// and reproduced by tests/unit/test_debye_gpu_math.cpp), 2e-7 with
// correctly rounded values. Rounding errors, in contrast, are no smooth
// function of the argument and average out; what is left here is rounding.
NS_HD void sincos_accurate(float x_hi, float x_lo, float& s, float& c) {
  constexpr float kTwoOverPi = 0.636619772367581343f;
  constexpr float kHalfPiHi = 1.57079637050628662f;
  constexpr float kHalfPiLo = -4.37113900018624284e-8f;
  constexpr float kRoundMagic = 12582912.f;  // 1.5·2²³: x + magic − magic rounds to an integer
  const float shifted = fma32(x_hi, kTwoOverPi, kRoundMagic);
  const int quadrant = float_bits(shifted) & 3;
  const float n = shifted - kRoundMagic;
  // y + y_lo = x − nπ/2: the first FMA is exact (|result| ≤ π/4 needs no
  // more bits than n·hi and x_hi share), the small terms are summed apart
  // and the rounding of y is kept in y_lo and applied to first order below
  // (the float-rounded y alone leaves a smooth error 4× the rounding noise).
  const float y_hi = fma32(-n, kHalfPiHi, x_hi);
  const float t = fma32(-n, kHalfPiLo, x_lo);
  const float y = y_hi + t;
  const float y_lo = (y_hi - y) + t;
  const float y2 = y * y;
  // sin y = y + y³·(c3 + y² P(y²)), c3 = −1/6 as hi + lo.
  float ps = fma32(y2, 1.6059044372e-10f, -2.5052107944e-8f);
  ps = fma32(ps, y2, 2.7557318845e-6f);
  ps = fma32(ps, y2, -1.9841270114e-4f);
  ps = fma32(ps, y2, 8.3333337680e-3f);
  ps = fma32(ps, y2, -0.16666667163f);
  const float y3 = y2 * y;
  const float sin_v = y + fma32(y3, ps, y3 * 4.9670538793e-9f);
  // cos y = (1 − y²/2) + y⁴·(c4 + y² Q(y²)), c4 = 1/24 as hi + lo.
  float pc = fma32(y2, 2.0876755880e-9f, -2.7557319981e-7f);
  pc = fma32(pc, y2, 2.4801587642e-5f);
  pc = fma32(pc, y2, -1.3888889225e-3f);
  pc = fma32(pc, y2, 4.1666667908e-2f);
  const float y4 = y2 * y2;
  const float cos_v = fma32(-0.5f * y, y, 1.f) + fma32(y4, pc, y4 * -1.2417634698e-9f);
  // sin(y + y_lo) and cos(y + y_lo) to first order in y_lo.
  const float sin_f = fma32(cos_v, y_lo, sin_v), cos_f = fma32(-sin_v, y_lo, cos_v);
  // sin(y + nπ/2), cos(y + nπ/2) by quadrant.
  const bool swap = quadrant & 1;
  const float sv = swap ? cos_f : sin_f, cv = swap ? sin_f : cos_f;
  s = (quadrant & 2) ? -sv : sv;
  c = ((quadrant + 1) & 2) ? -cv : cv;
}

// sin and cos of the product a·r, a = a.hi + a.lo and r = r_hi + r_lo, with
// the product's rounding residual carried into the reduction.
NS_HD void sincos_of_product(FloatPair a, float r_hi, float r_lo, float& s, float& c) {
  const float p = a.hi * r_hi;
  const float e = fma32(a.hi, r_hi, -p) + fma32(a.lo, r_hi, a.hi * r_lo);
  sincos_accurate(p, e, s, c);
}

// r = |d| as r_hi + r_lo (≈1e-14 relative) and 1/r (≈1 ulp, unbiased) from
// a float64 squared distance d2 > 0. One conversion each way and float
// Newton steps: float64 conversions and arithmetic cost 8× and 2× a float
// operation on the GPU, and they are per pair.
struct PairDistance {
  float r_hi, r_lo, inv_r;
};
NS_HD PairDistance pair_distance(double d2) {
  const FloatPair d = split(d2);
  const float y = rsqrt(d.hi);
  const float r = d.hi * y;
  // d2 − r² exactly enough (the FMA's result is ~1e-7·d2) plus d2's low part.
  const float e = fma32(-r, r, d.hi) + d.lo;
  const float r_lo = 0.5f * y * e;
  // 1/r = y·(1 + (1 − r·y)) to first order, r the full r_hi + r_lo.
  const float t = fma32(-r, y, 1.f) - r_lo * y;
  return {r, r_lo, fma32(y, t, y)};
}

// A pair's distance, amplitude and dither (pair_dither.hpp says why the
// float32 inputs of a pair are dithered). The recurrence runs on a sequence
// scaled by `sigma` (1 ± 2⁻⁴, pseudo-random per pair), and each term is
// multiplied by amp = w_i w_j/(r·sigma), rounded once from float64, so that
// pairs of one crystal shell round at unrelated points of the float grid.
// Coincident atoms (d2 = 0, shared sites) get amp 0 here and their limit
// term (sin(qr)/r → q) is added by the caller from coincident_pair_weight.
struct PairTerm {
  PairDistance d;
  float amp;            // w_i w_j / (r σ), or 0
  float sigma;          // the sequence's scale σ
  float lambda_factor;      // 1 + η on the recurrence's step λ (recurrence_start)
  std::uint32_t step_hash;  // draws the stochastic rounding of λ (chunk_starts)
};

NS_HD double inverse_sqrt(double x) {
#ifdef __CUDA_ARCH__
  return ::rsqrt(x);
#else
  return 1.0 / std::sqrt(x);
#endif
}

NS_HD PairTerm pair_term(double d2, float wij, std::uint32_t hash) {
  const bool apart = d2 > 0.0;
  PairTerm p;
  p.d = pair_distance(apart ? d2 : 1.0);
  p.sigma = dither::factor(hash, dither::kSequenceScaleWidth);
  p.step_hash = dither::next_hash(hash);
  p.lambda_factor = dither::factor(p.step_hash, dither::kDitherWidth);
  p.amp = apart ? static_cast<float>(double(wij) * inverse_sqrt(d2) / double(p.sigma)) : 0.f;
  return p;
}

// Start of Reinsch's recurrence for one pair over a chunk of K uniform Q
// values q_k = q_first + kΔq: the chunk's centre phase is taken half a step
// past its first point, x_mid = (q_first + Δq/2)·r, and h = (Δq/2)·r.
//   t_0 = sin(x_mid − h) = sin(q_first r),  u_1 = t_1 − t_0,
//   λ = −4 sin² h (θ = 2h = Δq·r);
// when cos θ < 0 (mirror) the recurrence runs on t_k = (−1)^k s_k with
// θ → π − θ, λ = −4 cos² h, and the sign of odd k goes into the amplitude.
// t and u are scaled by σ, λ by its dither factor; the terms are amp·t_k.
struct RecurrenceStart {
  float t, u, lambda, amp;
  bool mirror;
};

// The start from sin/cos of the chunk's centre phase (s_mid, c_mid) and of
// the half step h (s_h, c_h).
NS_HD RecurrenceStart recurrence_start_from(float s_mid, float c_mid, float s_h, float c_h, const PairTerm& p) {
  RecurrenceStart st;
  st.mirror = c_h * c_h < s_h * s_h;  // cos θ < 0
  st.t = (s_mid * c_h - c_mid * s_h) * p.sigma;
  st.u = (st.mirror ? -2.f * s_mid * c_h : 2.f * c_mid * s_h) * p.sigma;
  st.lambda = (st.mirror ? -4.f * c_h * c_h : -4.f * s_h * s_h) * p.lambda_factor;
  st.amp = p.amp;
  return st;
}

NS_HD RecurrenceStart recurrence_start(FloatPair mid, FloatPair half_dq, const PairTerm& p) {
  float s_mid, c_mid, s_h, c_h;
  sincos_of_product(mid, p.d.r_hi, p.d.r_lo, s_mid, c_mid);
  sincos_of_product(half_dq, p.d.r_hi, p.d.r_lo, s_h, c_h);
  return recurrence_start_from(s_mid, c_mid, s_h, c_h, p);
}

// λ and the mirror flag in one float for caches: λ ≤ 0, so the mirror case
// is stored as −λ ≥ 0 (λ = 0 only for zero-amplitude padding).
NS_HD float pack_lambda(float lambda, bool mirror) { return mirror ? -lambda : lambda; }
NS_HD float unpack_lambda(float packed) { return packed > 0.f ? -packed : packed; }
NS_HD bool unpack_mirror(float packed) { return packed > 0.f; }

// Recurrence starts of one pair for C consecutive chunks of K Q values
// (centres mid0 + c·KΔq): three accurate sincos per pair (the first
// centre, the half step, the chunk step KΔq·r), then the centres follow by
// rotation through the chunk step, four float operations per chunk instead
// of an accurate sincos (~45). The rotations' rounding errors (≲ C ulp of
// the phase after C chunks) are rounding, not a smooth function of the
// phase, so they average out over pairs (pair_math_float.cuh header; the
// host test DebyeGpuMath.SlabKernel* measures the whole path).
// t[c], u[c] for each chunk; λ and the mirror sign (±1) are the pair's.
template <int K, int C>
NS_HD void chunk_starts(FloatPair mid0, FloatPair half_dq, FloatPair chunk_dq, const PairTerm& p,
                        float (&t)[C], float (&u)[C], float& lambda, bool& mirror) {
  // The step λ from float64 (h = Δq r/2; a float sin h would carry a
  // rounding shared by a whole shell), rounded once with its dither; the
  // step θ_f = θ + δθ that rounded λ really takes, to first order
  // (dλ/dθ = ∓2 sin θ); and the start phase shifted by ε = −δθ·(K − 1)/2 so
  // that the drift (k − (K − 1)/2)·δθ is zero mid-chunk and at most half
  // the chunk's length times δθ at its ends.
  const double r = double(p.d.r_hi) + double(p.d.r_lo);
  const double h = (double(half_dq.hi) + double(half_dq.lo)) * r;
#ifdef __CUDA_ARCH__
  double sh_d, ch_d;
  ::sincos(h, &sh_d, &ch_d);
#else
  const double sh_d = std::sin(h), ch_d = std::cos(h);
#endif
  mirror = ch_d * ch_d < sh_d * sh_d;
  const double lambda_exact = mirror ? -4.0 * ch_d * ch_d : -4.0 * sh_d * sh_d;
  lambda = dither::stochastic_round(lambda_exact, p.step_hash);
  const double sin_theta = 2.0 * sh_d * ch_d;
  const double delta_lambda = double(lambda) - lambda_exact;
  const double delta_theta = sin_theta != 0.0 ? (mirror ? delta_lambda : -delta_lambda) / sin_theta * 0.5 : 0.0;
  const double shift = -0.5 * (K - 1) * delta_theta;
  // Chunk centres in float64 (phase, sincos, and the rotation through the
  // chunk step): a float rotation would repeat the float rounding of the
  // step's sin/cos, the same for a whole shell, C − 1 times.
  const double phase = (double(mid0.hi) + double(mid0.lo)) * r + shift;
  const double chunk_phase = (double(chunk_dq.hi) + double(chunk_dq.lo)) * r;
  double s_mid, c_mid, s_step, c_step;
#ifdef __CUDA_ARCH__
  ::sincos(phase, &s_mid, &c_mid);
  ::sincos(chunk_phase, &s_step, &c_step);
#else
  s_mid = std::sin(phase), c_mid = std::cos(phase);
  s_step = std::sin(chunk_phase), c_step = std::cos(chunk_phase);
#endif
  // t = sin(mid − h)·σ, u = 2 cos(mid)·sin h·σ, or in the mirror case
  // −2 sin(mid)·cos h·σ; each rounded once to float.
  const double sigma = p.sigma;
  const double a = ch_d * sigma, b = sh_d * sigma;
  const double u_factor = mirror ? -2.0 * a : 2.0 * b;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int c = 0; c < C; ++c) {
    t[c] = static_cast<float>(s_mid * a - c_mid * b);
    u[c] = static_cast<float>((mirror ? s_mid : c_mid) * u_factor);
    const double s_next = s_mid * c_step + c_mid * s_step;
    c_mid = c_mid * c_step - s_mid * s_step;
    s_mid = s_next;
  }
}

// The amplitude of a pair as a multiple of another pair's (the base), for
// recurrence_accumulate2: the float64 quotient rounded once (each factor
// is already dithered, so the rounding is too). 0 where the base is 0.
NS_HD float amplitude_ratio(float amp, float base) {
  return base != 0.f ? static_cast<float>(double(amp) / double(base)) : 0.f;
}

// Two pairs' starts, each with its own amplitude, in the form that
// recurrence_accumulate2 takes: a.amp the base amplitude, b.amp the ratio
// amp_b/amp_a. A zero base swaps the two first (a pair of amplitude 0 adds
// nothing as the ratio's pair either).
NS_HD void to_base_and_ratio(RecurrenceStart& a, RecurrenceStart& b) {
  if (a.amp == 0.f) {
    const RecurrenceStart t = a;
    a = b;
    b = t;
  }
  b.amp = amplitude_ratio(b.amp, a.amp);
}

// acc[k] += amp_a·(t_k^a + ρ t_k^b), the recurrence's K terms of two pairs
// (a.amp = amp_a, b.amp = ρ = amp_b/amp_a: to_base_and_ratio), interleaved
// in one straight-line body: each chain is a serial dependency (u then t,
// 4-cycle latencies), so one chain leaves most issue slots empty at the
// occupancy a 64-register accumulator allows. Per pair·Q: an FMA into u
// and an add into t, and per two pairs one FMA forming the pair sum and one
// FMA into acc, as many instructions as an FMA per pair into acc. Why the
// pair sum: the rounding of acc + x depends on x mod ulp(acc), and the terms
// of one crystal shell's pairs differ only by the dither, so added one by
// one they round alike across the shell and the float32 partials' errors
// add up coherently; the sum of two unrelated pairs' terms differs from
// shell-mate to shell-mate by far more than ulp(acc), and the partial is
// rounded half as often (the measurements, and the variants that did not
// help: bench/results/2026-11-26-debye-float32-gpu-accumulation.md).
template <int K>
NS_HD void recurrence_accumulate2(const RecurrenceStart& a, const RecurrenceStart& b, float (&acc)[K]) {
  // Odd k: the mirror sign of a goes into the base, b's relative to a's into the ratio.
  const float even_base = a.amp, odd_base = a.mirror ? -a.amp : a.amp;
  const float even_ratio = b.amp, odd_ratio = a.mirror != b.mirror ? -b.amp : b.amp;
  float ta = a.t, ua = a.u, tb = b.t, ub = b.u;
  acc[0] = fma32(even_base, fma32(even_ratio, tb, ta), acc[0]);
  ta += ua;
  tb += ub;
  acc[1] = fma32(odd_base, fma32(odd_ratio, tb, ta), acc[1]);
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int k = 2; k < K; ++k) {
    ua = fma32(a.lambda, ta, ua);
    ub = fma32(b.lambda, tb, ub);
    ta += ua;
    tb += ub;
    acc[k] = (k & 1) ? fma32(odd_base, fma32(odd_ratio, tb, ta), acc[k])
                     : fma32(even_base, fma32(even_ratio, tb, ta), acc[k]);
  }
}

}  // namespace nanoscatter::debye::fmath
