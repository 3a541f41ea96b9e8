// GisaxsFitModel::evaluate_batch on the CPU pixel loop: the same images as
// the sets evaluated one after the other (the same code, so equal to the
// last bit), and the model keeps the last set (tests/gisaxs_batch_check.hpp).
// Drawn sets; a failure prints the seed (NS_TEST_SEED replays it).
#include <gtest/gtest.h>

#include "gisaxs_batch_check.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;

TEST(GisaxsFitBatch, CpuBatchEqualsOneAfterTheOther) {
  for (int k = 0; k < test::property_cases(3); ++k) {
    const auto seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    const test::BatchCheck c = test::check_fit_model_batch(gisaxs::GisaxsOptions{}, rng);
    EXPECT_EQ(c.max_rel, 0.0);
    EXPECT_EQ(c.last_stays, 0.0);
    EXPECT_EQ(c.stats.batch_launches, 0u);  // no GPU path: one after the other
  }
}

// A top-level [[particle]] sample's particle values are layout values: the
// plan is kept (set_layouts), not rebuilt, and the image is the fresh plan's.
TEST(GisaxsFitBatch, TopLevelParticleValuesKeepThePlan) {
  const std::string text = R"(
density = 0.002
[beam]
wavelength = 0.1
alpha_i = 0.2
[detector]
type = "angular"
phi_f = { min = -1, max = 1, bins = 12 }
alpha_f = { min = 0.05, max = 1.5, bins = 10 }
[material.p]
delta = 6e-4
beta = 2e-8
[[layer]]
name = "vacuum"
[[particle]]
shape = "sphere"
radius = 4.0
material = "p"
layer = "vacuum"
)";
  fit::GisaxsFitModel model(gisaxs::SampleDocument::parse(text, "inline.toml"), {}, {});
  std::vector<double> a(model.size()), b(model.size());
  model.evaluate(a);
  const std::size_t once = model.plan()->stats().amplitude_pixels;  // a new plan's count starts at 0
  ASSERT_GT(once, 0u);
  model.set("particle[0].radius", 4.5);
  model.evaluate(a);
  EXPECT_EQ(model.plan()->stats().amplitude_pixels, 2 * once);  // the same plan, evaluated again
  fit::GisaxsFitModel fresh(gisaxs::SampleDocument::parse(text, "inline.toml"), {}, {});
  fresh.set("particle[0].radius", 4.5);
  fresh.evaluate(b);
  EXPECT_EQ(test::max_rel_floored(a, b), 0.0);
}
