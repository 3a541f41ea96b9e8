// PDFfit2-convention PDF model from pair histograms (pdf_model.hpp).
#include "nanoscatter/pdf_model.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "debye/dispatch.hpp"
#include "debye/pdf_histograms.hpp"
#include "debye/species.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter {

namespace {

constexpr double pi = std::numbers::pi;
// Gaussians are summed out to this many σ (exp(−32) ≈ 1e-14 of the peak).
constexpr double gauss_reach = 8;

}  // namespace

PdfEnvelope parse_pdf_envelope(const std::string& name) {
  if (name == "sphere") return PdfEnvelope::sphere;
  if (name == "bulk") return PdfEnvelope::bulk;
  fail_option("envelope", "unknown envelope '", name, "' (sphere, bulk)");
}

const char* to_string(PdfEnvelope envelope) { return envelope == PdfEnvelope::bulk ? "bulk" : "sphere"; }

void PdfModelOptions::validate() const {
  if (!(qmax >= 0) || !std::isfinite(qmax)) fail_option("pdf_qmax", "must be a finite value ≥ 0 Å⁻¹ (0: no termination), got ", qmax);
  if (!(qmin >= 0) || !std::isfinite(qmin) || (qmax > 0 && !(qmin < qmax)))
    fail_option("pdf_qmin", "must be ≥ 0 and below qmax = ", qmax, " Å⁻¹, got ", qmin);
  if (!(number_density >= 0) || !std::isfinite(number_density))
    fail_option("number_density", "must be a finite value ≥ 0 Å⁻³ (0: from the particle), got ", number_density);
  if (!(termination_step > 0) || !std::isfinite(termination_step))
    fail_option("termination_step", "must be a finite value > 0 Å, got ", termination_step);
  if (!(termination_extension >= 0) || !std::isfinite(termination_extension))
    fail_option("termination_extension", "must be a finite value ≥ 0 Å, got ", termination_extension);
}

PdfModel::PdfModel(const Structure& structure, const DebyeOptions& options, const PdfModelOptions& pdf)
    : options_(pdf) {
  options.validate();
  pdf.validate();
  const auto s = debye::group_by_species(structure, debye::atom_order_for(options, structure.atoms.size()));
  DebyeOptions used = options;
  used.share = WorkShare{};
  const std::vector<debye::PairHistogram> hist = debye::pair_histograms(s, used);
  const std::size_t ns = s.species.size();
  atoms_ = s.total_weight();
  labels_ = s.labels;
  for (std::size_t m = 0; m < ns; ++m) default_u_.push_back(s.species[m].b_iso / (8 * pi * pi));
  const std::vector<double> weights = debye::pdf_pair_weights(s, options);
  for (std::size_t m = 0; m < ns; ++m)
    for (std::size_t n = m; n < ns; ++n) {
      const std::size_t p = debye::pair_index(ns, m, n);
      const auto& h = hist[p];
      PairBins pb{m, n, {}};
      for (std::size_t k = 0; k < h.count.size(); ++k) {
        if (h.count[k] == 0) continue;
        const double mean = h.sum_d[k] / h.count[k];
        const double variance = std::max(0.0, h.sum_d2[k] / h.count[k] - mean * mean);
        const double r = debye::bin_mean_distance(h, k);
        pb.bins.push_back({r, weights[p] * h.count[k], variance});
        largest_distance_ = std::max(largest_distance_, r);
      }
      pairs_.push_back(std::move(pb));
    }
  const debye::EquivalentSphere sphere = debye::equivalent_sphere(s);
  sphere_radius_ = sphere.radius;
  number_density_ = pdf.number_density > 0 ? pdf.number_density : sphere.number_density;
}

double sphere_size_envelope(double r, double median_radius, double sigma) {
  if (median_radius == 0) return 1;
  if (sigma == 0) return debye::sphere_gamma0(r, median_radius);
  if (!(r > 0)) return 1;
  // Moments R^k of the number distribution over R > r/2, relative to ⟨R³⟩.
  const double mu = std::log(median_radius), a = std::log(r / 2), s2 = sigma * sigma;
  const auto tail = [&](int k) {
    return std::exp((k - 3) * mu + (k * k - 9) * s2 / 2) * 0.5 * std::erfc((a - mu - k * s2) / (std::sqrt(2.0) * sigma));
  };
  return tail(3) - 0.75 * r * tail(2) + r * r * r / 16 * tail(0);
}

