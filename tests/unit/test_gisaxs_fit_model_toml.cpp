// Sample-file keys of issue 22 (SSCA, distribution limits, beam divergence,
// detector resolution, background, flat-detector region): read into the
// structs, refused with file:line and key where out of range, and editable
// through SampleDocument paths like every key.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "nanoscatter/constants.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_sample_document.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;

namespace {

// Lines 1–… ; the particle block starts at line 12, the interference at 16.
const std::string kBase =
    "density = 0.01\n"                                                        // 1
    "mixture = \"ssca\"\n"                                                    // 2
    "[beam]\nwavelength = 0.134\nalpha_i = 0.463\n"                           // 3-5
    "[detector]\nphi_f = { min = -1, max = 1, bins = 4 }\n"                   // 6-7
    "alpha_f = { min = 0, max = 1, bins = 3 }\n"                              // 8
    "[[layer]]\n[[layer]]\nmaterial = { delta = 6e-6, beta = 1e-7 }\n"       // 9-11
    "[[particle]]\nshape = \"sphere\"\nradius = 5\nmaterial = { delta = 2e-5, beta = 1e-6 }\n"  // 12-15
    "[interference]\ntype = \"radial_paracrystal\"\npeak_distance = 27\n"    // 16-18
    "size_spacing_coupling = 17.5\npdf = { type = \"gauss\", omega = 10.5 }\n";  // 19-20

std::string error_of(const std::string& text) {
  try {
    parse_sample(text, "s.toml");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST(GisaxsFitModelToml, ReadsTheNewKeys) {
  const std::string text = replaced(
      replaced(replaced(kBase, "alpha_i = 0.463\n",
                        "alpha_i = 0.463\nalpha_i_divergence = { type = \"gaussian\", sigma = 0.02, samples = 5 }\n"
                        "wavelength_spread = { type = \"lognormal\", scale = 0.01, samples = 3, min = 0.133 }\n"),
               "bins = 3 }\n", "bins = 3 }\nresolution = { sigma_x = 0.01, sigma_y = 0.02 }\nbackground = 4\n"),
      "radius = 5\n", "radius = 5\ndistribution = { parameter = \"radius\", type = \"lognormal\", scale = 0.5, "
                      "samples = 20, max = 9.25 }\n");
  const Sample s = parse_sample(text, "s.toml");
  ASSERT_TRUE(s.beam.alpha_i_divergence);
  EXPECT_DOUBLE_EQ(s.beam.alpha_i_divergence->width, 0.02 * kDegree);
  EXPECT_EQ(s.beam.alpha_i_divergence->samples, 5);
  ASSERT_TRUE(s.beam.wavelength_spread);
  EXPECT_DOUBLE_EQ(*s.beam.wavelength_spread->min, 0.133);
  ASSERT_TRUE(s.resolution);
  EXPECT_DOUBLE_EQ(s.resolution->sigma_y, 0.02 * kDegree);
  EXPECT_DOUBLE_EQ(s.background, 4);
  const Layout& l = s.layouts[0];
  EXPECT_EQ(l.mixture, MixtureApproximation::ssca);
  EXPECT_DOUBLE_EQ(std::get<RadialParacrystal>(l.interference).size_spacing_coupling, 17.5);
  EXPECT_DOUBLE_EQ(*l.particles[0].distributions[0].max, 9.25);
}

TEST(GisaxsFitModelToml, RefusesWithFileLineAndKey) {
  EXPECT_EQ(error_of(kBase), "");
  EXPECT_EQ(error_of(replaced(kBase, "size_spacing_coupling = 17.5", "size_spacing_coupling = -1")),
            "s.toml:19: interference.size_spacing_coupling: must be ≥ 0 and finite (dimensionless), got -1");
  EXPECT_EQ(error_of(replaced(kBase, "mixture = \"ssca\"\n", "")),
            "s.toml:18: interference.size_spacing_coupling: takes effect with mixture = \"ssca\" only "
            "(BornAgain uses the SSCA wherever κ > 0): set the mixture");
  EXPECT_EQ(error_of(replaced(replaced(kBase, "type = \"radial_paracrystal\"", "type = \"paracrystal_1d\""),
                              "size_spacing_coupling = 17.5\n", "")),
            "s.toml:2: mixture: the SSCA needs a radial_paracrystal interference function");
  EXPECT_EQ(error_of(replaced(kBase, "radius = 5\n", "radius = 5\ndistribution = { parameter = \"radius\", "
                                                     "type = \"lognormal\", scale = 0.5, min = 3, max = 2 }\n")),
            "s.toml:15: particle[0].distribution.max: must exceed min (3), got 2");
  EXPECT_EQ(error_of(replaced(kBase, "bins = 3 }\n", "bins = 3 }\nresolution = { sigma_x = 0, sigma_y = 1 }\n")),
            "s.toml:9: detector.resolution.sigma_x: must be positive and finite (the detector's unit), got 0");
  EXPECT_EQ(error_of(replaced(kBase, "bins = 3 }\n", "bins = 3 }\nbackground = -2\n")),
            "s.toml:9: detector.background: must be ≥ 0 and finite (intensity per pixel), got -2");
  EXPECT_EQ(error_of(replaced(kBase, "alpha_i = 0.463\n",
                              "alpha_i = 0.463\nalpha_i_divergence = { type = \"gaussian\", sigma = 0.3 }\n")),
            "s.toml:6: beam.alpha_i_divergence.sigma: the sampled range reaches -0.137 ≤ 0: narrow sigma or "
            "sigma_factor");
  const std::string flat = replaced(
      kBase, "phi_f = { min = -1, max = 1, bins = 4 }\nalpha_f = { min = 0, max = 1, bins = 3 }\n",
      "type = \"flat\"\ndistance = 1730\npixel_size = 0.172\npixels = [981, 1043]\ndirect_beam = [597.1, 323.4]\n"
      "region = [494, 406, 697, 1100]\n");
  EXPECT_EQ(error_of(flat), "s.toml:12: detector.region: must lie on the detector (981 × 1043 pixels)");
}

TEST(GisaxsFitModelToml, DocumentPathsEditTheNewKeys) {
  const std::string text =
      replaced(replaced(kBase, "[[layer]]\n[[layer]]\n",
                        "[[layer]]\n[[layer]]\nmaterial = { delta = 2e-6, beta = 1e-8 }\nthickness = 18.5\n"
                        "[[layer]]\n"),
               "bins = 3 }\n", "bins = 3 }\nbackground = 1\n");
  SampleDocument doc = SampleDocument::parse(text, "d.toml");
  doc.set("layer[1].thickness", 20.0);
  doc.set("interference.peak_distance", 30.0);
  doc.set("interference.size_spacing_coupling", 12.0);
  doc.set("beam.alpha_i", 0.5);
  doc.set("detector.background", 3.0);
  const Sample& s = doc.sample();
  EXPECT_DOUBLE_EQ(s.layers[1].thickness, 20.0);
  const auto& radial = std::get<RadialParacrystal>(s.layouts[0].interference);
  EXPECT_DOUBLE_EQ(radial.peak_distance, 30.0);
  EXPECT_DOUBLE_EQ(radial.size_spacing_coupling, 12.0);
  EXPECT_DOUBLE_EQ(s.beam.alpha_i, 0.5 * kDegree);
  EXPECT_DOUBLE_EQ(s.background, 3.0);
  EXPECT_EQ(std::get<double>(doc.get("interference.size_spacing_coupling")), 12.0);
  // An edit the reader refuses changes nothing and names the key.
  EXPECT_THROW(doc.set("interference.size_spacing_coupling", -1.0), Error);
  EXPECT_DOUBLE_EQ(std::get<RadialParacrystal>(doc.sample().layouts[0].interference).size_spacing_coupling, 12.0);
}
