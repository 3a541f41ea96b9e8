// RMC fits of synthetic targets (issue 8 acceptance): a known random
// structure's |FFT|² (beam-stop pixel q = 0 masked) is fitted from a random
// start; the fitted structure must lower χ² by ≥ 99% and reproduce the
// target's radially averaged intensity within 2%. Runs are deterministic
// for a seed and independent of the thread count.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "nanoscatter/rmc.hpp"
#include "rmc/model.hpp"

using namespace nanoscatter;

namespace {

// A random two-phase structure: the union of `blobs` discs of radius R at
// uniformly random centres (periodic), the Boolean model of stochastic
// geometry. Its pattern has the strong low-q and ring features of an
// aggregated particle film, which RMC can find from a random start; a
// structure of independent random sites has a pure speckle pattern, whose
// exact recovery is a phase-retrieval problem on which annealing stalls
// near 90% reduction (measured: N = 16 … 32, 10⁶ moves).
std::vector<std::uint8_t> boolean_model(int n, double radius, int blobs, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> position(0, n);
  std::vector<std::uint8_t> occ(std::size_t(n * n), 0);
  for (int b = 0; b < blobs; ++b) {
    const double cx = position(rng), cy = position(rng);
    for (int x = 0; x < n; ++x)
      for (int y = 0; y < n; ++y) {
        const double dx = std::remainder(x - cx, n), dy = std::remainder(y - cy, n);
        if (dx * dx + dy * dy <= radius * radius) occ[std::size_t(x * n + y)] = 1;
      }
  }
  return occ;
}

RmcTarget target_of(const std::vector<std::uint8_t>& occ, int n) {
  RmcTarget t;
  t.size = std::size_t(n);
  t.intensity = rmc_model_intensity(occ, std::size_t(n));
  t.intensity[std::size_t((n / 2) * n + n / 2)] = std::nan("");  // beam stop
  return t;
}

double loading_of(const std::vector<std::uint8_t>& occ) {
  double s = 0;
  for (auto o : occ) s += o;
  return s / double(occ.size());
}

// ‖⟨I_fit⟩_ring − ⟨P⟩_ring‖₂ / ‖⟨P⟩_ring‖₂ over rings 1 … N/2.
double radial_mismatch(const RmcTarget& target, const RmcTileResult& tile) {
  const std::size_t n = target.size;
  const auto want = radial_average(target.intensity, n);
  const auto got = radial_average(rmc_model_intensity(tile.occupancy, n, tile.scale), n);
  double num = 0, den = 0;
  for (std::size_t b = 1; b < want.size(); ++b) {
    num += (got[b] - want[b]) * (got[b] - want[b]);
    den += want[b] * want[b];
  }
  return std::sqrt(num / den);
}

}  // namespace

// 32² sites, five discs of radius 4 (loading ≈ 0.21), 2 tiles × 10⁶ moves
// with the automatic T0 (acceptance 0.8) and exponential cooling to 1e-3·T0.
// Measured: reduction 99.85% / 99.85%, radial mismatch 0.7% / 0.5%
// (thresholds: the 99% and 2%). Also: every tile keeps its particle
// count, and the χ² trace ends at the exactly recomputed final χ².
TEST(RmcFit, BooleanModelTargetFittedFromRandomStart) {
  const int n = 32;
  const auto truth = boolean_model(n, 4.0, 5, 5);
  const RmcTarget target = target_of(truth, n);
  RmcOptions o;
  o.tiles = 2;
  o.loading = {loading_of(truth)};
  o.steps = 1000000;
  o.seed = 3;
  const RmcResult r = RmcPlan(target, o).execute();
  for (std::size_t t = 0; t < r.tiles.size(); ++t) {
    const RmcTileResult& tile = r.tiles[t];
    const double reduction = 1 - tile.chi2_final / tile.chi2_initial;
    EXPECT_GE(reduction, 0.99) << "tile " << t;
    EXPECT_LE(radial_mismatch(target, tile), 0.02) << "tile " << t;
    std::size_t count = 0;
    for (auto v : tile.occupancy) count += v;
    EXPECT_EQ(count, tile.particles);
    EXPECT_EQ(tile.tried, o.steps);
    // Running float64 sums against a fresh FFT: 1e-9 relative.
    EXPECT_NEAR(r.trace[t].back(), tile.chi2_final, 1e-9 * tile.chi2_final);
    EXPECT_NEAR(rmc_relative_chi2(target, rmc_model_intensity(tile.occupancy, target.size)), tile.chi2_final,
                1e-12);
  }
}

