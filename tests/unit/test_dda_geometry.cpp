// DDA geometry: ADDA's discretisation of the built-in shapes, ADDA shape
// files (reading, errors, round trip) and the sizing rules (volume correction).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>

#include "nanoscatter/constants.hpp"
#include "nanoscatter/dda.hpp"
#include "nanoscatter/error.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

DdaShape shape(DdaShapeKind k, std::vector<double> p = {}) {
  DdaShape s;
  s.kind = k;
  s.params = std::move(p);
  return s;
}

using test::error_of;
}  // namespace

// ADDA's default run (sphere, grid 16) reports "Total number of occupied
// dipoles: 2176" in its log; the count is exact.
TEST(DdaGeometry, SphereGrid16MatchesAddaCount) {
  const DdaGeometry g = make_dda_shape(shape(DdaShapeKind::sphere), 16);
  EXPECT_EQ(g.box, (std::array<int, 3>{16, 16, 16}));
  EXPECT_EQ(g.size(), 2176u);
  EXPECT_TRUE(g.sym_r && g.sym_x && g.sym_y && g.sym_z);
}

// Independent count: lattice points (i − (n−1)/2)² + ... ≤ n²/4 counted with
// integer arithmetic ((2i+1−n)² + ... ≤ n²), no floating point at all.
TEST(DdaGeometry, SphereCountsEqualIntegerLatticeCount) {
  for (int n : {1, 2, 5, 16, 31, 32}) {
    std::size_t count = 0;
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const long a = 2 * i + 1 - n, b = 2 * j + 1 - n, c = 2 * k + 1 - n;
          if (a * a + b * b + c * c <= static_cast<long>(n) * n) ++count;
        }
    EXPECT_EQ(make_dda_shape(shape(DdaShapeKind::sphere), n).size(), count) << "grid " << n;
  }
}

// ADDA make_particle.c comment: "-grid 4 -shape ellipsoid 1 2.13" gives a
// 4x4x9 grid whose layers z = 0 and z = 8 are void.
TEST(DdaGeometry, EllipsoidBoxRoundingAsAdda) {
  const DdaGeometry g = make_dda_shape(shape(DdaShapeKind::ellipsoid, {1, 2.13}), 4);
  EXPECT_EQ(g.box, (std::array<int, 3>{4, 4, 9}));
  for (const auto& p : g.position) {
    EXPECT_NE(p[2], 0);
    EXPECT_NE(p[2], 8);
  }
  EXPECT_FALSE(make_dda_shape(shape(DdaShapeKind::ellipsoid, {1.5, 1}), 8).sym_r);
}

// Cube: every box point is inside; capsule and cylinder: box along z from h/d.
TEST(DdaGeometry, BoxCylinderCapsule) {
  EXPECT_EQ(make_dda_shape(shape(DdaShapeKind::box), 7).size(), 343u);
  const DdaGeometry cub = make_dda_shape(shape(DdaShapeKind::box, {2, 0.5}), 6);
  EXPECT_EQ(cub.box, (std::array<int, 3>{6, 12, 3}));
  EXPECT_EQ(cub.size(), 6u * 12 * 3);
  const DdaGeometry cyl = make_dda_shape(shape(DdaShapeKind::cylinder, {2}), 10);
  EXPECT_EQ(cyl.box, (std::array<int, 3>{10, 10, 20}));
  // a cylinder is a stack of identical discs: size = 20 × disc count
  std::size_t disc = 0;
  for (int j = 0; j < 10; ++j)
    for (int i = 0; i < 10; ++i) {
      const long a = 2 * i - 9, b = 2 * j - 9;
      if (a * a + b * b <= 100) ++disc;
    }
  EXPECT_EQ(cyl.size(), 20 * disc);
  const DdaGeometry cap = make_dda_shape(shape(DdaShapeKind::capsule, {1}), 10);
  EXPECT_EQ(cap.box, (std::array<int, 3>{10, 10, 20}));
  EXPECT_GT(cap.size(), make_dda_shape(shape(DdaShapeKind::sphere), 10).size() + 5 * disc);
  EXPECT_LT(cap.size(), cyl.size());
}

// Coated sphere: domain 1 the shell, domain 2 the core (ADDA order); the core
// is exactly the sphere of diameter ratio·grid.
TEST(DdaGeometry, CoatedDomains) {
  const DdaGeometry g = make_dda_shape(shape(DdaShapeKind::coated, {0.5}), 16);
  const DdaGeometry outer = make_dda_shape(shape(DdaShapeKind::sphere), 16);
  EXPECT_EQ(g.size(), outer.size());
  EXPECT_EQ(g.materials, 2);
  std::size_t core = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    const auto& p = g.position[i];
    const double r2 = std::pow(p[0] - 7.5, 2) + std::pow(p[1] - 7.5, 2) + std::pow(p[2] - 7.5, 2);
    EXPECT_EQ(g.material[i], r2 <= 16.0 ? 1 : 0);
    core += g.material[i];
  }
  EXPECT_GT(core, 200u);
  EXPECT_FALSE(make_dda_shape(shape(DdaShapeKind::coated, {0.5, 0.1, 0, 0}), 16).sym_r);
}

