// The gisaxs engine's runtime: GisaxsOptions::validate and
// MeshFormFactorOptions::validate name the option fields; the plan checks a
// sample built or edited in code but not again one read from a file; parts
// of a work share cover the image (small images too) and form-factor
// volumes in slabs; the writers turn a result into the CLI's files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"
#include "nanoscatter/gisaxs_output.hpp"
#include "nanoscatter/io_text.hpp"
#include "test_util.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;

namespace {

// Cylinders and spheroids under a radial paracrystal, 14 × 40 pixels.
const std::filesystem::path kSample =
    std::filesystem::path(NS_TEST_DATA_DIR) / "gisaxs" / "mixture_paracrystal.toml";

// The error of f(), or "" when it throws none; its field and whether the
// field is an option go to `where`.
template <class F>
std::string error_of(F f, Where* where = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (where) *where = e.where();
    return e.reason();
  }
  return "";
}

}  // namespace

TEST(GisaxsRuntime, OptionErrorsNameTheField) {
  GisaxsOptions o;
  EXPECT_EQ(error_of([&] { o.validate(); }), "");
  Where where;
  o.compute.threads = -1;
  EXPECT_EQ(error_of([&] { o.validate(); }, &where), "must be ≥ 0 (0: all cores), got -1");
  EXPECT_EQ(where.field, "threads");
  EXPECT_TRUE(where.option);
  o = {};
  o.block_pixels = 0;
  EXPECT_EQ(error_of([&] { o.validate(); }, &where), "must be ≥ 1");
  EXPECT_EQ(where.field, "block_pixels");
  EXPECT_TRUE(where.option);
  // The plan calls validate.
  const Sample s = read_sample(kSample);
  EXPECT_EQ(error_of([&] { GisaxsPlan(s, o); }), "must be ≥ 1");
  o = {};
  o.share = {2, 2};
  EXPECT_NE(error_of([&] { GisaxsPlan(s, o); }), "");
  // Meshes: the same device options, the same message.
  MeshFormFactorOptions mo;
  mo.compute.threads = -2;
  EXPECT_EQ(error_of([&] { MeshFormFactorPlan(box_mesh(1, 1, 1), mo); }, &where),
            "must be ≥ 0 (0: all cores), got -2");
  EXPECT_EQ(where.field, "threads");
  // Enum names, as the CLI and Python give them.
  EXPECT_EQ(error_of([] { parse_approximation("kinematic"); }, &where),
            "unknown approximation 'kinematic' (dwba, born)");
  EXPECT_EQ(where.field, "approximation");
  EXPECT_TRUE(where.option);
}

TEST(GisaxsRuntime, ThePlanChecksSamplesNotReadFromAFile) {
  Sample s = read_sample(kSample);
  EXPECT_TRUE(s.validated);  // checked as it was read
  // Edited in code and marked so: the plan checks it.
  s.layouts[0].density = -1;
  s.validated = false;
  Where where;
  EXPECT_EQ(error_of([&] { GisaxsPlan(s, {}); }, &where), "must be positive and finite (particles/nm²), got -1");
  EXPECT_EQ(where.field, "layout[0].density");
  // A sample built in code starts unchecked.
  Sample built;
  EXPECT_FALSE(built.validated);
  EXPECT_NE(error_of([&] { GisaxsPlan(built, {}); }), "");
  EXPECT_NE(error_of([&] { formfactor_volume(built, {{0.1}, {0.1}, {0.1}}, {}); }), "");
}

