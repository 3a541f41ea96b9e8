// Text tables: full-precision round trips, header layout, strict reading with
// file:line: column N errors, and no file left behind by a failed write.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <limits>

#include "nanoscatter/constants.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/io_text.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

// Values that stress a decimal round trip: subnormals, extremes, -0, values
// whose shortest decimal needs all 17 digits.
std::vector<double> awkward_values() {
  return {0.0,
          -0.0,
          1.0 / 3.0,
          -2.0 / 3.0,
          0.1,
          std::nextafter(1.0, 2.0),
          std::numeric_limits<double>::denorm_min(),
          std::numeric_limits<double>::min(),
          std::numeric_limits<double>::max(),
          -std::numeric_limits<double>::max(),
          6.02214076e23,
          1.2345678901234567e-300,
          kPi,
          std::exp(1.0)};
}

void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

using test::error_of;

}  // namespace

TEST(IoText, RoundTripIsBitExact) {
  test::TempDir dir("io_text_roundtrip");
  TextTable t;
  t.header_lines = {"nanoscatter debye au.xyz --output I.dat", "version 0.1.0", "atoms 1289"};
  t.column_names = {"Q", "I"};
  t.column_units = {"1/Å", "e^2"};
  const auto values = awkward_values();
  for (std::size_t i = 0; i < values.size(); ++i) {
    t.columns.resize(2);
    t.columns[0].push_back(0.05 * double(i + 1));
    t.columns[1].push_back(values[i]);
  }
  write_text_table(dir / "I.dat", t);
  const TextMatrix m = read_text_matrix(dir / "I.dat");
  ASSERT_EQ(m.rows, values.size());
  ASSERT_EQ(m.cols, 2u);
  // Tolerance: none. "% .16e" prints 17 significant digits, which identify
  // every binary64 value uniquely (IEEE 754-2008 §5.12.2), and from_chars
  // rounds correctly, so every bit (even the sign of -0) must come back.
  for (std::size_t r = 0; r < m.rows; ++r) {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(m.at(r, 0)), std::bit_cast<std::uint64_t>(t.columns[0][r]))
        << "row " << r;
    EXPECT_EQ(std::bit_cast<std::uint64_t>(m.at(r, 1)), std::bit_cast<std::uint64_t>(t.columns[1][r]))
        << "row " << r << " value " << t.columns[1][r];
  }
}

TEST(IoText, HeaderLayoutAndNumberFormat) {
  test::TempDir dir("io_text_layout");
  TextTable t;
  t.header_lines = {"command: nanoscatter debye x.xyz", "atoms: 3"};
  t.column_names = {"Q", "I", "I_AuAu"};
  t.column_units = {"1/Å", "e^2", ""};
  t.columns = {{0.5, 1.0}, {-2.0, 1e-310}, {3.0, NAN}};
  write_text_table(dir / "I.txt", t);
  const std::string expected =
      "# command: nanoscatter debye x.xyz\n"
      "# atoms: 3\n"
      "# units: Q [1/Å], I [e^2], I_AuAu [1]\n"
      "# Q I I_AuAu\n"
      " 5.0000000000000000e-01  -2.0000000000000000e+00   3.0000000000000000e+00\n"
      " 1.0000000000000000e+00   9.9999999999999694e-311   nan\n";
  EXPECT_EQ(test::read_text(dir / "I.txt"), expected);
}

TEST(IoText, CsvUsesCommasAndReadsBack) {
  test::TempDir dir("io_text_csv");
  TextTable t;
  t.column_names = {"x", "y"};
  t.columns = {{1.0, 2.0}, {-INFINITY, 0.25}};
  write_text_table(dir / "t.csv", t);
  EXPECT_EQ(test::read_text(dir / "t.csv"),
            "# x y\n 1.0000000000000000e+00, -inf\n 2.0000000000000000e+00,  2.5000000000000000e-01\n");
  const TextMatrix m = read_text_matrix(dir / "t.csv");
  ASSERT_EQ(m.rows, 2u);
  ASSERT_EQ(m.cols, 2u);
  EXPECT_TRUE(std::isinf(m.at(0, 1)) && m.at(0, 1) < 0);
  EXPECT_EQ(m.at(1, 1), 0.25);
}

