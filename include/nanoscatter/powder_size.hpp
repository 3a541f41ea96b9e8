// A log-normal distribution of sphere radii for the powder model
// (powder_model.hpp): a fixed grid of K radii, uniform in ln R,
//   R_k = r_min (r_max/r_min)^(k/(K−1)),  k = 0 … K−1,  Δ = ln(r_max/r_min)/(K−1),
// and the number fraction of each as the log-normal's probability of the
// ln R bin around R_k (the distribution truncated to the grid's bins,
// [ln r_min − Δ/2, ln r_max + Δ/2]; the pattern is normalised, so the
// truncation only drops the tails):
//   w_k = Φ((ln R_k + ln e + Δ/2 − ln m)/σ) − Φ((ln R_k + ln e − Δ/2 − ln m)/σ),
// m the median radius (Å) and σ = σ_ln of the expanded particles: every
// distance, the radii too, scales with e = 1 + ε. Smooth in m, σ and ε.
// Or a Gaussian of mean (= median) m and standard deviation σ (both Å, of
// the expanded particles) on the same bins, [R_k e^(−Δ/2), R_k e^(Δ/2)]:
//   w_k = Φ((R_k e^(Δ/2) − m/e)/(σ/e)) − Φ((R_k e^(−Δ/2) − m/e)/(σ/e)).
// docs/debye.md, "Powder model", writes out the ensemble built on it.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace nanoscatter {

enum class SizeDistribution { lognormal, gaussian };
SizeDistribution parse_size_distribution(const std::string& name);  // "lognormal", "gaussian"
const char* to_string(SizeDistribution d);

struct SizeDistributionOptions {
  double r_min = 15;   // Å, the smallest grid radius (unexpanded lattice)
  double r_max = 40;   // Å, the largest (the particle the model cuts)
  std::size_t count = 20;  // K ≥ 2 radii
  SizeDistribution distribution = SizeDistribution::lognormal;
  void validate() const;   // fields: r_min, r_max, count
  std::vector<double> radii() const;  // R_k, increasing
};

// w_k (the grid's bins; Σ w_k ≤ 1). Error (fields size_median, size_sigma)
// unless m > 0 and σ > 0 are finite.
std::vector<double> lognormal_bin_weights(const SizeDistributionOptions& grid, double median, double sigma,
                                          double lattice_expansion = 0);
// The Gaussian's w_k (mean m and σ in Å); the same errors.
std::vector<double> gaussian_bin_weights(const SizeDistributionOptions& grid, double mean, double sigma,
                                         double lattice_expansion = 0);
// w_k of grid.distribution: m is the median (= the Gaussian's mean), σ is
// σ_ln (log-normal) or in Å (Gaussian).
std::vector<double> size_bin_weights(const SizeDistributionOptions& grid, double median, double sigma,
                                     double lattice_expansion = 0);

}  // namespace nanoscatter
