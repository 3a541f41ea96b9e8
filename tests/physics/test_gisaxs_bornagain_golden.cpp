// Images of BornAgain 1.19 (golden files written outside CI by
// tools/gisaxs_bornagain_golden.py from the same sample files): the SSCA with
// log-normal radii, the GALAXI model on a flat-detector region, detector
// resolution with a background, and α_i/φ_i beam divergence. On failure the
// test writes nanoscatter's image next to the build (…_nanoscatter.txt) for
// inspection against the golden file.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "nanoscatter/gisaxs.hpp"

using namespace nanoscatter::gisaxs;

namespace {

const std::filesystem::path kData = std::filesystem::path(NS_TEST_DATA_DIR) / "gisaxs";

std::vector<double> read_golden(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<double> values;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    double v = 0;
    while (s >> v) values.push_back(v);
  }
  return values;
}

struct Difference {
  double mean = 0, max = 0;
};

// Mean and max of |a − b|/b over the pixels.
Difference compare(const std::string& name) {
  const Sample sample = read_sample(kData / ("ba_" + name + ".toml"));
  GisaxsOptions options;
  options.compute.quiet = true;
  const GisaxsResult r = GisaxsPlan(sample, options).execute();
  const std::vector<double> golden = read_golden(kData / ("ba_" + name + ".txt"));
  EXPECT_EQ(golden.size(), r.intensity.size()) << name;
  if (golden.size() != r.intensity.size()) return {1, 1};
  Difference d;
  for (std::size_t i = 0; i < golden.size(); ++i) {
    const double rel = std::abs(r.intensity[i] - golden[i]) / golden[i];
    d.mean += rel / double(golden.size());
    d.max = std::max(d.max, rel);
  }
  std::printf("%-18s mean rel %.3e  max rel %.3e  (%zu pixels)\n", name.c_str(), d.mean, d.max, golden.size());
  if (d.mean > 1e-6) {
    std::ofstream out(name + "_nanoscatter.txt");
    out.precision(17);
    for (std::size_t row = 0; row < r.rows; ++row) {
      for (std::size_t c = 0; c < r.cols; ++c) out << r.intensity[row * r.cols + c] << (c + 1 < r.cols ? " " : "\n");
    }
    ADD_FAILURE() << name << ": wrote " << std::filesystem::absolute(name + "_nanoscatter.txt")
                  << " (compare with tests/data/gisaxs/ba_" << name << ".txt)";
  }
  return d;
}

}  // namespace

// Tolerances: the 1e-6 on the mean; the max bounds the worst pixel
// as measured (docs/gisaxs.md lists the numbers).
TEST(GisaxsBornAgainGolden, Ssca) {
  const Difference d = compare("ssca_spheres");
  EXPECT_LE(d.mean, 1e-6);
  EXPECT_LE(d.max, 1e-5);
}

TEST(GisaxsBornAgainGolden, GalaxiRegion) {
  const Difference d = compare("galaxi_region");
  EXPECT_LE(d.mean, 1e-6);
  EXPECT_LE(d.max, 1e-5);
}

TEST(GisaxsBornAgainGolden, ResolutionAndBackground) {
  const Difference d = compare("resolution");
  EXPECT_LE(d.mean, 1e-6);
  EXPECT_LE(d.max, 1e-5);
}

TEST(GisaxsBornAgainGolden, BeamDivergence) {
  const Difference d = compare("alpha_divergence");
  EXPECT_LE(d.mean, 1e-6);
  EXPECT_LE(d.max, 1e-5);
}
