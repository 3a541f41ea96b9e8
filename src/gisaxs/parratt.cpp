// Parratt's recursion (L. G. Parratt, Phys. Rev. 95 (1954) 359) for the
// amplitude ratio X_j = R_j/T_j, from the substrate (X = 0) upwards:
//   X_j(bottom) = (a01 + a00 X_{j+1}) / (a00 + a01 X_{j+1}),
//   X_j(top)    = X_j(bottom) exp(2i k_z,j d_j),
// then the down-going amplitudes from the ambient (T_0 = 1) downwards:
//   T_{j+1} = T_j exp(i k_z,j d_j) · 2k_z,j / (a00 + a01 X_{j+1})  [a's scaled by 2k_z,j].
// Ratios stay bounded and exp(2i k_z d) ≤ 1 for Im k_z ≥ 0, so nothing
// overflows for any stack.
#include <cmath>
#include <numbers>

#include "gisaxs/multilayer.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::gisaxs {

namespace {
Complex exp_i(Complex z) { return std::exp(Complex(-z.imag(), z.real())); }
}  // namespace

Multilayer::Multilayer(const std::vector<Layer>& layers, double wavelength)
    : k_(2 * std::numbers::pi / wavelength) {
  if (layers.empty()) fail("Multilayer: no layers");
  for (const Layer& l : layers) {
    n2_minus_1_.push_back(l.material.n2_minus_1());
    thickness_.push_back(l.thickness);
    roughness_.push_back(l.roughness);
  }
}

Complex Multilayer::kz(std::size_t layer, double alpha) const {
  const double s = std::sin(alpha);
  Complex arg = n2_minus_1_[layer] + s * s;
  // β ≥ 0 gives Im(arg) ≥ 0; a signed zero must not select the lower branch.
  if (arg.imag() == 0) arg = Complex(arg.real(), 0.0);
  return k_ * std::sqrt(arg);
}

void Multilayer::fields(double alpha, LayerField* out) const {
  const std::size_t n = size();
  const double sign = alpha < 0 ? -1.0 : 1.0;
  for (std::size_t j = 0; j < n; ++j) out[j].kz = sign * kz(j, alpha);
  // Upwards: the ratio X at each layer's top, kept in out[j].r for now.
  out[n - 1].r = 0;
  for (std::size_t j = n - 1; j-- > 0;) {
    const InterfaceTransfer a = interface_transfer(out[j].kz, out[j + 1].kz, roughness_[j + 1]);
    const Complex x_below = out[j + 1].r;
    const Complex x_bottom = (a.a01 + a.a00 * x_below) / (a.a00 + a.a01 * x_below);
    out[j].r = j == 0 ? x_bottom : x_bottom * exp_i(2.0 * out[j].kz * thickness_[j]);
  }
  // Downwards: T_0 = 1; R_j = X_j T_j.
  out[0].t = 1;
  for (std::size_t j = 0; j + 1 < n; ++j) {
    const InterfaceTransfer a = interface_transfer(out[j].kz, out[j + 1].kz, roughness_[j + 1]);
    const Complex t_bottom = j == 0 ? out[j].t : out[j].t * exp_i(out[j].kz * thickness_[j]);
    out[j + 1].t = t_bottom * 2.0 * out[j].kz / (a.a00 + a.a01 * out[j + 1].r);
  }
  for (std::size_t j = 0; j < n; ++j) out[j].r *= out[j].t;
}

std::vector<LayerField> Multilayer::fields(double alpha) const {
  std::vector<LayerField> f(size());
  fields(alpha, f.data());
  return f;
}

double Multilayer::reflectivity(double alpha) const { return std::norm(fields(alpha)[0].r); }

}  // namespace nanoscatter::gisaxs
