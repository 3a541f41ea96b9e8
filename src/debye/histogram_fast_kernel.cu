// The fast path's kernel of the CUDA pair-distance histogram: a block of
// atoms that share one weight (the usual occupancy-1 case) is histogrammed
// as unweighted pairs, with integer counts and fixed-point offsets per bin,
// and scaled by w_a·w_b on the host (histogram_fast_pipeline.cu). Global
// atomics per pair cannot reach 10¹² pairs/s (that is ~4 pairs per SM per
// clock on 132 SMs), and a 10⁶-atom CoO particle (264 Å across) has
// 2.6·10⁵ bins at Δr = 10⁻³ Å, far more than shared memory holds, so:
//  - the i atoms are ordered by k-d bisection and cut into compact groups of
//    Code::kGroupAtoms (centre c, radius ρ; histogram_layout.cpp); one
//    block (1024 threads, ~220 KB of shared memory, one per SM, persistent
//    over groups) takes a group;
//  - pass 1 buckets the j atoms by D = |x_j − c| into shells (counting sort
//    into a per-block global scratch list);
//  - pass 2 walks the shells outwards with a ring buffer of W kernel bins
//    in shared memory (whole bins, hist::kSubBins = 1; Code::kWords 32-bit
//    words each, in as many rings of W words: hist::BinCode) that covers
//    [D − ρ, D + width + ρ]: bins that fall below the window are flushed to the global histogram with integer
//    atomics (exact, so the result does not depend on the order), and the
//    rest of the ring moves down (it never wraps: slot = bin − base). The
//    group's atoms and the staged j atoms are kept relative to c
//    (hist::Centred). In far shells (every pair at r ≥ kMmaGap bins) of
//    full groups, r² comes from the float64 tensor cores: one DMMA
//    (m8n8k4) gives the 64 r² of 8 i × 8 j atoms, kMmaWarps warps
//    cover the group against a tile of 8 j atoms. Near shells, short
//    groups and the last n mod 8 atoms of a batch take the direct
//    difference, each warp on one j atom, kPerLane i atoms per lane. In a
//    triangle the group's own pairs (j > i) are taken first, at bin 0, so
//    the shells hold only later atoms. Per pair: rsqrt seed and one Newton
//    step in float64, one DADD.RM onto a fixed-point grid for bin and δ,
//    one shared atomic per word of its bin and one rare-drain branch (histogram_pair_math.hpp gives the arithmetic,
//    the precision, the capacity argument and how the bins' words become
//    the moments).
// Measurements of this design and of the variants tried and dropped:
// bench/results/2026-11-25-debye-histogram-kernel-history.md; its
// precision and speed: docs/debye.md.
#include <algorithm>
#include <cstddef>

#include "debye/histogram_fast_kernel.cuh"

