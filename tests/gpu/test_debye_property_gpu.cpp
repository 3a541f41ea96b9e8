// Property tests of the Debye GPU paths: every run draws 50 fresh cases in
// issue 20's full ranges (tests/debye_property_cases.hpp: 500–30,000 atoms,
// 50–5,000 Q, uniform Q and 2θ grids) and checks, where I > 1e-3·max I:
//  - exact float32 on the GPU against exact float64 on the GPU (itself
//    checked against the CPU float64 reference in test_debye_gpu*.cpp);
//  - histogram on the GPU, in both bin layouts (DebyeOptions::
//    histogram_mode), against the same exact float64 result;
//  - the GPU histogram against the CPU histogram of the same mode (precise:
//    float64 moments; fast: the fast kernel's CPU twin), within 1e-6: the
//    mode, not the device, decides the function.
// A failure prints the seed (NS_TEST_SEED replays it) and the case.
#include <gtest/gtest.h>

#include <cstdio>

#include "debye_property_cases.hpp"
#include "debye/pair_sums.hpp"
#include "nanoscatter/debye.hpp"
#include "nanoscatter/device.hpp"
#include "nanoscatter/scattering_factors.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;

namespace {

// The documented bounds (docs/debye.md). The precise GPU histogram keeps
// Σδ (to 2^-20 bin) and Σδ² (to 1/2044 bin²) per bin, dithered and so
// unbiased: within kHistogramVsCpu of the precise CPU histogram (issue 20
// item 3; the host emulation's worst of thousands of drawn cases is in
// bench/results/2026-11-26-debye-histogram-two-words.md). The fast one
// keeps one word per bin (δ to 1/511 bin, Σδ² estimated), the function its
// CPU twin computes: within kHistogramVsCpu of that, and within
// kFastHistogramVsPrecise of the precise histogram. Both within issue 20's
// 1e-4 of exact at Δr = 1e-3 Å.
// Exact float32 within issue 20's 1e-5 since the slab kernel sums two
// pairs' terms before each rounding into its partials
// (recurrence_accumulate2).
constexpr double kFloat32Bound = 1e-5;
constexpr double kHistogramBound = 1e-4;
constexpr double kHistogramVsCpu = 1e-6;
constexpr double kFastHistogramVsPrecise = 1e-4;
constexpr double kIntensityFloor = 1e-3;
constexpr int kCases = 50;

using test::debye_intensity;

}  // namespace

TEST(DebyePropertyGpu, Float32AndHistogramWithinTheirBoundsOnDrawnCases) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  const test::DebyeCaseLimits limits{};
  double worst32 = 0, worst_hist = 0, worst_hist_cpu = 0, worst_fast = 0, worst_fast_cpu = 0;
  for (int k = 0; k < kCases; ++k) {
    const auto seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    const test::DebyeCase c = test::draw_debye_case(seed, limits);
    SCOPED_TRACE(c.description);
    const auto ref = debye_intensity(c, DebyeMethod::exact, Precision::float64, Device::gpu);
    const double e32 = test::max_rel_where_above(debye_intensity(c, DebyeMethod::exact, Precision::float32, Device::gpu), ref,
                                                 kIntensityFloor);
    const auto hist_gpu = debye_intensity(c, DebyeMethod::histogram, Precision::float32, Device::gpu);
    const auto fast_gpu =
        debye_intensity(c, DebyeMethod::histogram, Precision::float32, Device::gpu, HistogramMode::fast);
    const double eh = test::max_rel_where_above(hist_gpu, ref, kIntensityFloor);
    const double ef = test::max_rel_where_above(fast_gpu, ref, kIntensityFloor);
    const auto hist_cpu = debye_intensity(c, DebyeMethod::histogram, Precision::float64, Device::cpu);
    const auto fast_cpu =
        debye_intensity(c, DebyeMethod::histogram, Precision::float64, Device::cpu, HistogramMode::fast);
    const double eh_cpu = test::max_rel_where_above(hist_gpu, hist_cpu, kIntensityFloor);
    const double ef_cpu = test::max_rel_where_above(fast_gpu, fast_cpu, kIntensityFloor);
    const double ef_precise = test::max_rel_where_above(fast_gpu, hist_cpu, kIntensityFloor);
    std::printf("case %2d seed %llu: float32 %.2e, histogram %.2e, GPU vs CPU histogram %.2e; fast histogram %.2e, "
                "GPU vs CPU fast histogram %.2e, vs precise %.2e  (%s)\n",
                k, static_cast<unsigned long long>(seed), e32, eh, eh_cpu, ef, ef_cpu, ef_precise,
                c.description.c_str());
    EXPECT_LE(e32, kFloat32Bound);
    EXPECT_LE(eh, kHistogramBound);
    EXPECT_LE(eh_cpu, kHistogramVsCpu);
    EXPECT_LE(ef, kHistogramBound);
    EXPECT_LE(ef_cpu, kHistogramVsCpu);
    EXPECT_LE(ef_precise, kFastHistogramVsPrecise);
    worst32 = std::max(worst32, e32);
    worst_hist = std::max(worst_hist, eh);
    worst_hist_cpu = std::max(worst_hist_cpu, eh_cpu);
    worst_fast = std::max(worst_fast, ef);
    worst_fast_cpu = std::max(worst_fast_cpu, ef_cpu);
  }
  std::printf("worst of %d drawn cases: float32 %.2e (bound %.0e), histogram %.2e (bound %.0e), GPU vs CPU histogram %.2e (bound %.0e); "
              "fast histogram %.2e (bound %.0e), GPU vs CPU fast histogram %.2e (bound %.0e)\n",
              kCases, worst32, kFloat32Bound, worst_hist, kHistogramBound, worst_hist_cpu, kHistogramVsCpu, worst_fast,
              kHistogramBound, worst_fast_cpu, kHistogramVsCpu);
}

