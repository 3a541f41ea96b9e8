// Whole detector images against tools/gisaxs_reference.py, an independent
// numpy implementation of the same formulas (transfer-matrix fields instead
// of Parratt's recursion, Bessel's integral instead of a library J1), run at
// test time with Debian's /usr/bin/python3.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/io_text.hpp"
#include "test_util.hpp"

namespace nanoscatter::gisaxs {
namespace {

// "1.23e-14" for RecordProperty (std::to_string prints fixed-point zeros).
std::string scientific(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", v);
  return buf;
}

struct Comparison {
  double mean_rel = 0, max_rel = 0;
};

bool python_with_numpy() {
  static const bool ok = test::run_command(std::string(NS_SYSTEM_PYTHON) + " -c 'import numpy, tomllib'").exit_code == 0;
  return ok;
}

// Runs the engine and the reference on a sample file, compares pixel by pixel.
Comparison compare_with_reference(const std::string& name, Approximation approximation) {
  const std::string sample = std::string(NS_TEST_DATA_DIR) + "/gisaxs/" + name;
  test::TempDir dir("gisaxs-ref-" + name + "-" + to_string(approximation));
  const auto ref_path = dir / "reference.txt";
  const auto run = test::run_command(std::string(NS_SYSTEM_PYTHON) + " " + NS_TEST_DATA_DIR +
                                     "/../../tools/gisaxs_reference.py image " + sample + " " + ref_path.string() +
                                     " --approximation " + to_string(approximation));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  GisaxsOptions options;
  options.approximation = approximation;
  const GisaxsResult result = GisaxsPlan(read_sample(sample), options).execute();
  const TextMatrix ref = read_text_matrix(ref_path);
  EXPECT_EQ(ref.rows, result.cols);  // rows = φ_f bins
  EXPECT_EQ(ref.cols, result.rows);  // columns = α_f bins
  Comparison c;
  std::size_t n = 0;
  for (std::size_t row = 0; row < result.rows; ++row)
    for (std::size_t col = 0; col < result.cols; ++col) {
      const double mine = result.intensity[row * result.cols + col], theirs = ref.at(col, row);
      if (theirs == 0 && mine == 0) continue;
      const double rel = std::abs(mine - theirs) / std::abs(theirs);
      c.mean_rel += rel;
      c.max_rel = std::max(c.max_rel, rel);
      ++n;
    }
  c.mean_rel /= double(n);
  return c;
}

TEST(GisaxsReferenceImages, BenchmarkCylindersOnSubstrate) {
  // Issue 5's acceptance sample; its bound is 1e-6 in the mean relative
  // difference. Both sides evaluate the same formulas in double precision,
  // so the difference is rounding: measured 1.6e-14 mean, 7e-13 max
  // (largest near intensity zeros); the max bound 1e-10 guards regressions.
  if (!python_with_numpy()) GTEST_SKIP() << "no /usr/bin/python3 with numpy";
  const Comparison c = compare_with_reference("benchmark_cylinders.toml", Approximation::dwba);
  RecordProperty("mean_relative_difference", scientific(c.mean_rel));
  RecordProperty("max_relative_difference", scientific(c.max_rel));
  EXPECT_LT(c.mean_rel, 1e-6);
  EXPECT_LT(c.max_rel, 1e-10);
}

TEST(GisaxsReferenceImages, BenchmarkInBornApproximation) {
  if (!python_with_numpy()) GTEST_SKIP() << "no /usr/bin/python3 with numpy";
  const Comparison c = compare_with_reference("benchmark_cylinders.toml", Approximation::born);
  EXPECT_LT(c.mean_rel, 1e-12);
  EXPECT_LT(c.max_rel, 1e-10);
}

TEST(GisaxsReferenceImages, BuriedParticlesInARoughMultilayer) {
  // Fields inside an absorbing film (complex k_z, depth phases), Névot–Croce
  // roughness on two interfaces, particles in two layers, beam intensity 3.
  if (!python_with_numpy()) GTEST_SKIP() << "no /usr/bin/python3 with numpy";
  const Comparison c = compare_with_reference("buried_particles.toml", Approximation::dwba);
  RecordProperty("max_relative_difference", scientific(c.max_rel));
  EXPECT_LT(c.mean_rel, 1e-12);
  EXPECT_LT(c.max_rel, 1e-9);
}

TEST(GisaxsReferenceImages, MixtureWithRadialParacrystal) {
  // Two particle kinds, decoupling approximation, radial paracrystal with
  // damping, explicit bin edges.
  if (!python_with_numpy()) GTEST_SKIP() << "no /usr/bin/python3 with numpy";
  const Comparison c = compare_with_reference("mixture_paracrystal.toml", Approximation::dwba);
  RecordProperty("max_relative_difference", scientific(c.max_rel));
  EXPECT_LT(c.mean_rel, 1e-12);
  EXPECT_LT(c.max_rel, 1e-9);
}

}  // namespace
}  // namespace nanoscatter::gisaxs
