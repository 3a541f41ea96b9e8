// GISAXS synthetic recoveries from Poisson-noised images drawn per run,
// each parameter within 2σ and the reported σ against the spread over 20
// realisations (fit_statistics.hpp):
//  - cylinders in a radial paracrystal on a substrate
//    (tests/data/fit/cylinders_paracrystal.toml, 48 × 40 pixels): radius,
//    height, paracrystal distance, scale, background;
//  - spheres with log-normal radii in a radial paracrystal with SSCA
//    (tests/data/fit/spheres_ssca.toml, 40 × 32 pixels): median radius,
//    log-normal width, paracrystal distance, scale, background.
// Also: a region crops the computed pixels.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "nanoscatter/fit_gisaxs.hpp"
#include "fit_statistics.hpp"
#include "property_seed.hpp"

namespace nanoscatter::fit {
namespace {

const std::string sample_path = std::string(NS_TEST_DATA_DIR) + "/fit/cylinders_paracrystal.toml";
// Counts at the brightest pixel and the flat background of the synthetic images.
constexpr double peak_counts = 2e4, background_counts = 5;

struct Truth {
  std::vector<double> image;  // unscaled
  double scale = 0;
};

Truth truth_image() {
  GisaxsFitModel model(gisaxs::SampleDocument::read(sample_path), {}, {});
  Truth t;
  t.image.resize(model.size());
  model.evaluate(t.image);
  double hi = 0;
  for (double v : t.image) hi = std::max(hi, v);
  t.scale = peak_counts / hi;
  return t;
}

FitData noisy(const Truth& t, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  FitData d;
  d.rows = 40, d.cols = 48;
  for (double m : t.image) d.values.push_back(double(std::poisson_distribution<long>(t.scale * m + background_counts)(rng)));
  d.use.assign(d.values.size(), 1);
  return d;
}

std::vector<Parameter> parameters() {
  const auto p = [](auto... a) { return test::bounded_parameter(a...); };
  return {p("particle[0].radius", 4.6, 2, 10), p("particle[0].height", 5.5, 2, 10),
          p("interference.peak_distance", 21.0, 10, 40)};
}

TEST(FitGisaxs, SyntheticRecoveryAndSigmaAgainstSpread) {
  const Truth t = truth_image();
  const int realisations = test::property_cases(20);
  const std::vector<std::pair<std::string, double>> truth{{"particle[0].radius", 5.0},
                                                          {"particle[0].height", 5.0},
                                                          {"interference.peak_distance", 20.0},
                                                          {"scale", t.scale},
                                                          {"background", background_counts}};
  std::vector<std::vector<double>> values(truth.size()), sigmas(truth.size());
  MinimizerOptions lm;
  lm.quiet = true;
  for (int k = 0; k < realisations; ++k) {
    const std::uint64_t seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    GisaxsFitModel model(gisaxs::SampleDocument::read(sample_path), {}, {});
    ObjectiveOptions deviance;  // Poisson maximum likelihood: no Neyman bias of the background
    deviance.kind = ObjectiveKind::deviance;
    const FitResult r = run_fit(model, parameters(), noisy(t, seed), deviance, lm);
    ASSERT_TRUE(r.converged) << r.message;
    for (std::size_t j = 0; j < truth.size(); ++j) {
      values[j].push_back(r.value(truth[j].first));
      sigmas[j].push_back(r.parameter(truth[j].first).sigma);
      if (k == 0) {
        EXPECT_NEAR(values[j][0], truth[j].second, 3 * sigmas[j][0]) << truth[j].first;
      }
    }
  }
  if (realisations < 10) return;  // too few for a spread
  test::check_sigma_against_spread(truth, values, sigmas);
}

namespace {

// Recovery over noise draws of a 32 × 40 sample's image (the file's values
// the truth; `truth` lists the free parameters' true values, scale and
// background are filled in): Poisson counts at peak_counts in the
// brightest pixel over background_counts, each draw fitted from `free` by
// LM on the Poisson deviance, σ checked against the spread.
void recover_over_draws(const std::string& path, const std::vector<Parameter>& free,
                        std::vector<std::pair<std::string, double>> truth, int realisations) {
  GisaxsFitModel truth_model(gisaxs::SampleDocument::read(path), {}, {});
  std::vector<double> image(truth_model.size());
  truth_model.evaluate(image);
  double hi = 0;
  for (double v : image) hi = std::max(hi, v);
  const double scale = peak_counts / hi;
  truth.emplace_back("scale", scale);
  truth.emplace_back("background", background_counts);
  std::vector<std::vector<double>> values(truth.size()), sigmas(truth.size());
  MinimizerOptions lm;
  lm.quiet = true;
  ObjectiveOptions deviance;
  deviance.kind = ObjectiveKind::deviance;
  for (int k = 0; k < realisations; ++k) {
    const std::uint64_t seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    FitData d;
    d.rows = truth_model.rows(), d.cols = truth_model.cols();
    for (double m : image) d.values.push_back(double(std::poisson_distribution<long>(scale * m + background_counts)(rng)));
    d.use.assign(d.values.size(), 1);
    GisaxsFitModel model(gisaxs::SampleDocument::read(path), {}, {});
    const FitResult r = run_fit(model, free, d, deviance, lm);
    ASSERT_TRUE(r.converged) << r.message;
    for (std::size_t j = 0; j < truth.size(); ++j) {
      values[j].push_back(r.value(truth[j].first));
      sigmas[j].push_back(r.parameter(truth[j].first).sigma);
    }
  }
  if (realisations < 10) return;  // too few for a spread
  test::check_sigma_against_spread(truth, values, sigmas);
}

}  // namespace

TEST(FitGisaxs, SscaSpheresRecoveryAndSigmaAgainstSpread) {
  recover_over_draws(std::string(NS_TEST_DATA_DIR) + "/fit/spheres_ssca.toml",
                     {test::bounded_parameter("layout[0].particle[0].radius", 4.6, 2, 10),
                      test::bounded_parameter("layout[0].particle[0].distribution.scale", 0.25, 0.05, 0.5),
                      test::bounded_parameter("layout[0].interference.peak_distance", 21.0, 10, 40)},
                     {{"layout[0].particle[0].radius", 5.0},
                      {"layout[0].particle[0].distribution.scale", 0.2},
                      {"layout[0].interference.peak_distance", 20.0}},
                     test::property_cases(20));
}

// The instrument in a fit: a sample with beam divergence and detector
// resolution (tests/data/fit/spheres_ssca_instrument.toml), the resolution's
// horizontal width free beside the radius and the peak distance, recovered
// from Poisson-noised images with σ checked against the spread over 40
// draws (20 leave ~1.5 % of runs below 16/20 within 2σ by chance).
TEST(FitGisaxs, ResolutionAndDivergenceRecoveryAndSigmaAgainstSpread) {
  recover_over_draws(std::string(NS_TEST_DATA_DIR) + "/fit/spheres_ssca_instrument.toml",
                     {test::bounded_parameter("layout[0].particle[0].radius", 4.7, 2, 10),
                      test::bounded_parameter("layout[0].interference.peak_distance", 21.0, 10, 40),
                      test::bounded_parameter("detector.resolution.sigma_x", 0.045, 0.01, 0.2)},
                     {{"layout[0].particle[0].radius", 5.0},
                      {"layout[0].interference.peak_distance", 20.0},
                      {"detector.resolution.sigma_x", 0.06}},
                     test::property_cases(40));
}

TEST(FitGisaxs, RegionCropsTheComputedPixels) {
  // The region's pixels of a cropped model equal the same pixels of the whole image.
  GisaxsFitModel whole(gisaxs::SampleDocument::read(sample_path), {}, {});
  const PixelRect rect{5, 12, 7, 20};
  GisaxsFitModel part(gisaxs::SampleDocument::read(sample_path), rect, {});
  ASSERT_EQ(part.rows(), 12u);
  ASSERT_EQ(part.cols(), 20u);
  std::vector<double> a(whole.size()), b(part.size());
  whole.evaluate(a);
  part.evaluate(b);
  for (std::size_t r = 0; r < rect.rows; ++r)
    for (std::size_t c = 0; c < rect.cols; ++c)
      EXPECT_NEAR(b[r * rect.cols + c], a[(rect.row0 + r) * whole.cols() + rect.col0 + c],
                  1e-12 * a[(rect.row0 + r) * whole.cols() + rect.col0 + c]);
}

TEST(FitGisaxs, FlatDetectorCropKeepsTheDirectBeam) {
  gisaxs::FlatDetector f;
  f.distance = 1000, f.pixel_width = f.pixel_height = 0.172, f.columns = 981, f.rows = 1043;
  f.beam_x = 490.5, f.beam_y = 100;
  const auto cropped = std::get<gisaxs::FlatDetector>(cropped_detector(f, {300, 129, 400, 204}));
  EXPECT_EQ(cropped.columns, 204u);
  EXPECT_EQ(cropped.rows, 129u);
  EXPECT_EQ(cropped.beam_x, 90.5);
  EXPECT_EQ(cropped.beam_y, -200);
}

}  // namespace
}  // namespace nanoscatter::fit
