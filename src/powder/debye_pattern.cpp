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
#include "nanoscatter/builder.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/powder_model.hpp"

namespace nanoscatter {

struct PowderModel::Histograms {
  // The non-empty bins of each species pair's histogram (pair_index order),
  // as arrays: made once, summed on every Q list. With a size distribution
  // the bins non-empty in any shell, with each shell's moments on them:
  // the ensemble's histogram is Σ_m W_m (shell m's), made per evaluation.
  std::vector<debye::BinArrays> bins;
  std::vector<std::vector<debye::BinArrays>> shell_bins;  // [pair][shell], r unused (bins[pair].r)
};

namespace {

// Sinc terms per thread below which a parallel region costs more than it
// saves (a small particle has a few hundred distinct distances; the fork
// and join of ~6000 Q rows then dominate, the more so on shared cores).
constexpr double terms_per_thread = 2e6;

// The shells of a size distribution: shell[m][a] holds the atoms of
// species a inside sphere m (the test shape_contains makes, so that sphere
// m is exactly cut_crystal's Sphere{R_m}) and not inside sphere m − 1.
std::vector<std::vector<debye::AtomBlock>> split_shells(const debye::SpeciesBlocks& s, const std::vector<double>& radii) {
  const double tolerance = CutOptions{}.tolerance;
  std::vector<std::vector<debye::AtomBlock>> shell(radii.size(), std::vector<debye::AtomBlock>(s.blocks.size()));
  for (std::size_t a = 0; a < s.blocks.size(); ++a) {
    const debye::AtomBlock& b = s.blocks[a];
    for (std::size_t i = 0; i < b.size(); ++i) {
      const Vec3 r{b.x[i], b.y[i], b.z[i]};
      // The first sphere that holds the atom (containment grows with R).
      std::size_t lo = 0, hi = radii.size();
      while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        if (shape_contains(Sphere{radii[mid]}, r, tolerance)) hi = mid;
        else lo = mid + 1;
      }
      if (lo == radii.size())
        fail_option("size", "an atom at |r| = ", norm(r), " Å lies outside the largest sphere (r_max = ", radii.back(),
                    " Å): the structure must be that sphere, centred on the origin");
      debye::AtomBlock& out = shell[lo][a];
      out.x.push_back(b.x[i]), out.y.push_back(b.y[i]), out.z.push_back(b.z[i]), out.w.push_back(b.w[i]);
    }
  }
  return shell;
}

void append(debye::AtomBlock& to, const debye::AtomBlock& from) {
  to.x.insert(to.x.end(), from.x.begin(), from.x.end());
  to.y.insert(to.y.end(), from.y.begin(), from.y.end());
  to.z.insert(to.z.end(), from.z.begin(), from.z.end());
  to.w.insert(to.w.end(), from.w.begin(), from.w.end());
}

double weight(const debye::AtomBlock& b) {
  double sum = 0;
  for (const double w : b.w) sum += w;
  return sum;
}

}  // namespace

