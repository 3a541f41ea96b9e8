// Float64 reference of the pattern2d phase sums: the textbook double loop
//   S_s(q_p) = Σ_j w_j (cos(q_p·r_j) + i sin(q_p·r_j)),
// with absolute positions and libm's sin and cos, no grouping or reduction
// tricks, so that it shares nothing with the fast paths it checks. OpenMP
// over pixels only (each pixel's sum runs in atom order on one thread).
#include <cmath>

#include "nanoscatter/error.hpp"
#include "pattern2d/phase_sums.hpp"

namespace nanoscatter::pattern2d {

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
        const double phase = q[p].x * a.x[j] + q[p].y * a.y[j] + q[p].z * a.z[j];
        re += a.w[j] * std::cos(phase);
        im += a.w[j] * std::sin(phase);
      }
      out[s * np + p] += std::complex<double>(re, im);
    }
  }
}

}  // namespace nanoscatter::pattern2d