TEST(DdaGeometry, BadShapeParameters) {
  EXPECT_EQ(error_of([] { make_dda_shape(shape(DdaShapeKind::sphere), 0); }), "grid: must be ≥ 1, got 0");
  EXPECT_EQ(error_of([] { make_dda_shape(shape(DdaShapeKind::cylinder), 8); }),
            "shape: cylinder takes 1 parameter(s), got 0");
  EXPECT_EQ(error_of([] { make_dda_shape(shape(DdaShapeKind::coated, {1.5}), 8); }),
            "shape: inner/outer diameter ratio must lie in [0, 1], got 1.5");
  EXPECT_EQ(error_of([] { make_dda_shape(shape(DdaShapeKind::ellipsoid, {0.01, 1}), 8); }),
            "grid: the particle is too thin along y to be described by 8 dipoles along x; use a larger --grid");
}

TEST(DdaShapeFile, ReadsSingleAndMultiDomain) {
  test::TempDir dir("dda-shape");
  {
    std::ofstream f(dir / "one.geom");
    f << "#comment\n# box\n\n3 -1 5\n4 -1 5\n3 0 7\n";
  }
  const DdaGeometry g = read_adda_shape_file(dir / "one.geom");
  EXPECT_EQ(g.box, (std::array<int, 3>{2, 2, 3}));
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g.position[2], (std::array<std::uint16_t, 3>{0, 1, 2}));
  EXPECT_EQ(g.materials, 1);
  {
    std::ofstream f(dir / "two.geom");
    f << "#c\nNmat=2\n0 0 0 1\n1 0 0 2\n";
  }
  const DdaGeometry h = read_adda_shape_file(dir / "two.geom");
  EXPECT_EQ(h.materials, 2);
  EXPECT_EQ(h.material[1], 1);
}

