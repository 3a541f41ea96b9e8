// Detector grids and the Ewald-sphere construction (pattern2d.hpp).
//
// Elastic scattering: |k_f| = |k_i| = k = 2π/λ, q = k_f − k_i. With k_i = k ẑ
// (detector frame) and the scattered direction u, q = k (u − ẑ), so
// |q| = 2k sin θ with 2θ the angle between u and ẑ. The expressions below
// are written so that small angles keep full relative accuracy:
//   cos 2θ − 1 = −2 sin²θ   (polar),   u_z − 1 = −ρ²/(L (L + D))   (flat),
// where ρ² = X² + Y² and L = √(ρ² + D²).
#include <algorithm>
#include <cmath>
#include <numbers>

#include "nanoscatter/constants.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/pattern2d.hpp"
#include "nanoscatter/resource_guard.hpp"

namespace nanoscatter {

namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;
// Largest deviation of RᵀR from 1 accepted for a rotation matrix (the same
// tolerance as builder.hpp's make_ensemble).
constexpr double kRotationTolerance = 1e-9;

void require_positive(double v, const char* option, const char* what) {
  if (!(v > 0) || !std::isfinite(v)) fail_option(option, what, " must be positive and finite, got ", v);
}

void require_count(int n, const char* option) {
  if (n < 1) fail_option(option, "must be at least 1, got ", n);
}

// Per pixel: its q (3 doubles), the intensity and the complex amplitude;
// a lower bound of what the engine keeps.
constexpr double kMinBytesPerPixel = sizeof(Vec3) + sizeof(double) + 2 * sizeof(double);

// The pixel counts come from the user: they must fit memory before the
// grid is made for them.
void require_pixel_memory(int rows, int cols, const char* field) {
  require_host_memory({"", 0, field, true}, nanoscatter::detail::concat(rows, " × ", cols, " pixels"),
                      double(rows) * double(cols) * kMinBytesPerPixel);
}

void validate_rotation(const Mat3& r) {
  double worst = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double rtr = dot(r.column(i), r.column(j));
      if (!std::isfinite(rtr)) fail_option("rotation", "the orientation matrix is not finite");
      worst = std::max(worst, std::abs(rtr - (i == j ? 1.0 : 0.0)));
    }
  if (worst > kRotationTolerance || determinant(r) < 0)
    fail_option("rotation", "the orientation matrix is not a proper rotation (|RᵀR − 1| = ", worst,
            ", det = ", determinant(r), ")");
}

}  // namespace

double DetectorGrid::q_magnitude(std::size_t p) const { return norm(q[p]); }


void validate_geometry(const Pattern2DGeometry& g) {
  require_positive(g.wavelength, "wavelength", "wavelength (Å)");
  const double k = kTwoPi / g.wavelength;
  if (!is_finite(g.beam_direction) || norm(g.beam_direction) == 0)
    fail_option("beam", "the beam direction must be a finite, non-zero vector");
  validate_rotation(g.orientation);
  if (const auto* polar = std::get_if<PolarDetector>(&g.detector)) {
    require_positive(polar->qmax, "qmax", "qmax (Å⁻¹)");
    if (polar->qmax > 2 * k)
      fail_option("qmax", "qmax = ", polar->qmax, " Å⁻¹ exceeds 2k = 4π/λ = ", 2 * k,
              " Å⁻¹ for λ = ", g.wavelength, " Å: not on the Ewald sphere");
    require_count(polar->nq, "nq");
    require_count(polar->nphi, "nphi");
    require_pixel_memory(polar->nq, polar->nphi, "nphi");
  } else {
    const auto& flat = std::get<FlatDetector>(g.detector);
    require_positive(flat.distance, "distance", "detector distance");
    require_positive(flat.pixel_size, "pixel_size", "pixel size");
    require_count(flat.nx, "nx");
    require_count(flat.ny, "ny");
    require_pixel_memory(flat.ny, flat.nx, "ny");
    if (flat.beam_center && !(std::isfinite((*flat.beam_center)[0]) && std::isfinite((*flat.beam_center)[1])))
      fail_option("direct_beam", "the direct beam's position must be finite");
  }
}

