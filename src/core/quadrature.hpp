// Gauss–Legendre quadrature on [−1, 1], shared by every engine that
// integrates smooth functions (GISAXS solids of revolution, DDA scattering
// integrals, Mie checks).
#pragma once
#include <vector>

namespace nanoscatter {

struct GaussRule {
  std::vector<double> nodes, weights;  // nodes ascending
};

// The n-point rule (n ≥ 1): nodes by Newton iteration on P_n from Tricomi's
// initial guess, weights 2 / ((1 − x²) P_n'(x)²); exact for polynomials of
// degree ≤ 2n − 1.
GaussRule gauss_legendre_rule(int n);

}  // namespace nanoscatter
