// Comparing a pair histogram with the float64 CPU histogram when the two
// compute r differently (the fast GPU path: float hi/lo arithmetic, δ
// quantised). A pair whose r lies within `edge_tol` bins of a bin edge may
// land on either side, so counts are compared exactly only in bins that no
// such pair touches; elsewhere the binning-independent totals Σw, Σw·r and
// Σw·r² (from count, centre and moments) are compared.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "debye/pair_sums.hpp"

namespace nanoscatter::test {

struct HistogramComparison {
  double pairs = 0;             // Σw of the reference
  double ambiguous = 0;         // Σw of pairs within edge_tol of a bin edge
  double moved = 0;             // Σ_k |count_test − count_ref|
  double worst_count = 0;       // max |Δcount| over clean bins
  double worst_d = 0;           // max |Δsum_d| / (count·Δr) over clean bins
  double worst_d2 = 0;          // max |Δsum_d2| / (count·Δr²) over clean bins
  double first_moment = 0;      // |ΔΣw r| / (Σw·Δr)
  double second_moment = 0;     // |ΔΣw r²| / (Σw·Δr·r_max)
};

inline HistogramComparison compare_histograms(const debye::AtomBlock& a, const debye::AtomBlock& b,
                                              debye::PairSet set, const debye::PairHistogram& ref,
                                              const debye::PairHistogram& test, double edge_tol) {
  const bool triangle = set == debye::PairSet::triangle;
  const debye::AtomBlock& other = triangle ? a : b;
  const double dr = ref.bin_width;
  const std::size_t n = std::max(ref.count.size(), test.count.size());
  std::vector<char> dirty(n + 1, 0);
  HistogramComparison c;
  double r_max = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = triangle ? i + 1 : 0; j < other.size(); ++j) {
      const double dx = a.x[i] - other.x[j], dy = a.y[i] - other.y[j], dz = a.z[i] - other.z[j];
      const double rb = std::sqrt(dx * dx + dy * dy + dz * dz) / dr;
      r_max = std::max(r_max, rb * dr);
      const double edge = std::nearbyint(rb);
      if (std::abs(rb - edge) < edge_tol) {
        c.ambiguous += a.w[i] * other.w[j];
        const auto k = std::size_t(edge);
        if (k < n) dirty[k] = 1;
        if (k > 0) dirty[k - 1] = 1;
      }
    }
  const auto at = [](const std::vector<double>& v, std::size_t k) { return k < v.size() ? v[k] : 0.0; };
  double m1_ref = 0, m1_test = 0, m2_ref = 0, m2_test = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double centre = (double(k) + 0.5) * dr;
    const double nr = at(ref.count, k), nt = at(test.count, k);
    const double dr1 = at(ref.sum_d, k), dt1 = at(test.sum_d, k);
    const double dr2 = at(ref.sum_d2, k), dt2 = at(test.sum_d2, k);
    c.pairs += nr;
    c.moved += std::abs(nt - nr);
    m1_ref += nr * centre + dr1;
    m1_test += nt * centre + dt1;
    m2_ref += nr * centre * centre + 2 * centre * dr1 + dr2;
    m2_test += nt * centre * centre + 2 * centre * dt1 + dt2;
    if (dirty[k] || nr == 0) {
      if (!dirty[k]) c.worst_count = std::max(c.worst_count, std::abs(nt - nr));
      continue;
    }
    c.worst_count = std::max(c.worst_count, std::abs(nt - nr));
    c.worst_d = std::max(c.worst_d, std::abs(dt1 - dr1) / (nr * dr));
    c.worst_d2 = std::max(c.worst_d2, std::abs(dt2 - dr2) / (nr * dr * dr));
  }
  if (c.pairs > 0) {
    c.first_moment = std::abs(m1_test - m1_ref) / (c.pairs * dr);
    c.second_moment = std::abs(m2_test - m2_ref) / (c.pairs * dr * std::max(r_max, dr));
  }
  return c;
}

}  // namespace nanoscatter::test
