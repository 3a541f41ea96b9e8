// CUDA path of the exact Debye pair sums:
//   out[k] += Σ_pairs w_i w_j sin(q_k r_ij) / r_ij.
//
// Layout: a block owns one i tile (one atom per thread) and walks a run of j
// tiles staged in shared memory; blockIdx.y picks a chunk of K consecutive
// Q values that each thread keeps in registers. On a uniform Q grid the
// K values come from the three-term recurrence
//   s_{k+1} = 2 cos(Δq r) s_k − s_{k−1}      (sin((k+1)θ+φ) identity),
// restarted from accurately evaluated sines at every chunk (K = 32 steps; a
// 64-step variant measured no faster on an H200), so three float operations per pair·Q remain (Reinsch's form, see
// tile_sums_float). Non-uniform grids evaluate every sine.
// Precision: float32 partial sums over one j tile, float64 per thread from
// there on (shared memory), reduced over the block in float64 and added to the float64 output with one atomic per Q
// and block.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/device_buffer.cuh"
#include "debye/atom_pack.cuh"
#include "debye/pair_sums.hpp"
#include "debye/pair_tiles.hpp"
#include "debye/q_grid.hpp"

namespace nanoscatter::debye {
namespace {

constexpr int kTile = 128;       // atoms per i tile (= threads per block) and per j tile
constexpr int kRun = 16;         // j tiles per work item
constexpr int kChunkQ = 32;      // Q values per thread (recurrence length between restarts)
constexpr int kFlushPairs = 32;  // pairs per float32 partial sum before it joins the float64 total
constexpr int kMaxItemsPerLaunch = 1 << 16;  // bounds a launch's length; progress between launches

// Accurate float sin/cos for the recurrence's start values and step. The
// hardware __sinf has an absolute error up to 3.6e-7 that is a smooth,
// deterministic function of its argument, so in a crystal (thousands of
// pairs at one distance) it adds up coherently; in the recurrence's step
// angle it becomes a frequency error that grows along the chunk. Measured
// on an H200 with __sinf: 5.9e-5 relative error on a 21k-atom Au sphere.
// Here: Cody–Waite reduction by π/2 (two-term constant; the integer from
// the 1.5·2²³ rounding trick, which keeps the quarter-rate rint unit free)
// and the Cephes minimax polynomials on [−π/4, π/4] (≤ 1 ulp).
constexpr float kTwoOverPi = 0.636619772367581343f;
constexpr float kHalfPiHi = 1.57079637050628662f;
constexpr float kHalfPiLo = -4.37113900018624284e-8f;
constexpr float kRoundMagic = 12582912.f;  // 1.5·2²³: x + magic − magic rounds to an integer

// sin and cos of x_hi + x_lo (x_lo a small correction, e.g. the exact FMA
// residual of the product that gave x_hi); |x| < 2²² π/2.
__device__ __forceinline__ void sincos_accurate(float x_hi, float x_lo, float& s, float& c) {
  const float shifted = fmaf(x_hi, kTwoOverPi, kRoundMagic);
  const int quadrant = __float_as_int(shifted) & 3;
  const float n = shifted - kRoundMagic;
  float y = fmaf(-n, kHalfPiHi, x_hi);
  y = fmaf(-n, kHalfPiLo, y) + x_lo;
  const float y2 = y * y;
  float ps = fmaf(y2, -1.9515295891e-4f, 8.3321608736e-3f);
  ps = fmaf(ps, y2, -1.6666654611e-1f);
  ps = fmaf(ps * y2, y, y);
  float pc = fmaf(y2, 2.443315711809948e-5f, -1.388731625493765e-3f);
  pc = fmaf(pc, y2, 4.166664568298827e-2f);
  pc = fmaf(pc * y2, y2, fmaf(-0.5f, y2, 1.f));
  // sin(y + nπ/2), cos(y + nπ/2) by quadrant.
  const bool swap = quadrant & 1;
  const float sv = swap ? pc : ps, cv = swap ? ps : pc;
  s = (quadrant & 2) ? -sv : sv;
  c = ((quadrant + 1) & 2) ? -cv : cv;
}

// The product q·r of a float pair q = q_hi + q_lo (a double Q) and r, as a
// head and the exact residual of the head's rounding.
__device__ __forceinline__ void product_with_residual(float q_hi, float q_lo, float r, float& p, float& e) {
  p = q_hi * r;
  e = fmaf(q_hi, r, -p) + q_lo * r;
}

struct QChunkParams {
  double q0, dq;  // uniform grid q_k = q0 + k dq (uniform kernels)
  const double* q;  // explicit grid (non-uniform kernels)
  int nq;
};

// Per-thread accumulation of one j tile against atom `ai`, float32 kernel.
// Uniform grids: the K sines along Q of one pair come from the recurrence
// t_k = 2cos θ·t_{k−1} − t_{k−2} in Reinsch's difference form
//   u_k = u_{k−1} + λ t_{k−1},  t_k = t_{k−1} + u_k,  λ = −4 sin²(θ/2),
// whose rounding errors grow linearly along the chunk instead of with
// 1/sin θ as in the plain form (short distances have small θ = Δq·r). When
// cos θ < 0 the form runs on t_k = (−1)^k s_k, which obeys the same
// recurrence with θ → π − θ (λ = −4cos²(θ/2)), and the sign comes back in
// the accumulation. Per pair·Q: one FMA and two adds.
template <bool Uniform, int K>
__device__ __forceinline__ void tile_sums_float(const Atom4<double>& ai, const Atom4<double>* tile, int j_lo,
                                                int jj_begin, int jj_end,
                                                const float (&q_hi)[K], const float (&q_lo)[K],
                                                float mid_hi, float mid_lo, float half_dq, float (&acc)[K]) {
#pragma unroll 2
  for (int jj = jj_begin; jj < jj_end; ++jj) {
    const Atom4<double> bj = tile[jj];
    const float wij = jj < j_lo ? 0.f : static_cast<float>(ai.w * bj.w);
    // Distances in float64, then r to ~1e-14 as r_hi + r_lo (one Newton
    // step on the float reciprocal root). In a crystal, float32 coordinates
    // round alike for a whole lattice plane, and a float r (or the hardware
    // rsqrt's ~1e-7 relative error, a smooth function of r²) is alike for a
    // whole shell: either shifts the phases q·r of 10⁴–10⁵ pairs together,
    // which measured 5–7e-5 relative error in I on a 21k-atom Au sphere.
    const double dxd = ai.x - bj.x, dyd = ai.y - bj.y, dzd = ai.z - bj.z;
    const double d2d = fma(dxd, dxd, fma(dyd, dyd, dzd * dzd));
    if (d2d > 0.0) {
      const float y = rsqrtf(static_cast<float>(d2d));
      const double r0 = d2d * double(y);
      const double rd = fma(0.5 * double(y), fma(-r0, r0, d2d), r0);
      const float r = static_cast<float>(rd);
      const float r_lo = static_cast<float>(rd - double(r));
      // 1/r refined the same way: the hardware rsqrt's error is biased, and
      // at low Q, where every term is ≈ q > 0, a bias of 1e-7 in the
      // amplitudes scales the whole pair sum; in the fringes of the particle
      // form factor (I ~ 1e-3 of its maximum) that measured 4e-5 in I.
      const double yd = double(y) * fma(-0.5 * d2d * double(y), double(y), 1.5);
      const float scale = wij * static_cast<float>(yd);
      if constexpr (Uniform) {
        // x_mid = (q_0 + Δq/2)·r and h = θ/2 = (Δq/2)·r.
        float p, e, s_mid, c_mid, s_h, c_h;
        product_with_residual(mid_hi, mid_lo, r, p, e);
        sincos_accurate(p, fmaf(mid_hi, r_lo, e), s_mid, c_mid);
        const float h = half_dq * r;
        sincos_accurate(h, fmaf(half_dq, r_lo, fmaf(half_dq, r, -h)), s_h, c_h);
        const bool mirror = c_h * c_h < s_h * s_h;  // cos θ < 0
        const float sign = mirror ? -1.f : 1.f;
        // t_0 = sin(x_mid − h); u_1 = t_1 − t_0 = 2cos(x_mid) sin h, or
        // −2 sin(x_mid) cos h when mirrored.
        float t = (s_mid * c_h - c_mid * s_h) * scale;
        float u = (mirror ? -2.f * s_mid * c_h : 2.f * c_mid * s_h) * scale;
        const float lambda = mirror ? -4.f * c_h * c_h : -4.f * s_h * s_h;
        acc[0] += t;
        t += u;
        acc[1] = fmaf(sign, t, acc[1]);
#pragma unroll
        for (int k = 2; k < K; ++k) {
          u = fmaf(lambda, t, u);
          t += u;
          acc[k] = (k & 1) ? fmaf(sign, t, acc[k]) : acc[k] + t;
        }
      } else {
#pragma unroll
        for (int k = 0; k < K; ++k) {
          float p, e, sv, cv;
          product_with_residual(q_hi[k], q_lo[k], r, p, e);
          sincos_accurate(p, fmaf(q_hi[k], r_lo, e), sv, cv);
          acc[k] = fmaf(sv, scale, acc[k]);
        }
      }
    } else if (wij != 0.f) {
      // Coincident atoms: sin(q r)/r → q.
#pragma unroll
      for (int k = 0; k < K; ++k) acc[k] += wij * (q_hi[k] + q_lo[k]);
    }
  }
}

// Per-thread accumulation, float64 kernel: direct sines, the plain
// recurrence in double (its 1/sin θ error growth stays ~1e-14 here).
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

// Sum the per-thread partials of the block in float64 and add them to out.
template <class Real, int K>
__device__ __forceinline__ void block_reduce_add(const Real (&acc)[K], int k0, int nq, double* out) {
  __shared__ double warp_sums[kTile / 32][K];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    double v = acc[k];
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
__global__ void __launch_bounds__(kTile) exact_pair_kernel(const Atom4<double>* __restrict__ a, int na,
                                                           const Atom4<double>* __restrict__ b, int nb,
                                                           const PairWorkItem* __restrict__ items,
                                                           QChunkParams qp, double* __restrict__ out) {
  // Atoms are float64 in both precisions (see tile_sums_float); Real is
  // the precision of the phases, sines and partial sums.
  __shared__ Atom4<double> tile[kTile];
  const PairWorkItem item = items[blockIdx.x];
  const int k0 = blockIdx.y * K;
  const int i = item.i_tile * kTile + threadIdx.x;
  const Atom4<double> ai = i < na ? a[i] : Atom4<double>{0, 0, 0, 0};

  // This thread's Q values (past the grid end: repeat the last, discarded later).
  double qd[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int kk = min(k0 + k, qp.nq - 1);
    qd[k] = Uniform ? qp.q0 + kk * qp.dq : qp.q[kk];
  }
  // Partial sums in Real over kFlushPairs pairs per thread, then float64
  // per thread in shared memory. Longer float32 sums drift: at low Q every
  // term is ≈ q > 0 and rounding of a growing positive sum is biased alike
  // in every thread (measured on a 21k-atom Au sphere: 6.8e-5 relative
  // error in I with 2048-pair float32 partials, 9.4e-6 with 128).
  __shared__ double total[K][kTile];
#pragma unroll
  for (int k = 0; k < K; ++k) total[k][threadIdx.x] = 0;
  Real acc[K];
  [[maybe_unused]] float q_hi[K], q_lo[K], mid_hi = 0, mid_lo = 0;
  if constexpr (sizeof(Real) == 4) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      q_hi[k] = static_cast<float>(qd[k]);
      q_lo[k] = static_cast<float>(qd[k] - q_hi[k]);
    }
    const double mid = qp.q0 + (k0 + 0.5) * qp.dq;  // uniform grids: half a step past the chunk start
    mid_hi = static_cast<float>(mid);
    mid_lo = static_cast<float>(mid - mid_hi);
  }

