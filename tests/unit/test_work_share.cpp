// Work shares (MPI runs, docs/mpi.md) without MPI: the parts every engine
// computes for a WorkShare must add up to (debye) or tile (images, tiles,
// polarisations) the whole computed in one piece. These are the engine-side
// oracles of tests/mpi, which check the same through mpirun.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "nanoscatter/dda.hpp"
#include "nanoscatter/debye.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/parallel.hpp"
#include "nanoscatter/pattern2d.hpp"
#include "nanoscatter/rmc.hpp"
#include "nanoscatter/work_share.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

// A two-species particle: random sites in a ball, Co and O alternating,
// partial occupancies and B factors so that every term of the Debye sum is
// exercised.
Structure two_species_ball(std::size_t n) {
  const AtomSoA soa = test::random_ball(n, 12.0, {0, 0, 0}, 11);
  Structure s;
  for (std::size_t i = 0; i < n; ++i) {
    Atom a;
    a.element = i % 2 ? "O" : "Co";
    a.position = {soa.x[i], soa.y[i], soa.z[i]};
    a.occupancy = soa.w[i];
    a.b_iso = i % 2 ? 0.6 : 0.3;
    s.atoms.push_back(a);
  }
  return s;
}

}  // namespace

TEST(WorkShare, RangesTileTheItems) {
  for (std::size_t n : {0u, 1u, 5u, 7u, 64u, 1001u})
    for (int parts : {1, 2, 3, 4, 7}) {
      std::size_t next = 0, longest = 0, shortest = n + 1;
      for (int k = 0; k < parts; ++k) {
        const auto [b, e] = WorkShare{k, parts}.range(n);
        EXPECT_EQ(b, next) << n << " items, part " << k << " of " << parts;
        next = e;
        longest = std::max(longest, e - b);
        shortest = std::min(shortest, e - b);
      }
      EXPECT_EQ(next, n);
      EXPECT_LE(longest - shortest, 1u);
    }
  EXPECT_THROW(validate_work_share({2, 2}), Error);
  EXPECT_THROW(validate_work_share({0, 0}), Error);
  EXPECT_NO_THROW(validate_work_share({1, 2}));
}

TEST(WorkShare, DealByCostIsWithinGrahamsBound) {
  // Brute force over all 3^8 assignments gives the optimal makespan; LPT
  // must stay within 4/3 − 1/(3m) of it (Graham 1969) and be deterministic.
  const std::vector<double> cost{7, 7, 6, 6, 5, 4, 4, 3};
  const int parts = 3;
  const auto owner = deal_by_cost(cost, parts);
  EXPECT_EQ(owner, deal_by_cost(cost, parts));
  std::vector<double> load(parts, 0);
  for (std::size_t i = 0; i < cost.size(); ++i) load[std::size_t(owner[i])] += cost[i];
  const double lpt = *std::max_element(load.begin(), load.end());
  double best = 1e300;
  std::vector<int> a(cost.size(), 0);
  for (int code = 0; code < 6561; ++code) {
    std::vector<double> l(parts, 0);
    for (std::size_t i = 0, c = std::size_t(code); i < cost.size(); ++i, c /= 3) l[c % 3] += cost[i];
    best = std::min(best, *std::max_element(l.begin(), l.end()));
  }
  EXPECT_EQ(best, 14.0);
  EXPECT_LE(lpt, (4.0 / 3 - 1.0 / 9) * best);
  EXPECT_EQ(deal_by_cost(cost, 1), std::vector<int>(cost.size(), 0));
}

TEST(WorkShare, ByteWriterRoundTrip) {
  parallel::ByteWriter w;
  w.put(3.5);
  w.put_vector(std::vector<std::uint8_t>{1, 2, 3});
  w.put_vector(std::vector<double>{});
  w.put<int>(-7);
  parallel::ByteReader r(w.bytes());
  EXPECT_EQ(r.get<double>(), 3.5);
  EXPECT_EQ(r.get_vector<std::uint8_t>(), (std::vector<std::uint8_t>{1, 2, 3}));
  EXPECT_TRUE(r.get_vector<double>().empty());
  EXPECT_EQ(r.get<int>(), -7);
  EXPECT_TRUE(r.done());
  EXPECT_THROW(r.get<int>(), Error);
}

