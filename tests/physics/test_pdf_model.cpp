// The PDFfit2-convention PDF model (pdf_model.hpp) against direct float64
// sums: (a) the Gaussian-broadened G(r) of a pair and of a small cluster,
// pair by pair, with δ1, δ2, Qbroad, Qdamp, ε, both envelopes; (b) the
// Qmax termination against the sine transform of F(Q) computed in Q
// space; (c) a synthetic recovery through the fit framework.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <random>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/fit_pdf.hpp"
#include "fit_statistics.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;

namespace {

constexpr double pi = std::numbers::pi;

struct PairTerm {
  double r, weight;  // distance (Å), 2 c_ij / N
  std::size_t i, j;  // atoms
};

double f0(const std::string& element) {
  FactorOptions bare;
  bare.debye_waller = false;
  return std::real(scattering_factor(Radiation::xray, Species{element, 0, 0}, 0.0, bare));
}

// Every pair i < j with its weight 2 f_i f_j / (N ⟨f⟩²).
std::vector<PairTerm> pairs_of(const Structure& s) {
  const std::size_t n = s.atoms.size();
  double mean = 0;
  std::vector<double> f(n);
  for (std::size_t i = 0; i < n; ++i) mean += (f[i] = f0(s.atoms[i].element)) / double(n);
  std::vector<PairTerm> out;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      out.push_back({norm(s.atoms[i].position - s.atoms[j].position), 2 * f[i] * f[j] / (mean * mean * double(n)), i, j});
  return out;
}

// Equivalent sphere radius √(5/3)·R_g of the atoms (debye_pdf.hpp).
double sphere_radius(const Structure& s) {
  Vec3 c{0, 0, 0};
  for (const auto& a : s.atoms) c = c + a.position * (1.0 / double(s.atoms.size()));
  double r2 = 0;
  for (const auto& a : s.atoms) r2 += dot(a.position - c, a.position - c) / double(s.atoms.size());
  return std::sqrt(5.0 / 3.0 * r2);
}

double gamma0(double r, double radius) {
  if (r >= 2 * radius) return 0;
  const double x = r / radius;
  return 1 - 0.75 * x + x * x * x / 16;
}

// G(r) as a direct sum of one normalised Gaussian per pair (pdf_model.hpp).
double direct_g(const Structure& s, const std::vector<PairTerm>& pairs, const std::vector<double>& u_atom,
                const PdfParameters& p, PdfEnvelope envelope, double r) {
  const double e = 1 + p.lattice_expansion;
  const double radius = e * sphere_radius(s);
  const double rho0 = double(s.atoms.size()) / (4.0 / 3.0 * pi * std::pow(sphere_radius(s), 3)) / (e * e * e);
  double sum = 0;
  for (const auto& t : pairs) {
    const double mu = e * t.r;
    const double radicand = 1 - p.delta1 / mu - p.delta2 / (mu * mu) + p.qbroad * p.qbroad * mu * mu;
    const double var = (u_atom[t.i] + u_atom[t.j]) * radicand;
    sum += t.weight * std::exp(-(r - mu) * (r - mu) / (2 * var)) / std::sqrt(2 * pi * var);
  }
  const double gamma = gamma0(r, radius);
  const double sharp = envelope == PdfEnvelope::sphere ? sum / r - 4 * pi * r * rho0 * gamma
                                                       : sum / (r * gamma) - 4 * pi * r * rho0;
  return p.scale * std::exp(-0.5 * p.qdamp * p.qdamp * r * r) * sharp;
}

Structure ni_sphere(double radius) {
  LatticeOptions l;
  l.type = LatticeType::fcc;
  l.a = 3.524;
  l.elements = {"Ni"};
  return cut_crystal(make_lattice(l), Sphere{radius});
}

Structure coo_sphere(double radius) {
  LatticeOptions l;
  l.type = LatticeType::rocksalt;
  l.a = 4.26;
  l.elements = {"Co", "O"};
  return cut_crystal(make_lattice(l), Sphere{radius});
}

std::vector<double> grid(double first, double last, double step) {
  std::vector<double> r;
  for (double x = first; x <= last + 1e-9; x += step) r.push_back(x);
  return r;
}

void expect_against_direct(const Structure& s, const PdfParameters& p, PdfEnvelope envelope,
                           const std::vector<double>& r, double tolerance) {
  PdfModelOptions o;
  o.envelope = envelope;
  const PdfModel model(s, DebyeOptions{}, o);
  PdfParameters q = p;
  q.u.clear();
  for (const auto& label : model.species()) q.u.push_back(label == "O" ? 0.009 : 0.005);
  std::vector<double> u_atom;
  for (const auto& a : s.atoms) u_atom.push_back(a.element == "O" ? 0.009 : 0.005);
  const std::vector<double> g = model.evaluate(q, r);
  const auto pairs = pairs_of(s);
  double largest = 0, worst = 0;
  std::vector<double> direct(r.size());
  for (std::size_t k = 0; k < r.size(); ++k) {
    direct[k] = direct_g(s, pairs, u_atom, q, envelope, r[k]);
    largest = std::max(largest, std::abs(direct[k]));
  }
  for (std::size_t k = 0; k < r.size(); ++k) worst = std::max(worst, std::abs(g[k] - direct[k]) / largest);
  EXPECT_LT(worst, tolerance) << "max |G − G_direct| / max |G_direct| over " << r.size() << " r";
  std::printf("  %zu atoms, %s: max |G − G_direct| / max |G| = %.3g\n", s.atoms.size(), to_string(envelope), worst);
}

}  // namespace

