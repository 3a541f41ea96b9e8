// Builder: named lattices cut by shapes. Counts are checked against the
// task's exact values and against independent enumerations of the same
// point sets (integer grids with parity rules, closed forms), and the
// lattices against their textbook coordination shells.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/structure_io.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

// docs/design.md: kept when |r| ≤ R + 1e-6 Å.
constexpr double kTol = 1e-6;

Structure build(LatticeType type, double a, std::vector<std::string> elements, const Shape& shape) {
  LatticeOptions o;
  o.type = type;
  o.a = a;
  o.elements = std::move(elements);
  return cut_crystal(make_lattice(o), shape);
}

std::size_t count_of(const Structure& s, const std::string& element) {
  return static_cast<std::size_t>(
      std::count_if(s.atoms.begin(), s.atoms.end(), [&](const Atom& a) { return a.element == element; }));
}

// Points (i, j, k)·h of a cubic grid inside the sphere, filtered by `keep`.
template <class Keep>
std::size_t grid_count(double h, double radius, Keep keep) {
  const int n = static_cast<int>(std::ceil(radius / h)) + 1;
  std::size_t count = 0;
  for (int i = -n; i <= n; ++i)
    for (int j = -n; j <= n; ++j)
      for (int k = -n; k <= n; ++k)
        if (keep(i, j, k) && h * std::sqrt(double(i * i + j * j + k * k)) <= radius + kTol) ++count;
  return count;
}

bool even(int v) { return v % 2 == 0; }

// Neighbours of the atom nearest the origin, within [d − ε, d + ε].
std::size_t shell_count(const Structure& s, double d, const std::string& element = "") {
  const Atom* centre = &s.atoms[0];
  for (const Atom& a : s.atoms)
    if (norm(a.position) < norm(centre->position)) centre = &a;
  std::size_t n = 0;
  for (const Atom& a : s.atoms) {
    const double r = norm(a.position - centre->position);
    // 1e-9 Å: lattice positions are exact to rounding.
    if (std::abs(r - d) < 1e-9 && (element.empty() || a.element == element)) ++n;
  }
  return n;
}

double min_distance(const Structure& s) {
  double best = INFINITY;
  for (std::size_t i = 0; i < s.atoms.size(); ++i)
    for (std::size_t j = i + 1; j < s.atoms.size(); ++j)
      best = std::min(best, norm(s.atoms[i].position - s.atoms[j].position));
  return best;
}

}  // namespace

TEST(StructureBuilder, GoldFccSphereHas959Atoms) {
  const double a = 4.078, radius = 16;
  const Structure s = build(LatticeType::fcc, a, {"Au"}, Sphere{radius});
  EXPECT_EQ(s.atoms.size(), 959u);  // the task's reference value
  // Independent: fcc = points of the a/2 grid with an even index sum.
  EXPECT_EQ(s.atoms.size(), grid_count(a / 2, radius, [](int i, int j, int k) { return even(i + j + k); }));
  for (const Atom& atom : s.atoms) EXPECT_LE(norm(atom.position), radius + kTol);
  // No atom generated twice: nearest distance a/√2.
  EXPECT_NEAR(min_distance(s), a / std::sqrt(2.0), 1e-9);
}

TEST(StructureBuilder, CobaltOxideRocksaltSphereHas1213Atoms) {
  const double a = 4.26, radius = 14;
  const Structure s = build(LatticeType::rocksalt, a, {"Co", "O"}, Sphere{radius});
  EXPECT_EQ(s.atoms.size(), 1213u);  // the task's reference value
  // Independent: rocksalt fills the a/2 grid, Co on even index sums (the
  // origin), O on odd ones.
  EXPECT_EQ(count_of(s, "Co"), grid_count(a / 2, radius, [](int i, int j, int k) { return even(i + j + k); }));
  EXPECT_EQ(count_of(s, "O"), grid_count(a / 2, radius, [](int i, int j, int k) { return !even(i + j + k); }));
  EXPECT_EQ(shell_count(s, a / 2, "O"), 6u);
}

