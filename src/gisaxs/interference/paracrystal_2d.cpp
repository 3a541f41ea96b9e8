// 2D paracrystal (BornAgain's InterferenceFunction2DParaCrystal): the product
// of two chain sums along the lattice vectors a (at ξ) and b (at ξ + angle),
//   p_i = φ_i(q rotated into the profile's axes at ξ_i + γ_i) exp(i q·a_i − |a_i|/Λ).
#include <cmath>

#include "gisaxs/interference/interference.hpp"

namespace nanoscatter::gisaxs {

namespace {

class Paracrystal2DFunction final : public InterferenceFunction {
 public:
  explicit Paracrystal2DFunction(const Paracrystal2D& s) : s_(s) {}
  void evaluate(std::span<const double> qx, std::span<const double> qy, std::span<double> out) const override {
    const auto& l = s_.lattice;
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = factor(qx[i], qy[i], l.xi, l.length_1, s_.pdf_1, s_.domain_size_1) *
               factor(qx[i], qy[i], l.xi + l.angle, l.length_2, s_.pdf_2, s_.domain_size_2);
  }

 private:
  double factor(double qx, double qy, double direction, double length, const Distribution2D& pdf,
                double domain) const {
    const double phase = length * (qx * std::cos(direction) + qy * std::sin(direction));
    // Principal axes of the profile at direction + γ and 90° further.
    const double g = direction + pdf.gamma;
    const double q1 = qx * std::cos(g) + qy * std::sin(g);
    const double q2 = -qx * std::sin(g) + qy * std::cos(g);
    double amplitude = ft_distribution(pdf, q1, q2);
    if (s_.damping_length > 0) amplitude *= std::exp(-length / s_.damping_length);
    // p → 1 only at q = 0 without damping, where S → c ω²/L² with ω the
    // profile's width along the lattice direction (radial_paracrystal.cpp).
    const double c = pdf.kind == ProfileKind::gauss ? 1.0 : pdf.kind == ProfileKind::cauchy ? 2.0
                                                                        : pdf.eta + 2.0 * (1 - pdf.eta);
    const double w2 = pdf.omega_x * pdf.omega_x * std::cos(pdf.gamma) * std::cos(pdf.gamma) +
                      pdf.omega_y * pdf.omega_y * std::sin(pdf.gamma) * std::sin(pdf.gamma);
    return paracrystal_sum(std::polar(amplitude, phase), domain, length, c * w2 / (length * length));
  }
  Paracrystal2D s_;
};

}  // namespace

std::unique_ptr<InterferenceFunction> make_paracrystal_2d(const Paracrystal2D& spec) {
  return std::make_unique<Paracrystal2DFunction>(spec);
}

}  // namespace nanoscatter::gisaxs
