// CUDA path of the mesh form factor (mesh_backends.hpp, triangle_kernel.hpp):
//   out[i] = F(q_i) for |q_i| ≥ q_min.
//
// Kernel layout: one thread per q (its q in registers, float64), or 2 or 4
// threads per q sharing its tile work (kLanes, more warps per SM), or 2 q
// per thread interleaved (kQs, more independent work per warp). A block
// walks a run of mesh tiles (mesh_tiles.hpp); per tile it stages the tile's
// triangles (edges, normal, corners; TileTriangle) in shared memory, every
// thread computes exp(i p_v), p_v = q·v (float64 phase, reduced in float64),
// of the tile's ≤ 32 vertices once — one sincos per vertex·q — into its own
// column of shared memory ([vertex][thread], no bank conflicts), and runs
// the triangle paths (mesh_kernel) over the tile's ≤ 48 triangles, which
// read their corners' exp(i p) from there. Sums: `Real`
// over one tile, float64 over tiles (float32 with float64 reduction; the
// float64 kernel is the same code with Real = double). blockIdx.y splits the
// tiles when there are too few q to fill the GPU; the splits meet in the
// output through float64 atomics, each already multiplied by the q-only
// factor exp(i q·c)(−i/|q|²) (the sum is linear).
//
// SASS (sm_90, float, 2 threads and 2 q per thread, per triangle and 2 q):
// 89 instructions for K = 7, 97 / 105 / 113 for K = 8 / 9 / 10 (were 90
// for K = 7 and 115 for K = 10); per vertex and 2 q ≈ 61 (was 70: no
// float64 constant 2, one 128-bit store for both q, stepped pointers, and
// the loop now unrolled by 2).
//
// Hyperblocks: q go in blocks (h_q points) sized from the memory budget
// (device_memory_budget: the user's cap or half the free memory), the mesh
// stays resident when it fits in half the budget, otherwise it goes in
// blocks of tiles (h_t) and every q block meets every tile block, only
// slower. Two streams alternate over q blocks (≤ 1 M points each, so that
// even a 90 × 200 × 200 grid makes several) with pinned host buffers: while
// a block's kernels run, the previous block copies back and the host
// unpacks it and packs the next one (mesh_host_copy.hpp, OpenMP), and the
// next block's kernels queue behind in the other stream, filling the tail
// of the running launch. CUDA events around each block's launches give
// MeshRunStats::kernel_seconds.
//
// Autotune: the first run for a (device, precision, tile count, hyperblock
// size class) times the shapes of kCandidates (threads per block, threads
// per q, q per thread), each with the branching and the branch-free
// triangle kernel, on up to 2^18 q of the first hyperblock over a prefix of
// the tiles (kTrialQ, kTrialWork) and keeps the fastest in the plan's state.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <numbers>
#include <string>
#include <type_traits>
#include <vector>

#include "core/device_buffer.cuh"
#include "gisaxs/mesh/mesh_backends.hpp"
#include "gisaxs/mesh/mesh_host_copy.hpp"
#include "gisaxs/mesh/triangle_kernel.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::gisaxs::mesh {

