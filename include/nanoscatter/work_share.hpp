// Which part of an engine's work this process does when one run is split
// over several processes (MPI ranks, docs/mpi.md). The engines know nothing
// about MPI: they take a WorkShare in their options, compute their part, and
// the caller combines the parts (include/nanoscatter/parallel.hpp). The
// default share is the whole job.
#pragma once
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

namespace nanoscatter {

struct WorkShare {
  int index = 0;  // this process's part, 0 ≤ index < count
  int count = 1;  // parts in all

  bool whole() const { return count == 1; }
  bool first() const { return index == 0; }
  // Items [begin, end) of n: the index-th of `count` contiguous runs whose
  // lengths differ by at most one (the first n % count runs are longer).
  std::pair<std::size_t, std::size_t> range(std::size_t n) const;
  // Round-robin ownership: item i belongs to part i mod count.
  bool owns(std::size_t item) const { return static_cast<int>(item % static_cast<std::size_t>(count)) == index; }
};

// Throws Error unless 1 ≤ count and 0 ≤ index < count.
void validate_work_share(const WorkShare& share);

// Deals items of the given costs to `parts` parts, longest processing time
// first (Graham 1969): items by decreasing cost (ties: lower index first),
// each to the part with the least cost so far (ties: the lower part). The
// largest part is at most 4/3 of the optimum. Deterministic, so every
// process computes the same dealing without talking to the others.
// Returns the part of each item.
std::vector<int> deal_by_cost(std::span<const double> cost, int parts);

}  // namespace nanoscatter
