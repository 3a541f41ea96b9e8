// A powder diffraction pattern of a finite particle from the Debye engine's
// pair-distance histograms (per species pair, float64, bin width
// DebyeOptions::bin_width, default 1e-3 Å), made once, and an instrument
// (2θ zero, Kα doublet, polarisation, pseudo-Voigt profile, Chebyshev
// background) applied per evaluation. docs/debye.md, "Powder model", writes
// the equations out; docs/fitting.md, "Powder fits", the fit.
//
// Debye part, per atom (N = Σ w_i), with e = 1 + ε (isotropic expansion),
// D_m(Q) = exp(−B_m Q²/(16π²)) and S_mn(Q) the histogram sinc sum of pair
// (m, n) (histogram_intensity.hpp; unordered pairs, each counted once):
//
//   I(Q) = (1/N) [ Σ_m N_m |f_m(Q)|² D_m^self(Q)
//                  + 2 Σ_{m≤n} Re(f_m f_n*)(Q) D_m(Q) D_n(Q) S_mn(eQ) ]
//
// sinc(Q e r) = sinc(Q' r) at Q' = eQ, so the expansion is exact; the form
// factors are taken at the true Q. D^self = 1 by default (the Debye
// engine's convention, debye.hpp/api.cpp: the self term keeps |f|², which
// keeps the thermal diffuse intensity), or D_m² with self_debye_waller
// (every f multiplied by D, as codes that ignore the diffuse part).
//
// Instrument, at an observed angle 2θ (degrees) with true angle
// 2θ_t = 2θ − zero:
//   y(2θ) = Σ_j w_j [pV_H ⊗ (P · I(Q_j))](2θ) + Σ_k c_k T_k(x),
//   Q_j = 4π sin(θ_t)/λ_j, w = (1, ratio) for a doublet (λ1, λ2),
//   P(2θ_t): polarisation, normalised to P(0) = 1 (see Polarisation),
//   pV_H: pseudo-Voigt of FWHM H(2θ_t) and mixing η (η = 1: Lorentzian),
//   either (PowderProfile::pseudo_voigt) H² = U tan²θ_t + V tanθ_t + W
//   (degrees², Caglioti) and a fixed η, or (PowderProfile::tch) the
//   Thompson–Cox–Hastings pseudo-Voigt (J. Appl. Cryst. 20 (1987) 79):
//   Gaussian Γ_G² = U tan²θ_t + V tanθ_t + W, Lorentzian
//   Γ_L = X tanθ_t + Y / cosθ_t, and H, η from TCH's polynomials in them
//   (tch_profile below; as GSAS, FullProf and TOPAS take them),
//   T_k: Chebyshev polynomials of the first kind, x = 2(2θ − 2θ_lo)/(2θ_hi − 2θ_lo) − 1
//   over the pattern's range [2θ_lo, 2θ_hi].
// No Lorentz factor: the Debye sum is already the orientational average per
// solid angle, so the integrated intensity of a line over 2θ already falls
// as 1/(sin²θ cosθ) (the 1/Q² of the average times dQ/d2θ ∝ cos θ); a
// Bragg-intensity LP factor on top would count the Lorentz factor twice.
//
// The Debye pattern is computed on a fine uniform grid of observed 2θ
// (PowderInstrument::fine_step) that covers the range plus a margin on
// either side (PowderInstrument::margin), convolved there (each fine point
// spreads its intensity with the profile of its own angle, the sampled
// profile normalised to unit sum so intensity is kept), and interpolated
// linearly to the requested angles.
//
// Size distribution (PowderModelOptions::size): the structure is then the
// largest sphere of the grid (powder_size.hpp), centred on the origin as
// cut_crystal centres it, and the pattern is the number-weighted mean over
// the nested spheres k (radius R_k, N_k atoms, fraction w_k), per atom of
// the ensemble:
//   I(Q) = Σ_k w_k N_k I_k(Q) / Σ_k w_k N_k
//        = (1/Σ_m W_m n_m) Σ_m W_m [ Σ_a n_ma |f_a|² D_a^self
//                                    + 2 Σ_{a≤b} Re(f_a f_b*) D_a D_b S_m,ab(eQ) ],
// shell m = the atoms inside sphere m and not sphere m − 1 (n_m of them,
// n_ma of species a), W_m = Σ_{k≥m} w_k, and S_m,ab the sums of the pairs
// whose outer atom lies in shell m (within shell m, and shell m against
// the shells inside it): such a pair belongs to every sphere k ≥ m. The
// sums are linear in the histogram, so the model keeps each shell's
// moments on the union of the shells' non-empty bins and sums the
// ensemble's histogram Σ_m W_m (shell m's) once per evaluation (a
// crystal's distances recur from shell to shell, so the union holds about
// as many bins as one shell: one sum costs what one particle's does).
#pragma once
#include <array>
#include <complex>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "nanoscatter/debye.hpp"
#include "nanoscatter/powder_size.hpp"