PdfParameters PdfModel::default_parameters() const {
  PdfParameters p;
  p.u = default_u_;
  return p;
}

std::vector<double> PdfModel::sharp(const PdfParameters& p, std::span<const double> r) const {
  if (p.u.size() != labels_.size())
    fail_option("u", "needs one Uiso per species (", labels_.size(), "), got ", p.u.size());
  for (std::size_t m = 0; m < p.u.size(); ++m)
    if (!(p.u[m] >= 0) || !std::isfinite(p.u[m])) fail_option("u[" + labels_[m] + "]", "must be ≥ 0 Å², got ", p.u[m]);
  const double e = 1 + p.lattice_expansion;
  if (!(e > 0)) fail_option("lattice_expansion", "must be > −1, got ", p.lattice_expansion);
  if (!std::is_sorted(r.begin(), r.end())) fail("PdfModel: r must be increasing");
  const double radius = e * sphere_radius_, rho0 = number_density_ / (e * e * e);
  const bool sized = p.sphere_radius != 0;
  if (!(p.sphere_radius >= 0) || !std::isfinite(p.sphere_radius))
    fail_option("sphere_radius", "must be a finite value ≥ 0 Å (0: no size envelope), got ", p.sphere_radius);
  if (!(p.sphere_sigma >= 0) || !std::isfinite(p.sphere_sigma))
    fail_option("sphere_sigma", "must be a finite value ≥ 0 (σ of ln R; 0: monodisperse), got ", p.sphere_sigma);
  if (sized && options_.envelope != PdfEnvelope::bulk)
    fail_option("sphere_radius", "needs envelope = \"bulk\": the size envelope multiplies the bulk G(r) of a large particle");
  if (sized && !r.empty() && r.back() > radius)
    fail_option("sphere_radius", "the large particle (R = ", radius, " Å) must reach the largest r, ", r.back(),
                " Å: build it with R ≥ ", r.back(), " Å");
  std::vector<double> pair_sum(r.size(), 0.0);
  for (const auto& pb : pairs_) {
    const double sigma2 = p.u[pb.m] + p.u[pb.n];
    for (const Bin& b : pb.bins) {
      const double mu = e * b.r;
      const double radicand = 1 - p.delta1 / mu - p.delta2 / (mu * mu) + p.qbroad * p.qbroad * mu * mu;
      if (!(radicand > 0)) continue;  // as PDFfit2: the pair is left out
      const double var = sigma2 * radicand + e * e * b.variance;
      if (!(var > 0)) fail_option("u", "a pair at ", mu, " Å has zero width: give U > 0 for its species");
      const double sd = std::sqrt(var);
      const double norm = b.weight / (std::sqrt(2 * pi) * sd);
      const auto lo = std::lower_bound(r.begin(), r.end(), mu - gauss_reach * sd);
      const auto hi = std::upper_bound(lo, r.end(), mu + gauss_reach * sd);
      for (auto it = lo; it != hi; ++it) {
        const double x = (*it - mu) / sd;
        pair_sum[std::size_t(it - r.begin())] += norm * std::exp(-0.5 * x * x);
      }
    }
  }
  std::vector<double> g(r.size());
  for (std::size_t k = 0; k < r.size(); ++k) {
    const double rk = r[k];
    if (!(rk > 0)) fail("PdfModel: r must be > 0, got ", rk);
    const double gamma = debye::sphere_gamma0(rk, radius);
    if (options_.envelope == PdfEnvelope::sphere) {
      g[k] = pair_sum[k] / rk - 4 * pi * rk * rho0 * gamma;
    } else {
      // Beyond the diameter a sphere has no pairs to stand for the bulk.
      g[k] = gamma > 0 ? pair_sum[k] / (rk * gamma) - 4 * pi * rk * rho0 : 0.0;
      if (sized) g[k] *= sphere_size_envelope(rk, p.sphere_radius, p.sphere_sigma);
    }
  }
  return g;
}

