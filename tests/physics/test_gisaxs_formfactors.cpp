// Form factors F(q) = ∫ exp(i q·r) d³r of the gisaxs shapes against
// independent references: brute-force quadrature of the defining integral,
// mpmath evaluations in 40 digits, Monte-Carlo integration, closed forms of
// degenerate cases, and the shapes' symmetries.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>

#include "nanoscatter/constants.hpp"
#include "test_gisaxs_support.hpp"

namespace nanoscatter::gisaxs {
namespace {

// "1.23e-14" for RecordProperty (std::to_string prints fixed-point zeros).
std::string scientific(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", v);
  return buf;
}

using test::rel_error;

// Wavevectors over a range of sizes and directions, real and complex (the
// imaginary part as inside an absorbing layer).
std::vector<CVec3> sample_q(double max_size, int n, unsigned seed, double imag_fraction = 0.0) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> gauss;
  std::uniform_real_distribution<double> log_size(std::log(1e-3), std::log(max_size));
  std::vector<CVec3> qs;
  for (int i = 0; i < n; ++i) {
    Vec3 d{gauss(rng), gauss(rng), gauss(rng)};
    d = d / norm(d) * std::exp(log_size(rng));
    Vec3 e{gauss(rng), gauss(rng), gauss(rng)};
    e = e * (imag_fraction * norm(d) / norm(e));
    qs.push_back({Complex(d.x, e.x), Complex(d.y, e.y), Complex(d.z, e.z)});
  }
  return qs;
}

Complex eval(const FormFactor& f, const CVec3& q) { return f.evaluate(q); }

// ---- analytic shapes against quadrature of the defining integral ----------
// Tolerance 1e-11: the quadratures (96 × 64 × 96 nodes, |q| R ≤ 8) converge
// to ~1e-14; the rest is their rounding over 6e5 terms.

TEST(GisaxsFormFactors, SphereAgainstQuadrature) {
  const double r = 4;
  auto ff = make_sphere(r);
  for (const CVec3& q : sample_q(2.0, 12, 1, 0.05)) {
    const Complex ref = test::revolution_quadrature(q, 0, 2 * r, [&](double z) {
      return std::sqrt(std::max(0.0, r * r - (z - r) * (z - r)));
    });
    EXPECT_LT(rel_error(eval(*ff, q), ref), 1e-11) << q.x << q.y << q.z;
  }
  EXPECT_NEAR(ff->volume(), 4.0 / 3 * std::numbers::pi * 64, 1e-12);
}

TEST(GisaxsFormFactors, CylinderAgainstQuadrature) {
  const double r = 5, h = 7;
  auto ff = make_cylinder(r, h);
  for (const CVec3& q : sample_q(1.5, 12, 2, 0.05)) {
    const Complex ref = test::revolution_quadrature(q, 0, h, [&](double) { return r; });
    EXPECT_LT(rel_error(eval(*ff, q), ref), 1e-11);
  }
}

TEST(GisaxsFormFactors, SpheroidAgainstQuadrature) {
  const double r = 3, h = 10;
  auto ff = make_spheroid(r, h);
  for (const CVec3& q : sample_q(1.5, 12, 3, 0.05)) {
    const Complex ref = test::revolution_quadrature(q, 0, h, [&](double z) {
      const double u = (z - h / 2) / (h / 2);
      return r * std::sqrt(std::max(0.0, 1 - u * u));
    });
    EXPECT_LT(rel_error(eval(*ff, q), ref), 1e-11);
  }
}

TEST(GisaxsFormFactors, TruncatedSphereAgainstQuadrature) {
  const double r = 5, h = 7, dh = 1.5;
  auto ff = make_truncated_sphere(r, h, dh);
  for (const CVec3& q : sample_q(1.5, 12, 4, 0.05)) {
    const Complex ref = test::revolution_quadrature(q, 0, h - dh, [&](double z) {
      const double dz = z - (h - r);
      return std::sqrt(std::max(0.0, r * r - dz * dz));
    });
    EXPECT_LT(rel_error(eval(*ff, q), ref), 1e-11);
  }
  EXPECT_NEAR(ff->volume(), std::numbers::pi / 3 * (h * h * (3 * r - h) - dh * dh * (3 * r - dh)), 1e-12);
}

TEST(GisaxsFormFactors, ConeAgainstQuadrature) {
  const double r = 5, h = 6, alpha = 65 * kDegree;
  auto ff = make_cone(r, h, alpha);
  for (const CVec3& q : sample_q(1.5, 12, 5, 0.05)) {
    const Complex ref =
        test::revolution_quadrature(q, 0, h, [&](double z) { return r - z / std::tan(alpha); });
    EXPECT_LT(rel_error(eval(*ff, q), ref), 1e-11);
  }
}

TEST(GisaxsFormFactors, BoxAgainstQuadrature) {
  const double a = 4, b = 6, c = 3;
  auto ff = make_box(a, b, c);
  const GaussRule& g = gauss_legendre(32);
  for (const CVec3& q : sample_q(3.0, 12, 6, 0.05)) {
    auto line = [&](Complex k, double lo, double hi) {
      Complex s = 0;
      for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const double x = 0.5 * (lo + hi) + 0.5 * (hi - lo) * g.nodes[i];
        s += g.weights[i] * 0.5 * (hi - lo) * std::exp(Complex(0, 1) * k * x);
      }
      return s;
    };
    const Complex ref = line(q.x, -a / 2, a / 2) * line(q.y, -b / 2, b / 2) * line(q.z, 0, c);
    EXPECT_LT(rel_error(eval(*ff, q), ref), 1e-12);
  }
}

