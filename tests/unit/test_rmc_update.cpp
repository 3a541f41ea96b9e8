// RMC core arithmetic against independent float64 references: the rank-1
// update of F against a full complex FFT (FFTW c2c on the whole plane, not
// the engine's r2c path), and the fast Δχ² of trial moves against χ²
// recomputed by brute force over the full image, with a mask hiding half of
// it (the folding of a masked target onto the half plane is where a mask
// could be dropped).
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <complex>
#include <random>

#include "core/fftw_lock.hpp"
#include "nanoscatter/rmc.hpp"
#include "rmc/chi2.hpp"
#include "rmc/dft_update.hpp"
#include "rmc/model.hpp"
#include "rmc/moves.hpp"
#include "rmc/spectrum.hpp"

using namespace nanoscatter;
using namespace nanoscatter::rmc;

namespace {

// |FFT2(A)|² on the full N×N plane in FFT order, by FFTW's complex transform.
std::vector<std::complex<double>> full_fft(const std::vector<std::uint8_t>& occ, int n) {
  std::vector<std::complex<double>> in(occ.begin(), occ.end()), out(in.size());
  const fftw_plan p = with_fftw_planner([&] {
    return fftw_plan_dft_2d(n, n, reinterpret_cast<fftw_complex*>(in.data()),
                            reinterpret_cast<fftw_complex*>(out.data()), FFTW_FORWARD, FFTW_ESTIMATE);
  });
  fftw_execute(p);
  with_fftw_planner([&] { fftw_destroy_plan(p); });
  return out;
}

// χ²_rel = min_s Σ_unmasked (P − s I)² / Σ P², straight from the definition.
double brute_chi2(const RmcTarget& target, const std::vector<std::uint8_t>& occ) {
  const int n = int(target.size);
  const auto f = full_fft(occ, n);
  double s_pi = 0, s_ii = 0, s_pp = 0;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const double p = target.intensity[std::size_t(r * n + c)];
      if (std::isnan(p)) continue;
      // Centred pixel (r, c) has frequency ((r − N/2) mod N, (c − N/2) mod N).
      const double i = std::norm(f[std::size_t(((r - n / 2 + n) % n) * n + (c - n / 2 + n) % n)]);
      s_pi += p * i;
      s_ii += i * i;
      s_pp += p * p;
    }
  const double s = s_pi / s_ii;
  double chi = 0;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const double p = target.intensity[std::size_t(r * n + c)];
      if (std::isnan(p)) continue;
      const double i = std::norm(f[std::size_t(((r - n / 2 + n) % n) * n + (c - n / 2 + n) % n)]);
      chi += (p - s * i) * (p - s * i);
    }
  return chi / s_pp;
}

// A target from another random structure plus noise, left half masked.
RmcTarget half_masked_target(int n, std::uint64_t seed) {
  const TileSites other = random_tile(n, std::uint32_t(0.2 * n * n), seed, 7);
  const auto f = full_fft(other.occupancy(), n);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> noise(0.8, 1.2);
  RmcTarget t;
  t.size = std::size_t(n);
  t.intensity.resize(std::size_t(n * n));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      t.intensity[std::size_t(r * n + c)] =
          c < n / 2 ? std::nan("") : std::norm(f[std::size_t(((r - n / 2 + n) % n) * n + (c - n / 2 + n) % n)]) * noise(rng);
  return t;
}

}  // namespace

// 1000 random accepted moves through the rank-1 update (float64) against a
// fresh full FFT of the final occupancy: the bound 1e-9 relative to
// the largest |F| (= n at q = 0); the update's rounding grows like
// √moves·ε·|ΔF| (measured 2e-16), so 1e-9 is a loose, safe bound — a wrong
// phase or sign gives O(1). Odd and even N (the half plane's last column differs).
TEST(RmcUpdate, RankOneUpdateMatchesFullFftAfter1000Moves) {
  for (const int n : {32, 33, 64}) {
    TileSites tile = random_tile(n, std::uint32_t(0.3 * n * n), 11, 0);
    const auto tw = twiddles(n);
    CpuSpectrum f;
    f.plane = HalfPlane(n);
    f.assign(exact_spectrum(tile.occupancy(), n));
    MoveFactors factors;
    for (std::uint64_t m = 0; m < 1000; ++m) {
      const MoveProposal p = propose_move(tile.sites.data(), tile.slot.data(), tile.particles, tile.site_count(), n,
                                          nullptr, 0, rmc_random(3, 0, RngStream::moves, m));
      ASSERT_TRUE(p.valid);
      factors.prepare(tw, n, p.from, p.to);
      apply_move_cpu(f, tw, factors);
      tile.apply_move(p.i, p.j);
    }
    const auto full = full_fft(tile.occupancy(), n);
    const auto half = f.to_complex();
    double worst = 0, scale = 0;
    for (int k = 0; k < n; ++k)
      for (int l = 0; l < n; ++l) {
        // Columns l > N/2 are conjugates of the half plane's −q.
        const std::complex<double> v = l <= n / 2 ? half[std::size_t(k * (n / 2 + 1) + l)]
                                                  : std::conj(half[std::size_t(((n - k) % n) * (n / 2 + 1) + n - l)]);
        worst = std::max(worst, std::abs(v - full[std::size_t(k * n + l)]));
        scale = std::max(scale, std::abs(full[std::size_t(k * n + l)]));
      }
    EXPECT_LE(worst / scale, 1e-9) << "N = " << n;
    std::printf("N = %d: max |F_rank1 − F_fft| / max |F| = %.1e after 1000 moves\n", n, worst / scale);
    EXPECT_GT(scale, 0.0);
  }
}

