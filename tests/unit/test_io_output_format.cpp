// --output extension → writer.
#include <gtest/gtest.h>

#include "nanoscatter/error.hpp"
#include "nanoscatter/output_format.hpp"

using namespace nanoscatter;

TEST(IoOutputFormat, KnownExtensions) {
  EXPECT_EQ(output_format_from_path("I.dat"), OutputFormat::text);
  EXPECT_EQ(output_format_from_path("dir/I.txt"), OutputFormat::text);
  EXPECT_EQ(output_format_from_path("I.csv"), OutputFormat::text);
  EXPECT_EQ(output_format_from_path("img.h5"), OutputFormat::hdf5);
  EXPECT_EQ(output_format_from_path("img.HDF5"), OutputFormat::hdf5);
  EXPECT_EQ(output_format_from_path("/tmp/a.b/img.png"), OutputFormat::png);
  EXPECT_EQ(output_format_from_path("au.xyz"), OutputFormat::xyz);
  EXPECT_EQ(output_format_from_path("powder.XYE"), OutputFormat::xye);
  EXPECT_EQ(to_string(OutputFormat::hdf5), "hdf5");
}

TEST(IoOutputFormat, UnknownExtensionNamesTheOption) {
  try {
    output_format_from_path("out/I.json");
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().field, "output");  // the option's field: the CLI prints --output
    EXPECT_TRUE(e.where().option);
    EXPECT_EQ(std::string(e.what()),
              "out/I.json: output: unknown extension '.json'; use .dat/.txt/.csv (text), "
              ".h5/.hdf5 (HDF5), .png (picture), .xyz (structure) or .xye (powder pattern)");
  }
  EXPECT_THROW(output_format_from_path("noext"), Error);
  EXPECT_THROW(output_format_from_path("dir.h5/"), Error);
}
