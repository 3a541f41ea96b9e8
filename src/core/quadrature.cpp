#include "core/quadrature.hpp"

#include <cmath>
#include <numbers>

#include "nanoscatter/error.hpp"

namespace nanoscatter {

namespace {

// P_n(x) and P_n'(x) by the three-term recurrence.
void legendre(int n, double x, double& p, double& dp) {
  double p0 = 1, p1 = x;
  for (int k = 2; k <= n; ++k) {
    const double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
    p0 = p1;
    p1 = p2;
  }
  p = n == 0 ? 1.0 : p1;
  dp = n * (x * p1 - p0) / (x * x - 1);
}

}  // namespace

GaussRule gauss_legendre_rule(int n) {
  if (n < 1) fail("gauss_legendre_rule: n must be ≥ 1, got ", n);
  GaussRule rule;
  rule.nodes.resize(n);
  rule.weights.resize(n);
  if (n == 1) {
    rule.nodes[0] = 0;
    rule.weights[0] = 2;
    return rule;
  }
  for (int i = 0; i < (n + 1) / 2; ++i) {
    double x = std::cos(std::numbers::pi * (i + 0.75) / (n + 0.5));
    double p = 0, dp = 0;
    for (int iter = 0; iter < 100; ++iter) {
      legendre(n, x, p, dp);
      const double dx = p / dp;
      x -= dx;
      if (std::abs(dx) < 1e-16) break;
    }
    legendre(n, x, p, dp);  // P_n' at the converged node, for the weight
    rule.nodes[i] = -x;
    rule.nodes[n - 1 - i] = x;
    rule.weights[i] = rule.weights[n - 1 - i] = 2.0 / ((1 - x * x) * dp * dp);
  }
  return rule;
}

}  // namespace nanoscatter
