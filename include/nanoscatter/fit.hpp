// Fitting a model image to data (engine-independent; docs/fitting.md).
//
// A fit has parameters (model paths such as "particle[0].radius", plus the
// special "scale" and "background"), a FitModel that computes the unscaled
// model image μ₀ for given parameter values, data d with a mask, and an
// objective. The fitted image is μ = s μ₀ + b (s = scale, b = background).
// Every objective is a sum of squared residuals F = Σ r_i² over the used
// pixels (mask 1 and inside the region), which is what Ceres minimises:
//   chi2           r = (μ − d)/σ,  σ from the data file
//   poisson_data   r = (μ − d)/σ,  σ² = max(d, 1)
//   poisson_model  r = (μ − d)/σ,  σ² = max(μ, 1)      (BornAgain's default)
//   deviance       r = sign(μ − d) √(2(μ − d + d ln(d/μ)))  (Poisson deviance;
//                  the d ln(d/μ) term is 0 where d = 0; μ floored at
//                  μ_floor = 1e-300 so that ln stays finite)
//   log            r = ln μ − ln d  (pixels with d ≤ 0 are not used; μ floored)
// χ² is F at the minimum; χ²_red = χ²/ν, ν = used pixels − free parameters
// (the closed-form scale and background count as free).
//
// Scale and background are either parameters of the minimiser ("fit") or
// solved in closed form on every evaluation ("linear": variable projection):
// the weighted linear least squares min Σ w_i (s μ₀_i + b − d_i)², with
// w = 1/σ². Where σ depends on the model (poisson_model, deviance) the
// weights are iterated from w = 1/max(d, 1): w ← 1/max(μ, 1), a fixed number
// of times (ObjectiveOptions::reweight_iterations). For deviance this
// fixed point is the Poisson maximum-likelihood (s, b) exactly; for
// poisson_model it is that too, which differs from the minimum of its χ²
// by O(1/counts). For log, only the scale is linear (ln s = mean of
// ln d − ln μ₀), and only with background = none.
//
// Uncertainties: C = (Jᵀ J)⁻¹ · χ²_red, J = ∂r/∂p at the minimum over the
// free parameters and the closed-form scale/background (whose columns are
// taken with the others, so C is the full covariance). This is the
// convention of lmfit (scale_covar = True) and BornAgain: σ_i = √C_ii.
// Tied parameters get σ by propagating C through the tie (first order).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nanoscatter/error.hpp"

