// BornAgain's Tetrahedron(L, H, α) (a trigonal frustum): the prism3 base
// triangle of edge L, height H, side faces at angle α to the base; the top
// triangle has edge L − 2√3 H cot α. A general polyhedron (polyhedron.cpp).
#include <cmath>
#include <algorithm>
#include <numbers>

#include "gisaxs/formfactors/checks.hpp"
#include "gisaxs/formfactors/shapes.hpp"

namespace nanoscatter::gisaxs {

std::unique_ptr<FormFactor> make_tetrahedron(double base_edge, double height, double alpha) {
  detail::require_length(base_edge, "base_edge");
  detail::require_length(height, "height");
  detail::require_angle(alpha, 0, std::numbers::pi / 2, true, "alpha");
  const double top_edge = base_edge - 2 * std::sqrt(3.0) * height * detail::cotangent(alpha);
  if (top_edge < -1e-12 * base_edge)
    fail_at({"", 0, "height"},
            "the tetrahedron closes below this height: need height ≤ base_edge·tan(alpha)/(2√3) = ",
            base_edge / (2 * std::sqrt(3.0) * detail::cotangent(alpha)), " nm, got ", height);
  auto triangle = [](double edge, double z) {
    const double half = edge / 2, inner = edge / (2 * std::sqrt(3.0)), outer = edge / std::sqrt(3.0);
    return std::vector<Vec3>{{-inner, half, z}, {-inner, -half, z}, {outer, 0, z}};
  };
  std::vector<Vec3> points = triangle(base_edge, 0);
  for (const Vec3& v : triangle(std::max(top_edge, 0.0), height)) points.push_back(v);
  return Polyhedron::convex_hull(
      points, detail::describe_shape("tetrahedron", {{"base_edge", base_edge}, {"height", height}},
                                     {{"alpha", alpha}}));
}

namespace detail {
ShapeInfo tetrahedron_shape() {
  return {"tetrahedron", "trigonal frustum on the prism3 base: edge L, height H, faces at angle alpha",
          {{"base_edge", ParameterKind::length}, {"height", ParameterKind::length}, {"alpha", ParameterKind::angle}},
          false,
          [](std::span<const double> p) { return single_body(make_tetrahedron(p[0], p[1], p[2])); }};
}
}  // namespace detail

}  // namespace nanoscatter::gisaxs
