// CUDA path of the pair-distance histogram with per-bin moments
// (Σw, Σwδ, Σwδ², δ = r − bin centre), the input of the Taylor-corrected
// histogram mode.
//
// Fast path (every atom of a block has one weight, the usual occupancy-1
// case): unweighted pairs are histogrammed with integer counts and
// fixed-point moments and scaled by w_a·w_b at the end. Global atomics per
// pair cannot reach 10¹² pairs/s (that is ~4 pairs per SM per clock on 132
// SMs), and a 10⁶-atom CoO particle (264 Å across) has 2.6·10⁵ bins at
// Δr = 10⁻³ Å, far more than shared memory holds, so:
//  - the i atoms are ordered by k-d bisection and cut into compact groups of
//    hist::kGroupAtoms = 256 (centre c, radius ρ); one block (1024 threads,
//    ~220 KB of shared memory, one per SM, persistent over groups) takes a
//    group;
//  - pass 1 buckets the j atoms by D = |x_j − c| into shells (counting sort
//    into a per-block global scratch list);
//  - pass 2 walks the shells outwards with a ring buffer of W kernel bins
//    in shared memory (whole bins, hist::kSubBins = 1; one 32-bit word
//    each, 49152 bins = 49 Å at Δr = 1e-3 Å) that covers [D − ρ, D + width
//    + ρ] (shells ~18 Å wide for a CoO group of 256): bins that fall
//    below the window are flushed to the global histogram with integer
//    atomics (exact, so the result does not depend on the order), and the
//    rest of the ring moves down (it never wraps: slot = bin − base). The group's atoms and the staged j atoms are kept relative
//    to c (hist::Centred). In far shells (every
//    pair at r ≥ kMmaGap bins) of full groups, r² comes from the float64
//    tensor cores: one DMMA (m8n8k4) gives the 64 r² of 8 i × 8 j atoms,
//    kMmaWarps = 8 warps cover the group against a tile of 8 j atoms. Near
//    shells, short groups and the last n mod 8 atoms of a batch take the
//    direct difference, each warp on one j atom, kPerLane i atoms per
//    lane. In a
//    triangle the group's own pairs (j > i) are taken first, at bin 0, so
//    the shells hold only later atoms. Per pair: rsqrt seed and one Newton
//    step in float64, one DADD.RM onto a fixed-point grid for bin and δ,
//    one 32-bit shared atomic ([count | Σq] of its bin) and one
//    rare-drain branch (histogram_pair_math.hpp gives the arithmetic, the
//    precision, the capacity argument and how Σδ² comes from the bins).
//    SASS (sm_90, CUDA 13, kernel <false, 49152>, DMMA loop): 138 issue
//    slots per 8 pairs a lane (MUFU, DMUL, 2 DFMA, DADD.RM, ~4 integer,
//    ATOMS, the drain test as LOP3, VOTE and a uniform branch, per pair,
//    plus the DMMA, its fragments and the loop); the next tile's distances
//    are computed before this tile's atomics (their drain branches would
//    hold them back). 64 registers, no spills.
//  - Seventh session (bench/results/2026-11-21-debye-histogram-drain-on-old.md),
//    H200, 10⁶-atom CoO, kernel times by CUDA events (Co–Co, Co–O): 130.4,
//    273.8 ms before; a ring that moves its contents instead of wrapping
//    (one LEA per pair for the address instead of a subtraction, a min and
//    the LEA) 127.6, 266.3; with the drain test as a warp vote 127.0,
//    265.8; with [count : 12 | Σq : 20] (δ to 2^-9, half the drains of
//    crowded bins) 125.0, 261.9; with the drain decided on the old word (no
//    add before the test) 119.9, 254.9 (kept: 137 SASS slots per 8 pairs in
//    the DMMA loop against 163). Then C = the row's |v|² held in registers
//    (A = (−2v, 1), B = (u, n2): no shuffles or selects per j tile): queued
//    Co–Co + Co–O 0.404–0.410 → 0.398–0.401 s. Not kept: kMmaTiles = 8
//    (16.5 slots per pair instead of 17.1, but 24 bytes spilled); C as one
//    16-byte load from a separate n2 array (130 slots per 8 pairs against
//    138, no measurable gain: the loop is latency-bound, each pair's drain
//    test waiting for its atomic).
//  - Sixth session (bench/results/2026-11-21-debye-histogram-whole-bins.md):
//    ablations on the H200 (1e6-atom CoO, groups of 64 in a half-bin ring)
//    put pass 1 at ~10 % of the kernels' time, the staging and per-shell
//    work at ~10 %, and showed that conflict-free ring slots gain nothing
//    (so the bank conflicts below do not bound the kernel) while dropping
//    the Newton step gains ~20 %. Whole bins with groups of 256 (kept)
//    took the Co–Co triangle from 174 to 130 ms and Co–O from 343 to
//    273 ms; groups of 128: 139 / 282 ms; groups of 512 (the ring
//    unchanged, 256 staged atoms): 20 % slower than 256. Pass 1 with float
//    positions: −2 % (at groups of 64; now a quarter of that), not kept;
//    pass-1 shell counters claimed once per warp (ballot/shuffle): slower.
//  - Where the time went with groups of 64 in a half-bin ring (Nsight Compute, H200 at 1.98 GHz, 1e6-atom CoO,
//    Co triangle, 1.25e11 pairs in 167 ms): 26.3 warp instructions and 7.2
//    L1/TEX wavefronts per 32 pairs over the whole kernel, issue 59 % and
//    the data pipe 64 % busy, 1.1 of 8 warps per scheduler eligible (each
//    warp waits for every pair's atomic, whose old value the drain test
//    needs, but two atomics in flight per thread gained only 2 %). Stalls
//    (% of active warp cycles): fixed-latency waits 23 (the float64 chain
//    per pair), short scoreboard 15, math-pipe throttle 12, long
//    scoreboard 11 (pass 1, gathers), barrier 8. The ATOMS take 4.6
//    wavefronts each (on a crystal many lanes of a warp share a half bin,
//    and lanes on one address serialise; 3.53 for random slots; host
//    model: BankConflictModel in tests/unit/test_debye_histogram_gpu_math.cpp).
//  - Tried and measured, not kept (bench/results/2026-11-21-debye-histogram-dmma.md,
//    2026-11-21-debye-histogram-half-bins.md):
//    * two words per full bin, [count | Σ(δ' − ½)² to 2^-12] and Σδ' to
//      2^-20 (exact Σδ²): two ATOMS per pair, 8.8 wavefronts per 32 pairs,
//      the pipe 86 % busy; 10 % slower end to end than one word per half bin;
//    * one packed 32-bit word per pair ([count : 5 | Σq1 : 18 | Σq2 : 9],
//      δ to 2^-14 bin) with exact carry accounting into a second word per
//      bin: 2.0 ATOMS and 5.6 wavefronts per 32 pairs, the pipe at 54 %,
//      but 38 warp instructions per 32 pairs (carry detection, and the
//      second word's add runs in ~93 % of warp steps because ~8 % of lanes
//      carry): issue-bound, 10 % slower than two words, and coarser;
//    * lanes with the same slot and word merged by __match_any_sync before
//      the atomic: 6 % fewer atomic wavefronts, but MATCH.ANY.U64 made the
//      kernel 8× slower;
//    * pass 1 scattering each run of 1024 j atoms in a scrambled order, so
//      that a tile's atoms lie far apart: 9 % fewer atomic wavefronts, but
//      the scattered staging loads cost more (Co triangle 167 → 177 ms);
//    * 768 threads per block (more registers, fewer warps): 12 % slower;
//    * two atomics in flight per thread before the drain tests: 2 %
//      faster, but the fields then need room for two pending adds per
//      thread and δ drops to 2^-8 of a half bin;
//    * DMMA tiles strided through the group and the batch: 5 % fewer
//      wavefronts per ATOMS (3.85), but the permuted staging cost more
//      (5 % slower).
//    (Nsight's "shared store" line is the j staging, 32-byte STS.128 at
//    8 wavefronts each, and the flush stores.)
// Other blocks (weights differ within a or b) take the generic kernel: one
// float64 record per bin, three global float64 atomics per pair.
#include <algorithm>
#include <climits>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "core/cuda_stream.cuh"
#include "core/device_buffer.cuh"
#include "core/stream_buffer.cuh"
#include "debye/atom_pack.cuh"
#include "debye/histogram_layout.hpp"
#include "debye/histogram_pair_math.hpp"
#include "debye/pair_sums.hpp"
#include "debye/pair_tiles.hpp"

