// Host emulation of the CUDA mesh kernel's arithmetic (src/gisaxs/mesh/
// mesh_cuda.cu: float64 vertex phases in quarter turns, exp_i_half_pi in
// float, sincospi in double, FMA contraction, series tiers, three-point and
// sorted paths; tier and path chosen per q rather than per warp) on the
// draws of tests/gpu/test_gisaxs_mesh_property_gpu.cpp, against the CPU
// paths and binary128. Not built by CMake; from the repository root, after
// scripts/build.sh:
//   g++ -fext-numeric-literals -DNANOSCATTER_HAVE_CUDA=1 -Iinclude -Isrc -Itests -O2 -fopenmp -std=gnu++20 \
//     tests/tools/mesh_cuda_emulation.cpp -o build/mesh_cuda_emulation build/libnanoscatter.a -lquadmath \
//     -lassimp -ltomlplusplus -lxrl -L"$CUDA_HOME/lib" -lcudart -lcufft -lfftw3 -lfftw3f -lpng -ltiff -lz \
//     -lhdf5_serial -lmpi
//   build/mesh_cuda_emulation -1 SEED...     (the GPU test's case seeds)
//   build/mesh_cuda_emulation N BASE         (N seeds drawn from BASE)
// Per case: the test's metric (error relative to max(|F|, floor F(0)))
// against CPU float64 for CPU float32 and the emulated CUDA float32 kernel
// with y = q·(b − a) in float64 never / where |q|·edge > 8, 4, 2 / always,
// and for the emulated CUDA float64 kernel at floors 1e-9, 1e-7, 1e-6. Fine
// meshes keep only the first 6e6/triangles q (host time).
#include <quadmath.h>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <algorithm>
#include "gisaxs/mesh/mesh_tiles.hpp"
#include "gisaxs/mesh/triangle_kernel.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"
#include "physics/test_gisaxs_mesh_property_support.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;
using namespace nanoscatter::gisaxs::mesh;
using namespace nanoscatter::gisaxs::mesh_property;

static std::vector<Complex> run_plan(const TriangleMesh& m, const std::vector<Vec3>& q, Precision p) {
  MeshFormFactorOptions o; o.precision = p;
  const MeshFormFactorPlan plan(m, o);
  std::vector<Complex> out(q.size()); plan.execute(q, out); return out;
}

template <class Real> ExpPhase<Real> vexp(double t);
template <> ExpPhase<float> vexp<float>(double t) { return exp_i_half_pi(t); }
template <> ExpPhase<double> vexp<double>(double t) {  // sincospi(0.5 t), correctly rounded
  __float128 a = M_PIq * (__float128(0.5) * __float128(t));
  return {double(cosq(a)), double(sinq(a))};
}

// Real-typed fma as nvcc contracts a*b + c
template <class Real> Real F(Real a, Real b, Real c) { if constexpr (sizeof(Real) == 4) return std::fmaf(a, b, c); else return std::fma(a, b, c); }

