// Mathematical constants the engines share, defined once. π is the
// standard library's (std::numbers::pi, the double nearest π); kDegree is
// one degree in radians, the factor between the degrees of files and
// command lines and the radians used inside; kHcKeVAngstrom turns photon
// energies into wavelengths.
#pragma once
#include <numbers>

namespace nanoscatter {

inline constexpr double kPi = std::numbers::pi;
inline constexpr double kDegree = kPi / 180.0;
// h c in keV·Å (CODATA 2018, exact since the 2019 SI): λ = kHcKeVAngstrom / E.
inline constexpr double kHcKeVAngstrom = 12.398419843320026;

}  // namespace nanoscatter
