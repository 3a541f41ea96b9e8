// The fit as a function of the free parameters (problem.hpp).
#include "problem.hpp"

#include <cmath>
#include <cstdio>

namespace nanoscatter::fit {

namespace {
// Step scale of a parameter with neither a value nor finite bounds to
// measure it by (a parameter at 0 without bounds).
constexpr double fallback_parameter_scale = 1e-3;
}  // namespace

std::vector<std::vector<double>> FitModel::evaluate_batch(const std::vector<std::string>& names,
                                                          const std::vector<std::vector<double>>& sets) {
  std::vector<std::vector<double>> images;
  images.reserve(sets.size());
  for (const auto& set : sets) {
    for (std::size_t j = 0; j < names.size(); ++j) this->set(names[j], set[j]);
    images.emplace_back(size());
    evaluate(images.back());
  }
  return images;
}

Problem::Problem(FitModel& model, const ParameterSet& parameters, const Objective& objective,
                 const ObjectiveOptions& objective_options, const MinimizerOptions& options)
    : model_(model), parameters_(parameters), objective_(objective), objective_options_(objective_options),
      options_(options) {
  const auto& ps = parameters.parameters();
  for (std::size_t i = 0; i < ps.size(); ++i) {
    if (ps[i].name == "scale") scale_index_ = int(i);
    else if (ps[i].name == "background") background_index_ = int(i);
    else model_names_.push_back(ps[i].name), model_indices_.push_back(i);
  }
}

std::vector<Problem::State> Problem::evaluate(const std::vector<std::vector<double>>& free_sets) {
  std::vector<State> states(free_sets.size());
  std::vector<std::vector<double>> model_sets(free_sets.size());
  for (std::size_t k = 0; k < free_sets.size(); ++k) {
    states[k].values = parameters_.values(free_sets[k]);
    for (std::size_t i : model_indices_) model_sets[k].push_back(states[k].values[i]);
  }
  // Sets equal to the memo are not evaluated again (nor counted).
  std::vector<std::vector<double>> todo;
  std::vector<std::size_t> todo_index;
  for (std::size_t k = 0; k < model_sets.size(); ++k)
    if (memo_image_.empty() || model_sets[k] != memo_values_) todo.push_back(model_sets[k]), todo_index.push_back(k);
  std::vector<std::vector<double>> computed = todo.empty() ? std::vector<std::vector<double>>{}
                                                           : model_.evaluate_batch(model_names_, todo);
  evaluations_ += int(todo.size());
  std::vector<std::vector<double>> images(model_sets.size());
  for (std::size_t t = 0; t < todo.size(); ++t) images[todo_index[t]] = std::move(computed[t]);
  for (std::size_t k = 0; k < images.size(); ++k)
    if (images[k].empty()) images[k] = memo_image_;
  if (!model_sets.empty()) memo_values_ = model_sets[0], memo_image_ = images[0];
  for (std::size_t k = 0; k < states.size(); ++k) {
    State& s = states[k];
    s.image = std::move(images[k]);
    if (scale_index_ >= 0) s.scale = s.values[scale_index_];
    if (background_index_ >= 0) s.background = s.values[background_index_];
    if (!held_) {
      objective_.solve_linear(s.image.data(), s.scale, s.background);
    } else {
      if (objective_options_.scale == LinearMode::linear) s.scale = held_scale_;
      if (objective_options_.background == LinearMode::linear) s.background = held_background_;
    }
  }
  return states;
}

void Problem::residuals(const State& s, double* r) const {
  objective_.residuals(s.image.data(), s.scale, s.background, r);
}

double Problem::chi2(const State& s) const {
  std::vector<double> r(residual_count());
  residuals(s, r.data());
  double sum = 0;
  for (double v : r) sum += v * v;
  return sum;
}

double Problem::step(std::size_t k, double x) const {
  const Parameter& p = parameters_.parameters()[parameters_.free_indices()[k]];
  double scale = std::abs(x);
  if (std::isfinite(p.max - p.min)) scale = std::max(scale, p.max - p.min);
  if (scale == 0) scale = fallback_parameter_scale;
  return options_.step * scale;
}

void Problem::jacobian(const std::vector<double>& x, double* jacobian, double* r0) {
  const std::size_t n = residual_count(), m = free_count();
  const bool central = options_.difference == DifferenceScheme::central;
  const auto lower = parameters_.free_lower(), upper = parameters_.free_upper();
  // Base, then per parameter one (forward) or two (central) displaced
  // points; a step that would leave the bounds is taken the other way.
  std::vector<std::vector<double>> sets{x};
  std::vector<double> h(m);
  for (std::size_t k = 0; k < m; ++k) {
    h[k] = step(k, x[k]);
    if (central) {
      if (x[k] - h[k] < lower[k] || x[k] + h[k] > upper[k]) {
        if (x[k] + h[k] > upper[k]) h[k] = -h[k];
        sets.push_back(x), sets.back()[k] += h[k];
        sets.push_back(x);  // one-sided: the base stands in for the far point
      } else {
        sets.push_back(x), sets.back()[k] += h[k];
        sets.push_back(x), sets.back()[k] -= h[k];
      }
    } else {
      if (x[k] + h[k] > upper[k]) h[k] = -h[k];
      sets.push_back(x), sets.back()[k] += h[k];
    }
  }
  const std::vector<State> states = evaluate(sets);
  std::vector<double> base(n), plus(n), minus(n);
  residuals(states[0], base.data());
  if (r0) std::copy(base.begin(), base.end(), r0);
  for (std::size_t k = 0; k < m; ++k) {
    if (central) {
      residuals(states[1 + 2 * k], plus.data());
      residuals(states[2 + 2 * k], minus.data());
      const bool one_sided = sets[2 + 2 * k] == x;
      const double denominator = one_sided ? h[k] : 2 * h[k];
      for (std::size_t i = 0; i < n; ++i) jacobian[i * m + k] = (plus[i] - minus[i]) / denominator;
    } else {
      residuals(states[1 + k], plus.data());
      for (std::size_t i = 0; i < n; ++i) jacobian[i * m + k] = (plus[i] - base[i]) / h[k];
    }
  }
}

void Problem::iteration(const std::vector<double>& x, double chi2) {
  const std::vector<double> values = parameters_.values(x);
  if (!options_.quiet) {
    std::string changed;
    const auto& ps = parameters_.parameters();
    for (std::size_t i = 0; i < ps.size(); ++i) {
      if (!history_values_.empty() && history_values_.back()[i] == values[i]) continue;
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, " %.8g", values[i]);
      changed += "  " + ps[i].name + " =" + buffer;
    }
    std::fprintf(stderr, "fit: iteration %d  chi2 = %.8g%s\n", iterations_, chi2, changed.c_str());
  }
  history_chi2_.push_back(chi2);
  history_values_.push_back(values);
  ++iterations_;
}

}  // namespace nanoscatter::fit
