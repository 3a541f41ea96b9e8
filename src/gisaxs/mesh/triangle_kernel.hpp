// The triangle·q kernel of the fast mesh paths, one source for the CPU
// (mesh_cpu.cpp) and CUDA (mesh_cuda.cu) backends, in float or double.
//
// For real q ≠ 0 the divergence theorem with the field q exp(i q·r) gives
//   F(q) = (−i/|q|²) Σ_T (q·N_T) ∫_T exp(i q·r) d²r / (2 A_T),
// N_T = (b − a) × (c − a) = 2 A_T n̂_T, and by the Hermite–Genocchi formula
// the triangle integral is a divided difference of exp:
//   ∫_T exp(i q·r) d²r = 2 A_T · e[x_a, x_b, x_c],   x_j = i p_j,  p_j = q·v_j,
// so each triangle needs only the phases p_j and exp(i p_j) of its three
// corners. Those are computed once per vertex and q (one sincos) and shared
// by every triangle meeting at the vertex: the floor of the method is one
// sincos per vertex·q, about half a sincos per triangle·q on a closed mesh.
//
// Divided differences cancel when phases are close (q nearly ⟂ an edge, or
// small triangles). With the corners sorted so that p_0 ≤ p_1 ≤ p_2 and
// D = p_2 − p_0:
//   D < δ:  e = E_0 Σ_k i^k h_k(p_1 − p_0, p_2 − p_0)/(k+2)!,
//           h_k(y1, y2) = Σ_j y1^j y2^(k−j) (complete homogeneous polynomials),
//   D ≥ δ:  e = (e[x_1, x_2] − e[x_0, x_1])/(i D), dividing by the largest
//           difference, with the first differences e[x_a, x_b] either
//           (E_b − E_a)/(i d) for d = p_b − p_a ≥ δ or E_a Σ_k (i d)^k/(k+1)!.
// Rounding errors of E (ε, absolute) are thus amplified by at most 2/δ²
// (δ = 1/2: ×8), and the series, whose arguments stay below δ, are cut where
// their terms fall below ε: kSeriesTerms = 8 (float, tail < 1e-8) or 15
// (double, tail < 1e-17) terms. No absolute thresholds: every branch is exact
// to rounding for any triangle, any q direction.
//
// Phase accuracy: p_j is formed in float64 and reduced by 2π in float64
// before the (float or double) sincos, so exp(i p_j) is accurate to the
// working precision for any |q·v|. The phase differences y = q·(v_b − v_a)
// that weight the exp(i p_j) (series arguments, Lagrange weights, divisors)
// must be as accurate, to ~ε absolute where |y| ≲ 1 and ~ε |y| beyond:
// formed in float32 from float32 q and edges they carry ≈ 2^-24 |q| |e|
// absolute (the products cancel when q is nearly ⟂ the edge), which near a
// face normal of a large facet at large |q| is ≫ the ~1e-7 of exp(i p) and
// gave float32 errors of 1.5–2.7e-4 F(0) (boxes of 8–20 nm, |q| 30–85 nm⁻¹;
// docs/gisaxs.md). So the float32 kernels form y in float64 (then round it)
// wherever |q| · max(|b − a|, |c − a|) > kExactPhaseReach (exact_phase_
// differences below), and in float32 only below, where that error is
// ≤ 2 · 2^-24 · kExactPhaseReach, the size of the exp(i p) rounding.
// The sum over triangles still cancels as q → 0 (terms O(|q| A_T),
// result O(|q|² V)): callers route small |q|·R to float64 and q ≈ 0 to the
// power series of the reference (mesh_plan.cpp).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define NS_MESH_HD __host__ __device__ __forceinline__
#else
#define NS_MESH_HD [[gnu::always_inline]] inline
#endif

