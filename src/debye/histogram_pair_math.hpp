// The per-pair arithmetic and the bin-window bookkeeping of the CUDA
// pair-distance histogram's fast path (histogram_cuda.cu), written once for
// device and host: the kernel runs it, and a CPU test
// (tests/unit/test_debye_histogram_gpu_math.cpp) runs the same code in a
// serial emulation of the kernel against histogram_cpu, so the algorithm is
// checked in CI without a GPU.
//
// Units: everything here is in bins (lengths divided by Δr), so the bin of a
// distance ρ is floor(ρ) and δ' = ρ − floor(ρ) ∈ [0, 1).
//
// Distances without float64 (one float64 op costs 2 float ops on an H100,
// a conversion 8): each coordinate (relative to the block's box centre) is
// split into hi + lo, hi a multiple of a power-of-two grid h with
// |hi_j − hi_i| ≤ 2047 h for every pair (h ≥ box diagonal / 2046). Then
//   d_hi = hi_j − hi_i is exact, S = Σ d_hi² is exact (Σ of three squares of
//   11-bit integers times h² stays below 2^24 h²),
//   T = Σ d_lo (2 d_hi + d_lo) carries the rest (d = d_hi + d_lo),
// and r² = S + T with an absolute error of a few ulp(T) ≈ 2^-23·2r·|d_lo|.
// r itself is ρ0 = R·rsqrt(R) refined by one Newton step whose residual
// fma(−ρ0, ρ0, S) + T is formed without cancellation error (S − ρ0² is
// exact in one fma), so |r − r_true| ≲ 2^-22·|d_lo| ≤ 2^-22·√3·h ≤ 8e-10
// of the box diagonal (h < 2·diagonal/2046). Measured on the host
// (test_debye_histogram_gpu_math.cpp, every pair of 400 atoms): 5.6e-9 Å in
// a 40 Å ball (bound 1.3e-8 Å), 1.1e-7 Å in a 530 Å ball (bound 2.1e-7 Å);
// a 10⁶-atom CoO sphere is 264 Å across (bound 1.1e-7 Å). These errors are
// not coherent over a crystal shell: they follow the low bits of each
// pair's coordinates, not r.
//
// A pair's record: δ' quantised down to 2^-20 bin (q1, read back as the
// midpoint (q1 + ½)·2^-20: error ≤ 2^-21 bin = 4.8e-10 Å at Δr = 1e-3) and
// (δ' − ½)² quantised down to 2^-12 bin² (q2 ≤ 1024, midpoint, error ≤
// 2^-13 bin²; it enters I(Q) only through ½Q²Σδ², so at Δr = 1e-3 Å this
// is ≤ 9e-9 of a pair's term at Q = 12 Å⁻¹, below the Taylor remainder). The ring buffer in shared memory keeps two
// 32-bit words per bin, A = [count : 11 | Σq2 : 21] and B = Σq1, so a pair
// costs two native 32-bit shared atomics (a 64-bit shared atomic add is a
// compare-and-swap loop on sm_90). Capacity, each word on its own: the
// thread whose add finds A's count at kDrainAt or above (B at kDrainSum1 or
// above) moves that word to the global bins (atomic exchange with zero)
// before its next add; each thread has at most one such add pending, so
// count ≤ kDrainAt + kMaxAdders = 2047 and Σq2 ≤ 2047·1024 < 2^21 (no carry
// into the count), and B ≤ 2^31 + (kMaxAdders + 1)·2^20 < 2^32.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#ifdef __CUDACC__
#define NS_HIST_HD __host__ __device__ __forceinline__
#else
#define NS_HIST_HD inline
#endif