// With the default 1024-pixel blocks a 221-pixel image is one block; under
// a work share the plan cuts it into blocks of ≥ 64 pixels so that every
// part of four gets work, and the parts still tile the image.
TEST(GisaxsRuntime, SmallImagesAreSharedByEveryPart) {
  const Sample s = read_sample(kSample);
  GisaxsOptions o;
  o.compute.threads = 1;
  const GisaxsResult whole = GisaxsPlan(s, o).execute();
  EXPECT_EQ(whole.computed_pixels, whole.intensity.size());
  std::vector<double> merged(whole.intensity.size(), 0.0);
  std::size_t pixels = 0;
  for (int k = 0; k < 4; ++k) {
    o.share = {k, 4};
    GisaxsResult part = GisaxsPlan(s, o).execute();
    EXPECT_GT(part.computed_pixels, 0u) << k;
    pixels += part.computed_pixels;
    part.reduce(parallel::Communicator());  // one process: nothing to add
    for (std::size_t p = 0; p < merged.size(); ++p) merged[p] += part.intensity[p];
  }
  EXPECT_EQ(pixels, whole.intensity.size());
  EXPECT_EQ(merged, whole.intensity);
}

TEST(GisaxsRuntime, FormFactorSlabsTileTheVolume) {
  const Sample s = read_sample(kSample);
  const QGrid3D grid{{-1, -0.5, 0, 0.5, 1}, {-0.3, 0.3}, {0, 0.4, 0.8}};
  const FormFactorVolume whole = formfactor_volume(s, grid, {});
  ASSERT_EQ(whole.values.size(), grid.size());
  EXPECT_EQ(whole.planes, 5u);
  std::vector<Complex> joined;
  for (int k = 0; k < 3; ++k) {
    const FormFactorVolume part = formfactor_volume(s, grid, {}, {k, 3});
    EXPECT_EQ(part.first_plane, joined.size() / 6);
    EXPECT_EQ(part.values.size(), part.planes * 6);
    joined.insert(joined.end(), part.values.begin(), part.values.end());
  }
  EXPECT_EQ(joined, whole.values);
  Where where;
  EXPECT_EQ(error_of([&] { formfactor_volume(s, {{0}, {}, {0}}, {}); }, &where),
            "the grid has 0 points along this axis (need ≥ 1)");
  EXPECT_EQ(where.field, "qy");
  EXPECT_TRUE(where.option);
}

TEST(GisaxsRuntime, WritersTakeTheRunRecord) {
  const test::TempDir dir("gisaxs_runtime_writers");
  const Sample s = read_sample(kSample);
  const GisaxsResult r = GisaxsPlan(s, {}).execute();
  const RunRecord record{"gisaxs", "test command", gisaxs_run_lines(s, r)};
  const std::string text = (dir.path() / "i.txt").string();
  write_gisaxs(text, r, record, Approximation::born);
  std::ifstream f(text);
  std::string line;
  std::getline(f, line);
  EXPECT_EQ(line, "# nanoscatter gisaxs: Born approximation");
  std::getline(f, line);
  EXPECT_EQ(line, "# command: test command");
  std::getline(f, line);
  EXPECT_EQ(line, std::string("# version: nanoscatter ") + library_version());
  std::getline(f, line);
  EXPECT_EQ(line, "# sample: " + kSample.string());
  // BornAgain's layout: one line per φ_f bin, one column per α_f bin.
  const TextMatrix t = read_text_matrix(text);
  ASSERT_EQ(t.rows, r.cols);
  ASSERT_EQ(t.cols, r.rows);
  for (std::size_t row = 0; row < r.rows; ++row)
    for (std::size_t c = 0; c < r.cols; ++c) EXPECT_EQ(t.at(c, row), r.intensity[row * r.cols + c]);
  Where where;
  EXPECT_EQ(error_of([&] { write_gisaxs((dir.path() / "i.xyz").string(), r, record, Approximation::dwba); }, &where),
            "gisaxs writes HDF5 (.h5, .hdf5), text (.dat, .txt, .csv) or a picture (.png)");
  EXPECT_EQ(where.field, "output");
  EXPECT_TRUE(where.option);
  // A volume must be whole to be written.
  FormFactorVolume part = formfactor_volume(s, {{0, 1}, {0}, {0}}, {}, {1, 2});
  EXPECT_NE(error_of([&] { write_formfactor((dir.path() / "f.h5").string(), part, record); }), "");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "f.h5"));
}