namespace nanoscatter::debye {
namespace {

using hist::Centred;
using hist::GroupGeometry;
using hist::PackedAtom;
using ull = unsigned long long;

// ---- fast path ---------------------------------------------------------------

constexpr int kThreads = 1024;  // 32 warps: latency of the shared atomics and the MUFU hidden
constexpr int kWarps = kThreads / 32;
constexpr int kStage = 512;  // j atoms staged in shared memory per batch
constexpr int kMmaTiles = 4;  // i tiles of 8 atoms per warp (its A fragments stay in registers)
constexpr int kMmaWarps = hist::kGroupAtoms / (8 * kMmaTiles);  // warps that cover a group in the DMMA loop
constexpr int kPerLane = hist::kGroupAtoms / 32;                // i atoms per lane in the scalar path
static_assert(kMmaWarps * kMmaTiles * 8 == hist::kGroupAtoms && kWarps % kMmaWarps == 0,
              "whole warps' DMMA tiles cover a group");
static_assert(kPerLane * 32 == hist::kGroupAtoms, "the scalar path gives every lane the same number of i atoms");
static_assert(kStage <= kThreads && kStage % 8 == 0, "one staged atom per thread, whole j tiles");
static_assert(kThreads <= int(hist::kMaxAdders), "ring capacity assumes at most kMaxAdders threads");

// Ring sizes (kernel bins, one word each) the kernel is built for, largest
// first. 49152 fills an H100/H200 (227 KB of shared memory per block).
constexpr int kRingSizes[] = {49152, 32768, 16384};

struct FastArgs {
  const PackedAtom* a;  // i atoms (sorted)
  const PackedAtom* j;  // j atoms (triangle: == a)
  int nj;
  const GroupGeometry* groups;
  int ngroups;
  int* next_group;
  int* scratch;  // gridDim.x lists of nj indices
  long long scratch_stride;
  FastBin* bins;
  int nbins;
  unsigned* overflow;
};

std::size_t fast_shared_bytes(int window) {
  return std::size_t(window) * sizeof(unsigned) + (kStage + hist::kGroupAtoms) * sizeof(Centred) +
         kStage * sizeof(unsigned) + (2 * hist::kMaxShells + 1) * sizeof(int);
}

// A ring word of kernel bin k to the global bins (k < nbins, else an overflow).
__device__ __forceinline__ void word_to_global(const FastArgs& p, int k, unsigned word) {
  if (k >= p.nbins) {
    atomicAdd(p.overflow, 1u);
    return;
  }
  atomicAdd(reinterpret_cast<ull*>(&p.bins[k].count), ull(hist::word_count(word)));
  if (const unsigned sum = hist::word_sum(word)) atomicAdd(reinterpret_cast<ull*>(&p.bins[k].sum), ull(sum));
}

// The window while a shell is processed: ring slot k holds bin base + k;
// magic = hist::window_magic(base).
struct Window {
  double magic;
  int base;
};

__device__ __forceinline__ Window window_at(int base) { return {hist::window_magic(base), base}; }

// Ring slots [0, n) to the global histogram (bins base + slot), zeroed
// (block-wide; the caller synchronises before the ring is used again).
__device__ void flush_slots(unsigned* ring, int base, int n, const FastArgs& p) {
  for (int k = int(threadIdx.x); k < n; k += kThreads) {
    const unsigned word = ring[k];
    if (word == 0) continue;
    ring[k] = 0;
    word_to_global(p, base + k, word);
  }
}

// Moves the window from bin `base` up to bin `next` (block-wide, between
// barriers): the bins below `next` go to the global histogram and the rest
// move down the ring, so that slot k holds bin next + k. The ring never
// wraps, which saves the per-pair wrap (two instructions of ~17); the move
// costs ~2W/kThreads shared accesses per thread, a few per 10⁵ pairs.
template <int W>
__device__ void move_window(unsigned* ring, int base, int next, const FastArgs& p) {
  const int shift = min(next - base, W), keep = W - shift;
  flush_slots(ring, base, shift, p);
  constexpr int kChunk = 8;  // words per thread and round, held in registers across the barrier
  for (int lo = 0; lo < keep; lo += kThreads * kChunk) {
    unsigned v[kChunk];
#pragma unroll
    for (int c = 0; c < kChunk; ++c) {
      const int k = lo + c * kThreads + int(threadIdx.x);
      v[c] = k < keep ? ring[k + shift] : 0u;
    }
    __syncthreads();  // every read of this round (and the flush) before its writes
#pragma unroll
    for (int c = 0; c < kChunk; ++c) {
      const int k = lo + c * kThreads + int(threadIdx.x);
      if (k < keep) ring[k] = v[c];
    }
    __syncthreads();  // the next round reads above what this one wrote; the last one's writes before the zeroing
  }
  for (int k = keep + int(threadIdx.x); k < W; k += kThreads) ring[k] = 0;
}

// One pair into the ring from its r² (kernel bins²): one shared atomic, no
// range check (the layout keeps every pair of a shell in the window) and no
// branch but the rare drain, tested on the old word (histogram_pair_math.hpp).
// WholeWarp: every lane of the warp is here, so the drain test is one vote
// and a uniform branch instead of a divergent branch and its reconvergence
// (two instructions fewer per pair); a drain then runs with the lanes that
// need it.
template <bool WholeWarp>
__device__ __forceinline__ void add_fix(const hist::PairFix& f, const Window& win, unsigned* ring, const FastArgs& p,
                                        unsigned dither) {
  const unsigned old = atomicAdd(&ring[f.hi], hist::pair_word(f.lo, dither));
  const bool drain = hist::must_drain(old);
  if (WholeWarp ? __any_sync(0xffffffffu, drain) : drain) {
    if (drain) word_to_global(p, win.base + int(f.hi), atomicExch(&ring[f.hi], 0u));
    if (WholeWarp) __syncwarp();
  }
}

template <bool WholeWarp>
__device__ __forceinline__ void add_r2(double r2, const Window& win, unsigned* ring, const FastArgs& p,
                                       unsigned dither) {
  add_fix<WholeWarp>(hist::pair_fix_r2(r2, win.magic), win, ring, p, dither);
}

// r² of the 8×8 pairs of an i tile (rows) and a j tile (columns) on the
// float64 tensor cores: A = (−2v, 1) per i atom, B = (u, |u|²) per j atom,
// C = |v|² per row (hist::Centred; the sum |u|² + |v|² − 2u·v in another
// order than hist::expanded_r2's, within the same bound). Lane l holds
// A[l/4][l%4], B[l%4][l/4] and C, D at [l/4][2(l%4)] and [l/4][2(l%4) + 1]:
// both of its C entries are its row's |v|², so C stays in registers.
__device__ __forceinline__ void dmma_r2(double& d0, double& d1, double a, double b, double c0, double c1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
      : "=d"(d0), "=d"(d1)
      : "d"(a), "d"(b), "d"(c0), "d"(c1));
#else
  d0 = d1 = 0;  // not reached: the kernel takes the scalar path below sm_80
  (void)a, (void)b, (void)c0, (void)c1;
#endif
}

// Exclusive scan of counts[0, n) into starts[0, n] (starts[n] = total);
// counts[k] becomes starts[k] (the scatter cursor).
__device__ void scan_shells(int* counts, int* starts, int n, int* warp_sums) {
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int per = (n + kThreads - 1) / kThreads;
  const int lo = min(n, tid * per), hi = min(n, lo + per);
  int local = 0;
  for (int k = lo; k < hi; ++k) local += counts[k];
  int v = local;
  for (int o = 1; o < 32; o <<= 1) {
    const int t = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o) v += t;
  }
  if (lane == 31) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int w = lane < kWarps ? warp_sums[lane] : 0;
    for (int o = 1; o < 32; o <<= 1) {
      const int t = __shfl_up_sync(0xffffffffu, w, o);
      if (lane >= o) w += t;
    }
    if (lane < kWarps) warp_sums[lane] = w;
  }
  __syncthreads();
  int prefix = v - local + (warp > 0 ? warp_sums[warp - 1] : 0);
  for (int k = lo; k < hi; ++k) {
    const int c = counts[k];
    starts[k] = prefix;
    counts[k] = prefix;
    prefix += c;
  }
  if (lo < hi && hi == n) starts[n] = prefix;
}