namespace nanoscatter::gisaxs::mesh {

// δ of the description above.
inline constexpr double kSeriesSwitch = 0.5;

// |q| · (longest edge from corner a) above which the float32 kernels form
// the phase differences y in float64 (see "Phase accuracy" above).
inline constexpr float kExactPhaseReach = 2.0f;

// y1 = q·(b − a), y2 = q·(c − a) from float64 q and corners, rounded to Real.
template <class Real>
NS_MESH_HD void exact_phase_differences(double qx, double qy, double qz, const double* a, const double* b,
                                        const double* c, Real& y1, Real& y2) {
  y1 = Real(qx * (b[0] - a[0]) + qy * (b[1] - a[1]) + qz * (b[2] - a[2]));
  y2 = Real(qx * (c[0] - a[0]) + qy * (c[1] - a[1]) + qz * (c[2] - a[2]));
}

template <class Real>
struct SeriesTerms;
template <>
struct SeriesTerms<float> {
  static constexpr int value = 8;
};
template <>
struct SeriesTerms<double> {
  static constexpr int value = 15;
};

constexpr double inverse_factorial(int n) {
  double f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return 1.0 / f;
}

template <class Real>
struct ExpPhase {
  Real c, s;  // exp(i p) = c + i s
};

template <class Real>
NS_MESH_HD Real reciprocal(Real x) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(Real) == 4) return __fdividef(1.0f, x);
#endif
  return Real(1) / x;
}

// exp(iπt/2) in float for a float64 phase t in quarter turns (|t| < 2^51):
// the GPU's per-vertex·q sincos. t is reduced in float64 by the nearest
// integer j (t + 1.5·2^52 rounds t to j, which the low word then holds;
// r = t − j ∈ [−1/2, 1/2] is exact by Sterbenz), r is rounded to float
// (≤ 2^-26 quarter turns = 2.3e-8 rad, no worse than reducing by whole
// turns), then the minimax polynomials of CUDA's sincospif on [−1/4, 1/4]
// half-turns, rescaled to quarter turns by powers of 2 (so bit for bit
// the same values; errors ≤ 5.4e-9 for sin, 1.1e-9 for cos), and the
// quadrant j mod 4 by swaps and sign flips: no special cases, as the phase
// is finite and |r| ≤ 1/2. Quarter turns rather than half-turns save the
// doubling (a float64 constant per vertex in registers).
NS_MESH_HD ExpPhase<float> exp_i_half_pi(double t) {
  constexpr double kRound = 6755399441055744.0;  // 1.5 · 2^52
  const double shifted = t + kRound;
  const double r = t - (shifted - kRound);
#if defined(__CUDA_ARCH__)
  const std::uint32_t j = std::uint32_t(__double2loint(shifted));
#else
  const std::uint32_t j = std::uint32_t(std::bit_cast<std::uint64_t>(shifted));
#endif
  const float x = float(r), x2 = x * x;
  const float sin_r =
      std::fmaf(x, 0x1.921fb6p+0f, x * x2 * (-0x1.4abbecp-1f + x2 * (0x1.466b2p-4f + x2 * -0x1.2f5992p-8f)));
  const float cos_r = 1.0f + x2 * (-0x1.3bd3ccp+0f + x2 * (0x1.03c19ep-2f + x2 * (-0x1.55a5cp-6f + x2 * 0x1.d09c24p-11f)));
  const bool swap = (j & 1) != 0;
  const std::uint32_t sin_sign = (j & 2) << 30, cos_sign = ((j + 1) & 2) << 30;
#if defined(__CUDA_ARCH__)
  return {__uint_as_float(__float_as_uint(swap ? sin_r : cos_r) ^ cos_sign),
          __uint_as_float(__float_as_uint(swap ? cos_r : sin_r) ^ sin_sign)};
#else
  return {std::bit_cast<float>(std::bit_cast<std::uint32_t>(swap ? sin_r : cos_r) ^ cos_sign),
          std::bit_cast<float>(std::bit_cast<std::uint32_t>(swap ? cos_r : sin_r) ^ sin_sign)};
#endif
}

// The series are unrolled by template recursion so that every coefficient is
// a compile-time constant and no loop or branch is left (the CPU path
// vectorises them, the GPU path keeps them in registers).

