// BornAgain's TruncatedSphere(R, H, ΔH): the sphere of radius R with centre at
// z = H − R, cut at z = 0 and at z = H − ΔH; integrated over height
// (solid_of_revolution.hpp). Volume π/3 [H²(3R − H) − ΔH²(3R − ΔH)].
#include <cmath>
#include <numbers>

#include "gisaxs/formfactors/checks.hpp"
#include "gisaxs/formfactors/shapes.hpp"
#include "gisaxs/formfactors/solid_of_revolution.hpp"

namespace nanoscatter::gisaxs {

namespace {

class TruncatedSphere final : public detail::SolidOfRevolution {
 public:
  TruncatedSphere(double radius, double height, double removed_top)
      : SolidOfRevolution(0.0, height - removed_top, radius),
        radius_(radius), height_(height), removed_top_(removed_top) {}
  double volume() const override {
    const double r = radius_, h = height_, d = removed_top_;
    return std::numbers::pi / 3.0 * (h * h * (3 * r - h) - d * d * (3 * r - d));
  }
  Extent extent() const override {
    // The widest section is the equator when it lies inside, else the cut nearer to it.
    const double top = height_ - removed_top_;
    const double centre = height_ - radius_;
    const double widest = centre < 0     ? std::sqrt(radius_squared(0.0))
                          : top < centre ? std::sqrt(radius_squared(top))
                                         : radius_;
    return {{-widest, -widest, 0}, {widest, widest, top}};
  }
  std::string describe() const override {
    return detail::describe_shape("truncated_sphere",
                                  {{"radius", radius_}, {"height", height_}, {"removed_top", removed_top_}});
  }

 private:
  double radius_squared(double z) const override {
    const double dz = z - (height_ - radius_);
    return radius_ * radius_ - dz * dz;
  }
  double radius_, height_, removed_top_;
};

}  // namespace

std::unique_ptr<FormFactor> make_truncated_sphere(double radius, double height, double removed_top) {
  detail::require_length(radius, "radius");
  detail::require_length(height, "height");
  detail::require_length_or_zero(removed_top, "removed_top");
  if (height > 2 * radius)
    fail_at({"", 0, "height"}, "must not exceed the diameter 2R = ", 2 * radius, " nm, got ", height);
  if (removed_top >= height)
    fail_at({"", 0, "removed_top"}, "must be smaller than the height ", height, " nm, got ", removed_top);
  return std::make_unique<TruncatedSphere>(radius, height, removed_top);
}

namespace detail {
ShapeInfo truncated_sphere_shape() {
  return {"truncated_sphere", "sphere of radius R cut at z = 0 so that height H remains, minus a top cap ΔH",
          {{"radius", ParameterKind::length},
           {"height", ParameterKind::length},
           {"removed_top", ParameterKind::length_or_zero, false, 0.0}},
          false,
          [](std::span<const double> p) { return single_body(make_truncated_sphere(p[0], p[1], p[2])); }};
}
}  // namespace detail

}  // namespace nanoscatter::gisaxs