TEST(GisaxsFormFactors, PrismAndPyramidAgainstTetrahedralQuadrature) {
  // A convex polyhedron is a fan of tetrahedra from an interior point over
  // its (fan-triangulated) faces; the Duffy rule on each (48³ nodes,
  // |q| L ≤ 12) converges to ~1e-14. 1e-12 leaves room for rounding.
  struct Case {
    std::unique_ptr<FormFactor> ff;
    std::vector<Vec3> v;
    std::vector<std::vector<int>> faces;
  };
  std::vector<Case> cases;
  {
    const double a = 8, h = 5, hi = a / (2 * std::sqrt(3.0)), ho = a / std::sqrt(3.0);
    cases.push_back({make_prism3(a, h),
                     {{-hi, a / 2, 0}, {-hi, -a / 2, 0}, {ho, 0, 0}, {-hi, a / 2, h}, {-hi, -a / 2, h}, {ho, 0, h}},
                     {{0, 1, 2}, {3, 4, 5}, {0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}}});
  }
  {
    const double a = 6, h = 4, t = a / 2 - h / std::tan(60 * kDegree);
    cases.push_back({make_pyramid(a, h, 60 * kDegree),
                     {{-a / 2, -a / 2, 0}, {a / 2, -a / 2, 0}, {a / 2, a / 2, 0}, {-a / 2, a / 2, 0},
                      {-t, -t, h}, {t, -t, h}, {t, t, h}, {-t, t, h}},
                     {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}});
  }
  for (const Case& c : cases) {
    Vec3 centre;
    for (const Vec3& p : c.v) centre += p;
    centre = centre / double(c.v.size());
    for (const CVec3& q : sample_q(1.5, 5, 7, 0.05)) {
      Complex ref = 0;
      for (const auto& f : c.faces)
        for (std::size_t i = 1; i + 1 < f.size(); ++i)
          ref += test::tetrahedron_quadrature(q, centre, c.v[f[0]], c.v[f[i]], c.v[f[i + 1]]);
      EXPECT_LT(rel_error(c.ff->evaluate(q), ref), 1e-12) << c.ff->describe();
    }
  }
}

TEST(GisaxsFormFactors, TetrahedronAgainstDuffyQuadrature) {
  const Vec3 v0{0, 0, 0}, v1{6, 0, 0}, v2{1, 5, 0}, v3{2, 1, 4};
  auto ff = Polyhedron::convex_hull({v0, v1, v2, v3});
  EXPECT_NEAR(ff->volume(), 20.0, 1e-13);
  for (const CVec3& q : sample_q(2.0, 10, 8, 0.05)) {
    const Complex ref = test::tetrahedron_quadrature(q, v0, v1, v2, v3);
    // 1e-12: 48³-node Duffy rule converges to ~1e-15 for |q| L ≤ 14.
    EXPECT_LT(rel_error(eval(*ff, q), ref), 1e-12);
  }
}

