// Property tests of the Debye fast paths on the CPU: every run draws fresh
// cases (tests/debye_property_cases.hpp: lattice, shape, size, disorder,
// species, radiation, Q or 2θ grid) and checks, against the float64 exact
// sum, where I > 1e-3·max I:
//  - exact float32 (the dithered recurrence, docs/debye.md) within
//    kFloat32Bound;
//  - histogram (Δr = 1e-3 Å), precise (float64 Taylor moments) and fast
//    (δ to 511 dithered levels: the GPU's fast kernel's function, computed
//    by its CPU twin), each within kHistogramBound.
// A failure prints the case's seed (NS_TEST_SEED replays it) and the case.
// CI draws 500–2,500 atoms and 50–1,500 Q so that 20 cases take about a
// minute on two cores; the GPU twin (tests/gpu) draws the full ranges.
#include <gtest/gtest.h>

#include <cstdio>

#include "debye_property_cases.hpp"
#include "nanoscatter/debye.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;

namespace {

// The documented bounds (docs/debye.md, "Methods and their accuracy").
constexpr double kFloat32Bound = 1e-5;
constexpr double kHistogramBound = 1e-4;
constexpr double kIntensityFloor = 1e-3;
constexpr int kCases = 20;

std::vector<double> intensity(const test::DebyeCase& c, DebyeMethod method, Precision precision,
                              HistogramMode mode = HistogramMode::precise) {
  return test::debye_intensity(c, method, precision, Device::cpu, mode);
}

// kCases drawn cases within `limits`: exact float32 (and, with
// `histogram`, the histogram method) against exact float64, each within its
// bound where I > kIntensityFloor·max I.
void check_drawn_cases(const test::DebyeCaseLimits& limits, bool histogram, const char* what) {
  double worst32 = 0, worst_hist = 0, worst_fast = 0;
  for (int k = 0; k < kCases; ++k) {
    const auto seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    const test::DebyeCase c = test::draw_debye_case(seed, limits);
    SCOPED_TRACE(c.description);
    const auto ref = intensity(c, DebyeMethod::exact, Precision::float64);
    const double e32 = test::max_rel_where_above(intensity(c, DebyeMethod::exact, Precision::float32), ref, kIntensityFloor);
    const double eh =
        histogram ? test::max_rel_where_above(intensity(c, DebyeMethod::histogram, Precision::float64), ref, kIntensityFloor) : 0;
    const double ef = histogram ? test::max_rel_where_above(intensity(c, DebyeMethod::histogram, Precision::float64,
                                                                      HistogramMode::fast),
                                                            ref, kIntensityFloor)
                                : 0;
    std::printf("case %2d seed %llu: float32 %.2e, histogram %.2e, fast histogram %.2e  (%s)\n", k,
                static_cast<unsigned long long>(seed), e32, eh, ef, c.description.c_str());
    EXPECT_LE(e32, kFloat32Bound);
    EXPECT_LE(eh, kHistogramBound);
    EXPECT_LE(ef, kHistogramBound);
    worst32 = std::max(worst32, e32);
    worst_hist = std::max(worst_hist, eh);
    worst_fast = std::max(worst_fast, ef);
  }
  std::printf("worst of %d drawn %s cases: float32 %.2e (bound %.0e), histogram %.2e, fast histogram %.2e (bound %.0e)\n",
              kCases, what, worst32, kFloat32Bound, worst_hist, worst_fast, kHistogramBound);
}

}  // namespace

TEST(DebyeProperty, Float32AndHistogramWithinTheirBoundsOnDrawnCases) {
  check_drawn_cases(test::DebyeCaseLimits{500, 2500, 50, 1500}, /*histogram=*/true, "");
}
// The same on grids that start in the particle's low-angle fringes, where
// the intensity's minima are cancellations of far larger terms (and the
// drawn second species is Ti, whose negative neutron length makes the
// partials cancel too): the GPU's float32 needed a float64 hand-over there
// (docs/debye.md); the CPU's float32, which sums its terms in float64, is
// held to the same bound without one.
TEST(DebyeProperty, Float32WithinItsBoundInTheLowAngleFringes) {
  test::DebyeCaseLimits limits{500, 2500, 50, 1500};
  limits.fringes = true;
  check_drawn_cases(limits, /*histogram=*/false, "fringe-region");
}
