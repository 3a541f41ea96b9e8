// RMC building blocks: the Philox generator (Random123 known answers), the
// site-permutation bookkeeping, move proposals and their offsets, the
// multi-resolution growth, temperature schedules and the automatic T0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "nanoscatter/error.hpp"
#include "rmc/model.hpp"
#include "rmc/moves.hpp"
#include "rmc/philox.hpp"
#include "rmc/schedule.hpp"

using namespace nanoscatter;
using namespace nanoscatter::rmc;

// Random123 tests/kat_vectors, the three "philox4x32 10" lines
// (counter[4] key[2] → output[4]); exact.
TEST(RmcModel, PhiloxKnownAnswers) {
  struct Kat {
    Philox4 counter;
    std::uint32_t k0, k1;
    Philox4 expected;
  };
  const Kat kats[] = {
      {{{0, 0, 0, 0}}, 0, 0, {{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}}},
      {{{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}}, 0xffffffff, 0xffffffff,
       {{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}}},
      {{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}}, 0xa4093822, 0x299f31d0,
       {{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}}},
  };
  for (const Kat& k : kats) {
    const Philox4 out = philox4x32_10(k.counter, k.k0, k.k1);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out.v[i], k.expected.v[i]) << i;
  }
}

// Draw helpers: ranges are exact; uniform_below's histogram over 10⁵ draws
// into 7 bins is flat within 5σ of the binomial noise.
TEST(RmcModel, UniformDraws) {
  EXPECT_EQ(uniform_below(0xffffffffu, 10), 9u);
  EXPECT_EQ(uniform_below(0, 10), 0u);
  EXPECT_EQ(uniform01(0, 0), 0.0);
  EXPECT_LT(uniform01(0xffffffffu, 0xffffffffu), 1.0);
  std::vector<int> counts(7, 0);
  const int draws = 100000;
  for (int i = 0; i < draws; ++i) ++counts[uniform_below(rmc_random(1, 0, RngStream::moves, std::uint64_t(i)).v[0], 7)];
  const double mean = draws / 7.0, sigma = std::sqrt(draws * (1.0 / 7) * (6.0 / 7));
  for (int c : counts) EXPECT_NEAR(c, mean, 5 * sigma);
}

TEST(RmcModel, RandomTileIsAPermutationWithInverse) {
  const TileSites t = random_tile(20, 120, 7, 3);
  ASSERT_EQ(t.sites.size(), 400u);
  std::set<int> seen(t.sites.begin(), t.sites.end());
  EXPECT_EQ(seen.size(), 400u);
  for (std::size_t i = 0; i < 400; ++i) EXPECT_EQ(t.slot[std::size_t(t.sites[i])], int(i));
  const auto occ = t.occupancy();
  EXPECT_EQ(std::count(occ.begin(), occ.end(), 1), 120);
  // Same (seed, tile): same placement; another tile: another one.
  EXPECT_EQ(random_tile(20, 120, 7, 3).sites, t.sites);
  EXPECT_NE(random_tile(20, 120, 7, 4).occupancy(), occ);
}

TEST(RmcModel, MovesKeepTheInvariants) {
  TileSites t = random_tile(16, 50, 1, 0);
  for (std::uint64_t m = 0; m < 500; ++m) {
    const MoveProposal p = propose_move(t.sites.data(), t.slot.data(), t.particles, t.site_count(), t.size, nullptr,
                                        0, rmc_random(1, 0, RngStream::moves, m));
    ASSERT_TRUE(p.valid);
    ASSERT_TRUE(t.occupied(p.from));
    ASSERT_FALSE(t.occupied(p.to));
    t.apply_move(p.i, p.j);
    ASSERT_TRUE(t.occupied(p.to));
    ASSERT_FALSE(t.occupied(p.from));
  }
  for (std::size_t i = 0; i < t.sites.size(); ++i) EXPECT_EQ(t.slot[std::size_t(t.sites[i])], int(i));
  const auto occ = t.occupancy();
  EXPECT_EQ(std::count(occ.begin(), occ.end(), 1), 50);
  EXPECT_EQ(tile_from_occupancy(16, occ).occupancy(), occ);
}

// Offsets within d = 2: the 12 lattice vectors with 0 < |v|² ≤ 4, closed
// under v → −v (symmetric proposals). Proposals with them go at most d
// (minimum image) and are blocked exactly when the target is occupied.
TEST(RmcModel, MaxDistanceOffsetsAndProposals) {
  const auto off = move_offsets(2.0, 32);
  ASSERT_EQ(off.size(), 24u);
  std::set<std::pair<int, int>> vecs;
  for (std::size_t i = 0; i < off.size(); i += 2) vecs.insert({off[i], off[i + 1]});
  for (const auto& [dx, dy] : vecs) {
    EXPECT_TRUE(vecs.count({-dx, -dy}));
    EXPECT_LE(dx * dx + dy * dy, 4);
  }
  EXPECT_TRUE(move_offsets(0, 32).empty());
  const int n = 12;
  TileSites t = random_tile(n, 60, 2, 0);
  int blocked = 0;
  for (std::uint64_t m = 0; m < 400; ++m) {
    const MoveProposal p = propose_move(t.sites.data(), t.slot.data(), t.particles, t.site_count(), n, off.data(),
                                        std::uint32_t(off.size() / 2), rmc_random(4, 0, RngStream::moves, m));
    const int dx = std::abs(p.to / n - p.from / n), dy = std::abs(p.to % n - p.from % n);
    const int ex = std::min(dx, n - dx), ey = std::min(dy, n - dy);
    EXPECT_LE(ex * ex + ey * ey, 4);
    EXPECT_EQ(p.valid, !t.occupied(p.to));
    if (p.valid)
      t.apply_move(p.i, p.j);
    else
      ++blocked;
  }
  EXPECT_GT(blocked, 0);
}