// Staged j atoms [from, n) against the group's i atoms, one j atom per warp
// and step, kPerLane i atoms per lane (read from shared memory: this path
// takes few pairs), r² by direct difference. Full groups have no per-pair
// test; a short group's padding lanes skip their pairs.
// dither_i: hist::dither_i of the lane's first i atom (lane + 32k adds
// 32k·kDitherI); stage_dither: hist::dither_j of each staged atom.
template <bool Full>
__device__ __forceinline__ void pair_batch(const Centred* stage, const unsigned* stage_dither, int from, int n,
                                           const Centred* igroup, int count, unsigned dither_i, const Window& win,
                                           unsigned* ring, const FastArgs& p) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int jj = from + warp; jj < n; jj += kWarps) {
    const Centred aj = stage[jj];
    const unsigned dj = stage_dither[jj] + dither_i;
#pragma unroll
    for (int k = 0; k < kPerLane; ++k)
      if (Full || lane + 32 * k < count)
        add_r2<Full>(hist::centred_r2(igroup[lane + 32 * k], aj), win, ring, p, dj + 32u * k * hist::kDitherI);
  }
}

// Staged j atoms [0, n) of a far shell against a full group: whole j tiles
// of 8 on the tensor cores (kMmaWarps warps per tile, each warp its four i
// tiles, A fragments fa), the last n mod 8 atoms by pair_batch.
// fi: hist::dither_i of the lane's row in each i tile; dither_i as pair_batch.
__device__ __forceinline__ void mma_batch(const Centred* stage, const unsigned* stage_dither, int n,
                                          const Centred* igroup, const double (&fa)[kMmaTiles],
                                          const double (&fc)[kMmaTiles], const unsigned (&fi)[kMmaTiles],
                                          unsigned dither_i, const Window& win, unsigned* ring, const FastArgs& p) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, t = lane & 3;
  const int tiles = n >> 3;
  for (int jt = warp / kMmaWarps; jt < tiles; jt += kWarps / kMmaWarps) {
    __syncwarp();  // the DMMA needs the whole warp
    // B: component t of atom lane/4 as stored (x, y, z, n2), one load per
    // lane; C, the rows' n2, stays in registers for the whole group.
    const double b = (&stage[8 * jt + (lane >> 2)].x)[t];
    // Software-pipelined: tile m + 1's distances are computed before tile
    // m's atomics, whose drain branches would otherwise hold them back.
    // The lane's D entries are columns 2t and 2t + 1 of the j tile.
    const unsigned dj0 = stage_dither[8 * jt + 2 * t], dj1 = stage_dither[8 * jt + 2 * t + 1];
    double d0, d1;
    dmma_r2(d0, d1, fa[0], b, fc[0], fc[0]);
    hist::PairFix f0 = hist::pair_fix_r2(d0, win.magic), f1 = hist::pair_fix_r2(d1, win.magic);
#pragma unroll
    for (int m = 1; m < kMmaTiles; ++m) {
      dmma_r2(d0, d1, fa[m], b, fc[m], fc[m]);
      const hist::PairFix g0 = hist::pair_fix_r2(d0, win.magic), g1 = hist::pair_fix_r2(d1, win.magic);
      add_fix<true>(f0, win, ring, p, fi[m - 1] + dj0);
      add_fix<true>(f1, win, ring, p, fi[m - 1] + dj1);
      f0 = g0;
      f1 = g1;
    }
    add_fix<true>(f0, win, ring, p, fi[kMmaTiles - 1] + dj0);
    add_fix<true>(f1, win, ring, p, fi[kMmaTiles - 1] + dj1);
  }
  pair_batch<true>(stage, stage_dither, tiles * 8, n, igroup, hist::kGroupAtoms, dither_i, win, ring, p);
}