TEST(WorkShare, SingleRankCommunicatorIsTheIdentity) {
  const parallel::Communicator comm;
  EXPECT_EQ(comm.size(), 1);
  EXPECT_TRUE(comm.root());
  std::vector<double> v{1, 2};
  comm.sum_in_rank_order(v);
  comm.merge_disjoint(v);
  EXPECT_EQ(v, (std::vector<double>{1, 2}));
  EXPECT_EQ(comm.gather(std::string("ab")), (std::vector<std::string>{"ab"}));
  EXPECT_EQ(comm.device_for_rank(4, 1), 0);
}

// Debye: the parts' intensities and partials add up to the whole; the parts
// differ from it only in the order of float64 additions (1e-12 relative).
TEST(WorkShare, DebyePartsAddUpToTheWhole) {
  const Structure s = two_species_ball(900);
  const std::vector<double> q = uniform_q_grid(0, 8, 41);  // includes Q = 0
  for (DebyeMethod method : {DebyeMethod::exact, DebyeMethod::histogram}) {
    DebyeOptions o;
    o.method = method;
    o.partials = true;
    o.compute.threads = 1;
    const DebyeResult whole = DebyePlan(s, o).execute(q);
    const int parts = 4;
    std::vector<double> sum(q.size(), 0.0);
    std::vector<std::vector<double>> partial_sums(whole.partials.size(), std::vector<double>(q.size(), 0.0));
    double pairs = 0;
    for (int k = 0; k < parts; ++k) {
      o.share = {k, parts};
      const DebyeResult r = DebyePlan(s, o).execute(q);
      if (method == DebyeMethod::exact) EXPECT_GT(r.pairs, 0) << "part " << k << " got no pair blocks";
      pairs += r.pairs;
      for (std::size_t i = 0; i < q.size(); ++i) sum[i] += r.intensity[i];
      for (std::size_t p = 0; p < r.partials.size(); ++p)
        for (std::size_t i = 0; i < q.size(); ++i) partial_sums[p][i] += r.partials[p][i];
    }
    EXPECT_LT(test::max_rel_error(sum, whole.intensity), 1e-12);
    for (std::size_t p = 0; p < whole.partials.size(); ++p)
      EXPECT_LT(test::max_rel_error(partial_sums[p], whole.partials[p]), 1e-12) << whole.partial_names[p];
    if (method == DebyeMethod::exact) EXPECT_DOUBLE_EQ(pairs, whole.pairs);
  }
}

// pattern2d: each part fills its run of pixels exactly as the whole does and
// leaves the rest at 0.
TEST(WorkShare, Pattern2DPartsTileTheImage) {
  const Structure s = two_species_ball(300);
  Pattern2DGeometry g;
  g.wavelength = 1.0;
  g.detector = PolarDetector{3.0, 9, 13};
  Pattern2DOptions o;
  o.amplitude = true;
  o.compute.threads = 1;
  const Pattern2DResult whole = Pattern2DPlan(s, o).execute(g);
  const int parts = 3;
  std::vector<double> merged(whole.intensity.size(), 0.0);
  for (int k = 0; k < parts; ++k) {
    o.share = {k, parts};
    const Pattern2DResult r = Pattern2DPlan(s, o).execute(g);
    const auto [b, e] = o.share.range(r.intensity.size());
    for (std::size_t p = 0; p < r.intensity.size(); ++p) {
      const bool mine = p >= b && p < e;
      if (!mine) EXPECT_EQ(r.intensity[p], 0.0);
      if (!mine) EXPECT_EQ(r.amplitude[p], std::complex<double>(0.0));
      if (mine) EXPECT_EQ(r.amplitude[p], whole.amplitude[p]);
      merged[p] += r.intensity[p];
    }
  }
  EXPECT_EQ(merged, whole.intensity);
}

