// The grid of sphere radii and its log-normal or Gaussian weights (powder_size.hpp).
#include <cmath>
#include <numbers>

#include "nanoscatter/error.hpp"
#include "nanoscatter/powder_size.hpp"

namespace nanoscatter {

SizeDistribution parse_size_distribution(const std::string& name) {
  if (name == "lognormal") return SizeDistribution::lognormal;
  if (name == "gaussian") return SizeDistribution::gaussian;
  fail_option("distribution", "unknown size distribution '", name, "' (lognormal, gaussian)");
}

const char* to_string(SizeDistribution d) { return d == SizeDistribution::gaussian ? "gaussian" : "lognormal"; }

void SizeDistributionOptions::validate() const {
  if (!(r_min > 0) || !std::isfinite(r_min)) fail_option("r_min", "must be a finite radius > 0 Å, got ", r_min);
  if (!(r_max > r_min) || !std::isfinite(r_max)) fail_option("r_max", "must be finite and > r_min (", r_min, " Å), got ", r_max);
  if (count < 2 || count > 1000) fail_option("count", "must be in [2, 1000] radii, got ", count);
}

std::vector<double> SizeDistributionOptions::radii() const {
  validate();
  std::vector<double> r(count);
  const double step = std::log(r_max / r_min) / double(count - 1);
  for (std::size_t k = 0; k < count; ++k) r[k] = r_min * std::exp(step * double(k));
  r.back() = r_max;  // exactly, so that the largest sphere is the one cut
  return r;
}

namespace {

// Φ(b) − Φ(a) for a ≤ b without cancellation in either tail.
double normal_probability(double a, double b) {
  const double s = 1 / std::numbers::sqrt2;
  if (a >= 0) return 0.5 * (std::erfc(a * s) - std::erfc(b * s));
  if (b <= 0) return 0.5 * (std::erfc(-b * s) - std::erfc(-a * s));
  return 0.5 * (std::erf(b * s) - std::erf(a * s));
}

}  // namespace

namespace {

// The checks both distributions share; returns e = 1 + ε.
double checked_expansion(double median, double sigma, double lattice_expansion) {
  if (!(median > 0) || !std::isfinite(median)) fail_option("size_median", "must be a finite radius > 0 Å, got ", median);
  if (!(sigma > 0) || !std::isfinite(sigma)) fail_option("size_sigma", "must be a finite value > 0, got ", sigma);
  const double e = 1 + lattice_expansion;
  if (!(e > 0) || !std::isfinite(e)) fail_option("lattice_expansion", "must be a finite value > −1, got ", lattice_expansion);
  return e;
}

}  // namespace

std::vector<double> lognormal_bin_weights(const SizeDistributionOptions& grid, double median, double sigma,
                                          double lattice_expansion) {
  const double e = checked_expansion(median, sigma, lattice_expansion);
  const std::vector<double> r = grid.radii();
  const double half = 0.5 * std::log(grid.r_max / grid.r_min) / double(grid.count - 1);
  const double mu = std::log(median / e);  // the median on the unexpanded grid
  std::vector<double> w(r.size());
  for (std::size_t k = 0; k < r.size(); ++k) {
    const double u = std::log(r[k]);
    w[k] = normal_probability((u - half - mu) / sigma, (u + half - mu) / sigma);
  }
  return w;
}

std::vector<double> gaussian_bin_weights(const SizeDistributionOptions& grid, double mean, double sigma,
                                         double lattice_expansion) {
  const double e = checked_expansion(mean, sigma, lattice_expansion);
  const std::vector<double> r = grid.radii();
  const double half = 0.5 * std::log(grid.r_max / grid.r_min) / double(grid.count - 1);
  const double centre = mean / e, spread = sigma / e;  // on the unexpanded grid
  std::vector<double> w(r.size());
  for (std::size_t k = 0; k < r.size(); ++k)
    w[k] = normal_probability((r[k] * std::exp(-half) - centre) / spread, (r[k] * std::exp(half) - centre) / spread);
  return w;
}

std::vector<double> size_bin_weights(const SizeDistributionOptions& grid, double median, double sigma,
                                     double lattice_expansion) {
  if (grid.distribution == SizeDistribution::gaussian) return gaussian_bin_weights(grid, median, sigma, lattice_expansion);
  return lognormal_bin_weights(grid, median, sigma, lattice_expansion);
}

}  // namespace nanoscatter
