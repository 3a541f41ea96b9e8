// The Debye part of the powder model (powder_model.hpp): I(Q) per atom from
// per-species-pair histograms made once.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "debye/dispatch.hpp"
#include "debye/histogram_intensity.hpp"
#include "debye/species.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/powder_model.hpp"

namespace nanoscatter {

struct PowderModel::Histograms {
  // The non-empty bins of each species pair's histogram (pair_index order),
  // as arrays: made once, summed on every Q list.
  std::vector<debye::BinArrays> bins;
};

namespace {

// Sinc terms per thread below which a parallel region costs more than it
// saves (a small particle has a few hundred distinct distances; the fork
// and join of ~6000 Q rows then dominate, the more so on shared cores).
constexpr double terms_per_thread = 2e6;

}  // namespace

PowderModel::PowderModel(const Structure& structure, const DebyeOptions& options, const PowderModelOptions& powder)
    : options_(options), powder_(powder) {
  options.validate();
  const auto s = debye::group_by_species(structure, debye::atom_order_for(options, structure.atoms.size()));
  DebyeOptions used = options;
  used.share = WorkShare{};
  used.method = DebyeMethod::histogram;
  auto h = std::make_shared<Histograms>();
  for (const auto& pair : debye::pair_histograms(s, used)) h->bins.push_back(debye::bin_arrays(pair));
  hist_ = std::move(h);
  bin_width_ = options.bin_width;
  atoms_ = s.total_weight();
  labels_ = s.labels;
  species_ = s.species;
  for (std::size_t m = 0; m < s.species.size(); ++m) {
    species_weight_.push_back(s.total_weight(m));
    default_b_.push_back(s.species[m].b_iso);
  }
}

PowderParameters PowderModel::default_parameters() const {
  PowderParameters p;
  p.b = default_b_;
  return p;
}

std::vector<std::vector<double>> PowderModel::pair_sums(double lattice_expansion, std::span<const double> q) const {
  const double e = 1 + lattice_expansion;
  if (!(e > 0) || !std::isfinite(e)) fail_option("lattice_expansion", "must be a finite value > −1, got ", lattice_expansion);
  // sinc(Q e r) = sinc(Q' r), Q' = eQ: the histograms stay as made.
  std::vector<double> scaled(q.size());
  for (std::size_t k = 0; k < q.size(); ++k) scaled[k] = e * q[k];
  std::vector<std::vector<double>> sums(hist_->bins.size(), std::vector<double>(q.size(), 0.0));
#if NANOSCATTER_HAVE_CUDA
  if (options_.compute.device == Device::gpu) {  // every species pair in one launch
    std::vector<const debye::BinArrays*> arrays;
    for (const auto& b : hist_->bins) arrays.push_back(&b);
    debye::bin_sinc_sums_cuda(arrays, scaled, sums, debye::BinRule::taylor2, options_.compute.max_device_memory);
    return sums;
  }
#endif
  for (std::size_t p = 0; p < hist_->bins.size(); ++p) {
    const double terms = double(hist_->bins[p].r.size()) * double(q.size());
    const int most = options_.compute.threads > 0 ? options_.compute.threads : omp_get_max_threads();
    const int threads = std::clamp(int(terms / terms_per_thread), 1, std::max(1, most));
    debye::bin_sinc_sums(hist_->bins[p], scaled, sums[p], debye::BinRule::taylor2, threads);
  }
  return sums;
}

std::vector<std::vector<std::complex<double>>> PowderModel::factors(std::span<const double> q) const {
  FactorOptions bare = options_.factors;
  bare.debye_waller = false;
  std::vector<std::vector<std::complex<double>>> f(species_.size(), std::vector<std::complex<double>>(q.size()));
  for (std::size_t m = 0; m < species_.size(); ++m)
    for (std::size_t k = 0; k < q.size(); ++k) f[m][k] = scattering_factor(options_.radiation, species_[m], q[k], bare);
  return f;
}

std::vector<double> PowderModel::intensity_from_sums(const PowderParameters& p, std::span<const double> q,
                                                     const std::vector<std::vector<double>>& sums,
                                                     const std::vector<std::vector<std::complex<double>>>& factors) const {
  const std::size_t ns = species_.size();
  if (p.b.size() != ns) fail_option("b", "needs one B per species (", ns, "), got ", p.b.size());
  for (std::size_t m = 0; m < ns; ++m)
    if (!std::isfinite(p.b[m])) fail_option("b[" + labels_[m] + "]", "must be finite, got ", p.b[m]);
  if (sums.size() != hist_->bins.size()) fail("PowderModel: ", sums.size(), " pair sums for ", hist_->bins.size(), " pairs");
  if (factors.size() != ns) fail("PowderModel: factors of ", factors.size(), " species for ", ns);
  std::vector<double> out(q.size());
  std::vector<std::complex<double>> f(ns);
  std::vector<double> dw(ns);
  for (std::size_t k = 0; k < q.size(); ++k) {
    const double qk = q[k];
    for (std::size_t m = 0; m < ns; ++m) {
      f[m] = factors[m][k];
      dw[m] = std::exp(-p.b[m] * qk * qk / (16 * std::numbers::pi * std::numbers::pi));
    }
    double total = 0;
    for (std::size_t m = 0; m < ns; ++m) {
      const double self = powder_.self_debye_waller ? dw[m] * dw[m] : 1.0;
      total += species_weight_[m] * std::norm(f[m]) * self;
      for (std::size_t n = m; n < ns; ++n)
        total += 2 * std::real(f[m] * std::conj(f[n])) * dw[m] * dw[n] * sums[debye::pair_index(ns, m, n)][k];
    }
    out[k] = total / atoms_;
  }
  return out;
}

std::vector<double> PowderModel::intensity(const PowderParameters& p, std::span<const double> q) const {
  return intensity_from_sums(p, q, pair_sums(p.lattice_expansion, q), factors(q));
}

}  // namespace nanoscatter
