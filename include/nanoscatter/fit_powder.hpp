// The powder pattern (powder_model.hpp) as a FitModel: one row, one column
// per 2θ point of the fitted range. Paths (docs/fitting.md, "Powder fits"):
//   lattice_expansion (ε), b[X] (B of species X, Å²) and u[X] (the same as
//   U = B/8π², Å²), zero (degrees), u, v, w (Caglioti, degrees²), eta
//   (profile pseudo_voigt) or x, y (profile tch, degrees), bkg[k]
//   (Chebyshev coefficients, k < background_terms); with a size
//   distribution (PowderModelOptions::size) also size_median (Å, of the
//   expanded particles) and size_sigma (σ_ln).
// A mixture of phases (one PowderPattern each, the same instrument and
// angles) is summed incoherently, y = Σ_k s_k y_k + background, each y_k
// per atom of phase k, so s_k is proportional to phase k's number of
// atoms; its paths are the phase's own under "phase[k]." (phase[k].scale
// = s_k, 1 to start; phase[k].lattice_expansion, phase[k].b[X], ...), the
// instrument's and the background's stay as above.
// The fit's own "scale" multiplies the whole pattern, background included
// (fit.hpp: μ = s μ₀ + b): bkg[k] are in units of the unscaled pattern.
#pragma once
#include <string>
#include <vector>

#include "nanoscatter/fit.hpp"
#include "nanoscatter/powder_model.hpp"

namespace nanoscatter::fit {

class PowderFitModel : public FitModel {
 public:
  // One phase, paths without a prefix.
  PowderFitModel(PowderPattern pattern, std::size_t background_terms,
                 PowderProfile profile = PowderProfile::pseudo_voigt);
  // Phases (≥ 1, on the same angles), paths prefixed "phase[k]." each.
  PowderFitModel(std::vector<PowderPattern> phases, std::size_t background_terms, PowderProfile profile);

  std::vector<std::string> paths() const override;
  void set(const std::string& path, double value) override;
  std::size_t rows() const override { return 1; }
  std::size_t cols() const override { return phases_.front().pattern.two_theta().size(); }
  void evaluate(std::span<double> out) override;

  std::size_t phases() const { return phases_.size(); }
  const PowderPattern& pattern(std::size_t phase = 0) const { return phases_.at(phase).pattern; }
  const PowderParameters& parameters(std::size_t phase = 0) const { return phases_.at(phase).parameters; }
  const InstrumentParameters& instrument_parameters() const { return instrument_; }

 private:
  struct Phase {
    PowderPattern pattern;
    PowderParameters parameters;
    double scale = 1;
  };
  std::vector<std::string> phase_paths(const Phase& phase) const;
  bool set_phase(Phase& phase, const std::string& path, double value);
  std::vector<Phase> phases_;
  bool prefixed_ = false;
  InstrumentParameters instrument_;
};

}  // namespace nanoscatter::fit
