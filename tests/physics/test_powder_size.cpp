// The powder model's log-normal ensemble of spheres (powder_model.hpp,
// powder_size.hpp): (i) limits: weights on one radius give the single cut
// sphere's PowderModel, two radii the N-weighted mean of the two; (ii) the
// weights against a direct integral of the log-normal density; (iii) a
// synthetic recovery of the median radius, σ_ln, ε, B and the scale through
// the fit framework over 40 Poisson realisations.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <numbers>
#include <random>

#include "fit_statistics.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/fit_powder.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;

namespace {

constexpr double pi = std::numbers::pi;

UnitCellSpec coo_lattice() {
  LatticeOptions l;
  l.type = LatticeType::rocksalt, l.a = 4.26, l.elements = {"Co", "O"};
  return make_lattice(l);
}

Structure coo_sphere(double radius) { return cut_crystal(coo_lattice(), Sphere{radius}); }

std::vector<double> grid(double lo, double hi, double step) {
  std::vector<double> out;
  for (int k = 0; lo + k * step <= hi + 1e-9; ++k) out.push_back(lo + k * step);
  return out;
}

PowderModel ensemble(const SizeDistributionOptions& size) {
  PowderModelOptions o;
  o.size = size;
  return PowderModel(coo_sphere(size.r_max), DebyeOptions{}, o);
}

PowderParameters with_b(const PowderModel& model, double epsilon) {
  PowderParameters p = model.default_parameters();
  p.lattice_expansion = epsilon;
  for (std::size_t m = 0; m < p.b.size(); ++m) p.b[m] = model.species()[m] == "Co" ? 0.45 : 0.9;
  return p;
}

double largest(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

}  // namespace

// (i) A σ so small that one bin holds all the weight (Δ/2σ = 50: the
// neighbours get erfc(35) ~ 1e-535 = 0), at the median R_k(1 + ε): the
// ensemble is sphere k, which PowderModel gives from cut_crystal's
// Sphere{R_k}. The same pairs summed in another order (shell by shell):
// rounding only, asked to 1e-12 of the pattern's largest value.
TEST(PowderSize, NarrowDistributionIsOneSphere) {
  SizeDistributionOptions size;
  size.r_min = 8, size.r_max = 12, size.count = 5;
  const PowderModel model = ensemble(size);
  const std::vector<double> radii = size.radii();
  const std::vector<double> q = grid(0.2, 6.0, 0.05);
  const double epsilon = 0.01;
  for (const std::size_t k : {std::size_t(0), std::size_t(2), std::size_t(4)}) {
    PowderParameters p = with_b(model, epsilon);
    p.size_median = radii[k] * (1 + epsilon);
    p.size_sigma = std::log(size.r_max / size.r_min) / double(size.count - 1) / 100;  // Δ/2σ = 50
    const std::vector<double> w = model.size_weights(p);
    for (std::size_t j = 0; j < w.size(); ++j) EXPECT_EQ(w[j], j == k ? 1.0 : 0.0) << j;
    const std::vector<double> got = model.intensity(p, q);

    const PowderModel single(coo_sphere(radii[k]), DebyeOptions{});
    const std::vector<double> want = single.intensity(with_b(single, epsilon), q);
    EXPECT_EQ(single.atoms(), [&] {
      double n = 0;
      for (std::size_t m = 0; m <= k; ++m) n += model.shell_atoms()[m];
      return n;
    }());
    const double tol = 1e-12 * largest(want);
    for (std::size_t i = 0; i < q.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "R " << radii[k] << " Q " << q[i];
  }
}

// (i) Two radii with given number fractions: the number-weighted mean per
// atom of the ensemble, Σ w_k N_k I_k / Σ w_k N_k.
TEST(PowderSize, TwoRadiiAreTheNumberWeightedMean) {
  SizeDistributionOptions size;
  size.r_min = 8, size.r_max = 12, size.count = 5;
  const PowderModel model = ensemble(size);
  const std::vector<double> radii = size.radii();
  const std::vector<double> q = grid(0.2, 6.0, 0.05);
  const double epsilon = -0.004;
  const std::vector<double> w{0.0, 0.3, 0.0, 0.7, 0.0};
  const PowderParameters p = with_b(model, epsilon);
  const std::vector<double> got =
      model.intensity_for_weights(p, w, q, model.pair_sums_for_weights(w, epsilon, q), model.factors(q));
  const PowderModel one(coo_sphere(radii[1]), DebyeOptions{}), three(coo_sphere(radii[3]), DebyeOptions{});
  const std::vector<double> i1 = one.intensity(with_b(one, epsilon), q), i3 = three.intensity(with_b(three, epsilon), q);
  const double n1 = 0.3 * one.atoms(), n3 = 0.7 * three.atoms();
  std::vector<double> want(q.size());
  for (std::size_t i = 0; i < q.size(); ++i) want[i] = (n1 * i1[i] + n3 * i3[i]) / (n1 + n3);
  const double tol = 1e-12 * largest(want);
  for (std::size_t i = 0; i < q.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "Q " << q[i];
}

// (ii) w_k against the log-normal density integrated over R (composite
// Simpson, 4000 intervals per bin, in R rather than ln R so that it is not
// the same closed form) over [R_k e^(−Δ/2), R_k e^(Δ/2)], the grid taken
// at e = 1 + ε; and the weights of a wide grid sum to 1.
TEST(PowderSize, WeightsAreTheLogNormalIntegral) {
  SizeDistributionOptions size;
  size.r_min = 12, size.r_max = 45, size.count = 15;
  const double median = 25, sigma = 0.2, epsilon = 0.006;
  const std::vector<double> w = lognormal_bin_weights(size, median, sigma, epsilon);
  const std::vector<double> radii = size.radii();
  const double half = 0.5 * std::log(size.r_max / size.r_min) / double(size.count - 1);
  const auto density = [&](double r) {
    const double z = (std::log(r) - std::log(median)) / sigma;
    return std::exp(-0.5 * z * z) / (r * sigma * std::sqrt(2 * pi));
  };
  double total = 0;
  for (std::size_t k = 0; k < radii.size(); ++k) {
    const double lo = radii[k] * (1 + epsilon) * std::exp(-half), hi = radii[k] * (1 + epsilon) * std::exp(half);
    const int n = 4000;
    const double h = (hi - lo) / n;
    double s = density(lo) + density(hi);
    for (int i = 1; i < n; ++i) s += (i % 2 ? 4 : 2) * density(lo + i * h);
    EXPECT_NEAR(w[k], s * h / 3, 1e-12) << "R " << radii[k];
    total += w[k];
  }
  EXPECT_GT(total, 0.99);  // the bins span ln R from −3.9σ to +3.2σ about ln(25/e)
  SizeDistributionOptions wide;
  wide.r_min = 2, wide.r_max = 300, wide.count = 200;
  double sum = 0;
  for (double v : lognormal_bin_weights(wide, median, sigma, epsilon)) sum += v;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_THROW(lognormal_bin_weights(size, -1, sigma), Error);
  EXPECT_THROW(lognormal_bin_weights(size, median, 0), Error);
}

// (iii) Issue 23 (a): CoO (a = 4.26 Å) spheres, log-normal radii of median
// 25 Å and σ_ln 0.2 on a grid of 16 radii from 14 to 42 Å (−2.9σ to
// +2.6σ), Cu Kα doublet, unpolarised, Caglioti profile (fixed: the
// particles' own lines, ≥ 1° FWHM, hide an instrument FWHM of ~0.06°), two
// Chebyshev terms, Poisson noise. Free: size_median, size_sigma, ε, B (Co
// and O tied), bkg[0], bkg[1]; the scale in closed form. The fine grid is
// 0.1° (the data's step, so the data points lie on it): the narrowest
// line, of the largest sphere (84 Å across), is ~1° wide, 10 steps.
TEST(PowderSize, SyntheticRecoveryThroughFit) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<double> t = grid(20, 80, 0.1);
  PowderInstrument in;
  in.wavelength2 = 1.544390, in.ratio = 0.5, in.fine_step = 0.1, in.margin = 1.0;
  SizeDistributionOptions size;
  size.r_min = 14, size.r_max = 42, size.count = 16;
  const PowderModel debye = ensemble(size);
  const double built = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fit::PowderFitModel model(PowderPattern(debye, in, t), 2);
  model.set("u", 0.004), model.set("v", -0.002), model.set("w", 0.003), model.set("eta", 0.4);
  const std::vector<std::pair<std::string, double>> truth{
      {"size_median", 25.0}, {"size_sigma", 0.2}, {"lattice_expansion", 0.006}, {"b[Co]", 0.7},
      {"bkg[0]", 30.0},      {"bkg[1]", -8.0},    {"scale", 40.0}};
  for (const auto& [path, value] : truth)
    if (path != "scale") model.set(path, value);
  model.set("b[O]", 0.7);
  std::vector<double> clean(model.size());
  const auto t1 = std::chrono::steady_clock::now();
  model.evaluate(clean);
  const double first = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  model.set("lattice_expansion", 0.0061);
  const auto t2 = std::chrono::steady_clock::now();
  std::vector<double> moved(model.size());
  model.evaluate(moved);
  const double again = std::chrono::duration<double>(std::chrono::steady_clock::now() - t2).count();
  model.set("lattice_expansion", 0.006);
  for (double& v : clean) v *= 40.0;
  std::printf("  %.0f atoms in the largest sphere, built in %.2f s; evaluation %.3f s, after an ε change %.3f s\n",
              debye.atoms(), built, first, again);
  std::printf("  counts from %.0f to %.0f\n", *std::min_element(clean.begin(), clean.end()),
              *std::max_element(clean.begin(), clean.end()));

  const auto start = [](auto... a) { return test::bounded_parameter(a...); };
  std::vector<fit::Parameter> parameters{start("size_median", 22.0, 16.0, 38.0), start("size_sigma", 0.15, 0.05, 0.5),
                                         start("lattice_expansion", 0.0, -0.05, 0.05), start("b[Co]", 0.4, 0.0, 5.0),
                                         start("bkg[0]", 20.0, -1e4, 1e4), start("bkg[1]", 0.0, -1e4, 1e4)};
  fit::Parameter tie;
  tie.name = "b[O]", tie.tie = "b[Co]";
  parameters.push_back(tie);
  fit::ObjectiveOptions chi2;
  chi2.kind = fit::ObjectiveKind::chi2, chi2.background = fit::LinearMode::none;
  fit::MinimizerOptions lm;
  lm.quiet = true;
  const int cases = test::property_cases(40);
  std::vector<std::vector<double>> values(truth.size()), sigmas(truth.size());
  int evaluations = 0;
  double seconds = 0;
  for (int c = 0; c < cases; ++c) {
    const std::uint64_t seed = test::case_seed(c);
    NS_PROPERTY_CASE(seed);
    if (c == 0) std::printf("  seed %llu\n", static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    const fit::FitData data = test::poisson_pattern(clean, rng);
    const fit::FitResult r = run_fit(model, parameters, data, chi2, lm);
    ASSERT_TRUE(r.converged) << r.message;
    evaluations += r.evaluations, seconds += r.seconds;
    for (std::size_t j = 0; j < truth.size(); ++j) {
      values[j].push_back(r.value(truth[j].first));
      sigmas[j].push_back(r.parameter(truth[j].first).sigma);
    }
  }
  std::printf("  %d fits: %.1f evaluations and %.2f s per fit\n", cases, double(evaluations) / cases, seconds / cases);
  test::check_sigma_against_spread(truth, values, sigmas);
}
