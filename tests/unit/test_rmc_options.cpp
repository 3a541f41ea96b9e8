// RmcOptions::validate and the plan's checks against the target: each bad
// value fails with the option's field (Where::option), which the CLI prints
// as its flag and Python as its keyword; and RmcResult::reduce, a no-op on
// one process.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "nanoscatter/error.hpp"
#include "nanoscatter/parallel.hpp"
#include "nanoscatter/rmc.hpp"

using namespace nanoscatter;

namespace {

// The field an option error names, or "" when `f` does not throw one.
std::string failing_field(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_TRUE(e.where().option) << e.what();
    return e.where().field;
  }
  return "";
}

RmcTarget small_target(std::size_t n) {
  std::vector<std::uint8_t> occupancy(n * n, 0);
  for (std::size_t i = 0; i < n * n; i += 3) occupancy[i] = 1;
  return make_rmc_target(Image2D{n, n, rmc_model_intensity(occupancy, n)}, nullptr, TargetOptions{});
}

}  // namespace

TEST(RmcOptions, ValidateNamesTheField) {
  EXPECT_EQ(failing_field([] { RmcOptions{}.validate(); }), "loading");  // required (or a loading_scan)
  const std::pair<std::function<void(RmcOptions&)>, std::string> cases[] = {
      {[](RmcOptions& o) { o.tiles = 0; }, "tiles"},
      {[](RmcOptions& o) { o.loading = {1.5}; }, "loading"},
      {[](RmcOptions& o) { o.loading = {std::nan("")}; }, "loading"},
      {[](RmcOptions& o) { o.loading = {0.2, 0.3}; }, "loading"},  // 2 loadings for 1 tile
      {[](RmcOptions& o) { o.steps = 0; }, "steps"},
      {[](RmcOptions& o) { o.max_distance = 0.5; }, "max_distance"},
      {[](RmcOptions& o) { o.temperature = -1.0; }, "temperature"},
      {[](RmcOptions& o) { o.target_acceptance = 1.0; }, "target_acceptance"},
      {[](RmcOptions& o) { o.final_ratio = 0; }, "final_ratio"},
      {[](RmcOptions& o) { o.multires_levels = -1; }, "multires"},
      {[](RmcOptions& o) { o.cluster_size = 9; }, "cluster"},
      {[](RmcOptions& o) { o.compute.threads = -1; }, "threads"},
  };
  for (const auto& [spoil, field] : cases) {
    RmcOptions o;
    o.loading = {0.3};
    spoil(o);
    EXPECT_EQ(failing_field([&] { o.validate(); }), field);
    EXPECT_EQ(failing_field([&] { RmcPlan(small_target(16), o); }), field) << "the plan validates too";
  }
}

TEST(RmcOptions, PlanChecksAgainstTheModelSize) {
  RmcOptions o;
  o.loading = {0.3};
  o.multires_levels = 3;  // 16 / 2³ = 2 sites < 4
  EXPECT_EQ(failing_field([&] { RmcPlan(small_target(16), o); }), "multires");
  o.multires_levels = 0;
  o.loading = {0.001};  // no particle on 16²
  EXPECT_EQ(failing_field([&] { RmcPlan(small_target(16), o); }), "loading");
}

TEST(RmcOptions, TemperatureFromText) {
  EXPECT_FALSE(parse_rmc_temperature("auto").has_value());
  EXPECT_EQ(parse_rmc_temperature("0.25"), 0.25);
  try {
    parse_rmc_temperature("hot");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "temperature: expected a number or 'auto', got 'hot'");
  }
}

TEST(RmcOptions, ReduceOnOneProcessKeepsTheResult) {
  RmcOptions o;
  o.loading = {0.3};
  o.tiles = 2;
  o.steps = 200;
  o.compute.threads = 1;
  const RmcResult whole = RmcPlan(small_target(16), o).execute();
  RmcResult r = whole;
  r.reduce(parallel::Communicator{});
  ASSERT_EQ(r.tiles.size(), 2u);
  EXPECT_EQ(r.trace, whole.trace);
  EXPECT_EQ(r.tiles[1].occupancy, whole.tiles[1].occupancy);
}