template <bool Triangle, int W>
__global__ void __launch_bounds__(kThreads, 1) fast_histogram_kernel(FastArgs p) {
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ int group_id;
  __shared__ int warp_sums[kWarps];
  Centred* stage = reinterpret_cast<Centred*>(smem);
  Centred* igroup = stage + kStage;
  unsigned* ring = reinterpret_cast<unsigned*>(igroup + hist::kGroupAtoms);
  unsigned* stage_dither = ring + W;  // hist::dither_j of each staged atom
  int* shell_n = reinterpret_cast<int*>(stage_dither + kStage);
  int* shell_at = shell_n + hist::kMaxShells;
  int* scratch = p.scratch + blockIdx.x * p.scratch_stride;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  for (int k = tid; k < W; k += kThreads) ring[k] = 0;

  for (;;) {
    __syncthreads();
    if (tid == 0) group_id = atomicAdd(p.next_group, 1);
    __syncthreads();
    const int gi = group_id;
    if (gi >= p.ngroups) break;
    const GroupGeometry g = p.groups[gi];

    // Pass 1: counting sort of the j atoms by shell; the group's atoms
    // relative to its centre. A group has a few shells (~8 across a
    // 10⁶-atom particle), so a warp's 32 atoms mostly share one: lanes that
    // add to one shared word are serialised, so the lanes of a shell add
    // once, through their lowest lane (warp-aggregated), and take
    // consecutive places. Warps step through the j atoms together (lane l
    // of warp w: j_first + 32w + l + k·kThreads, as thread 32w + l did).
    for (int s = tid; s < g.nshell; s += kThreads) shell_n[s] = 0;
    if (tid < hist::kGroupAtoms) igroup[tid] = tid < g.count ? hist::centred(g, p.a[g.first + tid]) : Centred{};
    __syncthreads();
    const auto shell_at_j = [&](int j) { return j < p.nj ? hist::shell_of(g, hist::centre_distance(g, p.j[j])) : -1; };
    for (int j0 = g.j_first + 32 * warp; j0 < p.nj; j0 += kThreads) {
      const int s = shell_at_j(j0 + lane);
      const unsigned peers = __match_any_sync(0xffffffffu, s);
      if (s >= 0 && lane == __ffs(peers) - 1) atomicAdd(&shell_n[s], __popc(peers));
    }
    __syncthreads();
    scan_shells(shell_n, shell_at, g.nshell, warp_sums);
    __syncthreads();
    for (int j0 = g.j_first + 32 * warp; j0 < p.nj; j0 += kThreads) {
      const int s = shell_at_j(j0 + lane);
      const unsigned peers = __match_any_sync(0xffffffffu, s);
      const int leader = __ffs(peers) - 1;
      int at = 0;
      if (s >= 0 && lane == leader) at = atomicAdd(&shell_n[s], __popc(peers));
      at = __shfl_sync(0xffffffffu, at, leader);
      if (s >= 0) scratch[at + __popc(peers & ((1u << lane) - 1u))] = j0 + lane;
    }
    __syncthreads();

    // Pass 2: the window starts at bin 0 (the group's own pairs, r ≤ 2ρ)
    // and follows the shells outwards.
    Window win = window_at(0);
    if (Triangle) {  // pairs within the group: j > i
      for (int jj = warp; jj < g.count; jj += kWarps) {
        const Centred aj = igroup[jj];
        for (int i = lane; i < jj; i += 32) add_r2<false>(hist::centred_r2(igroup[i], aj), win, ring, p,
                                                   hist::dither_i(g.first + i) + hist::dither_j(g.first + jj));
      }
    }
    const bool full = g.count == hist::kGroupAtoms;
    // DMMA fragments of this warp's part of the group: i tile m holds atoms
    // 32·part + 8m + row (row = lane / 4); A: component lane % 4 of (−2v, 1),
    // C: |v|² of the lane's row (both of its C entries are in that row).
    // fi: the dither term of the lane's row (hist::dither_i of its index).
    double fa[kMmaTiles], fc[kMmaTiles];
    unsigned fi[kMmaTiles];
    {
      const int part = warp % kMmaWarps, t = lane & 3;
#pragma unroll
      for (int m = 0; m < kMmaTiles; ++m) {
        const int row = 8 * kMmaTiles * part + 8 * m + (lane >> 2);
        const Centred ci = igroup[row];
        fa[m] = t == 3 ? 1.0 : -2.0 * (t == 0 ? ci.x : t == 1 ? ci.y : ci.z);
        fc[m] = ci.n2;
        fi[m] = hist::dither_i(unsigned(g.first + row));
      }
    }
    const unsigned dither_i = hist::dither_i(unsigned(g.first + lane));  // pair_batch's lane + 32k
    for (int s = 0; s < g.nshell; ++s) {
      const int begin = shell_at[s], end = shell_at[s + 1];
      if (begin == end) continue;
      const int next_base = hist::window_base(g, s);
      if (next_base > win.base) {
        __syncthreads();  // the pairs so far are in the ring
        move_window<W>(ring, win.base, next_base, p);
        win = window_at(next_base);
        __syncthreads();
      }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      const bool mma = full && hist::mma_shell(g, s);
#else
      const bool mma = false;
#endif
      // Batches of kStage j atoms; each thread fetches its atom of the next
      // batch while the block works on this one (hides the L2 latency).
      PackedAtom next{};
      int next_j = 0;
      if (tid < min(kStage, end - begin)) next = p.j[next_j = scratch[begin + tid]];
      for (int b0 = begin; b0 < end; b0 += kStage) {
        const int n = min(kStage, end - b0);
        if (tid < n) {
          stage[tid] = hist::centred(g, next);
          stage_dither[tid] = hist::dither_j(unsigned(next_j));
        }
        __syncthreads();
        if (tid < min(kStage, end - b0 - kStage)) next = p.j[next_j = scratch[b0 + kStage + tid]];
        if (mma)
          mma_batch(stage, stage_dither, n, igroup, fa, fc, fi, dither_i, win, ring, p);
        else if (full)
          pair_batch<true>(stage, stage_dither, 0, n, igroup, g.count, dither_i, win, ring, p);
        else
          pair_batch<false>(stage, stage_dither, 0, n, igroup, g.count, dither_i, win, ring, p);
        __syncthreads();
      }
    }
    __syncthreads();
    flush_slots(ring, win.base, W, p);
  }
}

