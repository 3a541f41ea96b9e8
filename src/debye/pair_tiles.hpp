// How the pair sums are cut into work for a GPU (or any tiled backend):
// atoms in tiles of `tile` atoms; a work item is one i tile against a run of
// consecutive j tiles. Triangles take j ≥ i only (the diagonal tile masks
// j ≤ i inside the kernel), rectangles every j. Runs of `run` tiles even
// out the triangle's long and short rows so blocks have similar cost.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "debye/pair_sums.hpp"

namespace nanoscatter::debye {

struct PairWorkItem {
  std::int32_t i_tile;
  std::int32_t j_begin;  // first j tile
  std::int32_t j_end;    // one past the last j tile
};

inline std::vector<PairWorkItem> make_pair_work(std::size_t na, std::size_t nb, PairSet set,
                                                int tile, int run) {
  const auto ceil_div = [](std::size_t n, std::size_t d) { return (n + d - 1) / d; };
  const auto ta = static_cast<std::int32_t>(ceil_div(na, tile));
  const auto tb = static_cast<std::int32_t>(ceil_div(nb, tile));
  std::vector<PairWorkItem> items;
  for (std::int32_t i = 0; i < ta; ++i) {
    const std::int32_t first = set == PairSet::triangle ? i : 0;
    for (std::int32_t j = first; j < tb; j += run) items.push_back({i, j, std::min(j + run, tb)});
  }
  return items;
}

// Atoms [begin, end) of a block.
inline AtomBlock slice(const AtomBlock& block, std::size_t begin, std::size_t end) {
  AtomBlock s;
  s.x.assign(block.x.begin() + begin, block.x.begin() + end);
  s.y.assign(block.y.begin() + begin, block.y.begin() + end);
  s.z.assign(block.z.begin() + begin, block.z.begin() + end);
  s.w.assign(block.w.begin() + begin, block.w.begin() + end);
  return s;
}

// Cut a pair set into pieces for which fits(na, nb, set) holds (or that are
// at most `min_atoms` on a side) and call run(a, b, set) on each, using
//   triangle(A1 ∪ A2) = triangle(A1) + triangle(A2) + rectangle(A1, A2).
// This is how device memory stays bounded for any atom count.
template <class Fits, class Run>
void split_until_fits(const AtomBlock& a, const AtomBlock& b, PairSet set, std::size_t min_atoms,
                      const Fits& fits, const Run& run) {
  const std::size_t na = a.size(), nb = set == PairSet::triangle ? a.size() : b.size();
  if (na == 0 || nb == 0) return;
  if (fits(na, nb, set) || (na <= min_atoms && nb <= min_atoms)) {
    run(a, set == PairSet::triangle ? a : b, set);
    return;
  }
  if (set == PairSet::triangle) {
    const AtomBlock a1 = slice(a, 0, na / 2), a2 = slice(a, na / 2, na);
    split_until_fits(a1, a1, PairSet::triangle, min_atoms, fits, run);
    split_until_fits(a2, a2, PairSet::triangle, min_atoms, fits, run);
    split_until_fits(a1, a2, PairSet::rectangle, min_atoms, fits, run);
  } else if (na >= nb) {
    split_until_fits(slice(a, 0, na / 2), b, set, min_atoms, fits, run);
    split_until_fits(slice(a, na / 2, na), b, set, min_atoms, fits, run);
  } else {
    split_until_fits(a, slice(b, 0, nb / 2), set, min_atoms, fits, run);
    split_until_fits(a, slice(b, nb / 2, nb), set, min_atoms, fits, run);
  }
}

// Exact number of pairs a call covers (for throughput figures).
inline double pair_count(std::size_t na, std::size_t nb, PairSet set) {
  return set == PairSet::triangle ? 0.5 * double(na) * double(na - (na > 0)) : double(na) * double(nb);
}

}  // namespace nanoscatter::debye
