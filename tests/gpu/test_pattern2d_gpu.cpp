// CUDA pattern2d: kernels against the float64 reference, memory-budget
// chunking, and whole patterns (≥ 10⁴ atoms, ≥ 10⁵ pixels) against the
// float64 CPU path. Skips (not fails) where no CUDA device exists.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/device.hpp"
#include "nanoscatter/pattern2d.hpp"
#include "pattern2d/phase_sums.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

namespace {

Structure sphere(LatticeType type, double a, std::vector<std::string> elements, double radius) {
  LatticeOptions lattice;
  lattice.type = type;
  lattice.a = a;
  lattice.elements = std::move(elements);
  return cut_crystal(make_lattice(lattice), Sphere{radius});
}

Pattern2DGeometry polar(double wavelength, double qmax, int nq, int nphi) {
  Pattern2DGeometry g;
  g.wavelength = wavelength;
  g.detector = PolarDetector{qmax, nq, nphi};
  return g;
}

}  // namespace

// (d) The acceptance case: a gold sphere of 10,5xx atoms (R = 35 Å)
// in a general orientation, 320 × 360 = 115,200 polar pixels on the Ewald
// sphere (λ = 1 Å, |q| ≤ 5 Å⁻¹). GPU float32 against the CPU float64 path
// (itself checked against the textbook float64 sums in the physics tests):
// max relative error ≤ 1e-5 where I > 1e-3 max I. GPU float64: 1e-10
// (only summation order differs).
TEST(Pattern2DGpu, GoldSphereMatchesCpuFloat64) {
  SKIP_WITHOUT_GPU();
  const Structure particle = sphere(LatticeType::fcc, 4.078, {"Au"}, 35.0);
  ASSERT_GE(particle.atoms.size(), 10000u);
  auto g = polar(1.0, 5.0, 320, 360);
  g.orientation = rotation_zyz_degrees(10, 20, 30);
  Pattern2DOptions cpu;
  const auto reference = Pattern2DPlan(particle, cpu).execute(g);
  ASSERT_GE(reference.intensity.size(), 100000u);
  for (const Precision precision : {Precision::float32, Precision::float64}) {
    Pattern2DOptions gpu;
    gpu.compute.device = Device::gpu;
    gpu.compute.precision = precision;
    const auto r = Pattern2DPlan(particle, gpu).execute(g);
    const double err = test::max_rel_error(r.intensity, reference.intensity, 1e-3);
    EXPECT_LE(err, precision == Precision::float32 ? 1e-5 : 1e-10);
    std::printf("[ measured ] Au %zu atoms x %zu pixels, GPU %s vs CPU float64: max rel error %.3g (%.3f s)\n",
                particle.atoms.size(), r.intensity.size(), to_string(precision), err, r.seconds);
  }
}

// Two species with complex factors (anomalous X-rays above the Co K edge),
// partial occupancy and B, a particle 500 Å off the origin (group phases
// q·c ~ 10³ rad test the float64 group reduction), flat detector. Same
// tolerances as above.
TEST(Pattern2DGpu, CoOAnomalousOffOriginMatchesCpuFloat64) {
  SKIP_WITHOUT_GPU();
  Structure particle = sphere(LatticeType::rocksalt, 4.26, {"Co", "O"}, 32.0);
  ASSERT_GE(particle.atoms.size(), 10000u);
  for (auto& atom : particle.atoms) {
    atom.position += Vec3{300, -200, 350};
    if (atom.element == "O") atom.occupancy = 0.9, atom.b_iso = 0.8;
  }
  Pattern2DGeometry g;
  g.wavelength = 1.6;
  g.detector = FlatDetector{60.0, 0.25, 400, 300, std::array<double, 2>{180.0, 160.0}};
  g.orientation = rotation_zyz_degrees(-40, 70, 15);
  Pattern2DOptions cpu;
  cpu.factors.energy_kev = photon_energy_kev(g.wavelength);
  const auto reference = Pattern2DPlan(particle, cpu).execute(g);
  for (const Precision precision : {Precision::float32, Precision::float64}) {
    Pattern2DOptions gpu = cpu;
    gpu.compute.device = Device::gpu;
    gpu.compute.precision = precision;
    const auto r = Pattern2DPlan(particle, gpu).execute(g);
    const double err = test::max_rel_error(r.intensity, reference.intensity, 1e-3);
    EXPECT_LE(err, precision == Precision::float32 ? 1e-5 : 1e-10);
    std::printf("[ measured ] CoO %zu atoms x %zu pixels (anomalous, off origin), GPU %s: max rel error %.3g\n",
                particle.atoms.size(), r.intensity.size(), to_string(precision), err);
  }
}

