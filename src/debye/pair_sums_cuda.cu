// CUDA path of the exact Debye pair sums:
//   out[k] += Σ_pairs w_i w_j sin(q_k r_ij) / r_ij.
//
// Layout: a block owns one i tile (one atom per thread) and walks a run of j
// tiles staged in shared memory; blockIdx.y picks a chunk of K consecutive
// Q values that each thread keeps in registers. On a uniform Q grid the
// K values come from the three-term recurrence
//   s_{k+1} = 2 cos(Δq r) s_k − s_{k−1}      (sin((k+1)θ+φ) identity),
// restarted from directly evaluated sines at every chunk (K ≤ 32 steps), so
// one FMA and one add per pair·Q remain and the special-function unit only
// sees a few operations per pair. Non-uniform grids evaluate every sine.
// Precision: float32 partial sums over one j tile, accumulated per thread in
// float64, reduced over the block in float64 and added to the float64
// output with one atomic per Q and block.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/device_buffer.cuh"
#include "debye/atom_pack.cuh"
#include "debye/pair_sums.hpp"
#include "debye/pair_tiles.hpp"

namespace nanoscatter::debye {
namespace {

constexpr int kTile = 128;       // atoms per i tile (= threads per block) and per j tile
constexpr int kRun = 16;         // j tiles per work item
constexpr int kChunkQ = 32;      // Q values per thread (recurrence length between restarts)
constexpr int kMaxItemsPerLaunch = 1 << 16;  // bounds a launch's length; progress between launches

// 2π split into a float head and tail for Cody–Waite argument reduction.
constexpr float kTwoPiHi = 6.28318548202514648f;
constexpr float kTwoPiLo = -1.74845553e-7f;
constexpr float kInvTwoPi = 0.159154943091895336f;

// sin(x) for x = x_hi + x_lo (x_lo the exact FMA residual of a product),
// reduced to [−π, π] with a two-term 2π so large arguments (Q r ~ 10³) keep
// their absolute accuracy before the hardware sine.
__device__ __forceinline__ float sin_reduced(float x_hi, float x_lo) {
  const float n = rintf(x_hi * kInvTwoPi);
  float r = fmaf(-n, kTwoPiHi, x_hi);
  r = fmaf(-n, kTwoPiLo, r);
  return __sinf(r + x_lo);
}

// q·r for q = q_hi + q_lo (float pair carrying a double Q) with its residual.
__device__ __forceinline__ float sin_qr(float q_hi, float q_lo, float r) {
  const float p = q_hi * r;
  const float e = fmaf(q_hi, r, -p) + q_lo * r;
  return sin_reduced(p, e);
}

struct QChunkParams {
  double q0, dq;  // uniform grid q_k = q0 + k dq (uniform kernels)
  const double* q;  // explicit grid (non-uniform kernels)
  int nq;
};

// Per-thread accumulation of one j tile against atom `ai`, float32 kernel.
template <bool Uniform>
__device__ __forceinline__ void tile_sums_float(const Atom4<float>& ai, const Atom4<float>* tile,
                                                int j_lo, const float (&q_hi)[kChunkQ],
                                                const float (&q_lo)[kChunkQ], float half_dq,
                                                float (&acc)[kChunkQ]) {
#pragma unroll 2
  for (int jj = 0; jj < kTile; ++jj) {
    const Atom4<float> bj = tile[jj];
    const float wij = jj < j_lo ? 0.f : ai.w * bj.w;
    const float dx = ai.x - bj.x, dy = ai.y - bj.y, dz = ai.z - bj.z;
    const float d2 = fmaf(dx, dx, fmaf(dy, dy, dz * dz));
    if (d2 > 0.f) {
      const float inv_r = rsqrtf(d2);
      const float r = d2 * inv_r;
      const float scale = wij * inv_r;
      if constexpr (Uniform) {
        float s0 = sin_qr(q_hi[0], q_lo[0], r) * scale;
        float s1 = sin_qr(q_hi[1], q_lo[1], r) * scale;
        // 2cos θ = 2 − 4 sin²(θ/2): keeps full relative accuracy of the
        // small step angle that 2·cos θ rounded near 2 would lose.
        const float sh = __sinf(half_dq * r);
        const float c2 = fmaf(-4.f * sh, sh, 2.f);
        acc[0] += s0;
        acc[1] += s1;
#pragma unroll
        for (int k = 2; k < kChunkQ; ++k) {
          const float s2 = fmaf(c2, s1, -s0);
          acc[k] += s2;
          s0 = s1;
          s1 = s2;
        }
      } else {
#pragma unroll
        for (int k = 0; k < kChunkQ; ++k) acc[k] += sin_qr(q_hi[k], q_lo[k], r) * scale;
      }
    } else if (wij != 0.f) {
      // Coincident atoms: sin(q r)/r → q.
#pragma unroll
      for (int k = 0; k < kChunkQ; ++k) acc[k] += wij * (q_hi[k] + q_lo[k]);
    }
  }
}

// Per-thread accumulation, float64 kernel: direct sines, recurrence in double.
template <bool Uniform>
__device__ __forceinline__ void tile_sums_double(const Atom4<double>& ai, const Atom4<double>* tile,
                                                 int j_lo, const double (&q)[kChunkQ], double dq,
                                                 double (&acc)[kChunkQ]) {
  for (int jj = 0; jj < kTile; ++jj) {
    const Atom4<double> bj = tile[jj];
    const double wij = jj < j_lo ? 0.0 : ai.w * bj.w;
    const double dx = ai.x - bj.x, dy = ai.y - bj.y, dz = ai.z - bj.z;
    const double d2 = fma(dx, dx, fma(dy, dy, dz * dz));
    if (d2 > 0.0) {
      const double r = sqrt(d2);
      const double scale = wij / r;
      if constexpr (Uniform) {
        double s0 = sin(q[0] * r) * scale;
        double s1 = sin(q[1] * r) * scale;
        const double sh = sin(0.5 * dq * r);
        const double c2 = fma(-4.0 * sh, sh, 2.0);
        acc[0] += s0;
        acc[1] += s1;
#pragma unroll
        for (int k = 2; k < kChunkQ; ++k) {
          const double s2 = fma(c2, s1, -s0);
          acc[k] += s2;
          s0 = s1;
          s1 = s2;
        }
      } else {
#pragma unroll
        for (int k = 0; k < kChunkQ; ++k) acc[k] += sin(q[k] * r) * scale;
      }
    } else if (wij != 0.0) {
#pragma unroll
      for (int k = 0; k < kChunkQ; ++k) acc[k] += wij * q[k];
    }
  }
}

// Sum the per-thread float64 partials of the block and add them to out.
__device__ __forceinline__ void block_reduce_add(double (&part)[kChunkQ], int k0, int nq, double* out) {
  __shared__ double warp_sums[kTile / 32][kChunkQ];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int k = 0; k < kChunkQ; ++k) {
    double v = part[k];
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) warp_sums[warp][k] = v;
  }
  __syncthreads();
  if (threadIdx.x < kChunkQ && k0 + threadIdx.x < nq) {
    double s = 0;
    for (int w = 0; w < kTile / 32; ++w) s += warp_sums[w][threadIdx.x];
    atomicAdd(out + k0 + threadIdx.x, s);
  }
}

