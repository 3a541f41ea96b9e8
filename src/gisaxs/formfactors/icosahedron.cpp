// Regular icosahedron of edge L resting on a face (BornAgain's orientation: a
// corner of the bottom face on +x). Its twelve corners lie in four rings of
// three about the z axis (centre at height z1 above the base):
//   z = ∓z1: radius L/√3,           z1 = L φ²/(2√3) (the inradius),
//   z = ∓z2: radius sqrt(Rc² − z2²), z2 = L/(2√3 φ), Rc² = L² (φ + 2)/4,
// φ the golden ratio; the rings alternate between azimuths 0°, 120°, 240° and
// 60°, 180°, 300°. A general polyhedron (polyhedron.cpp).
#include <cmath>
#include <numbers>

#include "gisaxs/formfactors/checks.hpp"
#include "gisaxs/formfactors/shapes.hpp"

namespace nanoscatter::gisaxs {

std::vector<Vec3> icosahedron_corners(double edge) {
  const double phi = std::numbers::phi, root3 = std::sqrt(3.0);
  const double z1 = edge * phi * phi / (2 * root3);
  const double z2 = edge / (2 * root3 * phi);
  const double outer = edge / root3;
  const double inner = std::sqrt(edge * edge * (phi + 2) / 4 - z2 * z2);
  std::vector<Vec3> points;
  auto ring = [&](double radius, double z, double first_degrees) {
    for (int k = 0; k < 3; ++k) {
      const double a = (first_degrees + 120.0 * k) * std::numbers::pi / 180.0;
      points.push_back({radius * std::cos(a), radius * std::sin(a), z + z1});
    }
  };
  ring(outer, -z1, 0);
  ring(inner, -z2, 60);
  ring(inner, z2, 0);
  ring(outer, z1, 60);
  return points;
}

std::unique_ptr<FormFactor> make_icosahedron(double edge) {
  detail::require_length(edge, "edge");
  const std::vector<Vec3> points = icosahedron_corners(edge);
  return Polyhedron::convex_hull(points, detail::describe_shape("icosahedron", {{"edge", edge}}));
}

namespace detail {
ShapeInfo icosahedron_shape() {
  return {"icosahedron", "regular icosahedron of edge L resting on a face",
          {{"edge", ParameterKind::length}},
          false,
          [](std::span<const double> p) { return single_body(make_icosahedron(p[0])); }};
}
}  // namespace detail

}  // namespace nanoscatter::gisaxs
