// A GISAXS sample in nm and degree numbers and the same sample with every
// length and angle a string with another unit (Å, µm, mrad, m) read into
// identical structs, and such keys stay fittable (docs/conventions.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <variant>

#include "nanoscatter/fit_gisaxs.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_sample_document.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;

namespace {

// $-free template: each {name} is replaced by its value.
const std::string kTemplate =
    "density = 0.01\n"
    "[beam]\nwavelength = {wavelength}\nalpha_i = {alpha_i}\n"
    "alpha_i_divergence = { type = \"gaussian\", sigma = {sigma_deg}, samples = 3 }\n"
    "[detector]\ntype = \"flat\"\ndistance = {distance}\npixel_size = [{pixel}, 0.172]\npixels = [6, 4]\n"
    "direct_beam = [3, -10]\n"
    "[[layer]]\n[[layer]]\nmaterial = { delta = 4e-6, beta = 1e-8 }\nthickness = {thickness}\nroughness = {roughness}\n"
    "[[layer]]\nmaterial = { delta = 6e-6, beta = 2e-8 }\n"
    "[[particle]]\nshape = \"cone\"\nradius = {radius}\nheight = {height}\nalpha = {alpha}\n"
    "material = { delta = 2e-5, beta = 1e-6 }\nrotation = { euler_zxz = [{euler}, 20, 10] }\n"
    "distribution = { parameter = \"radius\", type = \"gaussian\", sigma = {sigma_nm}, samples = 3, max = {max} }\n"
    "[interference]\ntype = \"radial_paracrystal\"\npeak_distance = {peak}\ndamping_length = {damping}\n"
    "pdf = { type = \"gauss\", omega = {omega} }\n";

std::string filled(std::string text, const std::vector<std::pair<std::string, std::string>>& values) {
  for (const auto& kv : values) {
    const std::string key = "{" + kv.first + "}";
    const auto at = text.find(key);
    EXPECT_NE(at, std::string::npos) << key;
    text.replace(at, key.size(), kv.second);
  }
  return text;
}

const std::string kNm = filled(kTemplate, {{"wavelength", "0.1"}, {"alpha_i", "0.2"}, {"sigma_deg", "0.01"},
                                           {"distance", "2000"}, {"pixel", "0.172"}, {"thickness", "20"},
                                           {"roughness", "0.5"}, {"radius", "5"}, {"height", "4"},
                                           {"alpha", "60"}, {"euler", "30"}, {"sigma_nm", "0.5"}, {"max", "6"},
                                           {"peak", "25"}, {"damping", "1000"}, {"omega", "3"}});
const std::string kOther = filled(
    kTemplate, {{"wavelength", "\"1 Å\""}, {"alpha_i", "\"0.2 deg\""}, {"sigma_deg", "\"0.01°\""},
                {"distance", "\"2 m\""}, {"pixel", "\"172 um\""}, {"thickness", "\"200 angstrom\""},
                {"roughness", "\"5 Å\""}, {"radius", "\"50 Å\""}, {"height", "\"0.004 µm\""},
                {"alpha", "\"60 deg\""}, {"euler", "\"30deg\""}, {"sigma_nm", "\"5 angstrom\""}, {"max", "\"60 Å\""},
                {"peak", "\"250 Å\""}, {"damping", "\"1 um\""}, {"omega", "\"30 Å\""}});

TEST(GisaxsSampleUnits, StringsWithUnitsReadAsTheBareNumbers) {
  const Sample a = parse_sample(kNm, "nm.toml"), b = parse_sample(kOther, "other.toml");
  EXPECT_EQ(a.beam.wavelength, b.beam.wavelength);
  EXPECT_EQ(a.beam.alpha_i, b.beam.alpha_i);
  EXPECT_EQ(a.beam.alpha_i_divergence->width, b.beam.alpha_i_divergence->width);
  const auto& fa = std::get<FlatDetector>(a.detector);
  const auto& fb = std::get<FlatDetector>(b.detector);
  EXPECT_EQ(fa.distance, fb.distance);
  EXPECT_EQ(fa.pixel_width, fb.pixel_width);
  EXPECT_EQ(a.layers[1].thickness, b.layers[1].thickness);
  EXPECT_EQ(a.layers[1].roughness, b.layers[1].roughness);
  const ParticleSpec& pa = a.layouts[0].particles[0];
  const ParticleSpec& pb = b.layouts[0].particles[0];
  EXPECT_EQ(pa.parameters, pb.parameters);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(pa.rotation.row[i][j], pb.rotation.row[i][j]);
  EXPECT_EQ(pa.distributions[0].width, pb.distributions[0].width);
  EXPECT_EQ(pa.distributions[0].max, pb.distributions[0].max);
  const auto& ia = std::get<RadialParacrystal>(a.layouts[0].interference);
  const auto& ib = std::get<RadialParacrystal>(b.layouts[0].interference);
  EXPECT_EQ(ia.peak_distance, ib.peak_distance);
  EXPECT_EQ(ia.damping_length, ib.damping_length);
  EXPECT_EQ(ia.pdf.omega, ib.pdf.omega);
}

TEST(GisaxsSampleUnits, KeysWithUnitsAreFittedInTheBareUnit) {
  // The fit's numbers are nm and degrees; setting one replaces "50 Å".
  fit::GisaxsFitModel model(SampleDocument::parse(kOther, "other.toml"), {}, {});
  const auto paths = model.paths();
  EXPECT_NE(std::find(paths.begin(), paths.end(), "particle[0].radius"), paths.end());
  EXPECT_NE(std::find(paths.begin(), paths.end(), "interference.peak_distance"), paths.end());
  SampleDocument doc = SampleDocument::parse(kOther, "other.toml");
  doc.set("particle[0].radius", 5.0);
  EXPECT_EQ(doc.sample().layouts[0].particles[0].parameters, parse_sample(kNm, "nm.toml").layouts[0].particles[0].parameters);
}

}  // namespace
