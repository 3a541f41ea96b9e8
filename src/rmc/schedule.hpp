// Temperature schedules and the automatic initial temperature.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "rmc/philox.hpp"

namespace nanoscatter::rmc {

// Integer codes of nanoscatter::CoolingSchedule, usable in device code.
enum : int { kScheduleFixed = 0, kScheduleExponential = 1, kScheduleLinear = 2 };

// Temperature before move m of `total` (m = 0 … total−1): T0 at m = 0,
// T0·r at m = total−1 (r = final_ratio).
NS_RMC_HD double temperature_at(int schedule, double t0, double final_ratio, std::uint64_t m, std::uint64_t total) {
  if (schedule == kScheduleFixed || total < 2 || !(t0 > 0)) return t0;
  const double x = double(m) / double(total - 1);
  if (schedule == kScheduleExponential) return t0 * pow(final_ratio, x);
  return t0 * (1.0 + (final_ratio - 1.0) * x);
}

// T0 such that the expected Metropolis acceptance of the probed trials,
//   (#{Δ ≤ 0} + Σ_{Δ>0} exp(−Δ/T0)) / #trials,
// equals `acceptance` (NaN entries, blocked trials, are left out). Returns 0
// when the downhill share alone reaches it or no trial went uphill, and the
// largest finite Δ·1e6 bound when even that cannot reach it.
double initial_temperature(const std::vector<double>& deltas, double acceptance);

}  // namespace nanoscatter::rmc
