// Instrument effects and the SSCA against independent references: the
// detector resolution against a brute-force 2D convolution of a random
// image; beam divergence and wavelength spread against the weighted sum of
// separately computed images; background against the image without it; the
// SSCA at κ = 0 against the decoupling approximation (infinite domain);
// the flat detector's region against the same pixels of the whole detector.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "gisaxs/size_distribution.hpp"
#include "nanoscatter/constants.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;

namespace {

GisaxsResult run(const Sample& s) {
  GisaxsOptions o;
  o.compute.quiet = true;
  return GisaxsPlan(s, o).execute();
}

double max_rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]) / std::abs(b[i]));
  return m;
}

const std::string kHead =
    "density = 0.01\n[beam]\nwavelength = 0.1\nalpha_i = 0.2\n{beam}[detector]\n"
    "phi_f = { min = -1, max = 1, bins = 12 }\nalpha_f = { min = 0.05, max = 1.5, bins = 10 }\n{detector}"
    "[[layer]]\n[[layer]]\nmaterial = { delta = 6e-6, beta = 2e-8 }\n[[particle]]\nshape = \"cylinder\"\n"
    "radius = 5\nheight = 5\nmaterial = { delta = 6e-4, beta = 2e-8 }\n";

std::string with(std::string text, const std::string& key, const std::string& value) {
  return text.replace(text.find(key), key.size(), value);
}
std::string sample_text(const std::string& beam = "", const std::string& detector = "") {
  return with(with(kHead, "{beam}", beam), "{detector}", detector);
}

}  // namespace

TEST(GisaxsInstrument, ResolutionEqualsBruteForceConvolution) {
  // Property: random image, random axes and σ; the separable convolution
  // equals the direct 2D sum over all pixel pairs with the pixel-integrated
  // Gaussian of the offset (centres relative to the middle pixel, BornAgain).
  for (int k = 0; k < test::property_cases(20); ++k) {
    const std::uint64_t seed = test::case_seed(k);
    SCOPED_TRACE(test::replay_hint(seed));
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    const std::size_t rows = 1 + rng() % 17, cols = 1 + rng() % 23;
    FlatDetector d;
    d.distance = 1000;
    d.pixel_width = d.pixel_height = 0.1;
    d.columns = cols;
    d.rows = rows;
    Beam b;
    b.wavelength = 0.1;
    b.alpha_i = 0.004;
    const PixelGrid g = make_pixel_grid(d, b);
    const DetectorResolution res{0.3 + 3 * u(rng), 0.3 + 3 * u(rng)};
    const ResolutionConvolution conv = make_resolution_convolution(d, g, res);
    std::vector<double> image(rows * cols);
    for (double& v : image) v = u(rng);
    auto mass = [](double offset, double sigma) {
      return 0.5 * (std::erf((offset + 0.5) / (sigma * std::sqrt(2.0))) -
                    std::erf((offset - 0.5) / (sigma * std::sqrt(2.0))));
    };
    std::vector<double> expected(rows * cols, 0.0);
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c)
        for (std::size_t r2 = 0; r2 < rows; ++r2)
          for (std::size_t c2 = 0; c2 < cols; ++c2) {
            // The kernel spans offsets [−n/2, n − 1 − n/2] (as wide as the image).
            const long dr = long(r) - long(r2), dc = long(c) - long(c2);
            if (dr < -long(rows / 2) || dr > long(rows - 1 - rows / 2)) continue;
            if (dc < -long(cols / 2) || dc > long(cols - 1 - cols / 2)) continue;
            const double kr = rows < 2 ? 1.0 : mass(double(dr), res.sigma_y);
            const double kc = cols < 2 ? 1.0 : mass(double(dc), res.sigma_x);
            expected[r * cols + c] += kr * kc * image[r2 * cols + c2];
          }
    conv.apply(rows, cols, image);
    for (std::size_t i = 0; i < image.size(); ++i) ASSERT_NEAR(image[i], expected[i], 1e-13 * (1 + expected[i]));
  }
}

TEST(GisaxsInstrument, ResolutionKeepsTheTotalAwayFromTheEdges) {
  // A single bright pixel in the middle: its intensity spreads but stays.
  AngularDetector d;
  for (int i = 0; i <= 41; ++i) d.phi_edges.push_back((-1 + 2.0 * i / 41) * kDegree);
  for (int i = 0; i <= 31; ++i) d.alpha_edges.push_back((0.1 + 1.5 * i / 31) * kDegree);
  Beam b;
  b.wavelength = 0.1;
  b.alpha_i = 0.2 * kDegree;
  const PixelGrid g = make_pixel_grid(d, b);
  const auto conv = make_resolution_convolution(d, g, {0.1 * kDegree, 0.08 * kDegree});
  std::vector<double> image(g.size(), 0.0);
  image[15 * 41 + 20] = 1.0;
  conv.apply(g.rows, g.cols, image);
  double total = 0;
  for (double v : image) total += v;
  EXPECT_NEAR(total, 1.0, 1e-12);
  EXPECT_NEAR(image[15 * 41 + 21], image[15 * 41 + 19], 1e-15);  // symmetric
}

