// The instrument of the powder model (powder_model.hpp): polarisation,
// Caglioti or Thompson–Cox–Hastings pseudo-Voigt profile, Kα doublet, 2θ zero and Chebyshev
// background, applied to the Debye pattern on a fine 2θ grid.
#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "nanoscatter/error.hpp"
#include "nanoscatter/powder_model.hpp"

namespace nanoscatter {

namespace {

constexpr double pi = std::numbers::pi;
constexpr double degree = pi / 180;
// Sampled profile values a PowderPattern keeps (8 bytes each: 128 MB).
constexpr std::size_t max_kept_kernel_values = std::size_t(1) << 24;

}  // namespace

Polarisation parse_polarisation(const std::string& name) {
  if (name == "unpolarised" || name == "unpolarized" || name == "none") return Polarisation::unpolarised;
  if (name == "monochromator") return Polarisation::monochromator;
  if (name == "synchrotron") return Polarisation::synchrotron;
  fail_option("polarisation", "unknown polarisation '", name, "' (unpolarised, monochromator, synchrotron)");
}

const char* to_string(Polarisation p) {
  switch (p) {
    case Polarisation::monochromator: return "monochromator";
    case Polarisation::synchrotron: return "synchrotron";
    default: return "unpolarised";
  }
}

void PowderInstrument::validate() const {
  if (!(wavelength > 0) || !std::isfinite(wavelength)) fail_option("wavelength", "must be a finite value > 0 Å, got ", wavelength);
  if (!(wavelength2 >= 0) || !std::isfinite(wavelength2))
    fail_option("wavelength2", "must be a finite value > 0 Å (0: a single line), got ", wavelength2);
  if (!(ratio >= 0) || !std::isfinite(ratio)) fail_option("ratio", "must be a finite value ≥ 0, got ", ratio);
  if (!(monochromator_two_theta >= 0 && monochromator_two_theta < 180))
    fail_option("monochromator_two_theta", "must be in [0, 180) degrees, got ", monochromator_two_theta);
  if (!(polarisation_fraction >= 0 && polarisation_fraction <= 1))
    fail_option("polarisation_fraction", "must be in [0, 1], got ", polarisation_fraction);
  if (!(fine_step > 0) || !(fine_step <= 0.1)) fail_option("fine_step", "must be in (0, 0.1] degrees, got ", fine_step);
  if (!(reach >= 3) || !std::isfinite(reach)) fail_option("reach", "must be a finite value ≥ 3 (FWHMs), got ", reach);
  if (!(margin >= 0) || !std::isfinite(margin)) fail_option("margin", "must be a finite value ≥ 0 degrees, got ", margin);
}

double polarisation_factor(const PowderInstrument& instrument, double two_theta) {
  const double c2 = std::pow(std::cos(two_theta * degree), 2);
  switch (instrument.polarisation) {
    case Polarisation::monochromator: {
      const double cm2 = std::pow(std::cos(instrument.monochromator_two_theta * degree), 2);
      return (1 + cm2 * c2) / (1 + cm2);
    }
    case Polarisation::synchrotron:
      return instrument.polarisation_fraction + (1 - instrument.polarisation_fraction) * c2;
    default:
      return (1 + c2) / 2;
  }
}

PowderProfile parse_powder_profile(const std::string& name) {
  if (name == "pseudo_voigt") return PowderProfile::pseudo_voigt;
  if (name == "tch") return PowderProfile::tch;
  fail_option("profile", "unknown profile '", name, "' (pseudo_voigt, tch)");
}

const char* to_string(PowderProfile p) { return p == PowderProfile::tch ? "tch" : "pseudo_voigt"; }

double caglioti_fwhm(const InstrumentParameters& p, double two_theta) {
  const double t = std::tan(0.5 * two_theta * degree);
  return std::sqrt(std::max(0.0, p.u * t * t + p.v * t + p.w));
}

ProfileWidth tch_profile(double gaussian_fwhm, double lorentzian_fwhm) {
  const double g = gaussian_fwhm, l = lorentzian_fwhm;
  const double h5 = std::pow(g, 5) + 2.69269 * std::pow(g, 4) * l + 2.42843 * std::pow(g, 3) * l * l +
                    4.47163 * g * g * std::pow(l, 3) + 0.07842 * g * std::pow(l, 4) + std::pow(l, 5);
  if (!(h5 > 0)) return {0.0, 0.0};
  const double h = std::pow(h5, 0.2), q = l / h;
  return {h, 1.36603 * q - 0.47719 * q * q + 0.11116 * q * q * q};
}

ProfileWidth profile_width(const InstrumentParameters& ip, double two_theta) {
  if (ip.profile == PowderProfile::pseudo_voigt) return {caglioti_fwhm(ip, two_theta), ip.eta};
  const double half = 0.5 * two_theta * degree;
  const double lorentzian = std::max(0.0, ip.x * std::tan(half) + ip.y / std::cos(half));
  return tch_profile(caglioti_fwhm(ip, two_theta), lorentzian);
}

double pseudo_voigt(double x, double h, double eta) {
  const double z = 2 * x / h;
  const double gauss = 2 / h * std::sqrt(std::numbers::ln2 / pi) * std::exp(-std::numbers::ln2 * z * z);
  const double lorentz = 2 / (pi * h) / (1 + z * z);
  return eta * lorentz + (1 - eta) * gauss;
}

double chebyshev_sum(std::span<const double> c, double x) {
  // Clenshaw's recurrence.
  double b1 = 0, b2 = 0;
  for (std::size_t k = c.size(); k-- > 1;) {
    const double b0 = c[k] + 2 * x * b1 - b2;
    b2 = b1, b1 = b0;
  }
  return c.empty() ? 0.0 : c[0] + x * b1 - b2;
}

std::vector<double> chebyshev_background(std::span<const double> c, std::span<const double> two_theta) {
  std::vector<double> out(two_theta.size(), 0.0);
  if (two_theta.empty()) return out;
  const double lo = two_theta.front(), hi = two_theta.back();
  for (std::size_t i = 0; i < two_theta.size(); ++i)
    out[i] = chebyshev_sum(c, hi > lo ? 2 * (two_theta[i] - lo) / (hi - lo) - 1 : 0.0);
  return out;
}

namespace {

// Half-width (grid points) of grid point k's sampled profile, and its FWHM in grid steps.
struct KernelExtent {
  std::size_t first, last;
  double fwhm_steps, cut_steps;  // FWHM and the cut (reach · FWHM), in grid steps
  double eta;
};

KernelExtent kernel_extent(std::size_t k, std::size_t points, double true_two_theta, double step,
                           const InstrumentParameters& ip, double reach) {
  const ProfileWidth width = profile_width(ip, std::max(true_two_theta, 0.0));
  const double fwhm = std::max(width.fwhm, step);
  const auto half = std::size_t(std::ceil(reach * fwhm / step));
  return {k > half ? k - half : 0, std::min(points - 1, k + half), fwhm / step, reach * fwhm / step, width.eta};
}

// The profile's cut at `reach` FWHM is tapered over its last
// taper_fraction (a raised cosine to 0 at the cut), so that a point the
// cut takes in or leaves as the FWHM changes enters with weight 0: the
// pattern is then a continuous function of U, V, W (a hard cut made
// finite-difference derivatives in W jump by the ~1e-5 a tail point holds,
// and Levenberg–Marquardt rejected most of its steps).
constexpr double taper_fraction = 0.2;

double taper(double x) {  // x: offset over the cut's distance
  const double start = 1 - taper_fraction;
  if (x <= start) return 1;
  if (x >= 1) return 0;
  return 0.5 * (1 + std::cos(pi * (x - start) / taper_fraction));
}

// The normalised profile of grid point k into kernel[0 .. last − first]:
// the pseudo-Voigt is even about k, so each offset d is evaluated once for
// k − d and k + d (half the exp and divisions of sampling every point).
void fill_kernel(std::size_t k, const KernelExtent& e, double* kernel) {
  double norm = 0;
  const std::size_t reach = std::max(k - e.first, e.last - k);
  for (std::size_t d = 0; d <= reach; ++d) {
    const double v = pseudo_voigt(double(d), e.fwhm_steps, e.eta) * taper(double(d) / e.cut_steps);
    if (d <= k - e.first) kernel[k - d - e.first] = v, norm += v;
    if (d > 0 && k + d <= e.last) kernel[k + d - e.first] = v, norm += v;
  }
  for (std::size_t i = 0; i <= e.last - e.first; ++i) kernel[i] /= norm;
}

// Kernels of this many values or more are sampled and applied on all
// threads (the 18,795-point fine grid of a 10–100° pattern holds ~8e6 at a
// 0.05° FWHM: ~0.2 s on one thread).
constexpr std::size_t parallel_kernel_values = std::size_t(1) << 16;

// The smeared profile: source[k] spread by its kernel (kernel k at
// values + offset(k), covering first(k) ...), on all threads with a
// buffer each where the work is large enough, added in thread order.
template <class Kernel>
std::vector<double> spread(std::span<const double> source, std::size_t values, const Kernel& kernel_of) {
  const std::size_t nf = source.size();
  std::vector<double> smeared(nf, 0.0);
  const int threads = values >= parallel_kernel_values ? omp_get_max_threads() : 1;
  std::vector<std::vector<double>> parts(std::size_t(threads > 1 ? threads : 0), std::vector<double>(nf, 0.0));
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    std::vector<double>& out = threads > 1 ? parts[std::size_t(t)] : smeared;
    std::vector<double> scratch;
#pragma omp for schedule(static)
    for (std::size_t k = 0; k < nf; ++k) {
      if (source[k] == 0) continue;
      std::size_t first = 0, n = 0;
      const double* kernel = kernel_of(k, scratch, first, n);
      for (std::size_t i = 0; i < n; ++i) out[first + i] += source[k] * kernel[i];
    }
  }
  for (const auto& part : parts)
    for (std::size_t i = 0; i < nf; ++i) smeared[i] += part[i];
  return smeared;
}

}  // namespace

