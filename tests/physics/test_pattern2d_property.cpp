// Property test of the fast CPU pattern2d paths on inputs nobody chose
// (issue 20): every run draws fresh cases (tests/property_seed.hpp; a failure
// prints its seed, NS_TEST_SEED replays it) — crystals of every named
// lattice or random atoms, 200–20,000 atoms, defects, zone axes or random
// orientations, X-ray / anomalous X-ray / neutron / electron wavelengths,
// polar and flat detectors with and without Ewald curvature (the draw is
// described in test_pattern2d_property_support.hpp) — and compares the
// fast float64 and float32 images with the textbook float64 evaluation.
//
// Bounds (the documented ones, docs/guide.md "pattern2d"):
//   float64: max relative error ≤ 1e-10 where I > 1e-6 max I;
//   float32: max relative error ≤ 1e-5 where I > 1e-3 max I.
// NS_PROPERTY_CASES overrides the number of cases (default 12; CI time ~10 s
// on 2 cores).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "physics/test_pattern2d_property_support.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;
using namespace nanoscatter::pattern2d_test;
using nanoscatter::test::case_seed;

namespace {

int property_cases(int fallback) {
  const char* env = std::getenv("NS_PROPERTY_CASES");
  return env && *env ? std::max(1, std::atoi(env)) : fallback;
}

}  // namespace

TEST(Pattern2DProperty, FastCpuPathsMatchFloat64ReferenceOnDrawnCases) {
  const int cases = property_cases(12);
  double worst64 = 0, worst32 = 0, worst_norm32 = 0;
  for (int k = 0; k < cases; ++k) {
    const auto seed = case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    const DrawnCase c = draw_case(rng, DrawLimits{});
    SCOPED_TRACE(c.what);
    Pattern2DOptions o = c.options;
    o.device = Device::cpu;
    o.precision = Precision::dual;
    const auto r64 = Pattern2DPlan(c.structure, o).execute(c.geometry);
    o.precision = Precision::single;
    const auto r32 = Pattern2DPlan(c.structure, o).execute(c.geometry);
    const auto ref = reference_intensity(c, r64.grid, {}, r64.electron_gamma);
    const ImageErrors e64 = image_errors(r64.intensity, ref, {}, 1e-6);
    const ImageErrors e32 = image_errors(r32.intensity, ref, {}, 1e-3);
    std::printf("[ measured ] case %d seed %llu: %s\n  %zu pixels: float64 %.3g (%zu px > 1e-6 max), float32 %.3g "
                "(%zu px > 1e-3 max; norm-wise %.3g)\n",
                k, static_cast<unsigned long long>(seed), c.what.c_str(), ref.size(), e64.max_rel, e64.counted,
                e32.max_rel, e32.counted, e32.norm);
    EXPECT_LE(e64.max_rel, 1e-10) << "float64, worst pixel " << e64.worst;
    EXPECT_LE(e32.max_rel, 1e-5) << "float32, worst pixel " << e32.worst << " I = " << r32.intensity[e32.worst]
                                 << " reference " << ref[e32.worst];
    worst64 = std::max(worst64, e64.max_rel);
    worst32 = std::max(worst32, e32.max_rel);
    worst_norm32 = std::max(worst_norm32, e32.norm);
  }
  std::printf("[ measured ] %d drawn cases: max rel error float64 %.3g (bound 1e-10), float32 %.3g (bound 1e-5); "
              "float32 norm-wise %.3g\n",
              cases, worst64, worst32, worst_norm32);
}
