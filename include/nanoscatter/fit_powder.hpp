// The powder pattern (powder_model.hpp) as a FitModel: one row, one column
// per 2θ point of the fitted range. Paths (docs/fitting.md, "Powder fits"):
//   lattice_expansion (ε), b[X] (B of species X, Å²) and u[X] (the same as
//   U = B/8π², Å²), zero (degrees), u, v, w (Caglioti, degrees²), eta,
//   bkg[k] (Chebyshev coefficients, k < background_terms); with a size
//   distribution (PowderModelOptions::size) also size_median (Å, of the
//   expanded particles) and size_sigma (σ_ln).
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
  PowderFitModel(PowderPattern pattern, std::size_t background_terms);

  std::vector<std::string> paths() const override;
  void set(const std::string& path, double value) override;
  std::size_t rows() const override { return 1; }
  std::size_t cols() const override { return pattern_.two_theta().size(); }
  void evaluate(std::span<double> out) override;

  const PowderPattern& pattern() const { return pattern_; }
  const PowderParameters& parameters() const { return parameters_; }
  const InstrumentParameters& instrument_parameters() const { return instrument_; }

 private:
  PowderPattern pattern_;
  PowderParameters parameters_;
  InstrumentParameters instrument_;
};

}  // namespace nanoscatter::fit
