// The analytic GPU path of GisaxsPlan (docs/gisaxs.md, "On the GPU") on
// samples nobody chose (tests/gisaxs_analytic_samples.hpp: every analytic
// shape, size distributions, mixtures, interference functions, layers,
// detectors, DWBA and Born) against the CPU float64 pixel loop. Bounds:
//   float64: |I_gpu − I_cpu| ≤ 1e-9 max(I_cpu, 1e-10 max I);
//   float32 form factors (float64 sums): ≤ 1e-4 where I > 1e-4 max I and
//   ≤ 1e-3 where I > 1e-6 max I (the float32 phase q·R near deep minima of
//   F; docs/gisaxs.md), relative to those floors below them.
// Also: repeated executes and set_layouts on one plan (the geometry stays
// on the device), pixel ranges, work shares, the GALAXI example, and the
// fallback to the CPU pixel loop for a shape the GPU path lacks.
// A failure prints the case's seed; NS_TEST_SEED replays it,
// NS_PROPERTY_CASES sets the number of cases (default 60).
// Skips (not fails) where no CUDA device exists.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "gisaxs_analytic_samples.hpp"
#include "gisaxs_batch_check.hpp"
#include "nanoscatter/device.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "property_seed.hpp"
#include "test_util.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;
using nanoscatter::test::case_seed;
using nanoscatter::test::property_cases;

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

namespace {

GisaxsOptions options(Approximation a, Device device, Precision precision = Precision::float64) {
  GisaxsOptions o;
  o.approximation = a;
  o.compute.device = device;
  o.compute.precision = precision;
  return o;
}

bool on_gpu(const GisaxsPlan& plan) { return plan.device_summary().rfind("GPU", 0) == 0; }

}  // namespace

TEST(GisaxsAnalyticGpu, MatchesCpuFloat64OnDrawnSamples) {
  SKIP_WITHOUT_GPU();
  const int cases = property_cases(60);
  double worst64 = 0, worst32 = 0;
  for (int k = 0; k < cases; ++k) {
    const auto seed = case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    const test::DrawnGisaxs d = test::draw_gisaxs(rng);
    SCOPED_TRACE(d.what);
    const std::vector<double> cpu = GisaxsPlan(d.sample, options(d.approximation, Device::cpu)).execute().intensity;
    const GisaxsPlan gpu64(d.sample, options(d.approximation, Device::gpu));
    const GisaxsPlan gpu32(d.sample, options(d.approximation, Device::gpu, Precision::float32));
    ASSERT_TRUE(on_gpu(gpu64)) << gpu64.device_summary();
    const double e64 = test::max_rel_error_floored(gpu64.execute().intensity, cpu, 1e-10);
    const std::vector<double> single = gpu32.execute().intensity;
    const double e32 = test::max_rel_error_floored(single, cpu, 1e-4);
    const double e32_deep = test::max_rel_error_floored(single, cpu, 1e-6);
    std::printf("[ measured ] case %d seed %llu: %s: float64 %.1e, float32 %.1e\n", k,
                static_cast<unsigned long long>(seed), d.what.c_str(), e64, e32);
    EXPECT_LE(e64, 1e-9) << "GPU float64 vs CPU float64";
    EXPECT_LE(e32, 1e-4) << "GPU float32 form factors vs CPU float64, I > 1e-4 max I";
    EXPECT_LE(e32_deep, 1e-3) << "GPU float32 form factors vs CPU float64, I > 1e-6 max I";
    worst64 = std::max(worst64, e64);
    worst32 = std::max(worst32, e32);
  }
  std::printf("[ measured ] %d drawn samples: GPU float64 %.1e (bound 1e-9), float32 %.1e (bound 1e-4 where I > 1e-4 max I)\n", cases,
              worst64, worst32);
}