namespace {

constexpr std::size_t kQBytes = 3 * sizeof(double) + 2 * sizeof(double);  // q in, F out, per point and stream
// 1 M q: 16 K blocks of 64 threads (≈ 15 waves of 8 blocks on 132 SMs)
// per launch, and several blocks per grid for the host/transfer overlap.
constexpr std::size_t kMaxQPerHyperblock = std::size_t(1) << 20;
constexpr std::size_t kMinQPerHyperblock = 256;
// Autotuner candidates: threads per block, threads per q (kLanes of
// mesh_kernel) and q per thread (kQs), each with the branching and the
// branch-free kernel. More lanes only with blocks of ≥ 64 q (warps of one
// part, and the tile loads amortised); 4 lanes need ≤ 32 registers per
// thread to fill an SM, so only the largest blocks try them. Two q per
// thread: the same shared memory per q with half the warps, each with two
// independent chains (instruction-level instead of warp-level parallelism).
struct Candidate {
  int threads, lanes, qs = 1;
};
constexpr Candidate kCandidates[] = {{64, 1},     {128, 1},    {256, 1},    {128, 2},   {256, 2},
                                     {256, 4},    {64, 1, 2},  {128, 1, 2}, {128, 2, 2}, {256, 2, 2},
                                     {256, 4, 2}};

struct DeviceMesh {
  const TileRange* tiles;
  const double* vertex_xyz;
  const std::uint32_t* corners;
  const double* normal_xyz;
  std::size_t tile_count;
  double cx, cy, cz;
};

// exp(i p_v) for p_v = π t/2: float via the float64 reduction of
// triangle_kernel.hpp (exp_i_half_pi), double via sincospi (exact
// reduction; t/2 is exact).
template <class Real>
__device__ __forceinline__ ExpPhase<Real> exp_of_quarter_turns(double t) {
  if constexpr (sizeof(Real) == 4) {
    return exp_i_half_pi(t);
  } else {
    double s, c;
    sincospi(0.5 * t, &s, &c);
    return {c, s};
  }
}

// A tile triangle as the kernel reads it (one broadcast load per field
// group): the edges b − a and c − a and N = (b − a) × (c − a) in Real,
// the byte offset of corner a's row of exp(i p) in shared memory (the
// series paths read only E_a) and the packed local corners (the other
// paths read E_b, E_c too).
// In float, also the longest edge from corner a (rounded up), for the test
// |q| · edge > kExactPhaseReach (triangle_kernel.hpp): it takes the
// struct's padding (48 bytes either way).
template <class Real>
struct alignas(16) TileTriangle {
  Real e1x, e1y, e1z, e2x, e2y, e2z, nx, ny, nz;
  std::uint32_t row_a, corners;
};
template <>
struct alignas(16) TileTriangle<float> {
  float e1x, e1y, e1z, e2x, e2y, e2z, nx, ny, nz;
  std::uint32_t row_a, corners;
  float edge;
};
static_assert(sizeof(TileTriangle<float>) == 48);

// Shared memory of a block of `threads` threads, `lanes` per q and `qs` q
// per thread: the tile's triangles and exp(i p) per vertex and q of the
// block (2 Real).
template <class Real>
std::size_t shared_bytes(int threads, int lanes, int qs) {
  return kTileTriangles * sizeof(TileTriangle<Real>) +
         2 * std::size_t(kTileVertices) * (std::size_t(threads / lanes) * qs) * sizeof(Real);
}

// Whether every reach of a warp's lanes is below a tier's bound (uniform
// over the warp). float: the warp's largest reach by one integer max
// reduction of the bit patterns (reach ≥ +0, where the order of the bits is
// that of the values), then one compare per tier instead of a vote per
// tier. double (the reduction is 32-bit only), or before sm_80: a vote per
// tier.
template <class Real>
struct WarpReach {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  static constexpr bool kReduce = sizeof(Real) == 4;
#else
  static constexpr bool kReduce = false;
#endif
  Real value;  // the warp's largest reach (kReduce) or this lane's
  __device__ explicit WarpReach(Real reach) : value(reach) {
    if constexpr (kReduce) value = __uint_as_float(__reduce_max_sync(0xffffffffu, __float_as_uint(reach)));
  }
  __device__ bool operator()(Real bound) const {
    if constexpr (kReduce)
      return value < bound;
    else
      return __all_sync(0xffffffffu, value < bound);
  }
};

// kBlend: the branch-free form of the general triangle kernel (both series
// and direct forms, then a select) instead of the branching one, for warps
// whose lanes need different paths; the autotuner tries both.
//
// Per triangle and q the kernel takes, warp-uniformly (over the warp's
// lanes and the thread's kQs q), the first of
//   1. the anchored series (triangle_kernel.hpp) of the first tier
//      (K, R_max) with every reach max(|y1|, |y2|) < R_max (float: K = 7,
//      8, 9, 10 up to 0.45, 0.63, 0.84, 1; double: 14, 16, 18 up to 0.5,
//      0.8, 1), by one warp max reduction (WarpReach);
//   2. the three-point Lagrange form, where every pairwise phase difference
//      is ≥ δ;
//   3. the general sorted kernel (triangle_integral[_blend]) per lane.
// On smooth meshes fine enough that most triangle·q phase spans are ≲ 1
// (HipGISAXS's 91,752-triangle ellipsoid on 90 × 800 × 800 q, 2 q per
// thread: 57 % of warp triangles take K = 7, 27 % K = 8, 14 % K = 9, 2 %
// K = 10, 0.2 % the others), no lane sorts and none diverges; coarse meshes
// take 2 where the phases are far apart. y1, y2 and q·N come from the
// triangle's edges and normal in Real (3 FMA each), so per vertex and q
// only exp(i p) is stored (8 bytes in float, was 12).
//
// kLanes: threads per q. The shared memory per q (the tile's exp(i p))
// caps the q resident on an SM (≈ 900 in float); with kLanes threads per q
// there are kLanes times more warps over the same q and shared memory (more
// latency hidden): the kLanes threads of a q (one per warp group
// `part`, same lane in each, so shared accesses stay conflict-free) share the
// tile's vertex phases (vertex k by part k mod kLanes, then a barrier) and
// its triangles (triangle t by part t mod kLanes), and each adds its partial
// sum to the output (the sum is linear; same atomics as the tile splits).
//
// kQs: q per thread (1 or 2), the other way to hide latency: a thread's kQs
// q (columns tid, tid + nt, … of the shared arrays, still conflict-free)
// run through each triangle interleaved, independent dependency chains that
// share the triangle's loads and its path (the vote covers both q). Per q
// the arithmetic and the order of the sums are those of kQs = 1.
//
// Every thread of a block runs every triangle (the votes need whole warps):
// threads beyond nq or below q_min compute with their q (0 beyond nq) and
// drop the result.
template <class Real, bool kBlend, int kLanes, int kQs>
__global__ void mesh_kernel(DeviceMesh m, const double* __restrict__ q, std::size_t nq, double q_min2,
                            double* __restrict__ out, std::size_t tiles_per_split) {
  // exp(i p) as one (cos, sin) pair, first in shared memory (16-byte
  // aligned): one 64-bit (float) or 128-bit (double) load per corner.
  using Pair = std::conditional_t<sizeof(Real) == 4, float2, double2>;
  extern __shared__ __align__(16) unsigned char smem[];
  // nt: thread columns per part; nc = nt · kQs: q per block (shared columns)
  const int threads = blockDim.x, nt = threads / kLanes, nc = nt * kQs;
  const int tid = threadIdx.x % nt, part = threadIdx.x / nt;
  Pair* s_exp = reinterpret_cast<Pair*>(smem);
  TileTriangle<Real>* s_triangle = reinterpret_cast<TileTriangle<Real>*>(s_exp + kTileVertices * nc);
  const std::uint32_t row_bytes = std::uint32_t(nc * sizeof(Pair));
  // A row holds a vertex's exp(i p) for the block's q: in float with 2 q
  // per thread, a thread's two side by side (one 128-bit load or store for
  // both, conflict-free), otherwise q j of thread tid in column j·nt + tid
  // (side by side, two 128-bit double pairs would meet in the same banks).
  constexpr bool kSideBySide = sizeof(Real) == 4 && kQs == 2;
  // This thread's first column of exp(i p), as a byte address to add rows to.
  unsigned char* const my_exp = reinterpret_cast<unsigned char*>(s_exp + (kSideBySide ? kQs * tid : tid));
  auto load_exp = [&](const unsigned char* row, Pair (&e)[kQs]) {
    if constexpr (kSideBySide) {
      const float4 v = *reinterpret_cast<const float4*>(row);
      e[0] = Pair{v.x, v.y}, e[1] = Pair{v.z, v.w};
    } else {
#pragma unroll
      for (int j = 0; j < kQs; ++j) e[j] = *reinterpret_cast<const Pair*>(row + j * nt * sizeof(Pair));
    }
  };

  static_assert(kLanes == 1 || kLanes == 2 || kLanes == 4);
  static_assert(kQs == 1 || kQs == 2);
  // 2q/π in float64 for the vertex phases (quarter turns), q in Real for the
  // triangle phases y and q·N.
  double hx[kQs], hy[kQs], hz[kQs], acc_re[kQs], acc_im[kQs];
  Real fx[kQs], fy[kQs], fz[kQs];
  float q_norm[kQs];  // |q| for the test |q| · edge > kExactPhaseReach (float)
#pragma unroll
  for (int j = 0; j < kQs; ++j) {
    const std::size_t i = std::size_t(blockIdx.x) * nc + j * nt + tid;
    double qx = 0, qy = 0, qz = 0;
    if (i < nq) qx = q[3 * i], qy = q[3 * i + 1], qz = q[3 * i + 2];
    constexpr double kQuarterTurns = 2 * std::numbers::inv_pi;  // per radian
    hx[j] = qx * kQuarterTurns, hy[j] = qy * kQuarterTurns, hz[j] = qz * kQuarterTurns;
    fx[j] = Real(qx), fy[j] = Real(qy), fz[j] = Real(qz);
    q_norm[j] = __double2float_ru(sqrt(qx * qx + qy * qy + qz * qz));
    acc_re[j] = 0, acc_im[j] = 0;
  }
  const std::size_t begin = std::size_t(blockIdx.y) * tiles_per_split;
  const std::size_t end = min(begin + tiles_per_split, m.tile_count);
  for (std::size_t tile = begin; tile < end; ++tile) {
    const TileRange r = m.tiles[tile];
    __syncthreads();  // the previous tile is done with the shared arrays
    const int self = threadIdx.x;
    const double* vertex = m.vertex_xyz + 3 * std::size_t(r.first_vertex);
    for (int k = self; k < int(r.triangle_count); k += threads) {
      const std::size_t g = r.first_triangle + k;
      const std::uint32_t c = m.corners[g];
      const double* a = vertex + 3 * (c & 0xff);
      const double* b = vertex + 3 * ((c >> 8) & 0xff);
      const double* d = vertex + 3 * ((c >> 16) & 0xff);
      const double* n = m.normal_xyz + 3 * g;
      if constexpr (sizeof(Real) == 4) {
        const double e1 = (b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]);
        const double e2 = (d[0] - a[0]) * (d[0] - a[0]) + (d[1] - a[1]) * (d[1] - a[1]) + (d[2] - a[2]) * (d[2] - a[2]);
        s_triangle[k] = TileTriangle<Real>{Real(b[0] - a[0]), Real(b[1] - a[1]), Real(b[2] - a[2]),
                                           Real(d[0] - a[0]), Real(d[1] - a[1]), Real(d[2] - a[2]),
                                           Real(n[0]),        Real(n[1]),        Real(n[2]),
                                           (c & 0xff) * row_bytes, c, __double2float_ru(sqrt(max(e1, e2)))};
      } else {
        s_triangle[k] = TileTriangle<Real>{Real(b[0] - a[0]), Real(b[1] - a[1]), Real(b[2] - a[2]),
                                           Real(d[0] - a[0]), Real(d[1] - a[1]), Real(d[2] - a[2]),
                                           Real(n[0]),        Real(n[1]),        Real(n[2]),
                                           (c & 0xff) * row_bytes, c};
      }
    }
    // Vertex phases from the vertices in global memory (one address per
    // warp, cached); the barrier below puts them before the triangles.
    // (Pointers stepped rather than indices scaled: fewer address
    // instructions per vertex.)
    const double* v = vertex + 3 * part;
    unsigned char* row = my_exp + part * row_bytes;
    for (int k = part; k < int(r.vertex_count); k += kLanes, v += 3 * kLanes, row += kLanes * row_bytes) {
      const double vx = v[0], vy = v[1], vz = v[2];
      ExpPhase<Real> e[kQs];
#pragma unroll
      for (int j = 0; j < kQs; ++j) e[j] = exp_of_quarter_turns<Real>(hx[j] * vx + hy[j] * vy + hz[j] * vz);
      if constexpr (kSideBySide) {
        *reinterpret_cast<float4*>(row) = float4{e[0].c, e[0].s, e[1].c, e[1].s};
      } else {
#pragma unroll
        for (int j = 0; j < kQs; ++j) *reinterpret_cast<Pair*>(row + j * nt * sizeof(Pair)) = Pair{e[j].c, e[j].s};
      }
    }
    __syncthreads();
    Real sum_re[kQs], sum_im[kQs];
#pragma unroll
    for (int j = 0; j < kQs; ++j) sum_re[j] = 0, sum_im[j] = 0;
    for (int t = part; t < int(r.triangle_count); t += kLanes) {
      const TileTriangle<Real> tri = s_triangle[t];
      Real y1[kQs], y2[kQs], w[kQs], reach;
      // The phase differences y (triangle_kernel.hpp, "Phase accuracy"): in
      // Real from the edges, or — float, where some lane's |q| · edge
      // exceeds kExactPhaseReach (warp-uniform) — in float64 from the
      // corners in global memory (cached; the same address in every lane).
      bool exact = false;
      if constexpr (sizeof(Real) == 4) {
        bool far = false;
#pragma unroll
        for (int j = 0; j < kQs; ++j) far = far || q_norm[j] * tri.edge > kExactPhaseReach;
        exact = __any_sync(0xffffffffu, far);
      }
      if (exact) {
        const double* a = vertex + 3 * (tri.corners & 0xff);
        const double* b = vertex + 3 * ((tri.corners >> 8) & 0xff);
        const double* c = vertex + 3 * ((tri.corners >> 16) & 0xff);
        constexpr double kRadiansPerQuarterTurn = std::numbers::pi / 2;
#pragma unroll
        for (int j = 0; j < kQs; ++j)
          exact_phase_differences<Real>(hx[j] * kRadiansPerQuarterTurn, hy[j] * kRadiansPerQuarterTurn,
                                        hz[j] * kRadiansPerQuarterTurn, a, b, c, y1[j], y2[j]);
      } else {
#pragma unroll
        for (int j = 0; j < kQs; ++j) {
          y1[j] = fx[j] * tri.e1x + fy[j] * tri.e1y + fz[j] * tri.e1z;
          y2[j] = fx[j] * tri.e2x + fy[j] * tri.e2y + fz[j] * tri.e2z;
        }
      }
#pragma unroll
      for (int j = 0; j < kQs; ++j) {
        w[j] = fx[j] * tri.nx + fy[j] * tri.ny + fz[j] * tri.nz;
        const Real reach_j = max(abs(y1[j]), abs(y2[j]));
        reach = j == 0 ? reach_j : max(reach, reach_j);
      }
      const unsigned char* row_a = my_exp + tri.row_a;
      Pair ea[kQs];
      load_exp(row_a, ea);
      // The anchored series (w e/E_a), then times E_a.
      auto add_anchored = [&](const Real (&fr)[kQs], const Real (&fi)[kQs]) {
#pragma unroll
        for (int j = 0; j < kQs; ++j) {
          // FMAs into the sums in each branch (not a product added
          // after the branches join).
          sum_re[j] = fma(ea[j].x, fr[j], fma(-ea[j].y, fi[j], sum_re[j]));
          sum_im[j] = fma(ea[j].x, fi[j], fma(ea[j].y, fr[j], sum_im[j]));
        }
      };
      // The first series tier whose bound covers the warp's largest reach.
      const WarpReach<Real> warp_reach(reach);
      auto series = [&]<int K>() {
        Real fr[kQs], fi[kQs];
#pragma unroll
        for (int j = 0; j < kQs; ++j) anchored_series<Real, K>(y1[j], y2[j], w[j], fr[j], fi[j]);
        add_anchored(fr, fi);
      };
      if (!with_series_tier<Real>(warp_reach, series)) {
        const unsigned char* row_b = my_exp + ((tri.corners >> 8) & 0xff) * row_bytes;
        const unsigned char* row_c = my_exp + ((tri.corners >> 16) & 0xff) * row_bytes;
        Pair eb[kQs], ec[kQs];
        load_exp(row_b, eb);
        load_exp(row_c, ec);
        Real gap = Real(kSeriesSwitch);
#pragma unroll
        for (int j = 0; j < kQs; ++j) {
          gap = min(gap, min(min(abs(y1[j]), abs(y2[j])), abs(y2[j] - y1[j])));
        }
        if (__all_sync(0xffffffffu, gap >= Real(kSeriesSwitch))) {
#pragma unroll
          for (int j = 0; j < kQs; ++j) {
            Real re, im;
            three_point<Real>(y1[j], y2[j], {ea[j].x, ea[j].y}, {eb[j].x, eb[j].y}, {ec[j].x, ec[j].y}, w[j], re, im);
            sum_re[j] += re, sum_im[j] += im;
          }
        } else {
#pragma unroll
          for (int j = 0; j < kQs; ++j) {
            Real re, im;
            if constexpr (kBlend)
              triangle_integral_blend<Real>(Real(0), {ea[j].x, ea[j].y}, y1[j], {eb[j].x, eb[j].y}, y2[j],
                                            {ec[j].x, ec[j].y}, re, im);
            else
              triangle_integral<Real>(Real(0), {ea[j].x, ea[j].y}, y1[j], {eb[j].x, eb[j].y}, y2[j],
                                      {ec[j].x, ec[j].y}, re, im);
            sum_re[j] += w[j] * re, sum_im[j] += w[j] * im;
          }
        }
      }
    }
#pragma unroll
    for (int j = 0; j < kQs; ++j) acc_re[j] += double(sum_re[j]), acc_im[j] += double(sum_im[j]);
  }
  if (begin >= end) return;
#pragma unroll
  for (int j = 0; j < kQs; ++j) {
    const std::size_t i = std::size_t(blockIdx.x) * nc + j * nt + tid;
    if (i >= nq) continue;
    const double qx = q[3 * i], qy = q[3 * i + 1], qz = q[3 * i + 2];
    const double q2 = qx * qx + qy * qy + qz * qz;
    if (!(q2 >= q_min2 && q2 > 0)) continue;
    // F = exp(i q·c) (−i/|q|²) Σ_T (q·N_T) e_T
    const double g_re = acc_im[j] / q2, g_im = -acc_re[j] / q2;
    double s, c;
    sincos(qx * m.cx + qy * m.cy + qz * m.cz, &s, &c);
    atomicAdd(&out[2 * i], c * g_re - s * g_im);
    atomicAdd(&out[2 * i + 1], c * g_im + s * g_re);
  }
}

