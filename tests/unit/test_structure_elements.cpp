// Elements, species labels, unit-cell geometry and symmetry operations.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "nanoscatter/error.hpp"
#include "nanoscatter/structure.hpp"
#include "structure/symmetry.hpp"

using namespace nanoscatter;

TEST(StructureElements, AllSymbolsRoundTripCaseInsensitively) {
  for (int z = 1; z <= 118; ++z) {
    const std::string& symbol = element_symbol(z);
    EXPECT_EQ(atomic_number(symbol), z);
    std::string upper = symbol, lower = symbol;
    for (char& ch : upper) ch = static_cast<char>(std::toupper(ch));
    for (char& ch : lower) ch = static_cast<char>(std::tolower(ch));
    EXPECT_EQ(atomic_number(upper), z) << upper;
    EXPECT_EQ(atomic_number(lower), z) << lower;
  }
  // Spot values from the periodic table.
  EXPECT_EQ(atomic_number("H"), 1);
  EXPECT_EQ(atomic_number("Fe"), 26);
  EXPECT_EQ(atomic_number("Au"), 79);
  EXPECT_EQ(atomic_number("U"), 92);
  EXPECT_EQ(atomic_number("Og"), 118);
  EXPECT_EQ(element_symbol(8), "O");
}

TEST(StructureElements, UnknownSymbolsAreErrorsNamingThem) {
  try {
    atomic_number("Xx");
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'Xx'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(atomic_number(""), Error);
  EXPECT_THROW(atomic_number("Auu"), Error);
  EXPECT_THROW(element_symbol(0), Error);
  EXPECT_THROW(element_symbol(119), Error);
  EXPECT_FALSE(find_atomic_number("Q").has_value());
}

TEST(StructureElements, SpeciesLabels) {
  using P = std::pair<std::string, int>;
  EXPECT_EQ(parse_species_label("Na1+"), P("Na", 1));
  EXPECT_EQ(parse_species_label("Cl1-"), P("Cl", -1));
  EXPECT_EQ(parse_species_label("O2-"), P("O", -2));
  EXPECT_EQ(parse_species_label("Fe3+"), P("Fe", 3));
  EXPECT_EQ(parse_species_label("Cl-"), P("Cl", -1));
  EXPECT_EQ(parse_species_label("Au"), P("Au", 0));
  EXPECT_EQ(parse_species_label("AU"), P("Au", 0));
  EXPECT_EQ(parse_species_label("fe+3"), P("Fe", 3));
  for (const char* bad : {"Xx2+", "", "Fe3", "Fe3+x", "1+", "Na++"}) {
    try {
      parse_species_label(bad);
      FAIL() << "no throw for '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("'" + std::string(bad) + "'"), std::string::npos) << e.what();
    }
  }
}

// Tolerance 1e-12 (relative): closed forms evaluated in double precision.
TEST(StructureCell, HexagonalVectorsAndVolume) {
  Cell cell;
  cell.a = cell.b = 3;
  cell.c = 5;
  cell.gamma = 120;
  const Mat3 l = cell.lattice_vectors();
  EXPECT_NEAR(l.column(0).x, 3, 1e-12);
  EXPECT_EQ(l.column(0).y, 0);
  EXPECT_NEAR(l.column(1).x, -1.5, 1e-12);
  EXPECT_NEAR(l.column(1).y, 1.5 * std::sqrt(3.0), 1e-12);
  EXPECT_EQ(l.column(1).z, 0);
  EXPECT_NEAR(l.column(2).z, 5, 1e-12);
  // V = (√3/2) a² c for a hexagonal cell.
  EXPECT_NEAR(cell.volume(), std::sqrt(3.0) / 2 * 9 * 5, 1e-12);
  EXPECT_NEAR(determinant(l), cell.volume(), 1e-11);
}

TEST(StructureCell, TriclinicVectorsReproduceLengthsAndAngles) {
  const Cell cell{4.5, 5.25, 6.1, 82.5, 97.25, 105.0};
  const Mat3 l = cell.lattice_vectors();
  const Vec3 a = l.column(0), b = l.column(1), c = l.column(2);
  auto degrees = [](const Vec3& u, const Vec3& v) {
    return std::acos(dot(u, v) / (norm(u) * norm(v))) * 180 / std::numbers::pi;
  };
  EXPECT_NEAR(norm(a), 4.5, 1e-12);
  EXPECT_NEAR(norm(b), 5.25, 1e-12);
  EXPECT_NEAR(norm(c), 6.1, 1e-12);
  EXPECT_NEAR(degrees(b, c), 82.5, 1e-10);
  EXPECT_NEAR(degrees(a, c), 97.25, 1e-10);
  EXPECT_NEAR(degrees(a, b), 105.0, 1e-10);
  EXPECT_EQ(a.y, 0);  // a along x
  EXPECT_EQ(a.z, 0);
  EXPECT_EQ(b.z, 0);  // b in the xy plane
  // Volume from the closed form equals the triple product.
  EXPECT_NEAR(cell.volume(), dot(a, cross(b, c)), 1e-10);
  const Vec3 f{0.1, -0.7, 1.3};
  const Vec3 back = cell.to_fractional(cell.to_cartesian(f));
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(back[i], f[i], 1e-13);
  // cell_from_vectors recovers the parameters from a rotated copy.
  const Cell again = cell_from_vectors(Vec3{a.y, a.x, -a.z}, Vec3{b.y, b.x, -b.z}, Vec3{c.y, c.x, -c.z});
  EXPECT_NEAR(again.gamma, 105.0, 1e-10);
  EXPECT_NEAR(again.c, 6.1, 1e-12);
}

TEST(StructureCell, ValidationNamesTheParameter) {
  Cell bad{-1, 1, 1, 90, 90, 90};
  try {
    validate_cell(bad, {"p.cif", 3, ""});
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().field, "a");
    EXPECT_EQ(e.where().file, "p.cif");
  }
  // α + β < γ cannot close a cell.
  EXPECT_THROW(validate_cell(Cell{1, 1, 1, 30, 30, 100}), Error);
  EXPECT_THROW(validate_cell(Cell{1, 1, 1, 90, 180, 90}), Error);
  EXPECT_NO_THROW(validate_cell(Cell{1, 2, 3, 60, 70, 80}));
}