namespace nanoscatter::debye::hist {

constexpr int kGroupAtoms = 64;  // i atoms per group (one warp, two per lane)
constexpr int kCountShift = 21;  // word A = [count : 11 | Σq2 : 21]
constexpr int kQ1Bits = 20;      // δ' to 2^-20 bin
constexpr int kQ2Bits = 12;      // (δ' − ½)² to 2^-12 bin², q2 ≤ 2^10
constexpr std::uint32_t kMaxCount = (1u << (32 - kCountShift)) - 1;
constexpr std::uint32_t kMaxAdders = 1024;  // threads of a block (kernel asserts ≤)
constexpr std::uint32_t kDrainAt = kMaxCount - kMaxAdders;
constexpr std::uint32_t kDrainSum1 = 1u << 31;
constexpr int kMaxShells = 2048;  // distance shells per group
constexpr int kHiSteps = 2046;    // box diagonal ≤ kHiSteps·h keeps S exact
// floor() by a round-down add: 1.5·2^23 + x lands in [2^23, 2^24), where
// floats are the integers, for 0 ≤ x < 2^22; hence the bin limit.
constexpr float kMagic = 12582912.0f;
constexpr int kMaxFastBins = (1 << 22) - 64;

static_assert(std::uint64_t(kMaxCount) * (1u << (kQ2Bits - 2)) < (std::uint64_t(1) << kCountShift),
              "Σq2 would carry into the count ((δ' − ½)² ≤ ¼, so q2 ≤ 2^(kQ2Bits−2))");
static_assert(std::uint64_t(kDrainSum1) + std::uint64_t(kMaxAdders + 1) * (1u << kQ1Bits) < (std::uint64_t(1) << 32),
              "Σq1 word overflow");

// An atom as the fast path reads it: hi parts (exact multiples of h), key
// (index for the triangle mask), lo parts. 32 bytes, two 16-byte loads.
struct alignas(16) PackedAtom {
  float hx, hy, hz;
  std::int32_t key;
  float lx, ly, lz;
  float pad;
};

// One i group (bin units): centre c, radius rho (every atom within rho of c),
// and the shells of j atoms by D = |x_j − c|: shell s holds D ∈ [s·w, (s+1)·w).
struct GroupGeometry {
  float cx, cy, cz, rho;
  float shell_width, inv_shell_width;
  std::int32_t nshell;
  std::int32_t first;  // first atom (index into the sorted a list)
  std::int32_t count;  // atoms, ≤ kGroupAtoms
  std::int32_t j_first;  // first j atom (triangle: the group's first atom; rectangle: 0)
  std::int32_t pad[2];
};

NS_HIST_HD float hist_rsqrt(float x) {
#ifdef __CUDA_ARCH__
  return rsqrtf(x);
#else
  return 1.f / std::sqrt(x);
#endif
}

NS_HIST_HD std::uint32_t float_bits(float x) {
#ifdef __CUDA_ARCH__
  return __float_as_uint(x);
#else
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
#endif
}

NS_HIST_HD float hist_fma(float a, float b, float c) {
#ifdef __CUDA_ARCH__
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

// floor(x) for 0 ≤ x < 2^22, and the same as an int.
NS_HIST_HD float floor_small(float x, int& k) {
#ifdef __CUDA_ARCH__
  const float m = __fadd_rd(x, kMagic);
  k = __float_as_int(m) - __float_as_int(kMagic);
  return m - kMagic;
#else
  const float f = std::floor(x);
  k = int(f);
  return f;
#endif
}

// floor(x·scale) for 0 ≤ x·scale < 2^22 (both exact: one round-down fma).
NS_HIST_HD std::uint32_t floor_scaled(float x, float scale) {
#ifdef __CUDA_ARCH__
  return __float_as_uint(__fmaf_rd(x, scale, kMagic)) - __float_as_uint(kMagic);
#else
  return std::uint32_t(std::floor(double(x) * double(scale)));
#endif
}

// A pair's distance as bin + u, u ∈ [0, 1).
struct PairBin {
  int bin;
  float u;
};

NS_HIST_HD PairBin pair_bin(const PackedAtom& i, const PackedAtom& j) {
  const float dhx = j.hx - i.hx, dhy = j.hy - i.hy, dhz = j.hz - i.hz;  // exact
  const float dlx = j.lx - i.lx, dly = j.ly - i.ly, dlz = j.lz - i.lz;
  const float s = hist_fma(dhx, dhx, hist_fma(dhy, dhy, dhz * dhz));  // exact
  const float tx = hist_fma(2.f, dhx, dlx), ty = hist_fma(2.f, dhy, dly), tz = hist_fma(2.f, dhz, dlz);
  const float t = hist_fma(dlx, tx, hist_fma(dly, ty, dlz * tz));
  const float r2 = s + t;
  PairBin out;
  if (r2 < 1.f) {
    // r < 1 bin (coincident atoms; rsqrt's Newton step would divide by ~0):
    // bin 0, and float r is good to 2^-24 bin here.
    out.bin = 0;
    out.u = r2 > 0.f ? std::sqrt(r2) : 0.f;
    if (out.u >= 1.f) out.u = 0x1.fffffep-1f;
    return out;
  }
  const float y = hist_rsqrt(r2);
  const float rho0 = r2 * y;
  const float res = hist_fma(-rho0, rho0, s) + t;  // r² − ρ0², S − ρ0² exact in the fma
  const float corr = res * (0.5f * y);
  int k;
  const float kf = floor_small(rho0, k);
  float u = (rho0 - kf) + corr;  // rho0 − kf is exact
  // 0 ≤ u < 1 as one unsigned compare of the bits (negative floats, −0
  // included, have the sign bit set); else the correction crossed a bin
  // edge (rare).
  if (!(float_bits(u) < 0x3f800000u)) {
    const float f = std::floor(u);
    k += int(f);
    u -= f;
    if (u >= 1.f) u = 0x1.fffffep-1f;
  }
  out.bin = k;
  out.u = u;
  return out;
}

struct PairQuanta {
  std::uint32_t q1, q2;
};

NS_HIST_HD PairQuanta quantise(float u) {
  const float c = u - 0.5f;
  return {floor_scaled(u, float(1u << kQ1Bits)), floor_scaled(c * c, float(1u << kQ2Bits))};
}

// The words a pair adds to its bin, their fields, and when a word must be
// drained (capacity above).
NS_HIST_HD std::uint32_t word_a(PairQuanta q) { return (1u << kCountShift) | q.q2; }
NS_HIST_HD std::uint32_t word_b(PairQuanta q) { return q.q1; }
NS_HIST_HD std::uint32_t word_count(std::uint32_t a) { return a >> kCountShift; }
NS_HIST_HD std::uint32_t word_sum2(std::uint32_t a) { return a & ((1u << kCountShift) - 1); }
NS_HIST_HD bool must_drain_a(std::uint32_t old) { return old >= (kDrainAt << kCountShift); }
NS_HIST_HD bool must_drain_b(std::uint32_t old) { return old >= kDrainSum1; }

// Ring slot of the bin base + idx (0 ≤ idx < W) when bin `base` sits in
// slot base_slot: a ring of any size W without a modulo per pair.
NS_HIST_HD int ring_slot(int idx, int base_slot, int window) {
  const int s = idx + base_slot;
  return s >= window ? s - window : s;
}

// Shell of a j atom at distance D (bins) from the group centre.
NS_HIST_HD int shell_of(const GroupGeometry& g, float d) {
#ifdef __CUDA_ARCH__
  int s = int(__fmul_rn(d, g.inv_shell_width));
#else
  int s = int(d * g.inv_shell_width);
#endif
  s = s < 0 ? 0 : s;
  return s < g.nshell ? s : g.nshell - 1;
}

// The kernel computes this twice per j atom (counting, then scattering)
// and both must give the same shell, so every operation is explicit (no
// contraction left to the compiler).
NS_HIST_HD float centre_distance(const GroupGeometry& g, const PackedAtom& a) {
#ifdef __CUDA_ARCH__
  const float x = __fsub_rn(__fadd_rn(a.hx, a.lx), g.cx), y = __fsub_rn(__fadd_rn(a.hy, a.ly), g.cy),
              z = __fsub_rn(__fadd_rn(a.hz, a.lz), g.cz);
  return __fsqrt_rn(__fmaf_rn(x, x, __fmaf_rn(y, y, __fmul_rn(z, z))));
#else
  const float x = (a.hx + a.lx) - g.cx, y = (a.hy + a.ly) - g.cy, z = (a.hz + a.lz) - g.cz;
  return std::sqrt(std::fma(x, x, std::fma(y, y, z * z)));
#endif
}

// First bin of the window while shell s is processed: every pair of the
// shell lies in [base, base + W) when shell_width + 2·rho + 8 ≤ W (a pair
// at r = D ± rho, D within a rounding of the shell); non-decreasing in s.
NS_HIST_HD int window_base(const GroupGeometry& g, int s) {
  const int b = int(std::floor(float(s) * g.shell_width - g.rho)) - 2;
  return b > 0 ? b : 0;
}

}  // namespace nanoscatter::debye::hist