namespace nanoscatter::debye {
namespace {

using hist::Centred;
using hist::GroupGeometry;
using hist::PackedAtom;
using ull = unsigned long long;

constexpr int kThreads = 1024;  // 32 warps: latency of the shared atomics and the MUFU hidden
constexpr int kWarps = kThreads / 32;
constexpr int kStage = 512;  // j atoms staged in shared memory per batch
constexpr int kMmaTiles = 4;  // i tiles of 8 atoms per warp (its A fragments stay in registers)
template <class Code>
constexpr int kMmaWarps = Code::kGroupAtoms / (8 * kMmaTiles);  // warps that cover a group in the DMMA loop
template <class Code>
constexpr int kPerLane = Code::kGroupAtoms / 32;  // i atoms per lane in the scalar path
template <class Code>
constexpr bool kTilesCoverGroups = kMmaWarps<Code> * kMmaTiles * 8 == Code::kGroupAtoms &&
                                   kWarps % kMmaWarps<Code> == 0 && kPerLane<Code> * 32 == Code::kGroupAtoms;
static_assert(kTilesCoverGroups<hist::BinCode<hist::BinWords::one>> &&
                  kTilesCoverGroups<hist::BinCode<hist::BinWords::two>>,
              "whole warps' DMMA tiles cover a group, and every lane of the scalar path has as many i atoms");
static_assert(kStage <= kThreads && kStage % 8 == 0, "one staged atom per thread, whole j tiles");
static_assert(kThreads <= int(hist::kMaxAdders), "ring capacity assumes at most kMaxAdders threads");

template <class Code>
std::size_t fast_shared_bytes(int window) {
  return Code::kWords * std::size_t(window) * sizeof(unsigned) + (kStage + Code::kGroupAtoms) * sizeof(Centred) +
         kStage * sizeof(unsigned) + (2 * hist::kMaxShells + 1) * sizeof(int);
}

template <class Code>
using Words = hist::RingWords<Code::kWords>;

// The ring words of kernel bin k to the global bins (k < nbins, else an overflow).
template <class Code>
__device__ __forceinline__ void words_to_global(const FastArgs& p, int k, const Words<Code>& w) {
  if (k >= p.nbins) {
    atomicAdd(p.overflow, 1u);
    return;
  }
  // The count unconditionally (a flushed or drained bin holds pairs but for
  // a second drainer's rare empty exchange), as the one-word kernel had it.
  atomicAdd(reinterpret_cast<ull*>(&p.bins[k].count), ull(Code::count(w)));
  if (const unsigned sum = Code::sum(w)) atomicAdd(reinterpret_cast<ull*>(&p.bins[k].sum), ull(sum));
  if (const unsigned sum2 = Code::sum2(w)) atomicAdd(reinterpret_cast<ull*>(&p.bins[k].sum2), ull(sum2));
}

// The window while a shell is processed: ring slot k holds bin base + k;
// magic = hist::window_magic(base).
struct Window {
  double magic;
  int base;
};

__device__ __forceinline__ Window window_at(int base) { return {hist::window_magic(base), base}; }

// Ring slots [0, n) to the global histogram (bins base + slot), zeroed
// (block-wide; the caller synchronises before the rings are used again).
// Word c of slot k is ring[c·W + k].
template <class Code, int W>
__device__ void flush_slots(unsigned* ring, int base, int n, const FastArgs& p) {
  for (int k = int(threadIdx.x); k < n; k += kThreads) {
    Words<Code> w;
    unsigned any = 0;
#pragma unroll
    for (int c = 0; c < Code::kWords; ++c) any |= w.w[c] = ring[c * W + k];
    if (any == 0) continue;
#pragma unroll
    for (int c = 0; c < Code::kWords; ++c) ring[c * W + k] = 0;
    words_to_global<Code>(p, base + k, w);
  }
}

// Moves the window from bin `base` up to bin `next` (block-wide, between
// barriers): the bins below `next` go to the global histogram and the rest
// move down the ring, so that slot k holds bin next + k. The ring never
// wraps, which saves the per-pair wrap (two instructions of ~17); the move
// costs ~2W/kThreads shared accesses per thread, a few per 10⁵ pairs.
template <class Code, int W>
__device__ void move_window(unsigned* ring, int base, int next, const FastArgs& p) {
  const int shift = min(next - base, W), keep = W - shift;
  flush_slots<Code, W>(ring, base, shift, p);
  constexpr int kChunk = 8;  // words per thread, ring and round, held in registers across the barrier
  for (int lo = 0; lo < keep; lo += kThreads * kChunk) {
    unsigned v[Code::kWords][kChunk];
#pragma unroll
    for (int c = 0; c < kChunk; ++c) {
      const int k = lo + c * kThreads + int(threadIdx.x);
#pragma unroll
      for (int r = 0; r < Code::kWords; ++r) v[r][c] = k < keep ? ring[r * W + k + shift] : 0u;
    }
    __syncthreads();  // every read of this round (and the flush) before its writes
#pragma unroll
    for (int c = 0; c < kChunk; ++c) {
      const int k = lo + c * kThreads + int(threadIdx.x);
#pragma unroll
      for (int r = 0; r < Code::kWords; ++r)
        if (k < keep) ring[r * W + k] = v[r][c];
    }
    __syncthreads();  // the next round reads above what this one wrote; the last one's writes before the zeroing
  }
  for (int k = keep + int(threadIdx.x); k < W; k += kThreads)
#pragma unroll
    for (int r = 0; r < Code::kWords; ++r) ring[r * W + k] = 0;
}

// One pair into the rings from its r² (kernel bins²): one shared atomic per
// word (word c at ring[c·W + slot]: one address, immediate offsets), no range check (the layout keeps every
// pair of a shell in the window) and no branch but the rare drain, tested
// on the old words (histogram_pair_math.hpp).
// WholeWarp: every lane of the warp is here, so the drain test is one vote
// and a uniform branch instead of a divergent branch and its reconvergence
// (two instructions fewer per pair); a drain then runs with the lanes that
// need it.
template <class Code, bool WholeWarp, int W>
__device__ __forceinline__ void add_fix(const hist::PairFix& f, const Window& win, unsigned* ring, const FastArgs& p,
                                        unsigned dither) {
  unsigned* at = ring + f.hi;
  const Words<Code> add = Code::words(f.lo, dither);
  Words<Code> old;
#pragma unroll
  for (int c = 0; c < Code::kWords; ++c) old.w[c] = atomicAdd(at + c * W, add.w[c]);
  const bool drain = Code::must_drain(old);
  if (WholeWarp ? __any_sync(0xffffffffu, drain) : drain) {
    if (drain) {
      Words<Code> w;
#pragma unroll
      for (int c = Code::kWords - 1; c >= 0; --c) w.w[c] = atomicExch(at + c * W, 0u);
      words_to_global<Code>(p, win.base + int(f.hi), w);
    }
    if (WholeWarp) __syncwarp();
  }
}

template <class Code, bool WholeWarp, int W>
__device__ __forceinline__ void add_r2(double r2, const Window& win, unsigned* ring, const FastArgs& p,
                                       unsigned dither) {
  add_fix<Code, WholeWarp, W>(hist::pair_fix_r2(r2, win.magic), win, ring, p, dither);
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
template <class Code, bool Full, int W>
__device__ __forceinline__ void pair_batch(const Centred* stage, const unsigned* stage_dither, int from, int n,
                                           const Centred* igroup, int count, unsigned dither_i, const Window& win,
                                           unsigned* ring, const FastArgs& p) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int jj = from + warp; jj < n; jj += kWarps) {
    const Centred aj = stage[jj];
    const unsigned dj = stage_dither[jj] + dither_i;
#pragma unroll
    for (int k = 0; k < kPerLane<Code>; ++k)
      if (Full || lane + 32 * k < count)
        add_r2<Code, Full, W>(hist::centred_r2(igroup[lane + 32 * k], aj), win, ring, p, dj + 32u * k * hist::kDitherI);
  }
}

// Staged j atoms [0, n) of a far shell against a full group, in j tiles
// of 8 on the tensor cores (kMmaWarps warps per tile, each warp its four i
// tiles, A fragments fa). The last tile, when n is not a multiple of 8,
// takes the DMMA too, its columns past n masked: every pair of the shell
// gets its r² from the DMMA whatever its place in the staged order, which
// pass 1 sets by atomics (by pair_batch's direct difference for the last
// n mod 8 atoms, as before, the same pair's r² and so its bin or offset
// word could differ in the last bit from run to run).
// fi: hist::dither_i of the lane's row in each i tile.
template <class Code, int W>
__device__ __forceinline__ void mma_batch(const Centred* stage, const unsigned* stage_dither, int n,
                                          const double (&fa)[kMmaTiles], const double (&fc)[kMmaTiles],
                                          const unsigned (&fi)[kMmaTiles], const Window& win, unsigned* ring,
                                          const FastArgs& p) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, t = lane & 3;
  const int tiles = n >> 3, all_tiles = (n + 7) >> 3;
  for (int jt = warp / kMmaWarps<Code>; jt < all_tiles; jt += kWarps / kMmaWarps<Code>) {
    __syncwarp();  // the DMMA needs the whole warp
    // B: component t of atom lane/4 as stored (x, y, z, n2), one load per
    // lane (a masked column reads the last atom: in the stage, never added);
    // C, the rows' n2, stays in registers for the whole group.
    const double b = (&stage[min(8 * jt + (lane >> 2), n - 1)].x)[t];
    // The lane's D entries are columns 2t and 2t + 1 of the j tile.
    const int c0 = 8 * jt + 2 * t;
    const unsigned dj0 = stage_dither[min(c0, n - 1)], dj1 = stage_dither[min(c0 + 1, n - 1)];
    double d0, d1;
    if (jt < tiles) {
      // Software-pipelined: tile m + 1's distances are computed before tile
      // m's atomics, whose drain branches would otherwise hold them back.
      dmma_r2(d0, d1, fa[0], b, fc[0], fc[0]);
      hist::PairFix f0 = hist::pair_fix_r2(d0, win.magic), f1 = hist::pair_fix_r2(d1, win.magic);
#pragma unroll
      for (int m = 1; m < kMmaTiles; ++m) {
        dmma_r2(d0, d1, fa[m], b, fc[m], fc[m]);
        const hist::PairFix g0 = hist::pair_fix_r2(d0, win.magic), g1 = hist::pair_fix_r2(d1, win.magic);
        add_fix<Code, true, W>(f0, win, ring, p, fi[m - 1] + dj0);
        add_fix<Code, true, W>(f1, win, ring, p, fi[m - 1] + dj1);
        f0 = g0;
        f1 = g1;
      }
      add_fix<Code, true, W>(f0, win, ring, p, fi[kMmaTiles - 1] + dj0);
      add_fix<Code, true, W>(f1, win, ring, p, fi[kMmaTiles - 1] + dj1);
    } else {
      // The partial tile (warp-uniform branch): lanes whose columns lie
      // past n add nothing, so the drain test is per lane.
#pragma unroll
      for (int m = 0; m < kMmaTiles; ++m) {
        dmma_r2(d0, d1, fa[m], b, fc[m], fc[m]);
        if (c0 < n) add_r2<Code, false, W>(d0, win, ring, p, fi[m] + dj0);
        if (c0 + 1 < n) add_r2<Code, false, W>(d1, win, ring, p, fi[m] + dj1);
      }
    }
  }
}

