// Property test of the mutable Debye plan (issue 21): on drawn particles and
// Q grids, a random sequence of edits (set_factors, set_radiation,
// set_structure, a new Q grid) leaves the plan giving what a fresh plan with
// the same structure and options gives, to 1e-12 relative, while pair sums
// are recomputed only for a new structure or a new Q grid and histograms
// only for a new structure. Refused edits (anomalous terms with neutrons or
// electrons) leave the plan as it was. A failure prints the case's seed.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

#include "debye_property_cases.hpp"
#include "nanoscatter/debye.hpp"
#include "nanoscatter/error.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;

namespace {

constexpr double kTolerance = 1e-12;  // float64 sums of the same pairs in another order at most
constexpr int kCases = 6;
constexpr int kEditsPerCase = 6;

void expect_same(const DebyeResult& got, const DebyeResult& want) {
  ASSERT_EQ(got.intensity.size(), want.intensity.size());
  for (std::size_t k = 0; k < want.intensity.size(); ++k)
    ASSERT_NEAR(got.intensity[k], want.intensity[k], kTolerance * std::abs(want.intensity[k]) + 1e-300) << "Q index " << k;
  ASSERT_EQ(got.partials.size(), want.partials.size());
  for (std::size_t p = 0; p < want.partials.size(); ++p)
    for (std::size_t k = 0; k < want.partials[p].size(); ++k)
      ASSERT_NEAR(got.partials[p][k], want.partials[p][k], kTolerance * std::abs(want.intensity[k]) + 1e-300)
          << "partial " << p << ", Q index " << k;
}

}  // namespace

TEST(DebyePlanProperty, EditedPlanEqualsAFreshPlanOnDrawnCases) {
  const test::DebyeCaseLimits limits{150, 600, 20, 150};
  for (int k = 0; k < kCases; ++k) {
    const auto seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    test::DebyeCase c = test::draw_debye_case(seed, limits);
    SCOPED_TRACE(c.description);
    std::mt19937_64 rng(seed ^ 0x5DEECE66Dull);
    const auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    const auto coin = [&] { return std::bernoulli_distribution(0.5)(rng); };

    DebyeOptions o;
    o.method = coin() ? DebyeMethod::exact : DebyeMethod::histogram;
    o.partials = coin();
    o.radiation = c.radiation;
    o.compute.device = Device::cpu;
    Structure structure = c.structure;
    std::vector<double> q = c.q;
    DebyePlan plan(structure, o);
    expect_same(plan.execute(q), DebyePlan(structure, o).execute(q));
    int pair_sum_runs = 1, histogram_builds = o.method == DebyeMethod::histogram ? 1 : 0;

    for (int e = 0; e < kEditsPerCase; ++e) {
      const int kind = std::uniform_int_distribution<int>(0, 3)(rng);
      if (kind == 0) {  // factors: anomalous energy (X-ray only), Debye–Waller on/off
        FactorOptions f;
        f.debye_waller = coin();
        if (coin()) f.energy_kev = uniform(5, 25);
        if (f.energy_kev && o.radiation != Radiation::xray) {
          const DebyeOptions before = plan.options();
          EXPECT_THROW(plan.set_factors(f), Error);
          EXPECT_EQ(plan.options().factors.energy_kev, before.factors.energy_kev);
          continue;
        }
        plan.set_factors(f);
        o.factors = f;
      } else if (kind == 1) {  // radiation (anomalous terms must be dropped first)
        const Radiation r = std::array{Radiation::xray, Radiation::neutron, Radiation::electron}[rng() % 3];
        if (o.factors.energy_kev && r != Radiation::xray) {
          EXPECT_THROW(plan.set_radiation(r), Error);
          EXPECT_EQ(plan.options().radiation, o.radiation);
          continue;
        }
        plan.set_radiation(r);
        o.radiation = r;
      } else if (kind == 2) {  // structure: atoms displaced, a B factor drawn per element
        // (one B per element: species are grouped by element, charge and B,
        // so a B per atom would make every atom its own species)
        std::normal_distribution<double> shift(0, uniform(0.001, 0.05));
        std::map<std::string, double> b_of;
        for (const Atom& a : structure.atoms)
          if (!b_of.count(a.element)) b_of[a.element] = coin() ? uniform(0, 1.5) : a.b_iso;
        for (Atom& a : structure.atoms) {
          a.position = {a.position.x + shift(rng), a.position.y + shift(rng), a.position.z + shift(rng)};
          a.b_iso = b_of[a.element];
        }
        plan.set_structure(structure);
        ++pair_sum_runs;
        if (o.method == DebyeMethod::histogram) ++histogram_builds;
      } else {  // a new Q grid
        const double qmin = uniform(0, 1), qmax = uniform(4, 12);
        q = uniform_q_grid(qmin, qmax, std::uniform_int_distribution<int>(20, 150)(rng));
        ++pair_sum_runs;
      }
      SCOPED_TRACE("after edit " + std::to_string(e) + " of kind " + std::to_string(kind));
      expect_same(plan.execute(q), DebyePlan(structure, o).execute(q));
      // Re-executing the same grid sums no pairs again.
      EXPECT_EQ(plan.stats().pair_sum_runs, pair_sum_runs);
      EXPECT_EQ(plan.stats().histogram_builds, histogram_builds);
    }
  }
}