TEST(GisaxsFormFactors, TetrahedronAgainstMonteCarlo) {
  // Plain Monte Carlo over the bounding box: F ≈ V_box ⟨1_inside exp(i q·r)⟩.
  // The tolerance is 5 standard errors of the estimate, computed from the
  // sample itself (σ/√N per component), so a correct form factor fails this
  // with probability ~1e-6.
  const Vec3 v0{0, 0, 0}, v1{6, 0, 0}, v2{1, 5, 0}, v3{2, 1, 4};
  auto ff = Polyhedron::convex_hull({v0, v1, v2, v3});
  const Vec3 a = v1 - v0, b = v2 - v0, c = v3 - v0;
  const double det = dot(a, cross(b, c));
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> ux(0, 6), uy(0, 5), uz(0, 4);
  const double box = 6 * 5 * 4;
  const int n = 2'000'000;
  for (const CVec3 q : {CVec3{0.3, -0.2, 0.5}, CVec3{1.0, 0.4, -0.7}, CVec3{Complex(0.2, 0.01), 0.1, Complex(0.6, -0.02)}}) {
    double sr = 0, si = 0, sr2 = 0, si2 = 0;
    for (int i = 0; i < n; ++i) {
      const Vec3 p{ux(rng), uy(rng), uz(rng)};
      // Barycentric coordinates by Cramer's rule.
      const double l1 = dot(p, cross(b, c)) / det, l2 = dot(a, cross(p, c)) / det, l3 = dot(a, cross(b, p)) / det;
      if (l1 < 0 || l2 < 0 || l3 < 0 || l1 + l2 + l3 > 1) continue;
      const Complex e = std::exp(Complex(0, 1) * dot(q, p));
      sr += e.real();
      si += e.imag();
      sr2 += e.real() * e.real();
      si2 += e.imag() * e.imag();
    }
    const Complex estimate = box * Complex(sr, si) / double(n);
    const double se_r = box * std::sqrt((sr2 / n - (sr / n) * (sr / n)) / n);
    const double se_i = box * std::sqrt((si2 / n - (si / n) * (si / n)) / n);
    const Complex f = ff->evaluate(q);
    EXPECT_LT(std::abs(f.real() - estimate.real()), 5 * se_r) << "q = " << q.x << q.y << q.z;
    EXPECT_LT(std::abs(f.imag() - estimate.imag()), 5 * se_i);
    EXPECT_LT(se_r, 0.1);  // the test has power: |F| ~ 10, standard error ≤ 1 %
  }
}

// ---- the general polyhedron against mpmath and against the box --------------

TEST(GisaxsFormFactors, PolyhedronAgainstMpmathFrom1em8To1e2) {
  // mpmath evaluates the exact face/edge formula in 40 digits, where its
  // cancellations at small q cost nothing. 2e-13: the double-precision
  // series and face sums keep ~13 digits over the whole range.
  struct Shape {
    std::string tag;
    std::unique_ptr<Polyhedron> ff;
  };
  std::vector<Shape> shapes;
  std::vector<Vec3> box;
  for (double x : {0.0, 4.0})
    for (double y : {0.0, 6.0})
      for (double z : {0.0, 3.0}) box.push_back({x, y, z});
  shapes.push_back({"poly_box", Polyhedron::convex_hull(box)});
  shapes.push_back({"poly_tetrahedron", Polyhedron::convex_hull({{0, 0, 0}, {6, 0, 0}, {1, 5, 0}, {2, 1, 4}})});
  double worst = 0;
  for (const Shape& s : shapes) {
    const auto lines = test::read_reference(s.tag);
    ASSERT_GE(lines.size(), 90u);
    for (const auto& l : lines) {
      const CVec3 q{{l.values[0], l.values[1]}, {l.values[2], l.values[3]}, {l.values[4], l.values[5]}};
      const Complex ref(l.values[6], l.values[7]);
      const double e = rel_error(s.ff->evaluate(q), ref);
      worst = std::max(worst, e);
      EXPECT_LT(e, 2e-13) << s.tag << " |q| = " << magnitude(q);
    }
  }
  RecordProperty("worst_relative_error", scientific(worst));
}

