// The PDF model's nanoparticle size (pdf_model.hpp, sphere_radius and
// sphere_sigma; docs/debye.md, "PDF model"), issue 23 (b):
//  (a) the log-normal envelope's closed form against a direct integral over
//      ln R;
//  (b) a large CoO particle's bulk G(r) times γ0(r; R) against the G(r) of
//      actual cut spheres of radius R: one centred sphere (the faceting of
//      its surface, reported) and the average over randomly centred ones
//      (the average of the pair counts over a uniform offset is exactly
//      ρ0 V γ0(d) times the bulk's), and both against the lattice sum;
//  (c) recovery of a CoO powder of log-normal spheres (median 25 Å,
//      σ_ln 0.2) at Qmax 20 Å⁻¹, Qdamp 0.04 Å⁻¹ over 40 noise realisations;
//  (d) reported, not asserted: the same model fitted to the G(r) of an
//      ensemble of actual cut spheres, and the bias of the median radius.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>
#include <random>

#include "fit_statistics.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/fit_pdf.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;

namespace {

constexpr double pi = std::numbers::pi;
constexpr double a_coo = 4.26;                       // Å, rocksalt
constexpr double rho0_coo = 8 / (a_coo * a_coo * a_coo);  // Å⁻³, 4 Co + 4 O per cell
constexpr double large_radius = 45;                  // Å, the particle that stands for the bulk
constexpr double u_co = 0.5 / (8 * pi * pi), u_o = 0.5 / (8 * pi * pi);  // B = 0.5 Å² both

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double f0(const std::string& element) {
  FactorOptions bare;
  bare.debye_waller = false;
  return std::real(scattering_factor(Radiation::xray, Species{element, 0, 0}, 0.0, bare));
}

double mean_f(const Structure& s) {
  double sum = 0;
  for (const auto& a : s.atoms) sum += f0(a.element);
  return sum / double(s.atoms.size());
}

double gamma0(double r, double radius) {
  if (r >= 2 * radius) return 0;
  const double x = r / radius;
  return 1 - 0.75 * x + x * x * x / 16;
}

std::vector<double> grid(double first, double last, double step) {
  std::vector<double> r;
  for (double x = first; x <= last + 1e-9; x += step) r.push_back(x);
  return r;
}

UnitCellSpec coo_cell() {
  LatticeOptions l;
  l.type = LatticeType::rocksalt;
  l.a = a_coo;
  l.elements = {"Co", "O"};
  return make_lattice(l);
}

// A CoO sphere of radius R about a point `offset` from a Co site.
Structure coo_sphere(double radius, Vec3 offset = {0, 0, 0}) {
  Structure s = cut_crystal(coo_cell(), Sphere{radius + 2 * a_coo});
  for (auto& a : s.atoms) a.position = a.position - offset;
  return crop_structure(s, Sphere{radius});
}

PdfModelOptions termination(PdfEnvelope envelope) {
  PdfModelOptions o;
  o.envelope = envelope;
  o.qmax = 20;
  o.termination_step = 0.01;  // ≤ σ_b/2 (the narrowest peak, Co–O at 2.13 Å with δ2, has σ ≈ 0.08 Å)
  o.termination_extension = 5;
  return o;
}

struct Large {
  Structure structure;
  PdfModel model;
  double f_mean;
};

// A centre about which inversion maps Co sites onto O sites: the
// particle holds as many Co as O.
const Vec3 tetrahedral_site{a_coo / 4, a_coo / 4, a_coo / 4};
Vec3 large_centre = tetrahedral_site;

// The bulk stand-in, binned once for the file (≈ 40k atoms).
const Large& large_coo() {
  static const Large large = [] {
    const auto t0 = std::chrono::steady_clock::now();
    Structure s = coo_sphere(large_radius, large_centre);
    PdfModelOptions o = termination(PdfEnvelope::bulk);
    o.number_density = rho0_coo;
    PdfModel m(s, DebyeOptions{}, o);
    std::size_t cobalt = 0;
    for (const auto& a : s.atoms) cobalt += a.element == "Co";
    std::printf("  large CoO particle: R %.0f Å, %zu atoms (%zu Co), binned in %.1f s\n", large_radius, s.atoms.size(),
                cobalt, seconds_since(t0));
    const double f = mean_f(s);
    return Large{std::move(s), std::move(m), f};
  }();
  return large;
}

PdfParameters with_u(const PdfModel& model, PdfParameters p) {
  p.u.clear();
  for (const auto& label : model.species()) p.u.push_back(label == "O" ? u_o : u_co);
  return p;
}

// The pair term (1/(N r)) Σ 2 c_mn W g of a sphere-envelope model, times N ⟨f⟩²:
// what adds over particles (G_sharp = pairs/(N⟨f⟩²) − 4πrρ0γ0).
std::vector<double> pair_term_weighted(const Structure& s, const PdfParameters& p, const std::vector<double>& r) {
  PdfModelOptions o;
  const PdfModel m(s, DebyeOptions{}, o);
  std::vector<double> g = m.sharp(with_u(m, p), r);
  const double fm = mean_f(s), e = 1 + p.lattice_expansion;
  const double rho = m.number_density() / (e * e * e), radius = e * m.sphere_radius();
  for (std::size_t k = 0; k < r.size(); ++k) g[k] = (g[k] + 4 * pi * r[k] * rho * gamma0(r[k], radius)) * m.atoms() * fm * fm;
  return g;
}

struct Difference {
  double max_rel, rms_rel;  // relative to max |G|
  std::vector<double> band_rms;  // rms relative to max |G| in r bands of 7 Å from 0
};

Difference compare(const std::vector<double>& r, const std::vector<double>& g, const std::vector<double>& ref) {
  double largest = 0, worst = 0, sum2 = 0;
  for (double v : ref) largest = std::max(largest, std::abs(v));
  std::vector<double> band2, band_n;
  for (std::size_t k = 0; k < g.size(); ++k) {
    const double d2 = (g[k] - ref[k]) * (g[k] - ref[k]);
    worst = std::max(worst, std::abs(g[k] - ref[k]));
    sum2 += d2;
    const std::size_t b = std::size_t(r[k] / 7);
    if (band2.size() <= b) band2.resize(b + 1), band_n.resize(b + 1);
    band2[b] += d2, band_n[b] += 1;
  }
  Difference d{worst / largest, std::sqrt(sum2 / double(g.size())) / largest, {}};
  for (std::size_t b = 0; b < band2.size(); ++b) d.band_rms.push_back(std::sqrt(band2[b] / band_n[b]) / largest);
  return d;
}

void print_bands(const Difference& d) {
  std::printf("    rms by r band:");
  for (std::size_t b = 0; b < d.band_rms.size(); ++b) std::printf(" [%zu, %zu) Å %.3g", 7 * b, 7 * b + 7, d.band_rms[b]);
  std::printf("\n");
}

}  // namespace

