// Plane-wave fields in a stratified medium for a wave incident from the
// ambient at grazing angle α (the DWBA needs them at α_i and, by
// reciprocity, at α_f).
//
// In layer j the field is T_j exp(−i k_z,j (z − z_j)) + R_j exp(+i k_z,j (z − z_j)),
// z_j the layer's top interface (for the ambient, the first interface at
// z = 0), k_z,j = k sqrt(n_j² − cos²α) on the principal branch, computed as
// k sqrt((n_j² − 1) + sin²α) so that nothing cancels at small angles. T_0 = 1,
// R_last = 0. The amplitudes follow from Parratt's recursion (fresnel.cpp,
// parratt.cpp) with Névot–Croce roughness factors on every interface.
#pragma once
#include <cstddef>
#include <vector>

#include "nanoscatter/gisaxs.hpp"

namespace nanoscatter::gisaxs {

struct LayerField {
  Complex kz;  // k_z,j ≥ 0 branch (Re ≥ 0, Im ≥ 0)
  Complex t;   // down-going amplitude at the layer's top
  Complex r;   // up-going amplitude at the layer's top
};

// Fresnel reflection coefficient (k_z,a − k_z,b)/(k_z,a + k_z,b) of a sharp
// interface from medium a into medium b.
Complex fresnel_r(Complex kz_a, Complex kz_b);
// The interface transfer factors of BornAgain's Névot–Croce scheme: with
// (D, U) the down/up amplitudes just above an interface and (D', U') just
// below, D = a00 D' + a01 U', U = a01 D' + a00 U', times 2k_z,a:
//   2k_a a00 = (k_a + k_b) exp(−(k_a − k_b)² σ²/2),
//   2k_a a01 = (k_a − k_b) exp(−(k_a + k_b)² σ²/2),
// so that U/D = r exp(−2 k_a k_b σ²) for a single interface (Névot & Croce,
// Rev. Phys. Appl. 15 (1980) 761). Scaled by 2k_a to stay finite at k_a = 0.
struct InterfaceTransfer {
  Complex a00, a01;
};
InterfaceTransfer interface_transfer(Complex kz_a, Complex kz_b, double sigma);

class Multilayer {
 public:
  Multilayer(const std::vector<Layer>& layers, double wavelength);
  std::size_t size() const { return n2_minus_1_.size(); }
  double wavenumber() const { return k_; }
  // k_z in layer j for a wave at grazing angle α in the ambient.
  Complex kz(std::size_t layer, double alpha) const;
  // The fields in every layer; out has size() entries. For α < 0 (a
  // detector pixel below the horizon) every k_z changes sign, as in
  // BornAgain 1.19 (KzComputation for upward k): the DWBA formula is
  // continued below the horizon with the same recursion.
  void fields(double alpha, LayerField* out) const;
  std::vector<LayerField> fields(double alpha) const;
  // Specular reflectivity |R_0|².
  double reflectivity(double alpha) const;

 private:
  double k_;
  std::vector<Complex> n2_minus_1_;
  std::vector<double> thickness_, roughness_;
};

}  // namespace nanoscatter::gisaxs
