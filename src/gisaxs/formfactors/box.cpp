// Rectangular box, edges length (x) × width (y) × height (z), centred on the
// z axis with its base on z = 0:
//   F(q) = L W H sinc(q_x L/2) sinc(q_y W/2) sinc(q_z H/2) exp(i q_z H/2).
#include "gisaxs/formfactors/checks.hpp"
#include "gisaxs/formfactors/shapes.hpp"
#include "gisaxs/special_functions.hpp"

namespace nanoscatter::gisaxs {

namespace {

class Box final : public FormFactor {
 public:
  Box(double length, double width, double height) : length_(length), width_(width), height_(height) {}
  void evaluate(std::span<const CVec3> q, std::span<Complex> out) const override {
    const double v = volume();
    for (std::size_t i = 0; i < q.size(); ++i) {
      const Complex half = 0.5 * q[i].z * height_;
      out[i] = v * sinc(0.5 * q[i].x * length_) * sinc(0.5 * q[i].y * width_) * sinc_exp_i(half);
    }
  }
  double volume() const override { return length_ * width_ * height_; }
  Extent extent() const override {
    return {{-length_ / 2, -width_ / 2, 0}, {length_ / 2, width_ / 2, height_}};
  }
  std::string describe() const override {
    return detail::describe_shape("box", {{"length", length_}, {"width", width_}, {"height", height_}});
  }

 private:
  double length_, width_, height_;
};

}  // namespace

std::unique_ptr<FormFactor> make_box(double length, double width, double height) {
  detail::require_length(length, "length");
  detail::require_length(width, "width");
  detail::require_length(height, "height");
  return std::make_unique<Box>(length, width, height);
}

namespace detail {
ShapeInfo box_shape() {
  return {"box", "rectangular box: length along x, width along y, height along z",
          {{"length", ParameterKind::length}, {"width", ParameterKind::length}, {"height", ParameterKind::length}},
          false,
          [](std::span<const double> p) { return single_body(make_box(p[0], p[1], p[2])); }};
}
}  // namespace detail

}  // namespace nanoscatter::gisaxs