// (a) E(r) = ⟨V γ0(r; R)⟩/⟨V⟩ in closed form against the trapezoid rule
// over ln R (200 001 points over ±12σ about the volume-weighted median):
// γ0 has a kink of its second derivative at R = r/2, so the rule's error is
// O(h²) there, ~1e-11 at this h.
TEST(PdfSize, LogNormalEnvelopeAgainstDirectIntegral) {
  double worst = 0;
  for (const double median : {8.0, 25.0}) {
    for (const double sigma : {0.05, 0.2, 0.5}) {
      const double mu_v = std::log(median) + 3 * sigma * sigma;
      const int n = 200001;
      const double lo = mu_v - 12 * sigma, h = 24 * sigma / (n - 1);
      for (const double r : {0.5, 3.0, 10.0, 25.0, 50.0, 80.0, 150.0}) {
        double num = 0, den = 0;
        for (int k = 0; k < n; ++k) {
          const double x = lo + k * h, w = (k == 0 || k == n - 1 ? 0.5 : 1.0);
          // number density of ln R times V ∝ R³
          const double weight = w * std::exp(-0.5 * std::pow((x - std::log(median)) / sigma, 2) + 3 * x);
          num += weight * gamma0(r, std::exp(x)), den += weight;
        }
        const double direct = num / den, closed = sphere_size_envelope(r, median, sigma);
        worst = std::max(worst, std::abs(closed - direct));
        EXPECT_NEAR(closed, direct, 1e-9) << "median " << median << " σ " << sigma << " r " << r;
      }
    }
  }
  std::printf("  max |E_closed − E_direct| = %.3g\n", worst);
  // Limits: σ → 0 is γ0 (the O(σ²) term at σ = 1e-4 is ~1e-8), R_m = 0 is no envelope.
  for (const double r : {1.0, 10.0, 20.0, 29.0}) {
    EXPECT_NEAR(sphere_size_envelope(r, 15.0, 1e-4), gamma0(r, 15.0), 1e-6) << r;
    EXPECT_EQ(sphere_size_envelope(r, 0.0, 0.3), 1.0);
  }
}

