// Float64 reference of the pattern2d phase sums: the textbook double loop
//   S_s(q_p) = Σ_j w_j (cos(q_p·r_j) + i sin(q_p·r_j)),
// with absolute positions and libm's sin and cos, no grouping, so that it
// shares nothing with the fast paths it checks; the phase q·r is formed and
// reduced by 2π in long double (below). OpenMP
// over pixels only (each pixel's sum runs in atom order on one thread).
#include <cmath>

#include "nanoscatter/error.hpp"
#include "pattern2d/phase_sums.hpp"

namespace nanoscatter::pattern2d {

namespace {
constexpr long double kTwoPi = 6.283185307179586476925286766559005768L;
constexpr long double kInvTwoPi = 0.159154943091895335768883763372514362L;
}  // namespace

void phase_sums_reference(std::span<const AtomList> species, std::span<const Vec3> q,
                          std::span<std::complex<double>> out) {
  const std::size_t np = q.size();
  if (out.size() != species.size() * np)
    fail("phase_sums_reference: out has ", out.size(), " entries for ", species.size(), " species × ", np,
         " pixels");
  for (std::size_t s = 0; s < species.size(); ++s) {
    const AtomList& a = species[s];
#pragma omp parallel for schedule(dynamic, 16)
    for (std::size_t p = 0; p < np; ++p) {
      double re = 0, im = 0;
      for (std::size_t j = 0; j < a.size(); ++j) {
        // The phase in long double (64-bit significand: the products of the
        // float64 inputs lose ~2^-64 of |q·r| instead of 2^-53), reduced by
        // 2π there, so that the reference is exact to ~1e-15 rad for the
        // given float64 q and r even 10³ Å off the origin at |q| ~ 25 Å⁻¹.
        const long double exact = static_cast<long double>(q[p].x) * a.x[j] +
                                  static_cast<long double>(q[p].y) * a.y[j] +
                                  static_cast<long double>(q[p].z) * a.z[j];
        const long double turns = std::nearbyint(exact * kInvTwoPi);
        const double phase = static_cast<double>(exact - turns * kTwoPi);
        re += a.w[j] * std::cos(phase);
        im += a.w[j] * std::sin(phase);
      }
      out[s * np + p] += std::complex<double>(re, im);
    }
  }
}

}  // namespace nanoscatter::pattern2d
