// Core helpers: error formatting, atomic output, device selection.
#include <gtest/gtest.h>

#include <fstream>

#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/device.hpp"
#include "nanoscatter/error.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

TEST(Error, MessageNamesFileLineAndField) {
  try {
    fail_at({"a.xyz", 7, "x"}, "not a number: '", "abc", "'");
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "a.xyz:7: x: not a number: 'abc'");
    EXPECT_EQ(e.where().line, 7);
  }
}

TEST(Error, RethrowFillsMissingFile) {
  try {
    try {
      fail_at({"", 3, "cell"}, "missing");
    } catch (const Error& e) {
      rethrow_with(e, {"p.cif", 0, ""});
    }
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "p.cif:3: cell: missing");
  }
}

TEST(AtomicOutput, NoFileUnlessCommitted) {
  test::TempDir dir("atomic");
  const auto target = dir / "out.dat";
  {
    AtomicOutput out(target);
    std::ofstream(out.temp_path()) << "partial";
    // destroyed without commit: as if an error happened mid-write
  }
  EXPECT_FALSE(std::filesystem::exists(target));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  {
    AtomicOutput out(target);
    std::ofstream(out.temp_path()) << "whole";
    out.commit();
  }
  EXPECT_EQ(test::read_text(target), "whole");
}

TEST(AtomicOutput, MissingDirectoryIsAnError) {
  EXPECT_THROW(AtomicOutput("/nonexistent-dir-xyz/out.dat"), Error);
}

TEST(Device, CpuAlwaysAvailableAndGpuErrorsWithoutDevice) {
  EXPECT_EQ(select_device(DeviceRequest::cpu), Device::cpu);
  if (cuda_device_count() == 0) {
    EXPECT_THROW(select_device(DeviceRequest::gpu), Error);
    EXPECT_EQ(select_device(DeviceRequest::automatic, true), Device::cpu);
  } else {
    EXPECT_EQ(select_device(DeviceRequest::automatic, true), Device::gpu);
  }
  EXPECT_THROW(parse_device("tpu"), Error);
  EXPECT_EQ(parse_precision("single"), Precision::single);
}