// mode 0: y1, y2, w as the kernel forms them (Real from Real q and Real edges)
// mode 1: y1, y2 formed in float64 from float64 q and edges, then rounded to Real
template <class Real>
Complex gpu_emulated(const MeshTiles& m, Vec3 q, double T, double* abs_terms = nullptr) {
  const double qn = norm(q);
  constexpr double kQuarterTurns = 2 * std::numbers::inv_pi;
  const double hx = q.x * kQuarterTurns, hy = q.y * kQuarterTurns, hz = q.z * kQuarterTurns;
  const Real fx = Real(q.x), fy = Real(q.y), fz = Real(q.z);
  double acc_re = 0, acc_im = 0, terms = 0;
  for (const TileRange& r : m.tiles) {
    const double* vertex = &m.vertex_xyz[3 * std::size_t(r.first_vertex)];
    ExpPhase<Real> e[kTileVertices];
    for (std::uint32_t k = 0; k < r.vertex_count; ++k) {
      const double* v = vertex + 3 * k;
      e[k] = vexp<Real>(std::fma(hz, v[2], std::fma(hy, v[1], hx * v[0])));
    }
    Real sr = 0, si = 0;
    for (std::uint32_t t = 0; t < r.triangle_count; ++t) {
      const std::size_t g = r.first_triangle + t;
      const std::uint32_t c = m.corners[g];
      const int ia = c & 0xff, ib = (c >> 8) & 0xff, ic = (c >> 16) & 0xff;
      const double *a = vertex + 3 * ia, *b = vertex + 3 * ib, *d = vertex + 3 * ic, *n = &m.normal_xyz[3 * g];
      const Real e1x = Real(b[0] - a[0]), e1y = Real(b[1] - a[1]), e1z = Real(b[2] - a[2]);
      const Real e2x = Real(d[0] - a[0]), e2y = Real(d[1] - a[1]), e2z = Real(d[2] - a[2]);
      Real y1, y2;
      const double l1 = std::sqrt((b[0]-a[0])*(b[0]-a[0])+(b[1]-a[1])*(b[1]-a[1])+(b[2]-a[2])*(b[2]-a[2]));
      const double l2 = std::sqrt((d[0]-a[0])*(d[0]-a[0])+(d[1]-a[1])*(d[1]-a[1])+(d[2]-a[2])*(d[2]-a[2]));
      const bool exact = float(qn) * float(std::max(l1, l2)) > T;
      if (!exact) {
        y1 = F(fz, e1z, F(fy, e1y, fx * e1x));
        y2 = F(fz, e2z, F(fy, e2y, fx * e2x));
      } else {
        y1 = Real(std::fma(q.z, b[2] - a[2], std::fma(q.y, b[1] - a[1], q.x * (b[0] - a[0]))));
        y2 = Real(std::fma(q.z, d[2] - a[2], std::fma(q.y, d[1] - a[1], q.x * (d[0] - a[0]))));
      }
      const Real w = F(fz, Real(n[2]), F(fy, Real(n[1]), fx * Real(n[0])));
      const Real reach = std::max(std::abs(y1), std::abs(y2));
      const ExpPhase<Real> ea = e[ia], eb = e[ib], ec = e[ic];
      Real re = 0, im = 0;
      bool done = with_series_tier<Real>([&](Real bound) { return reach < bound; }, [&]<int K>() {
        Real fr, fi;
        anchored_series<Real, K>(y1, y2, w, fr, fi);
        re = F(ea.c, fr, -ea.s * fi);
        im = F(ea.c, fi, ea.s * fr);
      });
      if (!done) {
        const Real gap = std::min(Real(kSeriesSwitch), std::min(std::min(std::abs(y1), std::abs(y2)), std::abs(y2 - y1)));
        if (gap >= Real(kSeriesSwitch)) {
          three_point<Real>(y1, y2, ea, eb, ec, w, re, im);
        } else {
          triangle_integral<Real>(Real(0), ea, y1, eb, y2, ec, re, im);
          re *= w, im *= w;
        }
      }
      sr += re, si += im;
      terms += std::hypot(double(re), double(im));
    }
    acc_re += double(sr), acc_im += double(si);
  }
  const double q2 = q.x * q.x + q.y * q.y + q.z * q.z;
  if (abs_terms) *abs_terms = terms / q2;
  const double g_re = acc_im / q2, g_im = -acc_re / q2;
  const double ph = q.x * m.centre.x + q.y * m.centre.y + q.z * m.centre.z;
  const double s = std::sin(ph), cs = std::cos(ph);
  return {cs * g_re - s * g_im, cs * g_im + s * g_re};
}


