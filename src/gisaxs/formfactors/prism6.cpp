// BornAgain's Prism6(L, H): a regular hexagon of edge L (corners on ±x),
// extruded to height H (prism.cpp).
#include <cmath>

#include "gisaxs/formfactors/checks.hpp"
#include "gisaxs/formfactors/shapes.hpp"

namespace nanoscatter::gisaxs {

std::unique_ptr<FormFactor> make_prism6(double base_edge, double height) {
  detail::require_length(base_edge, "base_edge");
  detail::require_length(height, "height");
  const double a = base_edge, s = a * std::sqrt(3.0) / 2, c = a / 2;
  return std::make_unique<Prism>(
      std::vector<Vec3>{{a, 0, 0}, {c, s, 0}, {-c, s, 0}, {-a, 0, 0}, {-c, -s, 0}, {c, -s, 0}}, height,
      detail::describe_shape("prism6", {{"base_edge", a}, {"height", height}}));
}

namespace detail {
ShapeInfo prism6_shape() {
  return {"prism6", "prism on a regular hexagon of edge L (corners on ±x), height H",
          {{"base_edge", ParameterKind::length}, {"height", ParameterKind::length}},
          false,
          [](std::span<const double> p) { return single_body(make_prism6(p[0], p[1])); }};
}
}  // namespace detail

}  // namespace nanoscatter::gisaxs
