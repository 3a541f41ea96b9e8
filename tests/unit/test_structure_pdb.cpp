// PDB reader and writer on tests/data/small.pdb, whose fixed columns were
// written to the wwPDB v3.3 layout (ATOM: x 31–38, y 39–46, z 47–54,
// occupancy 55–60, B 61–66, element 77–78, charge 79–80).
#include <gtest/gtest.h>

#include <fstream>

#include "nanoscatter/error.hpp"
#include "nanoscatter/structure_io.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

TEST(StructurePdb, ReadsColumnsElementsAndCell) {
  const Structure s = read_structure(NS_TEST_DATA_DIR "/small.pdb");
  // Six atoms in the first MODEL; the seventh, after ENDMDL, is ignored.
  ASSERT_EQ(s.atoms.size(), 6u);
  EXPECT_EQ(s.title, "TEST STRUCTURE FOR THE PDB READER");
  ASSERT_TRUE(s.cell.has_value());
  EXPECT_EQ(s.cell->a, 52);
  EXPECT_EQ(s.cell->b, 58.6);
  EXPECT_EQ(s.cell->beta, 95.5);
  EXPECT_FALSE(s.periodic);  // P 1 21 1: the atoms are an asymmetric unit

  EXPECT_EQ(s.atoms[0].element, "N");
  EXPECT_EQ(s.atoms[0].position.x, 27.34);
  EXPECT_EQ(s.atoms[0].b_iso, 9.67);
  EXPECT_EQ(s.atoms[1].element, "C");   // " CA " with blank element columns: alpha carbon
  EXPECT_EQ(s.atoms[2].element, "Fe");  // element columns "FE", charge "3+"
  EXPECT_EQ(s.atoms[2].charge, 3);
  EXPECT_EQ(s.atoms[2].position.x, -10.125);
  EXPECT_EQ(s.atoms[2].position.z, 1234.5);  // columns touching: "11.0001234.500"
  EXPECT_EQ(s.atoms[2].occupancy, 0.5);
  EXPECT_EQ(s.atoms[3].element, "O");   // water " O  "
  EXPECT_EQ(s.atoms[4].element, "Ca");  // "CA  " from column 13: calcium
  EXPECT_EQ(s.atoms[4].occupancy, 0.25);
  EXPECT_EQ(s.atoms[5].element, "Cl");
  EXPECT_EQ(s.atoms[5].charge, -1);
  EXPECT_EQ(s.atoms[5].position.z, -9.125);
}

TEST(StructurePdb, WriteReadRoundTrip) {
  test::TempDir dir("pdb-round");
  Structure s;
  s.atoms = {Atom{"Fe", 2, {-1.5, 2.25, 3.125}, 0.5, 7.5}, Atom{"O", 0, {1000.001, -2, 0}, 1, 0}};
  s.cell = Cell{10, 11, 12, 90, 90, 120};
  s.periodic = true;
  const auto path = (dir / "o.pdb").string();
  write_pdb(path, s, "round trip");
  const Structure back = read_structure(path);
  ASSERT_EQ(back.atoms.size(), 2u);
  EXPECT_EQ(back.title, "round trip");
  EXPECT_TRUE(back.periodic);  // written as P 1
  EXPECT_EQ(back.cell->gamma, 120);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(back.atoms[i].element, s.atoms[i].element);
    EXPECT_EQ(back.atoms[i].charge, s.atoms[i].charge);
    EXPECT_EQ(back.atoms[i].occupancy, s.atoms[i].occupancy);
    EXPECT_EQ(back.atoms[i].b_iso, s.atoms[i].b_iso);
    // %8.3f columns: error ≤ 5e-4 Å.
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(back.atoms[i].position[k], s.atoms[i].position[k], 5e-4);
  }
  // A finite particle cut from a crystal is no crystal: no CRYST1.
  s.periodic = false;
  write_pdb(path, s, "particle");
  EXPECT_EQ(test::read_text(path).find("CRYST1"), std::string::npos);
  EXPECT_FALSE(read_structure(path).cell.has_value());
  s.atoms[0].position.x = 12345;  // does not fit 8.3 columns
  EXPECT_THROW(write_pdb((dir / "big.pdb").string(), s, ""), Error);
  EXPECT_FALSE(std::filesystem::exists(dir / "big.pdb"));
}

TEST(StructurePdb, ErrorsNameLineAndField) {
  test::TempDir dir("pdb-bad");
  const auto path = (dir / "bad.pdb").string();
  auto error_of = [&](const std::string& line) {
    std::ofstream(path) << "REMARK 1\n" << line << "\n";
    try {
      read_pdb(path);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error_of("ATOM      1  N   MET A   1      27.3x0  24.430   2.614  1.00  9.67           N"),
            path + ":2: x: not a number '27.3x0'");
  EXPECT_EQ(error_of("ATOM      1  N   MET A   1      27.340  24.430"), path + ":2: z: missing (columns 47-54)");
  EXPECT_EQ(error_of("ATOM      1  N   MET A   1      27.340  24.430   2.614  1.00  9.67          QQ"),
            path + ":2: element: unknown element 'QQ'");
  EXPECT_EQ(error_of("ATOM      1  N   MET A   1      27.340  24.430   2.614  1.70  9.67           N"),
            path + ":2: occupancy: outside [0, 1]: 1.7");
  EXPECT_EQ(error_of("CRYST1   -2.000   58.600   61.900  90.00  90.00  90.00 P 1           1"),
            path + ":2: a: cell length must be positive and finite, got -2");
}