// The GPU's float64 exact sum (the reference of the test above) against the
// CPU's on drawn cases of ≤ 4,000 atoms and ≤ 1,500 Q (CPU time), normal
// and fringe-region grids alternately, so uniform grids of more than one
// chunk (64 Q per thread) and of one, and 2θ grids (explicit lists) all
// occur: bound 1e-10 where I > 1e-3·max I (only the order of the float64
// sums, rsqrt's last bit and the ≤ 64-step recurrences differ).
TEST(DebyePropertyGpu, Float64MatchesTheCpuOnDrawnCases) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  test::DebyeCaseLimits limits{};
  limits.atoms_max = 4000;
  limits.qpoints_max = 1500;
  double worst = 0;
  const int cases = test::property_cases(20);
  for (int k = 0; k < cases; ++k) {
    const auto seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    limits.fringes = k % 2 == 1;
    const test::DebyeCase c = test::draw_debye_case(seed, limits);
    SCOPED_TRACE(c.description);
    const auto gpu = debye_intensity(c, DebyeMethod::exact, Precision::float64, Device::gpu);
    const auto cpu = debye_intensity(c, DebyeMethod::exact, Precision::float64, Device::cpu);
    const double e = test::max_rel_where_above(gpu, cpu, kIntensityFloor);
    std::printf("case %2d seed %llu: GPU vs CPU float64 %.2e  (%s)\n", k, static_cast<unsigned long long>(seed), e,
                c.description.c_str());
    EXPECT_LE(e, 1e-10);
    worst = std::max(worst, e);
  }
  std::printf("worst of %d drawn cases: GPU vs CPU float64 %.2e (bound 1e-10)\n", cases, worst);
}

// DebyeOptions::histogram_mode reaches the kernel: on drawn cases of ≤ 8,000
// atoms (seeds printed), the fast layout's I(Q) differs from the
// precise one's by more than 1e-9 (one word per bin rounds δ to 1/511
// bin, ~1e-6 of I(Q) on these cases; two words agree with the CPU
// histogram to ~1e-8) and stays within kFastHistogramVsPrecise of it.
TEST(DebyePropertyGpu, HistogramModeOptionReachesTheKernel) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  test::DebyeCaseLimits limits{};
  limits.atoms_max = 8000;
  limits.qpoints_max = 1000;
  for (int k = 0; k < 3; ++k) {
    const auto seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    const test::DebyeCase c = test::draw_debye_case(seed, limits);
    SCOPED_TRACE(c.description);
    const auto precise = debye_intensity(c, DebyeMethod::histogram, Precision::float64, Device::gpu);
    const auto fast = debye_intensity(c, DebyeMethod::histogram, Precision::float64, Device::gpu, HistogramMode::fast);
    const double d = test::max_rel_where_above(fast, precise, kIntensityFloor);
    std::printf("case %d seed %llu: fast vs precise GPU histogram %.2e  (%s)\n", k,
                static_cast<unsigned long long>(seed), d, c.description.c_str());
    EXPECT_GT(d, 1e-9) << "the fast layout gave the precise one's result: the option did not reach the kernel";
    EXPECT_LE(d, kFastHistogramVsPrecise + kHistogramVsCpu);
  }
}

