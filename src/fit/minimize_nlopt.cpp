// NLopt searches (derivative-free, local or global) on χ². Global
// algorithms need finite bounds on every free parameter.
#include <nlopt.hpp>

#include <cmath>
#include <exception>
#include <limits>

#include "problem.hpp"

namespace nanoscatter::fit {

namespace {

struct Context {
  Problem* problem = nullptr;
  nlopt::opt* opt = nullptr;
  double best = std::numeric_limits<double>::infinity();
  std::exception_ptr error;
};

double objective(unsigned n, const double* x, double* /*gradient: derivative-free only*/, void* data) {
  auto& c = *static_cast<Context*>(data);
  try {
    const std::vector<double> free(x, x + n);
    const double chi2 = c.problem->chi2(c.problem->evaluate({free})[0]);
    // An "iteration" of a derivative-free search: an evaluation that improved the best.
    if (chi2 < c.best) c.best = chi2, c.problem->iteration(free, chi2);
    return chi2;
  } catch (...) {
    c.error = std::current_exception();
    c.opt->force_stop();
    return std::numeric_limits<double>::infinity();
  }
}

const char* result_words(nlopt::result r) {
  switch (r) {
    case nlopt::SUCCESS: return "success";
    case nlopt::STOPVAL_REACHED: return "stopval reached";
    case nlopt::FTOL_REACHED: return "function_tolerance reached";
    case nlopt::XTOL_REACHED: return "parameter_tolerance reached";
    case nlopt::MAXEVAL_REACHED: return "max_evaluations reached";
    case nlopt::MAXTIME_REACHED: return "time limit reached";
    default: return "failure";
  }
}

}  // namespace

Outcome minimize_nlopt(Problem& problem, const std::vector<double>& start, const std::string& algorithm) {
  const nlopt_algorithm a = nlopt_algorithm_from_string(algorithm.c_str());
  if (int(a) < 0) fail_option("name", "unknown NLopt algorithm '", algorithm, "' (e.g. GN_CRS2_LM, GN_DIRECT_L, LN_BOBYQA, LN_NELDERMEAD)");
  const unsigned n = unsigned(problem.free_count());
  nlopt::opt opt(static_cast<nlopt::algorithm>(a), n);
  const auto lower = problem.parameters().free_lower(), upper = problem.parameters().free_upper();
  const bool global = algorithm.size() > 1 && algorithm[0] == 'G';
  if (global)
    for (std::size_t k = 0; k < n; ++k)
      if (!std::isfinite(lower[k]) || !std::isfinite(upper[k])) {
        const Parameter& p = problem.parameters().parameters()[problem.parameters().free_indices()[k]];
        fail_at(p.where, "the global search ", algorithm, " needs finite min and max for '", p.name, "'");
      }
  opt.set_lower_bounds(lower);
  opt.set_upper_bounds(upper);
  const MinimizerOptions& o = problem.options();
  opt.set_maxeval(std::max(1, o.max_evaluations - problem.stage_evaluations()));
  opt.set_ftol_rel(o.function_tolerance);
  opt.set_xtol_rel(o.parameter_tolerance);
  Context context{&problem, &opt, std::numeric_limits<double>::infinity(), nullptr};
  opt.set_min_objective(objective, &context);
  std::vector<double> x = start;
  double best = 0;
  nlopt::result result = nlopt::FAILURE;
  try {
    result = opt.optimize(x, best);
  } catch (const nlopt::forced_stop&) {
  } catch (const std::exception& e) {
    if (!context.error) fail("nlopt ", algorithm, ": ", e.what());
  }
  if (context.error) std::rethrow_exception(context.error);
  Outcome out;
  out.x = x;
  out.converged = result == nlopt::SUCCESS || result == nlopt::FTOL_REACHED || result == nlopt::XTOL_REACHED ||
                  result == nlopt::STOPVAL_REACHED;
  out.message = "nlopt " + algorithm + ": " + result_words(result);
  return out;
}

}  // namespace nanoscatter::fit
