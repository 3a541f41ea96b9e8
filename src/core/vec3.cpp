#include "nanoscatter/vec3.hpp"

#include "nanoscatter/error.hpp"

namespace nanoscatter {

Mat3 inverse(const Mat3& m) {
  const double det = determinant(m);
  if (!(std::abs(det) > 0)) fail("singular 3x3 matrix (determinant ", det, ")");
  // Rows of the inverse's transpose are the cross products of the rows.
  const Vec3 c0 = cross(m.row[1], m.row[2]) / det;
  const Vec3 c1 = cross(m.row[2], m.row[0]) / det;
  const Vec3 c2 = cross(m.row[0], m.row[1]) / det;
  return Mat3::from_columns(c0, c1, c2);
}

}  // namespace nanoscatter
