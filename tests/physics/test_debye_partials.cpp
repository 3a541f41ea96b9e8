// (e) Species factorisation against a brute-force atom-by-atom double sum,
// with occupancies, per-atom B, two species of one element (different B)
// and complex X-ray factors (anomalous terms); partials sum to the total.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <map>
#include <random>

#include "nanoscatter/constants.hpp"
#include "nanoscatter/debye.hpp"
#include "nanoscatter/debye_normalize.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

// 360 atoms in a 14 Å box: Fe (B 0.4), Fe (B 1.1), O (B 0.7, occupancy
// 0.3–1), Ni; two Fe atoms share a site with an O (coincident atoms).
Structure mixed_cluster() {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u(-7, 7), occ(0.3, 1.0);
  Structure s;
  for (int i = 0; i < 360; ++i) {
    const int kind = i % 4;
    static const std::string elements[4] = {"Fe", "Fe", "O", "Ni"};
    Atom a;
    a.element = elements[kind];
    a.b_iso = kind == 0 ? 0.4 : (kind == 1 ? 1.1 : (kind == 2 ? 0.7 : 0.0));
    a.occupancy = kind == 2 ? occ(rng) : 1.0;
    a.position = {u(rng), u(rng), u(rng)};
    s.atoms.push_back(a);
  }
  s.atoms[2].position = s.atoms[0].position;
  s.atoms[6].position = s.atoms[1].position;
  return s;
}

// I(Q) = Σ_i w_i |f_i|² + Σ_{i≠j} w_i w_j Re(f_i f_j*) T_i T_j sinc(Q r_ij),
// and the same restricted to pairs of the given species labels.
struct Brute {
  std::vector<double> total;
  std::map<std::string, std::vector<double>> by_pair;  // "Fe-O" etc. as labelled by the engine
};

}  // namespace

TEST(DebyePartials, FactorisationMatchesBruteForceAndPartialsSum) {
  const Structure s = mixed_cluster();
  const auto q = uniform_q_grid(0.0, 14.0, 141);
  DebyeOptions o;
  o.factors.energy_kev = 7.2;  // near the Fe K edge (7.112 keV): sizeable f', f''
  o.partials = true;
  const DebyeResult r = DebyePlan(s, o).execute(q);

  // Species labels the engine gives: Fe appears with two B values.
  ASSERT_EQ(r.partial_names.size(), 10u);
  EXPECT_EQ(r.partial_names.front(), "Fe@B=0.4-Fe@B=0.4");

  auto label = [](const Atom& a) {
    if (a.element != "Fe") return a.element;
    return std::string(a.b_iso == 0.4 ? "Fe@B=0.4" : "Fe@B=1.1");
  };
  std::vector<double> total(q.size(), 0.0);
  std::map<std::string, std::vector<double>> partial;
  for (const auto& name : r.partial_names) partial[name].assign(q.size(), 0.0);
  auto add_to = [&](const std::string& a, const std::string& b, std::size_t k, double v) {
    auto it = partial.find(a + "-" + b);
    if (it == partial.end()) it = partial.find(b + "-" + a);
    ASSERT_NE(it, partial.end()) << a << "-" << b;
    it->second[k] += v;
  };
  for (std::size_t k = 0; k < q.size(); ++k) {
    std::vector<std::complex<double>> f(s.atoms.size());
    std::vector<double> t(s.atoms.size());
    for (std::size_t i = 0; i < s.atoms.size(); ++i) {
      const Species sp{s.atoms[i].element, 0, s.atoms[i].b_iso};
      FactorOptions bare = o.factors;
      bare.debye_waller = false;
      f[i] = scattering_factor(Radiation::xray, sp, q[k], bare);
      t[i] = std::exp(-s.atoms[i].b_iso * std::pow(q[k] / (4 * kPi), 2));
    }
    for (std::size_t i = 0; i < s.atoms.size(); ++i) {
      const double self = s.atoms[i].occupancy * std::norm(f[i]);
      total[k] += self;
      add_to(label(s.atoms[i]), label(s.atoms[i]), k, self);
      for (std::size_t j = 0; j < s.atoms.size(); ++j) {
        if (j == i) continue;
        const double d = norm(s.atoms[i].position - s.atoms[j].position);
        const double sinc = q[k] * d == 0 ? 1.0 : std::sin(q[k] * d) / (q[k] * d);
        const double v = s.atoms[i].occupancy * s.atoms[j].occupancy *
                         std::real(f[i] * std::conj(f[j])) * t[i] * t[j] * sinc;
        total[k] += v;
        add_to(label(s.atoms[i]), label(s.atoms[j]), k, v);
      }
    }
  }
  // Float64 on both sides, different summation order and factorisation.
  // Total: 1e-11 relative (I ≥ Σ w|f|² > 0 everywhere, but the pair terms
  // exceed I by up to ~100× where they cancel, and each side rounds ~1e5
  // terms; measured 5.7e-13). Partials change sign: 1e-12 of max I
  // (measured 4e-14). Σ partials = total: 1e-12 (the issue's).
  const double err_total = test::max_rel_error(r.intensity, total);
  double max_i = 0, err_partial = 0, err_sum = 0;
  for (double v : total) max_i = std::max(max_i, v);
  for (std::size_t p = 0; p < r.partials.size(); ++p)
    for (std::size_t k = 0; k < q.size(); ++k)
      err_partial = std::max(err_partial, std::abs(r.partials[p][k] - partial[r.partial_names[p]][k]) / max_i);
  for (std::size_t k = 0; k < q.size(); ++k) {
    double sum = 0;
    for (const auto& col : r.partials) sum += col[k];
    err_sum = std::max(err_sum, std::abs(sum - r.intensity[k]) / std::abs(r.intensity[k]));
  }
  std::printf("mixed cluster: total vs brute force %.2e, partials %.2e of max I, Σ partials vs total %.2e\n",
              err_total, err_partial, err_sum);
  EXPECT_LE(err_total, 1e-11);
  EXPECT_LE(err_partial, 1e-12);
  EXPECT_LE(err_sum, 1e-12);

  // Histogram mode and float32: partials still sum to the total (1e-12: the
  // total is the sum of the partial columns in float64).
  for (DebyeMethod method : {DebyeMethod::histogram, DebyeMethod::exact}) {
    DebyeOptions h = o;
    h.method = method;
    h.compute.precision = method == DebyeMethod::exact ? Precision::float32 : Precision::float64;
    const auto rh = DebyePlan(s, h).execute(q);
    for (std::size_t k = 0; k < q.size(); ++k) {
      double sum = 0;
      for (const auto& col : rh.partials) sum += col[k];
      EXPECT_NEAR(sum, rh.intensity[k], 1e-12 * std::abs(rh.intensity[k]));
    }
  }
}