// (b) Bulk × γ0(r; R) against actual cut spheres (G_sharp, no termination).
TEST(PdfSize, MonodisperseEnvelopeAgainstCutSpheres) {
  const auto t0 = std::chrono::steady_clock::now();
  const Large& large = large_coo();
  const double radius = 14;
  const std::vector<double> r = grid(1.5, 2 * radius, 0.01);
  PdfParameters p;
  p.delta2 = 2.0, p.lattice_expansion = 0.0;
  PdfParameters sized = with_u(large.model, p);
  sized.sphere_radius = radius;
  const std::vector<double> model = large.model.sharp(sized, r);

  // The reference: Σ_i pairs_i / (Σ_i N_i ⟨f⟩_large²) − 4πrρ0 γ0(r; R), the
  // pair terms renormalised to the large particle's ⟨f⟩ (a cut sphere's
  // composition is not exactly 1:1).
  const auto reference = [&](const std::vector<Structure>& spheres) {
    std::vector<double> pairs(r.size(), 0.0);
    double atoms = 0;
    for (const auto& s : spheres) {
      const std::vector<double> w = pair_term_weighted(s, p, r);
      for (std::size_t k = 0; k < r.size(); ++k) pairs[k] += w[k];
      atoms += double(s.atoms.size());
    }
    std::vector<double> g(r.size());
    for (std::size_t k = 0; k < r.size(); ++k)
      g[k] = pairs[k] / (atoms * large.f_mean * large.f_mean) - 4 * pi * r[k] * rho0_coo * gamma0(r[k], radius);
    return g;
  };
  const Difference centred = compare(r, model, reference({coo_sphere(radius)}));
  std::printf("  R %.0f Å, one centred cut sphere: max |ΔG| / max |G| = %.3g, rms %.3g (faceting)\n", radius,
              centred.max_rel, centred.rms_rel);
  print_bands(centred);

  std::mt19937_64 rng(test::case_seed(0));
  std::uniform_real_distribution<double> cell(0, a_coo);
  std::vector<Structure> spheres;
  const int count = test::property_cases(16);
  for (int i = 0; i < count; ++i) spheres.push_back(coo_sphere(radius, {cell(rng), cell(rng), cell(rng)}));
  const Difference averaged = compare(r, model, reference(spheres));
  std::printf("  R %.0f Å, %d randomly centred cut spheres: max |ΔG| / max |G| = %.3g, rms %.3g (%.1f s)\n", radius,
              count, averaged.max_rel, averaged.rms_rel, seconds_since(t0));
  print_bands(averaged);
  // Measured (bench/results/2026-11-26-pdf-size-recovery.md): rms 0.0015–
  // 0.0016, max 0.005–0.006 of max |G|. It is the envelope taken at r rather than at each
  // pair's distance d (below: the lattice sum both ways), an odd term of
  // relative size σ·|d ln γ0/dr| on each peak; PDFgui's spdiameter makes the
  // same approximation. The bounds leave a factor 2 over that plus the
  // spheres' sampling (below).
  EXPECT_LT(averaged.rms_rel, 0.004);
  EXPECT_LT(averaged.max_rel, 0.01);

  // The ensemble's expectation as a lattice sum: about a Co and an O of the
  // infinite crystal, every neighbour j at d with weight f_i f_j/⟨f⟩²
  // (per atom, Co:O 1:1) times γ0(d; R), one Gaussian per pair.
  const double fc = f0("Co"), fo = f0("O"), fm = (fc + fo) / 2;
  const Structure crystal = coo_sphere(2 * radius + 3);
  // `pointwise`: the same with the envelope taken at r instead of at the
  // pair's d, as the model (and PDFgui's spdiameter) does: γ0(r; R) times
  // the large particle's γ0(d; R_L)/γ0(r; R_L).
  const double r_large = large.model.sphere_radius();
  std::vector<double> lattice(r.size(), 0.0), pointwise(r.size(), 0.0);
  for (const auto& [centre, fi] : {std::pair{Vec3{0, 0, 0}, fc}, std::pair{Vec3{a_coo / 2, 0, 0}, fo}}) {
    for (const auto& atom : crystal.atoms) {
      const double d = norm(atom.position - centre);
      if (d < 0.1 || d > 2 * radius + 1) continue;
      const double fj = atom.element == "O" ? fo : fc;
      const double var = (u_co + u_o) * (1 - p.delta2 / (d * d));  // U_Co = U_O
      const double w = 0.5 * fi * fj / (fm * fm) / std::sqrt(2 * pi * var);
      for (std::size_t k = 0; k < r.size(); ++k)
        if (std::abs(r[k] - d) < 8 * std::sqrt(var)) {
          const double shape = w * std::exp(-0.5 * (r[k] - d) * (r[k] - d) / var) / r[k];
          lattice[k] += shape * gamma0(d, radius);
          pointwise[k] += shape * gamma0(r[k], radius) * gamma0(d, r_large) / gamma0(r[k], r_large);
        }
    }
  }
  for (std::size_t k = 0; k < r.size(); ++k) {
    lattice[k] -= 4 * pi * r[k] * rho0_coo * gamma0(r[k], radius);
    pointwise[k] -= 4 * pi * r[k] * rho0_coo * gamma0(r[k], radius);
  }
  const Difference exact = compare(r, model, lattice);
  const Difference exact_ref = compare(r, reference(spheres), lattice);
  const Difference exact_pointwise = compare(r, model, pointwise);
  std::printf("  against the lattice sum: model max %.3g rms %.3g; random-centred spheres max %.3g rms %.3g\n",
              exact.max_rel, exact.rms_rel, exact_ref.max_rel, exact_ref.rms_rel);
  std::printf("  model against the lattice sum with the envelope at r: max %.3g rms %.3g\n", exact_pointwise.max_rel,
              exact_pointwise.rms_rel);
  print_bands(exact_pointwise);
  // Measured: the 16 spheres' sampling, rms 1.1e-4 to 6.8e-4 over seven
  // seeds (max 4e-4 to 2.1e-3), bounds ~×2 of the worst and still well
  // below one cut sphere's faceting (3.5e-3); the model computed the same
  // way as the lattice sum, rms 4.7e-5 (the large particle's faceting),
  // bound ×6.
  EXPECT_LT(exact_ref.rms_rel, 1.5e-3);
  EXPECT_LT(exact_ref.max_rel, 5e-3);
  EXPECT_LT(exact_pointwise.rms_rel, 3e-4);
  EXPECT_LT(exact_pointwise.max_rel, 1e-3);
}