// Largest ring of kRingSizes whose shared memory this device grants a
// block (0: none, the generic kernel runs).
int fast_window_for_device() {
  int device = 0, optin = 0;
  NS_CUDA_CHECK(cudaGetDevice(&device));
  NS_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const std::size_t static_bytes = 256;  // group_id, warp_sums
  for (const int w : kRingSizes)
    if (fast_shared_bytes(w) + static_bytes <= std::size_t(optin)) return w;
  return 0;
}

// Device bytes of one fast call besides the per-block scratch lists.
std::size_t fast_fixed_bytes(std::size_t bins, std::size_t na, std::size_t nb, PairSet set) {
  const std::size_t atoms = set == PairSet::triangle ? na : na + nb;
  const std::size_t groups = (na + hist::kGroupAtoms - 1) / hist::kGroupAtoms;
  return bins * sizeof(FastBin) + atoms * sizeof(PackedAtom) + groups * sizeof(GroupGeometry) + (1 << 16);
}

template <int W>
void launch_fast(bool triangle, int blocks, const FastArgs& args, cudaStream_t stream) {
  const std::size_t smem = fast_shared_bytes(W);
  const auto kernel = triangle ? fast_histogram_kernel<true, W> : fast_histogram_kernel<false, W>;
  NS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  kernel<<<blocks, kThreads, smem, stream>>>(args);
  NS_CUDA_CHECK_LAUNCH();
}

