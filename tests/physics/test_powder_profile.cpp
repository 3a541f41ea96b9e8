// The Thompson–Cox–Hastings profile of the powder instrument
// (powder_model.hpp, PowderProfile::tch): the FWHM and η polynomials
// (TCH 1987, eqs. 3–4) at their limits and at hand-computed values, the
// widths' angle dependence, a single line's area and FWHM through the
// sampled profile, continuity in X and Y, and the fit paths.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/fit_powder.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;

namespace {

constexpr double degree = std::numbers::pi / 180;

std::vector<double> grid(double lo, double hi, double step) {
  std::vector<double> out;
  for (int k = 0; lo + k * step <= hi + 1e-9; ++k) out.push_back(lo + k * step);
  return out;
}

InstrumentParameters tch(double u, double v, double w, double x, double y) {
  InstrumentParameters ip;
  ip.profile = PowderProfile::tch;
  ip.u = u, ip.v = v, ip.w = w, ip.x = x, ip.y = y;
  return ip;
}

// FWHM of a sampled line about its peak at index `at` (linear interpolation at half height).
double sampled_fwhm(const std::vector<double>& angle, const std::vector<double>& line, std::size_t at) {
  const double half = line[at] / 2, step = angle[1] - angle[0];
  std::size_t left = at, right = at;
  while (line[left] > half) --left;
  while (line[right] > half) ++right;
  const double x_left = angle[left] + step * (half - line[left]) / (line[left + 1] - line[left]);
  const double x_right = angle[right - 1] + step * (line[right - 1] - half) / (line[right - 1] - line[right]);
  return x_right - x_left;
}

}  // namespace

// The polynomials: a pure Gaussian (Γ_L = 0) is itself (η = 0, H = Γ_G), a
// pure Lorentzian too (η = 1.36603 − 0.47719 + 0.11116 = 1, H = Γ_L), and
// for Γ_G = Γ_L = 1: H⁵ = 1 + 2.69269 + 2.42843 + 4.47163 + 0.07842 + 1 =
// 11.67117, H = 1.634643, q = 1/H = 0.611755, η = 0.682539 (by hand);
// Γ_G = 0.1, Γ_L = 0.05: H = 0.128828, η = 0.464794. H scales with the
// widths, η not.
TEST(PowderTch, FwhmAndEtaPolynomials) {
  for (const double g : {1e-3, 0.1, 2.0}) {
    const ProfileWidth gauss = tch_profile(g, 0);
    EXPECT_DOUBLE_EQ(gauss.fwhm, g);
    EXPECT_EQ(gauss.eta, 0.0);
    const ProfileWidth lorentz = tch_profile(0, g);
    EXPECT_DOUBLE_EQ(lorentz.fwhm, g);
    EXPECT_NEAR(lorentz.eta, 1.0, 1e-12);
  }
  const ProfileWidth both = tch_profile(1, 1);
  EXPECT_NEAR(both.fwhm, 1.634643, 1e-6);
  EXPECT_NEAR(both.eta, 0.682539, 1e-6);
  const ProfileWidth mixed = tch_profile(0.1, 0.05);
  EXPECT_NEAR(mixed.fwhm, 0.128828, 1e-6);
  EXPECT_NEAR(mixed.eta, 0.464794, 1e-6);
  const ProfileWidth scaled = tch_profile(0.3, 0.15);
  EXPECT_NEAR(scaled.fwhm, 3 * mixed.fwhm, 1e-12);
  EXPECT_NEAR(scaled.eta, mixed.eta, 1e-12);
  const ProfileWidth none = tch_profile(0, 0);
  EXPECT_EQ(none.fwhm, 0.0);
  EXPECT_EQ(none.eta, 0.0);
  // η rises monotonically from 0 to 1 as Γ_L takes over.
  double last = -1;
  for (double l = 0; l <= 10; l += 0.05) {
    const double eta = tch_profile(1, l).eta;
    EXPECT_GT(eta, last) << "Γ_L " << l;
    EXPECT_LE(eta, 1 + 1e-12);
    last = eta;
  }
}

