// DDA on the GPU (cuFFT matvec, device-resident solver) against the CPU path.
// Skips (not fails) where no CUDA device exists.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "nanoscatter/dda.hpp"
#include "nanoscatter/device.hpp"
#include "nanoscatter/mie.hpp"
#include "dda_property_cases.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;

#if !NANOSCATTER_HAVE_CUDA
TEST(DdaGpu, NotBuilt) { GTEST_SKIP() << "built without CUDA"; }
#else
#include "dda/backends.hpp"
#include "dda/physics.hpp"

using namespace nanoscatter::dda;

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

namespace {

double rel(double a, double b) { return std::abs(a / b - 1); }

// One product of the CPU (double) and GPU backends on the same random vector.
// exact: the GPU backend's float64 product (matvec_exact), whatever its precision.
double matvec_difference(std::array<int, 3> box, Precision gpu_precision, bool hermitian, bool exact = false) {
  MatrixSpec spec;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0, 1), v(-1, 1);
  for (int k = 0; k < box[2]; ++k)
    for (int j = 0; j < box[1]; ++j)
      for (int i = 0; i < box[0]; ++i)
        if (u(rng) < 0.7) {
          spec.position.push_back({static_cast<std::uint16_t>(i), static_cast<std::uint16_t>(j),
                                   static_cast<std::uint16_t>(k)});
          spec.s.push_back(cplx(v(rng), v(rng)) * 0.2);
        }
  spec.box = box;
  spec.grid = fft_grid_for(box);
  spec.k = 1.3;
  spec.d = 0.21;
  const InteractionFft it = interaction_fft(box, spec.grid, spec.k, spec.d, 0);
  spec.interaction = &it;
  auto cpu = make_cpu_backend(spec, Precision::float64);
  auto gpu = make_cuda_backend(spec, gpu_precision);
  std::vector<cplx> x(cpu->length());
  for (auto& e : x) e = cplx(v(rng), v(rng));
  const int a = cpu->create(), b = cpu->create(), ga = gpu->create(), gb = gpu->create();
  cpu->upload(a, x);
  gpu->upload(ga, x);
  cpu->matvec(a, b, hermitian);
  if (exact)
    gpu->matvec_exact(ga, gb, hermitian);
  else
    gpu->matvec(ga, gb, hermitian);
  const auto rc = cpu->download(b), rg = gpu->download(gb);
  double num = 0, den = 0;
  for (std::size_t i = 0; i < rc.size(); ++i) {
    num += std::norm(rc[i] - rg[i]);
    den += std::norm(rc[i]);
  }
  return std::sqrt(num / den);
}

}  // namespace

// The cuFFT product equals FFTW's: double to ~1e-13, float transforms (the
// single-precision product, double vectors) to ~1e-6 (float32 FFT rounding);
// odd and unequal box sizes exercise every transpose.
TEST(DdaGpu, MatvecEqualsCpu) {
  SKIP_WITHOUT_GPU();
  for (auto box : {std::array<int, 3>{16, 16, 16}, std::array<int, 3>{9, 13, 7}, std::array<int, 3>{40, 3, 33}}) {
    for (bool herm : {false, true}) {
      EXPECT_LT(matvec_difference(box, Precision::float64, herm), 1e-12) << box[0] << "x" << box[1] << "x" << box[2];
      EXPECT_LT(matvec_difference(box, Precision::float32, herm), 3e-6) << box[0] << "x" << box[1] << "x" << box[2];
      // single (mixed) precision keeps the float64 product for the true residual
      EXPECT_LT(matvec_difference(box, Precision::float32, herm, true), 1e-12) << box[0] << "x" << box[1] << "x" << box[2];
    }
  }
}

