// Analysis of fitted structures: model image against a direct DFT, radial
// averages, and g(r) on arrangements with known answers.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>

#include "nanoscatter/rmc.hpp"
#include "rmc/model.hpp"

using namespace nanoscatter;

// s·|Σ A e^{−2πi(kx+ly)/N}|² by the direct double sum, centred: 1e-10
// relative to the largest pixel (FFT against O(N⁴) float64 sums).
TEST(RmcAnalysis, ModelIntensityMatchesDirectDft) {
  const int n = 12;
  const auto occ = rmc::random_tile(n, 40, 3, 0).occupancy();
  const auto img = rmc_model_intensity(occ, std::size_t(n), 2.5);
  double worst = 0, largest = 0;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const int k = (r - n / 2 + n) % n, l = (c - n / 2 + n) % n;
      std::complex<double> f = 0;
      for (int x = 0; x < n; ++x)
        for (int y = 0; y < n; ++y)
          if (occ[std::size_t(x * n + y)]) f += std::polar(1.0, -2 * std::numbers::pi * (k * x + l * y) / n);
      const double want = 2.5 * std::norm(f);
      worst = std::max(worst, std::abs(img[std::size_t(r * n + c)] - want));
      largest = std::max(largest, want);
    }
  EXPECT_LE(worst, 1e-10 * largest);
  EXPECT_NEAR(img[std::size_t((n / 2) * n + n / 2)], 2.5 * 40 * 40, 1e-9);
}

// A constant image averages to the constant in every ring (exactly), with
// the NaN pixels of row 0 left out rather than poisoning their rings.
TEST(RmcAnalysis, RadialAverage) {
  const std::size_t n = 16;
  std::vector<double> img(n * n, 0.0);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) img[r * n + c] = r == 0 ? std::nan("") : 3.0;
  const auto avg = radial_average(img, n);
  ASSERT_EQ(avg.size(), 9u);
  for (double v : avg) EXPECT_DOUBLE_EQ(v, 3.0);
}

// g(r) on the lattice: a fully occupied sublattice of spacing 2 (a square
// superlattice, loading 1/4) has particles at distances 2, 2√2, 4, … only:
// g = 0 at r = 1 and 3 (no site at those rounded distances is occupied) and
// g = 1/ρ·(fraction of ring sites that are occupied) elsewhere — at r = 2 the
// ring holds 4 sites at (±2, 0), (0, ±2) (all occupied) and 8 at (±1, ±2),
// (±2, ±1) (none): g = 4·4/12 = 4/3. A uniformly random arrangement has
// g ≈ 1 within 5% noise per ring at r ≥ 2 (64², loading 0.3).
TEST(RmcAnalysis, PairCorrelationKnownArrangements) {
  const std::size_t n = 16;
  std::vector<std::uint8_t> lattice(n * n, 0);
  for (std::size_t x = 0; x < n; x += 2)
    for (std::size_t y = 0; y < n; y += 2) lattice[x * n + y] = 1;
  const PairCorrelation g = pair_correlation(lattice, n);
  ASSERT_EQ(g.r.size(), 8u);
  EXPECT_NEAR(g.g[0], 0.0, 1e-12);  // r = 1
  EXPECT_NEAR(g.g[1], 4.0 / 3.0, 1e-12);  // r = 2
  EXPECT_NEAR(g.g[2], 1.0, 1e-12);  // r = 3: rings of √8 (occupied) and 3, √10 (not): 4 of 16 sites → 1
  const auto random = rmc::random_tile(64, rmc::particle_count(0.3, 64), 1, 0).occupancy();
  const PairCorrelation gr = pair_correlation(random, 64);
  for (std::size_t b = 1; b < gr.g.size(); ++b) EXPECT_NEAR(gr.g[b], 1.0, 0.05) << "r = " << gr.r[b];
}
