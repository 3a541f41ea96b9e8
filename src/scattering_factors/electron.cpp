// Electron scattering factors from the Mott–Bethe formula (Mott 1930, Bethe
// 1930; see e.g. L.-M. Peng, Micron 30 (1999) 625):
//   f_e(s) = C · (Z − f_x(s)) / s²,  C = m e²/(8π ε0 h²) = 1/(8π² a0) in Å⁻¹,  s = Q/(4π).
// With the Waasmaier–Kirfel fit f_x(s) = Σ a_i e^{−b_i s²} + c we write
//   Z − f_x(s) = q_ion + [f_x(0) − f_x(s)] = q_ion + Σ a_i (1 − e^{−b_i s²}),
// i.e. the number of electrons is taken as the fit's own f_x(0): the tiny fit
// residual Z − q_ion − f_x(0) (≈ 3e-3 e for C) would otherwise leave a
// spurious 1/s² divergence for neutral atoms. Then
//   f_e(s) = C · [ q_ion/s² + Σ a_i b_i φ(b_i s²) ],   φ(x) = (1 − e^{−x})/x = −expm1(−x)/x,
// which is exact to rounding for every s (expm1 has no cancellation), and
// φ(0) = 1 gives the neutral-atom limit f_e(0) = C Σ a_i b_i (= C·(8π²/3)·Σ⟨r²⟩).
#include <cmath>

#include "nanoscatter/error.hpp"
#include "nanoscatter/scattering_factors.hpp"
#include "scattering_factors/species.hpp"

namespace nanoscatter {
namespace {

// (1 − e^{−x})/x without cancellation; 1 at x = 0 (its limit).
double one_minus_exp_over_x(double x) { return x == 0 ? 1.0 : -std::expm1(-x) / x; }

}  // namespace

double electron_f(const std::string& element, int charge, double q) {
  const auto fit = waasmaier_kirfel_coefficients(element, charge);
  const double s = detail::fit_s(element, charge, q);
  const double s2 = s * s;
  double screened = 0;  // Σ a_i (1 − e^{−b_i s²}) / s², finite as s → 0
  for (int i = 0; i < 5; ++i) screened += fit.a[i] * fit.b[i] * one_minus_exp_over_x(fit.b[i] * s2);
  if (charge == 0) return kMottBethePrefactor * screened;
  // An ion's net charge scatters like a bare Coulomb potential, C·q_ion/s²,
  // which has no finite forward limit.
  if (s2 == 0)
    fail("species '", species_label(element, charge),
         "': the electron scattering factor of an ion diverges at Q = 0 (Mott–Bethe charge term)");
  return kMottBethePrefactor * (charge / s2 + screened);
}

}  // namespace nanoscatter
