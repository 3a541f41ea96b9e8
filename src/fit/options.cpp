// Names and checks of the objective and minimiser options (fit.hpp), once.
#include <cmath>

#include "nanoscatter/fit.hpp"

namespace nanoscatter::fit {

namespace {
constexpr int max_reweight_iterations = 100;
}

ObjectiveKind parse_objective_kind(const std::string& name) {
  if (name == "chi2") return ObjectiveKind::chi2;
  if (name == "poisson_data") return ObjectiveKind::poisson_data;
  if (name == "poisson_model") return ObjectiveKind::poisson_model;
  if (name == "deviance") return ObjectiveKind::deviance;
  if (name == "log") return ObjectiveKind::log;
  fail_option("kind", "unknown objective '", name, "' (chi2, poisson_data, poisson_model, deviance, log)");
}

LinearMode parse_linear_mode(const std::string& name, const std::string& field) {
  if (name == "fit") return LinearMode::fit;
  if (name == "linear") return LinearMode::linear;
  if (name == "none" && field == "background") return LinearMode::none;
  fail_option(field, "unknown mode '", name, field == "background" ? "' (fit, linear, none)" : "' (fit, linear)");
}

const char* to_string(ObjectiveKind kind) {
  switch (kind) {
    case ObjectiveKind::chi2: return "chi2";
    case ObjectiveKind::poisson_data: return "poisson_data";
    case ObjectiveKind::poisson_model: return "poisson_model";
    case ObjectiveKind::deviance: return "deviance";
    case ObjectiveKind::log: return "log";
  }
  return "?";
}

const char* to_string(LinearMode mode) {
  switch (mode) {
    case LinearMode::fit: return "fit";
    case LinearMode::linear: return "linear";
    case LinearMode::none: return "none";
  }
  return "?";
}

void ObjectiveOptions::validate() const {
  if (scale == LinearMode::none) fail_option("scale", "the scale is fit or linear, not none");
  if (kind == ObjectiveKind::log && background == LinearMode::linear)
    fail_option("background", "the log objective has no closed-form background: use fit or none");
  if (kind == ObjectiveKind::log && scale == LinearMode::linear && background != LinearMode::none)
    fail_option("scale", "the log objective's closed-form scale needs background = none: set scale = fit");
  if (reweight_iterations < 1 || reweight_iterations > max_reweight_iterations)
    fail_option("reweight_iterations", "must lie in [1, ", max_reweight_iterations, "], got ", reweight_iterations);
}

void MinimizerOptions::validate() const {
  if (name != "lm" && name != "dogleg" && name.rfind("nlopt:", 0) != 0)
    fail_option("name", "unknown minimizer '", name, "' (lm, dogleg, nlopt:<ALGORITHM> such as nlopt:GN_CRS2_LM)");
  if (max_evaluations < 1) fail_option("max_evaluations", "must be ≥ 1, got ", max_evaluations);
  if (max_iterations < 1) fail_option("max_iterations", "must be ≥ 1, got ", max_iterations);
  for (auto [value, field] : {std::pair{function_tolerance, "function_tolerance"},
                              std::pair{parameter_tolerance, "parameter_tolerance"},
                              std::pair{gradient_tolerance, "gradient_tolerance"}})
    if (!(value >= 0) || !std::isfinite(value)) fail_option(field, "must be a finite number ≥ 0, got ", value);
  if (!(step > 0 && step < 1)) fail_option("step", "must lie in (0, 1), got ", step);
}

}  // namespace nanoscatter::fit