// The float64 ΔF of one move (spectrum.hpp) equals FFT(A') − FFT(A) to
// 1e-12 of |ΔF| ≤ 2 (both are float64 sums of unit phases).
TEST(RmcUpdate, MoveDeltaIsTheDifferenceOfTwoTransforms) {
  const int n = 24;
  TileSites tile = random_tile(n, 100, 5, 0);
  const auto before = exact_spectrum(tile.occupancy(), n);
  const std::int32_t from = tile.sites[3], to = tile.sites[200];
  tile.apply_move(3, 200);
  const auto after = exact_spectrum(tile.occupancy(), n);
  const auto d = move_delta(twiddles(n), from / n, from % n, to / n, to % n);
  for (std::size_t h = 0; h < d.size(); ++h) ASSERT_NEAR(std::abs(after[h] - before[h] - d[h]), 0.0, 1e-12) << h;
}

// The folded sums give the brute-force χ² of the half-masked image
// (float64 sums in another order: 1e-12 relative).
TEST(RmcUpdate, FoldedChiSumsEqualBruteForceWithHalfMask) {
  for (const int n : {16, 17}) {
    const RmcTarget target = half_masked_target(n, 2);
    const FoldedTarget folded = fold_target(target);
    const TileSites tile = random_tile(n, std::uint32_t(0.3 * n * n), 9, 1);
    const ChiSums s = chi_sums(folded, exact_spectrum(tile.occupancy(), n));
    const double fast = relative_chi2(s.s_pi, s.s_ii, folded.s_pp);
    const double brute = brute_chi2(target, tile.occupancy());
    EXPECT_NEAR(fast, brute, 1e-12 * brute) << "N = " << n;
    EXPECT_NEAR(rmc_relative_chi2(target, rmc_model_intensity(tile.occupancy(), std::size_t(n))), brute, 1e-12 * brute);
  }
}

// Fast Δχ² (one read of F and the folded target, nothing written) against
// the brute-force χ² after minus before, for 200 trial moves on a
// half-masked target. Float64 throughout; the difference of two χ² values
// of size ~1 loses ~1e-15 absolute, so 1e-11 absolute is safe (measured
// 3e-16) against moves that change χ² by up to ~2e-4.
TEST(RmcUpdate, FastDeltaChi2EqualsRecomputedDifference) {
  const int n = 32;
  const RmcTarget target = half_masked_target(n, 4);
  const FoldedTarget folded = fold_target(target);
  TileSites tile = random_tile(n, 300, 21, 0);
  const auto tw = twiddles(n);
  CpuSpectrum f;
  f.plane = HalfPlane(n);
  f.assign(exact_spectrum(tile.occupancy(), n));
  ChiSums sums = chi_sums(folded, f.to_complex());
  MoveFactors factors;
  double worst = 0, largest = 0;
  for (std::uint64_t m = 0; m < 200; ++m) {
    const MoveProposal p = propose_move(tile.sites.data(), tile.slot.data(), tile.particles, tile.site_count(), n,
                                        nullptr, 0, rmc_random(8, 0, RngStream::moves, m));
    factors.prepare(tw, n, p.from, p.to);
    const ChiSums d = delta_sums_cpu(f, folded, tw, factors);
    const double fast = relative_chi2(sums.s_pi + d.s_pi, sums.s_ii + d.s_ii, folded.s_pp) -
                        relative_chi2(sums.s_pi, sums.s_ii, folded.s_pp);
    const double before = brute_chi2(target, tile.occupancy());
    TileSites moved = tile;
    moved.apply_move(p.i, p.j);
    const double after = brute_chi2(target, moved.occupancy());
    worst = std::max(worst, std::abs(fast - (after - before)));
    largest = std::max(largest, std::abs(after - before));
    // Walk on: accept every other move so that F keeps changing.
    if (m % 2 == 0) {
      apply_move_cpu(f, tw, factors);
      tile = moved;
      sums = {sums.s_pi + d.s_pi, sums.s_ii + d.s_ii};
    }
  }
  EXPECT_LE(worst, 1e-11);
  EXPECT_GT(largest, 1e-6);
  std::printf("max |Δχ²_fast − Δχ²_brute| = %.1e (largest |Δχ²| %.1e)\n", worst, largest);  // the moves did change χ²
}