TEST(StructureSymmetry, ParsesCifOperators) {
  const Vec3 r{0.1, 0.2, 0.3};
  auto check = [&](const std::string& op, Vec3 expected) {
    const Vec3 got = parse_symmetry_op(op).apply(r);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(got[i], expected[i], 1e-15) << op;
  };
  check("1/2+x,-y,z-1/4", {0.6, -0.2, 0.05});
  check("x-y,x,z+1/2", {-0.1, 0.1, 0.8});
  check(" -X+1/2 , Y , 0.25-z ", {0.4, 0.2, -0.05});
  check("-y+3/4,+x,-z", {0.55, 0.1, -0.3});
  check("2*x,y,z", {0.2, 0.2, 0.3});  // not crystallographic, but well-formed
  for (const char* bad : {"x,y", "x,y,w", "x,y,z/0", "x,y,1/0", "x,y,0", "x,y,z+", "x,,z", "xy,y,z"})
    EXPECT_THROW(parse_symmetry_op(bad), Error) << bad;
}

TEST(StructureSymmetry, OrbitWrapsAndMergesImages) {
  const std::vector<SymmetryOp> p1bar = {parse_symmetry_op("x,y,z"), parse_symmetry_op("-x,-y,-z")};
  EXPECT_EQ(site_orbit({0, 0, 0}, p1bar, 1e-4).size(), 1u);
  EXPECT_EQ(site_orbit({0.5, 0.5, 0}, p1bar, 1e-4).size(), 1u);
  const auto general = site_orbit({0.1, 0.2, 0.3}, p1bar, 1e-4);
  ASSERT_EQ(general.size(), 2u);
  EXPECT_NEAR(general[1].x, 0.9, 1e-15);
  EXPECT_NEAR(general[1].z, 0.7, 1e-15);
  // 5-digit thirds: the images differ by 1e-5 and must merge.
  const std::vector<SymmetryOp> threefold = {parse_symmetry_op("x,y,z"), parse_symmetry_op("-y,x-y,z"),
                                             parse_symmetry_op("-x+y,-x,z")};
  EXPECT_EQ(site_orbit({0.33333, 0.66667, 0}, threefold, 1e-4).size(), 1u);
  const Vec3 w = wrap_fractional({-1e-17, 1.0, -0.25});
  EXPECT_EQ(w.x, 0);
  EXPECT_EQ(w.y, 0);
  EXPECT_EQ(w.z, 0.75);
  EXPECT_NEAR(periodic_distance({0.99999, 0, 0}, {0, 0, 0}), 1e-5, 1e-15);
}
