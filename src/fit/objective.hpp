// Residuals of the objectives and the closed-form scale and background
// (fit.hpp states the equations).
#pragma once
#include <cstddef>
#include <vector>

#include "nanoscatter/fit.hpp"

namespace nanoscatter::fit {

class Objective {
 public:
  // Checks the data against the options (σ present and > 0 for chi2,
  // finite values, at least one used pixel).
  Objective(const FitData& data, const ObjectiveOptions& options);

  std::size_t residual_count() const { return used_.size(); }
  const std::vector<std::size_t>& used_pixels() const { return used_; }

  // r_i over the used pixels for μ = scale·model + background.
  void residuals(const double* model, double scale, double background, double* r) const;
  // (scale, background) of the closed form for the modes that are
  // "linear"; the others keep the values passed in.
  void solve_linear(const double* model, double& scale, double& background) const;
  // The weight 1/σ² of pixel p for model value mu (objectives with σ).
  double weight(std::size_t pixel, double mu) const;

 private:
  const FitData& data_;
  ObjectiveOptions options_;
  std::vector<std::size_t> used_;
};

}  // namespace nanoscatter::fit
