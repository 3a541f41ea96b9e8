// Defects: random vacancies and Gaussian displacements. Statistical checks
// use fixed seeds (so they are deterministic) with bounds of 5 standard
// errors, which a correct sampler would exceed with probability < 1e-6.
#include <gtest/gtest.h>

#include <cmath>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/error.hpp"

using namespace nanoscatter;

namespace {

Structure chain(std::size_t n) {
  Structure s;
  for (std::size_t i = 0; i < n; ++i)
    s.atoms.push_back(Atom{i % 4 == 0 ? "O" : "Fe", 0, {static_cast<double>(i), 0, 0}});
  return s;
}

}  // namespace

TEST(StructureDefects, VacancyCountIsExactAndOrderKept) {
  const Structure s = chain(959);
  const Structure v = add_vacancies(s, {0.1, 42, {}});
  EXPECT_EQ(v.atoms.size(), 959u - 96u);  // round(0.1 · 959) = 96 removed
  for (std::size_t i = 1; i < v.atoms.size(); ++i) EXPECT_LT(v.atoms[i - 1].position.x, v.atoms[i].position.x);
  // Same seed, same result; another seed, another choice.
  const Structure again = add_vacancies(s, {0.1, 42, {}});
  const Structure other = add_vacancies(s, {0.1, 43, {}});
  bool differs = false;
  for (std::size_t i = 0; i < v.atoms.size(); ++i) {
    EXPECT_EQ(v.atoms[i].position.x, again.atoms[i].position.x);
    differs |= v.atoms[i].position.x != other.atoms[i].position.x;
  }
  EXPECT_TRUE(differs);
  EXPECT_EQ(add_vacancies(s, {0, 1, {}}).atoms.size(), 959u);
  EXPECT_EQ(add_vacancies(s, {1, 1, {}, true}).atoms.size(), 0u);
  // An empty result only when asked for.
  EXPECT_THROW(add_vacancies(s, {1, 1, {}}), Error);
}

TEST(StructureDefects, VacanciesAreUniformOverAtoms) {
  // 50 atoms, 10 removed per draw, 4000 seeds: each atom's removal count is
  // Binomial(4000, 0.2), mean 800, σ = √(4000·0.2·0.8) ≈ 25.3.
  const std::size_t n = 50, draws = 4000;
  const Structure s = chain(n);
  std::vector<int> removed(n, 0);
  for (std::uint64_t seed = 0; seed < draws; ++seed) {
    const Structure v = add_vacancies(s, {0.2, seed, {}});
    std::vector<bool> kept(n, false);
    for (const Atom& a : v.atoms) kept[static_cast<std::size_t>(a.position.x)] = true;
    for (std::size_t i = 0; i < n; ++i) removed[i] += !kept[i];
  }
  const double mean = draws * 0.2, sigma = std::sqrt(draws * 0.2 * 0.8);
  double chi2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_LT(std::abs(removed[i] - mean), 5 * sigma) << "atom " << i;
    chi2 += (removed[i] - mean) * (removed[i] - mean) / (sigma * sigma);
  }
  // χ² with 49 degrees of freedom (the 50 counts sum to 10·4000): mean 49,
  // σ = √98 ≈ 9.9; 5σ above is 99. Far too even counts would be as wrong
  // (a sampler cycling deterministically): P(χ²₄₉ < 10) < 1e-8.
  EXPECT_LT(chi2, 99.0);
  EXPECT_GT(chi2, 10.0);
}

TEST(StructureDefects, VacanciesRestrictedToElements) {
  const Structure s = chain(400);  // 100 O, 300 Fe
  const Structure v = add_vacancies(s, {0.25, 7, {"o"}});
  std::size_t o = 0, fe = 0;
  for (const Atom& a : v.atoms) (a.element == "O" ? o : fe)++;
  EXPECT_EQ(o, 75u);
  EXPECT_EQ(fe, 300u);
  EXPECT_THROW(add_vacancies(s, {1.5, 1, {}}), Error);
  EXPECT_THROW(add_vacancies(s, {-0.1, 1, {}}), Error);
  EXPECT_THROW(add_vacancies(s, {NAN, 1, {}}), Error);
  EXPECT_THROW(add_vacancies(s, {0.1, 1, {"Qq"}}), Error);
}

TEST(StructureDefects, DisplacementsAreGaussianWithTheRequestedRms) {
  const std::size_t n = 30000;
  Structure s;
  s.atoms.assign(n, Atom{"Au", 0, {1, 2, 3}});
  const double rms = 0.1;
  const Structure d = displace_atoms(s, {rms, 2024});
  double sum[3] = {0, 0, 0}, sum2[3] = {0, 0, 0}, sum4 = 0, sum_xy = 0, total2 = 0;
  for (const Atom& a : d.atoms) {
    const Vec3 u = a.position - Vec3{1, 2, 3};
    for (int k = 0; k < 3; ++k) {
      sum[k] += u[k];
      sum2[k] += u[k] * u[k];
      sum4 += std::pow(u[k] / rms, 4);
    }
    sum_xy += u.x * u.y;
    total2 += dot(u, u);
  }
  const double samples = static_cast<double>(n);
  for (int k = 0; k < 3; ++k) {
    // Mean: standard error rms/√n.
    EXPECT_LT(std::abs(sum[k] / samples), 5 * rms / std::sqrt(samples));
    // Variance: relative standard error √(2/n) ≈ 0.0082.
    EXPECT_LT(std::abs(sum2[k] / samples / (rms * rms) - 1), 5 * std::sqrt(2 / samples));
  }
  // Kurtosis of a Gaussian is 3, standard error √(24/(3n)) ≈ 0.016.
  EXPECT_LT(std::abs(sum4 / (3 * samples) - 3), 5 * std::sqrt(24 / (3 * samples)));
  // Coordinates independent: correlation standard error 1/√n.
  EXPECT_LT(std::abs(sum_xy / samples / (rms * rms)), 5 / std::sqrt(samples));
  // Documented meaning: rms per coordinate, so the total rms is rms·√3.
  // |u|² has mean 3σ² and variance 6σ⁴, so √(mean |u|²) has relative
  // standard error √(1/(6n)).
  EXPECT_NEAR(std::sqrt(total2 / samples), rms * std::sqrt(3.0), 5 * rms * std::sqrt(3.0) / std::sqrt(6 * samples));

  const Structure again = displace_atoms(s, {rms, 2024});
  EXPECT_EQ(again.atoms[12345].position.x, d.atoms[12345].position.x);
  EXPECT_NE(displace_atoms(s, {rms, 2025}).atoms[0].position.x, d.atoms[0].position.x);
  EXPECT_EQ(displace_atoms(s, {0, 5}).atoms[7].position.y, 2);
  EXPECT_THROW(displace_atoms(s, {-0.1, 1}), Error);
}