// A block of tiles on the device, offsets rebased to the block.
struct DeviceTiles {
  DeviceBuffer<TileRange> tiles;
  DeviceBuffer<double> vertex_xyz;
  DeviceBuffer<std::uint32_t> corners;
  DeviceBuffer<double> normal_xyz;
  std::size_t first = 0, count = 0;
  std::size_t bytes() const {
    return tiles.size() * sizeof(TileRange) + vertex_xyz.size() * 8 + corners.size() * 4 + normal_xyz.size() * 8;
  }
};

std::size_t tile_block_bytes(const MeshTiles& m, std::size_t first, std::size_t count) {
  if (count == 0) return 0;
  const TileRange& a = m.tiles[first];
  const TileRange& b = m.tiles[first + count - 1];
  const std::size_t vertices = b.first_vertex + b.vertex_count - a.first_vertex;
  const std::size_t triangles = b.first_triangle + b.triangle_count - a.first_triangle;
  return count * sizeof(TileRange) + vertices * 3 * 8 + triangles * (4 + 3 * 8);
}

void upload_tiles(const MeshTiles& m, std::size_t first, std::size_t count, DeviceTiles& d) {
  const TileRange& a = m.tiles[first];
  const TileRange& b = m.tiles[first + count - 1];
  const std::size_t v0 = a.first_vertex, v1 = b.first_vertex + b.vertex_count;
  const std::size_t t0 = a.first_triangle, t1 = b.first_triangle + b.triangle_count;
  std::vector<TileRange> ranges(m.tiles.begin() + first, m.tiles.begin() + first + count);
  for (TileRange& r : ranges) {
    r.first_vertex -= std::uint32_t(v0);
    r.first_triangle -= std::uint32_t(t0);
  }
  d.tiles = DeviceBuffer<TileRange>(ranges);
  d.vertex_xyz = DeviceBuffer<double>(std::vector<double>(m.vertex_xyz.begin() + 3 * v0, m.vertex_xyz.begin() + 3 * v1));
  d.corners = DeviceBuffer<std::uint32_t>(std::vector<std::uint32_t>(m.corners.begin() + t0, m.corners.begin() + t1));
  d.normal_xyz = DeviceBuffer<double>(std::vector<double>(m.normal_xyz.begin() + 3 * t0, m.normal_xyz.begin() + 3 * t1));
  d.first = first;
  d.count = count;
}

