// CUDA path of the exact Debye pair sums:
//   out[k] += Σ_pairs w_i w_j sin(q_k r_ij) / r_ij.
//
// Two kernels. Both walk work items of one i tile against a run of j tiles
// staged in shared memory (pair_tiles.hpp) and, on a uniform Q grid, get the
// K sines along Q of one pair from Reinsch's form of the three-term
// recurrence (one FMA and two adds per pair·Q, see tile_sums_float),
// restarted from accurately evaluated sines at every chunk of K Q values.
//  - exact_slab_kernel (float32, uniform grids, the default): a block's warps
//    take C consecutive chunks of the same pairs and share one cache of the
//    pairs' recurrence starts per slab of 1024 pairs, so a pair's distance
//    and accurate sincos are paid once per C·K Q instead of once per K.
//  - exact_pair_kernel (float64, explicit Q lists, or slab_chunks = 0): one
//    atom per thread, blockIdx.y picks a chunk of K Q values that each
//    thread keeps in registers and every pair starts its own recurrence;
//    non-uniform grids evaluate every sine.
// Precision: float32 partial sums over 32 pairs, float64 from there on,
// added to the float64 output with one atomic per Q and block (or warp).
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "core/device_buffer.cuh"
#include "debye/atom_pack.cuh"
#include "debye/pair_math_float.cuh"
#include "debye/pair_sums.hpp"
#include "debye/pair_tiles.hpp"
#include "debye/q_grid.hpp"

