// Comparing a pair histogram with the float64 CPU histogram when the two
// compute r differently (the fast GPU path: float64 from a MUFU seed, δ
// quantised, Σδ² estimated from kernel-bin counts and means). A pair whose r lies within `edge_tol` bins of a bin edge may
// land on either side, so counts are compared exactly only in bins that no
// such pair touches; elsewhere the binning-independent totals Σw, Σw·r and
// Σw·r² (from count, centre and moments) are compared.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

#include "debye/histogram_intensity.hpp"
#include "debye/histogram_layout.hpp"
#include "debye/histogram_pair_math.hpp"
#include "debye/pair_sums.hpp"
#include "test_util.hpp"

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

// Distance error bound of the fast path's arithmetic, in bins of
// bin_width: kRelError·diagonal + kAbsError kernel bins
// (histogram_pair_math.hpp: one Newton step from a 2^-17 seed, float64
// roundings, δ' truncated to 2^-32), a kernel bin being 1/kSubBins bin.
inline double fast_distance_error_bins(const debye::AtomBlock& a, const debye::AtomBlock& b, debye::PairSet set,
                                       double bin_width) {
  const double kernel_width = bin_width / debye::hist::kSubBins;
  const double diag = double(debye::histogram_bins_needed(a, b, set, kernel_width)) - 2;
  return (debye::hist::kRelError * diag + debye::hist::kAbsError) / debye::hist::kSubBins;
}

// Checks a fast-path histogram (`fast`, from the kernel or its emulation)
// against the float64 CPU histogram `cpu` of the same pairs (uniform
// weights). Bounds (e_r = fast_distance_error_bins):
//  - Σw: equal to 1e-12; counts equal (1e-9) in bins no pair within 4·e_r of
//    an edge touches; Σ|Δcount| ≤ 2 × the weight of such pairs;
//  - Σδ per clean bin ≤ count·(ε_q + e_r)·Δr (ε_q = hist::offset_error(words),
//    the offset's quantum; distance);
//  - Σδ² per clean bin ≤ count·(ε_s + 4ε_q + 2e_r)·Δr² (ε_s =
//    hist::square_error(words): the square's quantum with two words, the
//    kernel-bin estimate with one, histogram_pair_math.hpp; 2|δ|·ε_q + ε_q²
//    ≤ 4ε_q for the offset's quantum; distance);
//  - Σw r, Σw r² over all bins (binning-independent): the same per pair;
//  - Taylor sinc sums: ≤ Σw·(QΔr·tol_δ + (QΔr)²·tol_δ²) + ambiguous·(QΔr)³/96.
inline HistogramComparison check_fast_histogram(const char* name, const debye::AtomBlock& a,
                                                const debye::AtomBlock& b, debye::PairSet set,
                                                const debye::PairHistogram& cpu, const debye::PairHistogram& fast,
                                                debye::hist::BinWords words) {
  const double dr = cpu.bin_width;
  const double e_r = fast_distance_error_bins(a, b, set, dr);
  const auto c = compare_histograms(a, b, set, cpu, fast, 4 * e_r);
  const double w = a.w[0] * (set == debye::PairSet::triangle ? a.w[0] : b.w[0]);
  std::printf(
      "%s: %.0f pairs, e_r bound %.2e bins; ambiguous %.0f, moved %.0f; worst |Δn| %.1e, |ΔΣδ|/(nΔr) %.2e, "
      "|ΔΣδ²|/(nΔr²) %.2e; ΔΣr %.2e, ΔΣr² %.2e\n",
      name, c.pairs / w, e_r, c.ambiguous / w, c.moved / w, c.worst_count, c.worst_d, c.worst_d2, c.first_moment,
      c.second_moment);
  EXPECT_NEAR(std::accumulate(fast.count.begin(), fast.count.end(), 0.0), c.pairs, 1e-12 * c.pairs) << name;
  EXPECT_LE(c.moved, 2 * c.ambiguous + 1e-9 * c.pairs) << name;
  EXPECT_LE(c.worst_count, 1e-9) << name;
  const double eps_q = debye::hist::offset_error(words), eps_s = debye::hist::square_error(words);
  const double tol_d = eps_q + e_r;
  const double tol_d2 = eps_s + 4 * eps_q + 2 * e_r;
  EXPECT_LE(c.worst_d, tol_d) << name;
  EXPECT_LE(c.worst_d2, tol_d2) << name;
  EXPECT_LE(c.first_moment, tol_d) << name;
  // Σr² per pair: 2r·(δ error) + (δ² error); normalised by Δr·r_max.
  EXPECT_LE(c.second_moment, 2 * tol_d + tol_d2) << name;
  const std::vector<double> q = {0.5, 2.0, 5.0, 9.0, 12.0};
  std::vector<double> s_cpu(q.size(), 0.0), s_fast(q.size(), 0.0);
  debye::histogram_sinc_sums(cpu, q, s_cpu);
  debye::histogram_sinc_sums(fast, q, s_fast);
  for (std::size_t k = 0; k < q.size(); ++k) {
    const double qd = q[k] * dr;
    const double bound = c.pairs * (qd * tol_d + qd * qd * tol_d2) + c.ambiguous * qd * qd * qd / 96;
    EXPECT_LE(std::abs(s_fast[k] - s_cpu[k]), bound + 1e-12 * c.pairs) << name << " Q " << q[k];
  }
  return c;
}

// Test particles of the histogram tests (host emulation and GPU): a rocksalt
// sphere (a = 4.26 Å) about (3, −1, 0), species 0 at fcc sites, species 1
// shifted by a/2, all weights w; and a random ball with uniform weight w.
// Off the origin: coordinates are not symmetric about it.
inline debye::AtomBlock rocksalt_block(double radius, int species, double w) {
  debye::AtomBlock out;
  const double a = 4.26;
  const int n = int(radius / a) + 1;
  const double basis[4][3] = {{0, 0, 0}, {0, 0.5, 0.5}, {0.5, 0, 0.5}, {0.5, 0.5, 0}};
  for (int i = -n; i <= n; ++i)
    for (int j = -n; j <= n; ++j)
      for (int k = -n; k <= n; ++k)
        for (const auto& f : basis) {
          const double x = a * (i + f[0] + 0.5 * species), y = a * (j + f[1]), z = a * (k + f[2]);
          if (x * x + y * y + z * z > radius * radius) continue;
          out.x.push_back(x + 3.0);
          out.y.push_back(y - 1.0);
          out.z.push_back(z);
          out.w.push_back(w);
        }
  return out;
}

inline debye::AtomBlock uniform_ball(std::size_t n, double radius, std::uint64_t seed, double w) {
  debye::AtomBlock b = random_ball(n, radius, {3.0, -1.0, 0.0}, seed, 1.0);
  std::fill(b.w.begin(), b.w.end(), w);
  return b;
}

}  // namespace nanoscatter::test