template <class T>
struct PinnedBuffer {
  T* ptr = nullptr;
  std::size_t n = 0;
  void reserve(std::size_t count) {
    if (count <= n) return;
    if (ptr) cudaFreeHost(ptr);
    ptr = nullptr;
    n = 0;
    NS_CUDA_CHECK(cudaMallocHost(&ptr, count * sizeof(T)));
    n = count;
  }
  ~PinnedBuffer() {
    if (ptr) cudaFreeHost(ptr);
  }
};

}  // namespace

struct MeshCudaState {
  std::map<std::string, int> threads_per_block;  // autotune results
  const MeshTiles* resident_for = nullptr;       // the mesh whose tiles are resident
  std::size_t resident_triangles = 0;
  DeviceTiles resident;
  PinnedBuffer<double> q_host[2], f_host[2];
  cudaStream_t streams[2] = {nullptr, nullptr};
  // Around the launches of q block b, in slot b % 3: a block is harvested
  // while its own and its predecessor's events are still unchanged.
  cudaEvent_t kernel_start[3] = {}, kernel_stop[3] = {};
  // Device properties, queried once (cudaGetDeviceProperties is slow).
  int device = -1, sms = 0;
  std::size_t max_shared = 0;
  std::string device_name;
  ~MeshCudaState() {
    for (cudaStream_t s : streams)
      if (s) cudaStreamDestroy(s);
    for (cudaEvent_t e : kernel_start)
      if (e) cudaEventDestroy(e);
    for (cudaEvent_t e : kernel_stop)
      if (e) cudaEventDestroy(e);
  }
};

