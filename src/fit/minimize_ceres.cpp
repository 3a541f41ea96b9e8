// Ceres trust-region least squares (Levenberg–Marquardt or dogleg) with
// bounds. The Jacobian is a finite difference computed by ONE batch of
// model evaluations (Problem::jacobian), so a model that evaluates batches
// at once (GPU) serves the whole Jacobian in one call.
#include <ceres/ceres.h>
#include <glog/logging.h>

#include <exception>

#include "problem.hpp"

namespace nanoscatter::fit {

namespace {

class BatchCost : public ceres::CostFunction {
 public:
  explicit BatchCost(Problem& problem) : problem_(problem) {
    set_num_residuals(int(problem.residual_count()));
    mutable_parameter_block_sizes()->push_back(int(problem.free_count()));
  }

  bool Evaluate(double const* const* parameters, double* residuals, double** jacobians) const override {
    // Exceptions must not cross Ceres: kept and rethrown after Solve.
    try {
      const std::vector<double> x(parameters[0], parameters[0] + problem_.free_count());
      if (jacobians && jacobians[0]) {
        problem_.jacobian(x, jacobians[0], residuals);
      } else {
        const auto states = problem_.evaluate({x});
        problem_.residuals(states[0], residuals);
      }
      return true;
    } catch (...) {
      error = std::current_exception();
      return false;
    }
  }

  mutable std::exception_ptr error;

 private:
  Problem& problem_;
};

// Records each accepted iterate (Ceres updates the parameter block every
// iteration: update_state_every_iteration) and stops at max_evaluations.
// An aborted Solve puts the start back into the parameter block, so the
// last accepted iterate is kept here: a fit stopped by max_evaluations
// reports where it got to, not where it began.
class Recorder : public ceres::IterationCallback {
 public:
  Recorder(Problem& problem, const std::vector<double>& x) : problem_(problem), x_(x), accepted(x) {}
  ceres::CallbackReturnType operator()(const ceres::IterationSummary& summary) override {
    if (summary.iteration == 0 || summary.step_is_successful) {
      problem_.iteration(x_, 2 * summary.cost);
      accepted = x_;
    }
    if (!problem_.evaluations_left()) {
      stopped = true;
      return ceres::SOLVER_ABORT;
    }
    return ceres::SOLVER_CONTINUE;
  }
  bool stopped = false;
  std::vector<double> accepted;  // the last accepted iterate

 private:
  Problem& problem_;
  const std::vector<double>& x_;
};

}  // namespace

Outcome minimize_ceres(Problem& problem, const std::vector<double>& start, bool dogleg) {
  std::vector<double> x = start;
  const std::size_t m = problem.free_count();
  auto* cost = new BatchCost(problem);  // owned by the ceres::Problem
  ceres::Problem::Options problem_options;
  ceres::Problem ceres_problem(problem_options);
  ceres_problem.AddResidualBlock(cost, nullptr, x.data());
  const auto lower = problem.parameters().free_lower(), upper = problem.parameters().free_upper();
  for (std::size_t k = 0; k < m; ++k) {
    if (std::isfinite(lower[k])) ceres_problem.SetParameterLowerBound(x.data(), int(k), lower[k]);
    if (std::isfinite(upper[k])) ceres_problem.SetParameterUpperBound(x.data(), int(k), upper[k]);
  }
  // Ceres reports through glog; every failure of ours comes back as an
  // exception (BatchCost::error) or in the summary, so glog's lines on
  // stderr (one per failed evaluation, "Logging before InitGoogleLogging")
  // would only break the one-line error contract.
  FLAGS_minloglevel = google::GLOG_FATAL;
  const MinimizerOptions& o = problem.options();
  ceres::Solver::Options options;
  options.minimizer_type = ceres::TRUST_REGION;
  options.trust_region_strategy_type = dogleg ? ceres::DOGLEG : ceres::LEVENBERG_MARQUARDT;
  options.linear_solver_type = ceres::DENSE_QR;
  options.max_num_iterations = o.max_iterations;
  options.function_tolerance = o.function_tolerance;
  options.parameter_tolerance = o.parameter_tolerance;
  options.gradient_tolerance = o.gradient_tolerance;
  options.logging_type = ceres::SILENT;
  options.minimizer_progress_to_stdout = false;
  options.update_state_every_iteration = true;
  options.num_threads = 1;  // the model's own evaluation is threaded
  Recorder recorder(problem, x);
  options.callbacks.push_back(&recorder);
  ceres::Solver::Summary summary;
  ceres::Solve(options, &ceres_problem, &summary);
  if (cost->error) std::rethrow_exception(cost->error);

  Outcome out;
  out.x = recorder.stopped ? recorder.accepted : x;
  out.converged = summary.termination_type == ceres::CONVERGENCE;
  out.message = std::string(dogleg ? "ceres dogleg: " : "ceres levenberg-marquardt: ") +
                (recorder.stopped ? "stopped after max_evaluations model evaluations" : summary.message);
  if (summary.termination_type == ceres::NO_CONVERGENCE) out.message += " (max_iterations reached)";
  return out;
}

}  // namespace nanoscatter::fit