TEST(StructureBuilder, BccAndDiamondMatchParityEnumerations) {
  const Structure bcc = build(LatticeType::bcc, 3.3, {"Fe"}, Sphere{10});
  // bcc: a/2 grid points with all indices even or all odd.
  EXPECT_EQ(bcc.atoms.size(), grid_count(3.3 / 2, 10, [](int i, int j, int k) {
              return (even(i) && even(j) && even(k)) || (!even(i) && !even(j) && !even(k));
            }));
  EXPECT_EQ(shell_count(bcc, 3.3 * std::sqrt(3.0) / 2), 8u);

  const Structure diamond = build(LatticeType::diamond, 5.431, {"Si"}, Sphere{12});
  // diamond on the a/4 grid: all even with sum ≡ 0 (mod 4), or all odd with sum ≡ 3 (mod 4).
  EXPECT_EQ(diamond.atoms.size(), grid_count(5.431 / 4, 12, [](int i, int j, int k) {
              const int sum = ((i + j + k) % 4 + 4) % 4;
              if (even(i) && even(j) && even(k)) return sum == 0;
              if (!even(i) && !even(j) && !even(k)) return sum == 3;
              return false;
            }));
  EXPECT_EQ(shell_count(diamond, 5.431 * std::sqrt(3.0) / 4), 4u);
}

TEST(StructureBuilder, SimpleCubicCubesCuboidsCylindersOctahedra) {
  // Edge n·a centred on a lattice point: faces hold atoms, (n+1)³ for even n, n³ for odd n.
  EXPECT_EQ(build(LatticeType::sc, 2.5, {"Po"}, Cube{4 * 2.5}).atoms.size(), 125u);
  EXPECT_EQ(build(LatticeType::sc, 2.5, {"Po"}, Cube{3 * 2.5}).atoms.size(), 27u);
  // |x| ≤ 1.25, |y| ≤ 1.75, |z| ≤ 2.25 on the unit grid: 3 × 3 × 5.
  EXPECT_EQ(build(LatticeType::sc, 1, {"Po"}, Cuboid{2.5, 3.5, 4.5}).atoms.size(), 45u);
  // Cylinder R = 2.5, h = 4: 21 grid points in the disc x²+y² ≤ 6.25, times 5 layers.
  std::size_t disc = 0;
  for (int i = -3; i <= 3; ++i)
    for (int j = -3; j <= 3; ++j) disc += i * i + j * j <= 6.25;
  EXPECT_EQ(disc, 21u);
  EXPECT_EQ(build(LatticeType::sc, 1, {"Po"}, Cylinder{2.5, 4}).atoms.size(), disc * 5);
  // Octahedron |x|+|y|+|z| ≤ n: the centred octahedral number (2n+1)(2n²+2n+3)/3 = 63 for n = 3.
  EXPECT_EQ(build(LatticeType::sc, 1, {"Po"}, Octahedron{3}).atoms.size(), 63u);
}

TEST(StructureBuilder, SphereToleranceIsOneMicroAngstrom) {
  // Six neighbours at exactly |r| = a: kept at R = a and within 1e-6 Å below it.
  EXPECT_EQ(build(LatticeType::sc, 1, {"Po"}, Sphere{1}).atoms.size(), 7u);
  EXPECT_EQ(build(LatticeType::sc, 1, {"Po"}, Sphere{1 - 5e-7}).atoms.size(), 7u);
  EXPECT_EQ(build(LatticeType::sc, 1, {"Po"}, Sphere{1 - 2e-6}).atoms.size(), 1u);
}

TEST(StructureBuilder, PolyhedronFromPlanesEqualsTheNamedShapes) {
  const double half = 5.3;
  ConvexPolyhedron cube;
  for (int axis = 0; axis < 3; ++axis)
    for (double sign : {1.0, -1.0}) {
      Vec3 n;
      n[axis] = 2 * sign;  // non-unit normals are allowed: n·r ≤ d
      cube.planes.push_back({n, 2 * half});
    }
  EXPECT_NEAR(bounding_radius(cube), half * std::sqrt(3.0), 1e-12);
  const Structure a = build(LatticeType::fcc, 4.078, {"Au"}, cube);
  const Structure b = build(LatticeType::fcc, 4.078, {"Au"}, Cube{2 * half});
  ASSERT_EQ(a.atoms.size(), b.atoms.size());
  for (std::size_t i = 0; i < a.atoms.size(); ++i) EXPECT_EQ(a.atoms[i].position.x, b.atoms[i].position.x);

  ConvexPolyhedron octahedron;
  for (double x : {1.0, -1.0})
    for (double y : {1.0, -1.0})
      for (double z : {1.0, -1.0}) octahedron.planes.push_back({{x, y, z}, 6.0});
  EXPECT_NEAR(bounding_radius(octahedron), 6.0, 1e-12);
  EXPECT_EQ(build(LatticeType::sc, 1, {"Po"}, octahedron).atoms.size(),
            build(LatticeType::sc, 1, {"Po"}, Octahedron{6}).atoms.size());

  // Five faces of a cube leave it open along −z.
  ConvexPolyhedron open = cube;
  open.planes.pop_back();
  EXPECT_THROW(validate_shape(open), Error);
  ConvexPolyhedron off_centre = cube;
  off_centre.planes[0].distance = -1;
  EXPECT_THROW(validate_shape(off_centre), Error);
}