void MeshCudaStateDeleter::operator()(MeshCudaState* s) const { delete s; }
MeshCudaStatePtr make_mesh_cuda_state() { return MeshCudaStatePtr(new MeshCudaState); }

namespace {

struct Launch {
  int threads = 128, lanes = 1, qs = 1;
  bool blend = false;
  std::size_t splits = 1, tiles_per_split = 0;
};

// An autotuned choice packed in one int: threads per block, 1 << 16 for
// the blend kernel, threads per q (1, 2, 4) in bits 17–19 and q per thread
// (1, 2) in bits 20–21.
constexpr int kBlendFlag = 1 << 16;
constexpr int kLanesShift = 17;
constexpr int kQsShift = 20;
int threads_of(int choice) { return choice & (kBlendFlag - 1); }
int lanes_of(int choice) { return std::max(1, (choice >> kLanesShift) & 7); }
int qs_of(int choice) { return std::max(1, (choice >> kQsShift) & 3); }
bool blend_of(int choice) { return (choice & kBlendFlag) != 0; }
int make_choice(Candidate c, bool blend) {
  return c.threads | (blend ? kBlendFlag : 0) | (c.lanes << kLanesShift) | (c.qs << kQsShift);
}

using KernelFn = void (*)(DeviceMesh, const double*, std::size_t, double, double*, std::size_t);

template <class Real, int kQs>
KernelFn kernel_of_qs(int choice) {
  const bool blend = blend_of(choice);
  switch (lanes_of(choice)) {
    case 4:
      return blend ? mesh_kernel<Real, true, 4, kQs> : mesh_kernel<Real, false, 4, kQs>;
    case 2:
      return blend ? mesh_kernel<Real, true, 2, kQs> : mesh_kernel<Real, false, 2, kQs>;
    default:
      return blend ? mesh_kernel<Real, true, 1, kQs> : mesh_kernel<Real, false, 1, kQs>;
  }
}

template <class Real>
KernelFn kernel_of(int choice) {
  return qs_of(choice) == 2 ? kernel_of_qs<Real, 2>(choice) : kernel_of_qs<Real, 1>(choice);
}

// The tile splits (blockIdx.y) for nq points: the count that minimises the
// launch time modelled as waves × tiles per block, where a wave is `slots`
// resident blocks (blocks per SM × SMs); ties go to fewer splits (fewer
// atomics). Rounding the block count up to a wave matters: with 8 resident
// blocks per SM, 1,060 blocks on 132 SMs take two waves where 1,056 take one.
Launch launch_shape(std::size_t nq, std::size_t tiles, int choice, std::size_t slots) {
  Launch l;
  l.threads = threads_of(choice);
  l.lanes = lanes_of(choice);
  l.qs = qs_of(choice);
  l.blend = blend_of(choice);
  const std::size_t q_per_block = std::size_t(l.threads / l.lanes) * std::size_t(l.qs);
  const std::size_t blocks_x = std::max<std::size_t>(1, (nq + q_per_block - 1) / q_per_block);
  slots = std::max<std::size_t>(slots, 1);
  // Beyond 8 waves the rounding costs ≤ 1/8: no split count above that.
  const std::size_t most = std::max<std::size_t>(1, std::min<std::size_t>({tiles, 65535, (8 * slots) / blocks_x}));
  double best_cost = 0;
  for (std::size_t want = 1; want <= most; ++want) {
    const std::size_t per_split = (tiles + want - 1) / want;
    const std::size_t splits = (tiles + per_split - 1) / per_split;
    const std::size_t waves = (blocks_x * splits + slots - 1) / slots;
    const double cost = double(waves) * double(per_split);
    if (want == 1 || cost < best_cost) {
      best_cost = cost;
      l.splits = splits;
      l.tiles_per_split = per_split;
    }
  }
  return l;
}

// Resident blocks of the kernel `choice` on the whole device (occupancy
// calculator: shared memory limits it).
template <class Real>
std::size_t resident_blocks(int choice, int sms) {
  const int threads = threads_of(choice);
  const std::size_t smem = shared_bytes<Real>(threads, lanes_of(choice), qs_of(choice));
  int per_sm = 0;
  NS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel_of<Real>(choice), threads, smem));
  return std::size_t(std::max(per_sm, 1)) * std::size_t(sms);
}

