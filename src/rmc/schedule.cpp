// Automatic initial temperature (schedule.hpp): bisection in log T on the
// expected acceptance, which increases monotonically with T.
#include "rmc/schedule.hpp"

#include <algorithm>
#include <cmath>

namespace nanoscatter::rmc {

double initial_temperature(const std::vector<double>& deltas, double acceptance) {
  std::vector<double> uphill;
  std::size_t trials = 0, downhill = 0;
  for (double d : deltas) {
    if (std::isnan(d)) continue;
    ++trials;
    if (d > 0)
      uphill.push_back(d);
    else
      ++downhill;
  }
  if (trials == 0 || uphill.empty() || double(downhill) >= acceptance * double(trials)) return 0.0;
  auto expected = [&](double t) {
    double sum = double(downhill);
    for (double d : uphill) sum += std::exp(-d / t);
    return sum / double(trials);
  };
  const auto [lo_it, hi_it] = std::minmax_element(uphill.begin(), uphill.end());
  // exp(−Δ/T) ≤ e^{−1e6}·… below lo·1e-6 and ≥ 1 − 1e-6 above hi·1e6: the
  // root lies between unless `acceptance` is within 1e-6 of 1.
  double lo = std::log(*lo_it * 1e-6), hi = std::log(*hi_it * 1e6);
  if (expected(std::exp(hi)) < acceptance) return std::exp(hi);
  for (int it = 0; it < 200 && hi - lo > 1e-12; ++it) {
    const double mid = 0.5 * (lo + hi);
    (expected(std::exp(mid)) < acceptance ? lo : hi) = mid;
  }
  return std::exp(0.5 * (lo + hi));
}

}  // namespace nanoscatter::rmc