std::size_t profile_kernel_values(std::span<const double> true_two_theta, double step, const InstrumentParameters& ip,
                                  double reach) {
  std::size_t total = 0;
  for (const double t : true_two_theta)
    total += 2 * std::size_t(std::ceil(reach * std::max(profile_width(ip, std::max(t, 0.0)).fwhm, step) / step)) + 1;
  return total;
}

ProfileKernels make_profile_kernels(std::span<const double> true_two_theta, double step, const InstrumentParameters& ip,
                                    double reach) {
  const std::size_t nf = true_two_theta.size();
  ProfileKernels out;
  out.first.resize(nf), out.offset.assign(nf + 1, 0);
  std::vector<KernelExtent> extent(nf);
  for (std::size_t k = 0; k < nf; ++k) {
    extent[k] = kernel_extent(k, nf, true_two_theta[k], step, ip, reach);
    out.first[k] = extent[k].first;
    out.offset[k + 1] = out.offset[k] + (extent[k].last - extent[k].first + 1);
  }
  out.values.resize(out.offset[nf]);
  const int threads = out.values.size() >= parallel_kernel_values ? omp_get_max_threads() : 1;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (std::size_t k = 0; k < nf; ++k) fill_kernel(k, extent[k], out.values.data() + out.offset[k]);
  return out;
}

