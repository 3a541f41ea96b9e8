// Fast CPU path of the mesh form factor (mesh_backends.hpp): each thread
// takes kBlock q at a time; per tile it computes exp(i q·v) of all kBlock q
// (one sincos per vertex·q, float64 argument reduction), then runs the
// triangle kernel over the tile with the q of the block in SIMD lanes: the
// phases relative to corner a from the triangle's edges, then the GPU
// kernel's paths chosen per q (not per block, so that a q's value does not
// depend on which q share its block: an MPI rank's slab of a grid gives
// the same bits as one process): the anchored series of the widest tier
// where the q is within its reach, else the three-point form where every
// gap is ≥ δ, else the branch-free general form. A block computes only the
// paths its q need and selects per lane. Sums in `Real` over one tile and
// in float64 over tiles.
// No floating-point traps are relied on here: without trapping math GCC may
// evaluate both arms of the kernel's selects and vectorise over the q lanes.
#pragma GCC optimize("no-trapping-math")
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/simd_trig.hpp"
#include "gisaxs/mesh/mesh_backends.hpp"
#include "gisaxs/mesh/triangle_kernel.hpp"

namespace nanoscatter::gisaxs::mesh {

namespace {

constexpr int kBlock = 16;

template <class Real>
void block_sums(const MeshTiles& m, const Vec3* q, double* acc_re, double* acc_im) {
  alignas(64) Real cos_p[kTileVertices][kBlock], sin_p[kTileVertices][kBlock];
  alignas(64) Real qx[kBlock], qy[kBlock], qz[kBlock];
  alignas(64) double dx[kBlock], dy[kBlock], dz[kBlock];
  alignas(64) float q_norm[kBlock];  // |q| (rounded up), for |q| · edge > kExactPhaseReach
  for (int j = 0; j < kBlock; ++j) {
    qx[j] = Real(q[j].x), qy[j] = Real(q[j].y), qz[j] = Real(q[j].z);
    dx[j] = q[j].x, dy[j] = q[j].y, dz[j] = q[j].z;
    q_norm[j] = std::nextafter(float(norm(q[j])), HUGE_VALF);
    acc_re[j] = acc_im[j] = 0;
  }
  for (const TileRange& tile : m.tiles) {
    const double* v = &m.vertex_xyz[3 * std::size_t(tile.first_vertex)];
    for (std::uint32_t k = 0; k < tile.vertex_count; ++k) {
      const double vx = v[3 * k], vy = v[3 * k + 1], vz = v[3 * k + 2];
      Real* __restrict cp = cos_p[k];
      Real* __restrict sp = sin_p[k];
#pragma omp simd
      for (int j = 0; j < kBlock; ++j) {
        const double p = dx[j] * vx + dy[j] * vy + dz[j] * vz;
        // sincos in float64 (reduced by π/2 in float64).
        double s, c;
        trig::sincos(p, s, c);  // branch-free: the vertex-phase loop vectorises
        cp[j] = Real(c);
        sp[j] = Real(s);
      }
    }
    alignas(64) Real sum_re[kBlock] = {}, sum_im[kBlock] = {};
    for (std::uint32_t t = 0; t < tile.triangle_count; ++t) {
      const std::size_t g = tile.first_triangle + t;
      const std::uint32_t c = m.corners[g];
      const int a = c & 0xff, b = (c >> 8) & 0xff, d = (c >> 16) & 0xff;
      const Real nx = Real(m.normal_xyz[3 * g]), ny = Real(m.normal_xyz[3 * g + 1]), nz = Real(m.normal_xyz[3 * g + 2]);
      // Phases relative to corner a from the edges b − a, c − a (as on the
      // GPU), and each q's path (triangle_kernel.hpp).
      const Real e1x = Real(v[3 * b] - v[3 * a]), e1y = Real(v[3 * b + 1] - v[3 * a + 1]),
                 e1z = Real(v[3 * b + 2] - v[3 * a + 2]);
      const Real e2x = Real(v[3 * d] - v[3 * a]), e2y = Real(v[3 * d + 1] - v[3 * a + 1]),
                 e2z = Real(v[3 * d + 2] - v[3 * a + 2]);
      alignas(64) Real y1[kBlock], y2[kBlock], w[kBlock];
#pragma omp simd
      for (int j = 0; j < kBlock; ++j) {
        y1[j] = qx[j] * e1x + qy[j] * e1y + qz[j] * e1z;
        y2[j] = qx[j] * e2x + qy[j] * e2y + qz[j] * e2z;
      }
      if constexpr (sizeof(Real) == 4) {
        // The q with |q| · edge > kExactPhaseReach take y formed in float64
        // (triangle_kernel.hpp, "Phase accuracy"); per q, so that a q's
        // value does not depend on the other q of the block.
        const double* pa = &v[3 * a];
        const double* pb = &v[3 * b];
        const double* pd = &v[3 * d];
        auto length2 = [](const double* x, const double* y) {
          return (y[0] - x[0]) * (y[0] - x[0]) + (y[1] - x[1]) * (y[1] - x[1]) + (y[2] - x[2]) * (y[2] - x[2]);
        };
        const float edge = std::nextafter(float(std::sqrt(std::max(length2(pa, pb), length2(pa, pd)))), HUGE_VALF);
        int far = 0;
        for (int j = 0; j < kBlock; ++j) far += q_norm[j] * edge > kExactPhaseReach;
        if (far) {
#pragma omp simd
          for (int j = 0; j < kBlock; ++j) {
            Real z1, z2;
            exact_phase_differences<Real>(dx[j], dy[j], dz[j], pa, pb, pd, z1, z2);
            const bool use = q_norm[j] * edge > kExactPhaseReach;
            y1[j] = use ? z1 : y1[j];
            y2[j] = use ? z2 : y2[j];
          }
        }
      }
      // Per q: 0 = series, 1 = three-point, 2 = general (see the header).
      alignas(64) int path[kBlock];
      constexpr int kTier = SeriesTiers<Real>::count - 1;
      constexpr Real kReach = Real(SeriesTiers<Real>::reach[kTier]);
      int need_series = 0, need_three = 0, need_general = 0;
#pragma omp simd reduction(+ : need_series, need_three, need_general)
      for (int j = 0; j < kBlock; ++j) {
        w[j] = qx[j] * nx + qy[j] * ny + qz[j] * nz;
        const Real reach = std::max(std::abs(y1[j]), std::abs(y2[j]));
        const Real gap = std::min(std::min(std::abs(y1[j]), std::abs(y2[j])), std::abs(y2[j] - y1[j]));
        path[j] = reach < kReach ? 0 : (gap >= Real(kSeriesSwitch) ? 1 : 2);
        need_series += path[j] == 0;
        need_three += path[j] == 1;
        need_general += path[j] == 2;
      }
      if (need_series) {
#pragma omp simd
        for (int j = 0; j < kBlock; ++j) {
          Real fr, fi;
          anchored_series<Real, SeriesTiers<Real>::terms[kTier]>(y1[j], y2[j], w[j], fr, fi);
          const Real re = cos_p[a][j] * fr - sin_p[a][j] * fi, im = cos_p[a][j] * fi + sin_p[a][j] * fr;
          sum_re[j] += path[j] == 0 ? re : Real(0);
          sum_im[j] += path[j] == 0 ? im : Real(0);
        }
      }
      if (need_three) {
#pragma omp simd
        for (int j = 0; j < kBlock; ++j) {
          Real re, im;
          three_point<Real>(y1[j], y2[j], {cos_p[a][j], sin_p[a][j]}, {cos_p[b][j], sin_p[b][j]},
                            {cos_p[d][j], sin_p[d][j]}, w[j], re, im);
          sum_re[j] += path[j] == 1 ? re : Real(0);
          sum_im[j] += path[j] == 1 ? im : Real(0);
        }
      }
      if (need_general) {
#pragma omp simd
        for (int j = 0; j < kBlock; ++j) {
          Real re, im;
          triangle_integral_blend<Real>(Real(0), {cos_p[a][j], sin_p[a][j]}, y1[j], {cos_p[b][j], sin_p[b][j]},
                                        y2[j], {cos_p[d][j], sin_p[d][j]}, re, im);
          sum_re[j] += path[j] == 2 ? w[j] * re : Real(0);
          sum_im[j] += path[j] == 2 ? w[j] * im : Real(0);
        }
      }
    }
    for (int j = 0; j < kBlock; ++j) {
      acc_re[j] += sum_re[j];
      acc_im[j] += sum_im[j];
    }
  }
}

template <class Real>
void run(const MeshTiles& m, std::span<const Vec3> q, std::span<Complex> out, int threads, double q_min) {
  const std::size_t n = q.size();
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  const double q_min2 = q_min * q_min;
#pragma omp parallel for schedule(dynamic) num_threads(threads)
  for (std::size_t b = 0; b < blocks; ++b) {
    Vec3 qb[kBlock];
    std::size_t index[kBlock];
    int count = 0;
    // Gather the block's points with |q| ≥ q_min (others keep their value).
    for (std::size_t i = b * kBlock; i < std::min(n, (b + 1) * kBlock); ++i)
      if (dot(q[i], q[i]) >= q_min2 && dot(q[i], q[i]) > 0) {
        index[count] = i;
        qb[count++] = q[i];
      }
    if (count == 0) continue;
    for (int j = count; j < kBlock; ++j) qb[j] = qb[0];  // idle lanes repeat a real point
    double re[kBlock], im[kBlock];
    block_sums<Real>(m, qb, re, im);
    for (int j = 0; j < count; ++j) {
      // F = exp(i q·c) (−i/|q|²) Σ_T (q·N_T) e_T
      const Vec3& qq = qb[j];
      const double q2 = dot(qq, qq);
      const Complex g(im[j] / q2, -re[j] / q2);
      out[index[j]] = std::polar(1.0, dot(qq, m.centre)) * g;
    }
  }
}

}  // namespace

void form_factor_cpu(const MeshTiles& tiles, std::span<const Vec3> q, std::span<Complex> out, Precision precision,
                     int threads, double q_min) {
  const int t = threads > 0 ? threads : omp_get_max_threads();
  if (precision == Precision::float32)
    run<float>(tiles, q, out, t, q_min);
  else
    run<double>(tiles, q, out, t, q_min);
}

}  // namespace nanoscatter::gisaxs::mesh
