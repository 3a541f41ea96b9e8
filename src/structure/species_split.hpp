// Splitting a structure into per-species atom lists, shared by the engines
// that factorise sums by species (Debye, pattern2d): atoms that share
// element, charge and B scatter with one f(Q), so their sums need f once.
#pragma once
#include <cstddef>
#include <vector>

#include "nanoscatter/scattering_factors.hpp"
#include "nanoscatter/structure.hpp"

namespace nanoscatter {

// Atoms of one species, structure-of-arrays, Å; w = occupancy weight.
struct AtomSoA {
  std::vector<double> x, y, z, w;
  std::size_t size() const { return x.size(); }
};

// Axis-aligned bounding box; empty: lo = +inf, hi = −inf on every axis.
struct AxisBox {
  double lo[3], hi[3];
  AxisBox();
  void include(const AxisBox& other);
  void include(double x, double y, double z) {
    const double p[3] = {x, y, z};
    for (int d = 0; d < 3; ++d) lo[d] = p[d] < lo[d] ? p[d] : lo[d], hi[d] = p[d] > hi[d] ? p[d] : hi[d];
  }
  double diagonal() const;  // an upper bound of every distance between points inside
};

// Bounding box of a list's positions, on all threads for long lists (it is
// on the GPU histogram's critical path: ~1 ms per 10⁶ atoms on one core).
AxisBox bounding_box(const AtomSoA& atoms);

struct SpeciesSplit {
  std::vector<Species> species;  // in order of first appearance
  std::vector<AtomSoA> atoms;    // one list per species, in the structure's order
  std::size_t atom_count = 0;    // atoms with occupancy > 0
};

// Validates the structure (non-empty, finite positions, occupancy in [0, 1],
// B finite and ≥ 0; errors name the atom, field "atom N") and splits it.
// Atoms with occupancy 0 never scatter and are left out; a structure with
// none left is an error.
SpeciesSplit split_by_species(const Structure& structure);

}  // namespace nanoscatter