TEST(GisaxsFormFactors, PolyhedronBoxEqualsBoxClosedForm) {
  // The acceptance bound 1e-10, over |q| from 1e-8 to 1e2 in random
  // directions, real and complex.
  const double a = 4, b = 6, c = 3;
  auto closed = make_box(a, b, c);
  std::vector<Vec3> corners;
  for (double x : {-a / 2, a / 2})
    for (double y : {-b / 2, b / 2})
      for (double z : {0.0, c}) corners.push_back({x, y, z});
  auto poly = Polyhedron::convex_hull(corners);
  EXPECT_EQ(poly->face_count(), 6u);
  std::mt19937_64 rng(99);
  std::normal_distribution<double> gauss;
  double worst = 0;
  for (int decade = -8; decade <= 2; ++decade) {
    for (int i = 0; i < 40; ++i) {
      const double size = std::pow(10.0, decade + std::uniform_real_distribution<double>(0, 1)(rng));
      Vec3 d{gauss(rng), gauss(rng), gauss(rng)};
      d = d / norm(d) * size;
      // Every fourth q exactly along an axis or in a coordinate plane (q
      // parallel to faces, or normal to them).
      if (i % 4 == 1) d = {size, 0, 0};
      if (i % 4 == 2) d = {0, size * 0.6, size * 0.8};
      const double im = (i % 3 == 0) ? 0.0 : 0.01 * size;
      const CVec3 q{Complex(d.x, im), Complex(d.y, -im), Complex(d.z, im)};
      const double e = rel_error(poly->evaluate(q), closed->evaluate(q));
      worst = std::max(worst, e);
      EXPECT_LT(e, 1e-10) << "q = " << d.x << " " << d.y << " " << d.z;
    }
  }
  RecordProperty("worst_relative_error", scientific(worst));
}

// ---- precision over the q range for the closed forms -----------------------

TEST(GisaxsFormFactors, SmallQLimitsAreTheVolumes) {
  // At |q| = 1e-8 nm⁻¹ every shape must give |F| = its volume to 1e-13 (the
  // first correction is O(q² R²) ~ 1e-15).
  const CVec3 q{1e-8, -0.6e-8, 0.3e-8};
  for (const auto& info : shape_catalogue()) {
    if (info.has_core) continue;
    std::vector<double> p;
    for (const auto& sp : info.parameters) p.push_back(sp.kind == ParameterKind::angle ? 70 * kDegree : 5.0);
    if (info.name == "truncated_sphere") p = {5, 7, 1};
    if (info.name == "tetrahedron") p = {12, 3, 70 * kDegree};
    if (info.name == "pyramid") p = {10, 4, 70 * kDegree};
    const auto comps = info.build(p);
    const FormFactor& f = *comps.front().form_factor;
    // |F|: F itself carries the phase exp(i q·r_c) of the shape's centre.
    EXPECT_LT(std::abs(std::abs(f.evaluate(q)) - f.volume()) / f.volume(), 1e-13) << info.name;
  }
}

// ---- degenerate shapes equal simpler ones ----------------------------------

TEST(GisaxsFormFactors, DegenerateShapesEqualSimplerOnes) {
  // 1e-12: two correct evaluations of the same integral by different routes.
  struct Pair {
    std::unique_ptr<FormFactor> a, b;
  };
  std::vector<Pair> pairs;
  pairs.push_back({make_cone(4, 6, 90 * kDegree), make_cylinder(4, 6)});
  pairs.push_back({make_truncated_sphere(4, 8, 0), make_sphere(4)});
  pairs.push_back({make_spheroid(4, 8), make_sphere(4)});
  pairs.push_back({make_pyramid(6, 3, 90 * kDegree), make_box(6, 6, 3)});
  pairs.push_back({make_tetrahedron(8, 3, 90 * kDegree), make_prism3(8, 3)});
  {
    const double a = 8, h = 3, hi = a / (2 * std::sqrt(3.0)), ho = a / std::sqrt(3.0);
    pairs.push_back({Polyhedron::convex_hull({{-hi, a / 2, 0}, {-hi, -a / 2, 0}, {ho, 0, 0}, {-hi, a / 2, h},
                                              {-hi, -a / 2, h}, {ho, 0, h}}),
                     make_prism3(a, h)});
  }
  for (const Pair& p : pairs)
    for (const CVec3& q : sample_q(5.0, 30, 11, 0.02))
      EXPECT_LT(rel_error(p.a->evaluate(q), p.b->evaluate(q)), 1e-12) << p.a->describe() << " vs " << p.b->describe();
}

