// BornAgain's Cone(R, H, α): a frustum of base radius R, height H, side at
// angle α to the base, r(z) = R − z cot α; integrated over height
// (solid_of_revolution.hpp). Volume π H (R² + R r_top + r_top²)/3.
#include <numbers>

#include "gisaxs/formfactors/checks.hpp"
#include "gisaxs/formfactors/shapes.hpp"
#include "gisaxs/formfactors/solid_of_revolution.hpp"

namespace nanoscatter::gisaxs {

namespace {

class Cone final : public detail::SolidOfRevolution {
 public:
  Cone(double radius, double height, double alpha)
      : SolidOfRevolution(0.0, height, radius),
        radius_(radius), height_(height), alpha_(alpha), cot_(detail::cotangent(alpha)) {}
  double volume() const override {
    const double top = radius_ - height_ * cot_;
    return std::numbers::pi * height_ * (radius_ * radius_ + radius_ * top + top * top) / 3.0;
  }
  Extent extent() const override { return {{-radius_, -radius_, 0}, {radius_, radius_, height_}}; }
  std::string describe() const override {
    return detail::describe_shape("cone", {{"radius", radius_}, {"height", height_}}, {{"alpha", alpha_}});
  }

 private:
  double radius_squared(double z) const override {
    const double r = radius_ - z * cot_;
    return r * r;
  }
  double radius_, height_, alpha_, cot_;
};

}  // namespace

std::unique_ptr<FormFactor> make_cone(double radius, double height, double alpha) {
  detail::require_length(radius, "radius");
  detail::require_length(height, "height");
  detail::require_angle(alpha, 0, std::numbers::pi / 2, true, "alpha");
  if (height * detail::cotangent(alpha) > radius * (1 + 1e-12))
    fail_at({"", 0, "height"}, "the cone closes below this height: need height ≤ radius·tan(alpha) = ",
            radius / detail::cotangent(alpha), " nm, got ", height);
  return std::make_unique<Cone>(radius, height, alpha);
}

namespace detail {
ShapeInfo cone_shape() {
  return {"cone", "circular frustum: base radius R, height H, side at angle alpha to the base",
          {{"radius", ParameterKind::length}, {"height", ParameterKind::length}, {"alpha", ParameterKind::angle}},
          false,
          [](std::span<const double> p) { return single_body(make_cone(p[0], p[1], p[2])); }};
}
}  // namespace detail

}  // namespace nanoscatter::gisaxs
