// Q grids in Å⁻¹ for the Debye engine and the uniformity test of the kernels.
#include "debye/q_grid.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "nanoscatter/debye.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/resource_guard.hpp"

namespace nanoscatter {

namespace {
// Per Q point the grid holds Q and the pattern at least I(Q), in float64;
// the engines add per-species tables on top, so this is a lower bound.
constexpr double kMinBytesPerQ = 2 * sizeof(double);

constexpr const char* kEitherGrid = "give either --qmin/--qmax or --two-theta-min/--two-theta-max/--wavelength";

void check_points(int n) {
  if (n < 1) fail_option("qpoints", "need at least 1 point, got ", n);
  require_host_memory({"", 0, "qpoints", true}, std::to_string(n) + " Q points", n * kMinBytesPerQ);
}
}  // namespace

std::vector<double> uniform_q_grid(double qmin, double qmax, int n) {
  check_points(n);
  // Q = 0 is allowed (sinc(0) = 1 is handled as a limit); negative Q is not
  // a magnitude.
  if (!std::isfinite(qmin) || qmin < 0)
    fail_option("qmin", "must be a finite value ≥ 0 Å⁻¹, got ", qmin);
  if (!std::isfinite(qmax) || qmax <= qmin)
    fail_option("qmax", "must be finite and greater than --qmin (", qmin, "), got ", qmax);
  std::vector<double> q(static_cast<std::size_t>(n));
  if (n == 1) {
    q[0] = qmin;
    return q;
  }
  const double step = (qmax - qmin) / (n - 1);
  for (int k = 0; k < n; ++k) q[k] = qmin + k * step;
  q.back() = qmax;
  return q;
}

std::vector<double> two_theta_q_grid(double two_theta_min, double two_theta_max, int n,
                                     double wavelength) {
  check_points(n);
  if (!std::isfinite(wavelength) || wavelength <= 0)
    fail_option("wavelength", "must be > 0 Å, got ", wavelength);
  if (!std::isfinite(two_theta_min) || two_theta_min < 0 || two_theta_min >= 180)
    fail_option("two_theta_min", "must lie in [0, 180) degrees, got ", two_theta_min);
  if (!std::isfinite(two_theta_max) || two_theta_max <= two_theta_min || two_theta_max > 180)
    fail_option("two_theta_max", "must lie in (--two-theta-min, 180] degrees, got ",
            two_theta_max);
  std::vector<double> q(static_cast<std::size_t>(n));
  const double step = n > 1 ? (two_theta_max - two_theta_min) / (n - 1) : 0.0;
  for (int k = 0; k < n; ++k) {
    const double theta = 0.5 * (two_theta_min + k * step) * std::numbers::pi / 180.0;
    q[k] = 4.0 * std::numbers::pi * std::sin(theta) / wavelength;  // Q = 4π sin θ / λ
  }
  return q;
}

std::vector<double> make_q_grid(const QGridOptions& o) {
  if (!o.qpoints) fail_option("qpoints", "required: the number of Q points");
  if (o.two_theta_min || o.two_theta_max || o.wavelength) {
    if (o.qmin) fail_option("qmin", kEitherGrid);
    if (o.qmax) fail_option("qmax", kEitherGrid);
    if (!o.two_theta_min) fail_option("two_theta_min", "required with a 2θ grid");
    if (!o.two_theta_max) fail_option("two_theta_max", "required with a 2θ grid");
    if (!o.wavelength) fail_option("wavelength", "required with a 2θ grid");
    return two_theta_q_grid(*o.two_theta_min, *o.two_theta_max, *o.qpoints, *o.wavelength);
  }
  if (!o.qmax) fail_option("qmax", "required (or give --two-theta-min/--two-theta-max/--wavelength for a 2θ grid)");
  return uniform_q_grid(o.qmin.value_or(0.0), *o.qmax, *o.qpoints);
}

namespace debye {

std::optional<double> uniform_q_step(std::span<const double> q) {
  if (q.size() < 2) return std::nullopt;
  const double step = (q.back() - q.front()) / double(q.size() - 1);
  if (!(step > 0)) return std::nullopt;
  double scale = 0;
  for (double v : q) scale = std::max(scale, std::abs(v));
  const double tol = kUniformGridTolerance * scale;
  for (std::size_t k = 0; k < q.size(); ++k)
    if (std::abs(q[k] - (q.front() + double(k) * step)) > tol) return std::nullopt;
  return step;
}

}  // namespace debye
}  // namespace nanoscatter