namespace {

// Truth of (c) and (d).
const std::vector<std::pair<std::string, double>> truth{
    {"sphere_radius", 25.0}, {"lattice_expansion", 0.003}, {"b[Co]", 0.5}, {"delta2", 2.0}, {"scale", 0.8}};
constexpr double truth_sigma_ln = 0.2, truth_qdamp = 0.04;
constexpr double noise_fraction = 0.03;  // σ of the noise / max |G| over r = 1.5–40 Å

std::vector<double> fit_grid() { return grid(1.5, 40.0, 0.05); }

fit::PdfFitModel sized_model() {
  fit::PdfFitModel model(large_coo().model, fit_grid());
  model.set("sphere_sigma", truth_sigma_ln);
  model.set("qdamp", truth_qdamp);
  return model;
}

fit::FitResult fit_to(fit::PdfFitModel& model, const std::vector<double>& values, double sigma) {
  fit::FitData data;
  data.rows = 1, data.cols = values.size();
  data.values = values;
  data.sigma.assign(values.size(), sigma);
  data.use.assign(values.size(), 1);
  const auto start = [](auto... a) { return test::bounded_parameter(a...); };
  const std::vector<fit::Parameter> parameters{
      start("sphere_radius", 20.0, 5, 60), start("lattice_expansion", 0.0, -0.05, 0.05), start("b[Co]", 0.4, 0.05, 3),
      start("b[O]", 0.4, 0.05, 3, "b[Co]"), start("delta2", 1.5, 0, 6)};
  fit::ObjectiveOptions chi2;
  chi2.kind = fit::ObjectiveKind::chi2;
  chi2.background = fit::LinearMode::none;
  fit::MinimizerOptions lm;
  lm.quiet = true;
  return fit::run_fit(model, parameters, data, chi2, lm);
}

}  // namespace