#include <chrono>
int main(int argc, char** argv) {
  // argv: count base_seed  (count < 0: argv[2..] are seeds)
  int count = std::atoi(argv[1]);
  std::vector<std::uint64_t> seeds;
  if (count < 0) for (int a = 2; a < argc; ++a) seeds.push_back(std::strtoull(argv[a], nullptr, 10));
  else { std::mt19937_64 g(std::strtoull(argv[2], nullptr, 10)); for (int k = 0; k < count; ++k) seeds.push_back(g()); }
  const double Ts[] = {1e300, 8, 4, 2, -1};
  double all32[5] = {}, all64[4] = {}, cpu32all = 0;
  for (std::uint64_t seed : seeds) {
    std::mt19937_64 rng(seed);
    DrawnMesh d;
    if (uniform(rng, 0, 1) < 0.3) {
      const std::size_t triangles = 2 * std::size_t(log_uniform(rng, 1000, 10000));
      const double radius = log_uniform(rng, 2, 30), stretch = log_uniform(rng, 0.5, 2);
      d.mesh = sphere_mesh_with_triangles(radius, triangles, stretch);
      const Mat3 r = random_rotation(rng);
      const Vec3 shift{uniform(rng, -20, 20), uniform(rng, -20, 20), uniform(rng, -20, 20)};
      for (Vec3& v : d.mesh.vertices) v = r * v + shift;
      d.what = "icosphere " + std::to_string(d.mesh.triangles.size());
    } else {
      d = draw_mesh(rng, 1280, 20);
    }
    const std::size_t nq_all = std::size_t(log_uniform(rng, 1e4, 1e5));
    auto q = draw_q(rng, d.mesh, nq_all);
    const std::size_t keep = std::min<std::size_t>(nq_all, std::size_t(6e6 / d.mesh.triangles.size()));
    q.resize(keep);
    const std::size_t nq = q.size();
    const double V = mesh_volume(d.mesh);
    const MeshTiles tiles = make_mesh_tiles(d.mesh);
    const double R = tiles.radius;
    auto t0 = std::chrono::steady_clock::now();
    const auto cpu64 = run_plan(d.mesh, q, Precision::dual);
    const double t64 = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto cpu32 = run_plan(d.mesh, q, Precision::single);
    std::vector<Complex> g32[5], g64(nq);
    for (auto& g : g32) g.resize(nq);
    std::vector<double> terms(nq, 0);
#pragma omp parallel for schedule(dynamic, 64)
    for (std::size_t i = 0; i < nq; ++i) {
      const double qm = norm(q[i]);
      if (qm < 1e-3 / R) { for (auto& g : g32) g[i] = cpu64[i]; g64[i] = cpu64[i]; continue; }
      g64[i] = gpu_emulated<double>(tiles, q[i], 1e300, &terms[i]);
      for (int m = 0; m < 5; ++m) g32[m][i] = qm < 2 / R ? g64[i] : gpu_emulated<float>(tiles, q[i], Ts[m]);
    }
    double w32[5] = {}, w64[4] = {}, wc32 = 0, abs_v = 0, abs_terms = 0;
    const double floors[3] = {1e-9, 1e-7, 1e-6};
    for (std::size_t i = 0; i < nq; ++i) {
      for (int m = 0; m < 5; ++m) w32[m] = std::max(w32[m], rel_error(g32[m][i], cpu64[i], V, 1e-3));
      wc32 = std::max(wc32, rel_error(cpu32[i], cpu64[i], V, 1e-3));
      for (int f = 0; f < 3; ++f) w64[f] = std::max(w64[f], rel_error(g64[i], cpu64[i], V, floors[f]));
      const double diff = std::abs(g64[i] - cpu64[i]);
      abs_v = std::max(abs_v, diff / V);
      if (terms[i] > 0) abs_terms = std::max(abs_terms, diff / terms[i]);
    }
    std::printf("seed %llu %s: %zu/%zu q, cpu64 %.2f s | f32 vs cpu64: cpu32 %.2e, emu never %.2e T=8 %.2e T=4 %.2e T=2 %.2e always %.2e | f64 emu vs cpu64: floor 1e-9 %.2e 1e-7 %.2e 1e-6 %.2e, |d|/V %.1e |d|/sum|terms| %.1e\n",
                (unsigned long long)seed, d.what.substr(0, 40).c_str(), nq, nq_all, t64, wc32, w32[0], w32[1], w32[2], w32[3], w32[4],
                w64[0], w64[1], w64[2], abs_v, abs_terms);
    std::fflush(stdout);
    for (int m = 0; m < 5; ++m) all32[m] = std::max(all32[m], w32[m]);
    for (int f = 0; f < 3; ++f) all64[f] = std::max(all64[f], w64[f]);
    cpu32all = std::max(cpu32all, wc32);
  }
  std::printf("ALL %zu: f32 cpu32 %.2e never %.2e T=8 %.2e T=4 %.2e T=2 %.2e always %.2e | f64 floors 1e-9 %.2e 1e-7 %.2e 1e-6 %.2e\n",
              seeds.size(), cpu32all, all32[0], all32[1], all32[2], all32[3], all32[4], all64[0], all64[1], all64[2]);
}
