// χ² of the model against the target, on the half plane, with the scale
// fitted and kept as running sums.
//
// Every full-plane pixel q maps to its half-plane representative h (q itself
// when l ≤ N/2, else −q); I(q) = I(h). With the mask m (0/1) folded in,
//   a_h = Σ_{q→h} m_q P_q,  w_h = Σ_{q→h} m_q,  S_PP = Σ_q m_q P_q²,
// the full-image χ² is
//   χ²(s) = S_PP − 2 s S_PI + s² S_II,  S_PI = Σ_h a_h I_h,  S_II = Σ_h w_h I_h²,
// minimal at s = S_PI/S_II with χ² = S_PP − S_PI²/S_II, and
//   χ²_rel = χ²/S_PP = 1 − S_PI²/(S_II S_PP)   (free scale),
// and with a fixed scale s₀ (absolute: s₀ = 1; fixed: the user's)
//   χ²_rel = 1 − 2 s₀ S_PI/S_PP + s₀² S_II/S_PP   (≥ 0, may exceed 1).
// Both come from the same running sums, so the backends only pass s₀ on.
// A move changes I_h by ΔI = 2 Re(conj F ΔF) + |ΔF|² (no cancellation), so
//   ΔS_PI = Σ a_h ΔI_h,   ΔS_II = Σ w_h ΔI_h (2 I_h + ΔI_h):
// one read of F and (a, w), no write, gives the trial's χ² exactly.
// The mask lives only in (a, w, S_PP), built once on the host and given to
// every backend, so CPU and GPU cannot apply it differently.
#pragma once
#include <complex>
#include <cstdint>
#include <vector>

#include "rmc/philox.hpp"
#include "rmc/spectrum.hpp"

namespace nanoscatter {
struct RmcTarget;
}

namespace nanoscatter::rmc {

struct FoldedTarget {
  HalfPlane plane;
  std::vector<double> a;  // Σ m P over the pixels folded onto h
  std::vector<double> w;  // Σ m over the same (0, 1 or 2)
  double s_pp = 0;        // Σ m P² over the full image
};

// From a centred target (NaN = masked).
FoldedTarget fold_target(const RmcTarget& target);

struct ChiSums {
  double s_pi = 0;
  double s_ii = 0;
};

ChiSums chi_sums(const FoldedTarget& target, const std::vector<std::complex<double>>& spectrum);

// For float32 backends: the exact spectra of many tiles (float64 FFTs,
// OpenMP over tiles) rounded once to complex64 into spectra[t·pixels + h],
// and each tile's sums from its float64 spectrum.
void exact_spectra_single(const std::vector<std::vector<std::uint8_t>>& occupancy, const FoldedTarget& target,
                          std::vector<std::complex<float>>& spectra, std::vector<ChiSums>& sums);

// χ²_rel from the sums (1 when S_PI ≤ 0: the best non-negative scale is 0).
NS_RMC_HD double relative_chi2(double s_pi, double s_ii, double s_pp) {
  if (!(s_pi > 0) || !(s_ii > 0)) return 1.0;
  return 1.0 - (s_pi / s_ii) * (s_pi / s_pp);
}
NS_RMC_HD double fitted_scale(double s_pi, double s_ii) { return s_pi > 0 && s_ii > 0 ? s_pi / s_ii : 0.0; }

// χ²_rel with the scale fixed at s₀ > 0, or free (s₀ ≤ 0: the best scale).
NS_RMC_HD double relative_chi2(double s_pi, double s_ii, double s_pp, double fixed_scale) {
  if (!(fixed_scale > 0)) return relative_chi2(s_pi, s_ii, s_pp);
  return 1.0 - 2.0 * fixed_scale * (s_pi / s_pp) + fixed_scale * fixed_scale * (s_ii / s_pp);
}
NS_RMC_HD double chi2_scale_used(double s_pi, double s_ii, double fixed_scale) {
  return fixed_scale > 0 ? fixed_scale : fitted_scale(s_pi, s_ii);
}

}  // namespace nanoscatter::rmc
