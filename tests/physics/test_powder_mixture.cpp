// Mixtures of phases in the powder fit (fit_powder.hpp): the sum of the
// phases' patterns with their scales, the paths, and a synthetic recovery
// of the second phase's scale (and the weight fraction it gives) over 20
// Poisson realisations of a CoO + Ni pattern.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "fit_statistics.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/fit_powder.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;

namespace {

std::vector<double> grid(double lo, double hi, double step) {
  std::vector<double> out;
  for (int k = 0; lo + k * step <= hi + 1e-9; ++k) out.push_back(lo + k * step);
  return out;
}

Structure sphere(LatticeType type, double a, std::vector<std::string> elements, double radius) {
  LatticeOptions l;
  l.type = type, l.a = a, l.elements = std::move(elements);
  return cut_crystal(make_lattice(l), Sphere{radius});
}

const Structure& coo() {
  static const Structure s = sphere(LatticeType::rocksalt, 4.26, {"Co", "O"}, 9.0);
  return s;
}
const Structure& nickel() {
  static const Structure s = sphere(LatticeType::fcc, 3.524, {"Ni"}, 9.0);
  return s;
}

// Mean atomic masses (u per atom; IUPAC standard weights): CoO (Co 58.933,
// O 15.999) and Ni (58.693).
constexpr double mass_coo = (58.933 + 15.999) / 2, mass_ni = 58.693;

// Weight fraction of phase 1 from its scale s (phase 0's fixed at 1): the
// scales are numbers of atoms, so w = s m1 / (m0 + s m1).
double weight_fraction(double s) { return s * mass_ni / (mass_coo + s * mass_ni); }

}  // namespace

// y = Σ s_k y_k + background: each phase's own pattern (its PowderPattern
// without the background) times its scale, the background once; paths
// carry "phase[k]."; a phase's path of another phase's species is refused.
TEST(PowderMixture, SumOfPhasesAndPaths) {
  const std::vector<double> t = grid(30, 60, 0.1);
  PowderInstrument in;
  in.fine_step = 0.01, in.margin = 1;
  const PowderModel a(coo(), DebyeOptions{}), b(nickel(), DebyeOptions{});
  fit::PowderFitModel mix(std::vector<PowderPattern>{PowderPattern(a, in, t), PowderPattern(b, in, t)}, 2,
                          PowderProfile::pseudo_voigt);
  mix.set("phase[0].lattice_expansion", 0.01);
  mix.set("phase[1].scale", 0.7);
  mix.set("phase[1].b[Ni]", 0.6);
  mix.set("bkg[0]", 3.0), mix.set("bkg[1]", -1.0);
  mix.set("w", 0.02);
  std::vector<double> y(mix.size());
  mix.evaluate(y);

  InstrumentParameters ip;
  ip.w = 0.02;
  PowderParameters pa = a.default_parameters(), pb = b.default_parameters();
  pa.lattice_expansion = 0.01, pb.b = {0.6};
  const std::vector<double> ya = PowderPattern(a, in, t).evaluate(pa, ip), yb = PowderPattern(b, in, t).evaluate(pb, ip);
  const std::vector<double> background = chebyshev_background(std::vector<double>{3.0, -1.0}, t);
  for (std::size_t i = 0; i < t.size(); ++i)
    EXPECT_NEAR(y[i], ya[i] + 0.7 * yb[i] + background[i], 1e-12 * y[i]) << t[i];

  const auto paths = mix.paths();
  for (const char* p : {"phase[0].scale", "phase[1].scale", "phase[0].b[Co]", "phase[1].u[Ni]", "phase[1].lattice_expansion",
                        "zero", "eta", "bkg[1]"})
    EXPECT_NE(std::find(paths.begin(), paths.end(), p), paths.end()) << p;
  EXPECT_EQ(std::find(paths.begin(), paths.end(), "lattice_expansion"), paths.end());
  EXPECT_THROW(mix.set("phase[1].b[Co]", 0.5), Error);
  EXPECT_THROW(mix.set("phase[2].scale", 0.5), Error);
  EXPECT_THROW(mix.set("lattice_expansion", 0.5), Error);
  EXPECT_THROW(fit::PowderFitModel(std::vector<PowderPattern>{}, 0, PowderProfile::pseudo_voigt), Error);
  EXPECT_THROW(fit::PowderFitModel(std::vector<PowderPattern>{PowderPattern(a, in, t), PowderPattern(b, in, grid(30, 60, 0.2))},
                                   0, PowderProfile::pseudo_voigt),
               Error);
}