// Starting at the true structure the fit stays there (χ² ≈ 0 within
// float64 round-off, 1e-12): the minimum is where it should be. A quench
// (T = 0) from one displaced particle never raises χ²: the trace is
// non-increasing (it need not find the way back: other downhill moves come
// first and can end in a local minimum).
TEST(RmcFit, TrueStructureIsTheMinimum) {
  const int n = 24;
  const auto truth = boolean_model(n, 3.0, 4, 8);
  const RmcTarget target = target_of(truth, n);
  RmcOptions o;
  o.loading = {loading_of(truth)};
  o.steps = 20000;
  o.temperature = 0.0;
  o.schedule = CoolingSchedule::fixed;
  RmcPlan at_truth(target, o);
  at_truth.set_initial_occupancy({truth});
  EXPECT_LE(at_truth.execute().tiles[0].chi2_final, 1e-12);

  rmc::TileSites near = rmc::tile_from_occupancy(n, truth);
  near.apply_move(5, std::int32_t(near.particles) + 37);
  RmcPlan from_near(target, o);
  from_near.set_initial_occupancy({near.occupancy()});
  const RmcResult r = from_near.execute();
  EXPECT_GT(r.tiles[0].chi2_initial, 1e-4);
  EXPECT_LT(r.tiles[0].chi2_final, r.tiles[0].chi2_initial);
  for (std::size_t p = 1; p < r.trace[0].size(); ++p) EXPECT_LE(r.trace[0][p], r.trace[0][p - 1]) << p;
}

// Deterministic with a seed: two runs agree bit for bit, whatever the
// number of OpenMP threads; another seed gives another result. Per-tile
// loadings give per-tile particle counts. Includes moves restricted to a
// maximum distance (blocked trials counted) and the multi-resolution start.
TEST(RmcFit, DeterministicForSeedAndThreadCount) {
  const int n = 32;
  const RmcTarget target = target_of(boolean_model(n, 3.0, 6, 2), n);
  RmcOptions o;
  o.tiles = 3;
  o.loading = {0.2, 0.25, 0.3};
  o.steps = 20000;
  o.seed = 42;
  o.max_distance = 3;
  o.multires_levels = 1;
  o.multires_steps = 5000;
  o.compute.threads = 1;
  const RmcResult a = RmcPlan(target, o).execute();
  o.compute.threads = 2;
  const RmcResult b = RmcPlan(target, o).execute();
  o.seed = 43;
  const RmcResult c = RmcPlan(target, o).execute();
  for (std::size_t t = 0; t < 3; ++t) {
    EXPECT_EQ(a.tiles[t].occupancy, b.tiles[t].occupancy);
    EXPECT_EQ(a.trace[t], b.trace[t]);
    EXPECT_EQ(a.tiles[t].accepted, b.tiles[t].accepted);
    EXPECT_NE(a.tiles[t].occupancy, c.tiles[t].occupancy);
    EXPECT_EQ(a.tiles[t].particles, std::size_t(std::llround(o.loading[t] * n * n)));
    EXPECT_GT(a.tiles[t].blocked, 0u);
    EXPECT_LT(a.tiles[t].blocked, a.tiles[t].tried);
  }
}

// The multi-resolution start fits the low-q crop first: the full-size
// model starts from a better χ² than a random start does (measured: 0.020
// against 0.988 for this target; the bound 0.7× leaves a wide margin).
TEST(RmcFit, MultiResolutionStartBeatsRandomStart) {
  const int n = 32;
  const RmcTarget target = target_of(boolean_model(n, 4.0, 5, 5), n);
  RmcOptions o;
  o.loading = {loading_of(boolean_model(n, 4.0, 5, 5))};
  o.steps = 1;
  o.temperature = 0.0;
  const double random_start = RmcPlan(target, o).execute().tiles[0].chi2_initial;
  o.multires_levels = 2;
  o.multires_steps = 100000;
  const double grown_start = RmcPlan(target, o).execute().tiles[0].chi2_initial;
  EXPECT_LT(grown_start, 0.7 * random_start) << grown_start << " vs " << random_start;
}