PowderModel::PowderModel(const Structure& structure, const DebyeOptions& options, const PowderModelOptions& powder)
    : options_(options), powder_(powder) {
  options.validate();
  const auto s = debye::group_by_species(structure, debye::atom_order_for(options, structure.atoms.size()));
  DebyeOptions used = options;
  used.share = WorkShare{};
  used.method = DebyeMethod::histogram;
  auto h = std::make_shared<Histograms>();
  const std::size_t ns = s.species.size();
  if (!powder.size) {
    for (const auto& pair : debye::pair_histograms(s, used)) h->bins.push_back(debye::bin_arrays(pair));
  } else {
    // Pairs whose outer atom lies in shell m: the triangle of shell m and
    // its rectangle against the shells inside it (every pair of the
    // largest sphere once), on the CPU (made once; the GPU sums them).
    const std::vector<double> radii = powder.size->radii();
    const auto shell = split_shells(s, radii);
    std::vector<debye::AtomBlock> inside(ns);
    std::vector<std::vector<debye::PairHistogram>> shell_hist;  // [shell][pair]
    const int threads = options.compute.threads;
    for (std::size_t m = 0; m < radii.size(); ++m) {
      std::vector<debye::PairHistogram> hist(ns * (ns + 1) / 2);
      for (auto& one : hist) one.bin_width = options.bin_width;
      for (std::size_t a = 0; a < ns; ++a) {
        debye::pair_histogram_cpu(shell[m][a], shell[m][a], debye::PairSet::triangle, hist[debye::pair_index(ns, a, a)], threads);
        for (std::size_t b = a + 1; b < ns; ++b)
          debye::pair_histogram_cpu(shell[m][a], shell[m][b], debye::PairSet::rectangle, hist[debye::pair_index(ns, a, b)], threads);
        for (std::size_t b = 0; b < ns; ++b)
          debye::pair_histogram_cpu(shell[m][a], inside[b], debye::PairSet::rectangle,
                                    hist[debye::pair_index(ns, std::min(a, b), std::max(a, b))], threads);
      }
      shell_hist.push_back(std::move(hist));
      std::vector<double> weights(ns);
      for (std::size_t a = 0; a < ns; ++a) weights[a] = weight(shell[m][a]);
      shell_species_weight_.push_back(weights);
      for (std::size_t a = 0; a < ns; ++a) append(inside[a], shell[m][a]);
    }
    // The union of the shells' non-empty bins per pair (a crystal's
    // distances recur from shell to shell: about as many as one shell's).
    const std::size_t pairs = ns * (ns + 1) / 2;
    h->bins.resize(pairs);
    h->shell_bins.assign(pairs, std::vector<debye::BinArrays>(radii.size()));
    for (std::size_t ab = 0; ab < pairs; ++ab) {
      std::size_t bins = 0;
      for (const auto& sh : shell_hist) bins = std::max(bins, sh[ab].count.size());
      for (std::size_t k = 0; k < bins; ++k) {
        bool used = false;
        for (const auto& sh : shell_hist) {
          const debye::PairHistogram& one = sh[ab];
          used = used || (k < one.count.size() && (one.count[k] != 0 || one.sum_d[k] != 0 || one.sum_d2[k] != 0));
        }
        if (!used) continue;
        h->bins[ab].r.push_back((double(k) + 0.5) * options.bin_width);
        for (std::size_t m = 0; m < radii.size(); ++m) {
          const debye::PairHistogram& one = shell_hist[m][ab];
          const bool in = k < one.count.size();
          debye::BinArrays& out = h->shell_bins[ab][m];
          out.n.push_back(in ? one.count[k] : 0.0);
          out.m1.push_back(in ? one.sum_d[k] : 0.0);
          out.m2.push_back(in ? one.sum_d2[k] : 0.0);
        }
      }
    }
  }
  hist_ = std::move(h);
  bin_width_ = options.bin_width;
  atoms_ = s.total_weight();
  labels_ = s.labels;
  species_ = s.species;
  for (std::size_t m = 0; m < ns; ++m) {
    species_weight_.push_back(s.total_weight(m));
    default_b_.push_back(s.species[m].b_iso);
  }
  if (!powder.size) shell_species_weight_ = {species_weight_};
  for (const auto& w : shell_species_weight_) {
    double sum = 0;
    for (const double v : w) sum += v;
    shell_atoms_.push_back(sum);
  }
}

PowderParameters PowderModel::default_parameters() const {
  PowderParameters p;
  p.b = default_b_;
  if (powder_.size) {
    p.size_median = std::sqrt(powder_.size->r_min * powder_.size->r_max);
    // σ_ln 0.2, or the Gaussian's σ of about the same relative width.
    p.size_sigma = powder_.size->distribution == SizeDistribution::gaussian ? 0.2 * p.size_median : 0.2;
  }
  return p;
}

std::vector<std::vector<double>> PowderModel::pair_sums(double lattice_expansion, std::span<const double> q) const {
  if (powder_.size) fail("PowderModel::pair_sums: a size distribution's sums depend on its weights (pass the parameters)");
  return sums_of(hist_->bins, lattice_expansion, q);
}

std::vector<std::vector<double>> PowderModel::pair_sums(const PowderParameters& p, std::span<const double> q) const {
  if (!powder_.size) return sums_of(hist_->bins, p.lattice_expansion, q);
  return pair_sums_for_weights(size_weights(p), p.lattice_expansion, q);
}

std::vector<double> PowderModel::size_weights(const PowderParameters& p) const {
  if (!powder_.size) return {1.0};
  return size_bin_weights(*powder_.size, p.size_median, p.size_sigma, p.lattice_expansion);
}

std::vector<double> PowderModel::cumulative_weights(std::span<const double> weights) const {
  const std::size_t shells = shell_atoms_.size();
  if (weights.size() != shells) fail("PowderModel: ", weights.size(), " size weights for ", shells, " spheres");
  // W_m = Σ_{k≥m} w_k: a pair (or atom) of shell m is in every sphere k ≥ m.
  std::vector<double> cumulative(shells);
  double total = 0;
  for (std::size_t m = shells; m-- > 0;) {
    if (!(weights[m] >= 0) || !std::isfinite(weights[m]))
      fail_option("size", "weight of sphere ", m, " must be finite and ≥ 0, got ", weights[m]);
    cumulative[m] = total += weights[m];
  }
  return cumulative;
}