// Growing keeps the particle count; a coarse occupancy of whole 2×2-block
// structure (a checkerboard of 4×4 fine blocks) grows into fine sites whose
// 2×2 block sums follow the coarse occupancy where the interpolation is
// unambiguous (block interiors of the coarse pattern).
TEST(RmcModel, GrowOccupancyKeepsLoading) {
  const int nc = 8;
  std::vector<std::uint8_t> coarse(std::size_t(nc * nc));
  for (int x = 0; x < nc; ++x)
    for (int y = 0; y < nc; ++y) coarse[std::size_t(x * nc + y)] = ((x / 2 + y / 2) % 2) ? 1 : 0;
  const std::uint32_t particles = 128;  // half of 16², the coarse loading
  const auto fine = grow_occupancy(coarse, nc, particles, 1, 0);
  ASSERT_EQ(fine.size(), 256u);
  EXPECT_EQ(std::count(fine.begin(), fine.end(), 1), 128);
  // Coarse blocks (2×2 coarse sites) map to 4×4 fine blocks; their 2×2 centres
  // lie away from every boundary and must follow the coarse value.
  for (int bx = 0; bx < nc / 2; ++bx)
    for (int by = 0; by < nc / 2; ++by)
      for (int i = 1; i < 3; ++i)
        for (int j = 1; j < 3; ++j)
          EXPECT_EQ(fine[std::size_t((4 * bx + i) * 16 + 4 * by + j)], coarse[std::size_t((2 * bx) * nc + 2 * by)]);
  EXPECT_EQ(grow_occupancy(coarse, nc, 100, 1, 0).size(), 256u);
}

TEST(RmcModel, ParticleCountChecksTheLoading) {
  EXPECT_EQ(particle_count(0.3, 10), 30u);
  EXPECT_EQ(particle_count(0.25, 64), 1024u);
  for (double bad : {0.0, 1.0, -0.1, 1.5, std::nan("")}) {
    try {
      particle_count(bad, 32);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.where().field, "loading");
    }
  }
  EXPECT_THROW(particle_count(0.001, 8), Error);  // rounds to no particle
}

// Schedules: exact endpoints (T0 and T0·r at the last move) and the
// shapes in between (geometric and arithmetic midpoints), 1e-15 relative.
TEST(RmcModel, TemperatureSchedules) {
  const std::uint64_t total = 101;
  EXPECT_EQ(temperature_at(kScheduleFixed, 2.0, 1e-3, 77, total), 2.0);
  EXPECT_NEAR(temperature_at(kScheduleExponential, 2.0, 1e-2, 0, total), 2.0, 1e-15);
  EXPECT_NEAR(temperature_at(kScheduleExponential, 2.0, 1e-2, 100, total), 2e-2, 1e-16);
  EXPECT_NEAR(temperature_at(kScheduleExponential, 2.0, 1e-2, 50, total), 0.2, 1e-15);
  EXPECT_NEAR(temperature_at(kScheduleLinear, 2.0, 0.0, 50, total), 1.0, 1e-15);
  EXPECT_NEAR(temperature_at(kScheduleLinear, 2.0, 0.0, 100, total), 0.0, 1e-15);
  EXPECT_EQ(temperature_at(kScheduleExponential, 0.0, 1e-3, 5, total), 0.0);
}

// Metropolis: downhill always, uphill with probability exp(−Δ/T), never
// at T = 0.
TEST(RmcModel, MetropolisRule) {
  EXPECT_TRUE(metropolis_accept(-1e-9, 0.0, 0.999));
  EXPECT_FALSE(metropolis_accept(0.0, 0.0, 0.0));
  EXPECT_TRUE(metropolis_accept(1.0, 1.0, std::exp(-1.0) - 1e-12));
  EXPECT_FALSE(metropolis_accept(1.0, 1.0, std::exp(-1.0) + 1e-12));
}

// The automatic T0 reproduces the requested expected acceptance (1e-9),
// ignores blocked trials (NaN), and is 0 when downhill trials alone reach it.
TEST(RmcModel, InitialTemperatureHitsTheAcceptance) {
  std::vector<double> deltas;
  for (int i = 0; i < 100; ++i) deltas.push_back(i < 30 ? -0.01 * (i + 1) : 1e-4 * (i - 29));
  deltas.push_back(std::nan(""));
  const double t0 = initial_temperature(deltas, 0.8);
  double expected = 30;
  for (int i = 30; i < 100; ++i) expected += std::exp(-1e-4 * (i - 29) / t0);
  EXPECT_NEAR(expected / 100, 0.8, 1e-9);
  EXPECT_EQ(initial_temperature(deltas, 0.25), 0.0);
  EXPECT_EQ(initial_temperature({-1.0, -2.0}, 0.8), 0.0);
}