  for (int jt = item.j_begin; jt < item.j_end; ++jt) {
    const int j = jt * kTile + threadIdx.x;
    __syncthreads();
    // Padding has weight 0 at the origin: finite distances, zero terms (a far
    // sentinel would overflow r² in float32 and turn 0·∞ into NaN).
    tile[threadIdx.x] = j < nb ? b[j] : Atom4<double>{0, 0, 0, 0};
    __syncthreads();
    // On the triangle's diagonal tile only pairs j > i count.
    const int j_lo = (Triangle && jt == item.i_tile) ? threadIdx.x + 1 : 0;
    for (int sub = 0; sub < kTile; sub += kFlushPairs) {
#pragma unroll
      for (int k = 0; k < K; ++k) acc[k] = 0;
      if constexpr (sizeof(Real) == 4)
        tile_sums_float<Uniform, K>(ai, tile, j_lo, sub, sub + kFlushPairs, q_hi, q_lo, mid_hi, mid_lo,
                                    static_cast<float>(0.5 * qp.dq), acc);
      else
        tile_sums_double<Uniform, K>(ai, tile, j_lo, sub, sub + kFlushPairs, qd, qp.dq, acc);
#pragma unroll
      for (int k = 0; k < K; ++k) total[k][threadIdx.x] += acc[k];
    }
  }
  double part[K];
#pragma unroll
  for (int k = 0; k < K; ++k) part[k] = total[k][threadIdx.x];
  block_reduce_add<double, K>(part, k0, qp.nq, out);
}

template <class Real, bool Uniform, bool Triangle, int K>
void launch_all(const Atom4<double>* a, int na, const Atom4<double>* b, int nb,
                const std::vector<PairWorkItem>& items, const QChunkParams& qp, double* out) {
  DeviceBuffer<PairWorkItem> d_items(items);
  const unsigned q_chunks = static_cast<unsigned>((qp.nq + K - 1) / K);
  for (std::size_t first = 0; first < items.size(); first += kMaxItemsPerLaunch) {
    const auto count = static_cast<unsigned>(std::min<std::size_t>(kMaxItemsPerLaunch, items.size() - first));
    exact_pair_kernel<Real, Uniform, Triangle, K>
        <<<dim3(count, q_chunks), kTile>>>(a, na, b, nb, d_items.data() + first, qp, out);
    NS_CUDA_CHECK_LAUNCH();
  }
}

template <class Real>
void exact_on_device(const AtomBlock& a, const AtomBlock& b, PairSet set, std::span<const double> q,
                     std::span<double> out) {
  const bool triangle = set == PairSet::triangle;
  const Origin origin = block_bounds(a, b).centre;
  DeviceBuffer<Atom4<double>> d_a(pack_atoms<double>(a, origin));
  DeviceBuffer<Atom4<double>> d_b;
  if (!triangle) d_b = DeviceBuffer<Atom4<double>>(pack_atoms<double>(b, origin));
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
  if (uniform) {
    if (triangle) launch_all<Real, true, true, kChunkQ>(d_a.data(), na, pb, nb, items, qp, o);
    else launch_all<Real, true, false, kChunkQ>(d_a.data(), na, pb, nb, items, qp, o);
  } else {
    if (triangle) launch_all<Real, false, true, kChunkQ>(d_a.data(), na, pb, nb, items, qp, o);
    else launch_all<Real, false, false, kChunkQ>(d_a.data(), na, pb, nb, items, qp, o);
  }
  NS_CUDA_CHECK(cudaDeviceSynchronize());
  const auto result = d_out.download();
  for (std::size_t k = 0; k < q.size(); ++k) out[k] += result[k];
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
  const std::size_t budget = device_memory_budget(options.max_device_memory);
  split_until_fits(
      a, b, set, kTile,
      [&](std::size_t na, std::size_t nb, PairSet s) { return exact_bytes(na, nb, s, q.size()) <= budget; },
      [&](const AtomBlock& pa, const AtomBlock& pb, PairSet s) {
        if (options.precision == Precision::single) exact_on_device<float>(pa, pb, s, q, out);
        else exact_on_device<double>(pa, pb, s, q, out);
      });
}

}  // namespace nanoscatter::debye