TEST(PdfModel, PairOfAtomsAgainstClosedForm) {
  Structure s;
  s.atoms = {Atom{"Ni", 0, {0, 0, 0}}, Atom{"Ni", 0, {1.3, 1.7, 0.9}}};
  PdfParameters p;
  p.scale = 0.7, p.delta1 = 0.3, p.delta2 = 1.8, p.qbroad = 0.02, p.qdamp = 0.05, p.lattice_expansion = 0.013;
  expect_against_direct(s, p, PdfEnvelope::sphere, grid(1.0, 4.0, 0.001), 1e-9);
}

TEST(PdfModel, ClusterAgainstDirectPairSum) {
  const Structure s = coo_sphere(6.0);
  PdfParameters p;
  p.scale = 1.3, p.delta1 = 0.1, p.delta2 = 2.5, p.qbroad = 0.015, p.qdamp = 0.03, p.lattice_expansion = -0.008;
  // The histogram keeps each bin's mean and variance: the difference from
  // one Gaussian per pair is of order (Δr²/12)²/σ⁴ ~ 1e-12.
  expect_against_direct(s, p, PdfEnvelope::sphere, grid(0.5, 14.0, 0.01), 1e-8);
  expect_against_direct(s, p, PdfEnvelope::bulk, grid(0.5, 6.0, 0.01), 1e-8);
}

// (b) The model's termination (a convolution in r) against
// G(r) = (2/π) ∫_{Qmin}^{Qmax} F(Q) sin(Qr) dQ with F from Q space: each
// pair's Gaussian over r, g(r − μ)/r, has the sine transform
// ∫_0^Q cos(qμ) exp(−q²σ²/2) dq (the Gaussian's tail below r = 0
// neglected, < e⁻³⁰⁰ here), and the baseline 4πrρ0γ0(r) is transformed by
// Simpson's rule.
TEST(PdfModel, QmaxTerminationAgainstSineTransformOfF) {
  const Structure s = ni_sphere(5.0);
  PdfModelOptions o;
  o.qmax = 18, o.qmin = 0.8, o.termination_step = 0.005, o.termination_extension = 40;
  const PdfModel model(s, DebyeOptions{}, o);
  PdfParameters p = model.default_parameters();
  p.u = {0.004};
  p.delta2 = 1.0;
  const std::vector<double> r = grid(0.5, 12.0, 0.05);
  const std::vector<double> g = model.evaluate(p, r);

  const double radius = sphere_radius(s);
  const double rho0 = double(s.atoms.size()) / (4.0 / 3.0 * pi * std::pow(radius, 3));
  const double dq = 0.002;
  const std::size_t nq = std::size_t(std::llround(o.qmax / dq));
  std::vector<double> q(nq + 1), f(nq + 1, 0.0);
  for (std::size_t k = 0; k <= nq; ++k) q[k] = double(k) * dq;
  for (const auto& t : pairs_of(s)) {
    const double var = 2 * 0.004 * (1 - p.delta2 / (t.r * t.r));
    const auto integrand = [&](double x) { return std::cos(x * t.r) * std::exp(-0.5 * x * x * var); };
    double cumulative = 0;
    for (std::size_t k = 1; k <= nq; ++k) {
      cumulative += dq / 6 * (integrand(q[k - 1]) + 4 * integrand(q[k - 1] + dq / 2) + integrand(q[k]));
      f[k] += t.weight * cumulative;
    }
  }
  const int nr = 4000;  // Simpson over [0, 2R]
  const double hr = 2 * radius / nr;
  for (std::size_t k = 1; k <= nq; ++k) {
    double sum = 0;
    for (int j = 0; j <= nr; ++j) {
      const double x = j * hr;
      const double w = j == 0 || j == nr ? 1 : j % 2 ? 4 : 2;
      sum += w * 4 * pi * x * rho0 * gamma0(x, radius) * std::sin(q[k] * x);
    }
    f[k] -= sum * hr / 3;
  }
  // G_t(r) by Simpson over [Qmin, Qmax] (Qmin on the grid).
  const std::size_t k0 = std::size_t(std::llround(o.qmin / dq));
  ASSERT_EQ((nq - k0) % 2, 0u);
  double largest = 0, worst = 0;
  std::vector<double> direct(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) {
    double sum = 0;
    for (std::size_t k = k0; k <= nq; ++k) {
      const double w = k == k0 || k == nq ? 1 : (k - k0) % 2 ? 4 : 2;
      sum += w * f[k] * std::sin(q[k] * r[i]);
    }
    direct[i] = 2 / pi * sum * dq / 3;
    largest = std::max(largest, std::abs(direct[i]));
  }
  for (std::size_t i = 0; i < r.size(); ++i) worst = std::max(worst, std::abs(g[i] - direct[i]) / largest);
  std::printf("  %zu atoms, Qmin %.1f, Qmax %.1f: max |G_model − G_transform| / max |G| = %.3g\n", s.atoms.size(),
              o.qmin, o.qmax, worst);
  EXPECT_LT(worst, 1e-4);
}