// Over the first `tiles` tiles of t (all by default).
template <class Real>
void launch(const DeviceTiles& t, const MeshTiles& m, const double* q, std::size_t nq, double q_min, double* out,
            const Launch& l, cudaStream_t stream, std::size_t tiles = SIZE_MAX) {
  DeviceMesh view{t.tiles.data(), t.vertex_xyz.data(), t.corners.data(), t.normal_xyz.data(), std::min(t.count, tiles),
                  m.centre.x,      m.centre.y,          m.centre.z};
  const int q_per_block = l.threads / l.lanes * l.qs;
  const dim3 grid(unsigned((nq + q_per_block - 1) / q_per_block), unsigned(l.splits));
  const std::size_t smem = shared_bytes<Real>(l.threads, l.lanes, l.qs);
  const int choice = make_choice({l.threads, l.lanes, l.qs}, l.blend);
  kernel_of<Real>(choice)<<<grid, l.threads, smem, stream>>>(view, q, nq, q_min * q_min, out, l.tiles_per_split);
  NS_CUDA_CHECK(cudaGetLastError());
}

template <class Real>
void allow_shared(int choice) {
  NS_CUDA_CHECK(cudaFuncSetAttribute(kernel_of<Real>(choice), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     int(shared_bytes<Real>(threads_of(choice), lanes_of(choice), qs_of(choice)))));
}

// The autotuner's trial: up to kTrialQ q of the first hyperblock, enough
// blocks for several waves (as in a large run, which has few tile splits;
// a trial on a few thousand q would time the split regime instead), over
// the first tiles, as many as keep a trial to ≈ kTrialWork triangle·q
// (≈ 10 ms in float on an H200).
constexpr std::size_t kTrialQ = std::size_t(1) << 18;
constexpr double kTrialWork = 2e9;

template <class Real>
int autotune(const DeviceTiles& t, const MeshTiles& m, const double* q, std::size_t nq, double q_min, double* out,
             int sms, std::size_t max_shared, cudaStream_t stream) {
  const std::size_t n = std::min<std::size_t>(nq, kTrialQ);
  const std::size_t tiles =
      std::clamp<std::size_t>(std::size_t(kTrialWork / (double(n) * kTileTriangles)), 1, std::max<std::size_t>(t.count, 1));
  int best = make_choice({128, 1}, false);
  float best_ms = 1e30f;
  cudaEvent_t start, stop;
  NS_CUDA_CHECK(cudaEventCreate(&start));
  NS_CUDA_CHECK(cudaEventCreate(&stop));
  for (const Candidate& c : kCandidates)
    for (bool blend : {false, true}) {
      if (shared_bytes<Real>(c.threads, c.lanes, c.qs) > max_shared) continue;
      const int choice = make_choice(c, blend);
      allow_shared<Real>(choice);
      const Launch l = launch_shape(n, tiles, choice, resident_blocks<Real>(choice, sms));
      // Twice, the faster counts: the first launch of a kernel also loads it.
      for (int repeat = 0; repeat < 2; ++repeat) {
        NS_CUDA_CHECK(cudaEventRecord(start, stream));
        launch<Real>(t, m, q, n, q_min, out, l, stream, tiles);
        NS_CUDA_CHECK(cudaEventRecord(stop, stream));
        NS_CUDA_CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        NS_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (ms < best_ms) best_ms = ms, best = choice;
      }
    }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return best;
}