// Γ_G² = U tan²θ + V tanθ + W and Γ_L = X tanθ + Y / cosθ at each angle;
// the default profile keeps Caglioti's H and the given η.
TEST(PowderTch, WidthsFollowTheAngle) {
  const InstrumentParameters ip = tch(0.02, -0.01, 0.006, 0.03, 0.02);
  for (const double two_theta : {10.0, 45.0, 90.0, 150.0}) {
    const double t = std::tan(0.5 * two_theta * degree), c = std::cos(0.5 * two_theta * degree);
    const double g = std::sqrt(0.02 * t * t - 0.01 * t + 0.006), l = 0.03 * t + 0.02 / c;
    const ProfileWidth want = tch_profile(g, l), got = profile_width(ip, two_theta);
    EXPECT_DOUBLE_EQ(got.fwhm, want.fwhm) << two_theta;
    EXPECT_DOUBLE_EQ(got.eta, want.eta) << two_theta;
    InstrumentParameters pv = ip;
    pv.profile = PowderProfile::pseudo_voigt, pv.eta = 0.3;
    EXPECT_DOUBLE_EQ(profile_width(pv, two_theta).fwhm, g);
    EXPECT_EQ(profile_width(pv, two_theta).eta, 0.3);
  }
  EXPECT_EQ(parse_powder_profile("tch"), PowderProfile::tch);
  EXPECT_EQ(parse_powder_profile("pseudo_voigt"), PowderProfile::pseudo_voigt);
  EXPECT_THROW(parse_powder_profile("voigt"), Error);
}

// A single line through the sampled TCH profile keeps its area and has
// TCH's FWHM (a pseudo-Voigt's FWHM is H for every η), Gaussian,
// Lorentzian and mixed.
TEST(PowderTch, SingleLineKeepsAreaAndHasTchFwhm) {
  const double step = 0.002;
  for (const InstrumentParameters& ip : {tch(0.02, -0.01, 0.006, 0, 0), tch(0, 0, 0, 0.04, 0.03), tch(0.02, -0.01, 0.006, 0.04, 0.03)})
    for (const double centre : {30.0, 60.0, 110.0}) {
      const std::vector<double> angle = grid(centre - 8, centre + 8, step);
      std::vector<double> source(angle.size(), 0.0);
      const std::size_t at = angle.size() / 2;
      source[at] = 2.5;
      const std::vector<double> line = profile_convolution(angle, step, source, ip, 20);
      double area = 0;
      for (const double v : line) area += v;
      EXPECT_NEAR(area, 2.5, 1e-12);
      const double want = profile_width(ip, angle[at]).fwhm;
      EXPECT_NEAR(sampled_fwhm(angle, line, at), want, 5e-3 * want)
          << "2θ " << centre << " X " << ip.x << " U " << ip.u;
    }
}