// A launched fast histogram: its device buffers and where its bins go.
struct FastRun {
  StreamBuffer<PackedAtom> d_a, d_b;
  StreamBuffer<GroupGeometry> d_groups;
  StreamBuffer<FastBin> d_bins;
  StreamBuffer<int> d_counters, d_scratch;
  CudaEvent done;  // recorded on `compute` after the kernel
  PairHistogram* hist = nullptr;
  double r_max = 0;  // the histogram is sized for it when the bins arrive
  double weight = 0;
};

// The fast path's pipeline: kernels run on the two `compute` streams in
// turn; every buffer is allocated, filled, read back and freed on `copy`
// (stream-ordered, so neither waits for the device). A block's upload
// overlaps the kernel before it, and its kernel, on the other stream, is
// queued while that one runs: its blocks take the SMs that the one before
// leaves idle at its end (a rectangle of 1953 groups of ~17 ms on 132 SMs
// leaves a fifth of them idle for a group's time). The one before is read
// back and added up on the host meanwhile. Two runs hold device memory at a
// time (histogram_block halves the budget for it), so a stream's previous
// kernel has always ended, and been collected, before it gets the next.
struct FastPipeline {
  CudaStream compute[2], copy;
  int turn = 0;  // the compute stream of the next kernel
  std::unique_ptr<FastRun> pending;  // launched, not collected; goes before the streams
};

// Waits for the run's kernel and adds its bins to its histogram; its
// buffers are then freed behind the read-back on `copy`.
void collect(FastRun& run, const FastPipeline& pipe) {
  run.done.make_wait(pipe.copy.get());
  if (run.d_counters.download()[1] != 0) fail("pair_histogram_cuda: a pair distance fell beyond the last bin");
  const UninitVector<FastBin> bins = run.d_bins.download();
  run.hist->resize_for(run.r_max);  // done at launch; kept for a histogram another block grew since
  add_fast_bins(bins, run.weight, *run.hist);
}

// Collects the pending run, if any.
void drain(FastPipeline& pipe) {
  if (!pipe.pending) return;
  const std::unique_ptr<FastRun> run = std::move(pipe.pending);
  collect(*run, pipe);  // the copy stream waits for its kernel, then frees its buffers
}

// Lays the block out on the host (while the device runs the pending block),
// queues its kernel behind that block's, then collects the pending block
// and leaves this one pending in its place.
void fast_histogram_on_device(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                              double r_max, int window, std::size_t budget, FastPipeline& pipe) {
  const bool triangle = set == PairSet::triangle;
  const FastHistogramLayout layout = make_fast_layout(a, b, set, hist.bin_width / hist::kSubBins, window);
  const auto& jatoms = layout.j_atoms();
  const std::size_t nj = jatoms.size();
  if (layout.a.empty() || nj == 0) {  // no pairs: the histogram only gets its size
    hist.resize_for(r_max);
    return;
  }
  const cudaStream_t copy = pipe.copy.get(), compute = pipe.compute[pipe.turn].get();
  auto run = std::make_unique<FastRun>();
  run->d_a = StreamBuffer<PackedAtom>(layout.a, copy);
  if (!triangle) run->d_b = StreamBuffer<PackedAtom>(layout.b, copy);
  run->d_groups = StreamBuffer<GroupGeometry>(layout.groups, copy);
  run->d_bins = StreamBuffer<FastBin>(std::size_t(layout.bins), copy);
  run->d_bins.zero();
  run->d_counters = StreamBuffer<int>(2, copy);  // next group, overflow
  run->d_counters.zero();
  run->hist = &hist;
  run->r_max = r_max;
  run->weight = a.w[0] * (triangle ? a.w[0] : b.w[0]);

  const std::size_t fixed = fast_fixed_bytes(std::size_t(layout.bins), a.size(), b.size(), set);
  const std::size_t per_block = nj * sizeof(int);
  const std::size_t affordable = budget > fixed ? (budget - fixed) / per_block : 1;
  const int blocks = int(std::max<std::size_t>(
      1, std::min({affordable, std::size_t(multiprocessor_count()), layout.groups.size()})));
  run->d_scratch = StreamBuffer<int>(std::size_t(blocks) * nj, copy);
  CudaEvent ready;  // the buffers above are in place
  ready.record(copy);
  ready.make_wait(compute);

  FastArgs args{};
  args.a = run->d_a.data();
  args.j = triangle ? run->d_a.data() : run->d_b.data();
  args.nj = int(nj);
  args.groups = run->d_groups.data();
  args.ngroups = int(layout.groups.size());
  args.next_group = run->d_counters.data();
  args.scratch = run->d_scratch.data();
  args.scratch_stride = static_cast<long long>(nj);
  args.bins = run->d_bins.data();
  args.nbins = layout.bins;
  args.overflow = reinterpret_cast<unsigned*>(run->d_counters.data() + 1);
  static_assert(sizeof(kRingSizes) / sizeof(int) == 3, "one launch branch per ring size");
  if (window == kRingSizes[0])
    launch_fast<kRingSizes[0]>(triangle, blocks, args, compute);
  else if (window == kRingSizes[1])
    launch_fast<kRingSizes[1]>(triangle, blocks, args, compute);
  else
    launch_fast<kRingSizes[2]>(triangle, blocks, args, compute);
  run->done.record(compute);
  pipe.turn ^= 1;
  // This run becomes the pending one before the previous is collected: if
  // collecting throws, the queue's destructor still waits for this kernel
  // before its buffers are freed.
  std::unique_ptr<FastRun> previous = std::exchange(pipe.pending, std::move(run));
  // Sized while the kernels run (a fresh histogram's zero-fill and page
  // faults, ~2 ms for 2.6e5 bins, would otherwise follow the last kernel).
  hist.resize_for(r_max);
  if (previous) collect(*previous, pipe);
}

// ---- generic path (weights differ within a block) ----------------------------

constexpr int kTile = 128;  // atoms per i tile (threads per block) and per j tile
constexpr int kRun = 16;    // j tiles per work item
constexpr int kMaxItemsPerLaunch = 1 << 16;