template <class Real>
void run(const MeshTiles& m, std::span<const Vec3> q, std::span<Complex> out, const CudaMeshOptions& o,
         MeshCudaState& state, MeshRunStats& stats) {
  const std::size_t nq = q.size();
  if (nq == 0) return;
  int device = 0;
  NS_CUDA_CHECK(cudaGetDevice(&device));
  if (device != state.device) {
    cudaDeviceProp prop{};
    NS_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    state.device = device;
    state.sms = prop.multiProcessorCount;
    state.max_shared = prop.sharedMemPerBlockOptin;
    state.device_name = prop.name;
  }
  const int sms = state.sms;
  const std::size_t max_shared = state.max_shared;
  for (cudaStream_t& s : state.streams)
    if (!s) NS_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (int s = 0; s < 3; ++s) {
    if (!state.kernel_start[s]) NS_CUDA_CHECK(cudaEventCreate(&state.kernel_start[s]));
    if (!state.kernel_stop[s]) NS_CUDA_CHECK(cudaEventCreate(&state.kernel_stop[s]));
  }

  // ---- hyperblock sizes from the budget --------------------------------
  // Mesh resident on the device counts against the budget of every run.
  const bool was_resident = state.resident_for == &m && state.resident_triangles == m.triangles;
  const std::size_t held = was_resident ? state.resident.bytes() : 0;
  std::size_t budget = device_memory_budget(o.max_device_memory);
  if (!o.max_device_memory) budget += held;  // half of what is free besides the mesh we hold
  const std::size_t mesh_bytes = tile_block_bytes(m, 0, m.tiles.size());
  const std::size_t min_q_bytes = 2 * kQBytes * kMinQPerHyperblock;
  std::size_t tiles_per_block = m.tiles.size();
  std::size_t mesh_block_bytes = mesh_bytes;
  if (mesh_bytes + min_q_bytes > budget) {
    // The mesh goes in blocks of tiles that fit in half the budget.
    std::size_t lo = 1;
    while (2 * lo < m.tiles.size() && tile_block_bytes(m, 0, 2 * lo) <= budget / 2) lo *= 2;
    tiles_per_block = lo;
    std::size_t largest = 0;
    for (std::size_t f = 0; f < m.tiles.size(); f += tiles_per_block)
      largest = std::max(largest, tile_block_bytes(m, f, std::min(tiles_per_block, m.tiles.size() - f)));
    mesh_block_bytes = largest;
    if (largest + min_q_bytes > budget)
      fail_option("max_device_memory", "too small for the mesh kernels: at least ",
              largest + min_q_bytes, " bytes are needed, the budget is ", budget,
              " bytes");
  }
  const bool blocked_mesh = tiles_per_block < m.tiles.size();
  const std::size_t streams = blocked_mesh ? 1 : 2;
  std::size_t q_block = (budget - std::min(budget, mesh_block_bytes)) / (streams * kQBytes);
  q_block = std::min({q_block, kMaxQPerHyperblock, nq});
  if (q_block < std::min(nq, kMinQPerHyperblock))
    fail_option("max_device_memory", "too small: ", budget, " bytes leave room for ", q_block,
            " q points per hyperblock (at least ", kMinQPerHyperblock, " needed)");

  // ---- mesh on the device ----------------------------------------------
  if (!blocked_mesh && !was_resident) {
    state.resident = DeviceTiles{};
    upload_tiles(m, 0, m.tiles.size(), state.resident);
    state.resident_for = &m;
    state.resident_triangles = m.triangles;
  } else if (blocked_mesh && was_resident) {
    state.resident = DeviceTiles{};
    state.resident_for = nullptr;
  }
  DeviceBuffer<double> q_dev[2], f_dev[2];
  for (std::size_t s = 0; s < streams; ++s) {
    q_dev[s] = DeviceBuffer<double>(3 * q_block);
    f_dev[s] = DeviceBuffer<double>(2 * q_block);
    state.q_host[s].reserve(3 * q_block);
    state.f_host[s].reserve(2 * q_block);
  }
  const std::size_t mesh_block_count = blocked_mesh ? (m.tiles.size() + tiles_per_block - 1) / tiles_per_block : 1;
  stats.q_per_hyperblock = q_block;
  stats.triangles_per_hyperblock = blocked_mesh ? tiles_per_block * kTileTriangles : m.triangles;
  stats.device_bytes = std::max(stats.device_bytes, mesh_block_bytes + streams * kQBytes * q_block);

  // ---- launch shape (autotuned once per device, precision, mesh and ----
  // hyperblock size class: small blocks run with tile splits, large ones
  // with many waves, and prefer different shapes).
  const std::string key = state.device_name + "|" + std::to_string(sizeof(Real)) + "|" +
                          std::to_string(m.tiles.size()) + "|" + std::to_string(tiles_per_block) +
                          (q_block >= kTrialQ ? "|large" : "|small");
  auto fill_q = [&](std::size_t s, std::size_t first, std::size_t count) {
    pack_q(q.subspan(first, count), state.q_host[s].ptr);
  };
  if (o.threads_per_block > 0) {
    const int lanes = o.threads_per_q, qs = o.q_per_thread;
    // Whole warps per part: the kernel's votes span a warp.
    if ((lanes != 1 && lanes != 2 && lanes != 4) || (qs != 1 && qs != 2) || o.threads_per_block % (32 * lanes) != 0 ||
        o.threads_per_block > 1024 || shared_bytes<Real>(o.threads_per_block, lanes, qs) > max_shared)
      fail("mesh kernel shape: ", o.threads_per_block, " threads per block, ", lanes, " per q, ", qs,
           " q per thread is not supported");
  } else if (!state.threads_per_block.count(key)) {
    DeviceTiles probe_tiles;
    const DeviceTiles* t = &state.resident;
    if (blocked_mesh) {
      upload_tiles(m, 0, tiles_per_block, probe_tiles);
      t = &probe_tiles;
    }
    const std::size_t n = std::min(q_block, nq);
    fill_q(0, 0, n);
    NS_CUDA_CHECK(cudaMemcpy(q_dev[0].data(), state.q_host[0].ptr, 3 * n * sizeof(double), cudaMemcpyHostToDevice));
    state.threads_per_block[key] =
        autotune<Real>(*t, m, q_dev[0].data(), n, o.q_min, f_dev[0].data(), sms, max_shared, state.streams[0]);
  }
  const int threads = o.threads_per_block > 0 ? make_choice({o.threads_per_block, o.threads_per_q, o.q_per_thread}, o.blend)
                                             : state.threads_per_block[key];  // the packed choice (make_choice)
  allow_shared<Real>(threads);
  const std::size_t slots = resident_blocks<Real>(threads, sms);
  stats.threads_per_block = threads_of(threads);
  stats.threads_per_q = lanes_of(threads);
  stats.q_per_thread = qs_of(threads);
  stats.blend_kernel = blend_of(threads);

  // ---- hyperblocks -----------------------------------------------------
  const std::size_t q_blocks = (nq + q_block - 1) / q_block;
  std::vector<std::size_t> pending_first(2, 0), pending_count(2, 0), pending_block(2, 0);
  auto harvest = [&](std::size_t s) {
    if (!pending_count[s]) return;
    NS_CUDA_CHECK(cudaStreamSynchronize(state.streams[s]));
    // Kernel time of block b not overlapped by block b − 1's (done: its
    // stream was harvested before, or is the same stream): from
    // max(start_b, stop_{b−1}) to stop_b, so the sum does not count the
    // two streams' overlap twice.
    const std::size_t b = pending_block[s];
    float ms = 0;
    NS_CUDA_CHECK(cudaEventElapsedTime(&ms, state.kernel_start[b % 3], state.kernel_stop[b % 3]));
    if (b > 0) {
      float since_previous = 0;
      NS_CUDA_CHECK(cudaEventElapsedTime(&since_previous, state.kernel_stop[(b - 1) % 3], state.kernel_stop[b % 3]));
      ms = std::min(ms, std::max(since_previous, 0.0f));
    }
    stats.kernel_seconds += 1e-3 * double(ms);
    unpack_f(state.f_host[s].ptr, q.subspan(pending_first[s], pending_count[s]), o.q_min,
             out.subspan(pending_first[s], pending_count[s]));
    pending_count[s] = 0;
  };
  DeviceTiles block_tiles;
  for (std::size_t b = 0; b < q_blocks; ++b) {
    const std::size_t s = b % streams;
    const std::size_t first = b * q_block, count = std::min(q_block, nq - first);
    harvest(s);  // this stream's previous block is done: its buffers are free
    fill_q(s, first, count);
    cudaStream_t stream = state.streams[s];
    NS_CUDA_CHECK(cudaMemcpyAsync(q_dev[s].data(), state.q_host[s].ptr, 3 * count * sizeof(double),
                                  cudaMemcpyHostToDevice, stream));
    NS_CUDA_CHECK(cudaMemsetAsync(f_dev[s].data(), 0, 2 * count * sizeof(double), stream));
    NS_CUDA_CHECK(cudaEventRecord(state.kernel_start[b % 3], stream));
    for (std::size_t mb = 0; mb < mesh_block_count; ++mb) {
      const DeviceTiles* t = &state.resident;
      if (blocked_mesh) {
        NS_CUDA_CHECK(cudaStreamSynchronize(stream));  // the previous tile block is no longer read
        block_tiles = DeviceTiles{};                    // freed before the next is allocated
        const std::size_t tf = mb * tiles_per_block;
        upload_tiles(m, tf, std::min(tiles_per_block, m.tiles.size() - tf), block_tiles);
        t = &block_tiles;
      }
      launch<Real>(*t, m, q_dev[s].data(), count, o.q_min, f_dev[s].data(), launch_shape(count, t->count, threads, slots),
                   stream);
      ++stats.hyperblocks;
    }
    NS_CUDA_CHECK(cudaEventRecord(state.kernel_stop[b % 3], stream));
    NS_CUDA_CHECK(cudaMemcpyAsync(state.f_host[s].ptr, f_dev[s].data(), 2 * count * sizeof(double),
                                  cudaMemcpyDeviceToHost, stream));
    pending_first[s] = first;
    pending_count[s] = count;
    pending_block[s] = b;
  }
  // In block order: a block's harvest reads its predecessor's stop event.
  const bool stream1_first =
      streams == 2 && pending_count[0] && pending_count[1] && pending_block[1] < pending_block[0];
  for (std::size_t k = 0; k < streams; ++k) harvest(stream1_first ? 1 - k : k);
}

}  // namespace

void form_factor_cuda(const MeshTiles& tiles, std::span<const Vec3> q, std::span<Complex> out,
                      const CudaMeshOptions& options, MeshCudaState& state, MeshRunStats& stats) {
  if (options.precision == Precision::float32)
    run<float>(tiles, q, out, options, state, stats);
  else
    run<double>(tiles, q, out, options, state, stats);
}

}  // namespace nanoscatter::gisaxs::mesh
