// Grouping a structure's atoms into species blocks for the factorised Debye
// sums: atoms that share element, charge and B scatter with the same f(Q)
// and Debye–Waller factor, so their pair sums need f only once per Q.
#pragma once
#include <string>
#include <vector>

#include "debye/pair_sums.hpp"
#include "nanoscatter/scattering_factors.hpp"
#include "nanoscatter/structure.hpp"

namespace nanoscatter::debye {

struct SpeciesBlocks {
  std::vector<Species> species;     // in order of first appearance
  std::vector<std::string> labels;  // unique names for partial columns ("Co", "O", "Fe2+", ...)
  std::vector<AtomBlock> blocks;    // one per species
  std::size_t atom_count = 0;       // atoms with occupancy > 0
  double total_weight(std::size_t m) const;  // Σ_{i∈m} w_i
  double total_weight() const;               // Σ_i w_i
};

// Whether group_by_species puts each block in spatial order.
enum class AtomOrder {
  spatial,  // Morton order: tiles of consecutive atoms are compact (the pair kernels' tiles)
  input,    // the structure's order (the GPU histogram orders each block itself, in its layout)
};

// Validates the structure (non-empty, finite positions, occupancy in [0, 1],
// B ≥ 0 and finite; errors name the atom) and groups it. Atoms with
// occupancy 0 never scatter and are left out. With AtomOrder::spatial the
// atoms of each block are put in Morton order, so that tiles of
// consecutive atoms are compact, which keeps the histogram's bin accesses
// local (~35 ms for 10⁶ atoms on 16 cores).
SpeciesBlocks group_by_species(const Structure& structure, AtomOrder order = AtomOrder::spatial);

// Name of a species pair for partial columns: "Co-O"; the self terms of
// species m go into "m-m".
std::string pair_label(const SpeciesBlocks& s, std::size_t m, std::size_t n);

}  // namespace nanoscatter::debye