struct BinMoments {
  double count, sum_d, sum_d2;
};

// Same tiling as the exact kernel (i tile per block, runs of j tiles in
// shared memory). Distances in float64 so that δ keeps its digits at any r.
// The three moments of a bin sit in one 24-byte record, so its three atomic
// adds touch one memory sector.
template <bool Triangle>
__global__ void __launch_bounds__(kTile) histogram_kernel(const Atom4<double>* __restrict__ a, int na,
                                                          const Atom4<double>* __restrict__ b, int nb,
                                                          const PairWorkItem* __restrict__ items,
                                                          double bin_width, long long nbins,
                                                          BinMoments* __restrict__ bins,
                                                          unsigned* __restrict__ overflow) {
  __shared__ Atom4<double> tile[kTile];
  const PairWorkItem item = items[blockIdx.x];
  const int i = item.i_tile * kTile + threadIdx.x;
  const Atom4<double> ai = i < na ? a[i] : Atom4<double>{0, 0, 0, 0};
  const double inv_width = 1.0 / bin_width;
  for (int jt = item.j_begin; jt < item.j_end; ++jt) {
    const int j = jt * kTile + threadIdx.x;
    __syncthreads();
    tile[threadIdx.x] = j < nb ? b[j] : Atom4<double>{0, 0, 0, 0};
    __syncthreads();
    const int j_lo = (Triangle && jt == item.i_tile) ? threadIdx.x + 1 : 0;
    for (int jj = j_lo; jj < kTile; ++jj) {
      const Atom4<double> bj = tile[jj];
      const double w = ai.w * bj.w;
      if (w == 0.0) continue;  // padding (w = 0) and vacant sites add nothing
      const double dx = ai.x - bj.x, dy = ai.y - bj.y, dz = ai.z - bj.z;
      const double d2 = fma(dx, dx, fma(dy, dy, dz * dz));
      const double r = sqrt(d2);  // correctly rounded, as on the CPU
      const long long bin = static_cast<long long>(r * inv_width);
      if (bin >= nbins) {
        atomicAdd(overflow, 1u);
        continue;
      }
      const double delta = r - (static_cast<double>(bin) + 0.5) * bin_width;
      BinMoments* m = bins + bin;
      atomicAdd(&m->count, w);
      atomicAdd(&m->sum_d, w * delta);
      atomicAdd(&m->sum_d2, w * delta * delta);
    }
  }
}

void generic_histogram_on_device(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                                 std::size_t nbins_needed) {
  const bool triangle = set == PairSet::triangle;
  const Origin origin = block_bounds(a, b).centre;
  DeviceBuffer<Atom4<double>> d_a(pack_atoms<double>(a, origin));
  DeviceBuffer<Atom4<double>> d_b;
  if (!triangle) d_b = DeviceBuffer<Atom4<double>>(pack_atoms<double>(b, origin));
  const Atom4<double>* pb = triangle ? d_a.data() : d_b.data();
  const int na = static_cast<int>(a.size()), nb = static_cast<int>(triangle ? a.size() : b.size());

  const auto nbins = static_cast<long long>(nbins_needed);
  DeviceBuffer<BinMoments> d_bins(nbins_needed);
  d_bins.zero();
  DeviceBuffer<unsigned> d_overflow(1);
  d_overflow.zero();

  const auto items = make_pair_work(na, nb, set, kTile, kRun);
  DeviceBuffer<PairWorkItem> d_items(items);
  for (std::size_t first = 0; first < items.size(); first += kMaxItemsPerLaunch) {
    const auto count = static_cast<unsigned>(std::min<std::size_t>(kMaxItemsPerLaunch, items.size() - first));
    if (triangle)
      histogram_kernel<true><<<count, kTile>>>(d_a.data(), na, pb, nb, d_items.data() + first, hist.bin_width,
                                               nbins, d_bins.data(), d_overflow.data());
    else
      histogram_kernel<false><<<count, kTile>>>(d_a.data(), na, pb, nb, d_items.data() + first, hist.bin_width,
                                                nbins, d_bins.data(), d_overflow.data());
    NS_CUDA_CHECK_LAUNCH();
  }
  NS_CUDA_CHECK(cudaDeviceSynchronize());
  if (d_overflow.download()[0] != 0) fail("pair_histogram_cuda: a pair distance fell beyond the last bin");
  const auto bins = d_bins.download();
  for (std::size_t k = 0; k < bins.size(); ++k) {
    hist.count[k] += bins[k].count;
    hist.sum_d[k] += bins[k].sum_d;
    hist.sum_d2[k] += bins[k].sum_d2;
  }
}

// A block's atoms grouped by weight (in order of first appearance, each
// group in the block's order), or nothing when there are more than
// kMaxWeightClasses distinct weights.
constexpr std::size_t kMaxWeightClasses = 8;

std::vector<AtomBlock> weight_classes(const AtomBlock& block) {
  std::vector<AtomBlock> classes;
  for (std::size_t i = 0; i < block.size(); ++i) {
    std::size_t c = 0;
    while (c < classes.size() && classes[c].w[0] != block.w[i]) ++c;
    if (c == classes.size()) {
      if (classes.size() == kMaxWeightClasses) return {};
      classes.emplace_back();
    }
    classes[c].x.push_back(block.x[i]);
    classes[c].y.push_back(block.y[i]);
    classes[c].z.push_back(block.z[i]);
    classes[c].w.push_back(block.w[i]);
  }
  return classes;
}

void histogram_block(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                     const CudaDebyeOptions& options, FastPipeline& pipe);

