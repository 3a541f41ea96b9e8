// Trial moves: one particle goes from an occupied site to an empty one.
//
// A tile's sites are kept as a permutation `sites` of 0 … N²−1 whose first n
// entries are the occupied sites and the rest the empty ones, with its
// inverse `slot` (slot[sites[i]] = i; a site is occupied iff slot < n).
// A move swaps two entries, O(1).
//
// Proposals (symmetric, so Metropolis needs no proposal-ratio correction):
//  - anywhere: a uniform particle i < n and a uniform empty slot j ≥ n;
//  - within a maximum distance: a uniform particle and a uniform offset from
//    the list of lattice vectors 0 < |d| ≤ d_max (symmetric under d → −d),
//    wrapped periodically; when that site is occupied the trial is
//    "blocked" (counted, rejected), which keeps the proposal symmetric.
// The same function runs on the host and in the CUDA kernel.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "rmc/philox.hpp"

namespace nanoscatter::rmc {

struct MoveProposal {
  std::int32_t i = 0;     // slot of the particle that moves
  std::int32_t j = 0;     // slot of the empty target site
  std::int32_t from = 0;  // site index x·N + y
  std::int32_t to = 0;
  bool valid = false;     // false: blocked (target occupied)
};

// Offsets (dx, dy) with 0 < dx² + dy² ≤ d², flattened as dx0, dy0, dx1, ...;
// empty for d = 0 (anywhere). d is capped at N (larger reaches nothing new).
std::vector<std::int32_t> move_offsets(double max_distance, int size);

NS_RMC_HD MoveProposal propose_move(const std::int32_t* sites, const std::int32_t* slot, std::uint32_t n,
                                    std::uint32_t n_sites, int size, const std::int32_t* offsets,
                                    std::uint32_t n_offsets, const Philox4& r) {
  MoveProposal p;
  p.i = std::int32_t(uniform_below(r.v[0], n));
  p.from = sites[p.i];
  if (n_offsets == 0) {
    p.j = std::int32_t(n + uniform_below(r.v[1], n_sites - n));
    p.to = sites[p.j];
    p.valid = true;
    return p;
  }
  const std::uint32_t o = uniform_below(r.v[1], n_offsets);
  const int x = p.from / size, y = p.from - x * size;
  // |offset| ≤ N, so one added N makes the sum non-negative before the modulo.
  const int x1 = (x + offsets[2 * o] + size) % size;
  const int y1 = (y + offsets[2 * o + 1] + size) % size;
  p.to = x1 * size + y1;
  p.j = slot[p.to];
  p.valid = std::uint32_t(p.j) >= n;
  return p;
}

// Acceptance: always for Δ < 0, with probability exp(−Δ/T) otherwise;
// T = 0 accepts only moves that lower χ².
NS_RMC_HD bool metropolis_accept(double delta, double temperature, double u) {
  if (delta < 0) return true;
  if (!(temperature > 0)) return false;
  return u < exp(-delta / temperature);
}

}  // namespace nanoscatter::rmc
