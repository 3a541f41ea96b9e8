// Tile occupancy bookkeeping (model.hpp) and the moves' offset lists (moves.hpp).
#include "rmc/model.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "nanoscatter/error.hpp"
#include "rmc/moves.hpp"
#include "rmc/philox.hpp"

namespace nanoscatter::rmc {

void TileSites::apply_move(std::int32_t i, std::int32_t j) {
  const std::int32_t from = sites[std::size_t(i)], to = sites[std::size_t(j)];
  sites[std::size_t(i)] = to;
  sites[std::size_t(j)] = from;
  slot[std::size_t(to)] = i;
  slot[std::size_t(from)] = j;
}

std::vector<std::uint8_t> TileSites::occupancy() const {
  std::vector<std::uint8_t> occ(sites.size(), 0);
  for (std::uint32_t i = 0; i < particles; ++i) occ[std::size_t(sites[i])] = 1;
  return occ;
}

std::uint32_t particle_count(double loading, int size) {
  // RmcOptions::validate has put the loading in (0, 1); the count can still
  // round to none or to every site (NaN fails here too).
  const double total = double(size) * double(size);
  const double n = std::round(loading * total);
  if (!(n >= 1 && n < total))
    fail_option("loading", "loading ", loading, " gives ", n, " particles on ", size, "×", size,
                " sites; a move needs at least one particle and one empty site");
  return static_cast<std::uint32_t>(n);
}

namespace {
TileSites identity_tile(int size) {
  TileSites t;
  t.size = size;
  const std::size_t n_sites = std::size_t(size) * std::size_t(size);
  t.sites.resize(n_sites);
  std::iota(t.sites.begin(), t.sites.end(), 0);
  t.slot = t.sites;
  return t;
}
}  // namespace

TileSites random_tile(int size, std::uint32_t particles, std::uint64_t seed, std::uint32_t tile) {
  TileSites t = identity_tile(size);
  t.particles = particles;
  const std::uint32_t n_sites = t.site_count();
  for (std::uint32_t i = 0; i < particles; ++i) {
    const Philox4 r = rmc_random(seed, tile, RngStream::placement, i);
    const std::uint32_t j = i + uniform_below(r.v[0], n_sites - i);
    std::swap(t.sites[i], t.sites[j]);
  }
  for (std::uint32_t i = 0; i < n_sites; ++i) t.slot[std::size_t(t.sites[i])] = std::int32_t(i);
  return t;
}

TileSites tile_from_occupancy(int size, const std::vector<std::uint8_t>& occupancy) {
  const std::size_t n_sites = std::size_t(size) * std::size_t(size);
  if (occupancy.size() != n_sites) fail("initial occupancy has ", occupancy.size(), " sites, expected ", n_sites);
  TileSites t;
  t.size = size;
  t.sites.reserve(n_sites);
  for (std::size_t s = 0; s < n_sites; ++s)
    if (occupancy[s]) t.sites.push_back(std::int32_t(s));
  t.particles = std::uint32_t(t.sites.size());
  if (t.particles == 0 || t.particles == n_sites)
    fail("initial occupancy has ", t.particles, " of ", n_sites, " sites occupied; a move needs both kinds");
  for (std::size_t s = 0; s < n_sites; ++s)
    if (!occupancy[s]) t.sites.push_back(std::int32_t(s));
  t.slot.resize(n_sites);
  for (std::size_t i = 0; i < n_sites; ++i) t.slot[std::size_t(t.sites[i])] = std::int32_t(i);
  return t;
}

std::vector<std::uint8_t> grow_occupancy(const std::vector<std::uint8_t>& coarse, int coarse_size,
                                         std::uint32_t particles, std::uint64_t seed, std::uint32_t tile) {
  const int nc = coarse_size, nf = 2 * coarse_size;
  const std::size_t n_fine = std::size_t(nf) * std::size_t(nf);
  struct Ranked {
    double value;
    std::uint32_t key;
    std::int32_t site;
  };
  std::vector<Ranked> ranked(n_fine);
  for (int x = 0; x < nf; ++x) {
    // Fine site x lies at coarse coordinate (x + ½)/2 − ½ = x/2 − ¼.
    const double cx = 0.5 * x - 0.25;
    const int x0 = int(std::floor(cx));
    const double fx = cx - x0;
    const int xa = (x0 % nc + nc) % nc, xb = (xa + 1) % nc;
    for (int y = 0; y < nf; ++y) {
      const double cy = 0.5 * y - 0.25;
      const int y0 = int(std::floor(cy));
      const double fy = cy - y0;
      const int ya = (y0 % nc + nc) % nc, yb = (ya + 1) % nc;
      auto c = [&](int i, int j) { return double(coarse[std::size_t(i) * nc + std::size_t(j)]); };
      const double v = (1 - fx) * ((1 - fy) * c(xa, ya) + fy * c(xa, yb)) + fx * ((1 - fy) * c(xb, ya) + fy * c(xb, yb));
      const std::int32_t site = x * nf + y;
      ranked[std::size_t(site)] = {v, rmc_random(seed, tile, RngStream::multires, std::uint64_t(site)).v[0], site};
    }
  }
  std::nth_element(ranked.begin(), ranked.begin() + particles, ranked.end(), [](const Ranked& a, const Ranked& b) {
    if (a.value != b.value) return a.value > b.value;
    if (a.key != b.key) return a.key < b.key;
    return a.site < b.site;
  });
  std::vector<std::uint8_t> fine(n_fine, 0);
  for (std::uint32_t i = 0; i < particles; ++i) fine[std::size_t(ranked[i].site)] = 1;
  return fine;
}

std::vector<std::int32_t> move_offsets(double max_distance, int size) {
  std::vector<std::int32_t> offsets;
  if (!(max_distance > 0)) return offsets;
  const double d = std::min(max_distance, double(size));
  const int reach = int(std::floor(d));
  for (int dx = -reach; dx <= reach; ++dx)
    for (int dy = -reach; dy <= reach; ++dy) {
      if (dx == 0 && dy == 0) continue;
      if (double(dx) * dx + double(dy) * dy <= d * d) {
        offsets.push_back(dx);
        offsets.push_back(dy);
      }
    }
  return offsets;
}

}  // namespace nanoscatter::rmc