namespace nanoscatter::debye {
namespace {

constexpr int kTile = 128;       // atoms per i tile (= threads per block) and per j tile
constexpr int kRun = 16;         // j tiles per work item
constexpr int kChunkQ = 32;      // Q values per thread, non-uniform grids (float64: see exact_on_device)
// float32 on uniform grids, longer recurrences amortise the per-pair start:
// 48 Q per thread fit 168 registers (3 blocks per SM), 64 take 255 (2 blocks).
constexpr int kChunkQMid = 48;
constexpr int kChunkQLong = 64;
constexpr int kFlushPairs = 32;  // pairs per float32 partial sum before it joins the float64 total
constexpr int kMaxItemsPerLaunch = 1 << 16;  // bounds a launch's length; progress between launches

struct QChunkParams {
  double q0, dq;  // uniform grid q_k = q0 + k dq (uniform kernels)
  const double* q;  // explicit grid (non-uniform kernels)
  int nq;
};

// Per-thread accumulation of pairs [jj_begin, jj_end) of one j tile against
// atom `ai`, float32 kernel. Distances in float64 (float32 coordinates
// round alike for a whole lattice plane), then float arithmetic with low
// parts (pair_math_float.cuh says why). Uniform grids: the K sines along Q
// of one pair come from Reinsch's form of t_k = 2cos θ·t_{k−1} − t_{k−2},
//   u_k = u_{k−1} + λ t_{k−1},  t_k = t_{k−1} + u_k,  λ = −4 sin²(θ/2),
// whose rounding errors grow linearly along the chunk instead of with
// 1/sin θ as in the plain form (short distances have small θ = Δq·r);
// mirrored when cos θ < 0. Per pair·Q: one FMA and two adds.
struct FloatChunk {
  fmath::FloatPair mid;      // uniform: q_first + Δq/2 of this chunk
  fmath::FloatPair half_dq;  // uniform: Δq/2
};

// Coincident atoms (d2 = 0) get weight 0 here (fmath::pair_term); the
// caller adds their limit terms on the host (coincident_pair_weight).
template <bool Uniform, int K>
__device__ __forceinline__ void tile_sums_float(const Atom4<double>& ai, int i, float wi, const Atom4<double>* tile,
                                                const float* tile_w, int j0, int j_lo, int jj_begin, int jj_end,
                                                const FloatChunk& chunk, const fmath::FloatPair (&q)[Uniform ? 1 : K],
                                                float (&acc)[K]) {
  const auto term = [&](int jj) {
    const Atom4<double> bj = tile[jj];
    const float wij = jj < j_lo ? 0.f : wi * tile_w[jj];
    const double dx = ai.x - bj.x, dy = ai.y - bj.y, dz = ai.z - bj.z;
    return fmath::pair_term(fma(dx, dx, fma(dy, dy, dz * dz)), wij,
                            dither::pair_hash(std::uint32_t(i), std::uint32_t(j0 + jj)));
  };
  if constexpr (Uniform) {
    // Two pairs at a time (jj_end − jj_begin is even): see recurrence_accumulate2.
#pragma unroll 1
    for (int jj = jj_begin; jj < jj_end; jj += 2) {
      fmath::RecurrenceStart s0 = fmath::recurrence_start(chunk.mid, chunk.half_dq, term(jj));
      fmath::RecurrenceStart s1 = fmath::recurrence_start(chunk.mid, chunk.half_dq, term(jj + 1));
      fmath::to_base_and_ratio(s0, s1);
      fmath::recurrence_accumulate2<K>(s0, s1, acc);
    }
  } else {
    for (int jj = jj_begin; jj < jj_end; ++jj) {
      const fmath::PairTerm p = term(jj);
#pragma unroll
      for (int k = 0; k < K; ++k) {
        float sv, cv;
        fmath::sincos_of_product(q[k], p.d.r_hi, p.d.r_lo, sv, cv);
        acc[k] = fmaf(sv, p.amp * p.sigma, acc[k]);
      }
    }
  }
}

// Per-thread accumulation, float64 kernel: direct sines, the plain
// recurrence in double (its error grows ~k²·ε/2 along a chunk of k steps:
// ≤ 3e-13 of a term at 64 Q).
// A pair's start is most of the float64 kernel's work at 32–64 Q per chunk
// (sincos and the reciprocal distance cost ~20 DFMA each): one rsqrt gives
// r and 1/r, and the second sine comes from the first by angle addition
// with the half-angle sincos the recurrence needs anyway (two sincos, not
// three sines).
template <bool Uniform, int K>
__device__ __forceinline__ void tile_sums_double(const Atom4<double>& ai, const Atom4<double>* tile, int j_lo,
                                                 int jj_begin, int jj_end, const double (&q)[K], double dq,
                                                 double (&acc)[K]) {
  for (int jj = jj_begin; jj < jj_end; ++jj) {
    const Atom4<double> bj = tile[jj];
    const double wij = jj < j_lo ? 0.0 : ai.w * bj.w;
    const double dx = ai.x - bj.x, dy = ai.y - bj.y, dz = ai.z - bj.z;
    const double d2 = fma(dx, dx, fma(dy, dy, dz * dz));
    if (d2 > 0.0) {
      const double inv_r = rsqrt(d2);
      const double r = d2 * inv_r;
      const double scale = wij * inv_r;
      if constexpr (Uniform) {
        double s0, c0, sh, ch;
        sincos(q[0] * r, &s0, &c0);
        sincos(0.5 * dq * r, &sh, &ch);
        // sin(a + b) = sin a + 2 sin(b/2)·(cos(b/2) cos a − sin(b/2) sin a), b = Δq·r
        double s1 = fma(2.0 * sh, fma(ch, c0, -sh * s0), s0) * scale;
        s0 *= scale;
        const double c2 = fma(-4.0 * sh, sh, 2.0);
        acc[0] += s0;
        acc[1] += s1;
#pragma unroll
        for (int k = 2; k < K; ++k) {
          const double s2 = fma(c2, s1, -s0);
          acc[k] += s2;
          s0 = s1;
          s1 = s2;
        }
      } else {
#pragma unroll
        for (int k = 0; k < K; ++k) acc[k] += sin(q[k] * r) * scale;
      }
    } else if (wij != 0.0) {
#pragma unroll
      for (int k = 0; k < K; ++k) acc[k] += wij * q[k];
    }
  }
}

// Sum the per-thread float64 totals of the block (shared, [K][kTile]) and
// add them to out: one Q at a time, so no K-long array lives in registers
// (the kernel's register budget is set by its main loop, not by this).
template <int K>
__device__ __forceinline__ void block_reduce_add(const double* total, int k0, int nq, double* out) {
  __shared__ double warp_sums[kTile / 32][K];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll 1
  for (int k = 0; k < K; ++k) {
    double v = total[k * kTile + threadIdx.x];
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) warp_sums[warp][k] = v;
  }
  __syncthreads();
  for (int k = threadIdx.x; k < K; k += kTile) {
    if (k0 + k >= nq) continue;
    double s = 0;
    for (int w = 0; w < kTile / 32; ++w) s += warp_sums[w][k];
    atomicAdd(out + k0 + k, s);
  }
}

template <class Real, bool Uniform, bool Triangle, int K>
__global__ void __launch_bounds__(kTile, (sizeof(Real) == 4 && K == kChunkQMid) ? 3 : 1) exact_pair_kernel(const Atom4<double>* __restrict__ a, int na,
                                                           const Atom4<double>* __restrict__ b, int nb,
                                                           const PairWorkItem* __restrict__ items,
                                                           QChunkParams qp, double* __restrict__ out) {
  // Atoms are float64 in both precisions (see tile_sums_float); Real is
  // the precision of the phases, sines and partial sums.
  __shared__ Atom4<double> tile[kTile];
  __shared__ float tile_w[kTile];
  // Partial sums in Real over kFlushPairs pairs per thread, then float64
  // per thread in shared memory (dynamic: K·kTile doubles, 64 KB at K = 64).
  // Longer float32 sums drift: at low Q every term is ≈ q > 0 and rounding
  // of a growing positive sum is biased alike in every thread (measured on
  // a 21k-atom Au sphere: 6.8e-5 relative error in I with 2048-pair float32
  // partials, 9.4e-6 with 128).
  extern __shared__ double total[];  // [K][kTile]
  const PairWorkItem item = items[blockIdx.x];
  const int k0 = blockIdx.y * K;
  const int i = item.i_tile * kTile + threadIdx.x;
  const Atom4<double> ai = i < na ? a[i] : Atom4<double>{0, 0, 0, 0};

  // This thread's Q values (past the grid end: repeat the last, discarded later).
  const auto q_at = [&](int k) {
    const int kk = min(k0 + k, qp.nq - 1);
    return Uniform ? qp.q0 + kk * qp.dq : qp.q[kk];
  };
#pragma unroll
  for (int k = 0; k < K; ++k) total[k * kTile + threadIdx.x] = 0;
  Real acc[K];
  [[maybe_unused]] double qd[sizeof(Real) == 8 ? K : 1];
  [[maybe_unused]] fmath::FloatPair qf[(sizeof(Real) == 4 && !Uniform) ? K : 1];
  [[maybe_unused]] FloatChunk chunk;
  if constexpr (sizeof(Real) == 8) {
#pragma unroll
    for (int k = 0; k < K; ++k) qd[k] = q_at(k);
  } else if constexpr (Uniform) {
    chunk.mid = fmath::split(qp.q0 + (k0 + 0.5) * qp.dq);
    chunk.half_dq = fmath::split(0.5 * qp.dq);
  } else {
#pragma unroll
    for (int k = 0; k < K; ++k) qf[k] = fmath::split(q_at(k));
  }
  const float wi = static_cast<float>(ai.w);

  for (int jt = item.j_begin; jt < item.j_end; ++jt) {
    const int j = jt * kTile + threadIdx.x;
    __syncthreads();
    // Padding has weight 0 at the origin: finite distances, zero terms (a far
    // sentinel would overflow r² in float32 and turn 0·∞ into NaN).
    tile[threadIdx.x] = j < nb ? b[j] : Atom4<double>{0, 0, 0, 0};
    tile_w[threadIdx.x] = static_cast<float>(tile[threadIdx.x].w);
    __syncthreads();
    // On the triangle's diagonal tile only pairs j > i count.
    const int j_lo = (Triangle && jt == item.i_tile) ? threadIdx.x + 1 : 0;
    for (int sub = 0; sub < kTile; sub += kFlushPairs) {
#pragma unroll
      for (int k = 0; k < K; ++k) acc[k] = 0;
      if constexpr (sizeof(Real) == 4)
        tile_sums_float<Uniform, K>(ai, i, wi, tile, tile_w, jt * kTile, j_lo, sub, sub + kFlushPairs, chunk, qf, acc);
      else
        tile_sums_double<Uniform, K>(ai, tile, j_lo, sub, sub + kFlushPairs, qd, qp.dq, acc);
#pragma unroll
      for (int k = 0; k < K; ++k) total[k * kTile + threadIdx.x] += acc[k];
    }
  }
  block_reduce_add<K>(total, k0, qp.nq, out);
}

// ---- float32, uniform Q grids: the slab kernel -------------------------------
//
// The per-thread kernel above spends ~45 % of its instructions on each
// pair's start (distance, two accurate sincos), once per pair and chunk of
// K Q values, i.e. ~31 times per pair for 1456 Q. Here a block's warps take
// C consecutive chunks (one each) of the same pairs, and the pair work is
// done once per block in a slab cache:
//  - a slab is kSlabRows i atoms × one j tile (kSlabRows·kTile pairs);
//    every thread builds a few pairs' recurrence starts for all C chunks
//    (fmath::chunk_starts: three accurate sincos, then a rotation per
//    chunk) into shared memory;
//  - each warp then runs its chunk's recurrences over the whole slab, lane l
//    taking pairs l, l + 32, … (conflict-free, and kSlabRows·kTile/32 = 32
//    pairs per float32 partial sum, the flush length of the kernel above);
//  - the 32 lanes' partial sums are added across the warp (butterfly over
//    shuffles, float32) and join a float64 total per warp and Q.
// Per pair·Q this leaves the recurrence (one FMA, two adds), two shared
// loads per pair and chunk, and the slab build over C·K Q values.
constexpr int kSlabRows = 8;                     // i atoms per slab
constexpr int kSlabPairs = kSlabRows * kTile;    // 1024 pairs
constexpr int kSlabLanePairs = kSlabPairs / 32;  // pairs per lane and float32 partial
static_assert(kSlabLanePairs == kFlushPairs, "same float32 partial length as the per-thread kernel");

// Shared bytes of the slab cache: (t, u) per chunk and pair, (λ with the mirror flag, amp) per pair.
constexpr std::size_t slab_cache_bytes(int chunks) {
  return std::size_t(chunks + 1) * kSlabPairs * sizeof(float2);
}

// Sum v[0..N) over the warp's 32 lanes by recursive halving: at offset O
// a lane keeps one half of its values, sends the other to lane ^ O and adds
// what it receives, so each level costs N/2 shuffles; once N is odd the
// remaining levels add whole (every lane of the pair gets the sum). On
// return v[i] holds the warp sum of index base + i (i < N_final) and
// `writer` is set on one lane per distinct index set.
template <int N, int O, int K, class T>
__device__ __forceinline__ void warp_butterfly(T (&v)[K], int lane, int& base, bool& writer) {
  if constexpr (O > 0) {
    if constexpr (N % 2 == 0) {
      const bool upper = lane & O;
#pragma unroll
      for (int i = 0; i < N / 2; ++i) {
        const T send = upper ? v[i] : v[i + N / 2];
        const T keep = upper ? v[i + N / 2] : v[i];
        v[i] = keep + __shfl_xor_sync(0xffffffffu, send, O);
      }
      if (upper) base += N / 2;
      warp_butterfly<N / 2, O / 2, K, T>(v, lane, base, writer);
    } else {
#pragma unroll
      for (int i = 0; i < N; ++i) v[i] += __shfl_xor_sync(0xffffffffu, v[i], O);
      if (lane & O) writer = false;
      warp_butterfly<N, O / 2, K, T>(v, lane, base, writer);
    }
  }
}

// Values per lane left by warp_butterfly<K, 16>.
constexpr int butterfly_left(int n, int o) {
  return o == 0 ? n : (n % 2 == 0 ? butterfly_left(n / 2, o / 2) : n);
}

template <bool Triangle, int K, int C>
__global__ void __launch_bounds__(32 * C, C <= 8 ? 2 : 1)
    exact_slab_kernel(const Atom4<double>* __restrict__ a, int na, const Atom4<double>* __restrict__ b, int nb,
                      const PairWorkItem* __restrict__ items, QChunkParams qp, int nchunks,
                      double* __restrict__ out) {
  constexpr int kThreads = 32 * C;
  __shared__ Atom4<double> tile_i[kTile], tile_j[kTile];
  __shared__ double warp_total[C][K];
  extern __shared__ float2 cache[];  // [C][kSlabPairs] (t, u), then [kSlabPairs] (packed λ, amp)
  float2* lambda_amp = cache + C * kSlabPairs;

  const PairWorkItem item = items[blockIdx.x];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int chunk = blockIdx.y * C + warp;
  const bool active = chunk < nchunks;  // whole warps past the grid's end idle
  // First chunk's centre, the half step and the chunk step, as float pairs.
  const fmath::FloatPair mid0 = fmath::split(qp.q0 + (double(blockIdx.y) * C * K + 0.5) * qp.dq);
  const fmath::FloatPair half_dq = fmath::split(0.5 * qp.dq);
  const fmath::FloatPair chunk_dq = fmath::split(K * qp.dq);

  for (int t = threadIdx.x; t < kTile; t += kThreads) {
    const int i = item.i_tile * kTile + t;
    tile_i[t] = i < na ? a[i] : Atom4<double>{0, 0, 0, 0};
  }
  for (int t = threadIdx.x; t < C * K; t += kThreads) (&warp_total[0][0])[t] = 0;
  __syncthreads();  // other warps zero parts of this warp's totals (and an empty j run has no barrier below)

  for (int jt = item.j_begin; jt < item.j_end; ++jt) {
    __syncthreads();  // the previous slab's builds are done with tile_j
    for (int t = threadIdx.x; t < kTile; t += kThreads) {
      const int j = jt * kTile + t;
      // Padding has weight 0 at the origin (finite distances, zero terms).
      tile_j[t] = j < nb ? b[j] : Atom4<double>{0, 0, 0, 0};
    }
    const bool diagonal = Triangle && jt == item.i_tile;
    for (int row0 = 0; row0 < kTile; row0 += kSlabRows) {
      __syncthreads();  // tile_j loaded; the previous slab's warps are done with the cache
      // Each thread builds the two pairs that one lane will run together
      // (p and p + 32 of a block of 64), so that it can store their
      // amplitudes in recurrence_accumulate2's base-and-ratio form: the
      // first pair's amplitude and the second's ratio to it, or, where the
      // first's is 0, the second pair in the first's place and zeros.
#pragma unroll 1
      for (int h = threadIdx.x; h < kSlabPairs / 2; h += kThreads) {
        const int pa = (h / 32) * 64 + h % 32, pb = pa + 32;
        const auto build = [&](int p, float (&t)[C], float (&u)[C], float& lambda, bool& mirror) {
          const int il = row0 + p / kTile, jl = p % kTile;
          const Atom4<double> ai = tile_i[il], bj = tile_j[jl];
          // On the triangle's diagonal tile only pairs j > i count.
          const float wij = (diagonal && jl <= il) ? 0.f : float(ai.w) * float(bj.w);
          const double dx = ai.x - bj.x, dy = ai.y - bj.y, dz = ai.z - bj.z;
          const fmath::PairTerm term = fmath::pair_term(
              fma(dx, dx, fma(dy, dy, dz * dz)), wij,
              dither::pair_hash(std::uint32_t(item.i_tile * kTile + il), std::uint32_t(jt * kTile + jl)));
          fmath::chunk_starts<K, C>(mid0, half_dq, chunk_dq, term, t, u, lambda, mirror);
          return term.amp;
        };
        float t[C], u[C], lambda_a, lambda_b;
        bool mirror_a, mirror_b;
        const float amp_a = build(pa, t, u, lambda_a, mirror_a);
#pragma unroll
        for (int c = 0; c < C; ++c) cache[c * kSlabPairs + pa] = make_float2(t[c], u[c]);
        const float amp_b = build(pb, t, u, lambda_b, mirror_b);
        const bool swap = amp_a == 0.f;
#pragma unroll
        for (int c = 0; c < C; ++c) {
          cache[c * kSlabPairs + (swap ? pa : pb)] = make_float2(t[c], u[c]);
          if (swap) cache[c * kSlabPairs + pb] = make_float2(0.f, 0.f);
        }
        lambda_amp[pa] = swap ? make_float2(fmath::pack_lambda(lambda_b, mirror_b), amp_b)
                              : make_float2(fmath::pack_lambda(lambda_a, mirror_a), amp_a);
        lambda_amp[pb] = swap ? make_float2(0.f, 0.f)
                              : make_float2(fmath::pack_lambda(lambda_b, mirror_b), fmath::amplitude_ratio(amp_b, amp_a));
      }
      __syncthreads();
      if (!active) continue;
      float acc[K];
#pragma unroll
      for (int k = 0; k < K; ++k) acc[k] = 0;
      const float2* starts = cache + warp * kSlabPairs;
#pragma unroll 1
      for (int p = lane; p < kSlabPairs; p += 64) {
        const float2 s0 = starts[p], s1 = starts[p + 32];
        const float2 l0 = lambda_amp[p], l1 = lambda_amp[p + 32];
        fmath::recurrence_accumulate2<K>(
            {s0.x, s0.y, fmath::unpack_lambda(l0.x), l0.y, fmath::unpack_mirror(l0.x)},
            {s1.x, s1.y, fmath::unpack_lambda(l1.x), l1.y, fmath::unpack_mirror(l1.x)}, acc);
      }
      int base = 0;
      bool writer = true;
      warp_butterfly<K, 16, K>(acc, lane, base, writer);
      if (writer) {
#pragma unroll
        for (int i = 0; i < butterfly_left(K, 16); ++i) warp_total[warp][base + i] += double(acc[i]);
      }
    }
  }
  __syncwarp();
  if (!active) return;
  for (int k = lane; k < K; k += 32)
    if (chunk * K + k < qp.nq) atomicAdd(out + chunk * K + k, warp_total[warp][k]);
}

// Launch `kernel` over the work items (blockIdx.x, in launches of at most
// kMaxItemsPerLaunch) × blocks_y, with `shared` bytes of dynamic shared
// memory; the kernel's arguments after the items pointer are `rest`.
// Shared memory over L1: both kernels read their atoms from shared memory
// only, and their shared arrays must fit 2–3 blocks per SM.
template <class Kernel, class... Rest>
void launch_items(Kernel kernel, const std::vector<PairWorkItem>& items, unsigned blocks_y, unsigned threads,
                  std::size_t shared, const Atom4<double>* a, int na, const Atom4<double>* b, int nb,
                  Rest... rest) {
  DeviceBuffer<PairWorkItem> d_items(items);
  NS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  NS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                     cudaSharedmemCarveoutMaxShared));
  for (std::size_t first = 0; first < items.size(); first += kMaxItemsPerLaunch) {
    const auto count = static_cast<unsigned>(std::min<std::size_t>(kMaxItemsPerLaunch, items.size() - first));
    kernel<<<dim3(count, blocks_y), threads, shared>>>(a, na, b, nb, d_items.data() + first, rest...);
    NS_CUDA_CHECK_LAUNCH();
  }
}