TEST(GisaxsFormFactors, IntegratedShapesHoldPrecisionUpTo100PerNm) {
  // The height-integrated shapes against their closed-form degenerate cases
  // for |q| from 1e-8 to 1e2 nm⁻¹ (|q| R up to 500), real and complex. The
  // quadrature's error is ~1e-16 of ∫|integrand| ≈ V while |F| falls like
  // V/(qR)²: 1e-10 relative (the worst case, at |q| = 100, exceeds 1e-11), plus
  // 1e-16 V absolute near zeros of F.
  auto sphere = make_sphere(5), cylinder = make_cylinder(4, 6);
  auto truncated = make_truncated_sphere(5, 10, 0), cone = make_cone(4, 6, 90 * kDegree);
  std::mt19937_64 rng(23);
  std::normal_distribution<double> gauss;
  for (int decade = -8; decade <= 2; ++decade)
    for (int i = 0; i < 6; ++i) {
      const double size = std::pow(10.0, decade);
      Vec3 d{gauss(rng), gauss(rng), gauss(rng)};
      d = d / norm(d) * size;
      const double im = (i % 2) * 0.01 * size;
      const CVec3 q{Complex(d.x, im), Complex(d.y, 0), Complex(d.z, -im)};
      for (const auto& [a, b] : {std::pair{truncated.get(), sphere.get()}, std::pair{cone.get(), cylinder.get()}}) {
        const Complex ref = b->evaluate(q);
        EXPECT_LT(std::abs(a->evaluate(q) - ref), 1e-10 * std::abs(ref) + 1e-16 * b->volume())
            << a->describe() << " |q| = " << size;
      }
    }
}

// ---- symmetries: F(R q) = F(q) ----------------------------------------------

Mat3 rot_z(double a) {
  Mat3 m;
  m.row = {Vec3{std::cos(a), -std::sin(a), 0}, Vec3{std::sin(a), std::cos(a), 0}, Vec3{0, 0, 1}};
  return m;
}

TEST(GisaxsFormFactors, SymmetriesAboutTheZAxis) {
  struct Case {
    std::unique_ptr<FormFactor> ff;
    double angle;  // a symmetry rotation about z
    bool mirror_y;  // y → −y is a symmetry too
  };
  std::vector<Case> cases;
  cases.push_back({make_cylinder(4, 5), 37 * kDegree, true});
  cases.push_back({make_cone(4, 5, 70 * kDegree), 53 * kDegree, true});
  cases.push_back({make_truncated_sphere(4, 6, 1), 11 * kDegree, true});
  cases.push_back({make_box(4, 6, 3), 180 * kDegree, true});
  cases.push_back({make_prism3(8, 3), 120 * kDegree, true});
  cases.push_back({make_prism6(4, 3), 60 * kDegree, true});
  cases.push_back({make_pyramid(8, 3, 60 * kDegree), 90 * kDegree, true});
  cases.push_back({make_tetrahedron(10, 3, 60 * kDegree), 120 * kDegree, true});
  cases.push_back({make_icosahedron(5), 120 * kDegree, true});
  Mat3 mirror;
  mirror.row = {Vec3{1, 0, 0}, Vec3{0, -1, 0}, Vec3{0, 0, 1}};
  for (const Case& c : cases) {
    for (const CVec3& q : sample_q(10.0, 40, 13, 0.02)) {
      const Complex f = c.ff->evaluate(q);
      // 1e-12 relative to |F|, plus 1e-12 V where F passes near a zero.
      const double tol = 1e-12 * std::abs(f) + 1e-12 * c.ff->volume();
      EXPECT_NEAR(std::abs(c.ff->evaluate(rot_z(c.angle) * q) - f), 0.0, tol) << c.ff->describe();
      if (c.mirror_y) {
        EXPECT_NEAR(std::abs(c.ff->evaluate(mirror * q) - f), 0.0, tol) << c.ff->describe();
      }
    }
  }
}

