// Species grouping and spatially compact atom groups for the pattern2d kernels
// (phase_sums.hpp).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "nanoscatter/error.hpp"
#include "pattern2d/phase_sums.hpp"

namespace nanoscatter::pattern2d {

namespace {

// Spatially compact groups: recursive bisection along the longest side of
// the bounding box (a k-d tree), with the left part a multiple of kGroupSize
// atoms so that every leaf but the last is a full group. Unlike a Morton
// order, whose consecutive runs can jump across the particle where the curve
// changes octant, every leaf is a box no wider than its atoms need.
void bisect(const AtomList& a, std::vector<std::size_t>& order, std::size_t begin, std::size_t end) {
  const std::size_t n = end - begin;
  if (n <= kGroupSize) return;
  const std::vector<double>* axes[3] = {&a.x, &a.y, &a.z};
  int longest = 0;
  double widest = -1;
  for (int d = 0; d < 3; ++d) {
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t t = begin; t < end; ++t) {
      lo = std::min(lo, (*axes[d])[order[t]]);
      hi = std::max(hi, (*axes[d])[order[t]]);
    }
    if (hi - lo > widest) widest = hi - lo, longest = d;
  }
  const std::size_t half = std::max<std::size_t>(1, (n / 2 + kGroupSize / 2) / kGroupSize) * kGroupSize;
  const std::size_t left = std::min(half, (n - 1) / kGroupSize * kGroupSize);
  const auto& coord = *axes[longest];
  std::nth_element(order.begin() + std::ptrdiff_t(begin), order.begin() + std::ptrdiff_t(begin + left),
                   order.begin() + std::ptrdiff_t(end),
                   [&](std::size_t i, std::size_t j) { return coord[i] < coord[j]; });
  bisect(a, order, begin, begin + left);
  bisect(a, order, begin + left, end);
}

std::vector<std::size_t> group_order(const AtomList& a) {
  std::vector<std::size_t> order(a.size());
  std::iota(order.begin(), order.end(), 0);
  bisect(a, order, 0, order.size());
  return order;
}

}  // namespace

SpeciesAtoms group_species(const Structure& structure) {
  SpeciesSplit split = split_by_species(structure);
  return {std::move(split.species), std::move(split.atoms), split.atom_count};
}

AtomGroups make_atom_groups(const AtomList& atoms) {
  const std::size_t n = atoms.size();
  if (atoms.y.size() != n || atoms.z.size() != n || atoms.w.size() != n)
    fail("make_atom_groups: atom arrays of different lengths");
  const auto order = group_order(atoms);
  AtomGroups g;
  g.atoms = n;
  const std::size_t groups = (n + kGroupSize - 1) / kGroupSize;
  const std::size_t padded = groups * kGroupSize;
  for (auto* v : {&g.dx, &g.dy, &g.dz, &g.w}) v->assign(padded, 0.0);
  for (std::size_t b = 0; b < groups; ++b) {
    const std::size_t first = b * kGroupSize, last = std::min(n, first + kGroupSize);
    // Centre: the mean position of the group's atoms.
    double c[3] = {0, 0, 0};
    for (std::size_t t = first; t < last; ++t) {
      const std::size_t i = order[t];
      c[0] += atoms.x[i];
      c[1] += atoms.y[i];
      c[2] += atoms.z[i];
    }
    for (double& v : c) v /= double(last - first);
    g.cx.push_back(c[0]);
    g.cy.push_back(c[1]);
    g.cz.push_back(c[2]);
    for (std::size_t t = first; t < last; ++t) {
      const std::size_t i = order[t];
      g.dx[t] = atoms.x[i] - c[0];
      g.dy[t] = atoms.y[i] - c[1];
      g.dz[t] = atoms.z[i] - c[2];
      g.w[t] = atoms.w[i];
    }
  }
  return g;
}

}  // namespace nanoscatter::pattern2d
