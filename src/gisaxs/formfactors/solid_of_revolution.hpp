// Solids of revolution about z without a closed-form transform (truncated
// sphere, cone frustum), integrated over height as BornAgain does:
//   F(q) = ∫_{z0}^{z1} 2π r(z)² [J1(q∥ r)/(q∥ r)] exp(i q_z z) dz,  q∥ = sqrt(q_x² + q_y²).
// r(z)² is a polynomial for both shapes and J1(x)/x an even entire function,
// so the integrand is entire in z and Gauss–Legendre converges faster than
// any power; the rule is sized from the integrand's bandwidth
// B = |q_z| (z1 − z0)/2 + |q∥| r_max as n = B + 16 nodes, in panels of at most
// 128 nodes (the error of an n-point rule on exp(iBx) over [−1, 1] is of
// order (eB/4n)^{2n} < 1e-24 there).
// Consecutive q of equal (q_x, q_y) — the four DWBA terms of a pixel — share
// the Bessel factors at the nodes.
#pragma once
#include "nanoscatter/gisaxs_formfactors.hpp"

namespace nanoscatter::gisaxs::detail {

class SolidOfRevolution : public FormFactor {
 public:
  void evaluate(std::span<const CVec3> q, std::span<Complex> out) const override;
  using FormFactor::evaluate;

 protected:
  SolidOfRevolution(double z_bottom, double z_top, double r_max)
      : z_bottom_(z_bottom), z_top_(z_top), r_max_(r_max) {}
  virtual double radius_squared(double z) const = 0;

 private:
  double z_bottom_, z_top_, r_max_;
};

}  // namespace nanoscatter::gisaxs::detail