namespace nanoscatter {

namespace debye {
struct BinArrays;
}

struct PowderModelOptions {
  bool self_debye_waller = false;  // D_m² on the self term too (see above)
  // A log-normal (or Gaussian) ensemble of spheres cut from the structure
  // (see above); none: the structure itself.
  std::optional<SizeDistributionOptions> size;
};

struct PowderParameters {
  double lattice_expansion = 0;  // ε: every distance times 1 + ε
  std::vector<double> b;         // B per species (PowderModel::species order), Å²
  double size_median = 0;        // m, Å, of the expanded particles (size distribution only)
  double size_sigma = 0;         // σ_ln, or σ in Å of a Gaussian (size distribution only)
};

// The Debye part: I(Q) per atom from the pair histograms, kept across
// evaluations.
class PowderModel {
 public:
  // Histograms the structure once (options.bin_width, options.device;
  // options.share is ignored; options.factors.debye_waller is ignored: B
  // comes from PowderParameters). With powder.size the structure must be
  // the grid's largest sphere about the origin (an atom beyond r_max is an
  // error, field "size"), histogrammed shell by shell on the CPU.
  PowderModel(const Structure& structure, const DebyeOptions& options, const PowderModelOptions& powder = {});

  const std::vector<std::string>& species() const { return labels_; }
  // B of each species from the structure, ε = 0; with a size distribution
  // m = √(r_min r_max), σ = 0.2 (log-normal) or 0.2 m (Gaussian).
  PowderParameters default_parameters() const;
  const std::optional<SizeDistributionOptions>& size() const { return powder_.size; }
  // Atoms (Σ occupancy) of each shell: one entry, all atoms, without a size distribution.
  const std::vector<double>& shell_atoms() const { return shell_atoms_; }
  // I(Q) per atom (electrons² for X-rays, fm² for neutrons) at each Q (Å⁻¹, ≥ 0).
  std::vector<double> intensity(const PowderParameters& p, std::span<const double> q) const;
  // The pair sums S_mn(eQ) (pairs in m ≤ n order), the costly part of
  // intensity(); without a size distribution only.
  std::vector<std::vector<double>> pair_sums(double lattice_expansion, std::span<const double> q) const;
  // The same for any model: with a size distribution, of the ensemble's
  // histogram at (m, σ, ε).
  std::vector<std::vector<double>> pair_sums(const PowderParameters& p, std::span<const double> q) const;
  // The same for given number fractions w_k of the grid's spheres (size distribution only).
  std::vector<std::vector<double>> pair_sums_for_weights(std::span<const double> weights, double lattice_expansion,
                                                         std::span<const double> q) const;
  // w_k of p's distribution ({1} without a size distribution).
  std::vector<double> size_weights(const PowderParameters& p) const;
  // The scattering factors f_m(Q) without Debye–Waller, [m][k].
  std::vector<std::vector<std::complex<double>>> factors(std::span<const double> q) const;
  // intensity() from sums made by pair_sums() at the same ε and Q, and
  // factors() at the same Q.
  std::vector<double> intensity_from_sums(const PowderParameters& p, std::span<const double> q,
                                          const std::vector<std::vector<double>>& sums,
                                          const std::vector<std::vector<std::complex<double>>>& factors) const;
  // The same for given number fractions w_k of the grid's spheres
  // (intensity_from_sums takes size_weights(p)); sums from
  // pair_sums_for_weights with the same w_k.
  std::vector<double> intensity_for_weights(const PowderParameters& p, std::span<const double> weights,
                                            std::span<const double> q,
                                            const std::vector<std::vector<double>>& sums,
                                            const std::vector<std::vector<std::complex<double>>>& factors) const;
  double atoms() const { return atoms_; }