template <class Real, bool Uniform, bool Triangle>
__global__ void __launch_bounds__(kTile) exact_pair_kernel(const Atom4<Real>* __restrict__ a, int na,
                                                           const Atom4<Real>* __restrict__ b, int nb,
                                                           const PairWorkItem* __restrict__ items,
                                                           QChunkParams qp, double* __restrict__ out) {
  __shared__ Atom4<Real> tile[kTile];
  const PairWorkItem item = items[blockIdx.x];
  const int k0 = blockIdx.y * kChunkQ;
  const int i = item.i_tile * kTile + threadIdx.x;
  const Atom4<Real> ai = i < na ? a[i] : Atom4<Real>{0, 0, 0, 0};

  // This thread's Q values (past the grid end: repeat the last, discarded later).
  double qd[kChunkQ];
#pragma unroll
  for (int k = 0; k < kChunkQ; ++k) {
    const int kk = min(k0 + k, qp.nq - 1);
    qd[k] = Uniform ? qp.q0 + kk * qp.dq : qp.q[kk];
  }
  // float32 partial sums over one work item (≤ kRun·kTile pairs per thread),
  // then float64 from the block reduction on.
  Real acc[kChunkQ];
#pragma unroll
  for (int k = 0; k < kChunkQ; ++k) acc[k] = 0;
  [[maybe_unused]] float q_hi[kChunkQ], q_lo[kChunkQ];
  if constexpr (sizeof(Real) == 4) {
#pragma unroll
    for (int k = 0; k < kChunkQ; ++k) {
      q_hi[k] = static_cast<float>(qd[k]);
      q_lo[k] = static_cast<float>(qd[k] - q_hi[k]);
    }
  }

  for (int jt = item.j_begin; jt < item.j_end; ++jt) {
    const int j = jt * kTile + threadIdx.x;
    __syncthreads();
    // Padding has weight 0 at the origin: finite distances, zero terms (a far
    // sentinel would overflow r² in float32 and turn 0·∞ into NaN).
    tile[threadIdx.x] = j < nb ? b[j] : Atom4<Real>{0, 0, 0, 0};
    __syncthreads();
    // On the triangle's diagonal tile only pairs j > i count.
    const int j_lo = (Triangle && jt == item.i_tile) ? threadIdx.x + 1 : 0;
    if constexpr (sizeof(Real) == 4)
      tile_sums_float<Uniform>(ai, tile, j_lo, q_hi, q_lo, static_cast<float>(0.5 * qp.dq), acc);
    else
      tile_sums_double<Uniform>(ai, tile, j_lo, qd, qp.dq, acc);
  }
  double part[kChunkQ];
#pragma unroll
  for (int k = 0; k < kChunkQ; ++k) part[k] = acc[k];
  block_reduce_add(part, k0, qp.nq, out);
}

