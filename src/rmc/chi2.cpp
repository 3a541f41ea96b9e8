// Folding the target onto the half plane, and the χ² sums (chi2.hpp).
#include "rmc/chi2.hpp"

#include <cmath>

#include "core/omp_errors.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/rmc.hpp"

namespace nanoscatter::rmc {

FoldedTarget fold_target(const RmcTarget& target) {
  const int n = int(target.size);
  FoldedTarget t;
  t.plane = HalfPlane(n);
  t.a.assign(t.plane.pixels(), 0.0);
  t.w.assign(t.plane.pixels(), 0.0);
  const int half = n / 2;
  for (int k = 0; k < n; ++k)
    for (int l = 0; l < n; ++l) {
      // FFT-order pixel (k, l) is the centred pixel ((k + N/2) mod N, (l + N/2) mod N).
      const double p = target.intensity[std::size_t((k + half) % n) * std::size_t(n) + std::size_t((l + half) % n)];
      if (std::isnan(p)) continue;
      int hk = k, hl = l;
      if (l >= t.plane.width) {  // −q = (−k mod N, N − l) lies in the half plane
        hk = (n - k) % n;
        hl = n - l;
      }
      const std::size_t h = std::size_t(hk) * std::size_t(t.plane.width) + std::size_t(hl);
      t.a[h] += p;
      t.w[h] += 1.0;
      t.s_pp += p * p;
    }
  return t;
}

ChiSums chi_sums(const FoldedTarget& target, const std::vector<std::complex<double>>& spectrum) {
  if (spectrum.size() != target.a.size()) fail("chi_sums: spectrum and target sizes differ");
  ChiSums s;
  for (std::size_t h = 0; h < spectrum.size(); ++h) {
    const double intensity = std::norm(spectrum[h]);
    s.s_pi += target.a[h] * intensity;
    s.s_ii += target.w[h] * intensity * intensity;
  }
  return s;
}

void exact_spectra_single(const std::vector<std::vector<std::uint8_t>>& occupancy, const FoldedTarget& target,
                          std::vector<std::complex<float>>& spectra, std::vector<ChiSums>& sums) {
  const std::size_t pixels = target.plane.pixels(), tiles = occupancy.size();
  spectra.resize(tiles * pixels);
  sums.resize(tiles);
  OmpErrors errors;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t t = 0; t < tiles; ++t) {
    errors.capture([&] {
      const auto exact = exact_spectrum(occupancy[t], target.plane.size);
      for (std::size_t h = 0; h < pixels; ++h) spectra[t * pixels + h] = std::complex<float>(exact[h]);
      sums[t] = chi_sums(target, exact);
    });
  }
  errors.rethrow();
}

}  // namespace nanoscatter::rmc
