// The powder model on the GPU. (1) Its pair sums (bin_sinc_sums_cuda: every
// species pair's kept histogram bins in one launch) against the CPU sums of
// the same drawn bins: the same float64 Taylor terms summed in another
// order, ≤ 1e-12 of the largest |sum|. (2) The whole model and pattern
// (instrument included) against the CPU's, on drawn particles, lattice
// expansions and grids: the GPU's pair histogram is the CPU's within its
// documented bound (docs/debye.md: 1e-4 of I where I > 1e-3 max I), so the
// patterns are held to that. Skips (not fails) where no CUDA device exists.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "debye/histogram_intensity.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/device.hpp"
#include "nanoscatter/powder_model.hpp"
#include "property_seed.hpp"
#include "debye_property_cases.hpp"

using namespace nanoscatter;

namespace {

DebyeOptions on(Device device) {
  DebyeOptions o;
  o.compute.device = device;
  o.compute.quiet = true;
  return o;
}

constexpr double kHistogramModeBound = 1e-4;  // docs/debye.md, where I > kIntensityFloor · max I
constexpr double kIntensityFloor = 1e-3;

}  // namespace

TEST(PowderGpu, BinSumsMatchCpuOnDrawnBins) {
#if !NANOSCATTER_HAVE_CUDA
  GTEST_SKIP() << "built without CUDA";
#else
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  for (int k = 0; k < test::property_cases(6); ++k) {
    const auto seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<debye::BinArrays> arrays(1 + std::size_t(3 * u(rng)));
    for (auto& a : arrays) {
      const int bins = 1 + int(20000 * u(rng));
      for (int b = 0; b < bins; ++b) {
        a.r.push_back(0.5 + 200 * u(rng)), a.n.push_back(1 + 1e4 * u(rng));
        a.m1.push_back(1e-4 * (u(rng) - 0.5) * a.n.back()), a.m2.push_back(2.5e-7 * u(rng) * a.n.back());
      }
    }
    std::vector<double> q;
    const int n = 1 + int(4000 * u(rng));
    for (int i = 0; i < n; ++i) q.push_back(25 * u(rng));
    std::vector<const debye::BinArrays*> ptrs;
    for (const auto& a : arrays) ptrs.push_back(&a);
    std::vector<std::vector<double>> gpu(arrays.size(), std::vector<double>(q.size(), 0.0));
    debye::bin_sinc_sums_cuda(ptrs, q, gpu);
    for (std::size_t h = 0; h < arrays.size(); ++h) {
      std::vector<double> cpu(q.size(), 0.0);
      debye::bin_sinc_sums(arrays[h], q, cpu);
      double hi = 0, worst = 0;
      for (double v : cpu) hi = std::max(hi, std::abs(v));
      for (std::size_t i = 0; i < q.size(); ++i) worst = std::max(worst, std::abs(gpu[h][i] - cpu[i]));
      EXPECT_LE(worst, 1e-12 * hi) << "histogram " << h << " of " << arrays.size() << ", " << arrays[h].r.size()
                                   << " bins, " << q.size() << " Q";
    }
  }
#endif
}

TEST(PowderGpu, ModelAndPatternWithinTheHistogramModeBoundOfCpu) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  for (int k = 0; k < test::property_cases(6); ++k) {
    const auto seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    LatticeOptions l;
    l.type = u(rng) < 0.5 ? LatticeType::rocksalt : LatticeType::fcc;
    l.a = 3.5 + 1.2 * u(rng);
    l.elements = l.type == LatticeType::rocksalt ? std::vector<std::string>{"Co", "O"} : std::vector<std::string>{"Ni"};
    const double radius = 8 + 12 * u(rng);
    const Structure s = cut_crystal(make_lattice(l), Sphere{radius});
    const PowderModel cpu(s, on(Device::cpu)), gpu(s, on(Device::gpu));
    PowderParameters p = cpu.default_parameters();
    p.lattice_expansion = 0.02 * (u(rng) - 0.5);
    for (double& b : p.b) b = 0.2 + u(rng);
    std::vector<double> q;
    const double qmin = 0.5 * u(rng), qmax = 4 + 8 * u(rng);
    const int n = 200 + int(2000 * u(rng));
    for (int i = 0; i < n; ++i) q.push_back(qmin + (qmax - qmin) * i / (n - 1));
    const double e = test::max_rel_where_above(gpu.intensity(p, q), cpu.intensity(p, q), kIntensityFloor);
    std::printf("case %d: %zu atoms, %d Q in [%.2f, %.2f], eps %.4f: GPU vs CPU %.2e\n", k, s.atoms.size(), n, qmin,
                qmax, p.lattice_expansion, e);
    EXPECT_LE(e, kHistogramModeBound);

    PowderInstrument in;
    in.wavelength2 = 1.544390;
    InstrumentParameters ip;
    ip.u = 0.01 * u(rng), ip.w = 0.002 + 0.01 * u(rng), ip.eta = u(rng), ip.background = {1.0, -0.2};
    std::vector<double> two_theta;
    for (int i = 0; i <= 600; ++i) two_theta.push_back(20 + 0.1 * i);
    PowderPattern pc(cpu, in, two_theta), pg(gpu, in, two_theta);
    const double ep = test::max_rel_where_above(pg.evaluate(p, ip), pc.evaluate(p, ip), kIntensityFloor);
    EXPECT_LE(ep, kHistogramModeBound) << "whole pattern";
  }
}