TEST(IoText, ReaderSkipsCommentsBlankLinesAndCarriageReturns) {
  test::TempDir dir("io_text_comments");
  write_file(dir / "m.dat",
             "# a header\r\n\r\n  1 2.5 +3   # trailing comment\r\n\t-4\t5e-1 6E2\r\n# end\n1e-400 nan -inf\n");
  const TextMatrix m = read_text_matrix(dir / "m.dat");
  ASSERT_EQ(m.rows, 3u);
  ASSERT_EQ(m.cols, 3u);
  const std::vector<double> expected_head = {1, 2.5, 3, -4, 0.5, 600};
  for (std::size_t i = 0; i < expected_head.size(); ++i) EXPECT_EQ(m.data[i], expected_head[i]);
  EXPECT_EQ(m.at(2, 0), 0.0);  // underflow rounds to zero rather than failing
  EXPECT_TRUE(std::isnan(m.at(2, 1)));
  EXPECT_TRUE(std::isinf(m.at(2, 2)));
}

TEST(IoText, ReaderErrorsNameFileLineAndColumn) {
  test::TempDir dir("io_text_errors");
  const auto p = dir / "m.dat";
  const std::string f = p.string();

  write_file(p, "# c\n1 2 3\n4 abc 6\n");
  EXPECT_EQ(error_of([&] { read_text_matrix(p); }), f + ":3: column 2: not a number: 'abc'");

  write_file(p, "1 2 3\n\n4 5\n");
  EXPECT_EQ(error_of([&] { read_text_matrix(p); }),
            f + ":3: column 3: row has 2 values, expected 3 as on line 1");

  write_file(p, "1 2\n3 4 5\n");
  EXPECT_EQ(error_of([&] { read_text_matrix(p); }),
            f + ":2: column 3: row has 3 values, expected 2 as on line 1");

  write_file(p, "1.5e 2\n");  // a truncated exponent is not silently read as 1.5
  EXPECT_EQ(error_of([&] { read_text_matrix(p); }), f + ":1: column 1: not a number: '1.5e'");

  write_file(p, "1,,2\n");
  EXPECT_EQ(error_of([&] { read_text_matrix(p); }), f + ":1: column 2: empty value before ','");

  write_file(p, "1 1e999\n");
  EXPECT_EQ(error_of([&] { read_text_matrix(p); }), f + ":1: column 2: number out of range: '1e999'");

  write_file(p, "# only a comment\n\n");
  EXPECT_EQ(error_of([&] { read_text_matrix(p); }),
            f + ": no numeric data (only comments or blank lines)");

  EXPECT_EQ(error_of([&] { read_text_matrix(dir / "absent.dat"); }),
            (dir / "absent.dat").string() + ": cannot open file for reading");
}

TEST(IoText, FailedWritesLeaveNoFile) {
  test::TempDir dir("io_text_fail");
  TextTable good;
  good.column_names = {"Q", "I"};
  good.columns = {{1.0}, {2.0}};

  // Missing directory.
  EXPECT_THROW(write_text_table(dir / "no-such-dir" / "I.dat", good), Error);

  // Columns of unequal length: the error names the column, nothing is created.
  TextTable ragged = good;
  ragged.columns[1].push_back(3.0);
  EXPECT_EQ(error_of([&] { write_text_table(dir / "I.dat", ragged); }),
            (dir / "I.dat").string() + ": column 'I': has 2 values, column 'Q' has 1");

  TextTable bad_name = good;
  bad_name.column_names[1] = "I total";
  EXPECT_THROW(write_text_table(dir / "I.dat", bad_name), Error);

  TextTable bad_header = good;
  bad_header.header_lines = {"two\nlines"};
  EXPECT_THROW(write_text_table(dir / "I.dat", bad_header), Error);

  // Failure at the very end: the final name is taken by a directory, so the
  // rename in commit() fails after all rows were written; the temporary goes.
  std::filesystem::create_directory(dir / "taken.dat");
  std::filesystem::create_directory(dir / "taken.dat" / "inside");
  EXPECT_THROW(write_text_table(dir / "taken.dat", good), Error);

  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"taken.dat"});
}