// Blocks whose weights take a few values (partial occupancies of a few
// sites, the usual case in a CIF) are cut into blocks of one weight each,
// which the fast path takes (pairs counted, scaled by w_a·w_b): a triangle
// into the classes' triangles and the rectangles between classes, a
// rectangle into all class pairs. False when there are too many weights.
bool histogram_by_weight_class(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                               const CudaDebyeOptions& options, FastPipeline& pipe) {
  const bool triangle = set == PairSet::triangle;
  const std::vector<AtomBlock> ca = weight_classes(a);
  const std::vector<AtomBlock> cb = triangle ? std::vector<AtomBlock>{} : weight_classes(b);
  if (ca.empty() || (!triangle && cb.empty())) return false;
  for (std::size_t i = 0; i < ca.size(); ++i) {
    if (triangle) {
      histogram_block(ca[i], ca[i], PairSet::triangle, hist, options, pipe);
      for (std::size_t j = i + 1; j < ca.size(); ++j)
        histogram_block(ca[i], ca[j], PairSet::rectangle, hist, options, pipe);
    } else {
      for (const AtomBlock& bj : cb) histogram_block(ca[i], bj, PairSet::rectangle, hist, options, pipe);
    }
  }
  return true;
}

// One block into hist; a fast-path run may be left pending in the pipeline
// (launched, not collected), and the pending run from before is collected
// once this block's kernel is queued (or, on the generic path, first).
void histogram_block(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                     const CudaDebyeOptions& options, FastPipeline& pipe) {
  if (!(hist.bin_width > 0)) fail("pair_histogram_cuda: bin width must be positive");
  const bool triangle = set == PairSet::triangle;
  if (a.size() == 0 || (!triangle && b.size() == 0)) return;
  // Every distance is below the bounding-box diagonal: the bins are sized
  // for it (the fast path does it once its kernel is queued, while the
  // kernels run; checked here, before any work).
  const double r_max = pair_diagonal(a, b, set);
  const std::size_t bins = hist.bins_for(r_max);  // = histogram_bins_needed(a, b, set, Δr), one box pass
  // Measured while a pending block may still hold its buffers: conservative.
  const std::size_t budget = device_memory_budget(options.max_device_memory);
  const int window = fast_window_for_device();
  const std::size_t kernel_bins = hist::kSubBins * bins;
  const bool fast_bins = window > 0 && kernel_bins <= std::size_t(hist::kMaxFastBins);
  const bool uniform = uniform_weights(a) && (triangle || uniform_weights(b));
  if (fast_bins && !uniform && histogram_by_weight_class(a, b, set, hist, options, pipe)) return;
  const bool fast = fast_bins && uniform;
  if (fast) {
    // Global sums stay below 2^64: Σq ≤ pairs·2^10, pairs ≤ na·nb ≤ 2^43.
    constexpr double kMaxPairs = 8796093022208.0;  // 2^43
    const std::size_t run_budget = budget / 2;  // two runs hold memory at a time (FastPipeline)
    const std::size_t need = fast_fixed_bytes(kernel_bins, 0, 0, set);
    if (need > run_budget)
      fail("pair_histogram_cuda: ", bins, " bins need ", need, " bytes of device memory, over the budget of ",
           run_budget, " bytes per block (raise the bin width)");
    split_until_fits(
        a, b, set, 2 * hist::kGroupAtoms,
        [&](std::size_t na, std::size_t nb, PairSet s) {
          const std::size_t nj = s == PairSet::triangle ? na : nb;
          return double(na) * double(nb) <= kMaxPairs &&
                 fast_fixed_bytes(kernel_bins, na, nb, s) + nj * sizeof(int) <= run_budget;
        },
        [&](const AtomBlock& pa, const AtomBlock& pb, PairSet s) {
          fast_histogram_on_device(pa, pb, s, hist, r_max, window, run_budget, pipe);
        });
    return;
  }
  drain(pipe);
  hist.resize_for(r_max);
  const std::size_t bin_bytes = bins * sizeof(BinMoments);
  if (bin_bytes + (std::size_t(1) << 20) > budget)
    fail("pair_histogram_cuda: ", bins, " bins need ", bin_bytes, " bytes of device memory, over the budget of ",
         budget, " bytes (raise the bin width)");
  split_until_fits(
      a, b, set, kTile,
      [&](std::size_t na, std::size_t nb, PairSet s) {
        const std::size_t atoms = s == PairSet::triangle ? na : na + nb;
        const double items = double(na) / kTile * (double(nb) / kTile / kRun + 1);
        return bin_bytes + atoms * sizeof(Atom4<double>) + static_cast<std::size_t>(items) * sizeof(PairWorkItem) <=
               budget;
      },
      [&](const AtomBlock& pa, const AtomBlock& pb, PairSet s) {
        generic_histogram_on_device(pa, pb, s, hist, histogram_bins_needed(pa, pb, s, hist.bin_width));
      });
}

}  // namespace

void pair_histogram_cuda(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                         const CudaDebyeOptions& options) {
  CudaHistogramQueue queue;
  queue.add(a, b, set, hist, options);
  queue.finish();
}

struct CudaHistogramQueue::Pending {
  FastPipeline pipe;
};

CudaHistogramQueue::CudaHistogramQueue() : pending_(std::make_unique<Pending>()) {}

CudaHistogramQueue::~CudaHistogramQueue() {
  // Let the kernel end before its buffers go (their frees are queued on the
  // copy stream, which has not waited for it); no result.
  if (pending_->pipe.pending)
    for (const CudaStream& c : pending_->pipe.compute) cudaStreamSynchronize(c.get());
}

void CudaHistogramQueue::add(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                             const CudaDebyeOptions& options) {
  histogram_block(a, b, set, hist, options, pending_->pipe);
}

void CudaHistogramQueue::finish() { drain(pending_->pipe); }

}  // namespace nanoscatter::debye