// Whole solve on the GPU equals the CPU to solver tolerance (eps = 1e-5 on the
// residual → cross sections agree to ~1e-5; allowed 3e-5), for every solver,
// and the issue's sphere meets the Mie acceptance on the GPU too.
TEST(DdaGpu, SolveEqualsCpu) {
  SKIP_WITHOUT_GPU();
  for (DdaSolver s : {DdaSolver::qmr_cs, DdaSolver::bicg_cs, DdaSolver::bicgstab, DdaSolver::cgnr}) {
    DdaOptions o;
    o.grid = {16};
    o.eq_rad = 3;
    o.m = {{1.5, 0.05}};
    o.solver = s;
    o.shape.kind = DdaShapeKind::ellipsoid;  // no symmetry: both polarisations solved
    o.shape.params = {1.3, 0.8};
    const DdaResult c = DdaPlan(o).execute();
    o.compute.device = Device::gpu;
    const DdaResult g = DdaPlan(o).execute();
    ASSERT_TRUE(g.converged) << to_string(s);
    for (int p = 0; p < 2; ++p) {
      EXPECT_LT(rel(g.runs[p].qext, c.runs[p].qext), 3e-5) << to_string(s);
      EXPECT_LT(rel(g.runs[p].qabs, c.runs[p].qabs), 3e-5) << to_string(s);
    }
  }
  DdaOptions o;
  o.grid = {32};
  o.eq_rad = 5;
  o.m = {{1.5, 0}};
  o.compute.device = Device::gpu;
  for (Precision p : {Precision::float64, Precision::float32}) {
    o.compute.precision = p;
    const DdaResult g = DdaPlan(o).execute();
    ASSERT_TRUE(g.converged);
    EXPECT_LT(rel(g.runs[0].qext, mie_sphere(5, {1.5, 0}).qext), 3e-3);
  }
}

// A larger grid (sphere 64³, padded 128³) through both paths: single-precision
// GPU vs double CPU within 5 eps = 5e-5 in Qext (the solver-tolerance bound of
// tests/physics/test_dda_property.cpp).
TEST(DdaGpu, LargerSphereSingleVsCpuDouble) {
  SKIP_WITHOUT_GPU();
  DdaOptions o;
  o.grid = {64};
  o.eq_rad = 5;
  o.m = {{1.33, 0.1}};
  const DdaResult c = DdaPlan(o).execute();
  o.compute.device = Device::gpu;
  o.compute.precision = Precision::float32;
  const DdaResult g = DdaPlan(o).execute();
  ASSERT_TRUE(g.converged);
  EXPECT_LT(rel(g.runs[0].qext, c.runs[0].qext), 5e-5);
  EXPECT_LT(rel(g.runs[0].qabs, c.runs[0].qabs), 5e-5);
}

// The CPU property test on the GPU: drawn cases (tests/dda_property_cases.hpp)
// solved on the CUDA backend in single and double precision against the CPU
// float64 path, within kSolverTol·eps; drawn spheres against Mie within
// mie_tolerance(|m|kd). NS_DDA_PROPERTY_CASES=n draws n cases (default 20).
TEST(DdaGpuProperty, DrawnCasesMatchCpuDouble) {
  SKIP_WITHOUT_GPU();
  using namespace nanoscatter::test;
  const int n = dda_property_cases(20);
  double worst = 0;
  for (int k = 0; k < n; ++k) {
    const auto seed = case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    // About every third case (drawn from the case's seed, so that a printed
    // seed replays its case) is drawn in the Mie regime (draw_dda_case's `sphere`:
    // Re m ≤ 1.6, or ≤ 2 when absorbing); other draws may also be spheres,
    // but with m up to 2.5 and no absorption, where Mie's resonances make
    // the discretisation error unbounded (seed 3907996954798627330: m = 2.08,
    // x = 2.16, grid 10, 24 % off Mie on the CPU as on the GPU).
    const bool mie_regime = std::uniform_int_distribution<int>(0, 2)(rng) == 0;
    DrawnDda c = draw_dda_case(rng, mie_regime);
    SCOPED_TRACE(c.text);
    c.o.compute.precision = Precision::float64;
    const DdaResult cpu = DdaPlan(c.o).execute();
    ASSERT_TRUE(cpu.converged);
    c.o.compute.device = Device::gpu;
    for (Precision p : {Precision::float32, Precision::float64}) {
      c.o.compute.precision = p;
      const DdaResult g = DdaPlan(c.o).execute();
      const char* pn = p == Precision::float32 ? "single" : "double";
      if (!g.converged && p == Precision::float32 &&
          (c.o.solver == DdaSolver::bicg_cs || c.o.solver == DdaSolver::cgnr)) {
        std::printf("[dda gpu property] %s: single not converged with %s (documented limit)\n", c.text.c_str(),
                    to_string(c.o.solver));
        continue;
      }
      ASSERT_TRUE(g.converged) << pn;
      ASSERT_EQ(g.runs.size(), cpu.runs.size());
      for (std::size_t i = 0; i < cpu.runs.size(); ++i) {
        EXPECT_LE(g.runs[i].residual, c.o.eps) << pn;
        const double dq = rel_diff(g.runs[i].qext, cpu.runs[i].qext);
        const double da = std::abs(g.runs[i].qabs - cpu.runs[i].qabs) / cpu.runs[i].qext;
        worst = std::max({worst, dq / c.o.eps, da / c.o.eps});
        EXPECT_LE(dq, kSolverTol * c.o.eps) << pn << " Qext GPU " << g.runs[i].qext << " CPU " << cpu.runs[i].qext;
        EXPECT_LE(da, kSolverTol * c.o.eps) << pn << " Qabs GPU " << g.runs[i].qabs << " CPU " << cpu.runs[i].qabs;
      }
      if (mie_regime) {
        const MieResult mie = mie_sphere(g.ka_eq, c.o.m[0]);
        const double y = std::abs(c.o.m[0]) * 2 * kPi / c.o.lambda * g.dipole_size;
        EXPECT_LE(rel_diff(g.runs[0].qext, mie.qext), mie_tolerance(y)) << pn << " Qext vs Mie " << mie.qext;
        EXPECT_LE(std::abs(g.runs[0].qabs - mie.qabs) / mie.qext, mie_tolerance(y)) << pn << " Qabs vs Mie";
      }
    }
  }
  std::printf("[dda gpu property] %d cases, largest |dQ|/Q against CPU double in units of eps: %.3f (allowed %.1f)\n", n,
              worst, kSolverTol);
}