// The TCH profile is continuous in X and Y (the W test of
// test_powder_model.cpp, here for the Lorentzian widths), and with
// X = Y = 0 it is the Caglioti profile with η = 0, on a whole pattern.
TEST(PowderTch, ContinuousInLorentzianWidths) {
  for (int c = 0; c < test::property_cases(4); ++c) {
    const auto seed = test::case_seed(c);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    const InstrumentParameters ip = tch(0.01 * u(rng), 0, 0.001 + 0.01 * u(rng), 0.02 * u(rng), 0.001 + 0.02 * u(rng));
    const double step = 0.005;
    const std::vector<double> angle = grid(20, 40, step);
    std::vector<double> source(angle.size());
    for (double& v : source) v = u(rng);
    for (double InstrumentParameters::*field : {&InstrumentParameters::x, &InstrumentParameters::y}) {
      const auto smeared = [&](double h) {
        InstrumentParameters q = ip;
        q.*field += h;
        return profile_convolution(angle, step, source, q, 20);
      };
      const std::vector<double> base = smeared(0);
      std::vector<std::vector<double>> slope;
      for (const double h : {5e-8, 1e-8}) {
        const std::vector<double> moved = smeared(h);
        std::vector<double> d(base.size());
        for (std::size_t i = 0; i < d.size(); ++i) d[i] = (moved[i] - base[i]) / h;
        slope.push_back(d);
      }
      double hi = 0, worst = 0;
      for (const double v : slope[0]) hi = std::max(hi, std::abs(v));
      for (std::size_t i = 0; i < base.size(); ++i) worst = std::max(worst, std::abs(slope[0][i] - slope[1][i]));
      EXPECT_GT(hi, 0);
      EXPECT_LE(worst, 1e-3 * hi) << (field == &InstrumentParameters::x ? "X" : "Y");
    }
  }
  LatticeOptions l;
  l.type = LatticeType::rocksalt, l.a = 4.26, l.elements = {"Co", "O"};
  const PowderModel model(cut_crystal(make_lattice(l), Sphere{6.0}), DebyeOptions{});
  PowderInstrument in;
  in.fine_step = 0.01;
  const std::vector<double> t = grid(30, 50, 0.05);
  PowderPattern pattern(model, in, t);
  InstrumentParameters gauss;
  gauss.u = 0.01, gauss.w = 0.02, gauss.eta = 0;
  const InstrumentParameters same = tch(0.01, 0, 0.02, 0, 0);
  // Twice each, so that the kept kernels of one profile are not taken for the other's.
  const PowderParameters p = model.default_parameters();
  pattern.evaluate(p, gauss);
  const std::vector<double> a = pattern.evaluate(p, gauss);
  pattern.evaluate(p, same);
  const std::vector<double> b = pattern.evaluate(p, same);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-12 * a[i]) << t[i];
  InstrumentParameters wider = same;
  wider.y = 0.05;
  const std::vector<double> kept = pattern.evaluate(p, wider);
  const std::vector<double> fresh = PowderPattern(model, in, t).evaluate(p, wider);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_DOUBLE_EQ(kept[i], fresh[i]) << t[i];
  EXPECT_GT(std::abs(kept[a.size() / 2] - a[a.size() / 2]), 1e-3 * a[a.size() / 2]);
}

// The fit model's paths: x and y with tch (η is TCH's, not a path), eta
// without.
TEST(PowderTch, FitPaths) {
  LatticeOptions l;
  l.type = LatticeType::rocksalt, l.a = 4.26, l.elements = {"Co", "O"};
  const PowderModel model(cut_crystal(make_lattice(l), Sphere{5.0}), DebyeOptions{});
  const std::vector<double> t = grid(30, 40, 0.1);
  fit::PowderFitModel with_tch(PowderPattern(model, PowderInstrument{}, t), 0, PowderProfile::tch);
  const auto paths = with_tch.paths();
  EXPECT_NE(std::find(paths.begin(), paths.end(), "x"), paths.end());
  EXPECT_NE(std::find(paths.begin(), paths.end(), "y"), paths.end());
  EXPECT_EQ(std::find(paths.begin(), paths.end(), "eta"), paths.end());
  with_tch.set("x", 0.02), with_tch.set("y", 0.03);
  EXPECT_EQ(with_tch.instrument_parameters().x, 0.02);
  EXPECT_EQ(with_tch.instrument_parameters().y, 0.03);
  EXPECT_THROW(with_tch.set("eta", 0.5), Error);
  fit::PowderFitModel plain(PowderPattern(model, PowderInstrument{}, t), 0);
  EXPECT_THROW(plain.set("x", 0.5), Error);
  plain.set("eta", 0.25);
  EXPECT_EQ(plain.instrument_parameters().eta, 0.25);
}
