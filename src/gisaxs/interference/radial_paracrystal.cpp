// Radial paracrystal (BornAgain's InterferenceFunctionRadialParaCrystal): a
// chain of particles along every in-plane direction, evaluated at
// |q∥| = sqrt(q_x² + q_y²):
//   p = φ(|q∥|) exp(i |q∥| D) exp(−D/Λ),  S = paracrystal_sum(p).
#include <cmath>

#include "gisaxs/interference/interference.hpp"

namespace nanoscatter::gisaxs {

Complex radial_paracrystal_ftpdf(const RadialParacrystal& spec, double q_parallel) {
  const double damping = spec.damping_length > 0 ? std::exp(-spec.peak_distance / spec.damping_length) : 1.0;
  return std::polar(ft_distribution(spec.pdf, q_parallel) * damping, q_parallel * spec.peak_distance);
}

namespace {

class RadialParacrystalFunction final : public InterferenceFunction {
 public:
  explicit RadialParacrystalFunction(const RadialParacrystal& s) : s_(s) {}
  void evaluate(std::span<const double> qx, std::span<const double> qy, std::span<double> out) const override {
    // At q → 0 without damping, p = 1 + i q D − q² (D² + c ω²)/2 + … gives
    // S → c ω²/D², c ω² = −φ''(0) (c = 1 gauss, 2 cauchy; BornAgain's
    // qSecondDerivative()/D²).
    const double curvature = s_.pdf.kind == ProfileKind::gauss    ? 1.0
                             : s_.pdf.kind == ProfileKind::cauchy ? 2.0
                                                                  : s_.pdf.eta + 2.0 * (1 - s_.pdf.eta);
    const double limit = curvature * s_.pdf.omega * s_.pdf.omega / (s_.peak_distance * s_.peak_distance);
    for (std::size_t i = 0; i < out.size(); ++i) {
      const double q = std::hypot(qx[i], qy[i]);
      const Complex p = radial_paracrystal_ftpdf(s_, q);
      out[i] = paracrystal_sum(p, s_.domain_size, s_.peak_distance, limit);
    }
  }

 private:
  RadialParacrystal s_;
};

}  // namespace

std::unique_ptr<InterferenceFunction> make_radial_paracrystal(const RadialParacrystal& spec) {
  return std::make_unique<RadialParacrystalFunction>(spec);
}

}  // namespace nanoscatter::gisaxs
