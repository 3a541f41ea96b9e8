// Re-evaluation cost of a GISAXS plan on the CPU pixel loop (issue 21): a
// set_layouts that keeps the particles (drawn edits of the interference,
// density and coupling) gives the image of a fresh plan to 1e-12 and
// computes no amplitude again (Stats::amplitude_pixels unchanged); one
// that changes a particle (a drawn radius) recomputes every kind's
// amplitudes and again equals a fresh plan. A failure prints the seed.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_sample_document.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;

namespace {

constexpr double kTolerance = 1e-12;  // the same float64 sums in the same order: rounding at most
constexpr int kCases = 4;

GisaxsOptions cpu_options() {
  GisaxsOptions o;
  o.compute.device = Device::cpu;
  o.compute.quiet = true;
  return o;
}

void expect_same_image(const GisaxsResult& got, const GisaxsResult& want) {
  ASSERT_EQ(got.intensity.size(), want.intensity.size());
  double peak = 0;
  for (double v : want.intensity) peak = std::max(peak, std::abs(v));
  for (std::size_t p = 0; p < want.intensity.size(); ++p)
    ASSERT_NEAR(got.intensity[p], want.intensity[p], kTolerance * std::max(std::abs(want.intensity[p]), 1e-9 * peak))
        << "pixel " << p;
}

}  // namespace

TEST(GisaxsPlanReuse, UnchangedParticlesKeepTheirAmplitudesOnDrawnEdits) {
  const std::string path = std::string(NS_TEST_DATA_DIR) + "/fit/spheres_ssca.toml";
  for (int k = 0; k < kCases; ++k) {
    const auto seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    const auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    const bool decoupling = uniform(0, 1) < 0.5;  // from the seed: a printed seed replays its case
    SampleDocument doc = SampleDocument::read(path);
    if (decoupling)  // the decoupling approximation (κ must go with the SSCA: one edit)
      doc.set({{"layout[0].mixture", ConfigValue(std::string("decoupling"))},
               {"layout[0].interference.size_spacing_coupling", ConfigValue(0.0)}});
    GisaxsPlan plan(doc.sample(), cpu_options());
    plan.execute();  // a plan executed once keeps no amplitudes
    const std::size_t once = plan.stats().amplitude_pixels;
    EXPECT_EQ(once, plan.pixels().size() * plan.particle_kinds());
    plan.set_layouts(doc.sample().layouts);  // re-evaluated from here: the next execute keeps them
    plan.execute();
    EXPECT_EQ(plan.stats().amplitude_pixels, 2 * once);

    // Interference, density (and the coupling under the SSCA): amplitudes kept.
    doc.set("layout[0].interference.peak_distance", ConfigValue(uniform(12, 40)));
    doc.set("layout[0].interference.pdf.omega", ConfigValue(uniform(1, 10)));
    doc.set("layout[0].density", ConfigValue(uniform(0.001, 0.004)));
    if (!decoupling) doc.set("layout[0].interference.size_spacing_coupling", ConfigValue(uniform(0, 3)));
    plan.set_layouts(doc.sample().layouts);
    expect_same_image(plan.execute(), GisaxsPlan(doc.sample(), cpu_options()).execute());
    EXPECT_EQ(plan.stats().amplitude_pixels, 2 * once) << "amplitudes computed again for an interference change";

    // A particle's size: every amplitude again.
    doc.set("layout[0].particle[0].radius", ConfigValue(uniform(3, 7)));
    plan.set_layouts(doc.sample().layouts);
    expect_same_image(plan.execute(), GisaxsPlan(doc.sample(), cpu_options()).execute());
    EXPECT_EQ(plan.stats().amplitude_pixels, 3 * once);
  }
}