std::vector<double> apply_profile(const ProfileKernels& kernels, std::span<const double> source) {
  const std::size_t nf = source.size();
  if (kernels.first.size() != nf) fail("apply_profile: kernels for ", kernels.first.size(), " points, ", nf, " values");
  return spread(source, kernels.values.size(),
                [&](std::size_t k, std::vector<double>&, std::size_t& first, std::size_t& n) {
                  first = kernels.first[k], n = kernels.offset[k + 1] - kernels.offset[k];
                  return kernels.values.data() + kernels.offset[k];
                });
}

std::vector<double> profile_convolution(std::span<const double> true_two_theta, double step,
                                        std::span<const double> source, const InstrumentParameters& ip, double reach) {
  const std::size_t nf = source.size();
  if (true_two_theta.size() != nf)
    fail("profile_convolution: ", true_two_theta.size(), " angles for ", nf, " values");
  return spread(source, profile_kernel_values(true_two_theta, step, ip, reach),
                [&](std::size_t k, std::vector<double>& scratch, std::size_t& first, std::size_t& n) {
                  const KernelExtent e = kernel_extent(k, nf, true_two_theta[k], step, ip, reach);
                  first = e.first, n = e.last - e.first + 1;
                  scratch.resize(n);
                  fill_kernel(k, e, scratch.data());
                  return scratch.data();
                });
}

PowderPattern::PowderPattern(PowderModel model, PowderInstrument instrument, std::vector<double> two_theta)
    : model_(std::move(model)), instrument_(instrument), two_theta_(std::move(two_theta)) {
  instrument_.validate();
  if (two_theta_.empty()) fail("PowderPattern: no 2θ points");
  for (std::size_t i = 0; i < two_theta_.size(); ++i) {
    if (!(two_theta_[i] > 0 && two_theta_[i] < 180)) fail("PowderPattern: 2θ must lie in (0, 180) degrees, got ", two_theta_[i]);
    if (i > 0 && !(two_theta_[i] > two_theta_[i - 1])) fail("PowderPattern: 2θ must be strictly increasing");
  }
  // A uniform grid anchored at the first angle, so that its points do not
  // move with any parameter.
  const double h = instrument_.fine_step, lo = two_theta_.front(), hi = two_theta_.back();
  // At least the data's own span and one step beyond it (so that every
  // angle lies between two grid points); no point at 2θ ≤ 0 or ≥ 180.
  const long below = std::max(0L, long(std::floor(std::min(instrument_.margin, lo - h) / h)));
  const long above = std::max(long(std::ceil((hi - lo) / h)) + 1,
                              long(std::ceil((std::min(hi + instrument_.margin, 180 - h) - lo) / h)));
  for (long k = -below; k <= above; ++k) fine_.push_back(lo + double(k) * h);
}

