// Pair-distance histograms with per-bin moments (Σw, Σwδ, Σwδ²), float64
// distances, OpenMP over tile pairs with one histogram per thread, reduced
// in thread order (deterministic for a fixed thread count).
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "debye/pair_sums.hpp"
#include "nanoscatter/debye.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::debye {

namespace {
// Atoms per tile; a tile pair is one OpenMP work item and, for atoms listed
// in spatial order, touches a narrow band of bins.
constexpr std::size_t kTileAtoms = 256;
// Refuse histograms beyond 1e8 bins (2.4 GB per copy, and one copy per
// thread): the bin width is then unreasonably small for the particle.
constexpr double kMaxBins = 1e8;

struct Box {
  double lo[3] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                  std::numeric_limits<double>::infinity()};
  double hi[3] = {-std::numeric_limits<double>::infinity(),
                  -std::numeric_limits<double>::infinity(),
                  -std::numeric_limits<double>::infinity()};
  void include(const AtomBlock& b) {
    for (std::size_t i = 0; i < b.size(); ++i) {
      const double p[3] = {b.x[i], b.y[i], b.z[i]};
      for (int d = 0; d < 3; ++d) {
        lo[d] = std::min(lo[d], p[d]);
        hi[d] = std::max(hi[d], p[d]);
      }
    }
  }
  // Every pair distance inside the box is at most its diagonal.
  double diagonal() const {
    double s = 0;
    for (int d = 0; d < 3; ++d) s += (hi[d] - lo[d]) * (hi[d] - lo[d]);
    return std::sqrt(s);
  }
};

void resize_arrays(PairHistogram& h, std::size_t bins) {
  h.count.resize(bins, 0.0);
  h.sum_d.resize(bins, 0.0);
  h.sum_d2.resize(bins, 0.0);
}
}  // namespace

std::size_t PairHistogram::bins_for(double r_max) const {
  validate_bin_width(bin_width);
  if (!(r_max >= 0) || !std::isfinite(r_max)) fail("PairHistogram: invalid r_max ", r_max);
  const double bins = std::floor(r_max / bin_width) + 2;  // bin floor(r_max/Δr) plus rounding slack
  if (bins > kMaxBins)
    fail_option("bin_width", "bin width ", bin_width, " Å needs ", bins,
            " bins for pair distances up to ", r_max, " Å (limit ", kMaxBins, ")");
  return std::size_t(bins);
}

void PairHistogram::resize_for(double r_max) {
  const std::size_t bins = bins_for(r_max);
  if (bins > count.size()) resize_arrays(*this, bins);
}

void PairHistogram::add(const PairHistogram& other) {
  if (other.bin_width != bin_width)
    fail("PairHistogram::add: bin widths differ (", bin_width, " vs ", other.bin_width, ")");
  if (other.count.size() > count.size()) resize_arrays(*this, other.count.size());
  for (std::size_t k = 0; k < other.count.size(); ++k) {
    count[k] += other.count[k];
    sum_d[k] += other.sum_d[k];
    sum_d2[k] += other.sum_d2[k];
  }
}

void pair_histogram_cpu(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                        int threads) {
  const bool triangle = set == PairSet::triangle;
  const AtomBlock& other = triangle ? a : b;
  if (a.size() == 0 || other.size() == 0) return;
  Box box;
  box.include(a);
  if (!triangle) box.include(b);
  hist.resize_for(box.diagonal());

  std::vector<std::pair<std::size_t, std::size_t>> items;  // (tile of a, tile of other)
  const std::size_t ta = (a.size() + kTileAtoms - 1) / kTileAtoms;
  const std::size_t tb = (other.size() + kTileAtoms - 1) / kTileAtoms;
  for (std::size_t i = 0; i < ta; ++i)
    for (std::size_t j = triangle ? i : 0; j < tb; ++j) items.emplace_back(i, j);

  const int nthreads = std::max(1, std::min<int>(threads > 0 ? threads : omp_get_max_threads(),
                                                 int(items.size())));
  const std::size_t bins = hist.count.size();
  const double width = hist.bin_width;
  const double inv_width = 1.0 / width;
  std::vector<PairHistogram> local(nthreads);
#pragma omp parallel num_threads(nthreads)
  {
    PairHistogram& h = local[omp_get_thread_num()];
    h.bin_width = width;
    resize_arrays(h, bins);
    double* count = h.count.data();
    double* sum_d = h.sum_d.data();
    double* sum_d2 = h.sum_d2.data();
#pragma omp for schedule(static, 1)
    for (std::size_t it = 0; it < items.size(); ++it) {
      const std::size_t i0 = items[it].first * kTileAtoms;
      const std::size_t i1 = std::min(a.size(), i0 + kTileAtoms);
      const std::size_t j0 = items[it].second * kTileAtoms;
      const std::size_t j1 = std::min(other.size(), j0 + kTileAtoms);
      const bool diagonal = triangle && items[it].first == items[it].second;
      for (std::size_t i = i0; i < i1; ++i) {
        const double xi = a.x[i], yi = a.y[i], zi = a.z[i], wi = a.w[i];
        for (std::size_t j = diagonal ? i + 1 : j0; j < j1; ++j) {
          const double dx = xi - other.x[j], dy = yi - other.y[j], dz = zi - other.z[j];
          const double r = std::sqrt(dx * dx + dy * dy + dz * dz);
          // r ≤ box diagonal, so the bin exists; the min() only guards
          // against the last rounding of r·(1/Δr).
          const std::size_t k = std::min(bins - 1, std::size_t(r * inv_width));
          const double delta = r - (double(k) + 0.5) * width;
          const double w = wi * other.w[j];
          count[k] += w;
          sum_d[k] += w * delta;
          sum_d2[k] += w * delta * delta;
        }
      }
    }
  }
  // Reduce the per-thread histograms bin-parallel, adding threads in order.
#pragma omp parallel for num_threads(nthreads) schedule(static)
  for (std::size_t k = 0; k < bins; ++k) {
    for (const auto& h : local) {
      if (h.count.empty()) continue;
      hist.count[k] += h.count[k];
      hist.sum_d[k] += h.sum_d[k];
      hist.sum_d2[k] += h.sum_d2[k];
    }
  }
}

}  // namespace nanoscatter::debye
