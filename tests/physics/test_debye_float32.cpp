// (c) float32 fast CPU path against float64 on a 20,000-atom two-species
// particle: max relative error ≤ 1e-5 where I(Q) > 1e-3·max I.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "debye/pair_sums.hpp"
#include "debye/species.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/debye.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

// Rocksalt CoO (a = 4.26 Å) cut to a sphere of R = 36.5 Å: ≥ 20,000 ions on
// two species, so the test covers triangles (Co-Co, O-O) and a rectangle.
// A perfect crystal is the hard case for float32: all pairs of a
// coordination shell share one distance, so their rounding errors add up
// coherently instead of averaging out.
Structure coo_sphere() {
  LatticeOptions lattice;
  lattice.type = LatticeType::rocksalt;
  lattice.a = 4.26;
  lattice.elements = {"Co", "O"};
  return cut_crystal(make_lattice(lattice), Sphere{36.5});
}

// The float64 reference kernel (plain loops, std::sin) on the species
// blocks, assembled into I(Q) with X-ray f0 (no B in this structure). The
// reference is serial and ~10 ns per pair·Q, so the test spreads row blocks
// of it over the available threads here, in the test.
std::vector<double> reference_intensity(const Structure& s, const std::vector<double>& q) {
  using namespace nanoscatter::debye;
  const SpeciesBlocks sp = group_by_species(s);
  const std::size_t ns = sp.blocks.size();
  struct Job {
    std::size_t m, n;
    AtomBlock a, b;
    PairSet set;
  };
  std::vector<Job> jobs;
  const std::size_t piece = 2000;
  auto slice = [](const AtomBlock& b, std::size_t i0, std::size_t i1) {
    AtomBlock out;
    out.x.assign(b.x.begin() + i0, b.x.begin() + i1);
    out.y.assign(b.y.begin() + i0, b.y.begin() + i1);
    out.z.assign(b.z.begin() + i0, b.z.begin() + i1);
    out.w.assign(b.w.begin() + i0, b.w.begin() + i1);
    return out;
  };
  for (std::size_t m = 0; m < ns; ++m)
    for (std::size_t n = m; n < ns; ++n) {
      const auto& bm = sp.blocks[m];
      const auto& bn = sp.blocks[n];
      for (std::size_t i = 0; i < bm.size(); i += piece) {
        const AtomBlock a = slice(bm, i, std::min(bm.size(), i + piece));
        if (m == n) {
          jobs.push_back({m, n, a, a, PairSet::triangle});
          if (i + piece < bm.size()) jobs.push_back({m, n, a, slice(bm, i + piece, bm.size()), PairSet::rectangle});
        } else {
          jobs.push_back({m, n, a, bn, PairSet::rectangle});
        }
      }
    }
  std::vector<std::vector<double>> sums(jobs.size(), std::vector<double>(q.size(), 0.0));
#pragma omp parallel for schedule(dynamic)
  for (std::size_t j = 0; j < jobs.size(); ++j)
    exact_pair_sums_reference(jobs[j].a, jobs[j].b, jobs[j].set, q, sums[j]);

  std::vector<double> intensity(q.size(), 0.0);
  for (std::size_t k = 0; k < q.size(); ++k) {
    std::vector<double> f(ns);
    for (std::size_t m = 0; m < ns; ++m) {
      f[m] = xray_f0(sp.species[m].element, sp.species[m].charge, q[k]);
      intensity[k] += f[m] * f[m] * sp.total_weight(m);  // self terms
    }
    for (std::size_t j = 0; j < jobs.size(); ++j)  // 2 f_m f_n Σ sin(Qr)/r / Q
      intensity[k] += 2 * f[jobs[j].m] * f[jobs[j].n] * sums[j][k] / q[k];
  }
  return intensity;
}

}  // namespace

// Tolerance 1e-5 where I > 1e-3·max I (the issue's; measured 2.2e-6 against
// float64 over all 64 points; everywhere, including the deep minima below
// the floor, 6e-5). 64 Q points from 0.1 to
// 12 Å⁻¹ (uniform: the float32 recurrence path); the float64 reference is
// evaluated on every 8th of them (8 points, ~10 s of the test's time), the
// fast float64 path on all 64 (itself checked against the reference to 1e-12
// in the kernel tests) so that no point goes unchecked.
// The default precision (auto) runs double on the CPU, and the plan says so.
TEST(DebyeFloat32, AutomaticPrecisionIsDoubleOnTheCpu) {
  Structure s;
  Atom au;
  au.element = "Au";
  s.atoms = {au, au};
  s.atoms[1].position = Vec3{2.9, 0, 0};
  DebyeOptions o;
  o.compute.device = Device::cpu;
  ASSERT_EQ(o.compute.precision, Precision::automatic);
  EXPECT_EQ(DebyePlan(s, o).options().compute.precision, Precision::float64);
  o.compute.precision = Precision::float32;
  EXPECT_EQ(DebyePlan(s, o).options().compute.precision, Precision::float32);
}

TEST(DebyeFloat32, TwentyThousandAtomsMatchFloat64) {
  const Structure s = coo_sphere();
  ASSERT_GE(s.atoms.size(), 20000u);
  const auto q = uniform_q_grid(0.1, 12.0, 64);
  DebyeOptions o;
  o.factors.debye_waller = false;
  o.compute.precision = Precision::float32;
  const auto single = DebyePlan(s, o).execute(q).intensity;
  o.compute.precision = Precision::float64;
  const auto dual = DebyePlan(s, o).execute(q).intensity;

  std::vector<double> q_ref, single_at_ref, dual_at_ref;
  for (std::size_t k = 0; k < q.size(); k += 8) {
    q_ref.push_back(q[k]);
    single_at_ref.push_back(single[k]);
    dual_at_ref.push_back(dual[k]);
  }
  const auto ref = reference_intensity(s, q_ref);
  // Floor relative to the full pattern's maximum, not the subset's.
  double max_i = 0;
  for (double v : dual) max_i = std::max(max_i, v);
  auto err_above_floor = [&](const std::vector<double>& a, const std::vector<double>& b) {
    double worst = 0;
    for (std::size_t k = 0; k < a.size(); ++k)
      if (b[k] > 1e-3 * max_i) worst = std::max(worst, std::abs(a[k] - b[k]) / b[k]);
    return worst;
  };
  const double e32_ref = err_above_floor(single_at_ref, ref);
  const double e64_ref = err_above_floor(dual_at_ref, ref);
  const double e32_all = err_above_floor(single, dual);
  const double e32_everywhere = test::max_rel_error(single, dual, 0.0);
  std::printf("N = %zu: float32 vs reference %.2e, float64 fast vs reference %.2e, float32 vs float64 "
              "(64 Q) %.2e above the floor, %.2e everywhere\n",
              s.atoms.size(), e32_ref, e64_ref, e32_all, e32_everywhere);
  EXPECT_LE(e32_ref, 1e-5);
  EXPECT_LE(e32_all, 1e-5);
  // Float64 both: only summation order differs, but the reference adds ~1e8
  // terms per Q sequentially and the pair sums exceed I(Q) by up to ~300×
  // where they cancel (near the floor): 1e-10 (measured 4.6e-12).
  EXPECT_LE(e64_ref, 1e-10);
}