TEST(StructureBuilder, HexagonalAndCompoundLatticesHaveTheirCoordination) {
  const double a = 3.0;
  // Ideal hcp: 12 neighbours at a.
  const Structure hcp = build(LatticeType::hcp, a, {"Mg"}, Sphere{12});
  EXPECT_EQ(shell_count(hcp, a), 12u);
  EXPECT_NEAR(min_distance(hcp), a, 1e-9);
  // Ideal wurtzite (c = a√(8/3), u = 3/8): 4 anions at u·c = a√(3/8) around a cation.
  const Structure wz = build(LatticeType::wurtzite, a, {"Zn", "O"}, Sphere{12});
  EXPECT_EQ(shell_count(wz, a * std::sqrt(3.0 / 8.0), "O"), 4u);
  EXPECT_EQ(count_of(wz, "Zn") + count_of(wz, "O"), wz.atoms.size());
  // Zinc blende: 4 anions at a√3/4.
  const Structure zb = build(LatticeType::zincblende, 5.65, {"Ga", "As"}, Sphere{12});
  EXPECT_EQ(shell_count(zb, 5.65 * std::sqrt(3.0) / 4, "As"), 4u);
  // Perovskite ABX3: the B at (½,½,½)a has 6 X at a/2. In a cube of edge
  // 2a centred on an A site, in units of a/2 with indices in [−2, 2]: A has
  // all indices even (3³ = 27), B all odd (2³ = 8), X one even and two odd
  // (3 choices of the even axis × 3·2·2 = 36).
  LatticeOptions o;
  o.type = LatticeType::perovskite;
  o.a = 3.905;
  o.elements = {"Sr", "Ti", "O"};
  const UnitCellSpec cell = make_lattice(o);
  const Structure p = cut_crystal(cell, Cube{2 * 3.905});
  EXPECT_EQ(count_of(p, "Sr"), 27u);
  EXPECT_EQ(count_of(p, "Ti"), 8u);
  EXPECT_EQ(count_of(p, "O"), 36u);
  std::size_t octahedral = 0;
  const Vec3 b_site{3.905 / 2, 3.905 / 2, 3.905 / 2};
  for (const Atom& atom : p.atoms)
    if (atom.element == "O" && std::abs(norm(atom.position - b_site) - 3.905 / 2) < 1e-9) ++octahedral;
  EXPECT_EQ(octahedral, 6u);
}

TEST(StructureBuilder, CifUnitCellGivesTheSameParticleAsTheNamedLattice) {
  const Structure nacl = read_cif(NS_TEST_DATA_DIR "/debye-xansons-nacl/NaCl.cif");
  const Structure from_cif = cut_crystal(unit_cell_from_structure(nacl), Sphere{14});
  const Structure named = build(LatticeType::rocksalt, 5.62, {"Na1+", "Cl1-"}, Sphere{14});
  ASSERT_EQ(from_cif.atoms.size(), named.atoms.size());
  auto key = [](const Structure& s) {
    std::vector<std::tuple<long, long, long, std::string, int>> k;
    // Positions on a 1e-6 Å grid: both sides are exact lattice sums to rounding.
    for (const Atom& a : s.atoms)
      k.emplace_back(std::lround(a.position.x * 1e6), std::lround(a.position.y * 1e6),
                     std::lround(a.position.z * 1e6), a.element, a.charge);
    std::sort(k.begin(), k.end());
    return k;
  };
  EXPECT_EQ(key(from_cif), key(named));
  // A finite particle is no unit cell.
  EXPECT_THROW(unit_cell_from_structure(named), Error);
}

