// The per-pair arithmetic and the bin-window bookkeeping of the CUDA
// pair-distance histogram's fast path (histogram_fast_kernel.cu), written once for
// device and host: the kernel runs it, and a CPU test
// (tests/unit/test_debye_histogram_gpu_math.cpp) runs the same code in a
// serial emulation of the kernel against histogram_cpu, so the algorithm is
// checked in CI without a GPU.
//
// Units: everything here is in kernel bins (below; lengths divided by
// Δr/kSubBins), so the kernel bin of a distance r is floor(r)
// and δ' = r − floor(r) ∈ [0, 1).
//
// Issue budget. A pair must cost few SASS instructions (the kernel is
// bound by the shared-memory pipe, and just behind it by instruction
// issue); float64 ops take one issue slot like float ops (the FP64 pipe,
// half the FP32 rate on an H100/H200, runs beside the FP32 and integer
// pipes). This chain costs ~17 SASS instructions per pair with r² from
// the tensor cores, ~23 with the direct difference (the counts, and those
// of the float hi/lo distance it replaced:
// bench/results/2026-11-25-debye-histogram-kernel-history.md):
//   r² = |x_j − x_i|² + 2^-100   3 DADD, 3 DFMA (the 2^-100 keeps r² > 0
//                                 for coincident atoms; r changes by
//                                 ≤ 2^-50 bin), or in far shells one DMMA
//                                 per 64 pairs (Centred, below)
//   y  = rsqrt.approx.ftz.f64(r²) one MUFU: 1/√ of r²'s upper word,
//                                 rounded to 20 mantissa bits
//   ρ0 = r²·y, ρ1 = ρ0 + (r² − ρ0²)·y/2     one Newton step: DMUL, 2 DFMA,
//                                 and y/2 as an integer add on y's upper word
//   m  = RD(ρ1 + magic)           one DADD.RM onto the 2^-32 grid of
//                                 [2^20, 2^21), magic = 2^20 − base per
//                                 window: m's upper word is the pair's
//                                 ring slot plus kMagicHi, its lower word
//                                 floor(δ'·2^32) — no floor, no bin
//                                 crossing case, no range branch;
// then the ring word or words come from the lower word (below: one 64-bit
// multiply-add for the one-word layout; the two-word layout adds a
// shift-add for the offset word and a multiply-high) and one LEA on the
// upper word gives the shared-memory address (the rings do not wrap: a
// window move shifts their contents down, so slot = bin − base). The
// counts above are of the one-word kernel; the second word adds ~3
// instructions and an atomic per pair.
//
// Precision. y = (1 + ε)/r with |ε| ≤ 2^-17 assumed (the PTX semantics are
// "1/√ of the upper word": 2^-21 from truncating r², 2^-21 from rounding
// the result; 2^-17 leaves a factor 16 for the hardware table). One Newton
// step leaves ρ1 = r·(1 − (3/2)ε² + O(ε³)), and the float64 roundings add
// ≤ 4·2^-53·r, so
//   |ρ1 − r| ≤ (1.5·2^-34 + 2^-50)·r_max + 2^-50   (bins),
// plus ≤ 2^-28 bin where r² comes from the tensor cores (Centred, below),
// and δ' is truncated to 2^-32 bin on top of that (test_histogram_compare.hpp,
// fast_distance_error_bins). Across 264 Å that is 2.3e-8 Å (r_max = 2.64e5
// bins at Δr = 1e-3 Å); the old float path's bound was 1.1e-7 Å. The host
// emulation models the MUFU by its PTX semantics (rsqrt_hi).
//
// Kernel bins. The kernel's bins are Δr/kSubBins wide (kSubBins = 1: the
// histogram's own bins): its layout, window and rings are in kernel-bin
// units. What a kernel bin keeps is the bin code, a template parameter of
// the kernel, the layout and the emulation (BinCode below; the option
// DebyeOptions::histogram_mode picks it, docs/debye.md):
//
// Two words (BinWords::two, HistogramMode::precise, the default). A
// kernel bin keeps two 32-bit words, one in each of two rings of W words
// (so a pair costs two native 32-bit shared atomics; a 64-bit shared
// atomic add is a compare-and-swap loop on sm_90):
//   offset word   Σqa,                qa = floor(2^20·δ' + U) ∈ [0, 2^20]
//   square word   [count : 12 | Σq2 : 20], q2 = floor(2044·δ'(1 − δ') + U) ∈ [0, 511]
// with a dither U spread evenly over [0, 1) (a function of the pair's
// indices, dither_i/dither_j below), so E[qa] = 2^20·δ' and
// E[q2] = 2044·δ'(1 − δ'): count is exact, and Σqa/2^20 and Σq2/2044 are
// unbiased estimates of Σδ' and Σδ'(1 − δ'), which add_fast_bins turns into
// the histogram's moments about the bin centre (e = δ' − ½: Σe = Σδ' − n/2,
// Σe² = n/4 − Σδ'(1 − δ')). δ'(1 − δ') = ¼ − e² spans [0, ¼], so its 511
// levels are 1/2044 of a bin² apart, four times finer than 511 levels of
// δ'² (the same word, one multiply-high either way). Matching the CPU
// histogram to 1e-6 (issue 20 item 3) needs δ' to ~2^14 levels and Σδ²
// kept per bin (bench/results/2026-11-26-debye-histogram-noise.md). The
// price: two words per bin halve the distances the rings hold (24,576
// bins, 24.6 Å at Δr = 1e-3 Å), so groups are of 64 atoms (radius ~10 Å
// in CoO) with ~5 Å shells, and a pair costs a second atomic.
//
// One word (BinWords::one, HistogramMode::fast). A kernel bin keeps one
// 32-bit word [count : 12 | Σq : 20], q = floor(511·δ' + U) ∈ [0, 511]
// (E[q]/511 = δ': Σq/511 is an unbiased estimate of Σδ' whose error is
// noise, ~0.3·√n/511 bin for n pairs, never more than n/511), so a pair
// costs one shared atomic. q and the count's 1 << 20 come from one 64-bit
// multiply-add (pair_word). Σδ² of a kernel bin with n pairs and mean
// offset μ (about its centre, |μ| ≤ ½) lies in [nμ², n/4]: add_fast_bins
// takes nμ² for an isolated kernel bin (both neighbours empty: a crystal's
// shell, whose pairs share one distance, where it is exact) and otherwise
// n(μ² + (½ − |μ|)²/3), the value for offsets spread evenly over the
// widest interval about μ inside the kernel bin (exact for an even
// spread, which crowded bins of a disordered particle approach). Either is
// within n/4 kernel bin² of the truth (kSquareError). Σδ² enters I(Q) only
// through ½Q²Σδ²·sinc'', so at Δr = 1e-3 Å and Q = 12 Å⁻¹ this is
// ≤ 1.8e-5 of a pair's term, and far below that in practice. One word per
// bin doubles the distances the ring holds (49,152 bins, 49 Å at
// Δr = 1e-3 Å), which lets a group of 256 atoms (radius ~16 Å in CoO) keep
// 18 Å shells; pass 1 and the staging loads then serve four times as many
// pairs per j atom, and the flushes cover the distances once per group of
// 256 (the speeds of both: docs/debye.md).
//
// Either way the dither keeps the quantisation unbiased: an undithered
// offset is the same for every pair of a crystal's shell, a phase error
// coherent over 10⁵ pairs that adds up shell by shell in I(Q)
// (docs/debye.md, bench/results/2026-11-25-debye-histogram-dither.md).
//
// Capacity. The thread whose add finds a word at its drain threshold
// (the count at kDrainCount or above, or Σq (Σq2) at kDrainSum or above, or
// the offset word at kDrainOffset or above; one bit each, tested on the
// old words the atomics return: the test needs no add) moves the bin's
// words to the global bins (atomic exchange with zero) before its next
// add. From the add that crosses a threshold to the first exchange, every
// later add finds the threshold and is by a thread that drains before it
// adds again, so count ≤ kDrainCount + kMaxAdders = 3072 < 2^12,
// Σq ≤ kDrainSum − 1 + (kMaxAdders + 1)·511 < 2^20 and Σqa ≤ 2^31 − 1 +
// (kMaxAdders + 1)·2^20 < 2^32: no field carries into the next or out of
// its word. Two words of a bin are drained together but not atomically
// together; both are sums, so every pair's adds reach the global bins
// whatever the interleaving. Why [count : 12 | Σq : 20]: a 12-bit count
// halves the drains of a crystal's crowded bins against [count : 11 |
// Σq : 21], and testing the old word saves an add per pair (measured:
// bench/results/2026-11-25-debye-histogram-kernel-history.md).
// Window. The kernel does not test whether a pair's bin lies in the ring:
// the layout guarantees it (window_base, histogram_layout.cpp), and
// make_fast_layout refuses geometries where it cannot.
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