// Normalisations (debye_normalize.hpp) on a one-species particle, where
// ⟨|f|²⟩ = |⟨f⟩|² = f²: per-atom I/N, S = I/(N f²) exactly, F = Q(S − 1);
// with partials, the sq columns sum to S − 1. Float64 rounding: 1e-14.
TEST(DebyePartials, NormalisationDefinitions) {
  Structure s;
  for (int i = 0; i < 40; ++i) {
    static const std::string elements[2] = {"Zn", "Cu"};
    Atom a;
    a.element = elements[i % 2];
    a.position = {1.3 * i, 0.7 * (i % 3), 0.2 * (i % 5)};
    s.atoms.push_back(a);
  }
  const auto q = uniform_q_grid(0.0, 8.0, 33);
  DebyeOptions o;
  o.partials = true;
  const DebyeResult raw = DebyePlan(s, o).execute(q);
  auto normalized = [&](DebyeNormalization n) {
    DebyeResult r = raw;
    normalize_debye_result(r, s, o, n);
    return r;
  };
  const auto per_atom = normalized(DebyeNormalization::per_atom);
  const auto sq = normalized(DebyeNormalization::sq);
  const auto fq = normalized(DebyeNormalization::fq);
  for (std::size_t k = 0; k < q.size(); ++k) {
    const double fcu = xray_f0("Cu", 0, q[k]), fzn = xray_f0("Zn", 0, q[k]);
    const double f2 = 0.5 * (fcu * fcu + fzn * fzn), fm = 0.5 * (fcu + fzn);
    EXPECT_NEAR(per_atom.intensity[k], raw.intensity[k] / 40, 1e-14 * raw.intensity[k]);
    const double s_expect = 1 + (raw.intensity[k] / 40 - f2) / (fm * fm);  // Faber–Ziman
    EXPECT_NEAR(sq.intensity[k], s_expect, 1e-13 * std::abs(s_expect));
    EXPECT_NEAR(fq.intensity[k], q[k] * (s_expect - 1), 1e-13 * (1 + std::abs(q[k] * s_expect)));
    double sum = 0;
    for (const auto& col : sq.partials) sum += col[k];
    EXPECT_NEAR(sum, sq.intensity[k] - 1, 1e-12 * (1 + std::abs(s_expect)));
  }
  // Q = 0 of a finite particle: S(0) = 1 + (N − 1)·... = N for one species; here
  // two species with f_Cu ≠ f_Zn: S(0) = 1 + (N⟨f⟩² − ⟨f²⟩)/⟨f⟩² exactly.
  const double fcu = xray_f0("Cu", 0, 0), fzn = xray_f0("Zn", 0, 0);
  const double f2 = 0.5 * (fcu * fcu + fzn * fzn), fm = 0.5 * (fcu + fzn);
  EXPECT_NEAR(sq.intensity[0], 1 + (40 * fm * fm - f2) / (fm * fm), 1e-12 * 40);
  EXPECT_THROW(parse_debye_normalization("bogus"), Error);
}