TEST(StructureBuilder, LatticeErrorsNameTheParameter) {
  auto field_of = [](LatticeOptions o) {
    try {
      make_lattice(o);
    } catch (const Error& e) {
      return e.where().field;
    }
    return std::string("(no error)");
  };
  LatticeOptions good;
  good.type = LatticeType::rocksalt;
  good.a = 4;
  good.elements = {"Na", "Cl"};
  EXPECT_EQ(field_of(good), "(no error)");
  LatticeOptions o = good;
  o.elements = {"Na"};
  EXPECT_EQ(field_of(o), "elements");
  o = good;
  o.elements = {"Na", "Qq"};
  EXPECT_EQ(field_of(o), "elements");
  o = good;
  o.a = -4;
  EXPECT_EQ(field_of(o), "a");
  o = good;
  o.a = NAN;
  EXPECT_EQ(field_of(o), "a");
  o = good;
  o.c = 5;
  EXPECT_EQ(field_of(o), "c");
  o = good;
  o.type = LatticeType::wurtzite;
  o.u = 1.5;
  EXPECT_EQ(field_of(o), "u");
  EXPECT_EQ(parse_lattice_type("FCC"), LatticeType::fcc);
  EXPECT_THROW(parse_lattice_type("fcx"), Error);
  for (const Shape& bad : {Shape{Sphere{-1}}, Shape{Sphere{NAN}}, Shape{Cube{0}}, Shape{Cuboid{1, 0, 1}},
                           Shape{Cylinder{1, -2}}, Shape{Octahedron{INFINITY}}})
    EXPECT_THROW(validate_shape(bad), Error);
}

TEST(StructureEnsemble, CopiesAreRotatedAndTranslated) {
  const Mat3 rz = rotation_zyz_degrees(90, 0, 0);
  const Vec3 x_to = rz * Vec3{1, 0, 0};
  EXPECT_NEAR(x_to.y, 1, 1e-15);  // Rz(90°) takes x to y
  const Vec3 z_to = rotation_zyz_degrees(0, 90, 0) * Vec3{0, 0, 1};
  EXPECT_NEAR(z_to.x, 1, 1e-15);  // Ry(90°) takes z to x
  // ZYZ composition: Rz(α)·Ry(β)·Rz(γ) applied to x for α=90, β=90, γ=90.
  const Vec3 composite = rotation_zyz_degrees(90, 90, 90) * Vec3{1, 0, 0};
  // Rz(90): x→y; Ry(90): y→y; Rz(90): y→−x.
  EXPECT_NEAR(composite.x, -1, 1e-15);

  Structure dimer;
  dimer.atoms = {Atom{"O", 0, {0, 0, 0}}, Atom{"O", 0, {1.2, 0, 0}}};
  const Structure e = make_ensemble(dimer, {Placement{{10, 0, 0}, Mat3::identity()}, Placement{{0, 20, 0}, rz}});
  ASSERT_EQ(e.atoms.size(), 4u);
  EXPECT_NEAR(e.atoms[1].position.x, 11.2, 1e-15);
  EXPECT_NEAR(e.atoms[3].position.x, 0, 1e-15);
  EXPECT_NEAR(e.atoms[3].position.y, 21.2, 1e-14);
  Mat3 mirror = Mat3::identity();
  mirror.row[2].z = -1;
  EXPECT_THROW(make_ensemble(dimer, {Placement{{0, 0, 0}, mirror}}), Error);
  Mat3 stretched = Mat3::identity();
  stretched.row[0].x = 1.01;
  EXPECT_THROW(make_ensemble(dimer, {Placement{{0, 0, 0}, stretched}}), Error);
}

TEST(StructureEnsemble, PlacementAndPlaneFiles) {
  test::TempDir dir("builder-files");
  const auto placements = (dir / "p.txt").string();
  std::ofstream(placements) << "# x y z alpha beta gamma\n0 0 0\n\n10 0 0  90 0 0  # rotated\n";
  const auto list = read_placements(placements);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_NEAR((list[1].rotation * Vec3{1, 0, 0}).y, 1, 1e-15);
  std::ofstream(placements) << "0 0 0\n1 2\n";
  try {
    read_placements(placements);
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().line, 2);
  }
  const auto planes = (dir / "planes.txt").string();
  std::ofstream(planes) << "1 0 0 5\n-1 0 0 5\n0 1 0 5\n0 -1 0 5\n0 0 1 5\n0 0 -1 abc\n";
  try {
    read_planes(planes);
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), planes + ":6: d: not a number 'abc'");
  }
}
