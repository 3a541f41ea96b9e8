// Unit-cell geometry: lattice vectors in the standard orientation (a along x,
// b in the xy plane), fractional <-> Cartesian, volume.
#include <cmath>
#include <numbers>

#include "nanoscatter/error.hpp"
#include "nanoscatter/structure.hpp"

namespace nanoscatter {
namespace {

// cos of an angle in degrees, exact at 90° and 60°/120° so that orthogonal
// and hexagonal cells get exact zeros and halves (cos(π/2) is 6e-17 in floats).
double cos_deg(double degrees) {
  if (degrees == 90) return 0;
  if (degrees == 60) return 0.5;
  if (degrees == 120) return -0.5;
  return std::cos(degrees * std::numbers::pi / 180);
}
double sin_deg(double degrees) {
  if (degrees == 90) return 1;
  return std::sin(degrees * std::numbers::pi / 180);
}

}  // namespace

Mat3 Cell::lattice_vectors() const {
  const double ca = cos_deg(alpha), cb = cos_deg(beta), cg = cos_deg(gamma), sg = sin_deg(gamma);
  const Vec3 va{a, 0, 0};
  const Vec3 vb{b * cg, b * sg, 0};
  // c_y follows from c·b = bc cos α; c_z from |c| = c.
  const double cy = (ca - cb * cg) / sg;
  const double cz2 = 1 - cb * cb - cy * cy;
  const Vec3 vc{c * cb, c * cy, c * std::sqrt(cz2 > 0 ? cz2 : 0)};
  return Mat3::from_columns(va, vb, vc);
}

Vec3 Cell::to_cartesian(const Vec3& fractional) const { return lattice_vectors() * fractional; }

Vec3 Cell::to_fractional(const Vec3& cartesian) const { return inverse(lattice_vectors()) * cartesian; }

double Cell::volume() const {
  const double ca = cos_deg(alpha), cb = cos_deg(beta), cg = cos_deg(gamma);
  const double s = 1 - ca * ca - cb * cb - cg * cg + 2 * ca * cb * cg;
  return a * b * c * std::sqrt(s > 0 ? s : 0);
}

void validate_cell(const Cell& cell, const Where& where) {
  auto field = [&](const char* name) {
    Where w = where;
    if (w.field.empty()) w.field = name;
    return w;
  };
  const std::pair<const char*, double> lengths[] = {{"a", cell.a}, {"b", cell.b}, {"c", cell.c}};
  for (const auto& [name, value] : lengths)
    if (!(std::isfinite(value) && value > 0))
      fail_at(field(name), "cell length must be positive and finite, got ", value);
  const std::pair<const char*, double> angles[] = {
      {"alpha", cell.alpha}, {"beta", cell.beta}, {"gamma", cell.gamma}};
  for (const auto& [name, value] : angles)
    if (!(std::isfinite(value) && value > 0 && value < 180))
      fail_at(field(name), "cell angle must lie strictly between 0 and 180 degrees, got ", value);
  // Lengths that are each finite can still make a volume that overflows or
  // underflows (a = 1e-300 Å): blame the lengths, not the angles.
  const double length_product = cell.a * cell.b * cell.c;
  if (!(std::isnormal(length_product) && std::isfinite(length_product)))
    fail_at(field("a"), "cell lengths ", cell.a, ", ", cell.b, ", ", cell.c, " Å give a volume outside the range of numbers");
  // The Gram determinant vanishes for angles that cannot close a cell
  // (e.g. α + β < γ); 1e-10 of a·b·c keeps out cells flat to rounding.
  if (!(cell.volume() > 1e-10 * cell.a * cell.b * cell.c))
    fail_at(field("alpha"), "cell angles ", cell.alpha, ", ", cell.beta, ", ", cell.gamma,
            " do not form a cell of positive volume");
}

Cell cell_from_vectors(const Vec3& a, const Vec3& b, const Vec3& c) {
  const double la = norm(a), lb = norm(b), lc = norm(c);
  // Finite components can still give infinite lengths (1e308 Å).
  if (!(la > 0 && lb > 0 && lc > 0) || !std::isfinite(la * lb * lc) || !is_finite(a) || !is_finite(b) ||
      !is_finite(c))
    fail("lattice vectors must be finite and non-zero, with a cell volume within the range of numbers");
  if (!(dot(a, cross(b, c)) > 0))
    fail("lattice vectors are degenerate or left-handed (a·(b×c) = ", dot(a, cross(b, c)), ")");
  auto angle = [](const Vec3& u, const Vec3& v) {
    const double cosine = dot(u, v) / (norm(u) * norm(v));
    const double degrees = std::acos(std::fmax(-1.0, std::fmin(1.0, cosine))) * 180 / std::numbers::pi;
    // Snap rounding noise (1e-9°, far below any measured angle) onto the
    // angles that cos_deg treats exactly.
    for (double exact : {60.0, 90.0, 120.0})
      if (std::abs(degrees - exact) < 1e-9) return exact;
    return degrees;
  };
  Cell cell;
  cell.a = la;
  cell.b = lb;
  cell.c = lc;
  cell.alpha = angle(b, c);
  cell.beta = angle(a, c);
  cell.gamma = angle(a, b);
  return cell;
}

}  // namespace nanoscatter