std::vector<double> PdfModel::evaluate(const PdfParameters& p, std::span<const double> r) const {
  std::vector<double> g;
  if (options_.qmax <= 0) {
    g = sharp(p, r);
    for (std::size_t k = 0; k < r.size(); ++k) g[k] *= std::exp(-0.5 * (p.qdamp * r[k]) * (p.qdamp * r[k]));
  } else if (!r.empty()) {
    const double h = options_.termination_step;
    // G_sharp ends with the particle: 2eR for the baseline, the largest
    // distance plus its Gaussian's reach for the pairs. A sphere is
    // transformed whole (nothing cut, so no cut's ripple); the bulk
    // envelope out to the last r plus the extension.
    const double e = 1 + p.lattice_expansion;
    double u_max = 0;
    for (double u : p.u) u_max = std::max(u_max, u);
    const double far = e * largest_distance_;
    const double reach = gauss_reach * std::sqrt(2 * u_max * (1 + p.qbroad * p.qbroad * far * far) + 1e-6);
    const double particle_end = std::max(2 * e * sphere_radius_, far + reach);
    // The bulk envelope divides by γ0, which falls to 0.086 at 1.5R: no
    // further, so that the surface's noise is not amplified into the cut.
    // With a size envelope the large particle must reach every r used
    // (sharp checks r ≤ eR), so the grid stops at eR.
    const double bulk_end = p.sphere_radius != 0 ? e * sphere_radius_ : 1.5 * e * sphere_radius_;
    const double r_end = options_.envelope == PdfEnvelope::sphere
                             ? particle_end
                             : std::max(r.back(), std::min(bulk_end, r.back() + options_.termination_extension));
    // With a size envelope the last midpoint stays at or below r_end = eR.
    const std::size_t steps = p.sphere_radius != 0 ? std::max<std::size_t>(1, std::size_t(std::floor(r_end / h + 0.5)))
                                                   : std::size_t(std::ceil(r_end / h));
    std::vector<double> fine(steps);
    for (std::size_t k = 0; k < steps; ++k) fine[k] = (double(k) + 0.5) * h;
    std::vector<double> gs = sharp(p, fine);
    // PDFfit2's order: the Qdamp envelope on G_sharp, then the Qmax cutoff.
    for (std::size_t k = 0; k < steps; ++k) gs[k] *= std::exp(-0.5 * (p.qdamp * fine[k]) * (p.qdamp * fine[k]));
    // sin(Q(r ∓ r')) from the sines and cosines of Q r and Q r' (no sine per
    // term); below |x| = 1e-6 the kernel takes its limit Q/π (error Q³x²/6).
    struct Trig {
      double q;
      std::vector<double> sin_r, cos_r, sin_f, cos_f;
    };
    std::vector<Trig> trig;
    for (const double q : {options_.qmax, -options_.qmin}) {
      if (q == 0) continue;
      Trig t{q, {}, {}, {}, {}};
      for (const double x : r) t.sin_r.push_back(std::sin(std::abs(q) * x)), t.cos_r.push_back(std::cos(std::abs(q) * x));
      for (const double x : fine) t.sin_f.push_back(std::sin(std::abs(q) * x)), t.cos_f.push_back(std::cos(std::abs(q) * x));
      trig.push_back(std::move(t));
    }
    g.assign(r.size(), 0.0);
    for (std::size_t i = 0; i < r.size(); ++i) {
      double sum = 0;
      for (const Trig& t : trig) {
        const double sign = t.q > 0 ? 1 : -1, q = std::abs(t.q);
        double part = 0;
        for (std::size_t k = 0; k < steps; ++k) {
          const double minus = r[i] - fine[k], plus = r[i] + fine[k];
          const double k_minus = std::abs(minus) < 1e-6
                                     ? q
                                     : (t.sin_r[i] * t.cos_f[k] - t.cos_r[i] * t.sin_f[k]) / minus;
          const double k_plus = (t.sin_r[i] * t.cos_f[k] + t.cos_r[i] * t.sin_f[k]) / plus;
          part += gs[k] * (k_minus - k_plus);
        }
        sum += sign * part / pi;
      }
      g[i] = sum * h;
    }
  }
  for (double& v : g) v *= p.scale;
  return g;
}

}  // namespace nanoscatter