template <class Code, bool Triangle, int W>
__global__ void __launch_bounds__(kThreads, 1) fast_histogram_kernel(FastArgs p) {
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ int group_id;
  __shared__ int warp_sums[kWarps];
  Centred* stage = reinterpret_cast<Centred*>(smem);
  Centred* igroup = stage + kStage;
  unsigned* ring = reinterpret_cast<unsigned*>(igroup + Code::kGroupAtoms);
  unsigned* stage_dither = ring + Code::kWords * W;  // hist::dither_j of each staged atom
  int* shell_n = reinterpret_cast<int*>(stage_dither + kStage);
  int* shell_at = shell_n + hist::kMaxShells;
  int* scratch = p.scratch + blockIdx.x * p.scratch_stride;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  for (int k = tid; k < Code::kWords * W; k += kThreads) ring[k] = 0;

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
    if (tid < Code::kGroupAtoms) igroup[tid] = tid < g.count ? hist::centred(g, p.a[g.first + tid]) : Centred{};
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
        for (int i = lane; i < jj; i += 32) add_r2<Code, false, W>(hist::centred_r2(igroup[i], aj), win, ring, p,
                                                   hist::dither_i(g.first + i) + hist::dither_j(g.first + jj));
      }
    }
    const bool full = g.count == Code::kGroupAtoms;
    // DMMA fragments of this warp's part of the group: i tile m holds atoms
    // 32·part + 8m + row (row = lane / 4); A: component lane % 4 of (−2v, 1),
    // C: |v|² of the lane's row (both of its C entries are in that row).
    // fi: the dither term of the lane's row (hist::dither_i of its index).
    double fa[kMmaTiles], fc[kMmaTiles];
    unsigned fi[kMmaTiles];
    {
      const int part = warp % kMmaWarps<Code>, t = lane & 3;
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
        move_window<Code, W>(ring, win.base, next_base, p);
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
          mma_batch<Code, W>(stage, stage_dither, n, fa, fc, fi, win, ring, p);
        else if (full)
          pair_batch<Code, true, W>(stage, stage_dither, 0, n, igroup, g.count, dither_i, win, ring, p);
        else
          pair_batch<Code, false, W>(stage, stage_dither, 0, n, igroup, g.count, dither_i, win, ring, p);
        __syncthreads();
      }
    }
    __syncthreads();
    flush_slots<Code, W>(ring, win.base, W, p);
  }
}

