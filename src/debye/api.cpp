// DebyePlan: species factorisation of the Debye double sum and dispatch of
// the pair kernels (reference/fast CPU, CUDA) over blocks of atom pairs.
//
// With species m (element, charge, B), form factor f_m(Q), Debye–Waller
// factor T_m(Q) = exp(−B_m s²), s = Q/4π, and occupancy weights w_i:
//
//   I(Q) = Σ_m |f_m|² Σ_{i∈m} w_i                                  (self)
//        + Σ_m 2 |f_m|² T_m² W_mm(Q)                               (same species)
//        + Σ_{m<n} 2 Re(f_m f_n*) T_m T_n V_mn(Q)                  (cross species)
//
// W_mm = Σ_{i<j ∈ m} w_i w_j sinc(Q r_ij) (a triangle), V_mn = Σ_{i∈m, j∈n}
// w_i w_j sinc(Q r_ij) (a rectangle).
//
// Occupancy: w_i is the probability that site i is occupied. The expected
// intensity over random, independent occupations has w_i w_j for a pair of
// distinct sites but w_i (not w_i²) for the self term, since the occupation
// indicator satisfies n_i² = n_i.
//
// Debye–Waller: the thermal average of exp(iQ·(u_i − u_j)) for independent
// Gaussian displacements is T_i T_j for i ≠ j and exactly 1 for i = j (the
// atom does not move relative to itself). So only the pair terms are damped
// and the self terms keep |f|², which is why I(Q)/N → ⟨|f|²⟩ at large Q
// (the thermal diffuse background of uncorrelated, "Einstein" vibrations;
// B. E. Warren, X-Ray Diffraction, Addison-Wesley 1969 / Dover 1990, ch. 11,
// temperature diffuse scattering). Codes that multiply every f by T (self
// terms included) give a background falling as exp(−2Bs²) instead; ours
// differs from theirs in exactly the self term, Σ|f|²w(1 − T²).
#include <chrono>
#include <cmath>
#include <complex>
#include <exception>
#include <mutex>

#include "debye/dispatch.hpp"
#include "debye/pair_sums.hpp"
#include "debye/pdf_histograms.hpp"
#include "debye/plan_impl.hpp"
#include "debye/species.hpp"
#include "nanoscatter/resource_guard.hpp"
#include "nanoscatter/debye.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/progress.hpp"

