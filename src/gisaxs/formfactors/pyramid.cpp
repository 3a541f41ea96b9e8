// BornAgain's Pyramid(L, H, α): frustum of a square pyramid, base edge L with
// edges along x and y, height H, side faces at angle α to the base; the top
// square has edge L − 2H cot α. A general polyhedron (polyhedron.cpp).
#include <algorithm>
#include <numbers>

#include "gisaxs/formfactors/checks.hpp"
#include "gisaxs/formfactors/shapes.hpp"

namespace nanoscatter::gisaxs {

std::unique_ptr<FormFactor> make_pyramid(double base_edge, double height, double alpha) {
  detail::require_length(base_edge, "base_edge");
  detail::require_length(height, "height");
  detail::require_angle(alpha, 0, std::numbers::pi, false, "alpha");
  const double a = base_edge / 2;
  const double b = a - height * detail::cotangent(alpha);  // half edge of the top
  if (b < -1e-12 * a)
    fail_at({"", 0, "height"}, "the pyramid closes below this height: need height ≤ base_edge·tan(alpha)/2 = ",
            a / detail::cotangent(alpha), " nm, got ", height);
  const double t = std::max(b, 0.0);
  return Polyhedron::convex_hull(
      {{-a, -a, 0}, {a, -a, 0}, {a, a, 0}, {-a, a, 0}, {-t, -t, height}, {t, -t, height}, {t, t, height},
       {-t, t, height}},
      detail::describe_shape("pyramid", {{"base_edge", base_edge}, {"height", height}}, {{"alpha", alpha}}));
}

namespace detail {
ShapeInfo pyramid_shape() {
  return {"pyramid", "square frustum: base edge L along x and y, height H, faces at angle alpha to the base",
          {{"base_edge", ParameterKind::length}, {"height", ParameterKind::length}, {"alpha", ParameterKind::angle}},
          false,
          [](std::span<const double> p) { return single_body(make_pyramid(p[0], p[1], p[2])); }};
}
}  // namespace detail

}  // namespace nanoscatter::gisaxs
