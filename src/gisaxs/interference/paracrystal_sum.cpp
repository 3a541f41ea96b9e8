// The sum over the neighbours of a paracrystal chain,
//   S = 1 + 2 Re Σ_{m=1}^{n−1} (1 − m/n) p^m,   p = φ(q) exp(i q D − D/Λ),
// p the characteristic function of one nearest-neighbour step (Hosemann's
// paracrystal; BornAgain's finite-domain formula for n = ⌊domain/D⌋ steps,
// and its limit (1 + p)/(1 − p) for an infinite chain).
#include <cmath>
#include <limits>

#include "gisaxs/interference/interference.hpp"

namespace nanoscatter::gisaxs {

double paracrystal_sum(Complex p, double domain_size, double spacing, double small_q_limit) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const int n = static_cast<int>(std::abs(domain_size / spacing));
  const Complex one_minus_p = 1.0 - p;
  if (n < 1) {
    if (std::abs(one_minus_p) < 10 * eps) return small_q_limit;
    return ((1.0 + p) / one_minus_p).real();
  }
  const double nd = n;
  // For |1 − p| n small, the series to second order in n (1 − p) avoids the
  // cancellation in the closed form (BornAgain's threshold 2e-4; its error
  // is O((n |1 − p|)³) < 1e-11). BornAgain also returns n outright when
  // |1 − p|² < ε, off by up to ~n |1 − p|/3 ~ 1e-8 relative; the series is
  // exact there and is used instead.
  if (std::abs(one_minus_p) * nd < 2e-4) {
    const Complex d = p - 1.0;
    const Complex s = (nd - 1.0) / 2.0 + (nd * nd - 1.0) * d / 6.0 +
                      (nd * nd * nd - 2.0 * nd * nd - nd + 2.0) * d * d / 24.0;
    return 1.0 + 2.0 * s.real();
  }
  Complex pn = 0;
  if (std::abs(p) > 0 && std::log(std::abs(p)) * nd >= std::log(std::numeric_limits<double>::min()))
    pn = std::pow(p, n);
  const Complex s = p / one_minus_p - p * (1.0 - pn) / nd / (one_minus_p * one_minus_p);
  return 1.0 + 2.0 * s.real();
}

}  // namespace nanoscatter::gisaxs