std::vector<double> PowderPattern::evaluate(const PowderParameters& p, const InstrumentParameters& ip) {
  if (ip.profile == PowderProfile::pseudo_voigt && !(ip.eta >= 0 && ip.eta <= 1))
    fail_option("eta", "must be in [0, 1], got ", ip.eta);
  if (!std::isfinite(ip.zero) || !std::isfinite(ip.u) || !std::isfinite(ip.v) || !std::isfinite(ip.w) ||
      !std::isfinite(ip.x) || !std::isfinite(ip.y))
    fail_option("zero", "zero, u, v, w, x, y must be finite");
  const std::size_t nf = fine_.size();
  const double h = instrument_.fine_step;
  std::vector<double> lambdas{instrument_.wavelength}, weights{1.0};
  if (instrument_.wavelength2 > 0) lambdas.push_back(instrument_.wavelength2), weights.push_back(instrument_.ratio);
  // True angles; a point at 2θ_t ≤ 0 or ≥ 180 scatters nothing.
  std::vector<double> true_angle(nf);
  for (std::size_t k = 0; k < nf; ++k) true_angle[k] = fine_[k] - ip.zero;
  std::vector<std::vector<double>> q(lambdas.size(), std::vector<double>(nf, 0.0));
  for (std::size_t j = 0; j < lambdas.size(); ++j)
    for (std::size_t k = 0; k < nf; ++k) {
      const double t = std::clamp(true_angle[k], 0.0, 180.0);
      q[j][k] = 4 * pi * std::sin(0.5 * t * degree) / lambdas[j];
    }
  if (!have_sums_ || sums_zero_ != ip.zero) {
    factors_.clear();
    for (std::size_t j = 0; j < lambdas.size(); ++j) factors_.push_back(model_.factors(q[j]));
  }
  const bool sizes_moved = model_.size() && (sums_median_ != p.size_median || sums_sigma_ != p.size_sigma);
  if (!have_sums_ || sums_epsilon_ != p.lattice_expansion || sums_zero_ != ip.zero || sizes_moved) {
    sums_.clear();
    for (std::size_t j = 0; j < lambdas.size(); ++j) sums_.push_back(model_.pair_sums(p, q[j]));
    sums_epsilon_ = p.lattice_expansion, sums_zero_ = ip.zero, have_sums_ = true;
    sums_median_ = p.size_median, sums_sigma_ = p.size_sigma;
    ++pair_sum_runs_;
  }
  std::vector<double> source(nf, 0.0);
  for (std::size_t j = 0; j < lambdas.size(); ++j) {
    const std::vector<double> intensity = model_.intensity_from_sums(p, q[j], sums_[j], factors_[j]);
    for (std::size_t k = 0; k < nf; ++k)
      if (true_angle[k] > 0 && true_angle[k] < 180)
        source[k] += weights[j] * intensity[k] * polarisation_factor(instrument_, true_angle[k]);
  }
  // The sampled profiles (profile, zero, U, V, W, η, X, Y) are kept for the profile seen
  // in two evaluations running, up to max_kept_kernel_values (a wide range
  // on a fine grid with wide profiles would need more): a profile seen once
  // (a Jacobian's column for W, or a step's trial point) is spread as it is
  // sampled, which costs about what sampling it for the cache would, and
  // leaves the kept one in place for the evaluations around it.
  const std::array<double, 8> profile_key{double(ip.profile), ip.zero, ip.u, ip.v, ip.w, ip.eta, ip.x, ip.y};
  const bool kept = have_kernels_ && profile_key == kernels_key_;
  if (!kept && have_pending_key_ && profile_key == pending_key_ &&
      profile_kernel_values(true_angle, h, ip, instrument_.reach) <= max_kept_kernel_values) {
    kernels_ = make_profile_kernels(true_angle, h, ip, instrument_.reach);
    kernels_key_ = profile_key, have_kernels_ = true;
  }
  const bool use_kept = have_kernels_ && profile_key == kernels_key_;
  if (!use_kept) pending_key_ = profile_key, have_pending_key_ = true;
  const std::vector<double> smeared = use_kept ? apply_profile(kernels_, source)
                                               : profile_convolution(true_angle, h, source, ip, instrument_.reach);
  std::vector<double> out = chebyshev_background(ip.background, two_theta_);
  for (std::size_t i = 0; i < two_theta_.size(); ++i) {
    const double position = (two_theta_[i] - fine_.front()) / h;
    const auto k = std::min(std::size_t(position), nf - 2);
    const double t = position - double(k);
    out[i] = (1 - t) * smeared[k] + t * smeared[k + 1] + out[i];
  }
  return out;
}

}  // namespace nanoscatter