TEST(DdaShapeFile, ErrorsNameFileLineField) {
  test::TempDir dir("dda-shape-err");
  auto write = [&](const char* name, const char* text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const std::string a = write("a.geom", "0 0 0\n1 x 0\n");
  EXPECT_EQ(error_of([&] { read_adda_shape_file(a); }), a + ":2: y: not an integer 'x'");
  const std::string b = write("b.geom", "0 0 0\n1 0\n");
  EXPECT_EQ(error_of([&] { read_adda_shape_file(b); }), b + ":2: z: expected 3 integers 'x y z', found 2 values");
  const std::string c = write("c.geom", "Nmat=2\n0 0 0 1\n0 0 0 2\n");
  EXPECT_EQ(error_of([&] { read_adda_shape_file(c); }), c + ":3: dipole: duplicate dipole at 0 0 0");
  const std::string d = write("d.geom", "Nmat=2\n0 0 0 0\n");
  EXPECT_EQ(error_of([&] { read_adda_shape_file(d); }), d + ":2: domain: domain number must lie in 1..255, got 0");
  const std::string e = write("e.geom", "# only comments\n");
  EXPECT_EQ(error_of([&] { read_adda_shape_file(e); }), e + ": no dipole positions found");
  EXPECT_EQ(error_of([&] { read_adda_shape_file(dir / "missing.geom"); }),
            (dir / "missing.geom").string() + ": cannot open the shape file");
}

TEST(DdaShapeFile, RoundTrip) {
  test::TempDir dir("dda-shape-rt");
  const DdaGeometry g = make_dda_shape(shape(DdaShapeKind::coated, {0.6}), 9);
  write_adda_shape_file(dir / "c.geom", g, "coated", RunRecord{"dda", "test", {}});
  const DdaGeometry h = read_adda_shape_file(dir / "c.geom");
  // positions are shifted to start at 0; the coated sphere touches every face
  EXPECT_EQ(h.box, g.box);
  EXPECT_EQ(h.position, g.position);
  EXPECT_EQ(h.material, g.material);
}

// Sizing rules of ADDA make_particle.c (volume correction on by default).
TEST(DdaSetup, VolumeCorrectionAndDefaults) {
  DdaOptions o;
  o.grid = {32};
  o.eq_rad = 5;
  const DdaSetup s = make_dda_setup(o);
  // N d³ = (4π/3) a³ exactly: the equivalent radius is the given one
  EXPECT_NEAR(s.a_eq, 5, 1e-12);
  EXPECT_NEAR(s.size_x, 10, 1e-12);
  EXPECT_EQ(s.fft_grid, (std::array<int, 3>{64, 64, 64}));
  EXPECT_EQ(s.ntheta, 361);  // box volume 32768 < 1e5
  EXPECT_EQ(s.maxiter, 3 * 32768);
  // --size: d = size (V_ratio/N)^{1/3}; without correction d = size/grid
  DdaOptions p;
  p.grid = {16};
  p.size = 3;
  const DdaSetup t = make_dda_setup(p);
  EXPECT_NEAR(t.dipole_size, 3 * std::cbrt(kPi / 6 / 2176), 1e-14);
  p.volume_correction = false;
  EXPECT_NEAR(make_dda_setup(p).dipole_size, 3.0 / 16, 1e-15);
  // no grid: ceil(size·dpl/λ) with dpl = 10|m| (and at least 16)
  DdaOptions q;
  q.size = 8;
  q.lambda = 1;
  q.m = {{1.5, 0}};
  EXPECT_EQ(make_dda_setup(q).geometry.box[0], 120);
  q.size = 0.5;
  EXPECT_EQ(make_dda_setup(q).geometry.box[0], 16);
  DdaOptions r;  // nothing given: grid 16, dpl 10|m|
  EXPECT_EQ(make_dda_setup(r).geometry.box[0], 16);
  EXPECT_NEAR(make_dda_setup(r).dpl, 15, 1e-12);
}

TEST(DdaSetup, BadOptions) {
  DdaOptions o;
  o.size = 1;
  o.eq_rad = 1;
  EXPECT_EQ(error_of([&] { make_dda_setup(o); }), "eq_rad: --size and --eq-rad cannot be used together");
  DdaOptions p;
  p.m = {{1.5, -0.1}};
  EXPECT_EQ(error_of([&] { make_dda_setup(p); }),
            "m: Im(m) must be ≥ 0 (absorbing media have Im(m) > 0), got -0.1");
  DdaOptions q;
  q.shape.kind = DdaShapeKind::coated;
  q.shape.params = {0.5};
  EXPECT_EQ(error_of([&] { make_dda_setup(q); }), "m: only 1 refractive indices are given; the shape has 2 domains");
  // every dipole of refractive index 1: nothing to solve for
  DdaOptions r;
  r.grid = {4};
  r.m = {{1, 0}};
  EXPECT_EQ(error_of([&] { DdaPlan plan(r); }), "m: refractive index 1 for all dipoles: the particle does not scatter");
}

// DdaOptions::validate holds the checks the CLI and Python once made
// themselves: an explicit 0 is an error, not "unset".
TEST(DdaSetup, ValidateNamesTheOption) {
  const auto error_for = [](auto change) {
    DdaOptions o;
    change(o);
    return error_of([&] { o.validate(); });
  };
  EXPECT_EQ(error_for([](DdaOptions& o) { o.grid = {8, 8}; }), "grid: expected 1 or 3 values, got 2");
  EXPECT_EQ(error_for([](DdaOptions& o) { o.grid = {8, 0, 8}; }), "grid: must be ≥ 1, got 0");
  EXPECT_EQ(error_for([](DdaOptions& o) { o.size = 0.0; }), "size: must be > 0, got 0");
  EXPECT_EQ(error_for([](DdaOptions& o) { o.maxiter = 0; }), "maxiter: must be ≥ 1, got 0");
  EXPECT_EQ(error_for([](DdaOptions& o) { o.compute.threads = -1; }), "threads: must be ≥ 0 (0: all cores), got -1");
  EXPECT_EQ(error_of([] { parse_dda_symmetry("yes"); }), "sym: expected auto or no, got 'yes'");
  EXPECT_EQ(error_of([] { parse_dda_shape_spec({"sphere"}, "f.geom"); }), "shape_file: give either --shape or --shape-file");
  EXPECT_EQ(error_of([] { parse_dda_shape_spec({"ellipsoid", "1", "x"}, ""); }), "shape: not a number 'x'");
  EXPECT_EQ(error_of([] { parse_dda_shape_spec({"read"}, ""); }), "shape: 'read' takes one file name");
  const DdaShape e = parse_dda_shape_spec({"ellipsoid", "0.8", "1.3"}, "");
  EXPECT_EQ(e.kind, DdaShapeKind::ellipsoid);
  EXPECT_EQ(e.params, (std::vector<double>{0.8, 1.3}));
  EXPECT_EQ(parse_dda_shape_spec({}, "").kind, DdaShapeKind::sphere);
  EXPECT_EQ(parse_dda_shape_spec({}, "f.geom").file, "f.geom");
}
