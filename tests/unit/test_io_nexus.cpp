// The NeXus layer (io_nexus.hpp) and the H5Writer parts it stands on: soft
// links that read as their target, string fields and string-array
// attributes read back with the HDF5 C API, the NXroot → NXentry → NXdata
// @default chain, and units outside docs/nexus.md's spellings refused.
#include <gtest/gtest.h>

#if __has_include(<hdf5.h>)
#include <hdf5.h>
#else
#include <hdf5/serial/hdf5.h>
#endif

#include <string>
#include <vector>

#include "nanoscatter/error.hpp"
#include "nanoscatter/io_nexus.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

// A string attribute, scalar or array, as one string per element.
std::vector<std::string> string_attribute(hid_t file, const char* object, const char* name) {
  const hid_t attr = H5Aopen_by_name(file, object, name, H5P_DEFAULT, H5P_DEFAULT);
  if (attr < 0) return {};
  const hid_t space = H5Aget_space(attr);
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  std::vector<char*> text(std::size_t(n), nullptr);
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  std::vector<std::string> out;
  if (H5Aread(attr, type, text.data()) >= 0)
    for (char* t : text) out.emplace_back(t ? t : "");
  H5Dvlen_reclaim(type, space, H5P_DEFAULT, text.data());
  H5Tclose(type);
  H5Sclose(space);
  H5Aclose(attr);
  return out;
}

std::string string_field(hid_t file, const char* path) {
  const hid_t d = H5Dopen2(file, path, H5P_DEFAULT);
  if (d < 0) return "(missing)";
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  char* text = nullptr;
  std::string out = H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, &text) >= 0 && text ? text : "(unread)";
  H5free_memory(text);
  H5Tclose(type);
  H5Dclose(d);
  return out;
}

RunRecord record() { return {"gisaxs", "nanoscatter gisaxs s.toml --output out.h5", {"sample: s.toml"}}; }

void write_image(const std::filesystem::path& path) {
  const std::vector<double> image{1, 2, 3, 4, 5, 6}, rows{0.1, 0.2}, cols{-1, 0, 1};
  nexus::Writer nx(path, record(), record().header_lines("nanoscatter gisaxs: test"));
  nx.field("data/intensity", image.data(), {2, 3}, {"", "I"});
  nx.field("data/alpha_f", rows.data(), {2}, {"deg", "alpha_f (deg)"});
  nx.field("data/phi_f", cols.data(), {3}, {"deg", "phi_f (deg)"});
  nx.data_group({.name = "data", .signal = "intensity", .axes = {"alpha_f", "phi_f"}, .orientation = "row 0 lowest"});
  nx.field("other/curve", cols.data(), {3}, {});
  nx.data_group({.name = "other", .signal = "curve", .axes = {"."}});
  nx.alias("/intensity", "data/intensity");
  nx.commit();
}

}  // namespace

TEST(IoNexus, DefaultChainSignalAxesAndProcess) {
  test::TempDir dir("io_nexus_layout");
  const auto path = dir / "out.h5";
  write_image(path);
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  EXPECT_EQ(string_attribute(file, "/", "NX_class"), std::vector<std::string>{"NXroot"});
  EXPECT_EQ(string_attribute(file, "/", "default"), std::vector<std::string>{"entry"});
  EXPECT_EQ(string_attribute(file, "/entry", "NX_class"), std::vector<std::string>{"NXentry"});
  EXPECT_EQ(string_attribute(file, "/entry", "default"), std::vector<std::string>{"data"});  // the first NXdata
  EXPECT_EQ(string_attribute(file, "/entry/data", "NX_class"), std::vector<std::string>{"NXdata"});
  EXPECT_EQ(string_attribute(file, "/entry/data", "signal"), std::vector<std::string>{"intensity"});
  EXPECT_EQ(string_attribute(file, "/entry/data", "axes"), (std::vector<std::string>{"alpha_f", "phi_f"}));
  EXPECT_EQ(string_attribute(file, "/entry/other", "axes"), std::vector<std::string>{"."});
  EXPECT_EQ(string_attribute(file, "/entry/data/phi_f", "units"), std::vector<std::string>{"deg"});
  EXPECT_TRUE(string_attribute(file, "/entry/data/intensity", "units").empty());  // dimensionless
  std::int64_t index = -1;
  const hid_t attr = H5Aopen_by_name(file, "/entry/data", "phi_f_indices", H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(attr, 0);
  H5Aread(attr, H5T_NATIVE_INT64, &index);
  H5Aclose(attr);
  EXPECT_EQ(index, 1);
  EXPECT_EQ(string_field(file, "/entry/process/program"), "nanoscatter");
  EXPECT_EQ(string_field(file, "/entry/process/engine"), "gisaxs");
  EXPECT_EQ(string_field(file, "/entry/process/command"), "nanoscatter gisaxs s.toml --output out.h5");
  EXPECT_NE(string_field(file, "/entry/process/parameters/data").find("sample: s.toml"), std::string::npos);
  EXPECT_EQ(string_field(file, "/entry/title"), "nanoscatter gisaxs: test");
  H5Fclose(file);
}

TEST(IoNexus, AliasReadsTheTargetAndAPlainFileReadsTheSignal) {
  test::TempDir dir("io_nexus_alias");
  const auto path = dir / "out.h5";
  write_image(path);
  const Dataset2D old = read_dataset_2d(path.string() + ":/intensity");
  EXPECT_EQ(old.data, (std::vector<double>{1, 2, 3, 4, 5, 6}));
  // The first 2D dataset over hard links is the signal, not a second copy.
  EXPECT_EQ(read_dataset_2d(path.string()).dataset, "/entry/data/intensity");
}

TEST(IoNexus, LinkErrorsNameTheLink) {
  test::TempDir dir("io_nexus_link_errors");
  H5Writer h5(dir / "out.h5");
  const std::vector<double> v{1};
  h5.write("/a", v.data(), {1});
  EXPECT_THROW(
      {
        try {
          h5.link("/b", "/missing");
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("/b: link target '/missing' does not exist"), std::string::npos)
              << e.what();
          throw;
        }
      },
      Error);
  EXPECT_THROW(h5.link("/a", "/a"), Error);  // the name is taken
}

TEST(IoNexus, UnitsOutsideTheDocumentedSpellingsAreRefusedAndLeaveNoFile) {
  test::TempDir dir("io_nexus_units");
  const auto path = dir / "out.h5";
  const std::vector<double> q{1, 2};
  try {
    nexus::Writer nx(path, record(), {"title"});
    nx.field("data/q", q.data(), {2}, {"1/Å", "Q"});
    nx.commit();
    FAIL() << "no error for units 1/Å";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("units '1/Å' of /entry/data/q"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  for (const auto units : nexus::kUnits) EXPECT_TRUE(nexus::known_units(units)) << units;
  EXPECT_TRUE(nexus::known_units(""));
  EXPECT_FALSE(nexus::known_units("degree"));
}
