// The fitting framework on a closed-form model (a 2D Gaussian peak on a
// background): recovery within 2σ, reported σ against the spread over 20
// noise realisations, LM and an NLopt global search at the same minimum,
// ties and fixed parameters, variable projection against fitted
// scale/background, and the parameter checks. Noise is drawn per run
// (property_seed.hpp prints the seed).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "nanoscatter/fit.hpp"
#include "fit_statistics.hpp"
#include "property_seed.hpp"

namespace nanoscatter::fit {
namespace {

// μ₀ = exp(−((c − x₀)² + (r − y₀)²)/(2w²)) on a rows × cols grid.
class GaussModel : public FitModel {
 public:
  std::vector<std::string> paths() const override { return {"peak.x", "peak.y", "peak.width"}; }
  void set(const std::string& path, double v) override {
    if (path == "peak.x") x0 = v;
    else if (path == "peak.y") y0 = v;
    else if (path == "peak.width") w = v;
    else fail("no path ", path);
  }
  std::size_t rows() const override { return 24; }
  std::size_t cols() const override { return 20; }
  void evaluate(std::span<double> out) override {
    for (std::size_t r = 0; r < rows(); ++r)
      for (std::size_t c = 0; c < cols(); ++c)
        out[r * cols() + c] = std::exp(-((c - x0) * (c - x0) + (r - y0) * (r - y0)) / (2 * w * w));
  }
  double x0 = 9.3, y0 = 12.1, w = 3.0;
};

constexpr double true_scale = 2000, true_background = 20;

FitData noisy_data(std::uint64_t seed) {
  GaussModel truth;
  std::vector<double> image(truth.size());
  truth.evaluate(image);
  std::mt19937_64 rng(seed);
  FitData d;
  d.rows = truth.rows(), d.cols = truth.cols();
  for (double m : image) {
    std::poisson_distribution<long> counts(true_scale * m + true_background);
    d.values.push_back(double(counts(rng)));
  }
  d.use.assign(d.values.size(), 1);
  return d;
}

std::vector<Parameter> start_parameters() {
  const auto p = [](auto... a) { return test::bounded_parameter(a...); };
  return {p("peak.x", 8.0, 0, 20), p("peak.y", 13.0, 0, 24), p("peak.width", 2.5, 0.5, 10)};
}

MinimizerOptions quiet_lm() {
  MinimizerOptions m;
  m.quiet = true;
  return m;
}

TEST(FitFramework, RecoversWithinTwoSigmaAndSigmaMatchesSpread) {
  const int realisations = 20;
  const std::vector<std::pair<std::string, double>> truth{
      {"peak.x", 9.3}, {"peak.y", 12.1}, {"peak.width", 3.0}, {"scale", true_scale}, {"background", true_background}};
  std::vector<std::vector<double>> values(truth.size()), sigmas(truth.size());
  for (int k = 0; k < realisations; ++k) {
    const std::uint64_t seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    GaussModel model;
    // The Poisson deviance (maximum likelihood): σ² = max(d, 1) would bias
    // the background low by about a count (Neyman's χ²).
    ObjectiveOptions deviance;
    deviance.kind = ObjectiveKind::deviance;
    const FitResult r = run_fit(model, start_parameters(), noisy_data(seed), deviance, quiet_lm());
    ASSERT_TRUE(r.converged) << r.message;
    for (std::size_t j = 0; j < truth.size(); ++j) {
      values[j].push_back(r.value(truth[j].first));
      sigmas[j].push_back(r.parameter(truth[j].first).sigma);
    }
  }
  test::check_sigma_against_spread(truth, values, sigmas);
}

TEST(FitFramework, LevenbergMarquardtAndGlobalSearchFindTheSameMinimum) {
  const std::uint64_t seed = test::case_seed(0);
  NS_PROPERTY_CASE(seed);
  const FitData data = noisy_data(seed);
  GaussModel a, b, c;
  const FitResult lm = run_fit(a, start_parameters(), data, {}, quiet_lm());
  MinimizerOptions global = quiet_lm();
  global.name = "nlopt:GN_CRS2_LM";
  global.max_evaluations = 4000;
  global.function_tolerance = 1e-12;
  const FitResult crs = run_fit(b, start_parameters(), data, {}, global);
  global.name = "dogleg";
  const FitResult dogleg = run_fit(c, start_parameters(), data, {}, global);
  for (const char* name : {"peak.x", "peak.y", "peak.width"}) {
    const double sigma = lm.parameter(name).sigma;
    EXPECT_NEAR(crs.value(name), lm.value(name), 0.1 * sigma) << name;
    EXPECT_NEAR(dogleg.value(name), lm.value(name), 1e-3 * sigma) << name;
  }
  EXPECT_NEAR(crs.chi2, lm.chi2, 1e-3 * lm.chi2);
  // A global search polished by LM lands on LM's minimum.
  global.name = "nlopt:GN_DIRECT_L";
  global.max_evaluations = 600;
  global.polish = true;
  GaussModel d;
  const FitResult polished = run_fit(d, start_parameters(), data, {}, global);
  EXPECT_TRUE(polished.converged) << polished.message;
  for (const char* name : {"peak.x", "peak.y", "peak.width"})
    EXPECT_NEAR(polished.value(name), lm.value(name), 1e-3 * lm.parameter(name).sigma) << name;
}

TEST(FitFramework, TiesAndFixedParametersAreRespected) {
  const std::uint64_t seed = test::case_seed(1);
  NS_PROPERTY_CASE(seed);
  auto p = start_parameters();
  p[1].tie = "peak.x + 2.8";  // truth: y₀ − x₀ = 2.8
  p[2].fixed = true;
  p[2].start = 3.0;
  GaussModel model;
  const FitResult r = run_fit(model, p, noisy_data(seed), {}, quiet_lm());
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_DOUBLE_EQ(r.value("peak.y"), r.value("peak.x") + 2.8);
  EXPECT_EQ(r.value("peak.width"), 3.0);
  EXPECT_EQ(r.parameter("peak.width").sigma, 0.0);
  EXPECT_TRUE(r.parameter("peak.y").tied);
  EXPECT_NEAR(r.parameter("peak.y").sigma, r.parameter("peak.x").sigma, 1e-6 * r.parameter("peak.x").sigma);
  EXPECT_EQ(model.y0, model.x0 + 2.8);  // the model is left at the best values
}

// A fit stopped by max_evaluations says so and reports its last accepted
// iterate (its χ² the last of the history, below the start's), not the
// start: Ceres puts the start back into the parameters when a callback aborts.
TEST(FitFramework, StoppedFitReportsItsLastIterateNotTheStart) {
  const std::uint64_t seed = test::case_seed(2);
  NS_PROPERTY_CASE(seed);
  for (const char* name : {"lm", "dogleg"}) {
    MinimizerOptions few = quiet_lm();
    few.name = name;
    few.max_evaluations = 12;  // 4 images per Jacobian: a few iterations
    GaussModel model;
    const FitResult r = run_fit(model, start_parameters(), noisy_data(seed), {}, few);
    EXPECT_FALSE(r.converged) << r.message;
    ASSERT_GE(r.history_chi2.size(), 2u) << name;
    EXPECT_LT(r.chi2, r.history_chi2.front()) << name;
    EXPECT_NEAR(r.chi2, r.history_chi2.back(), 1e-9 * r.chi2) << name;
    EXPECT_NE(r.value("peak.x"), 8.0) << name;  // the start
    EXPECT_EQ(model.x0, r.value("peak.x")) << name;  // the model is left there
  }
}

// A free parameter the data do not see (its Jacobian column is zero, as
// Qdamp at its bound 0) gets σ = NaN; the others keep the σ they have
// without it, instead of all turning NaN with a singular JᵀJ (up to
// χ²_red's degrees of freedom, which count it: √(475/474) − 1 = 0.1 % here).
class GaussWithIdleKnob : public GaussModel {
 public:
  std::vector<std::string> paths() const override { return {"peak.x", "peak.y", "peak.width", "idle"}; }
  void set(const std::string& path, double v) override {
    if (path != "idle") GaussModel::set(path, v);
  }
};

TEST(FitFramework, AParameterTheDataDoNotSeeLeavesTheOthersTheirSigma) {
  const std::uint64_t seed = test::case_seed(3);
  NS_PROPERTY_CASE(seed);
  const FitData data = noisy_data(seed);
  GaussModel plain;
  const FitResult without = run_fit(plain, start_parameters(), data, {}, quiet_lm());
  auto with_idle = start_parameters();
  Parameter idle;
  idle.name = "idle", idle.start = 0.5, idle.min = 0, idle.max = 1;
  with_idle.push_back(idle);
  GaussWithIdleKnob model;
  const FitResult with = run_fit(model, with_idle, data, {}, quiet_lm());
  EXPECT_TRUE(std::isnan(with.parameter("idle").sigma));
  for (const char* name : {"peak.x", "peak.y", "peak.width", "scale", "background"}) {
    EXPECT_NEAR(with.value(name), without.value(name), 1e-6 * without.parameter(name).sigma) << name;
    const double dof = double(without.degrees_of_freedom);
    EXPECT_NEAR(with.parameter(name).sigma, without.parameter(name).sigma * std::sqrt(dof / (dof - 1)),
                1e-6 * without.parameter(name).sigma)
        << name;
  }
}

TEST(FitFramework, VariableProjectionGivesTheSameMinimumAsFittedScaleAndBackground) {
  const std::uint64_t seed = test::case_seed(2);
  NS_PROPERTY_CASE(seed);
  const FitData data = noisy_data(seed);
  for (ObjectiveKind kind : {ObjectiveKind::poisson_data, ObjectiveKind::deviance}) {
    ObjectiveOptions linear, fitted;
    linear.kind = fitted.kind = kind;
    fitted.scale = fitted.background = LinearMode::fit;
    GaussModel a, b;
    const FitResult vp = run_fit(a, start_parameters(), data, linear, quiet_lm());
    const FitResult full = run_fit(b, start_parameters(), data, fitted, quiet_lm());
    for (const char* name : {"peak.x", "peak.y", "peak.width", "scale", "background"}) {
      const double sigma = full.parameter(name).sigma;
      EXPECT_NEAR(vp.value(name), full.value(name), 1e-3 * sigma) << to_string(kind) << " " << name;
      EXPECT_NEAR(vp.parameter(name).sigma, sigma, 0.02 * sigma) << to_string(kind) << " " << name;
    }
    EXPECT_NEAR(vp.chi2, full.chi2, 1e-6 * full.chi2);
    EXPECT_EQ(vp.degrees_of_freedom, full.degrees_of_freedom);
  }
}

TEST(FitFramework, OtherObjectivesRecoverThePeak) {
  const std::uint64_t seed = test::case_seed(3);
  NS_PROPERTY_CASE(seed);
  const FitData data = noisy_data(seed);
  for (ObjectiveKind kind : {ObjectiveKind::poisson_model, ObjectiveKind::log}) {
    ObjectiveOptions o;
    o.kind = kind;
    auto p = start_parameters();
    if (kind == ObjectiveKind::log) {
      // ln μ is flat far from the peak: start the background near the data's.
      o.scale = o.background = LinearMode::fit;
      Parameter b;
      b.name = "background", b.start = 15.0;
      p.push_back(b);
    }
    GaussModel model;
    const FitResult r = run_fit(model, p, data, o, quiet_lm());
    EXPECT_TRUE(r.converged) << to_string(kind) << ": " << r.message;
    EXPECT_NEAR(r.value("peak.x"), 9.3, 4 * r.parameter("peak.x").sigma) << to_string(kind);
    EXPECT_NEAR(r.value("peak.width"), 3.0, 4 * r.parameter("peak.width").sigma) << to_string(kind);
  }
}

std::string error_of(std::vector<Parameter> p) {
  GaussModel model;
  try {
    run_fit(model, p, noisy_data(1), {}, quiet_lm());
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(FitFramework, BadParametersAreOneLineErrorsAtTheirEntry) {
  auto p = start_parameters();
  p[0].name = "peak.z";
  p[0].where = {"fit.toml", 7, "parameter[0].path"};
  EXPECT_EQ(error_of(p), "fit.toml:7: parameter[0].path: unknown model path 'peak.z' (the model has: scale, "
                         "background, peak.x, peak.y, peak.width)");
  p = start_parameters();
  p[2].start = 20;
  p[2].bounds_where = {"fit.toml", 9, "parameter[2].min"};
  EXPECT_EQ(error_of(p), "fit.toml:9: parameter[2].min: the bounds [0.5, 10] exclude the start 20");
  p = start_parameters();
  p[0].tie = "peak.y";
  p[1].tie = "2*peak.x";
  p[0].tie_where = {"fit.toml", 3, "parameter[0].tie"};
  p[1].tie_where = {"fit.toml", 8, "parameter[1].tie"};
  EXPECT_EQ(error_of(p), "fit.toml:3: parameter[0].tie: tie cycle: peak.x -> peak.y -> peak.x");
  p = start_parameters();
  p[0].tie = "sqrt(peak.q) + 1e-3";
  p[0].tie_where = {"fit.toml", 3, "parameter[0].tie"};
  EXPECT_EQ(error_of(p), "fit.toml:3: parameter[0].tie: tie names 'peak.q', which is not a parameter (parameters: "
                         "peak.x, peak.y, peak.width)");
}

}  // namespace
}  // namespace nanoscatter::fit
