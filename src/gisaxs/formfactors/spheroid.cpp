// Spheroid with equatorial radius R and full height H (semi-axis c = H/2) on
// z = 0. Scaling z by R/c maps it onto the sphere of radius R, so
//   F(q) = (4π/3) R² c · 3(sin x − x cos x)/x³ · exp(i q_z c),
//   x = sqrt(R² (q_x² + q_y²) + c² q_z²).
#include <numbers>

#include "gisaxs/formfactors/checks.hpp"
#include "gisaxs/formfactors/shapes.hpp"
#include "gisaxs/special_functions.hpp"

namespace nanoscatter::gisaxs {

namespace {

class Spheroid final : public FormFactor {
 public:
  Spheroid(double radius, double height) : radius_(radius), height_(height) {}
  void evaluate(std::span<const CVec3> q, std::span<Complex> out) const override {
    const double c = height_ / 2;
    const double v = volume();
    for (std::size_t i = 0; i < q.size(); ++i) {
      const Complex x2 = radius_ * radius_ * (q[i].x * q[i].x + q[i].y * q[i].y) + c * c * q[i].z * q[i].z;
      out[i] = v * sphere_amplitude(std::sqrt(x2)) * exp_i(q[i].z * c);
    }
  }
  double volume() const override { return 2.0 / 3.0 * std::numbers::pi * radius_ * radius_ * height_; }
  Extent extent() const override { return {{-radius_, -radius_, 0}, {radius_, radius_, height_}}; }
  std::string describe() const override {
    return detail::describe_shape("spheroid", {{"radius", radius_}, {"height", height_}});
  }

 private:
  double radius_, height_;
};

}  // namespace

std::unique_ptr<FormFactor> make_spheroid(double radius, double height) {
  detail::require_length(radius, "radius");
  detail::require_length(height, "height");
  return std::make_unique<Spheroid>(radius, height);
}

namespace detail {
ShapeInfo spheroid_shape() {
  return {"spheroid", "spheroid of equatorial radius R and height H (axis along z)",
          {{"radius", ParameterKind::length}, {"height", ParameterKind::length}},
          false,
          [](std::span<const double> p) { return single_body(make_spheroid(p[0], p[1])); }};
}
}  // namespace detail

}  // namespace nanoscatter::gisaxs
