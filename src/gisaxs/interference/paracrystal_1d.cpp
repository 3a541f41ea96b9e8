// Paracrystal along one in-plane direction ξ: the radial paracrystal's chain
// sum with the signed projection q₁ = q_x cos ξ + q_y sin ξ instead of |q∥|
// (one factor of BornAgain's 2D paracrystal, with a 1D profile).
#include <cmath>

#include "gisaxs/interference/interference.hpp"

namespace nanoscatter::gisaxs {

namespace {

class Paracrystal1DFunction final : public InterferenceFunction {
 public:
  explicit Paracrystal1DFunction(const Paracrystal1D& s) : s_(s) {}
  void evaluate(std::span<const double> qx, std::span<const double> qy, std::span<double> out) const override {
    const double damping = s_.damping_length > 0 ? std::exp(-s_.peak_distance / s_.damping_length) : 1.0;
    const double c = std::cos(s_.xi), s = std::sin(s_.xi);
    // S → c ω²/D² at p → 1 (see radial_paracrystal.cpp).
    const double curvature = s_.pdf.kind == ProfileKind::gauss    ? 1.0
                             : s_.pdf.kind == ProfileKind::cauchy ? 2.0
                                                                  : s_.pdf.eta + 2.0 * (1 - s_.pdf.eta);
    const double limit = curvature * s_.pdf.omega * s_.pdf.omega / (s_.peak_distance * s_.peak_distance);
    for (std::size_t i = 0; i < out.size(); ++i) {
      const double q = qx[i] * c + qy[i] * s;
      const Complex p = std::polar(ft_distribution(s_.pdf, q) * damping, q * s_.peak_distance);
      out[i] = paracrystal_sum(p, s_.domain_size, s_.peak_distance, limit);
    }
  }

 private:
  Paracrystal1D s_;
};

}  // namespace

std::unique_ptr<InterferenceFunction> make_paracrystal_1d(const Paracrystal1D& spec) {
  return std::make_unique<Paracrystal1DFunction>(spec);
}

}  // namespace nanoscatter::gisaxs