#if !NANOSCATTER_HAVE_CUDA
TEST(Pattern2DCudaKernel, NotBuilt) { GTEST_SKIP() << "built without CUDA"; }
#else
using namespace nanoscatter::pattern2d;

namespace {

struct KernelCase {
  Precision precision;
  std::size_t budget;  // bytes, 0 = default
  double tolerance;    // max |S − S_ref| / Σ w
};

// Readable test names in CTest (gtest prints parameters with PrintTo).
void PrintTo(const KernelCase& c, std::ostream* os) {
  *os << to_string(c.precision) << ", budget " << c.budget << " B, tolerance " << c.tolerance;
}

}  // namespace

class Pattern2DCudaKernel : public ::testing::TestWithParam<KernelCase> {};

// Random atoms (two species, 2,345 and 1,001 atoms: partial groups and
// tiles), 3,001 random q (partial pixel blocks), particle off the origin.
// Budgets: default (everything resident) and 64 KiB (atoms streamed in
// chunks of groups, pixels in chunks). Tolerances against Σ w: float64 1e-11
// (summation order, float64 sincos); float32 2e-6 (per-atom phases ~1e-6
// rad adding incoherently, __sincosf ~4e-7; observed on the CPU twin
// ~2e-7).
TEST_P(Pattern2DCudaKernel, MatchesFloat64Reference) {
  SKIP_WITHOUT_GPU();
  const KernelCase c = GetParam();
  const std::vector<AtomList> lists = {test::random_ball(2345, 30.0, {400, 250, -600}, 11),
                                       test::random_ball(1001, 20.0, {405, 240, -590}, 12)};
  const auto q = test::random_q(3001, 9.0, 13);
  std::vector<std::complex<double>> ref(lists.size() * q.size()), gpu(ref.size());
  phase_sums_reference(lists, q, ref);
  std::vector<AtomGroups> groups;
  for (const auto& l : lists) groups.push_back(make_atom_groups(l));
  CudaPattern2DOptions options;
  options.precision = c.precision;
  options.max_device_memory = c.budget;
  phase_sums_cuda(groups, q, gpu, options);
  double worst = 0;
  for (std::size_t s = 0; s < lists.size(); ++s) {
    double sum_w = 0;
    for (double w : lists[s].w) sum_w += w;
    for (std::size_t p = 0; p < q.size(); ++p)
      worst = std::max(worst, std::abs(gpu[s * q.size() + p] - ref[s * q.size() + p]) / sum_w);
  }
  EXPECT_LE(worst, c.tolerance);
  std::printf("[ measured ] CUDA %s, budget %zu: max |S - S_ref| / sum w = %.3g\n", to_string(c.precision),
              c.budget, worst);
}

INSTANTIATE_TEST_SUITE_P(Cases, Pattern2DCudaKernel,
                         ::testing::Values(KernelCase{Precision::float32, 0, 2e-6},
                                           KernelCase{Precision::float64, 0, 1e-11},
                                           KernelCase{Precision::float32, 64 << 10, 2e-6},
                                           KernelCase{Precision::float64, 64 << 10, 1e-11}),
                         [](const auto& info) {
                           return std::string(to_string(info.param.precision)) +
                                  (info.param.budget ? "_small_budget" : "_default_budget");
                         });

// A budget too small for one tile of atoms and one block of pixels is an
// error, not a hang or a silent truncation.
TEST(Pattern2DCudaKernelBudget, TooSmallIsAnError) {
  SKIP_WITHOUT_GPU();
  const std::vector<AtomList> lists = {test::random_ball(100, 5.0, {0, 0, 0}, 1)};
  std::vector<AtomGroups> groups{make_atom_groups(lists[0])};
  const auto q = test::random_q(10, 1.0, 2);
  std::vector<std::complex<double>> out(q.size());
  CudaPattern2DOptions options;
  options.max_device_memory = 1024;
  EXPECT_THROW(phase_sums_cuda(groups, q, out, options), Error);
}
#endif
