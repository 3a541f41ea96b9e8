// Taylor-corrected Debye sums from pair histograms (histogram_intensity.hpp).
#include "debye/histogram_intensity.hpp"

#include <omp.h>

#include <algorithm>
#include <vector>

#include "core/simd_trig.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::debye {

namespace {
// Below u = Qr = 1e-2 the closed forms of h' and h'' lose digits to
// cancellation (relative error ~ε/u²); the series used there instead are
// truncated after u⁴, an error ≤ u⁶/6480 < 2e-16.
constexpr double kSeriesBelow = 1e-2;

struct Bins {
  std::vector<double> r, n, m1, m2;  // non-empty bins only
};

Bins nonempty_bins(const PairHistogram& h) {
  Bins b;
  for (std::size_t k = 0; k < h.count.size(); ++k) {
    if (h.count[k] == 0 && h.sum_d[k] == 0 && h.sum_d2[k] == 0) continue;
    b.r.push_back((double(k) + 0.5) * h.bin_width);
    b.n.push_back(h.count[k]);
    b.m1.push_back(h.sum_d[k]);
    b.m2.push_back(h.sum_d2[k]);
  }
  return b;
}
}  // namespace

void histogram_sinc_sums(const PairHistogram& hist, std::span<const double> q,
                         std::span<double> out, BinRule rule, int threads) {
  if (out.size() != q.size())
    fail("histogram_sinc_sums: out has ", out.size(), " entries for ", q.size(), " Q points");
  const Bins bins = nonempty_bins(hist);
  const std::size_t nb = bins.r.size();
  if (nb == 0) return;
  const double* r = bins.r.data();
  const double* n = bins.n.data();
  const double* m1 = bins.m1.data();
  const double* m2 = bins.m2.data();
  const bool taylor = rule == BinRule::taylor2;
  const int nthreads = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel for num_threads(nthreads) schedule(dynamic, 4)
  for (std::size_t k = 0; k < q.size(); ++k) {
    const double qk = q[k];
    double sum = 0;
#pragma omp simd reduction(+ : sum)
    for (std::size_t b = 0; b < nb; ++b) {
      const double u = qk * r[b];
      double s, c;
      trig::sincos(u, s, c);
      const bool series = u < kSeriesBelow;
      const double us = series ? 1.0 : u;  // keeps the unused closed form finite
      const double u2 = u * u;
      // h = sinc u, h' = Q sinc'(u), h'' = Q² sinc''(u)
      const double h = series ? 1 - u2 / 6 + u2 * u2 / 120 : s / us;
      const double d1 = series ? u * (-1.0 / 3 + u2 / 30 - u2 * u2 / 840)
                               : (us * c - s) / (us * us);
      const double d2 = series ? -1.0 / 3 + u2 / 10 - u2 * u2 / 168
                               : ((2 - u2) * s - 2 * us * c) / (us * us * us);
      sum += taylor ? n[b] * h + qk * (m1[b] * d1 + 0.5 * qk * m2[b] * d2) : n[b] * h;
    }
    out[k] += sum;
  }
}

}  // namespace nanoscatter::debye