constexpr int kSubBins = 1;       // kernel bins per histogram bin
constexpr int kCountShift = 20;  // [count : 12 | Σq : 20], the one word or the square word
constexpr std::uint32_t kQLevels = 511;             // q = floor(511·δ' + U), q2 = floor(4·511·δ'(1 − δ') + U) ∈ [0, 511]
constexpr std::uint32_t kSpreadScale = 4 * kQLevels;  // q2 per unit of δ'(1 − δ') ∈ [0, ¼]
constexpr std::uint32_t kOffsetLevels = 1u << 20;   // qa = floor(2^20·δ' + U) ∈ [0, 2^20]
constexpr int kOffsetShift = 20;                    // log2(kOffsetLevels)
constexpr std::uint32_t kMaxCount = (1u << (32 - kCountShift)) - 1;
constexpr std::uint32_t kMaxAdders = 1024;  // threads of a block (kernel asserts ≤)
constexpr std::uint32_t kDrainCount = 1u << 11;  // drain at count ≥ 2048: the word's bit 31
constexpr std::uint32_t kDrainSum = 1u << 19;    // or at Σq (Σq2) ≥ 2^19: its bit 19
constexpr std::uint32_t kDrainMask = (kDrainCount << kCountShift) | kDrainSum;
constexpr std::uint32_t kDrainOffset = 1u << 31;  // or at Σqa ≥ 2^31: the offset word's bit 31
constexpr int kMaxShells = 1024;  // distance shells per group (wider shells, and smaller groups, where more would be needed)
// The fast path's reach (kernel bins; 2^21 bins, 2.1 μm at Δr = 1e-3 Å):
// ρ1·2^32 stays below 2^54 (exact on the host); rings hold W ≤ 2^19 bins, so a pair's window offset (below) is
// below 2^20.
constexpr int kMaxFastBins = (1 << 22) - 64;
constexpr double kTinyR2 = 0x1p-100;  // keeps r² > 0
// Distance error bound (above): |ρ1 − r| ≤ kRelError·r_max + kAbsError bins,
// plus the 2^-32 truncation of δ'.
constexpr double kRelError = 1.5 * 0x1p-34 + 0x1p-50;
constexpr double kAbsError = 0x1p-50 + 0x1p-32 + 0x1p-28;  // the last term: the DMMA's r² (Centred)
// Shells whose nearest pair is at least this far (bins) take the DMMA r².
constexpr double kMmaGap = 1024.0;

