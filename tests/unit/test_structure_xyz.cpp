// XYZ reader and writer: plain and extended files, round trips, and the
// one-line errors that name file, line and field.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "nanoscatter/error.hpp"
#include "nanoscatter/structure_io.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

std::string write_file(const test::TempDir& dir, const std::string& name, const std::string& text) {
  const auto path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

// The message of the Error that reading `path` throws ("" when none).
std::string read_error(const std::string& path) {
  try {
    read_structure(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(StructureXyz, PlainFileWithLabelsNumbersAndExtraColumns) {
  test::TempDir dir("xyz-plain");
  const auto path = write_file(dir, "a.xyz",
                               "3\n"
                               "  NaCl pair and a water O  \n"
                               "Na1+  0.0 0.0 0.0\n"
                               "cl   2.81 -1e-1  +0.5   extra 7\n"
                               "8  1 2 3\n");
  const Structure s = read_structure(path);
  ASSERT_EQ(s.atoms.size(), 3u);
  EXPECT_EQ(s.title, "NaCl pair and a water O");
  EXPECT_FALSE(s.cell.has_value());
  EXPECT_EQ(s.atoms[0].element, "Na");
  EXPECT_EQ(s.atoms[0].charge, 1);
  EXPECT_EQ(s.atoms[1].element, "Cl");
  EXPECT_EQ(s.atoms[1].position.x, 2.81);
  EXPECT_EQ(s.atoms[1].position.y, -0.1);
  EXPECT_EQ(s.atoms[1].position.z, 0.5);
  EXPECT_EQ(s.atoms[2].element, "O");  // atomic number 8
  EXPECT_EQ(s.atoms[2].position.z, 3);
}

TEST(StructureXyz, ExtendedFileColumnsLatticeAndPbc) {
  test::TempDir dir("xyz-ext");
  // Columns in an unusual order with a 3-wide forces block before species.
  const auto path = write_file(
      dir, "e.xyz",
      "2\n"
      "Lattice=\"4.0 0 0 0 5.0 0 0 0 6.0\" Properties=force:R:3:species:S:1:pos:R:3:charge:I:1 "
      "pbc=\"T T T\" energy=-1.5 comment=\"two \\\"ions\\\"\"\n"
      "9 9 9 Mg 0 0 0 2 trailing\n"
      "9 9 9 O  2.0 2.5 3.0 -2\n");
  const Structure s = read_structure(path);
  ASSERT_EQ(s.atoms.size(), 2u);
  ASSERT_TRUE(s.cell.has_value());
  EXPECT_EQ(s.cell->a, 4);
  EXPECT_EQ(s.cell->c, 6);
  EXPECT_EQ(s.cell->gamma, 90);
  EXPECT_TRUE(s.periodic);
  EXPECT_EQ(s.title, "two \"ions\"");
  EXPECT_EQ(s.atoms[0].element, "Mg");
  EXPECT_EQ(s.atoms[0].charge, 2);
  EXPECT_EQ(s.atoms[1].charge, -2);
  EXPECT_EQ(s.atoms[1].position.y, 2.5);
}

TEST(StructureXyz, RotatedLatticeKeepsFractionalCoordinates) {
  test::TempDir dir("xyz-rot");
  // A hexagonal cell with a along y (not the standard orientation): the
  // reader rotates positions so that the stored cell describes them.
  const double a = 3.0, c = 5.0, h = a * std::sqrt(3.0) / 2;
  const Vec3 va{0, a, 0}, vb{-h, -a / 2, 0}, vc{0, 0, c};
  const Vec3 f{0.25, 0.5, 0.125};
  const Vec3 r = va * f.x + vb * f.y + vc * f.z;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "1\nLattice=\"%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\" pbc=\"F F F\"\n"
                "Zn %.17g %.17g %.17g\n",
                va.x, va.y, va.z, vb.x, vb.y, vb.z, vc.x, vc.y, vc.z, r.x, r.y, r.z);
  const Structure s = read_structure(write_file(dir, "r.xyz", buf));
  ASSERT_TRUE(s.cell.has_value());
  EXPECT_NEAR(s.cell->gamma, 120, 1e-9);
  EXPECT_FALSE(s.periodic);
  const Vec3 back = s.cell->to_fractional(s.atoms[0].position);
  // 1e-12: a few roundings of O(1) numbers through two 3x3 products.
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(back[i], f[i], 1e-12);
  EXPECT_NEAR(norm(s.atoms[0].position), norm(r), 1e-12);
}

TEST(StructureXyz, WriteReadRoundTrip) {
  test::TempDir dir("xyz-round");
  Structure s;
  s.atoms = {Atom{"Fe", 3, {0.125, -2.5, 1e-3}, 0.5, 0.75}, Atom{"O", -2, {1, 2, 3}, 1, 0}};
  s.cell = Cell{3, 4, 5, 80, 95, 110};
  s.periodic = true;
  const auto path = (dir / "out.xyz").string();
  write_xyz(path, s, "test \"quoted\" comment\nsecond line");
  const Structure back = read_structure(path);
  ASSERT_EQ(back.atoms.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(back.atoms[i].element, s.atoms[i].element);
    EXPECT_EQ(back.atoms[i].charge, s.atoms[i].charge);
    EXPECT_EQ(back.atoms[i].occupancy, s.atoms[i].occupancy);
    EXPECT_EQ(back.atoms[i].b_iso, s.atoms[i].b_iso);
    // Written with 8 decimals: round-trip error ≤ 5e-9 Å.
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(back.atoms[i].position[k], s.atoms[i].position[k], 5e-9);
  }
  ASSERT_TRUE(back.cell.has_value());
  // The lattice is written with 10 decimals.
  EXPECT_NEAR(back.cell->alpha, 80, 1e-8);
  EXPECT_NEAR(back.cell->gamma, 110, 1e-8);
  EXPECT_TRUE(back.periodic);
  EXPECT_EQ(back.title, "test 'quoted' comment second line");

  // Neutral atoms without a cell give a plain file.
  Structure plain;
  plain.atoms = {Atom{"Au", 0, {1, 2, 3}}};
  write_xyz(path, plain, "gold");
  EXPECT_EQ(test::read_text(path), "1\ngold\nAu       1.00000000       2.00000000       3.00000000\n");
}

TEST(StructureXyz, MalformedNumberNamesFileLineAndField) {
  test::TempDir dir("xyz-bad");
  const auto path = write_file(dir, "bad.xyz", "2\ncomment\nAu 0 0 0\nAu abc 0 0\n");
  EXPECT_EQ(read_error(path), path + ":4: x: not a number 'abc'");
}

TEST(StructureXyz, OtherErrors) {
  test::TempDir dir("xyz-errors");
  auto error_of = [&](const std::string& text) { return read_error(write_file(dir, "e.xyz", text)); };
  const std::string p = (dir / "e.xyz").string();
  EXPECT_EQ(error_of("2\nc\nQq 0 0 0\nAu 0 0 0\n"), p + ":3: element: unknown element in species label 'Qq'");
  EXPECT_EQ(error_of("1\nc\nAu 0 nan 0\n"), p + ":3: y: not a finite number 'nan'");
  EXPECT_EQ(error_of("1\nc\nAu 0 0 inf\n"), p + ":3: z: not a finite number 'inf'");
  EXPECT_EQ(error_of("3\nc\nAu 0 0 0\nAu 1 0 0\n"),
            p + ":1: atom count: the file declares 3 atoms but has only 2 atom lines");
  EXPECT_EQ(error_of("1\nc\nAu 0 0 0\nAu 1 0 0\n"),
            p + ":4: atom count: more lines than the 1 atoms declared on line 1 (multi-frame XYZ is not supported)");
  EXPECT_EQ(error_of("x\nc\n"), p + ":1: atom count: not a non-negative integer 'x'");
  EXPECT_EQ(error_of("1\nc\nAu 0 0\n"), p + ":3: z: missing (line has 3 columns, expected 4)");
  EXPECT_EQ(error_of("1\nLattice=\"1 0 0 0 1 0\"\nAu 0 0 0\n"), p + ":2: Lattice: expected 9 numbers, got 6");
  EXPECT_EQ(error_of("1\nProperties=species:S:1:velo:R:3\nAu 0 0 0\n"),
            p + ":2: Properties: no pos:R:3 column in 'species:S:1:velo:R:3'");
  // A charge column holds whole numbers a species label could write; 1e11 once
  // overflowed the cast to int (fuzz finding, CI of 2026-11-26).
  const std::string charged = "1\nProperties=species:S:1:pos:R:3:charge:I:1\nMg 0 0 0 ";
  EXPECT_EQ(error_of(charged + "111111111112\n"),
            p + ":3: charge: formal charge must be a whole number within +-99, got 1.11111e+11");
  EXPECT_EQ(error_of(charged + "1.5\n"), p + ":3: charge: formal charge must be a whole number within +-99, got 1.5");
  EXPECT_EQ(error_of(charged + "-100\n"), p + ":3: charge: formal charge must be a whole number within +-99, got -100");
  EXPECT_EQ(read_error(write_file(dir, "e.xyz", charged + "-99\n")), "");
  EXPECT_EQ(read_error((dir / "missing.xyz").string()), (dir / "missing.xyz").string() + ": no such file");
  EXPECT_NE(read_error((dir / "s.mol2").string()).find("unknown structure format '.mol2'"), std::string::npos);
}

TEST(StructureXyz, WriterLeavesNoFileOnError) {
  test::TempDir dir("xyz-write-bad");
  Structure s;
  s.atoms = {Atom{"Au", 0, {NAN, 0, 0}}};
  EXPECT_THROW(write_xyz((dir / "o.xyz").string(), s, ""), Error);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  EXPECT_THROW(write_structure((dir / "o.mol2").string(), Structure{}, ""), Error);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}
