// run_fit: checks, the minimiser stages, and the results with their
// covariance (fit.hpp states the conventions).
#include <Eigen/Dense>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "problem.hpp"

namespace nanoscatter::fit {

namespace {

// Eigenvalues of JᵀJ below this fraction of the largest mark directions
// the data do not determine: C is singular and σ is reported as NaN.
constexpr double singular_fraction = 1e-14;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// Parameters as given, plus "scale"/"background" for the modes "fit"
// where the file does not name them (their start: the closed form at the
// start of the others, so that a fit of counts does not start at s = 1).
std::vector<Parameter> completed(std::vector<Parameter> parameters, const ObjectiveOptions& objective,
                                 FitModel& model, const FitData& data) {
  auto named = [&](const char* n) {
    for (const auto& p : parameters)
      if (p.name == n) return true;
    return false;
  };
  for (const char* name : {"scale", "background"}) {
    const LinearMode mode = std::string(name) == "scale" ? objective.scale : objective.background;
    if (mode != LinearMode::fit && named(name))
      for (const auto& p : parameters)
        if (p.name == name)
          fail_at(p.where, "'", name, "' is ", mode == LinearMode::linear ? "solved in closed form" : "not used",
                  " (objective ", name, " = ", to_string(mode), "): set ", name, " = \"fit\" to fit it as a parameter");
  }
  const bool add_scale = objective.scale == LinearMode::fit && !named("scale");
  const bool add_background = objective.background == LinearMode::fit && !named("background");
  if (add_scale || add_background) {
    ObjectiveOptions closed = objective;
    closed.scale = add_scale ? LinearMode::linear : LinearMode::fit;
    closed.background = add_background ? LinearMode::linear : LinearMode::fit;
    // Only a start: the weighted least squares of Poisson weights serves every objective.
    closed.kind = ObjectiveKind::poisson_data;
    for (const auto& p : parameters)
      if (p.name != "scale" && p.name != "background") model.set(p.name, p.start);
    std::vector<double> image(model.size());
    model.evaluate(image);
    double s = 1, b = 0;
    for (const auto& p : parameters) {
      if (p.name == "scale") s = p.start;
      if (p.name == "background") b = p.start;
    }
    Objective(data, closed).solve_linear(image.data(), s, b);
    if (add_scale) parameters.push_back({"scale", s, -unbounded, unbounded, false, "", {}, {}, {}});
    if (add_background) parameters.push_back({"background", b, -unbounded, unbounded, false, "", {}, {}, {}});
  }
  return parameters;
}

}  // namespace

double FitResult::value(const std::string& name) const { return parameter(name).value; }

const ParameterResult& FitResult::parameter(const std::string& name) const {
  for (const auto& p : parameters)
    if (p.name == name) return p;
  fail("the fit result has no parameter '", name, "'");
}

FitResult run_fit(FitModel& model, const std::vector<Parameter>& given, const FitData& data,
                  const ObjectiveOptions& objective_options, const MinimizerOptions& minimizer) {
  const auto started = std::chrono::steady_clock::now();
  objective_options.validate();
  minimizer.validate();
  if (data.rows != model.rows() || data.cols != model.cols())
    fail("fit data: ", data.rows, " × ", data.cols, " pixels, the model computes ", model.rows(), " × ",
         model.cols());
  const Objective objective(data, objective_options);
  // Paths are checked before the closed-form start needs the model.
  { ParameterSet check(given, model.paths()); }
  ParameterSet parameters(completed(given, objective_options, model, data), model.paths());
  Problem problem(model, parameters, objective, objective_options, minimizer);

  // ---- minimise -------------------------------------------------------------
  Outcome outcome;
  const std::vector<double> start = parameters.free_start();
  if (parameters.free_count() == 0) {
    outcome = {start, true, "no free parameter: evaluated at the start"};
  } else if (minimizer.name == "lm" || minimizer.name == "dogleg") {
    outcome = minimize_ceres(problem, start, minimizer.name == "dogleg");
  } else {
    outcome = minimize_nlopt(problem, start, minimizer.name.substr(std::string("nlopt:").size()));
    if (minimizer.polish) {
      problem.new_stage();
      const Outcome polished = minimize_ceres(problem, outcome.x, false);
      outcome = {polished.x, polished.converged, outcome.message + "; polished: " + polished.message};
    }
  }

  // ---- the state at the minimum and its Jacobian ----------------------------
  // Columns: the free parameters, then the closed-form scale and background.
  const std::size_t n = problem.residual_count(), m = problem.free_count();
  std::vector<double> jacobian(n * std::max<std::size_t>(m, 1));
  std::vector<double> r(n);
  Problem::State best = problem.evaluate({outcome.x})[0];
  problem.hold_linear(best.scale, best.background);
  if (m) {
    problem.jacobian(outcome.x, jacobian.data(), r.data());
    best = problem.evaluate({outcome.x})[0];  // leaves the model at the best values
  }
  problem.residuals(best, r.data());
  std::vector<std::string> names;
  for (std::size_t k : parameters.free_indices()) names.push_back(parameters.parameters()[k].name);
  std::vector<std::vector<double>> columns(m, std::vector<double>(n));
  for (std::size_t k = 0; k < m; ++k)
    for (std::size_t i = 0; i < n; ++i) columns[k][i] = jacobian[i * m + k];
  auto linear_column = [&](bool is_scale) {
    // ∂r/∂s, ∂r/∂b by central differences of the residuals (no model
    // evaluation: μ = s μ₀ + b), σ's dependence on μ included alike.
    const double value = is_scale ? best.scale : best.background;
    const double h = minimizer.step * std::max(std::abs(value), 1.0);
    std::vector<double> plus(n), minus(n), column(n);
    objective.residuals(best.image.data(), best.scale + (is_scale ? h : 0), best.background + (is_scale ? 0 : h),
                        plus.data());
    objective.residuals(best.image.data(), best.scale - (is_scale ? h : 0), best.background - (is_scale ? 0 : h),
                        minus.data());
    for (std::size_t i = 0; i < n; ++i) column[i] = (plus[i] - minus[i]) / (2 * h);
    return column;
  };
  if (objective_options.scale == LinearMode::linear) names.push_back("scale"), columns.push_back(linear_column(true));
  if (objective_options.background == LinearMode::linear)
    names.push_back("background"), columns.push_back(linear_column(false));

  FitResult result;
  const std::size_t q = columns.size();
  double chi2 = 0;
  for (double v : r) chi2 += v * v;
  result.chi2 = chi2;
  result.degrees_of_freedom = long(n) - long(q);
  result.chi2_reduced = result.degrees_of_freedom > 0 ? chi2 / double(result.degrees_of_freedom) : nan;

  // C = (JᵀJ)⁻¹ χ²_red (lmfit's scale_covar, BornAgain).
  Eigen::MatrixXd jtj(q, q);
  for (std::size_t a = 0; a < q; ++a)
    for (std::size_t b = 0; b <= a; ++b) {
      double s = 0;
      for (std::size_t i = 0; i < n; ++i) s += columns[a][i] * columns[b][i];
      jtj(a, b) = jtj(b, a) = s;
    }
  // A column the data do not see at all (J's column zero: a parameter on a
  // bound where the model's derivative vanishes, as Qdamp at 0) would make
  // the whole of JᵀJ singular: it gets σ = NaN, and C of the others is the
  // inverse without it (as if it were fixed there).
  std::vector<std::size_t> seen;
  double largest_diagonal = 0;
  for (std::size_t a = 0; a < q; ++a) largest_diagonal = std::max(largest_diagonal, jtj(a, a));
  for (std::size_t a = 0; a < q; ++a)
    if (jtj(a, a) > singular_fraction * largest_diagonal) seen.push_back(a);
  Eigen::MatrixXd covariance = Eigen::MatrixXd::Constant(q, q, nan);
  if (!seen.empty()) {
    const std::size_t u = seen.size();
    Eigen::MatrixXd reduced(u, u);
    for (std::size_t a = 0; a < u; ++a)
      for (std::size_t b = 0; b < u; ++b) reduced(a, b) = jtj(seen[a], seen[b]);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(reduced);
    const auto& lambda = eigen.eigenvalues();
    if (eigen.info() == Eigen::Success && lambda.minCoeff() > singular_fraction * lambda.maxCoeff() &&
        std::isfinite(result.chi2_reduced)) {
      const Eigen::MatrixXd c = eigen.eigenvectors() * lambda.cwiseInverse().asDiagonal() *
                                eigen.eigenvectors().transpose() * result.chi2_reduced;
      for (std::size_t a = 0; a < u; ++a)
        for (std::size_t b = 0; b < u; ++b) covariance(seen[a], seen[b]) = c(a, b);
    }
  }
  result.correlation_names = names;
  result.correlation.resize(q * q);
  for (std::size_t a = 0; a < q; ++a)
    for (std::size_t b = 0; b < q; ++b)
      result.correlation[a * q + b] = covariance(a, b) / std::sqrt(covariance(a, a) * covariance(b, b));

  // ---- the parameter table ----------------------------------------------------
  const auto& ps = parameters.parameters();
  auto sigma_of_column = [&](std::size_t k) { return std::sqrt(covariance(k, k)); };
  for (std::size_t i = 0; i < ps.size(); ++i) {
    ParameterResult p{ps[i].name, best.values[i], 0, ps[i].min, ps[i].max, ps[i].fixed, !ps[i].tie.empty(), false,
                      ps[i].tie};
    if (p.name == "scale") p.value = best.scale;
    if (p.name == "background") p.value = best.background;
    for (std::size_t k = 0; k < m; ++k)
      if (parameters.free_indices()[k] == i) p.sigma = sigma_of_column(k);
    if (p.tied && m) {
      // First-order propagation σ² = gᵀ C g, g = ∂tie/∂free (no model evaluation).
      std::vector<double> g(m);
      for (std::size_t k = 0; k < m; ++k) {
        std::vector<double> x = outcome.x;
        const double h = problem.step(k, x[k]);
        x[k] += h;
        g[k] = (parameters.values(x)[i] - best.values[i]) / h;
      }
      double variance = 0;
      for (std::size_t a = 0; a < m; ++a)
        for (std::size_t b = 0; b < m; ++b) variance += g[a] * covariance(a, b) * g[b];
      p.sigma = std::sqrt(variance);
    }
    result.parameters.push_back(p);
  }
  for (std::size_t k = m; k < q; ++k) {
    const bool is_scale = names[k] == "scale";
    result.parameters.push_back({names[k], is_scale ? best.scale : best.background, sigma_of_column(k), -unbounded,
                                 unbounded, false, false, true, ""});
  }

  // ---- images -------------------------------------------------------------------
  result.rows = data.rows, result.cols = data.cols;
  const std::size_t pixels = data.rows * data.cols;
  result.model.resize(pixels);
  result.residual.assign(pixels, nan);
  result.normalised_residual.assign(pixels, nan);
  for (std::size_t p = 0; p < pixels; ++p) result.model[p] = best.scale * best.image[p] + best.background;
  const auto& used = objective.used_pixels();
  for (std::size_t k = 0; k < used.size(); ++k) {
    result.residual[used[k]] = result.model[used[k]] - data.values[used[k]];
    result.normalised_residual[used[k]] = r[k];
  }
  result.history_chi2 = problem.history_chi2();
  result.history_parameters = problem.history_values();
  result.iterations = problem.iterations();
  result.evaluations = problem.evaluations();
  result.converged = outcome.converged;
  result.message = outcome.message;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace nanoscatter::fit