template <bool Triangle, int K, int C>
void launch_slab(const Atom4<double>* a, int na, const Atom4<double>* b, int nb,
                 const std::vector<PairWorkItem>& items, const QChunkParams& qp, double* out) {
  const int nchunks = (qp.nq + K - 1) / K;
  launch_items(exact_slab_kernel<Triangle, K, C>, items, static_cast<unsigned>((nchunks + C - 1) / C), 32 * C,
               slab_cache_bytes(C), a, na, b, nb, qp, nchunks, out);
}

template <class Real, bool Uniform, bool Triangle, int K>
void launch_all(const Atom4<double>* a, int na, const Atom4<double>* b, int nb,
                const std::vector<PairWorkItem>& items, const QChunkParams& qp, double* out) {
  // Dynamic shared memory: the float64 totals, K·kTile doubles.
  launch_items(exact_pair_kernel<Real, Uniform, Triangle, K>, items, static_cast<unsigned>((qp.nq + K - 1) / K),
               kTile, std::size_t(K) * kTile * sizeof(double), a, na, b, nb, qp, out);
}

template <class Real>
void exact_on_device(const AtomBlock& a, const AtomBlock& b, PairSet set, std::span<const double> q,
                     std::span<double> out, int chunk_q, int slab_chunks) {
  const bool triangle = set == PairSet::triangle;
  const Origin origin = block_bounds(a, b).centre;
  const auto packed_a = pack_atoms<double>(a, origin);
  const auto packed_b = triangle ? std::vector<Atom4<double>>{} : pack_atoms<double>(b, origin);
  DeviceBuffer<Atom4<double>> d_a(packed_a);
  DeviceBuffer<Atom4<double>> d_b;
  if (!triangle) d_b = DeviceBuffer<Atom4<double>>(packed_b);
  // The float32 kernel skips coincident pairs; their limit terms w_i w_j q.
  const double coincident = sizeof(Real) == 4 ? coincident_pair_weight(packed_a, triangle ? packed_a : packed_b, triangle) : 0.0;
  const Atom4<double>* pb = triangle ? d_a.data() : d_b.data();
  const int na = static_cast<int>(a.size()), nb = static_cast<int>(triangle ? a.size() : b.size());

  QChunkParams qp{};
  qp.nq = static_cast<int>(q.size());
  const auto step = uniform_q_step(q);
  const bool uniform = step.has_value();
  qp.q0 = q[0];
  qp.dq = uniform ? *step : 0.0;
  DeviceBuffer<double> d_q(std::vector<double>(q.begin(), q.end()));
  qp.q = d_q.data();
  DeviceBuffer<double> d_out(q.size());
  d_out.zero();

  const auto items = make_pair_work(na, nb, set, kTile, kRun);
  if (items.empty()) return;
  double* o = d_out.data();
  const auto launch = [&]<int K>(std::integral_constant<int, K>) {
    const Atom4<double>* pa = d_a.data();
    if (uniform) {
      if (triangle) launch_all<Real, true, true, K>(pa, na, pb, nb, items, qp, o);
      else launch_all<Real, true, false, K>(pa, na, pb, nb, items, qp, o);
    } else if constexpr (K == kChunkQ) {
      if (triangle) launch_all<Real, false, true, K>(pa, na, pb, nb, items, qp, o);
      else launch_all<Real, false, false, K>(pa, na, pb, nb, items, qp, o);
    }
  };
  const auto slab = [&]<int K, int C>(std::integral_constant<int, K>, std::integral_constant<int, C>) {
    if (triangle) launch_slab<true, K, C>(d_a.data(), na, pb, nb, items, qp, o);
    else launch_slab<false, K, C>(d_a.data(), na, pb, nb, items, qp, o);
  };
  // The long chunk only on uniform grids (explicit Q lists would spill
  // registers at K = 64).
  if constexpr (sizeof(Real) == 4) {
    if (uniform && slab_chunks == 8) slab(std::integral_constant<int, kChunkQMid>{}, std::integral_constant<int, 8>{});
    else if (uniform && slab_chunks == 16) slab(std::integral_constant<int, kChunkQMid>{}, std::integral_constant<int, 16>{});
    else if (uniform && chunk_q == kChunkQLong) launch(std::integral_constant<int, kChunkQLong>{});
    else if (uniform && chunk_q == kChunkQMid) launch(std::integral_constant<int, kChunkQMid>{});
    else launch(std::integral_constant<int, kChunkQ>{});
  } else if (uniform && (chunk_q == kChunkQLong || (chunk_q == 0 && q.size() > std::size_t(kChunkQ)))) {
    // float64: 64 Q per thread on uniform grids longer than one chunk of
    // 32 unless told otherwise (float64_chunk_q), so a pair's start (most
    // of its cost, see tile_sums_double) is paid half as often. ptxas
    // spills ~1 KB at K = 64 and it still runs 1.3× the pair·Q rate of
    // K = 32 (BM_DebyeExactKernelDouble); Q lists, which also hold their
    // 64 Q in registers, keep 32.
    launch(std::integral_constant<int, kChunkQLong>{});
  } else {
    launch(std::integral_constant<int, kChunkQ>{});
  }
  NS_CUDA_CHECK(cudaDeviceSynchronize());
  const auto result = d_out.download();
  for (std::size_t k = 0; k < q.size(); ++k) out[k] += result[k] + coincident * q[k];
}

