// A tile's occupancy as the site permutation of moves.hpp: random start,
// start from a given occupancy, moves, and the 0/1 grid.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace nanoscatter::rmc {

struct TileSites {
  int size = 0;                      // N
  std::uint32_t particles = 0;       // n
  std::vector<std::int32_t> sites;   // N²: occupied first
  std::vector<std::int32_t> slot;    // inverse permutation

  std::uint32_t site_count() const { return std::uint32_t(sites.size()); }
  bool occupied(std::int32_t site) const { return std::uint32_t(slot[std::size_t(site)]) < particles; }
  // Swap slot i (a particle) with slot j (an empty site).
  void apply_move(std::int32_t i, std::int32_t j);
  std::vector<std::uint8_t> occupancy() const;  // N×N, [x·N + y]
};

// Particles for a loading: round(loading·N²). Errors (naming the option
// field "loading") when that is 0 or N² (no move would be possible).
std::uint32_t particle_count(double loading, int size);
// n distinct sites drawn uniformly (partial Fisher–Yates on the placement
// stream of (seed, tile)).
TileSites random_tile(int size, std::uint32_t particles, std::uint64_t seed, std::uint32_t tile);
TileSites tile_from_occupancy(int size, const std::vector<std::uint8_t>& occupancy);

// Multi-resolution growth: an occupancy of size N → 2N by bilinear
// interpolation of the coarse occupancy (periodic; coarse site centres at
// fine (2x + ½, 2y + ½)), then the `particles` fine sites of highest
// interpolated value are occupied, ties broken by a random key from the
// multires stream of (seed, tile).
std::vector<std::uint8_t> grow_occupancy(const std::vector<std::uint8_t>& coarse, int coarse_size,
                                         std::uint32_t particles, std::uint64_t seed, std::uint32_t tile);

}  // namespace nanoscatter::rmc