Mat3 beam_frame(const Vec3& beam) {
  const Vec3 b = beam / norm(beam);
  const Vec3 z{0, 0, 1};
  const Vec3 axis = cross(z, b);
  const double s = norm(axis), c = b.z;
  if (s == 0) {
    Mat3 r;  // identity for +z; a half turn about x for −z
    if (c < 0) r.row = {Vec3{1, 0, 0}, Vec3{0, -1, 0}, Vec3{0, 0, -1}};
    return r;
  }
  // Rodrigues: R = c·1 + s·[n]× + (1 − c)·n nᵀ, n = axis/s.
  const Vec3 n = axis / s;
  Mat3 r;
  const double nn[3] = {n.x, n.y, n.z};
  const double cross_m[3][3] = {{0, -n.z, n.y}, {n.z, 0, -n.x}, {-n.y, n.x, 0}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.row[i][j] = (i == j ? c : 0.0) + s * cross_m[i][j] + (1 - c) * nn[i] * nn[j];
  return r;
}

DetectorGrid make_detector_grid(const Pattern2DGeometry& g) {
  validate_geometry(g);
  const double k = kTwoPi / g.wavelength;
  const Mat3 to_lab = beam_frame(g.beam_direction);
  DetectorGrid grid;
  if (const auto* polar = std::get_if<PolarDetector>(&g.detector)) {
    grid.polar = true;
    grid.rows = std::size_t(polar->nq);
    grid.cols = std::size_t(polar->nphi);
    grid.row_name = "q";
    grid.row_unit = "1/angstrom";
    grid.col_name = "phi";
    grid.col_unit = "deg";
    for (int i = 0; i < polar->nq; ++i)
      grid.row_axis.push_back(polar->nq == 1 ? polar->qmax : polar->qmax * i / (polar->nq - 1));
    std::vector<double> cos_phi, sin_phi;
    for (int j = 0; j < polar->nphi; ++j) {
      const double phi = kTwoPi * j / polar->nphi;
      grid.col_axis.push_back(360.0 * j / polar->nphi);
      cos_phi.push_back(std::cos(phi));
      sin_phi.push_back(std::sin(phi));
    }
    grid.q.resize(grid.rows * grid.cols);
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < grid.rows; ++i) {
      // sin θ = |q|/2k; in-plane part k sin 2θ = |q| cos θ, q_z = −2k sin²θ.
      const double qm = grid.row_axis[i];
      const double sin_t = std::min(1.0, qm / (2 * k));
      const double q_plane = g.curvature ? qm * std::sqrt(1 - sin_t * sin_t) : qm;
      const double q_z = g.curvature ? -2 * k * sin_t * sin_t : 0.0;
      for (std::size_t j = 0; j < grid.cols; ++j)
        grid.q[i * grid.cols + j] = to_lab * Vec3{q_plane * cos_phi[j], q_plane * sin_phi[j], q_z};
    }
    return grid;
  }
  const auto& flat = std::get<FlatDetector>(g.detector);
  grid.polar = false;
  grid.rows = std::size_t(flat.ny);
  grid.cols = std::size_t(flat.nx);
  grid.row_name = "y";
  grid.col_name = "x";
  grid.row_unit = grid.col_unit = "mm";  // the unit of distance and pixel_size (mm by convention)
  const double cx = flat.beam_center ? (*flat.beam_center)[0] : 0.5 * (flat.nx - 1);
  const double cy = flat.beam_center ? (*flat.beam_center)[1] : 0.5 * (flat.ny - 1);
  for (int iy = 0; iy < flat.ny; ++iy) grid.row_axis.push_back((iy - cy) * flat.pixel_size);
  for (int ix = 0; ix < flat.nx; ++ix) grid.col_axis.push_back((ix - cx) * flat.pixel_size);
  const double d = flat.distance;
  grid.q.resize(grid.rows * grid.cols);
#pragma omp parallel for schedule(static)
  for (std::size_t iy = 0; iy < grid.rows; ++iy)
    for (std::size_t ix = 0; ix < grid.cols; ++ix) {
      const double x = grid.col_axis[ix], y = grid.row_axis[iy];
      const double rho2 = x * x + y * y;
      const double l = std::sqrt(rho2 + d * d);
      Vec3 q;
      if (g.curvature) {
        q = {k * x / l, k * y / l, -k * rho2 / (l * (l + d))};
      } else {
        // |u − ẑ|² = (ρ²/L²)(1 + ρ²/(L + D)²): keep |q|, drop q_z.
        const double scale = k / l * std::sqrt(1 + rho2 / ((l + d) * (l + d)));
        q = {scale * x, scale * y, 0};
      }
      grid.q[iy * grid.cols + ix] = to_lab * q;
    }
  return grid;
}

double electron_lorentz_factor(double wavelength) {
  // λ_C = h/(m_e c) = 2.42631023867e-2 Å (CODATA 2018).
  constexpr double compton_wavelength = 2.42631023867e-2;
  const double ratio = compton_wavelength / wavelength;
  return std::sqrt(1 + ratio * ratio);
}

double photon_energy_kev(double wavelength) { return kHcKeVAngstrom / wavelength; }

}  // namespace nanoscatter