// Horner steps m = M..0 of Σ_m (−d²)^m/(2m+1)! and Σ_m (−d²)^m/(2m+2)!.
template <class Real, int M>
NS_MESH_HD void phi1_horner(Real d2, Real& even, Real& odd) {
  constexpr double ce = inverse_factorial(2 * M + 1), co = inverse_factorial(2 * M + 2);
  even = even * d2 + Real(ce);
  odd = odd * d2 + Real(co);
  if constexpr (M > 0) phi1_horner<Real, M - 1>(d2, even, odd);
}

// Σ_k (i d)^k/(k+1)! = (e^{i d} − 1)/(i d), for 0 ≤ d < δ: even powers
// (i d)^{2m} = (−d²)^m with 1/(2m+1)!, odd ones i d (−d²)^m with 1/(2m+2)!.
template <class Real>
NS_MESH_HD void phi1(Real d, Real& re, Real& im) {
  constexpr int M = (SeriesTerms<Real>::value + 1) / 2;
  const Real d2 = -d * d;
  Real even = 0, odd = 0;
  phi1_horner<Real, M>(d2, even, odd);
  re = even;
  im = d * odd;
}

// Terms k..K of Σ_k i^k h_k(y1, y2)/(k+2)!, h_k = y1^k + y2 h_{k−1}.
template <class Real, int K, int k>
NS_MESH_HD void phi2_terms(Real y1, Real y2, Real& power, Real& h, Real& re, Real& im) {
  if constexpr (k <= K) {
    constexpr double c = inverse_factorial(k + 2);
    power *= y1;
    h = y2 * h + power;
    const Real term = h * Real(c);
    if constexpr ((k & 3) == 0) re += term;
    if constexpr ((k & 3) == 1) im += term;
    if constexpr ((k & 3) == 2) re -= term;
    if constexpr ((k & 3) == 3) im -= term;
    phi2_terms<Real, K, k + 1>(y1, y2, power, h, re, im);
  }
}

// Σ_k i^k h_k(y1, y2)/(k+2)!, for 0 ≤ y1 ≤ y2 < δ.
template <class Real>
NS_MESH_HD void phi2(Real y1, Real y2, Real& re, Real& im) {
  Real power = 1, h = 1;
  re = Real(inverse_factorial(2));
  im = 0;
  phi2_terms<Real, SeriesTerms<Real>::value, 1>(y1, y2, power, h, re, im);
}

// e[x_a, x_b] for x = i p, p_a ≤ p_b.
template <class Real>
NS_MESH_HD void first_difference(Real pa, ExpPhase<Real> ea, Real pb, ExpPhase<Real> eb, Real& re, Real& im) {
  const Real d = pb - pa;
  if (d < Real(kSeriesSwitch)) {
    Real fr, fi;
    phi1(d, fr, fi);
    re = ea.c * fr - ea.s * fi;
    im = ea.c * fi + ea.s * fr;
  } else {
    const Real inv = reciprocal(d);  // (E_b − E_a)/(i d)
    re = (eb.s - ea.s) * inv;
    im = (ea.c - eb.c) * inv;
  }
}

// e[x_0, x_1, x_2] = ∫_T exp(i q·r) d²r / (2 A_T) for corner phases p_j and
// exp(i p_j), any order.
template <class Real>
NS_MESH_HD void triangle_integral(Real p0, ExpPhase<Real> e0, Real p1, ExpPhase<Real> e1, Real p2,
                                  ExpPhase<Real> e2, Real& re, Real& im) {
  // Sort by phase (three compare-and-swaps, branch-free selects on the GPU).
  if (p1 < p0) {
    const Real tp = p0; p0 = p1; p1 = tp;
    const ExpPhase<Real> te = e0; e0 = e1; e1 = te;
  }
  if (p2 < p1) {
    const Real tp = p1; p1 = p2; p2 = tp;
    const ExpPhase<Real> te = e1; e1 = e2; e2 = te;
  }
  if (p1 < p0) {
    const Real tp = p0; p0 = p1; p1 = tp;
    const ExpPhase<Real> te = e0; e0 = e1; e1 = te;
  }
  const Real span = p2 - p0;
  if (span < Real(kSeriesSwitch)) {
    Real fr, fi;
    phi2(p1 - p0, span, fr, fi);
    re = e0.c * fr - e0.s * fi;
    im = e0.c * fi + e0.s * fr;
    return;
  }
  Real r01, i01, r12, i12;
  first_difference(p0, e0, p1, e1, r01, i01);
  first_difference(p1, e1, p2, e2, r12, i12);
  const Real inv = reciprocal(span);  // (e12 − e01)/(i D)
  re = (i12 - i01) * inv;
  im = (r01 - r12) * inv;
}

