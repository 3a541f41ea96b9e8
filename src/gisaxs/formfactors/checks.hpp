// Parameter checks shared by the shape factories: each names the parameter
// (as sample files spell it) in the Error's field.
#pragma once
#include <cmath>
#include <numbers>

#include "nanoscatter/error.hpp"

namespace nanoscatter::gisaxs::detail {

inline void require_length(double value, const char* name) {
  if (!(value > 0) || !std::isfinite(value))
    fail_at({"", 0, name}, "must be a positive length in nm, got ", value);
}
inline void require_length_or_zero(double value, const char* name) {
  if (!(value >= 0) || !std::isfinite(value))
    fail_at({"", 0, name}, "must be a length ≥ 0 nm, got ", value);
}
inline double degrees(double radians) { return radians * 180.0 / std::numbers::pi; }
// lo < angle < hi, or lo < angle ≤ hi with `hi_inclusive` (radians).
inline void require_angle(double value, double lo, double hi, bool hi_inclusive, const char* name) {
  const bool ok = std::isfinite(value) && value > lo && (hi_inclusive ? value <= hi : value < hi);
  if (!ok)
    fail_at({"", 0, name}, "must lie in (", degrees(lo), "°, ", degrees(hi), hi_inclusive ? "°]" : "°)",
            ", got ", degrees(value), "°");
}
// cot(α), exactly 0 at α = π/2 (where cos/sin would give 6e-17).
inline double cotangent(double alpha) {
  return alpha == std::numbers::pi / 2 ? 0.0 : std::cos(alpha) / std::sin(alpha);
}

}  // namespace nanoscatter::gisaxs::detail
