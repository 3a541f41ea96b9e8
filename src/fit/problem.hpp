// The fit as a function of the free parameters: free values → every
// parameter (ties) → model image → closed-form scale/background → residuals.
// Shared by the minimisers (Ceres, NLopt) and the covariance; it counts
// model evaluations, and records and prints one line per iteration.
#pragma once
#include <chrono>
#include <exception>
#include <string>
#include <vector>

#include "nanoscatter/fit.hpp"
#include "objective.hpp"
#include "parameters.hpp"

namespace nanoscatter::fit {

class Problem {
 public:
  Problem(FitModel& model, const ParameterSet& parameters, const Objective& objective,
          const ObjectiveOptions& objective_options, const MinimizerOptions& options);

  std::size_t free_count() const { return parameters_.free_count(); }
  std::size_t residual_count() const { return objective_.residual_count(); }
  const MinimizerOptions& options() const { return options_; }
  const ParameterSet& parameters() const { return parameters_; }

  // One state: every parameter's value, the image, scale and background.
  struct State {
    std::vector<double> values;  // every parameter (ParameterSet order)
    std::vector<double> image;   // unscaled model, every pixel of the grid
    double scale = 1, background = 0;
  };
  // States for several free vectors with ONE FitModel::evaluate_batch.
  std::vector<State> evaluate(const std::vector<std::vector<double>>& free_sets);
  void residuals(const State& s, double* r) const;
  double chi2(const State& s) const;

  // ∂r/∂x (residual_count × free_count, row-major) at x by finite
  // differences; the base state comes from the same batch (its residuals
  // into r0 when given).
  void jacobian(const std::vector<double>& x, double* jacobian, double* r0);
  // The finite-difference step of free parameter k at value x.
  double step(std::size_t k, double x) const;

  // Keeps the closed-form scale and background at these values instead of
  // solving them (the Jacobian of the final covariance, whose scale and
  // background columns are separate).
  void hold_linear(double scale, double background) { held_ = true, held_scale_ = scale, held_background_ = background; }

  int evaluations() const { return evaluations_; }
  // max_evaluations holds per stage (a global search, then its polish).
  bool evaluations_left() const { return stage_evaluations() < options_.max_evaluations; }
  int stage_evaluations() const { return evaluations_ - stage_start_; }
  void new_stage() { stage_start_ = evaluations_; }

  // Records (history) and prints (unless quiet) one iteration.
  void iteration(const std::vector<double>& x, double chi2);
  int iterations() const { return iterations_; }
  const std::vector<double>& history_chi2() const { return history_chi2_; }
  const std::vector<std::vector<double>>& history_values() const { return history_values_; }

 private:
  FitModel& model_;
  const ParameterSet& parameters_;
  const Objective& objective_;
  ObjectiveOptions objective_options_;
  MinimizerOptions options_;
  std::vector<std::string> model_names_;      // parameters set on the model
  std::vector<std::size_t> model_indices_;    // their indices in the ParameterSet
  int scale_index_ = -1, background_index_ = -1;
  bool held_ = false;
  // The model values and image of the first set of the last evaluate():
  // a trust-region step evaluates a candidate and then, once accepted, the
  // Jacobian at the same point, whose base image is this one.
  std::vector<double> memo_values_, memo_image_;
  double held_scale_ = 1, held_background_ = 0;
  int evaluations_ = 0, iterations_ = 0, stage_start_ = 0;
  std::vector<double> history_chi2_;
  std::vector<std::vector<double>> history_values_;
};

// What a minimiser hands back.
struct Outcome {
  std::vector<double> x;  // the best free values
  bool converged = false;
  std::string message;
};

Outcome minimize_ceres(Problem& problem, const std::vector<double>& start, bool dogleg);
Outcome minimize_nlopt(Problem& problem, const std::vector<double>& start, const std::string& algorithm);

}  // namespace nanoscatter::fit