// ---- Fast paths without sorting -------------------------------------------
// The divided difference is symmetric in its arguments, so expanding about
// ANY corner a (the tile stores corner a first; y1 = p_b − p_a, y2 = p_c − p_a,
// from the edges b − a, c − a) gives the same series as the sorted one:
//   e[x_a, x_b, x_c] = E_a Σ_k i^k h_k(y1, y2)/(k+2)!,
// now with y1, y2 of either sign. Bound: |h_k(y1, y2)| ≤ (k+1) R^k for the
// reach R = max(|y1|, |y2|) (≤ the phase span), so the tail after K terms is
//   T_K(R) = Σ_{k>K} (k+1) R^k/(k+2)!.
// A tier (K, R_max) is used only where R < R_max for every lane of a warp
// (GPU) or block of q (CPU), chosen so that T_K(R_max) < 1e-8 × 0.46
// (float) or < 1e-17 × 0.46 (double): relative to |e| itself, which is
// ≥ 0.4597 for R ≤ 1 (minimum over y1, y2 ∈ [−1, 1], by quadrature):
//   float:  K = 7, R < 0.45 (T = 4.4e-9);  K = 8, R < 0.63 (4.2e-9);
//           K = 9, R < 0.84 (4.3e-9);      K = 10, R < 1 (2.1e-9)
//   double: K = 14, R < 0.5 (T = 1.4e-18); K = 16, R < 0.8 (3.5e-18);
//           K = 18, R < 1 (4.1e-19)
// (the first tier whose bound holds is taken: each term costs 3
// operations per q, so the tiers track the reach closely).
// For R ≤ 1 no term exceeds 1/2 (terms (k+1) R^k/(k+2)!), so rounding stays
// at a few ε. No sort, no branch, and the factor q·N rides in for free.
template <class Real>
struct SeriesTiers;
template <>
struct SeriesTiers<float> {
  static constexpr int count = 4;
  static constexpr int terms[count] = {7, 8, 9, 10};
  static constexpr double reach[count] = {0.45, 0.63, 0.84, 1.0};
};
template <>
struct SeriesTiers<double> {
  static constexpr int count = 3;
  static constexpr int terms[count] = {14, 16, 18};
  static constexpr double reach[count] = {0.5, 0.8, 1.0};
};

// Runs f.template operator()<K>() for the first tier (from tier I on) whose
// bound R_max satisfies below(R_max) (every reach of the warp or block is
// < R_max; the caller's test, uniform over the lanes), and says whether one
// did.
template <class Real, int I = 0, class Below, class F>
NS_MESH_HD bool with_series_tier(const Below& below, F&& f) {
  if constexpr (I < SeriesTiers<Real>::count) {
    constexpr int terms = SeriesTiers<Real>::terms[I];
    constexpr double bound = SeriesTiers<Real>::reach[I];
    if (below(Real(bound))) {
      f.template operator()<terms>();
      return true;
    }
    return with_series_tier<Real, I + 1>(below, f);
  } else {
    return false;
  }
}

// scale · Σ_{k=0..K} i^k h_k(y1, y2)/(k+2)! = scale · e[x_a, x_b, x_c]/E_a
// for max(|y1|, |y2|) below the tier's reach (any corner order).
template <class Real, int K>
NS_MESH_HD void anchored_series(Real y1, Real y2, Real scale, Real& re, Real& im) {
  Real power = scale, h = scale;
  re = scale * Real(inverse_factorial(2));
  im = 0;
  phi2_terms<Real, K, 1>(y1, y2, power, h, re, im);
}