namespace nanoscatter {

using debye::pair_index;
using debye::PairHistogram;

namespace {
// Per species and Q point: f (complex) and the Debye–Waller factor T.
constexpr double kFactorBytesPerSpeciesAndQ = 2 * sizeof(double) + sizeof(double);
}  // namespace

DebyeMethod parse_debye_method(const std::string& name) {
  if (name == "exact") return DebyeMethod::exact;
  if (name == "histogram") return DebyeMethod::histogram;
  fail_option("method", "unknown method '", name, "' (expected exact or histogram)");
}

HistogramMode parse_histogram_mode(const std::string& name) {
  if (name == "precise") return HistogramMode::precise;
  if (name == "fast") return HistogramMode::fast;
  fail_option("histogram_mode", "unknown histogram mode '", name, "' (expected precise or fast)");
}

const char* to_string(HistogramMode g) { return g == HistogramMode::fast ? "fast" : "precise"; }


void DebyeResult::reduce(const parallel::Communicator& comm) {
  if (!comm.distributed()) return;
  comm.sum_in_rank_order(intensity);
  for (auto& partial : partials) comm.sum_in_rank_order(partial);
  std::vector<double> work{pairs};
  comm.sum_in_rank_order(work);
  comm.broadcast(intensity);
  for (auto& partial : partials) comm.broadcast(partial);
  comm.broadcast(work);
  pairs = work[0];
}

void validate_bin_width(double bin_width) {
  if (!(bin_width > 0) || !std::isfinite(bin_width))
    fail_option("bin_width", "must be a finite value > 0 Å, got ", bin_width);
}

void DebyeOptions::validate() const {
  validate_bin_width(bin_width);
  if (histogram_mode != HistogramMode::precise && histogram_mode != HistogramMode::fast)
    fail_option("histogram_mode", "must be precise or fast, got ", static_cast<int>(histogram_mode));
  if (factors.energy_kev) {
    if (radiation != Radiation::xray) fail_option("energy", "anomalous scattering applies to X-rays only");
    if (!(*factors.energy_kev > 0 && std::isfinite(*factors.energy_kev)))
      fail_option("energy", "must be a finite photon energy > 0 keV, got ", *factors.energy_kev);
  }
  compute.validate();
  validate_work_share(share);
}

Precision DebyeOptions::resolved_precision() const { return compute.resolved_precision(Precision::float32); }

DebyePlan::DebyePlan(const Structure& structure, DebyeOptions options)
    : impl_(std::make_unique<Impl>()) {
  options.validate();
  options.compute.precision = options.resolved_precision();
  impl_->options = options;
  set_structure(structure);
}

void DebyePlan::set_structure(const Structure& structure) {
  const DebyeOptions& o = impl_->options;
  impl_->species = debye::group_by_species(structure, debye::atom_order_for(o, structure.atoms.size()));
  impl_->atom_count = structure.atoms.size();
  // Histograms do not depend on Q: the plan makes them once per structure.
  impl_->histograms.clear();
  if (o.method == DebyeMethod::histogram) {
    impl_->histograms = debye::pair_histograms(impl_->species, o);
    ++impl_->stats.histogram_builds;
  }
  const std::lock_guard lock(impl_->cache_mutex);
  impl_->cached_q.clear();
  impl_->cached_sums.clear();
}

void DebyePlan::set_factors(const FactorOptions& factors) {
  DebyeOptions o = impl_->options;
  o.factors = factors;
  o.validate();
  impl_->options = o;  // the pair sums do not depend on the factors: kept
}

void DebyePlan::set_radiation(Radiation radiation) {
  DebyeOptions o = impl_->options;
  o.radiation = radiation;
  o.validate();
  impl_->options = o;
}

const DebyeOptions& DebyePlan::options() const { return impl_->options; }

DebyePlan::Stats DebyePlan::stats() const {
  const std::lock_guard lock(impl_->cache_mutex);
  return impl_->stats;
}

DebyePlan::~DebyePlan() = default;
DebyePlan::DebyePlan(DebyePlan&&) noexcept = default;
DebyePlan& DebyePlan::operator=(DebyePlan&&) noexcept = default;

// Σ_pairs w_i w_j sinc(Q r_ij) per species pair into sums (zeroed); returns
// the pairs this part summed (exact method).
double DebyePlan::sum_pairs(const std::vector<double>& q, const std::vector<double>& weight,
                            std::vector<std::vector<double>>& sums) const {
  const DebyeOptions& o = impl_->options;
  const auto& s = impl_->species;
  const std::size_t ns = s.blocks.size(), nq = q.size();
  double pairs_done = 0;
  if (o.method == DebyeMethod::histogram) {
    debye::run_histogram_sums(o, impl_->histograms, q, sums);
  } else {
    const debye::PairBlocks pieces =
        debye::make_pair_blocks(s, debye::exact_piece_atoms(o, impl_->atom_count));
    const std::vector<int> owner = debye::deal_blocks(pieces, o.share.count);
    double mine = 0;
    for (std::size_t b = 0; b < pieces.blocks.size(); ++b)
      if (owner[b] == o.share.index) mine += pieces.blocks[b].pairs;
    pairs_done = mine;
    Progress progress("debye: exact pair sums", std::uint64_t(mine), {.quiet = o.compute.quiet});
    for (std::size_t b = 0; b < pieces.blocks.size(); ++b) {
      if (owner[b] != o.share.index) continue;
      debye::run_exact(o, pieces.blocks[b], q, sums[pieces.blocks[b].pair]);
      progress.advance(std::uint64_t(pieces.blocks[b].pairs));
    }
    // The kernels return Σ w w sin(Q r)/r; sinc needs one division by Q.
    // At Q = 0 every sinc is 1, so the sum is the pair weight itself (all of
    // it in part 0 of a work share).
    for (std::size_t m = 0; m < ns; ++m)
      for (std::size_t n = m; n < ns; ++n) {
        auto& v = sums[pair_index(ns, m, n)];
        const double wm = weight[m];
        double zero_q;
        if (m == n) {
          double w2 = 0;
          for (double w : s.blocks[m].w) w2 += w * w;
          zero_q = 0.5 * (wm * wm - w2);  // Σ_{i<j} w_i w_j
        } else {
          zero_q = wm * weight[n];
        }
        if (!o.share.first()) zero_q = 0;
        for (std::size_t k = 0; k < nq; ++k) v[k] = q[k] > 0 ? v[k] / q[k] : zero_q;
      }
  }

  return pairs_done;
}

DebyeResult DebyePlan::execute(const std::vector<double>& q) const {
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t k = 0; k < q.size(); ++k)
    if (!std::isfinite(q[k]) || q[k] < 0)
      fail_at({"", 0, "q"}, "Q point ", k + 1, " is ", q[k], " (need finite values ≥ 0 Å⁻¹)");
  const DebyeOptions& o = impl_->options;
  const auto& s = impl_->species;
  const std::size_t ns = s.blocks.size(), nq = q.size(), npairs = ns * (ns + 1) / 2;
  // One row of sums per species pair and a row of factors (complex f, T)
  // per species: atoms that each carry their own B are as many species,
  // and N² rows would not fit.
  require_host_memory({"", 0, "species"},
                      detail::concat(ns, " species (element, charge, B) make ", npairs, " pair sums over ", nq,
                                     " Q points, which"),
                      double(nq) * (double(npairs) * sizeof(double) + double(ns) * kFactorBytesPerSpeciesAndQ));