#if NANOSCATTER_HAVE_CUDA
// Grids that start in the particle's low-angle fringes (DebyeCaseLimits::
// fringes): the default precision on the GPU (auto = single) within single's
// bound of float64. Each case also prints the raw float32 kernel's error on
// the structure's atoms as one block weighted by their neutron lengths (no
// float64 hand-over, CudaDebyeOptions::float32_min_qd = 0) and the largest
// Q·D where that error exceeds 3e-6, the evidence for the hand-over point.
TEST(DebyePropertyGpu, DefaultPrecisionWithinItsBoundInTheLowAngleFringes) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  test::DebyeCaseLimits limits{};
  limits.fringes = true;
  double worst = 0, worst_raw = 0, raw_reach = 0;
  for (int k = 0; k < kCases; ++k) {
    const auto seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    const test::DebyeCase c = test::draw_debye_case(seed, limits);
    SCOPED_TRACE(c.description);
    DebyeOptions o;
    o.radiation = c.radiation;
    o.compute.device = Device::gpu;
    const auto automatic = DebyePlan(c.structure, o).execute(c.q).intensity;
    o.compute.precision = Precision::float64;
    const auto ref = DebyePlan(c.structure, o).execute(c.q).intensity;
    const double e = test::max_rel_where_above(automatic, ref, kIntensityFloor);

    debye::AtomBlock block;
    for (const auto& atom : c.structure.atoms) {
      block.x.push_back(atom.position.x), block.y.push_back(atom.position.y), block.z.push_back(atom.position.z);
      block.w.push_back(neutron_b_coherent(atom.element).real());
    }
    const double d = bounding_box(block).diagonal();
    std::vector<double> raw(c.q.size(), 0.0), dbl(c.q.size(), 0.0);
    debye::CudaDebyeOptions co;
    co.float32_min_qd = 0;
    debye::exact_pair_sums_cuda(block, block, debye::PairSet::triangle, c.q, raw, co);
    co.precision = Precision::float64;
    debye::exact_pair_sums_cuda(block, block, debye::PairSet::triangle, c.q, dbl, co);
    std::vector<double> i_raw(c.q.size()), i_dbl(c.q.size());
    double n = 0;  // the self terms Σ w²
    for (double w : block.w) n += w * w;
    for (std::size_t j = 0; j < c.q.size(); ++j) {
      i_raw[j] = c.q[j] > 0 ? n + 2 * raw[j] / c.q[j] : 0;
      i_dbl[j] = c.q[j] > 0 ? n + 2 * dbl[j] / c.q[j] : 0;
    }
    const double e_raw = test::max_rel_where_above(i_raw, i_dbl, kIntensityFloor);
    double mx = 0, reach = 0;
    for (double v : i_dbl) mx = std::max(mx, v);
    for (std::size_t j = 0; j < c.q.size(); ++j)
      if (i_dbl[j] > kIntensityFloor * mx && std::abs(i_raw[j] / i_dbl[j] - 1) > 3e-6) reach = std::max(reach, c.q[j] * d);
    std::printf("case %2d: %s: auto %.2e; raw float32 (one block) %.2e, above 3e-6 up to Q*D = %.1f\n", k,
                c.description.c_str(), e, e_raw, reach);
    worst = std::max(worst, e), worst_raw = std::max(worst_raw, e_raw), raw_reach = std::max(raw_reach, reach);
    EXPECT_LE(e, kFloat32Bound);
  }
  std::printf("[ measured ] %d fringe-region cases: auto (single) vs double %.3e (bound %.0e); raw float32 %.3e, "
              "above 3e-6 up to Q*D = %.1f (hand-over at %.0f)\n",
              kCases, worst, kFloat32Bound, worst_raw, raw_reach, debye::CudaDebyeOptions::kFloat32MinQD);
}
#endif