std::vector<std::vector<double>> PowderModel::pair_sums_for_weights(std::span<const double> weights, double lattice_expansion,
                                                                   std::span<const double> q) const {
  if (!powder_.size) fail("PowderModel::pair_sums_for_weights: the model has no size distribution");
  const std::vector<double> cumulative = cumulative_weights(weights);
  // The ensemble's histogram Σ_m W_m (shell m's): the sums are linear in it.
  std::vector<debye::BinArrays> combined(hist_->bins.size());
  for (std::size_t ab = 0; ab < combined.size(); ++ab) {
    debye::BinArrays& c = combined[ab];
    const std::size_t bins = hist_->bins[ab].r.size();
    c.r = hist_->bins[ab].r;
    c.n.assign(bins, 0.0), c.m1.assign(bins, 0.0), c.m2.assign(bins, 0.0);
    for (std::size_t m = 0; m < cumulative.size(); ++m) {
      const debye::BinArrays& one = hist_->shell_bins[ab][m];
      const double w = cumulative[m];
      if (w == 0) continue;
      for (std::size_t k = 0; k < bins; ++k) c.n[k] += w * one.n[k], c.m1[k] += w * one.m1[k], c.m2[k] += w * one.m2[k];
    }
  }
  return sums_of(combined, lattice_expansion, q);
}

std::vector<std::vector<double>> PowderModel::sums_of(const std::vector<debye::BinArrays>& bins, double lattice_expansion,
                                                      std::span<const double> q) const {
  const double e = 1 + lattice_expansion;
  if (!(e > 0) || !std::isfinite(e)) fail_option("lattice_expansion", "must be a finite value > −1, got ", lattice_expansion);
  // sinc(Q e r) = sinc(Q' r), Q' = eQ: the histograms stay as made.
  std::vector<double> scaled(q.size());
  for (std::size_t k = 0; k < q.size(); ++k) scaled[k] = e * q[k];
  std::vector<std::vector<double>> sums(bins.size(), std::vector<double>(q.size(), 0.0));
#if NANOSCATTER_HAVE_CUDA
  if (options_.compute.device == Device::gpu) {  // every species pair in one launch
    std::vector<const debye::BinArrays*> arrays;
    for (const auto& b : bins) arrays.push_back(&b);
    debye::bin_sinc_sums_cuda(arrays, scaled, sums, debye::BinRule::taylor2, options_.compute.max_device_memory);
    return sums;
  }
#endif
  for (std::size_t p = 0; p < bins.size(); ++p) {
    const double terms = double(bins[p].r.size()) * double(q.size());
    const int most = options_.compute.threads > 0 ? options_.compute.threads : omp_get_max_threads();
    const int threads = std::clamp(int(terms / terms_per_thread), 1, std::max(1, most));
    debye::bin_sinc_sums(bins[p], scaled, sums[p], debye::BinRule::taylor2, threads);
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
  return intensity_for_weights(p, size_weights(p), q, sums, factors);
}

std::vector<double> PowderModel::intensity_for_weights(const PowderParameters& p, std::span<const double> weights,
                                                       std::span<const double> q,
                                                       const std::vector<std::vector<double>>& sums,
                                                       const std::vector<std::vector<std::complex<double>>>& factors) const {
  const std::size_t ns = species_.size();
  if (p.b.size() != ns) fail_option("b", "needs one B per species (", ns, "), got ", p.b.size());
  for (std::size_t m = 0; m < ns; ++m)
    if (!std::isfinite(p.b[m])) fail_option("b[" + labels_[m] + "]", "must be finite, got ", p.b[m]);
  if (sums.size() != hist_->bins.size()) fail("PowderModel: ", sums.size(), " pair sums for ", hist_->bins.size(), " pairs");
  if (factors.size() != ns) fail("PowderModel: factors of ", factors.size(), " species for ", ns);
  // The ensemble is the single-particle formula with species weights
  // Σ_m W_m n_ma, pair sums of Σ_m W_m (shell m's histogram), per atom of
  // Σ_m W_m n_m = Σ_k w_k N_k.
  const std::vector<double> cumulative = cumulative_weights(weights);
  std::vector<double> species_weight(ns, 0.0);
  double atoms = 0;
  for (std::size_t m = 0; m < cumulative.size(); ++m) {
    for (std::size_t a = 0; a < ns; ++a) species_weight[a] += cumulative[m] * shell_species_weight_[m][a];
    atoms += cumulative[m] * shell_atoms_[m];
  }
  if (!(atoms > 0))
    fail_option("size_median", "the size distribution (median ", p.size_median, " Å, σ ", p.size_sigma,
                ") puts no weight on the grid's spheres");
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
      total += species_weight[m] * std::norm(f[m]) * self;
      for (std::size_t n = m; n < ns; ++n)
        total += 2 * std::real(f[m] * std::conj(f[n])) * dw[m] * dw[n] * sums[debye::pair_index(ns, m, n)][k];
    }
    out[k] = total / atoms;
  }
  return out;
}

std::vector<double> PowderModel::intensity(const PowderParameters& p, std::span<const double> q) const {
  return intensity_from_sums(p, q, pair_sums(p, q), factors(q));
}

}  // namespace nanoscatter