  // Factors without Debye–Waller (self terms stay undamped) and T_m apart,
  // before the sums: a Q beyond a table's range fails before the costly part.
  FactorOptions bare = o.factors;
  bare.debye_waller = false;
  std::vector<std::vector<std::complex<double>>> f(ns, std::vector<std::complex<double>>(nq));
  std::vector<std::vector<double>> t(ns, std::vector<double>(nq, 1.0));
  // All threads (~0.3 µs a factor: ~1 ms for two species at 1456 Q); the
  // first error in (species, Q) order is raised after (a species without
  // tables), as a serial loop would.
  std::exception_ptr error;
  std::size_t error_at = ns * nq;
  std::mutex error_mutex;
#pragma omp parallel for collapse(2) schedule(static)
  for (std::size_t m = 0; m < ns; ++m)
    for (std::size_t k = 0; k < nq; ++k) {
      try {
        f[m][k] = scattering_factor(o.radiation, s.species[m], q[k], bare);
        if (o.factors.debye_waller) t[m][k] = debye_waller(s.species[m].b_iso, q[k]);
      } catch (...) {
        const std::lock_guard lock(error_mutex);
        if (m * nq + k < error_at) error = std::current_exception(), error_at = m * nq + k;
      }
    }
  if (error) std::rethrow_exception(error);

  std::vector<double> weight(ns);  // Σ w per species (a pass over its atoms each)
  for (std::size_t m = 0; m < ns; ++m) weight[m] = s.total_weight(m);

  // Σ_pairs w_i w_j sinc(Q r_ij) per species pair (W_mm, V_mn): the costly
  // part, which depends on the atoms and Q only, so a plan whose factors
  // changed (set_factors, set_radiation) reuses the last grid's sums.
  std::vector<std::vector<double>> sums;
  double pairs_done = 0;
  {
    const std::lock_guard lock(impl_->cache_mutex);
    if (impl_->cached_q == q && !impl_->cached_sums.empty()) {
      sums = impl_->cached_sums;
      pairs_done = impl_->cached_pairs;
    }
  }
  if (sums.empty()) {
    sums.assign(npairs, std::vector<double>(nq, 0.0));
    pairs_done = sum_pairs(q, weight, sums);
    const std::lock_guard lock(impl_->cache_mutex);
    impl_->cached_q = q;
    impl_->cached_sums = sums;
    impl_->cached_pairs = pairs_done;
    ++impl_->stats.pair_sum_runs;
  }


  DebyeResult result;
  result.q = q;
  result.atom_count = impl_->atom_count;
  result.pairs = pairs_done;
  result.intensity.assign(nq, 0.0);
  std::vector<std::string> names(npairs);
  std::vector<std::vector<double>> partials(npairs, std::vector<double>(nq, 0.0));
  for (std::size_t m = 0; m < ns; ++m) {
    // Self terms once: in part 0 of a work share.
    const double wm = o.share.first() ? weight[m] : 0.0;
    for (std::size_t n = m; n < ns; ++n) {
      const std::size_t p = pair_index(ns, m, n);
      names[p] = debye::pair_label(s, m, n);
      for (std::size_t k = 0; k < nq; ++k) {
        if (m == n) {
          const double f2 = std::norm(f[m][k]);
          partials[p][k] = f2 * wm + 2 * f2 * t[m][k] * t[m][k] * sums[p][k];
        } else {
          const double cross = std::real(f[m][k] * std::conj(f[n][k]));
          partials[p][k] = 2 * cross * t[m][k] * t[n][k] * sums[p][k];
        }
      }
    }
  }
  for (std::size_t p = 0; p < npairs; ++p)
    for (std::size_t k = 0; k < nq; ++k) result.intensity[k] += partials[p][k];
  if (o.partials) {
    result.partial_names = std::move(names);
    result.partials = std::move(partials);
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

PdfResult pair_distribution(const DebyePlan& plan, const PdfOptions& pdf, const HistogramCombiner& combine) {
  pdf.validate();
  const DebyePlan::Impl& impl = plan.impl();
  DebyeOptions used = impl.options;
  // The plan's histograms are this part's; without a combiner the PDF needs
  // them whole (pair_distribution's rule).
  if (used.method == DebyeMethod::histogram && (combine || used.share.count <= 1))
    return debye::pdf_from_histograms(impl.species, impl.histograms, used, pdf, combine);
  if (!combine) used.share = WorkShare{};
  return debye::pdf_from_histograms(impl.species, debye::pair_histograms(impl.species, used), used, pdf, combine);
}

}  // namespace nanoscatter
