// Mathematical constants the engines share, defined once. π is the
// standard library's (std::numbers::pi, the double nearest π); kDegree is
// one degree in radians, the factor between the degrees of files and
// command lines and the radians used inside.
#pragma once
#include <numbers>

namespace nanoscatter {

inline constexpr double kPi = std::numbers::pi;
inline constexpr double kDegree = kPi / 180.0;

}  // namespace nanoscatter