TEST(GisaxsAnalyticGpu, ReusedPlanRangesSharesAndSetLayouts) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test::property_base_seed() ^ 0x9a11u);
  for (int k = 0; k < 10; ++k) {
    const test::DrawnGisaxs a = test::draw_gisaxs(rng), b = test::draw_gisaxs(rng);
    SCOPED_TRACE(a.what);
    GisaxsPlan plan(a.sample, options(a.approximation, Device::gpu));
    const std::vector<double> first = plan.execute().intensity;
    EXPECT_EQ(plan.execute().intensity, first) << "a second execute of one plan";
    // A pixel range equals the same pixels of the whole image.
    const std::size_t n = first.size(), from = n / 3, count = n / 2;
    std::vector<double> part(count);
    plan.compute_pixels(from, count, part.data());
    EXPECT_TRUE(std::equal(part.begin(), part.end(), first.begin() + std::ptrdiff_t(from)));
    // Two parts of a work share add up to the image (each leaves the other's pixels at 0).
    std::vector<double> merged(n, 0.0);
    for (int index = 0; index < 2; ++index) {
      GisaxsOptions o = options(a.approximation, Device::gpu);
      o.share = {index, 2};
      const std::vector<double> p = GisaxsPlan(a.sample, o).execute().intensity;
      for (std::size_t i = 0; i < n; ++i) merged[i] += p[i];
    }
    EXPECT_EQ(merged, first);
    // New layouts on the same plan equal a fresh plan (when b's particles fit a's layers).
    Sample mixed = a.sample;
    mixed.layouts = b.sample.layouts;
    mixed.validated = false;
    try {
      validate_sample(mixed);
    } catch (const Error&) {
      continue;
    }
    plan.set_layouts(b.sample.layouts);
    ASSERT_TRUE(on_gpu(plan));
    const std::vector<double> cpu = GisaxsPlan(mixed, options(a.approximation, Device::cpu)).execute().intensity;
    EXPECT_LE(test::max_rel_error_floored(plan.execute().intensity, cpu, 1e-10), 1e-9) << "after set_layouts";
  }
}

TEST(GisaxsAnalyticGpu, GalaxiExampleMatchesCpu) {
  SKIP_WITHOUT_GPU();
  const Sample s = read_sample(std::string(NS_TEST_DATA_DIR) + "/../../examples/gisaxs/galaxi.toml");
  const GisaxsPlan gpu(s, options(Approximation::dwba, Device::gpu));
  ASSERT_TRUE(on_gpu(gpu)) << gpu.device_summary();
  const std::vector<double> cpu = GisaxsPlan(s, options(Approximation::dwba, Device::cpu)).execute().intensity;
  const double e64 = test::max_rel_error_floored(gpu.execute().intensity, cpu, 1e-10);
  const GisaxsPlan gpu32(s, options(Approximation::dwba, Device::gpu, Precision::float32));
  const double e32 = test::max_rel_error_floored(gpu32.execute().intensity, cpu, 1e-6);
  std::printf("[ measured ] GALAXI 204×129: GPU float64 %.1e, float32 %.1e vs CPU float64\n", e64, e32);
  EXPECT_LE(e64, 1e-10);
  EXPECT_LE(e32, 1e-4);
}

TEST(GisaxsAnalyticGpu, ShapesWithoutGpuFormFactorRunOnTheCpuLoop) {
  SKIP_WITHOUT_GPU();
  const Sample s = parse_sample(
      "density = 0.01\n[beam]\nwavelength = 0.1\nalpha_i = 0.2\n[detector]\n"
      "phi_f = { min = -1.0, max = 1.0, bins = 16 }\nalpha_f = { min = 0.0, max = 1.0, bins = 16 }\n"
      "[[layer]]\n[[layer]]\nmaterial = { delta = 6e-6, beta = 2e-8 }\n"
      "[[particle]]\nshape = \"icosahedron\"\nedge = 5\nmaterial = { delta = 6e-4, beta = 2e-8 }\n",
      "ico.toml");
  const GisaxsPlan gpu(s, options(Approximation::dwba, Device::gpu));
  EXPECT_EQ(gpu.device_summary().rfind("CPU pixel loop (shape 'icosahedron'", 0), 0u) << gpu.device_summary();
  EXPECT_EQ(gpu.execute().intensity, GisaxsPlan(s, options(Approximation::dwba, Device::cpu)).execute().intensity);
}

// A fit model's Jacobian batch (GisaxsFitModel::evaluate_batch →
// GisaxsPlan::execute_batch) on the analytic GPU path: all sets in one
// launch, each image equal to the same set evaluated alone on the GPU
// (the same kernel code: 1e-12), and the last set stays set.
TEST(GisaxsAnalyticGpu, FitBatchIsOneLaunchAndMatchesOneAfterTheOther) {
  SKIP_WITHOUT_GPU();
  for (int k = 0; k < property_cases(4); ++k) {
    const auto seed = case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    for (Precision p : {Precision::float64, Precision::float32}) {
      const test::BatchCheck c = test::check_fit_model_batch(options(Approximation::dwba, Device::gpu, p), rng);
      EXPECT_LE(c.max_rel, 1e-12);
      EXPECT_LE(c.last_stays, 1e-12);
      EXPECT_EQ(c.stats.batch_launches, 1u);
      EXPECT_EQ(c.stats.batched_images, c.sets);
    }
  }
}