// scale · e[x_a, x_b, x_c] from the Lagrange form of the divided difference
// (x = i p, y as above, any corner order):
//   e = [E_b y2 − E_c y1 − E_a (y2 − y1)] / (y1 y2 (y2 − y1)),
// for pairwise differences |y1|, |y2|, |y2 − y1| all ≥ δ: rounding errors
// ε of E and of the products (numerator terms ≤ 2 ε · span) over the
// denominator (≥ δ² · span) give ≤ 2ε/δ² (δ = 1/2: ×8), the bound of the
// sorted form below.
template <class Real>
NS_MESH_HD void three_point(Real y1, Real y2, ExpPhase<Real> ea, ExpPhase<Real> eb, ExpPhase<Real> ec, Real scale,
                            Real& re, Real& im) {
  const Real d12 = y2 - y1;
  const Real inv = scale * reciprocal(y1 * y2 * d12);
  re = (eb.c * y2 - ec.c * y1 - ea.c * d12) * inv;
  im = (eb.s * y2 - ec.s * y1 - ea.s * d12) * inv;
}

// The same function without branches, for SIMD lanes on the CPU: both
// evaluations are formed and one is selected (every select is a blend), so
// that a compiler vectorises a loop over q around it. Same formulas, same
// rounding as triangle_integral.
template <class Real>
NS_MESH_HD void triangle_integral_blend(Real p0, ExpPhase<Real> e0, Real p1, ExpPhase<Real> e1, Real p2,
                                    ExpPhase<Real> e2, Real& re, Real& im) {
  auto sort2 = [](Real& pa, ExpPhase<Real>& ea, Real& pb, ExpPhase<Real>& eb) {
    const bool swap = pb < pa;
    const Real lo = swap ? pb : pa, hi = swap ? pa : pb;
    const Real c_lo = swap ? eb.c : ea.c, c_hi = swap ? ea.c : eb.c;
    const Real s_lo = swap ? eb.s : ea.s, s_hi = swap ? ea.s : eb.s;
    pa = lo, pb = hi, ea = {c_lo, s_lo}, eb = {c_hi, s_hi};
  };
  sort2(p0, e0, p1, e1);
  sort2(p1, e1, p2, e2);
  sort2(p0, e0, p1, e1);
  const Real delta = Real(kSeriesSwitch);
  auto first = [&](Real pa, ExpPhase<Real> ea, Real pb, ExpPhase<Real> eb, Real& r, Real& i) {
    const Real d = pb - pa;
    Real fr, fi;
    phi1(d, fr, fi);
    // Both forms evaluated as statements, then selected: no floating-point
    // operation is conditional, so the selects become blends.
    const bool series = d < delta;
    const Real inv = Real(1) / (d < delta ? delta : d);
    const Real r_series = ea.c * fr - ea.s * fi, i_series = ea.c * fi + ea.s * fr;
    const Real r_direct = (eb.s - ea.s) * inv, i_direct = (ea.c - eb.c) * inv;
    r = series ? r_series : r_direct;
    i = series ? i_series : i_direct;
  };
  const Real span = p2 - p0;
  Real fr, fi, r01, i01, r12, i12;
  phi2(p1 - p0, span, fr, fi);
  first(p0, e0, p1, e1, r01, i01);
  first(p1, e1, p2, e2, r12, i12);
  const bool series = span < delta;
  const Real inv = Real(1) / (span < delta ? delta : span);
  const Real re_series = e0.c * fr - e0.s * fi, im_series = e0.c * fi + e0.s * fr;
  const Real re_direct = (i12 - i01) * inv, im_direct = (r01 - r12) * inv;
  re = series ? re_series : re_direct;
  im = series ? im_series : im_direct;
}

}  // namespace nanoscatter::gisaxs::mesh