TEST(GisaxsInstrument, DivergenceIsTheWeightedSumOfImages) {
  // α_i, φ_i and λ spread at once: the image equals Σ w_a w_p w_λ I(α, φ, λ),
  // each I computed by a plan of a fixed beam.
  const std::string spread =
      "alpha_i_divergence = { type = \"gaussian\", sigma = 0.02, samples = 3 }\n"
      "phi_i_divergence = { type = \"gaussian\", sigma = 0.05, samples = 2, sigma_factor = 1.5 }\n"
      "wavelength_spread = { type = \"lognormal\", scale = 0.01, samples = 3, max = 0.1005 }\n";
  const Sample spread_sample = parse_sample(sample_text(spread), "spread.toml");
  const GisaxsResult r = run(spread_sample);
  const Sample fixed = parse_sample(sample_text(), "fixed.toml");
  std::vector<double> sum(r.intensity.size(), 0.0);
  const Beam& nominal = spread_sample.beam;
  for (const auto& a : sample_distribution(*nominal.alpha_i_divergence, nominal.alpha_i))
    for (const auto& p : sample_distribution(*nominal.phi_i_divergence, nominal.phi_i))
      for (const auto& l : sample_distribution(*nominal.wavelength_spread, nominal.wavelength)) {
        Sample s = fixed;
        s.beam.alpha_i = a.value;
        s.beam.phi_i = p.value;
        s.beam.wavelength = l.value;
        s.validated = false;
        // The detector stays where the nominal beam put it: same pixel
        // directions (an angular detector's are the beam's anyway).
        const GisaxsResult one = run(s);
        for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += a.weight * p.weight * l.weight * one.intensity[i];
      }
  EXPECT_LT(max_rel_diff(r.intensity, sum), 1e-12);
  // The lognormal's range is clipped at max: the largest λ is 0.1005 nm.
  EXPECT_DOUBLE_EQ(sample_distribution(*nominal.wavelength_spread, nominal.wavelength).back().value, 0.1005);
}

TEST(GisaxsInstrument, BackgroundAddsAfterTheScale) {
  const GisaxsResult plain = run(parse_sample(sample_text("intensity = 3\n"), "a.toml"));
  const GisaxsResult with_bg = run(parse_sample(sample_text("intensity = 3\n", "background = 7.5\n"), "b.toml"));
  for (std::size_t i = 0; i < plain.intensity.size(); ++i)
    EXPECT_NEAR(with_bg.intensity[i], plain.intensity[i] + 7.5, 1e-12 * with_bg.intensity[i]);
}

TEST(GisaxsInstrument, SscaWithoutCouplingIsTheDecouplingApproximation) {
  // κ = 0: c_i = 1, P = 1, and 2 Re[|⟨F⟩|² ω/(1 − ω)] = |⟨F⟩|² (S − 1) with
  // S = Re[(1 + ω)/(1 − ω)], the infinite radial paracrystal.
  const std::string particles =
      "distribution = { parameter = \"radius\", type = \"lognormal\", scale = 0.2, samples = 7 }\n"
      "[interference]\ntype = \"radial_paracrystal\"\npeak_distance = 20\ndamping_length = 500\n"
      "pdf = { type = \"gauss\", omega = 5 }\n";
  const std::string text = sample_text() + particles;
  const Sample ssca = parse_sample(with(text, "density = 0.01\n", "density = 0.01\nmixture = \"ssca\"\n"), "s.toml");
  const Sample da = parse_sample(text, "d.toml");
  EXPECT_LT(max_rel_diff(run(ssca).intensity, run(da).intensity), 1e-12);
  // κ > 0 changes the image.
  const Sample coupled = parse_sample(
      with(with(text, "density = 0.01\n", "density = 0.01\nmixture = \"ssca\"\n"), "peak_distance = 20\n",
           "peak_distance = 20\nsize_spacing_coupling = 2\n"),
      "k.toml");
  EXPECT_GT(max_rel_diff(run(coupled).intensity, run(da).intensity), 1e-3);
}

TEST(GisaxsInstrument, FlatDetectorRegionIsACutOfTheWholeDetector) {
  // README convention of the GALAXI data: pixel (x, y) from the lower-left
  // corner, PixelGrid row 0 the lowest detector row.
  const std::string whole =
      "density = 0.01\n[beam]\nwavelength = 0.134\nalpha_i = 0.463\n[detector]\ntype = \"flat\"\ndistance = 1730\n"
      "pixel_size = 0.172\npixels = [30, 20]\ndirect_beam = [12.1, -30.4]\n{region}"
      "[[layer]]\n[[layer]]\nmaterial = { delta = 6e-6, beta = 2e-8 }\n[[particle]]\nshape = \"sphere\"\n"
      "radius = 5\nmaterial = { delta = 2e-5, beta = 1e-6 }\n";
  const GisaxsResult all = run(parse_sample(with(whole, "{region}", ""), "w.toml"));
  const GisaxsResult cut = run(parse_sample(with(whole, "{region}", "region = [4, 7, 15, 18]\n"), "r.toml"));
  ASSERT_EQ(cut.cols, 12u);
  ASSERT_EQ(cut.rows, 12u);
  for (std::size_t r = 0; r < cut.rows; ++r)
    for (std::size_t c = 0; c < cut.cols; ++c)
      EXPECT_EQ(cut.intensity[r * cut.cols + c], all.intensity[(r + 7) * all.cols + c + 4]);
  EXPECT_DOUBLE_EQ(cut.pixels.horizontal[0], all.pixels.horizontal[4]);
  EXPECT_DOUBLE_EQ(cut.pixels.vertical[0], all.pixels.vertical[7]);
  // Higher rows look higher: α_f grows with the row.
  EXPECT_GT(all.pixels.alpha_f[19 * all.cols], all.pixels.alpha_f[0]);
}