// The add that crosses a threshold, then one add per thread (capacity above).
static_assert(kDrainCount + kMaxAdders <= kMaxCount, "the count field would overflow");
static_assert(std::uint64_t(kDrainSum) - 1 + (std::uint64_t(kMaxAdders) + 1) * kQLevels <
                  (std::uint64_t(1) << kCountShift),
              "Σq would carry into the count");
static_assert(std::uint64_t(kDrainOffset) - 1 + (std::uint64_t(kMaxAdders) + 1) * kOffsetLevels <
                  (std::uint64_t(1) << 32),
              "Σqa would carry out of its word");
static_assert((kDrainCount << kCountShift) == 0x80000000u && kDrainSum < (1u << kCountShift),
              "each threshold is one bit of its field");
static_assert(kOffsetLevels == (1u << kOffsetShift), "qa's levels are a power of two");

// An atom as the fast path reads it: position in bins relative to the
// layout's origin, and its index in its block (the layout's record of the
// order; the kernel does not read it). 32 bytes.
struct alignas(16) PackedAtom {
  double x, y, z;
  std::int32_t key;
  std::int32_t pad;
};

// One i group (bin units): centre c, radius rho (every atom within rho − 1
// of c), and the shells of j atoms by D = |x_j − c|: shell s holds
// D ∈ [s·w, (s+1)·w).
struct GroupGeometry {
  double cx, cy, cz, rho;
  double shell_width, inv_shell_width;
  std::int32_t nshell;
  std::int32_t first;    // first atom (index into the sorted a list)
  std::int32_t count;    // atoms, ≤ the bin code's kGroupAtoms
  std::int32_t j_first;  // first j atom (triangle: past the group's own atoms; rectangle: 0)
};