// (c) Noisy G(r) of an fcc Ni particle with known parameters, fitted back.
TEST(PdfModel, SyntheticRecoveryThroughFit) {
  const std::uint64_t seed = test::case_seed(0);
  NS_PROPERTY_CASE(seed);
  std::printf("  seed %llu\n", static_cast<unsigned long long>(seed));
  PdfModelOptions o;
  o.qmax = 26, o.qmin = 0.5, o.termination_step = 0.01;
  const std::vector<double> r = grid(1.5, 10.0, 0.02);
  fit::PdfFitModel model(PdfModel(ni_sphere(9.0), DebyeOptions{}, o), r);
  const std::vector<std::pair<std::string, double>> truth{
      {"u[Ni]", 0.0060}, {"delta2", 2.2}, {"lattice_expansion", 0.004}, {"qdamp", 0.045}, {"scale", 0.85}};
  for (const auto& [path, value] : truth)
    if (path != "scale") model.set(path, value);
  std::vector<double> clean(model.size());
  model.evaluate(clean);
  double largest = 0;
  for (double& v : clean) largest = std::max(largest, std::abs(v *= 0.85));
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, 1);
  fit::FitData data;
  data.rows = 1, data.cols = r.size();
  const double sigma = 0.02 * largest;
  for (double v : clean) data.values.push_back(v + sigma * noise(rng)), data.sigma.push_back(sigma), data.use.push_back(1);

  const auto start = [](auto... a) { return test::bounded_parameter(a...); };
  const std::vector<fit::Parameter> parameters{start("u[Ni]", 0.004, 0.0005, 0.05), start("delta2", 1.0, 0, 10),
                                               start("lattice_expansion", 0.0, -0.05, 0.05),
                                               start("qdamp", 0.03, 0, 0.2)};
  fit::ObjectiveOptions chi2;
  chi2.kind = fit::ObjectiveKind::chi2;
  chi2.background = fit::LinearMode::none;
  fit::MinimizerOptions lm;
  lm.quiet = true;
  const fit::FitResult result = fit::run_fit(model, parameters, data, chi2, lm);
  ASSERT_TRUE(result.converged) << result.message;
  std::printf("  chi2_red %.3f, %d evaluations, %.2f s\n", result.chi2_reduced, result.evaluations, result.seconds);
  int within_two = 0;
  for (const auto& [path, value] : truth) {
    const auto& fitted = result.parameter(path);
    std::printf("  %-18s truth %-9.5g fitted %-11.6g ± %.3g (%.2f σ)\n", path.c_str(), value, fitted.value,
                fitted.sigma, (fitted.value - value) / fitted.sigma);
    // One noise draw: 4.5σ per parameter, a false alarm in ~3e-5 of runs
    // over five parameters (3σ failed ~1 run in 40: qdamp at 3.8σ with
    // NS_TEST_SEED=1, while the rms z over 40 seeds was 0.87–1.17 for every
    // parameter). The 2σ criterion with σ against the spread over 20 draws
    // is PdfSize.LogNormalSpheresRecoveredOverNoiseRealisations.
    EXPECT_NEAR(fitted.value, value, 4.5 * fitted.sigma) << path;
    within_two += std::abs(fitted.value - value) <= 2 * fitted.sigma;
  }
  std::printf("  %d of %zu parameters within 2σ\n", within_two, truth.size());
  EXPECT_NEAR(result.chi2_reduced, 1.0, 0.25);
}