// Synthetic recovery: CoO and Ni spheres (R = 9 Å), Cu Kα1, Caglioti
// profile, Poisson noise; free: phase[1].scale (phase[0]'s fixed at 1, the
// fit's closed-form scale the total), each phase's ε, bkg[0]. The scale of
// Ni (true 0.6: weight fraction 0.485) and the weight fraction it gives
// (σ by the chain rule, dw/ds = m0 m1/(m0 + s m1)²) within 2σ, and the
// reported σ against the spread (fit_statistics.hpp).
TEST(PowderMixture, SyntheticRecoveryOfThePhaseFraction) {
  // Lines ~3° wide: a 0.2° data step and a 0.05° fine grid resolve them
  // (and keep the 20 fits to a few seconds).
  const std::vector<double> t = grid(25, 85, 0.2);
  PowderInstrument in;
  in.fine_step = 0.05, in.margin = 1;
  const PowderModel a(coo(), DebyeOptions{}), b(nickel(), DebyeOptions{});
  fit::PowderFitModel model(std::vector<PowderPattern>{PowderPattern(a, in, t), PowderPattern(b, in, t)}, 1,
                            PowderProfile::pseudo_voigt);
  model.set("w", 0.05), model.set("eta", 0.4);
  const double scale_ni = 0.6, total = 30.0;
  const std::vector<std::pair<std::string, double>> truth{{"phase[1].scale", scale_ni},
                                                          {"phase[0].lattice_expansion", 0.004},
                                                          {"phase[1].lattice_expansion", -0.003},
                                                          {"bkg[0]", 20.0},
                                                          {"scale", total}};
  for (const auto& [path, value] : truth)
    if (path != "scale") model.set(path, value);
  std::vector<double> clean(model.size());
  model.evaluate(clean);
  for (double& v : clean) v *= total;
  const auto start = [](auto... p) { return test::bounded_parameter(p...); };
  const std::vector<fit::Parameter> parameters{start("phase[1].scale", 1.0, 0.0, 10.0),
                                               start("phase[0].lattice_expansion", 0.0, -0.05, 0.05),
                                               start("phase[1].lattice_expansion", 0.0, -0.05, 0.05),
                                               start("bkg[0]", 0.0, -1e4, 1e4)};
  fit::ObjectiveOptions chi2;
  chi2.kind = fit::ObjectiveKind::chi2, chi2.background = fit::LinearMode::none;
  fit::MinimizerOptions lm;
  lm.quiet = true;
  const int cases = test::property_cases(20);
  std::vector<std::pair<std::string, double>> checked = truth;
  checked.push_back({"weight fraction of Ni", weight_fraction(scale_ni)});
  std::vector<std::vector<double>> values(checked.size()), sigmas(checked.size());
  for (int c = 0; c < cases; ++c) {
    const std::uint64_t seed = test::case_seed(c);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    const fit::FitData data = test::poisson_pattern(clean, rng);
    const fit::FitResult r = run_fit(model, parameters, data, chi2, lm);
    ASSERT_TRUE(r.converged) << r.message;
    if (c == 0) std::printf("  %d evaluations, %.2f s\n", r.evaluations, r.seconds);
    for (std::size_t j = 0; j < truth.size(); ++j) {
      values[j].push_back(r.value(truth[j].first));
      sigmas[j].push_back(r.parameter(truth[j].first).sigma);
    }
    const double s = r.value("phase[1].scale"), slope = mass_coo * mass_ni / std::pow(mass_coo + s * mass_ni, 2);
    values.back().push_back(weight_fraction(s));
    sigmas.back().push_back(slope * r.parameter("phase[1].scale").sigma);
  }
  test::check_sigma_against_spread(checked, values, sigmas);
}