NS_HIST_HD std::uint64_t double_bits(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

NS_HIST_HD double bits_double(std::uint64_t u) {
  double x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

NS_HIST_HD double hist_fma(double a, double b, double c) {
#ifdef __CUDA_ARCH__
  return __fma_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

// rsqrt.approx.ftz.f64: 1/√ of x's upper word (1.11.20), its result in the
// upper word. The host takes the PTX semantics literally (exact 1/√ of the
// truncated input, rounded to 20 mantissa bits).
NS_HIST_HD double rsqrt_hi(double x) {
#ifdef __CUDA_ARCH__
  double y;
  asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  return y;
#else
  const double t = bits_double(double_bits(x) & 0xffffffff00000000ull);
  const double y = 1.0 / std::sqrt(t);
  return bits_double((double_bits(y) + 0x80000000ull) & 0xffffffff00000000ull);
#endif
}

// y/2 for a normal y whose lower word is zero: one integer add on the upper word.
NS_HIST_HD double half_of_hi(double y) {
#ifdef __CUDA_ARCH__
  return __hiloint2double(__double2hiint(y) - 0x00100000, 0);
#else
  return 0.5 * y;
#endif
}

// The window offset of a pair as a fixed-point number in a double's bits:
// RD(ρ + magic) with magic = 2^20 − base lies in [2^20, 2^21) (the layout
// keeps ρ − base in [0, W), W ≤ 2^19), where the grid of a double is
// 2^-32, so its mantissa is floor((ρ − base)·2^32): the upper word is
// 2^20's exponent bits (kMagicHi) plus the ring slot of the pair's bin,
// the lower word floor(δ'·2^32). One DADD.RM; no float→int conversion, no
// constant to keep in registers.
constexpr std::uint32_t kMagicHi = 0x41300000u;  // upper word of 2^20

NS_HIST_HD double window_magic(int base) { return 0x1p20 - double(base); }

// floor((ρ + magic − 2^20)·2^32) as a 64-bit fixed-point number.
NS_HIST_HD std::uint64_t magic_floor_bits(double rho, double magic) {
#ifdef __CUDA_ARCH__
  return std::uint64_t(__double_as_longlong(__dadd_rd(rho, magic))) - (std::uint64_t(kMagicHi) << 32);
#else
  const auto shift = std::int64_t(magic - 0x1p20) * (std::int64_t(1) << 32);
  return std::uint64_t(shift + std::int64_t(std::floor(std::ldexp(rho, 32))));
#endif
}

// A pair in the window: upper word bin − base ∈ [0, W) (its ring slot),
// lower word floor(δ'·2^32), for magic = window_magic(base).
struct PairFix {
  std::uint32_t hi, lo;
};

// From r² (bins², > 0): one Newton step from the MUFU seed, then the
// fixed-point trick.
NS_HIST_HD PairFix pair_fix_r2(double r2, double magic) {
  const double y = rsqrt_hi(r2);
  const double rho0 = r2 * y;
  const double rho1 = hist_fma(hist_fma(-rho0, rho0, r2), half_of_hi(y), rho0);
#ifdef __CUDA_ARCH__
  const double m = __dadd_rd(rho1, magic);  // magic_floor_bits, one word at a time
  return {std::uint32_t(__double2hiint(m)) - kMagicHi, std::uint32_t(__double2loint(m))};
#else
  const std::uint64_t m = magic_floor_bits(rho1, magic);
  return {std::uint32_t(m >> 32), std::uint32_t(m)};
#endif
}

// An atom relative to its group's centre c (bins): u = x − c and n2 = |u|².
// The kernel keeps a group's i atoms and the staged j atoms this way; for
// far shells the tensor cores (DMMA, m8n8k4 float64) then give r² for 64
// pairs per instruction as |v_i|² + (|u_j|² − 2 v_i·u_j) (A row (−2v, 1),
// B column (u, |u|²), C = |v_i|², histogram_fast_kernel.cu), instead of 3 DADD +
// 3 DFMA per pair.
// Precision: the roundings of u, v (2^-53 relative) and of the DMMA's four
// products and sums (≤ 5 roundings of terms ≤ (D + ρ)²) move r by at most
// ~2^-51·(D + ρ)²/(2(D − ρ)) bins; mma_shell keeps D − ρ ≥ kMmaGap = 1024,
// so with ρ < 2^15 (groups fit a window ≤ 2^16) and D < 2^22 this is below
// 2^-29 bins, inside the 2^-28 that kAbsError allows for it. Near shells,
// where r → 0 and the expansion cancels, take the direct difference
// (centred_r2, with kTinyR2).
struct Centred {
  double x, y, z, n2;
};

NS_HIST_HD Centred centred(const GroupGeometry& g, const PackedAtom& a) {
  const double x = a.x - g.cx, y = a.y - g.cy, z = a.z - g.cz;
  return {x, y, z, hist_fma(x, x, hist_fma(y, y, z * z))};
}

NS_HIST_HD double centred_r2(const Centred& i, const Centred& j) {
  const double dx = j.x - i.x, dy = j.y - i.y, dz = j.z - i.z;
  return hist_fma(dx, dx, hist_fma(dy, dy, hist_fma(dz, dz, kTinyR2)));
}

// The DMMA's r² in one summation order (the host emulation's model; the
// tensor core's own order differs in the last bits, within the bound above).
NS_HIST_HD double expanded_r2(const Centred& i, const Centred& j) {
  return hist_fma(-2.0 * i.x, j.x, hist_fma(-2.0 * i.y, j.y, hist_fma(-2.0 * i.z, j.z, i.n2))) + j.n2;
}

// A pair's dither, a function of the pair alone, so that the histogram
// does not depend on which block, thread or order takes the pair (the
// groups are handed out dynamically and pass 1 orders a shell's atoms by
// atomics): U = (i·kDitherI + j·kDitherJ) mod 2^32 for the pair's indices
// in the layout's i and j lists. Both steps are odd fractions of 2^32 from
// irrationals (2^32/φ, 2^32·(√2 − 1)), so over the pairs of a bin, whose
// indices the k-d order leaves scattered, the U are spread evenly; the
// kernel keeps i·kDitherI per lane and j·kDitherJ per staged atom, one add
// per pair.
constexpr std::uint32_t kDitherI = 0x9E3779B9u, kDitherJ = 0x6A09E667u;
NS_HIST_HD std::uint32_t dither_i(std::uint32_t i) { return i * kDitherI; }
NS_HIST_HD std::uint32_t dither_j(std::uint32_t j) { return j * kDitherJ; }

// The ring words a pair adds (lower word lo = floor(δ'·2^32), dither U =
// dither·2^-32) and their fields.
// q = floor(511·δ' + U) plus the count's 1 << 20, from one 64-bit
// multiply-add: lo·511 + dither ≤ 512·(2^32 − 1), so q ≤ 511 and nothing
// carries past the count's bit.
NS_HIST_HD std::uint32_t pair_word(std::uint32_t lo, std::uint32_t dither) {
  const std::uint64_t c = (std::uint64_t(1u << kCountShift) << 32) | dither;
  return std::uint32_t((std::uint64_t(lo) * kQLevels + c) >> 32);
}
// qa = floor(2^20·δ' + U): lo·2^20 + dither < 2^52 + 2^32, so qa ≤ 2^20.
// q2 = floor(2044·δ'(1 − δ') + U) plus the count's 1 << 20, from
// v = floor(δ'(1 − δ')·2^32) (one multiply-high of lo and its complement,
// v < 2^30) and one 64-bit multiply-add: v·2044 + dither < 511·2^32 +
// 2^32, so q2 ≤ 511 and nothing carries past the count's bit.
NS_HIST_HD std::uint32_t offset_word(std::uint32_t lo, std::uint32_t dither) {
  return std::uint32_t(((std::uint64_t(lo) << kOffsetShift) + dither) >> 32);
}
NS_HIST_HD std::uint32_t spread_fix(std::uint32_t lo) {
#ifdef __CUDA_ARCH__
  return __umulhi(lo, ~lo);
#else
  return std::uint32_t((std::uint64_t(lo) * ~lo) >> 32);
#endif
}
NS_HIST_HD std::uint32_t square_word(std::uint32_t lo, std::uint32_t dither) {
  const std::uint64_t c = (std::uint64_t(1u << kCountShift) << 32) | dither;
  return std::uint32_t((std::uint64_t(spread_fix(lo)) * kSpreadScale + c) >> 32);
}
NS_HIST_HD std::uint32_t word_count(std::uint32_t w) { return w >> kCountShift; }
NS_HIST_HD std::uint32_t word_sum(std::uint32_t w) { return w & ((1u << kCountShift) - 1); }

// What a kernel bin keeps (above). Kernel, pipeline, layout and emulation
// take a BinCode<…> as a template parameter (or BinWords where the choice
// is made at run time), so both layouts share every line but these.
enum class BinWords { one, two };

template <BinWords>
struct BinCode;

// A pair's words, word k in ring k (ring k starts at k·W).
template <int N>
struct RingWords {
  std::uint32_t w[N];
};

template <>
struct BinCode<BinWords::one> {
  static constexpr int kWords = 1;
  static constexpr int kGroupAtoms = 256;  // i atoms per group
  // Ring sizes (kernel bins) the kernel is built for, largest first;
  // 49152 fills an H100/H200 (227 KB of shared memory per block).
  static constexpr int kRingSizes[3] = {49152, 32768, 16384};
  // What the word loses, in bins of the histogram (Δr), per pair at worst
  // (unbiased: the worst case, not the typical noise): q/511 is within
  // 1/511 of δ', and add_fast_bins' Σδ² estimate is at most n/4 kernel
  // bins² from the truth.
  static constexpr double kOffsetError = 1.0 / double(kQLevels) / kSubBins;
  static constexpr double kSquareError = 0.25 / double(kSubBins * kSubBins);
  NS_HIST_HD static RingWords<1> words(std::uint32_t lo, std::uint32_t dither) { return {{pair_word(lo, dither)}}; }
  NS_HIST_HD static bool must_drain(const RingWords<1>& old) { return (old.w[0] & kDrainMask) != 0; }
  NS_HIST_HD static std::uint32_t count(const RingWords<1>& w) { return word_count(w.w[0]); }
  NS_HIST_HD static std::uint32_t sum(const RingWords<1>& w) { return word_sum(w.w[0]); }
  NS_HIST_HD static std::uint32_t sum2(const RingWords<1>&) { return 0; }
};

template <>
struct BinCode<BinWords::two> {
  static constexpr int kWords = 2;  // w[0]: the offset word, w[1]: the square word
  static constexpr int kGroupAtoms = 64;
  static constexpr int kRingSizes[3] = {24576, 16384, 8192};  // 24576: 227 KB, as above
  // qa/2^20 is within 2^-20 of δ', q2/2044 within 1/2044 of δ'(1 − δ')
  // (and the 2^-32 truncation in spread_fix).
  static constexpr double kOffsetError = 1.0 / double(kOffsetLevels) / kSubBins;
  static constexpr double kSquareError = (1.0 / double(kSpreadScale) + 0x1p-32) / double(kSubBins * kSubBins);
  NS_HIST_HD static RingWords<2> words(std::uint32_t lo, std::uint32_t dither) {
    return {{offset_word(lo, dither), square_word(lo, dither)}};
  }
  NS_HIST_HD static bool must_drain(const RingWords<2>& old) {
    return ((old.w[0] & kDrainOffset) | (old.w[1] & kDrainMask)) != 0;
  }
  NS_HIST_HD static std::uint32_t count(const RingWords<2>& w) { return word_count(w.w[1]); }
  NS_HIST_HD static std::uint32_t sum(const RingWords<2>& w) { return w.w[0]; }
  NS_HIST_HD static std::uint32_t sum2(const RingWords<2>& w) { return word_sum(w.w[1]); }
};

// The bin code's group size and error bounds where it is chosen at run time.
constexpr int group_atoms(BinWords b) {
  return b == BinWords::one ? BinCode<BinWords::one>::kGroupAtoms : BinCode<BinWords::two>::kGroupAtoms;
}
constexpr double offset_error(BinWords b) {
  return b == BinWords::one ? BinCode<BinWords::one>::kOffsetError : BinCode<BinWords::two>::kOffsetError;
}
constexpr double square_error(BinWords b) {
  return b == BinWords::one ? BinCode<BinWords::one>::kSquareError : BinCode<BinWords::two>::kSquareError;
}

// Distance D (bins) of a j atom from the group centre, correctly rounded on
// host and device alike, so both passes and the emulation agree.
NS_HIST_HD double centre_distance(const GroupGeometry& g, const PackedAtom& a) {
  const double x = a.x - g.cx, y = a.y - g.cy, z = a.z - g.cz;
  const double d2 = hist_fma(x, x, hist_fma(y, y, z * z));
#ifdef __CUDA_ARCH__
  return __dsqrt_rn(d2);
#else
  return std::sqrt(d2);
#endif
}

// Shell of a j atom at distance D (bins) from the group centre.
NS_HIST_HD int shell_of(const GroupGeometry& g, double d) {
  int s = int(d * g.inv_shell_width);
  s = s < 0 ? 0 : s;
  return s < g.nshell ? s : g.nshell - 1;
}

// Whether shell s is far enough from the group for the expanded r²
// (every pair at r ≥ s·w − (ρ − 1) ≥ kMmaGap).
NS_HIST_HD bool mma_shell(const GroupGeometry& g, int s) {
  return double(s) * g.shell_width - g.rho >= kMmaGap;
}

// First bin of the window while shell s is processed: every pair of the
// shell lies in [base, base + W) when shell_width + 2·rho + 8 ≤ W (a pair
// at r = D ± (rho − 1), D within a rounding of the shell, r within 2^-20 of
// ρ1); non-decreasing in s.
NS_HIST_HD int window_base(const GroupGeometry& g, int s) {
  const int b = int(std::floor(double(s) * g.shell_width - g.rho)) - 2;
  return b > 0 ? b : 0;
}

}  // namespace nanoscatter::debye::hist