// Issue 20 regression at CPU size on the GPU (m = 2, x = 6, grid 24): single
// within 1e-5 of the CPU double Qext 3.070695142.
TEST(DdaGpu, HighContrastSphereSingleWithin1e5) {
  SKIP_WITHOUT_GPU();
  DdaOptions o;
  o.grid = {24};
  o.eq_rad = 6;
  o.m = {{2.0, 0}};
  o.compute.device = Device::gpu;
  o.compute.precision = Precision::float32;
  const DdaResult g = DdaPlan(o).execute();
  ASSERT_TRUE(g.converged);
  EXPECT_LE(g.runs[0].residual, 1e-5);
  EXPECT_LE(rel(g.runs[0].qext, 3.070695142), 1e-5);
}

// Issue 20 acceptance, item 4: sphere x = 20, m = 1.5, grid 128 (1,099,136
// dipoles). Single converges to eps = 1e-5 on the float64 residual with
// Qext within 1e-5 of double, in less solver time. (float64 on an H100:
// 2414 iterations, 11.2 s, Qext 2.053404.) About 20 s of device time.
TEST(DdaGpu, Issue20SphereX20SingleFasterAndWithin1e5) {
  SKIP_WITHOUT_GPU();
  DdaOptions o;
  o.grid = {128};
  o.eq_rad = 20;
  o.m = {{1.5, 0}};
  o.compute.device = Device::gpu;
  const DdaResult d = DdaPlan(o).execute();
  o.compute.precision = Precision::float32;
  const DdaResult s = DdaPlan(o).execute();
  std::printf("[dda issue 20] double: %d it., %.3f s, Qext %.9f; single: %d it. (%d restarts, %d checks), %.3f s, "
              "Qext %.9f, |dQ|/Q %.2e\n",
              d.runs[0].iterations, d.seconds_solve, d.runs[0].qext, s.runs[0].iterations, s.runs[0].restarts,
              s.runs[0].residual_checks, s.seconds_solve, s.runs[0].qext, rel(s.runs[0].qext, d.runs[0].qext));
  ASSERT_EQ(d.dipoles, 1099136u);
  ASSERT_TRUE(d.converged);
  ASSERT_TRUE(s.converged);
  EXPECT_LE(s.runs[0].residual, 1e-5);
  EXPECT_NEAR(d.runs[0].qext, 2.053404, 1e-5);  // the issue's float64 run, 7 digits
  EXPECT_LE(rel(s.runs[0].qext, d.runs[0].qext), 1e-5);
  EXPECT_LT(s.seconds_solve, d.seconds_solve);
}
#endif
