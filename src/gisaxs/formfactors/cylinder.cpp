// Cylinder of radius R and height H standing on z = 0:
//   F(q) = 2π R² H · J1(q∥R)/(q∥R) · sinc(q_z H/2) · exp(i q_z H/2).
#include <limits>
#include <numbers>

#include "gisaxs/formfactors/checks.hpp"
#include "gisaxs/formfactors/shapes.hpp"
#include "gisaxs/special_functions.hpp"

namespace nanoscatter::gisaxs {

namespace {

class Cylinder final : public FormFactor {
 public:
  Cylinder(double radius, double height) : radius_(radius), height_(height) {}
  void evaluate(std::span<const CVec3> q, std::span<Complex> out) const override {
    const double prefactor = 2 * std::numbers::pi * radius_ * radius_ * height_;
    // The DWBA hands the four terms of a pixel one after the other with equal
    // (q_x, q_y): reuse the Bessel factor.
    Complex last_x = std::numeric_limits<double>::quiet_NaN(), last_y = 0, radial = 0;
    for (std::size_t i = 0; i < q.size(); ++i) {
      if (q[i].x != last_x || q[i].y != last_y) {
        last_x = q[i].x;
        last_y = q[i].y;
        radial = bessel_j1c(radius_ * std::sqrt(q[i].x * q[i].x + q[i].y * q[i].y));
      }
      const Complex half = 0.5 * q[i].z * height_;
      out[i] = prefactor * radial * sinc_exp_i(half);
    }
  }
  double volume() const override { return std::numbers::pi * radius_ * radius_ * height_; }
  Extent extent() const override { return {{-radius_, -radius_, 0}, {radius_, radius_, height_}}; }
  std::string describe() const override {
    return detail::describe_shape("cylinder", {{"radius", radius_}, {"height", height_}});
  }

 private:
  double radius_, height_;
};

}  // namespace

std::unique_ptr<FormFactor> make_cylinder(double radius, double height) {
  detail::require_length(radius, "radius");
  detail::require_length(height, "height");
  return std::make_unique<Cylinder>(radius, height);
}

namespace detail {
ShapeInfo cylinder_shape() {
  return {"cylinder", "cylinder of radius R and height H standing on its base",
          {{"radius", ParameterKind::length}, {"height", ParameterKind::length}},
          false,
          [](std::span<const double> p) { return single_body(make_cylinder(p[0], p[1])); }};
}
}  // namespace detail

}  // namespace nanoscatter::gisaxs
