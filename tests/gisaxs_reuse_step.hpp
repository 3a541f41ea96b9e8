// Re-evaluation of a GisaxsPlan (issue 21) as the CPU loop's tests
// (tests/unit/test_gisaxs_amplitude_cache.cpp) and the analytic GPU path's
// (tests/gpu/test_gisaxs_analytic_gpu.cpp) check it: one execute() and
// what it computed (Stats' differences), and the two-kind scenario both
// paths must pass alike.
#pragma once
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_sample_document.hpp"
#include "test_util.hpp"

namespace nanoscatter::test {

struct ReuseStep {
  std::vector<std::size_t> computed;  // the kinds computed, plan order
  std::size_t reused = 0, pixels = 0;  // kinds reused; amplitude pixels (CPU loop)
};

inline ReuseStep execute_counting(const gisaxs::GisaxsPlan& plan, gisaxs::GisaxsResult* result = nullptr) {
  const gisaxs::GisaxsPlan::Stats before = plan.stats();
  gisaxs::GisaxsResult r = plan.execute();
  const gisaxs::GisaxsPlan::Stats after = plan.stats();
  EXPECT_EQ(after.kinds_computed - before.kinds_computed, after.last_computed_kinds.size());
  if (result) *result = std::move(r);
  return {after.last_computed_kinds, after.kinds_reused - before.kinds_reused,
          after.amplitude_pixels - before.amplitude_pixels};
}

// Kept amplitudes against a fresh plan: the same sums of the same
// amplitudes, rounding at most, relative to max(|I|, 1e-9 max I).
inline constexpr double kReuseTolerance = 1e-12;

inline double max_rel_to_peak(const std::vector<double>& got, const std::vector<double>& want) {
  return max_rel_error_floored(got, want, 1e-9);
}

// Issue 21's acceptance on a plan of `options`: cylinders and spheroids
// (two kinds, tests/data/gisaxs/mixture_paracrystal.toml) executed once
// (nothing kept), re-evaluated (both computed, kept from here), then four
// edits, each against a fresh plan of the same options: a drawn radius of a
// drawn particle (that kind alone computed, the other reused), a drawn
// abundance (nothing computed), the radius set back (nothing: the earlier
// kind was kept beside), both materials (both kinds).
struct TwoKindsRun {
  std::size_t changed = 0;  // the particle whose radius was drawn
  std::string radius;       // its key
  std::size_t pixels = 0;
  std::array<ReuseStep, 4> steps;  // radius, abundance, set back, materials
  std::array<double, 4> errors{};  // each image against a fresh plan (max_rel_to_peak)
  gisaxs::Sample radius_sample;    // the sample of the radius edit, and its image
  std::vector<double> radius_image;
};

inline TwoKindsRun run_two_kinds(const gisaxs::GisaxsOptions& options, std::mt19937_64& rng) {
  using gisaxs::GisaxsPlan;
  const auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  TwoKindsRun run;
  gisaxs::SampleDocument doc =
      gisaxs::SampleDocument::read(std::string(NS_TEST_DATA_DIR) + "/gisaxs/mixture_paracrystal.toml");
  GisaxsPlan plan(doc.sample(), options);
  EXPECT_EQ(plan.particle_kinds(), 2u);
  run.pixels = plan.pixels().size();
  EXPECT_EQ(execute_counting(plan).computed, (std::vector<std::size_t>{0, 1}));  // a plan run once keeps none
  plan.set_layouts(doc.sample());
  EXPECT_EQ(execute_counting(plan).computed, (std::vector<std::size_t>{0, 1}));  // re-evaluated: kept from here
  const auto step = [&](std::size_t i) {
    plan.set_layouts(doc.sample());
    gisaxs::GisaxsResult got;
    run.steps[i] = execute_counting(plan, &got);
    run.errors[i] = max_rel_to_peak(got.intensity, GisaxsPlan(doc.sample(), options).execute().intensity);
    EXPECT_LE(run.errors[i], kReuseTolerance) << "edit " << i << " against a fresh plan";
    return got.intensity;
  };

  run.changed = std::uniform_int_distribution<std::size_t>(0, 1)(rng);
  run.radius = "particle[" + std::to_string(run.changed) + "].radius";
  const double original = std::get<double>(doc.get(run.radius));
  doc.set(run.radius, ConfigValue(uniform(2, 9)));
  run.radius_image = step(0);
  run.radius_sample = doc.sample();
  EXPECT_EQ(run.steps[0].computed, std::vector<std::size_t>{run.changed});
  EXPECT_EQ(run.steps[0].reused, 1u);

  // Abundances weight the kinds: nothing computed.
  doc.set("particle[0].abundance", ConfigValue(uniform(0.1, 0.9)));
  step(1);
  EXPECT_TRUE(run.steps[1].computed.empty());
  EXPECT_EQ(run.steps[1].reused, 2u);

  // The radius set back (a finite-difference step undone): the earlier
  // kind's amplitudes were kept beside the current ones.
  doc.set(run.radius, ConfigValue(original));
  step(2);
  EXPECT_TRUE(run.steps[2].computed.empty());

  // Both particles' materials changed at once: both kinds.
  doc.set({{"particle[0].material.delta", ConfigValue(uniform(1e-4, 9e-4))},
           {"particle[1].material.beta", ConfigValue(uniform(1e-9, 5e-8))}});
  step(3);
  EXPECT_EQ(run.steps[3].computed, (std::vector<std::size_t>{0, 1}));
  return run;
}

}  // namespace nanoscatter::test