// Relative spacing tolerance under which a Q grid counts as uniform.
constexpr double kUniformTolerance = 1e-12;

bool is_uniform(std::span<const double> q, double& q0, double& dq) {
  q0 = q[0];
  dq = q.size() > 1 ? (q.back() - q.front()) / double(q.size() - 1) : 0.0;
  const double scale = std::max(std::abs(q.back()), std::abs(q.front()));
  for (std::size_t k = 0; k < q.size(); ++k)
    if (std::abs(q[k] - (q0 + double(k) * dq)) > kUniformTolerance * scale) return false;
  return true;
}

template <class Real, bool Uniform, bool Triangle>
void launch_all(const Atom4<Real>* a, int na, const Atom4<Real>* b, int nb,
                const std::vector<PairWorkItem>& items, const QChunkParams& qp, double* out) {
  DeviceBuffer<PairWorkItem> d_items(items);
  const unsigned q_chunks = static_cast<unsigned>((qp.nq + kChunkQ - 1) / kChunkQ);
  for (std::size_t first = 0; first < items.size(); first += kMaxItemsPerLaunch) {
    const auto count = static_cast<unsigned>(std::min<std::size_t>(kMaxItemsPerLaunch, items.size() - first));
    exact_pair_kernel<Real, Uniform, Triangle>
        <<<dim3(count, q_chunks), kTile>>>(a, na, b, nb, d_items.data() + first, qp, out);
    NS_CUDA_CHECK_LAUNCH();
  }
}

template <class Real>
void exact_on_device(const AtomBlock& a, const AtomBlock& b, PairSet set, std::span<const double> q,
                     std::span<double> out) {
  const bool triangle = set == PairSet::triangle;
  const Origin origin = block_bounds(a, b).centre;
  DeviceBuffer<Atom4<Real>> d_a(pack_atoms<Real>(a, origin));
  DeviceBuffer<Atom4<Real>> d_b;
  if (!triangle) d_b = DeviceBuffer<Atom4<Real>>(pack_atoms<Real>(b, origin));
  const Atom4<Real>* pb = triangle ? d_a.data() : d_b.data();
  const int na = static_cast<int>(a.size()), nb = static_cast<int>(triangle ? a.size() : b.size());

  QChunkParams qp{};
  qp.nq = static_cast<int>(q.size());
  const bool uniform = q.size() >= 2 && is_uniform(q, qp.q0, qp.dq);
  DeviceBuffer<double> d_q(std::vector<double>(q.begin(), q.end()));
  qp.q = d_q.data();
  DeviceBuffer<double> d_out(q.size());
  d_out.zero();

  const auto items = make_pair_work(na, nb, set, kTile, kRun);
  if (items.empty()) return;
  if (uniform && triangle) launch_all<Real, true, true>(d_a.data(), na, pb, nb, items, qp, d_out.data());
  if (uniform && !triangle) launch_all<Real, true, false>(d_a.data(), na, pb, nb, items, qp, d_out.data());
  if (!uniform && triangle) launch_all<Real, false, true>(d_a.data(), na, pb, nb, items, qp, d_out.data());
  if (!uniform && !triangle) launch_all<Real, false, false>(d_a.data(), na, pb, nb, items, qp, d_out.data());
  NS_CUDA_CHECK(cudaDeviceSynchronize());
  const auto result = d_out.download();
  for (std::size_t k = 0; k < q.size(); ++k) out[k] += result[k];
}

// Device bytes one call needs: packed atoms, work items, Q and output.
std::size_t exact_bytes(std::size_t na, std::size_t nb, PairSet set, std::size_t nq, std::size_t real_size) {
  const std::size_t atoms = set == PairSet::triangle ? na : na + nb;
  const double items = double(na) / kTile * (double(nb) / kTile / kRun + 1);
  return atoms * 4 * real_size + static_cast<std::size_t>(items) * sizeof(PairWorkItem) + 2 * nq * sizeof(double);
}

}  // namespace

void exact_pair_sums_cuda(const AtomBlock& a, const AtomBlock& b, PairSet set, std::span<const double> q,
                          std::span<double> out, const CudaDebyeOptions& options) {
  if (q.size() != out.size()) fail("exact_pair_sums_cuda: q and out sizes differ");
  if (q.empty()) return;
  const std::size_t budget = device_memory_budget(options.max_device_memory);
  const std::size_t real_size = options.precision == Precision::single ? 4 : 8;
  split_until_fits(
      a, b, set, kTile,
      [&](std::size_t na, std::size_t nb, PairSet s) { return exact_bytes(na, nb, s, q.size(), real_size) <= budget; },
      [&](const AtomBlock& pa, const AtomBlock& pb, PairSet s) {
        if (options.precision == Precision::single) exact_on_device<float>(pa, pb, s, q, out);
        else exact_on_device<double>(pa, pb, s, q, out);
      });
}

}  // namespace nanoscatter::debye