TEST(WorkShare, GisaxsPartsTileTheImage) {
  const std::string text = R"(density = 0.01
[beam]
wavelength = 0.1
alpha_i = 0.2
[detector]
type = "angular"
phi_f = { min = -1.0, max = 1.0, bins = 17 }
alpha_f = { min = -0.5, max = 2.0, bins = 13 }
[material.substrate]
delta = 6e-6
beta = 2e-8
[material.particle]
delta = 6e-4
beta = 2e-8
[[layer]]
name = "vacuum"
[[layer]]
name = "substrate"
material = "substrate"
[[particle]]
shape = "cylinder"
radius = 5.0
height = 5.0
material = "particle"
layer = "vacuum"
)";
  const gisaxs::Sample sample = gisaxs::parse_sample(text, "share.toml");
  gisaxs::GisaxsOptions o;
  o.compute.threads = 1;
  o.block_pixels = 10;  // 221 pixels: 23 blocks dealt round-robin
  const gisaxs::GisaxsResult whole = gisaxs::GisaxsPlan(sample, o).execute();
  std::vector<double> merged(whole.intensity.size(), 0.0);
  for (int k = 0; k < 4; ++k) {
    o.share = {k, 4};
    const gisaxs::GisaxsResult r = gisaxs::GisaxsPlan(sample, o).execute();
    for (std::size_t p = 0; p < r.intensity.size(); ++p) {
      if (!o.share.owns(p / o.block_pixels)) EXPECT_EQ(r.intensity[p], 0.0) << p;
      merged[p] += r.intensity[p];
    }
  }
  EXPECT_EQ(merged, whole.intensity);
}

// RMC: tiles draw random numbers by their global index, so the parts' tiles
// are the whole run's tiles, bit for bit (multi-resolution stage included).
TEST(WorkShare, RmcPartsRunTheSameTiles) {
  const std::size_t n = 16;
  std::vector<std::uint8_t> occupancy(n * n, 0);
  for (std::size_t i = 0; i < n * n; i += 3) occupancy[i] = 1;
  Image2D image{n, n, rmc_model_intensity(occupancy, n)};
  const RmcTarget target = make_rmc_target(image, nullptr, TargetOptions{});
  RmcOptions o;
  o.tiles = 3;
  o.loading = {0.3};
  o.steps = 1500;
  o.multires_levels = 1;
  o.compute.threads = 1;
  const RmcResult whole = RmcPlan(target, o).execute();
  std::vector<RmcTileResult> tiles;
  for (int k = 0; k < 4; ++k) {  // more parts than tiles: the last has none
    o.share = {k, 4};
    const RmcResult r = RmcPlan(target, o).execute();
    EXPECT_EQ(r.first_tile, o.share.range(3).first);
    EXPECT_EQ(r.tiles.size(), r.trace.size());
    for (std::size_t t = 0; t < r.tiles.size(); ++t) EXPECT_EQ(r.trace[t], whole.trace[r.first_tile + t]);
    tiles.insert(tiles.end(), r.tiles.begin(), r.tiles.end());
  }
  ASSERT_EQ(tiles.size(), whole.tiles.size());
  for (std::size_t t = 0; t < tiles.size(); ++t) {
    EXPECT_EQ(tiles[t].occupancy, whole.tiles[t].occupancy) << "tile " << t;
    EXPECT_EQ(tiles[t].chi2_final, whole.tiles[t].chi2_final);
    EXPECT_EQ(tiles[t].accepted, whole.tiles[t].accepted);
  }
}

// DDA: solving the polarisations one by one (in either order) and finishing
// gives execute()'s result exactly.
TEST(WorkShare, DdaSolveAndFinishIsExecute) {
  DdaOptions o;
  o.shape.kind = DdaShapeKind::ellipsoid;
  o.shape.params = {0.8, 1.3};
  o.grid = {6};
  o.m = {{1.5, 0.01}};
  o.mueller = true;
  o.compute.threads = 1;
  DdaPlan plan(o);
  ASSERT_EQ(plan.polarizations(), "YX");
  const DdaResult whole = plan.execute();
  std::vector<DdaSolution> solutions;
  solutions.push_back(plan.solve('X'));
  solutions.push_back(plan.solve('Y'));
  const DdaResult r = plan.finish(std::move(solutions), 0.0);
  ASSERT_EQ(r.runs.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(r.runs[i].name, whole.runs[i].name);
    EXPECT_EQ(r.runs[i].cext, whole.runs[i].cext);
    EXPECT_EQ(r.runs[i].cabs, whole.runs[i].cabs);
    EXPECT_EQ(r.runs[i].iterations, whole.runs[i].iterations);
  }
  ASSERT_EQ(r.mueller.size(), whole.mueller.size());
  for (std::size_t i = 0; i < r.mueller.size(); ++i) EXPECT_EQ(r.mueller[i].s, whole.mueller[i].s);
  EXPECT_EQ(r.matvecs, whole.matvecs);

  o.shape.kind = DdaShapeKind::sphere;  // 90° symmetric: X from Y, one solve
  o.shape.params.clear();
  EXPECT_EQ(DdaPlan(o).polarizations(), "Y");
  EXPECT_THROW(plan.finish({}, 0.0), Error);
}