namespace nanoscatter::fit {

inline constexpr double unbounded = std::numeric_limits<double>::infinity();

// One parameter of a fit. `name` is a model path (FitModel::paths()) or
// "scale" / "background".
struct Parameter {
  std::string name;
  double start = 0;
  double min = -unbounded, max = unbounded;
  bool fixed = false;
  // An expression of other parameters (muParser syntax; parameters are
  // written by their names, e.g. "2*particle[0].radius + 1"); "" = free or fixed.
  std::string tie;
  // Where it was defined (messages): its path, its bounds, its tie.
  Where where, bounds_where, tie_where;
};

// What a fit needs from an engine: named values to set, and the image they
// give, always the same pixels in the same (row-major) order.
class FitModel {
 public:
  virtual ~FitModel() = default;
  // Every path set() accepts.
  virtual std::vector<std::string> paths() const = 0;
  virtual void set(const std::string& path, double value) = 0;
  virtual std::size_t rows() const = 0;
  virtual std::size_t cols() const = 0;
  std::size_t size() const { return rows() * cols(); }
  // The unscaled image at the current values.
  virtual void evaluate(std::span<double> out) = 0;
  // Images for several sets of values of `names` (sets[k][j] is names[j]'s
  // value in set k), e.g. the columns of a finite-difference Jacobian. The
  // values set last stay set. The default loops over set() and evaluate();
  // a model can do better (the sets at once on a GPU).
  virtual std::vector<std::vector<double>> evaluate_batch(const std::vector<std::string>& names,
                                                          const std::vector<std::vector<double>>& sets);
};

enum class ObjectiveKind { chi2, poisson_data, poisson_model, deviance, log };
enum class LinearMode { fit, linear, none };  // scale: fit | linear; background: fit | linear | none
ObjectiveKind parse_objective_kind(const std::string& name);  // fail_option("kind", ...)
LinearMode parse_linear_mode(const std::string& name, const std::string& field);
const char* to_string(ObjectiveKind kind);
const char* to_string(LinearMode mode);

struct ObjectiveOptions {
  ObjectiveKind kind = ObjectiveKind::poisson_data;
  LinearMode scale = LinearMode::linear;
  LinearMode background = LinearMode::linear;
  // Reweighting rounds of the closed-form (s, b) for model-dependent
  // weights (see above); 1–100.
  int reweight_iterations = 5;
  void validate() const;
};

enum class DifferenceScheme { forward, central };

struct MinimizerOptions {
  // "lm" (Ceres Levenberg–Marquardt), "dogleg" (Ceres dogleg trust region),
  // or "nlopt:<ALGORITHM>" with an NLopt algorithm name without its "NLOPT_"
  // prefix (GN_CRS2_LM, GN_DIRECT_L, LN_BOBYQA, LN_NELDERMEAD, ...).
  std::string name = "lm";
  int max_evaluations = 2000;  // model evaluations (images) per stage (search, polish)
  int max_iterations = 200;    // Ceres iterations
  double function_tolerance = 1e-10;   // relative change of χ² (Ceres, NLopt ftol_rel)
  double parameter_tolerance = 1e-10;  // relative change of the parameters (Ceres, NLopt xtol_rel)
  double gradient_tolerance = 1e-12;   // Ceres
  DifferenceScheme difference = DifferenceScheme::forward;
  // Finite-difference step relative to the parameter's scale:
  // h = step · max(|p|, (max − min) where finite, 1e-3 where neither).
  double step = 1e-6;
  bool polish = false;  // after an NLopt search: LM from its best point
  bool quiet = false;   // one line per iteration on stderr unless quiet
  void validate() const;
};

// Data on the model's pixel grid (rows × cols, row 0 = the model's row 0).
struct FitData {
  std::size_t rows = 0, cols = 0;
  std::vector<double> values;
  std::vector<double> sigma;        // empty unless the objective is chi2
  std::vector<std::uint8_t> use;    // 1 = used (not masked, inside the region)
};

struct ParameterResult {
  std::string name;
  double value = 0, sigma = 0;  // sigma 0 for fixed parameters, NaN where C is singular
  double min = -unbounded, max = unbounded;
  bool fixed = false, tied = false, linear = false;  // linear: solved in closed form
  std::string tie;
};

struct FitResult {
  std::vector<ParameterResult> parameters;  // as given, then closed-form scale/background
  // Over the free parameters and the closed-form terms (correlation_names).
  std::vector<std::string> correlation_names;
  std::vector<double> correlation;  // n × n, row-major
  double chi2 = 0, chi2_reduced = 0;
  long degrees_of_freedom = 0;
  int iterations = 0, evaluations = 0;
  double seconds = 0;
  bool converged = false;
  std::string message;  // the minimiser's words
  std::size_t rows = 0, cols = 0;
  std::vector<double> model;                 // the fitted image μ (all pixels of the grid)
  std::vector<double> residual;              // μ − d (NaN where not used)
  std::vector<double> normalised_residual;   // r_i (NaN where not used)
  std::vector<double> history_chi2;          // per iteration
  std::vector<std::vector<double>> history_parameters;  // per iteration, all parameters
  double value(const std::string& name) const;  // throws for an unknown name
  const ParameterResult& parameter(const std::string& name) const;
};

// Minimises the objective over the free parameters of `parameters` (the
// model's paths are checked: an unknown path, bounds excluding the start, a
// tie cycle or a tie naming an unknown parameter throw Error at the
// parameter's Where). `model` is left at the best values.
FitResult run_fit(FitModel& model, const std::vector<Parameter>& parameters, const FitData& data,
                  const ObjectiveOptions& objective, const MinimizerOptions& minimizer);

}  // namespace nanoscatter::fit
