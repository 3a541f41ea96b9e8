// Pair distribution function R(r), G(r) of a finite particle from the pair
// histograms (definitions in debye_pdf.hpp).
#include <cmath>
#include <complex>
#include <numbers>

#include "debye/dispatch.hpp"
#include "debye/pdf_histograms.hpp"
#include "debye/species.hpp"
#include "nanoscatter/debye_pdf.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter {

namespace {

// Upper edge of the last non-empty bin over all histograms.
double largest_distance(const std::vector<debye::PairHistogram>& hist) {
  double r = 0;
  for (const auto& h : hist)
    for (std::size_t k = h.count.size(); k-- > 0;)
      if (h.count[k] != 0) {
        r = std::max(r, double(k + 1) * h.bin_width);
        break;
      }
  return r;
}

}  // namespace

void PdfOptions::validate() const {
  if (!(dr > 0) || !std::isfinite(dr)) fail_option("pdf_dr", "must be a finite value > 0 Å, got ", dr);
  if (!(r_max >= 0) || !std::isfinite(r_max))
    fail_option("pdf_rmax", "must be a finite value ≥ 0 Å (0: the largest distance), got ", r_max);
}

PdfResult pair_distribution(const Structure& structure, const DebyeOptions& options, const PdfOptions& pdf,
                            const HistogramCombiner& combine) {
  options.validate();
  pdf.validate();
  const auto s = debye::group_by_species(structure);
  // The PDF is not linear in the histograms (bin means, largest distance):
  // it needs the histograms of every pair, either from the parts of a work
  // share added up by `combine`, or computed here whole.
  DebyeOptions used = options;
  if (!combine) used.share = WorkShare{};
  return debye::pdf_from_histograms(s, debye::pair_histograms(s, used), options, pdf, combine);
}

namespace debye {

// Radius of gyration of the atoms (occupancy-weighted, geometric: no
// scattering weights), Å.
double radius_of_gyration(const debye::SpeciesBlocks& s) {
  double n = 0, cx = 0, cy = 0, cz = 0;
  for (const auto& b : s.blocks)
    for (std::size_t i = 0; i < b.size(); ++i) {
      n += b.w[i];
      cx += b.w[i] * b.x[i];
      cy += b.w[i] * b.y[i];
      cz += b.w[i] * b.z[i];
    }
  cx /= n, cy /= n, cz /= n;
  double r2 = 0;
  for (const auto& b : s.blocks)
    for (std::size_t i = 0; i < b.size(); ++i) {
      const double dx = b.x[i] - cx, dy = b.y[i] - cy, dz = b.z[i] - cz;
      r2 += b.w[i] * (dx * dx + dy * dy + dz * dz);
    }
  return std::sqrt(r2 / n);
}

// Characteristic function of a sphere of radius R (Guinier & Fournet).
double sphere_gamma0(double r, double radius) {
  if (radius <= 0 || r >= 2 * radius) return 0;
  const double x = r / radius;
  return 1 - 0.75 * x + x * x * x / 16;
}

EquivalentSphere equivalent_sphere(const SpeciesBlocks& s) {
  EquivalentSphere sphere;
  sphere.radius = std::sqrt(5.0 / 3.0) * radius_of_gyration(s);
  const double volume = 4.0 / 3.0 * std::numbers::pi * std::pow(sphere.radius, 3);
  sphere.number_density = volume > 0 ? s.total_weight() / volume : 0.0;
  return sphere;
}

std::vector<double> pdf_pair_weights(const SpeciesBlocks& s, const DebyeOptions& options) {
  const std::size_t ns = s.species.size();
  const double atoms = s.total_weight();
  FactorOptions bare = options.factors;
  bare.debye_waller = false;
  std::vector<std::complex<double>> f(ns);
  std::complex<double> f_mean = 0;
  for (std::size_t m = 0; m < ns; ++m) {
    f[m] = scattering_factor(options.radiation, s.species[m], 0.0, bare);
    f_mean += s.total_weight(m) / atoms * f[m];
  }
  if (std::norm(f_mean) == 0) fail_option("pdf", "the mean scattering factor ⟨f(0)⟩ is 0: G(r) is undefined");
  std::vector<double> weights(ns * (ns + 1) / 2);
  for (std::size_t m = 0; m < ns; ++m)
    for (std::size_t n = m; n < ns; ++n)
      weights[pair_index(ns, m, n)] = 2 * std::real(f[m] * std::conj(f[n])) / std::norm(f_mean) / atoms;
  return weights;
}

PdfResult pdf_from_histograms(const SpeciesBlocks& s, std::vector<PairHistogram> hist, const DebyeOptions& options,
                              const PdfOptions& pdf, const HistogramCombiner& combine) {
  PdfResult out;
  out.atoms = s.total_weight();
  const std::vector<double> weights = pdf_pair_weights(s, options);
  if (combine)
    for (auto& h : hist) {
      combine(h.count);
      combine(h.sum_d);
      combine(h.sum_d2);
    }
  const double r_max = pdf.r_max > 0 ? pdf.r_max : largest_distance(hist);
  // 1e8 output bins (2.4 GB of columns) is far beyond any useful grid.
  if (r_max / pdf.dr > 1e8)
    fail_option("pdf_dr", "step ", pdf.dr, " Å needs ", r_max / pdf.dr, " bins up to ", r_max,
            " Å (limit 1e8)");
  const std::size_t bins = std::max<std::size_t>(1, std::size_t(std::ceil(r_max / pdf.dr)));
  out.r.resize(bins);
  out.rdf.assign(bins, 0.0);
  for (std::size_t k = 0; k < bins; ++k) out.r[k] = (double(k) + 0.5) * pdf.dr;

  for (std::size_t p = 0; p < hist.size(); ++p) {
    const PairHistogram& h = hist[p];
    const double scale = weights[p] / pdf.dr;  // per Å
    for (std::size_t k = 0; k < h.count.size(); ++k) {
      if (h.count[k] == 0) continue;
      const auto j = std::size_t(std::max(0.0, bin_mean_distance(h, k)) / pdf.dr);
      if (j < bins) out.rdf[j] += scale * h.count[k];
    }
  }

  out.radius_of_gyration = radius_of_gyration(s);
  const EquivalentSphere sphere = equivalent_sphere(s);
  out.sphere_radius = sphere.radius;
  out.number_density = sphere.number_density;
  out.g.resize(bins);
  for (std::size_t k = 0; k < bins; ++k) {
    const double r = out.r[k];
    out.g[k] = out.rdf[k] / r -
               4 * std::numbers::pi * r * out.number_density * sphere_gamma0(r, out.sphere_radius);
  }
  return out;
}

}  // namespace debye

}  // namespace nanoscatter