// Device bytes one call needs: packed atoms, work items, Q and output.
std::size_t exact_bytes(std::size_t na, std::size_t nb, PairSet set, std::size_t nq) {
  const std::size_t atoms = set == PairSet::triangle ? na : na + nb;
  const double items = double(na) / kTile * (double(nb) / kTile / kRun + 1);
  return atoms * sizeof(Atom4<double>) + static_cast<std::size_t>(items) * sizeof(PairWorkItem) + 2 * nq * sizeof(double);
}

}  // namespace

void exact_pair_sums_cuda(const AtomBlock& a, const AtomBlock& b, PairSet set, std::span<const double> q,
                          std::span<double> out, const CudaDebyeOptions& options) {
  if (q.size() != out.size()) fail("exact_pair_sums_cuda: q and out sizes differ");
  if (q.empty()) return;
  if (options.precision == Precision::float32 && options.float32_min_qd > 0 && uniform_q_step(q)) {
    // The low-angle part in float64 (CudaDebyeOptions::float32_min_qd), the
    // rest, a uniform grid of its own, in float32 (one point left: float64).
    AxisBox box = bounding_box(a);
    if (set == PairSet::rectangle) box.include(bounding_box(b));
    const double d = std::max(options.structure_size, box.diagonal());
    std::size_t low = 0;
    while (low < q.size() && q[low] * d < options.float32_min_qd) ++low;
    CudaDebyeOptions part = options;
    part.float32_min_qd = 0;
    part.precision = Precision::float64;
    if (low > 0) exact_pair_sums_cuda(a, b, set, q.first(low), out.first(low), part);
    const std::size_t rest = q.size() - low;
    if (rest > 1) part.precision = Precision::float32;
    if (rest > 0) exact_pair_sums_cuda(a, b, set, q.subspan(low), out.subspan(low), part);
    return;
  }
  if (options.chunk_q != kChunkQ && options.chunk_q != kChunkQMid && options.chunk_q != kChunkQLong)
    fail("exact_pair_sums_cuda: chunk_q must be 32, 48 or 64, got " + std::to_string(options.chunk_q));
  if (options.slab_chunks != 0 && options.slab_chunks != 8 && options.slab_chunks != 16)
    fail("exact_pair_sums_cuda: slab_chunks must be 0, 8 or 16, got " + std::to_string(options.slab_chunks));
  if (options.float64_chunk_q != 0 && options.float64_chunk_q != kChunkQ && options.float64_chunk_q != kChunkQLong)
    fail("exact_pair_sums_cuda: float64_chunk_q must be 0, 32 or 64, got " + std::to_string(options.float64_chunk_q));
  const std::size_t budget = device_memory_budget(options.max_device_memory);
  split_until_fits(
      a, b, set, kTile,
      [&](std::size_t na, std::size_t nb, PairSet s) { return exact_bytes(na, nb, s, q.size()) <= budget; },
      [&](const AtomBlock& pa, const AtomBlock& pb, PairSet s) {
        if (options.precision == Precision::float32) exact_on_device<float>(pa, pb, s, q, out, options.chunk_q, options.slab_chunks);
        else exact_on_device<double>(pa, pb, s, q, out, options.float64_chunk_q, 0);
      });
}

}  // namespace nanoscatter::debye
