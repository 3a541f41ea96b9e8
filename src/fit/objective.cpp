// The objectives' residuals and the variable projection of scale and
// background (fit.hpp has the definitions).
#include "objective.hpp"

#include <cmath>

namespace nanoscatter::fit {

namespace {
// Poisson weights σ² = max(n, 1): a pixel of 0 or 1 counts has unit variance
// (BornAgain's and lmfit-style Poisson weighting), avoiding division by 0.
constexpr double min_poisson_variance = 1.0;
// Floor of μ inside logarithms (deviance, log): keeps ln μ finite for a
// model that touches 0, far below any physical intensity.
constexpr double mu_floor = 1e-300;
}  // namespace

Objective::Objective(const FitData& data, const ObjectiveOptions& options) : data_(data), options_(options) {
  options_.validate();
  const std::size_t n = data.rows * data.cols;
  if (data.values.size() != n || data.use.size() != n) fail("fit data: values or mask do not match rows × cols");
  const bool needs_sigma = options.kind == ObjectiveKind::chi2;
  if (needs_sigma && data.sigma.size() != n)
    fail_option("sigma", "the chi2 objective needs σ for every pixel (sigma = a dataset)");
  for (std::size_t p = 0; p < n; ++p) {
    if (!data.use[p]) continue;
    if (options.kind == ObjectiveKind::log && !(data.values[p] > 0)) continue;  // ln d undefined
    if (needs_sigma && !(data.sigma[p] > 0)) continue;                           // no information
    used_.push_back(p);
  }
  if (used_.empty()) fail("fit data: every pixel is masked or outside the region");
}

double Objective::weight(std::size_t p, double mu) const {
  switch (options_.kind) {
    case ObjectiveKind::chi2: return 1.0 / (data_.sigma[p] * data_.sigma[p]);
    case ObjectiveKind::poisson_data: return 1.0 / std::max(data_.values[p], min_poisson_variance);
    default: return 1.0 / std::max(mu, min_poisson_variance);
  }
}

void Objective::residuals(const double* model, double scale, double background, double* r) const {
  for (std::size_t k = 0; k < used_.size(); ++k) {
    const std::size_t p = used_[k];
    const double d = data_.values[p];
    const double mu = scale * model[p] + background;
    switch (options_.kind) {
      case ObjectiveKind::chi2:
      case ObjectiveKind::poisson_data:
      case ObjectiveKind::poisson_model:
        r[k] = (mu - d) * std::sqrt(weight(p, mu));
        break;
      case ObjectiveKind::deviance: {
        const double m = std::max(mu, mu_floor);
        const double term = d > 0 ? m - d + d * std::log(d / m) : m;
        r[k] = std::copysign(std::sqrt(2 * std::max(term, 0.0)), m - d);
        break;
      }
      case ObjectiveKind::log:
        r[k] = std::log(std::max(mu, mu_floor)) - std::log(d);
        break;
    }
  }
}

void Objective::solve_linear(const double* model, double& scale, double& background) const {
  const bool solve_s = options_.scale == LinearMode::linear;
  const bool solve_b = options_.background == LinearMode::linear;
  if (!solve_s && !solve_b) return;
  if (options_.kind == ObjectiveKind::log) {
    // ln s = mean(ln d − ln μ₀) over pixels where μ₀ > 0 (exact for b = 0,
    // which ObjectiveOptions::validate requires here).
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t p : used_)
      if (model[p] > 0) sum += std::log(data_.values[p]) - std::log(model[p]), ++n;
    if (n) scale = std::exp(sum / double(n));
    return;
  }
  const bool model_weights =
      options_.kind == ObjectiveKind::poisson_model || options_.kind == ObjectiveKind::deviance;
  const int rounds = model_weights ? options_.reweight_iterations : 1;
  for (int round = 0; round < rounds; ++round) {
    // Weighted normal equations of min Σ w (s μ₀ + b − d)².
    double sw = 0, swm = 0, swmm = 0, swd = 0, swmd = 0;
    for (std::size_t p : used_) {
      const double d = data_.values[p], m = model[p];
      double w;
      if (!model_weights) w = weight(p, 0);
      else if (round == 0) w = 1.0 / std::max(d, min_poisson_variance);
      else w = 1.0 / std::max(scale * m + background, min_poisson_variance);
      sw += w, swm += w * m, swmm += w * m * m, swd += w * d, swmd += w * m * d;
    }
    if (solve_s && solve_b) {
      const double det = sw * swmm - swm * swm;
      if (det > 0) {
        scale = (sw * swmd - swm * swd) / det;
        background = (swmm * swd - swm * swmd) / det;
      }
    } else if (solve_s) {
      if (swmm > 0) scale = (swmd - background * swm) / swmm;
    } else if (sw > 0) {
      background = (swd - scale * swm) / sw;
    }
  }
}

}  // namespace nanoscatter::fit
