// Scattering factors of every species at every detector pixel, for the
// species-factorised amplitude (api.cpp).
#pragma once
#include <complex>
#include <vector>

#include "nanoscatter/pattern2d.hpp"
#include "nanoscatter/scattering_factors.hpp"

namespace nanoscatter::pattern2d {

struct PixelFactors {
  std::vector<std::complex<double>> f;  // bare factor (no Debye–Waller) × scale, [s·P + p]
  std::vector<double> t;                // Debye–Waller factor T_s(|q_p|), [s·P + p] (1 when switched off)
};

// f_s(|q_p|) and T_s(|q_p|) for species s and pixel p. Polar rows share the
// ring's |q| (taken from the axis), so a row costs one evaluation. Per
// pixel (flat detectors), X-ray f0 comes from the Waasmaier–Kirfel
// coefficients with the anomalous term (independent of |q|) added, and
// neutron b is a constant; only electrons call scattering_factor per pixel.
// Every species is first evaluated through scattering_factor at the
// largest |q| of the grid, so unknown species and out-of-range |q| fail
// with that function's message before any work.
PixelFactors pixel_factors(const std::vector<Species>& species, const DetectorGrid& grid, Radiation radiation,
                           const FactorOptions& options, double scale);

}  // namespace nanoscatter::pattern2d
