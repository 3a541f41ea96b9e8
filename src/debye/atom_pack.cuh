// Atoms as the Debye kernels read them: one aligned (x, y, z, w) record per
// atom (a single 16- or 32-byte load), relative to a common origin.
#pragma once
#include <algorithm>
#include <array>
#include <map>
#include <cmath>
#include <vector>

#include "debye/pair_sums.hpp"

namespace nanoscatter::debye {

template <class Real>
struct alignas(sizeof(Real) * 4) Atom4 {
  Real x, y, z, w;
};

struct Origin {
  double x = 0, y = 0, z = 0;
};

// Centre of both blocks' bounding box and the box diagonal (an upper bound
// of every pair distance). Coordinates relative to the centre keep the most
// digits in float32; only differences matter.
struct BlockBounds {
  Origin centre;
  double diagonal = 0;
};

inline BlockBounds block_bounds(const AtomBlock& a, const AtomBlock& b) {
  AxisBox box = bounding_box(a);
  box.include(bounding_box(b));
  BlockBounds bounds;
  bounds.centre = {0.5 * (box.lo[0] + box.hi[0]), 0.5 * (box.lo[1] + box.hi[1]), 0.5 * (box.lo[2] + box.hi[2])};
  bounds.diagonal = box.diagonal();
  return bounds;
}

template <class Real>
std::vector<Atom4<Real>> pack_atoms(const AtomBlock& block, const Origin& o) {
  std::vector<Atom4<Real>> packed(block.size());
  for (std::size_t i = 0; i < block.size(); ++i)
    packed[i] = {Real(block.x[i] - o.x), Real(block.y[i] - o.y), Real(block.z[i] - o.z), Real(block.w[i])};
  return packed;
}

// Σ w_i w_j over the pairs whose packed positions coincide (the kernels'
// d² = 0; distinct doubles always differ by a nonzero difference): i < j
// within a for triangles, a × b for rectangles. The float32 kernel leaves
// these pairs out to stay branch-free; their limit term is this weight · q.
template <class Real>
double coincident_pair_weight(const std::vector<Atom4<Real>>& a, const std::vector<Atom4<Real>>& b, bool triangle) {
  std::map<std::array<Real, 3>, std::array<double, 2>> sites;  // position → (Σw, Σw²) of a
  for (const auto& p : a) {
    auto& s = sites[{p.x, p.y, p.z}];
    s[0] += double(p.w), s[1] += double(p.w) * double(p.w);
  }
  double total = 0;
  if (triangle) {
    if (sites.size() == a.size()) return 0;  // no shared site
    for (const auto& [pos, s] : sites) total += 0.5 * (s[0] * s[0] - s[1]);
  } else {
    for (const auto& p : b) {
      const auto it = sites.find({p.x, p.y, p.z});
      if (it != sites.end()) total += it->second[0] * double(p.w);
    }
  }
  return total;
}

}  // namespace nanoscatter::debye
