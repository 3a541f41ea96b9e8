// The GISAXS sample object model (gisaxs_sample_document.hpp): an edit made
// key by key gives the same image as the same edit made in the file; edits
// the sample reader refuses change nothing and name the key; the document
// written back reads as the same sample; keys that do not exist are errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_sample_document.hpp"
#include "test_util.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;

namespace {

// A small two-particle sample the runtime tests use too (40 × 40 pixels).
std::string sample_text() { return test::read_text(std::filesystem::path(NS_TEST_DATA_DIR) / "gisaxs" / "mixture_paracrystal.toml"); }


std::vector<double> image(const Sample& s) {
  GisaxsOptions o;
  return GisaxsPlan(s, o).execute().intensity;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST(GisaxsSampleDocument, AnEditGivesTheImageOfTheEditedFile) {
  SampleDocument doc = SampleDocument::parse(sample_text(), "sample.toml");
  EXPECT_EQ(std::get<double>(doc.get("particle[0].radius")), 6.0);
  EXPECT_EQ(std::get<std::int64_t>(doc.get("detector.alpha_f.bins")), 40);
  doc.set("particle[0].radius", 4.0);
  doc.set("beam.alpha_i", 0.25);
  const Sample edited_file =
      parse_sample(replaced(replaced(sample_text(), "radius = 6.0", "radius = 4.0"), "alpha_i = 0.3", "alpha_i = 0.25"),
                   "edited.toml");
  EXPECT_EQ(image(doc.sample()), image(edited_file));
  EXPECT_NE(image(doc.sample()), image(parse_sample(sample_text(), "sample.toml")));
  // Written back and read again: the same sample.
  EXPECT_EQ(image(parse_sample(doc.toml(), "round trip")), image(edited_file));
}

TEST(GisaxsSampleDocument, RefusedEditsChangeNothing) {
  SampleDocument doc = SampleDocument::parse(sample_text(), "sample.toml");
  const std::string before = doc.toml();
  try {
    doc.set("particle[0].radius", -1.0);
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("particle[0].radius"), std::string::npos) << e.what();
  }
  EXPECT_THROW(doc.set("particle[0].radiuss", 3.0), Error);  // the reader refuses unknown keys
  EXPECT_THROW(doc.set("particle[3].radius", 3.0), Error);
  EXPECT_THROW(doc.set("beam", 1.0), Error);  // a table, not a value
  EXPECT_THROW(doc.get("nothing.here"), Error);
  EXPECT_EQ(doc.toml(), before);
  EXPECT_EQ(std::get<double>(doc.get("particle[0].radius")), 6.0);
}

TEST(GisaxsSampleDocument, PathsListEveryValueAndFilesRoundTrip) {
  SampleDocument doc = SampleDocument::parse(sample_text(), "sample.toml");
  const auto paths = doc.paths();
  for (const char* p : {"beam.wavelength", "detector.alpha_f.bins", "particle[0].shape", "particle[1].radius"})
    EXPECT_NE(std::find(paths.begin(), paths.end(), p), paths.end()) << p;
  const test::TempDir dir("gisaxs_sample_document");
  doc.set("particle[0].height", 6.5);
  doc.write(dir / "edited.toml");
  const SampleDocument again = SampleDocument::read(dir / "edited.toml");
  EXPECT_EQ(again.toml(), doc.toml());
  EXPECT_EQ(image(again.sample()), image(doc.sample()));
}