// (c) 40 noise realisations of the model's own G(r) (the issue asks for 20;
// with 20, the sample spread's own scatter, ~16 %, put a parameter at the
// 16-of-20-within-2σ bound in about one run of seven here (sphere_radius
// at ratio 0.71 with NS_TEST_SEED=15); with 40 it is ~11 %).
TEST(PdfSize, LogNormalSpheresRecoveredOverNoiseRealisations) {
  const auto t0 = std::chrono::steady_clock::now();
  fit::PdfFitModel model = sized_model();
  for (const auto& [path, value] : truth)
    if (path != "scale") model.set(path, value);
  model.set("b[O]", 0.5);
  std::vector<double> clean(model.size());
  model.evaluate(clean);
  double largest = 0;
  for (double& v : clean) largest = std::max(largest, std::abs(v *= 0.8));
  const double sigma = noise_fraction * largest;
  std::printf("  %zu r points, max |G| %.4g Å⁻², noise σ %.4g (%.0f %%)\n", clean.size(), largest, sigma,
              100 * noise_fraction);
  const int realisations = test::property_cases(40);
  std::vector<std::vector<double>> values(truth.size()), sigmas(truth.size());
  for (int i = 0; i < realisations; ++i) {
    const std::uint64_t seed = test::case_seed(i);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0, 1);
    std::vector<double> noisy = clean;
    for (double& v : noisy) v += sigma * noise(rng);
    const fit::FitResult result = fit_to(model, noisy, sigma);
    ASSERT_TRUE(result.converged) << result.message;
    std::printf("  seed %llu: chi2_red %.3f, %d evaluations;", static_cast<unsigned long long>(seed),
                result.chi2_reduced, result.evaluations);
    for (std::size_t j = 0; j < truth.size(); ++j) {
      const auto& fitted = result.parameter(truth[j].first);
      values[j].push_back(fitted.value), sigmas[j].push_back(fitted.sigma);
      std::printf(" %s %.5g ± %.3g", truth[j].first.c_str(), fitted.value, fitted.sigma);
    }
    std::printf("\n");
  }
  test::check_sigma_against_spread(truth, values, sigmas);
  std::printf("  %d fits in %.1f s\n", realisations, seconds_since(t0));
}

