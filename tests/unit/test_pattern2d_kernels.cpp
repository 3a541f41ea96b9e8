// pattern2d kernels: atom groups and the fast CPU phase sums against the
// float64 reference (random atoms, random scattering vectors).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "nanoscatter/builder.hpp"
#include "pattern2d/phase_sums.hpp"
#include "test_util.hpp"

using namespace nanoscatter;
using namespace nanoscatter::pattern2d;

namespace {

double total_weight(const AtomList& a) {
  double s = 0;
  for (double w : a.w) s += w;
  return s;
}

}  // namespace

// Every atom is in exactly one group at centre + offset, groups are full
// except the last, padding has weight 0, and the groups of a dense crystal
// are compact (k-d leaves of 32 fcc atoms: ~2×2×2 cells, so no offset
// beyond ~1.5 cell diagonals).
TEST(Pattern2DGroups, PartitionTheAtomsIntoCompactGroups) {
  LatticeOptions lattice;
  lattice.type = LatticeType::fcc;
  lattice.a = 4.078;
  lattice.elements = {"Au"};
  const Structure particle = cut_crystal(make_lattice(lattice), Sphere{24.0});
  AtomList a;
  for (const auto& atom : particle.atoms) {
    a.x.push_back(atom.position.x);
    a.y.push_back(atom.position.y);
    a.z.push_back(atom.position.z);
    a.w.push_back(1.0);
  }
  const AtomGroups g = make_atom_groups(a);
  ASSERT_EQ(g.atoms, a.size());
  ASSERT_EQ(g.groups(), (a.size() + kGroupSize - 1) / kGroupSize);
  ASSERT_EQ(g.dx.size(), g.groups() * kGroupSize);
  std::vector<std::array<double, 3>> original, rebuilt;
  for (std::size_t i = 0; i < a.size(); ++i) original.push_back({a.x[i], a.y[i], a.z[i]});
  double max_offset = 0;
  for (std::size_t b = 0; b < g.groups(); ++b)
    for (std::size_t t = 0; t < kGroupSize; ++t) {
      const std::size_t i = b * kGroupSize + t;
      if (i >= g.atoms) {
        EXPECT_EQ(g.w[i], 0.0);
        continue;
      }
      EXPECT_EQ(g.w[i], 1.0);
      rebuilt.push_back({g.cx[b] + g.dx[i], g.cy[b] + g.dy[i], g.cz[b] + g.dz[i]});
      max_offset = std::max(max_offset, std::sqrt(g.dx[i] * g.dx[i] + g.dy[i] * g.dy[i] + g.dz[i] * g.dz[i]));
    }
  // Sort on positions rounded to 1e-6 Å: c + d differs from r in the last bits.
  auto by_rounded = [](const std::array<double, 3>& l, const std::array<double, 3>& r) {
    for (int d = 0; d < 3; ++d)
      if (std::llround(l[d] * 1e6) != std::llround(r[d] * 1e6)) return std::llround(l[d] * 1e6) < std::llround(r[d] * 1e6);
    return false;
  };
  std::sort(original.begin(), original.end(), by_rounded);
  std::sort(rebuilt.begin(), rebuilt.end(), by_rounded);
  ASSERT_EQ(original.size(), rebuilt.size());
  for (std::size_t i = 0; i < original.size(); ++i)
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(rebuilt[i][d], original[i][d], 1e-12);
  EXPECT_LT(max_offset, 1.5 * std::sqrt(3.0) * 4.078) << "groups are not compact";
}

namespace {

struct KernelCase {
  Precision precision;
  double tolerance;  // max |S − S_ref| / Σ w
};

// Readable test names in CTest (gtest prints parameters with PrintTo).
void PrintTo(const KernelCase& c, std::ostream* os) {
  *os << to_string(c.precision) << ", tolerance " << c.tolerance;
}

}  // namespace

class Pattern2DCpuKernel : public ::testing::TestWithParam<KernelCase> {};

// Two species (1237 and 301 atoms: partial last groups), far off the
// origin (group phases q·c up to ~|q|·1000 Å exercise the float64 group
// reduction), |q| ≤ 8 Å⁻¹. Error measured against Σ w (the sums' scale; S
// itself can be near zero). Tolerances: float64 1e-12 (rounding of the
// polynomial sincos, |q·r| ≤ ~8e3 rad, and of the sums); float32 2e-6: per
// atom the phase q·d (|d| ≲ 15 Å for these sparse random atoms) is good to
// ~6e-8·|q·d| ≲ 1e-5 rad, and those errors add incoherently (observed
// ~2e-7).
TEST_P(Pattern2DCpuKernel, MatchesFloat64Reference) {
  const KernelCase c = GetParam();
  const std::vector<AtomList> lists = {test::random_ball(1237, 30.0, {700, -300, 500}, 1),
                                       test::random_ball(301, 12.0, {690, -310, 480}, 2)};
  const auto q = test::random_q(517, 8.0, 3);
  std::vector<std::complex<double>> ref(lists.size() * q.size()), fast(ref.size());
  phase_sums_reference(lists, q, ref);
  std::vector<AtomGroups> groups;
  for (const auto& l : lists) groups.push_back(make_atom_groups(l));
  phase_sums_cpu(groups, q, fast, c.precision, 2);
  double worst = 0;
  for (std::size_t s = 0; s < lists.size(); ++s)
    for (std::size_t p = 0; p < q.size(); ++p) {
      const double e = std::abs(fast[s * q.size() + p] - ref[s * q.size() + p]) / total_weight(lists[s]);
      worst = std::max(worst, e);
    }
  EXPECT_LE(worst, c.tolerance);
  // q = 0: every phase factor is 1, the sum is Σ w.
  EXPECT_NEAR(fast[0].real(), total_weight(lists[0]), c.tolerance * total_weight(lists[0]));
  std::printf("[ measured ] %s: max |S - S_ref| / sum w = %.3g\n", to_string(c.precision), worst);
}

INSTANTIATE_TEST_SUITE_P(Precisions, Pattern2DCpuKernel,
                         ::testing::Values(KernelCase{Precision::float64, 1e-12}, KernelCase{Precision::float32, 2e-6}),
                         [](const auto& info) { return std::string(to_string(info.param.precision)); });

// The output is accumulated (+=), as for every kernel of the project.
TEST(Pattern2DCpuKernelAccumulates, AddsToOut) {
  const std::vector<AtomList> lists = {test::random_ball(40, 5.0, {0, 0, 0}, 4)};
  const auto q = test::random_q(9, 3.0, 5);
  std::vector<AtomGroups> groups{make_atom_groups(lists[0])};
  std::vector<std::complex<double>> once(q.size()), twice(q.size());
  phase_sums_cpu(groups, q, once, Precision::float64, 1);
  phase_sums_cpu(groups, q, twice, Precision::float64, 1);
  phase_sums_cpu(groups, q, twice, Precision::float64, 1);
  for (std::size_t p = 0; p < q.size(); ++p) EXPECT_NEAR(std::abs(twice[p] - 2.0 * once[p]), 0.0, 1e-12);
}
