// BornAgain's Prism3(L, H): an equilateral triangle of edge L, centroid on the
// z axis and one corner on +x, extruded to height H (prism.cpp).
#include <cmath>

#include "gisaxs/formfactors/checks.hpp"
#include "gisaxs/formfactors/shapes.hpp"

namespace nanoscatter::gisaxs {

std::unique_ptr<FormFactor> make_prism3(double base_edge, double height) {
  detail::require_length(base_edge, "base_edge");
  detail::require_length(height, "height");
  const double a = base_edge;
  const double half = a / 2, inner = a / (2 * std::sqrt(3.0)), outer = a / std::sqrt(3.0);
  return std::make_unique<Prism>(std::vector<Vec3>{{-inner, half, 0}, {-inner, -half, 0}, {outer, 0, 0}},
                                 height,
                                 detail::describe_shape("prism3", {{"base_edge", a}, {"height", height}}));
}

namespace detail {
ShapeInfo prism3_shape() {
  return {"prism3", "prism on an equilateral triangle of edge L (a corner on +x), height H",
          {{"base_edge", ParameterKind::length}, {"height", ParameterKind::length}},
          false,
          [](std::span<const double> p) { return single_body(make_prism3(p[0], p[1])); }};
}
}  // namespace detail

}  // namespace nanoscatter::gisaxs