 private:
  DebyeOptions options_;
  PowderModelOptions powder_;
  std::vector<std::string> labels_;
  std::vector<Species> species_;
  std::vector<double> species_weight_, default_b_;
  std::vector<std::vector<double>> shell_species_weight_;  // [shell][species]
  std::vector<double> shell_atoms_;
  struct Histograms;  // per species pair (m ≤ n), made once, shared by copies
  std::vector<double> cumulative_weights(std::span<const double> weights) const;  // W_m
  std::vector<std::vector<double>> sums_of(const std::vector<debye::BinArrays>& bins, double lattice_expansion,
                                           std::span<const double> q) const;
  std::shared_ptr<const Histograms> hist_;
  double bin_width_ = kDefaultBinWidth, atoms_ = 0;
};

// Polarisation factor P(2θ), all normalised so that P(0) = 1:
//   unpolarised    P = (1 + cos²2θ)/2
//   monochromator  P = (1 + cos²2θ_m cos²2θ)/(1 + cos²2θ_m)   (a monochromator
//                  crystal of angle 2θ_m, its scattering plane parallel to the
//                  sample's: the form of the LP factor in GSAS and FullProf)
//   synchrotron    P = p + (1 − p) cos²2θ,  p the fraction polarised normal to
//                  the scattering plane (GSAS-II's Polarization(Pola = p,
//                  azimuth 0); p = 0.5 gives the unpolarised case, ~0.95–0.99
//                  for a horizontally polarised beam and a vertical 2θ plane)
enum class Polarisation { unpolarised, monochromator, synchrotron };
Polarisation parse_polarisation(const std::string& name);  // "unpolarised" (or "none"), "monochromator", "synchrotron"
const char* to_string(Polarisation p);

struct PowderInstrument {
  double wavelength = 1.540562;   // λ1, Å (Cu Kα1)
  double wavelength2 = 0;         // λ2, Å; 0: a single line (Cu Kα2: 1.544390)
  double ratio = 0.5;             // I(λ2)/I(λ1)
  Polarisation polarisation = Polarisation::unpolarised;
  double monochromator_two_theta = 26.57;  // 2θ_m, degrees (graphite 002 for Cu Kα)
  double polarisation_fraction = 0.95;     // p (synchrotron)
  double fine_step = 0.005;       // degrees, of the internal 2θ grid (keep ≤ the narrowest FWHM / 5)
  double reach = 20;              // profile evaluated out to reach · H from its centre
  double margin = 2;              // degrees of fine grid beyond the range on either side (≥ reach · H
                                  // for the end points to receive every source's profile)
  void validate() const;          // fields: wavelength, wavelength2, ratio, monochromator_two_theta, ...
};

// The form of the line profile (see above).
enum class PowderProfile { pseudo_voigt, tch };
PowderProfile parse_powder_profile(const std::string& name);  // "pseudo_voigt", "tch"
const char* to_string(PowderProfile p);

struct InstrumentParameters {
  PowderProfile profile = PowderProfile::pseudo_voigt;
  double zero = 0;                 // degrees: 2θ_observed = 2θ_true + zero
  double u = 0, v = 0, w = 0.01;   // degrees², Caglioti (tch: of the Gaussian width Γ_G)
  double eta = 0.5;                // pseudo-Voigt mixing, [0, 1] (pseudo_voigt only)
  double x = 0, y = 0;             // degrees, Lorentzian width Γ_L (tch only)
  std::vector<double> background;  // Chebyshev coefficients c_k
};

// A profile's FWHM H (degrees) and mixing η at one angle.
struct ProfileWidth {
  double fwhm = 0, eta = 0;
};
// Thompson, Cox & Hastings (1987), eqs. 3–4, from the Gaussian and
// Lorentzian FWHMs (both ≥ 0, degrees):
//   H⁵ = Γ_G⁵ + 2.69269 Γ_G⁴Γ_L + 2.42843 Γ_G³Γ_L² + 4.47163 Γ_G²Γ_L³
//        + 0.07842 Γ_G Γ_L⁴ + Γ_L⁵,
//   η  = 1.36603 q − 0.47719 q² + 0.11116 q³,  q = Γ_L/H
// (H = Γ_G, η = 0 for Γ_L = 0; H = Γ_L, η = 1 for Γ_G = 0; H = η = 0 for both 0).
ProfileWidth tch_profile(double gaussian_fwhm, double lorentzian_fwhm);
// H and η of ip's profile at 2θ (degrees): Caglioti H with ip.eta, or TCH's
// with Γ_G² floored at 0 and Γ_L at 0.
ProfileWidth profile_width(const InstrumentParameters& ip, double two_theta);

// Polarisation factor at 2θ (degrees).
double polarisation_factor(const PowderInstrument& instrument, double two_theta);
// Caglioti FWHM (degrees) at 2θ (degrees); H² floored at 0 (tch: Γ_G).
double caglioti_fwhm(const InstrumentParameters& p, double two_theta);
// Unit-area pseudo-Voigt of FWHM h at offset x (both degrees), per degree.
double pseudo_voigt(double x, double h, double eta);
// The profile step: source[k] at true angle true_two_theta[k] (a uniform
// grid of `step` degrees) spread by the pseudo-Voigt of FWHM
// max(H(2θ_k), step) and mixing η(2θ_k) (profile_width), sampled on the grid out to reach · FWHM and
// normalised to unit sum (intensity is kept).
std::vector<double> profile_convolution(std::span<const double> true_two_theta, double step,
                                        std::span<const double> source, const InstrumentParameters& ip, double reach);
// The same in two steps, so that the sampled profiles can be kept:
// point k's normalised kernel covers grid points first[k], ... and its
// values are values[offset[k] .. offset[k + 1]).
struct ProfileKernels {
  std::vector<std::size_t> first, offset;
  std::vector<double> values;
};
// How many values make_profile_kernels would hold at most (kernels not cut at the grid's ends).
std::size_t profile_kernel_values(std::span<const double> true_two_theta, double step, const InstrumentParameters& ip,
                                  double reach);
ProfileKernels make_profile_kernels(std::span<const double> true_two_theta, double step, const InstrumentParameters& ip,
                                    double reach);
std::vector<double> apply_profile(const ProfileKernels& kernels, std::span<const double> source);
// Σ_k c_k T_k(x), x in [−1, 1].
double chebyshev_sum(std::span<const double> c, double x);
// The background Σ_k c_k T_k(x) at each angle, x mapped from the angles' range onto [−1, 1].
std::vector<double> chebyshev_background(std::span<const double> c, std::span<const double> two_theta);

// The pattern on fixed observed angles (strictly increasing, degrees):
// pair sums are kept while ε, zero, the wavelengths (and with a size
// distribution m and σ) do not change, so that B, the profile and the
// background cost no Debye sums.
class PowderPattern {
 public:
  PowderPattern(PowderModel model, PowderInstrument instrument, std::vector<double> two_theta);
  // y at each angle (unscaled: multiply by the fit's scale).
  std::vector<double> evaluate(const PowderParameters& p, const InstrumentParameters& ip);
  // The fine grid of observed 2θ (degrees).
  const std::vector<double>& fine_grid() const { return fine_; }
  const PowderModel& model() const { return model_; }
  const PowderInstrument& instrument() const { return instrument_; }
  const std::vector<double>& two_theta() const { return two_theta_; }
  int pair_sum_runs() const { return pair_sum_runs_; }

 private:
  PowderModel model_;
  PowderInstrument instrument_;
  std::vector<double> two_theta_, fine_;
  // Cached: per wavelength, the pair sums on the fine grid at (ε, zero,
  // and with a size distribution m, σ).
  std::vector<std::vector<std::vector<double>>> sums_;
  std::vector<std::vector<std::vector<std::complex<double>>>> factors_;  // per wavelength (at zero)
  double sums_epsilon_ = 0, sums_zero_ = 0, sums_median_ = 0, sums_sigma_ = 0;
  bool have_sums_ = false;
  // Cached: the sampled profiles at (profile, zero, U, V, W, η, X, Y), for a profile seen
  // in two evaluations running and holding no more than 2^24 values
  // (128 MB); else sampled as they are spread (instrument.cpp).
  ProfileKernels kernels_;
  std::array<double, 8> kernels_key_{}, pending_key_{};
  bool have_kernels_ = false, have_pending_key_ = false;
  int pair_sum_runs_ = 0;
};

}  // namespace nanoscatter