// (d) The G(r) of an ensemble of actual, randomly centred cut spheres with
// radii at the quantiles (k + ½)/K of the log-normal number distribution,
// averaged per atom (each particle's G weighted by its atoms), fitted with
// the size-distributed bulk model. Reported; only convergence is asserted.
TEST(PdfSize, EnsembleOfCutSpheresFittedBySizeModel) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<double> r = fit_grid();
  std::vector<double> ensemble(r.size(), 0.0);
  const int count = 8;
  std::mt19937_64 rng(test::case_seed(1));
  std::uniform_real_distribution<double> cell(0, a_coo);
  PdfParameters p;
  p.lattice_expansion = 0.003, p.delta2 = 2.0, p.qdamp = truth_qdamp, p.scale = 0.8;
  double atoms = 0;
  const double f_large = large_coo().f_mean;
  std::vector<double> radii, weights;  // (d'): the model's own G at the same radii and weights
  std::printf("  radii:");
  for (int k = 0; k < count; ++k) {
    // quantile of ln R ~ N(ln 25, 0.2²): inverse normal by bisection on erfc
    const double q = (k + 0.5) / count;
    double lo = -6, hi = 6;
    for (int it = 0; it < 100; ++it) {
      const double mid = (lo + hi) / 2;
      (0.5 * std::erfc(-mid / std::sqrt(2.0)) < q ? lo : hi) = mid;
    }
    const double radius = 25 * std::exp(truth_sigma_ln * (lo + hi) / 2);
    const Structure s = coo_sphere(radius, {cell(rng), cell(rng), cell(rng)});
    const PdfModel m(s, DebyeOptions{}, termination(PdfEnvelope::sphere));
    const std::vector<double> g = m.evaluate(with_u(m, p), r);
    // per atom of the sample, on the large particle's ⟨f⟩²
    const double fm = mean_f(s), w = m.atoms() * fm * fm / (f_large * f_large);
    for (std::size_t i = 0; i < r.size(); ++i) ensemble[i] += w * g[i];
    atoms += m.atoms();
    radii.push_back(radius), weights.push_back(w);
    std::printf(" %.2f (%zu atoms)", radius, s.atoms.size());
  }
  std::printf("\n");
  double largest = 0;
  for (double& v : ensemble) largest = std::max(largest, std::abs(v /= atoms));
  fit::PdfFitModel model = sized_model();
  const double sigma = noise_fraction * largest;  // as (c): the σ of the noise, no noise added
  // The same fit to the bulk model's own G at the same radii and weights
  // (monodisperse envelopes, termination being linear): what the quantised
  // distribution alone does, without the cut spheres' surfaces.
  std::vector<double> quantised(r.size(), 0.0);
  {
    fit::PdfFitModel own = sized_model();
    for (const auto& [path, value] : truth)
      if (path != "scale" && path != "sphere_radius") own.set(path, value);
    own.set("b[O]", 0.5), own.set("sphere_sigma", 0.0);
    std::vector<double> g(r.size());
    for (std::size_t k = 0; k < radii.size(); ++k) {
      own.set("sphere_radius", radii[k]);
      own.evaluate(g);
      for (std::size_t i = 0; i < r.size(); ++i) quantised[i] += 0.8 * weights[k] * g[i] / atoms;
    }
  }
  const auto report = [&](const char* what, const std::vector<double>& g) {
    const fit::FitResult result = fit_to(model, g, sigma);
    ASSERT_TRUE(result.converged) << result.message;
    std::printf("  %s (noise-free, σ as (c)): chi2_red %.4f\n", what, result.chi2_reduced);
    for (const auto& [path, value] : truth) {
      const auto& fitted = result.parameter(path);
      // σ as a fit with noise σ would report it (unscaled by √χ²_red)
      const double sigma_c = fitted.sigma / std::sqrt(result.chi2_reduced);
      std::printf("    %-18s truth %-9.5g fitted %-11.6g bias %+.3g (%+.2f %%, %+.2f σ of (c), σ %.3g)\n", path.c_str(),
                  value, fitted.value, fitted.value - value, 100 * (fitted.value - value) / value,
                  (fitted.value - value) / sigma_c, sigma_c);
    }
  };
  report("ensemble of cut spheres", ensemble);
  report("bulk model at the same radii", quantised);
  std::printf("  %.1f s\n", seconds_since(t0));
}

