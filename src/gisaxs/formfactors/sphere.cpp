// Sphere of radius R resting on z = 0:
//   F(q) = (4π/3) R³ · 3(sin x − x cos x)/x³ · exp(i q_z R),  x = R sqrt(q·q).
#include <numbers>

#include "gisaxs/formfactors/checks.hpp"
#include "gisaxs/formfactors/shapes.hpp"
#include "gisaxs/special_functions.hpp"

namespace nanoscatter::gisaxs {

namespace {

class Sphere final : public FormFactor {
 public:
  explicit Sphere(double radius) : radius_(radius) { detail::require_length(radius, "radius"); }
  void evaluate(std::span<const CVec3> q, std::span<Complex> out) const override {
    const double v = volume();
    for (std::size_t i = 0; i < q.size(); ++i) {
      const Complex q2 = dot(q[i], q[i]);
      // Real q (a particle in a layer without absorption, and Born): real
      // sin and cos, a few times cheaper than their complex versions.
      if (q2.imag() == 0 && q2.real() >= 0 && q[i].z.imag() == 0) {
        const double phase = q[i].z.real() * radius_;
        out[i] = v * sphere_amplitude(radius_ * std::sqrt(q2.real())) * Complex(std::cos(phase), std::sin(phase));
      } else {
        out[i] = v * sphere_amplitude(radius_ * std::sqrt(q2)) * exp_i(q[i].z * radius_);
      }
    }
  }
  double volume() const override { return 4.0 / 3.0 * std::numbers::pi * radius_ * radius_ * radius_; }
  Extent extent() const override { return {{-radius_, -radius_, 0}, {radius_, radius_, 2 * radius_}}; }
  std::string describe() const override {
    return detail::describe_shape("sphere", {{"radius", radius_}});
  }

 private:
  double radius_;
};

}  // namespace

std::unique_ptr<FormFactor> make_sphere(double radius) { return std::make_unique<Sphere>(radius); }

namespace detail {
ShapeInfo sphere_shape() {
  return {"sphere", "sphere of radius R on its lowest point",
          {{"radius", ParameterKind::length}},
          false,
          [](std::span<const double> p) { return single_body(make_sphere(p[0])); }};
}
}  // namespace detail

}  // namespace nanoscatter::gisaxs
