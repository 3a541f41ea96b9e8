// pattern2d geometry: detector grids on the Ewald sphere, the small-angle
// limit, beam frames and the validation messages.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/constants.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/pattern2d.hpp"

using namespace nanoscatter;

namespace {

Pattern2DGeometry polar(double wavelength, double qmax, int nq, int nphi, bool curvature = true) {
  Pattern2DGeometry g;
  g.wavelength = wavelength;
  g.detector = PolarDetector{qmax, nq, nphi};
  g.curvature = curvature;
  return g;
}

std::string error_of(const Pattern2DGeometry& g) {
  try {
    validate_geometry(g);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// Every pixel of the polar grid lies on the Ewald sphere |k_i + q| = k with
// the ring's |q| and the column's azimuth. Tolerance 1e-12 relative: only
// float64 rounding of a few operations separates the two sides.
TEST(Pattern2DGeometry, PolarPixelsLieOnTheEwaldSphere) {
  const double lambda = 1.3, k = 2 * kPi / lambda;
  const auto grid = make_detector_grid(polar(lambda, 9.0, 31, 24));
  ASSERT_EQ(grid.rows, 31u);
  ASSERT_EQ(grid.cols, 24u);
  EXPECT_DOUBLE_EQ(grid.row_axis.back(), 9.0);
  EXPECT_DOUBLE_EQ(grid.col_axis[6], 90.0);
  for (std::size_t i = 0; i < grid.rows; ++i)
    for (std::size_t j = 0; j < grid.cols; ++j) {
      const Vec3 q = grid.q[i * grid.cols + j];
      const double qm = grid.row_axis[i];
      EXPECT_NEAR(norm(q), qm, 1e-12 * k);
      EXPECT_NEAR(norm(q + Vec3{0, 0, k}), k, 1e-12 * k);  // |k_f| = k
      if (qm > 0) {
        const double phi = std::atan2(q.y, q.x);
        EXPECT_NEAR(std::remainder(phi - grid.col_axis[j] * kPi / 180, 2 * kPi), 0.0, 1e-12);
        // 2θ = 2 asin(|q|/2k): the angle between k_f and the beam.
        const double two_theta = std::acos((q.z + k) / k);
        EXPECT_NEAR(two_theta, 2 * std::asin(qm / (2 * k)), 1e-7);  // acos near 0 loses digits
      }
    }
}

TEST(Pattern2DGeometry, NoCurvaturePutsQInTheDetectorPlane) {
  const auto grid = make_detector_grid(polar(1.0, 5.0, 11, 8, false));
  for (std::size_t i = 0; i < grid.rows; ++i)
    for (std::size_t j = 0; j < grid.cols; ++j) {
      const Vec3 q = grid.q[i * grid.cols + j];
      EXPECT_EQ(q.z, 0.0);
      EXPECT_NEAR(norm(q), grid.row_axis[i], 1e-14 * 5);
    }
  // φ = 45°: q along (1, 1, 0)/√2.
  const Vec3 q = grid.q[10 * grid.cols + 1];
  EXPECT_NEAR(q.x, 5.0 / std::sqrt(2.0), 1e-14);
  EXPECT_NEAR(q.y, 5.0 / std::sqrt(2.0), 1e-14);
}

TEST(Pattern2DGeometry, SingleRingIsAtQmax) {
  const auto grid = make_detector_grid(polar(1.0, 3.0, 1, 4));
  ASSERT_EQ(grid.rows, 1u);
  EXPECT_NEAR(norm(grid.q[0]), 3.0, 1e-14);
}

// Flat detector: k_f points at the pixel centre, |k_f| = k, and the pixel at
// the beam centre has q = 0. Tolerance 1e-12 relative (float64 rounding).
TEST(Pattern2DGeometry, FlatPixelsPointAtTheirCentres) {
  Pattern2DGeometry g;
  g.wavelength = 0.7;
  const double k = 2 * kPi / g.wavelength;
  g.detector = FlatDetector{200.0, 0.172, 9, 7, std::array<double, 2>{3.0, 2.5}};
  const auto grid = make_detector_grid(g);
  ASSERT_EQ(grid.rows, 7u);
  ASSERT_EQ(grid.cols, 9u);
  EXPECT_DOUBLE_EQ(grid.col_axis[3], 0.0);
  EXPECT_DOUBLE_EQ(grid.row_axis[0], -2.5 * 0.172);
  for (std::size_t iy = 0; iy < grid.rows; ++iy)
    for (std::size_t ix = 0; ix < grid.cols; ++ix) {
      const Vec3 kf = grid.q[iy * grid.cols + ix] + Vec3{0, 0, k};
      EXPECT_NEAR(norm(kf), k, 1e-12 * k);
      const Vec3 pixel{grid.col_axis[ix], grid.row_axis[iy], 200.0};
      EXPECT_NEAR(norm(cross(kf / k, pixel / norm(pixel))), 0.0, 1e-12);
    }
  // Default beam centre: the middle; the middle pixel of an odd detector has q = 0.
  g.detector = FlatDetector{100.0, 0.1, 5, 5, std::nullopt};
  EXPECT_NEAR(norm(make_detector_grid(g).q[12]), 0.0, 1e-15);
}

// Without curvature a flat pixel keeps the |q| of its Ewald point and its
// azimuth, and loses q_z.
TEST(Pattern2DGeometry, FlatNoCurvatureKeepsMagnitudeAndAzimuth) {
  Pattern2DGeometry g;
  g.wavelength = 1.0;
  g.detector = FlatDetector{50.0, 1.0, 16, 12, std::nullopt};
  const auto curved = make_detector_grid(g);
  g.curvature = false;
  const auto planar = make_detector_grid(g);
  for (std::size_t p = 0; p < curved.q.size(); ++p) {
    EXPECT_EQ(planar.q[p].z, 0.0);
    EXPECT_NEAR(norm(planar.q[p]), norm(curved.q[p]), 1e-12 * norm(curved.q[p]));
    EXPECT_NEAR(std::atan2(planar.q[p].y, planar.q[p].x), std::atan2(curved.q[p].y, curved.q[p].x), 1e-12);
  }
}

// The beam frame is a proper rotation taking +z onto the beam, and the grid
// of a tilted beam is the +z grid rotated by it (so |k_f| = k about the new
// incident wave vector).
TEST(Pattern2DGeometry, BeamFrameRotatesTheGrid) {
  for (const Vec3 beam : {Vec3{0, 0, 1}, Vec3{0, 0, -2}, Vec3{1, 0, 0}, Vec3{0.3, -0.4, 0.5}, Vec3{0, 1e-9, -1}}) {
    const Mat3 r = beam_frame(beam);
    const Vec3 b = beam / norm(beam);
    EXPECT_NEAR(norm(r * Vec3{0, 0, 1} - b), 0.0, 1e-12);
    EXPECT_NEAR(determinant(r), 1.0, 1e-12);
    const Mat3 rtr = transpose(r) * r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(rtr.row[i][j], i == j ? 1.0 : 0.0, 1e-12);
    auto g = polar(1.0, 4.0, 5, 6);
    g.beam_direction = beam;
    const double k = 2 * kPi;
    for (const Vec3& q : make_detector_grid(g).q) EXPECT_NEAR(norm(q + k * b), k, 1e-12 * k);
  }
}

TEST(Pattern2DGeometry, BadInputNamesTheOption) {
  EXPECT_EQ(error_of(polar(1.0, 4.0, 0, 8)), "nq: must be at least 1, got 0");
  EXPECT_EQ(error_of(polar(1.0, 4.0, 8, -1)), "nphi: must be at least 1, got -1");
  EXPECT_EQ(error_of(polar(0.0, 4.0, 8, 8)), "wavelength: wavelength (Å) must be positive and finite, got 0");
  EXPECT_EQ(error_of(polar(-1.0, 4.0, 8, 8)), "wavelength: wavelength (Å) must be positive and finite, got -1");
  EXPECT_EQ(error_of(polar(1.0, -4.0, 8, 8)), "qmax: qmax (Å⁻¹) must be positive and finite, got -4");
  // 2k = 4π/λ = 12.566 Å⁻¹ for λ = 1 Å.
  const std::string beyond = error_of(polar(1.0, 12.6, 8, 8));
  EXPECT_EQ(beyond.rfind("qmax: qmax = 12.6 Å⁻¹ exceeds 2k = 4π/λ = 12.566", 0), 0u) << beyond;
  EXPECT_NE(beyond.find("not on the Ewald sphere"), std::string::npos);
  EXPECT_EQ(error_of(polar(1.0, 4 * kPi, 8, 8)), "");  // backscattering ring: allowed
  auto g = polar(1.0, 4.0, 8, 8);
  g.orientation.row[0] = {1, 0.1, 0};
  EXPECT_EQ(error_of(g).rfind("rotation: the orientation matrix is not a proper rotation", 0), 0u);
  g.orientation = Mat3::identity();
  g.orientation.row[2] = {0, 0, -1};  // a reflection
  EXPECT_EQ(error_of(g).rfind("rotation:", 0), 0u);
  g.orientation = rotation_zyz_degrees(10, 20, 30);
  EXPECT_EQ(error_of(g), "");
  g.beam_direction = {0, 0, 0};
  EXPECT_EQ(error_of(g), "beam: the beam direction must be a finite, non-zero vector");
  Pattern2DGeometry f;
  f.wavelength = 1;
  f.detector = FlatDetector{0.0, 0.1, 4, 4, std::nullopt};
  EXPECT_EQ(error_of(f), "distance: detector distance must be positive and finite, got 0");
  f.detector = FlatDetector{10.0, 0.1, 4, 0, std::nullopt};
  EXPECT_EQ(error_of(f), "ny: must be at least 1, got 0");
  f.detector = FlatDetector{10.0, -0.1, 4, 4, std::nullopt};
  EXPECT_EQ(error_of(f), "pixel_size: pixel size must be positive and finite, got -0.1");
}

// 200 keV electrons: λ = 0.0250793 Å and γ = 1 + E/(m c²) = 1 + 200/510.99895
// (CODATA 2018 m c²); Cu Kα1: λ = 1.5405929 Å, E = 8047.8227 eV (Hölzer et
// al., Phys. Rev. A 56 (1997) 4554). Tolerances cover the digits quoted.
TEST(Pattern2DGeometry, ElectronLorentzFactorAndPhotonEnergy) {
  EXPECT_NEAR(electron_lorentz_factor(0.0250793), 1 + 200 / 510.99895, 2e-6);
  EXPECT_NEAR(electron_lorentz_factor(1e6), 1.0, 1e-12);
  EXPECT_NEAR(photon_energy_kev(1.5405929), 8.0478227, 1e-6);
}