TEST(GisaxsFormFactors, IcosahedronTwofoldAxisThroughItsCentre) {
  // A 180° turn about the y axis through the centre (height z_c) maps the
  // icosahedron onto itself: F(Rq) exp(−i (Rq)_z z_c) = F(q) exp(−i q_z z_c).
  const double edge = 5;
  auto ff = make_icosahedron(edge);
  const double zc = edge * std::numbers::phi * std::numbers::phi / (2 * std::sqrt(3.0));
  Mat3 r;
  r.row = {Vec3{-1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, -1}};
  EXPECT_NEAR(ff->extent().hi.z, 2 * zc, 1e-12);
  for (const CVec3& q : sample_q(10.0, 40, 17, 0.02)) {
    const CVec3 rq = r * q;
    const Complex a = ff->evaluate(rq) * exp_i(-rq.z * zc), b = ff->evaluate(q) * exp_i(-q.z * zc);
    EXPECT_NEAR(std::abs(a - b), 0.0, 1e-12 * std::abs(b) + 1e-12 * ff->volume()) << q.x << q.y << q.z;
  }
  // Volume of the regular icosahedron: 5 (3 + √5) L³/12.
  EXPECT_NEAR(ff->volume(), 5 * (3 + std::sqrt(5.0)) * edge * edge * edge / 12, 1e-11);
}

// ---- large |q| and complex q for the closed forms ----------------------------

TEST(GisaxsFormFactors, LargeQAgainstMpmathFactors) {
  // At |q| = 100 nm⁻¹ (|q| R = 500) the sphere and cylinder must still match
  // their mpmath-evaluated factors to 1e-13 (no quadrature involved).
  const double r = 5, h = 4;
  for (const auto& l : test::read_reference("sphere_amp")) {
    const Complex x(l.values[0], l.values[1]), ref(l.values[2], l.values[3]);
    const CVec3 q{0, 0, x / r};  // q along z: x = q R
    const Complex expected = 4.0 / 3 * std::numbers::pi * r * r * r * ref * exp_i(q.z * r);
    EXPECT_LT(rel_error(make_sphere(r)->evaluate(q), expected), 1e-13) << x;
  }
  for (const auto& l : test::read_reference("j1c")) {
    const Complex z(l.values[0], l.values[1]), ref(l.values[2], l.values[3]);
    const CVec3 q{z / r, 0, 0.3};
    const Complex expected = 2 * std::numbers::pi * r * r * h * ref * sinc(0.15 * h) * exp_i(0.15 * h);
    // As in the special-function test: 2e-14 relative plus 1e-16 absolute in
    // J1(x)/x (near its zeros), scaled by the prefactor 2πR²H.
    EXPECT_LT(std::abs(make_cylinder(r, h)->evaluate(q) - expected),
              2e-14 * std::abs(expected) + 1e-16 * 2 * std::numbers::pi * r * r * h)
        << z;
  }
}

TEST(GisaxsFormFactors, ParametersOutOfRangeNameTheParameter) {
  auto field_of = [](auto&& make) -> std::string {
    try {
      make();
    } catch (const Error& e) {
      return e.where().field;
    }
    return "no error";
  };
  EXPECT_EQ(field_of([] { return make_sphere(-1); }), "radius");
  EXPECT_EQ(field_of([] { return make_cylinder(1, 0); }), "height");
  EXPECT_EQ(field_of([] { return make_truncated_sphere(2, 5, 0); }), "height");
  EXPECT_EQ(field_of([] { return make_truncated_sphere(2, 3, 3); }), "removed_top");
  EXPECT_EQ(field_of([] { return make_cone(2, 5, 45 * kDegree); }), "height");
  EXPECT_EQ(field_of([] { return make_cone(2, 1, 95 * kDegree); }), "alpha");
  EXPECT_EQ(field_of([] { return make_pyramid(4, 3, 45 * kDegree); }), "height");
  EXPECT_EQ(field_of([] { return make_tetrahedron(4, 3, 45 * kDegree); }), "height");
  EXPECT_EQ(field_of([] { return make_icosahedron(std::nan("")); }), "edge");
  EXPECT_EQ(field_of([] { return make_box(1, -2, 1); }), "width");
}

TEST(GisaxsFormFactors, PolyhedronRejectsOpenOrInvertedSurfaces) {
  const std::vector<Vec3> v{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  // Outward counter-clockwise faces of the unit tetrahedron.
  const std::vector<std::vector<int>> good{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  EXPECT_NEAR(Polyhedron(v, good).volume(), 1.0 / 6, 1e-15);
  std::vector<std::vector<int>> inverted;
  for (auto f : good) inverted.push_back({f[0], f[2], f[1]});
  EXPECT_THROW(Polyhedron(v, inverted), Error);
  EXPECT_THROW(Polyhedron(v, {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}}), Error);        // open
  EXPECT_THROW(Polyhedron(v, {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 3, 2}}), Error);  // one face flipped
}

}  // namespace
}  // namespace nanoscatter::gisaxs