template <class Code, int W>
void launch_fast(bool triangle, int blocks, const FastArgs& args, cudaStream_t stream) {
  const std::size_t smem = fast_shared_bytes<Code>(W);
  const auto kernel = triangle ? fast_histogram_kernel<Code, true, W> : fast_histogram_kernel<Code, false, W>;
  NS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  kernel<<<blocks, kThreads, smem, stream>>>(args);
  NS_CUDA_CHECK_LAUNCH();
}

template <class Code>
int window_for_device() {
  int device = 0, optin = 0;
  NS_CUDA_CHECK(cudaGetDevice(&device));
  NS_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const std::size_t static_bytes = 256;  // group_id, warp_sums
  for (const int w : Code::kRingSizes)
    if (fast_shared_bytes<Code>(w) + static_bytes <= std::size_t(optin)) return w;
  return 0;
}

template <class Code>
void launch_with(int window, bool triangle, int blocks, const FastArgs& args, cudaStream_t stream) {
  static_assert(sizeof(Code::kRingSizes) / sizeof(int) == 3, "one launch branch per ring size");
  if (window == Code::kRingSizes[0])
    launch_fast<Code, Code::kRingSizes[0]>(triangle, blocks, args, stream);
  else if (window == Code::kRingSizes[1])
    launch_fast<Code, Code::kRingSizes[1]>(triangle, blocks, args, stream);
  else
    launch_fast<Code, Code::kRingSizes[2]>(triangle, blocks, args, stream);
}

using OneWord = hist::BinCode<hist::BinWords::one>;
using TwoWords = hist::BinCode<hist::BinWords::two>;

}  // namespace

// Largest ring of the bin code's sizes whose shared memory this device
// grants a block (0: none, the generic kernel runs).
int fast_window_for_device(hist::BinWords words) {
  return words == hist::BinWords::one ? window_for_device<OneWord>() : window_for_device<TwoWords>();
}

void launch_fast_histogram(hist::BinWords words, int window, bool triangle, int blocks, const FastArgs& args,
                           cudaStream_t stream) {
  if (words == hist::BinWords::one)
    launch_with<OneWord>(window, triangle, blocks, args, stream);
  else
    launch_with<TwoWords>(window, triangle, blocks, args, stream);
}

}  // namespace nanoscatter::debye
