// Ensembles: copies of one structure at given positions and orientations.
#include <cmath>
#include <numbers>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter {
namespace {

Mat3 rotation_z(double radians) {
  const double c = std::cos(radians), s = std::sin(radians);
  Mat3 m;
  m.row = {Vec3{c, -s, 0}, Vec3{s, c, 0}, Vec3{0, 0, 1}};
  return m;
}

Mat3 rotation_y(double radians) {
  const double c = std::cos(radians), s = std::sin(radians);
  Mat3 m;
  m.row = {Vec3{c, 0, s}, Vec3{0, 1, 0}, Vec3{-s, 0, c}};
  return m;
}

// ‖RᵀR − 1‖ (max entry) above 1e-9 or det R < 0: not a proper rotation.
// 1e-9 admits matrices typed with ~10 significant digits.
void check_rotation(const Mat3& r, std::size_t index) {
  const Mat3 gram = transpose(r) * r;
  double worst = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) worst = std::fmax(worst, std::abs(gram.row[i][j] - (i == j ? 1.0 : 0.0)));
  if (!(worst <= 1e-9) || !(determinant(r) > 0))
    fail_at({"", 0, "rotation"}, "placement ", index + 1, ": not a proper rotation matrix (|RᵀR − 1| = ", worst,
            ", det = ", determinant(r), ")");
}

}  // namespace

Mat3 rotation_zyz_degrees(double alpha, double beta, double gamma) {
  const double to_radians = std::numbers::pi / 180;
  return rotation_z(alpha * to_radians) * rotation_y(beta * to_radians) * rotation_z(gamma * to_radians);
}

Structure make_ensemble(const Structure& structure, const std::vector<Placement>& placements) {
  Structure out;
  out.title = structure.title + " x" + std::to_string(placements.size());
  out.atoms.reserve(structure.atoms.size() * placements.size());
  for (std::size_t k = 0; k < placements.size(); ++k) {
    const Placement& p = placements[k];
    if (!is_finite(p.position)) fail_at({"", 0, "position"}, "placement ", k + 1, ": position is not finite");
    check_rotation(p.rotation, k);
    for (const Atom& atom : structure.atoms) {
      Atom copy = atom;
      copy.position = p.rotation * atom.position + p.position;
      out.atoms.push_back(std::move(copy));
    }
  }
  return out;
}

}  // namespace nanoscatter
