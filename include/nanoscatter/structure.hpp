// The structure model shared by every atomistic engine: a list of atoms
// (element, charge, position in Å, occupancy, isotropic B in Å²) and, when the
// structure came from a crystal, its unit cell.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nanoscatter/error.hpp"
#include "nanoscatter/vec3.hpp"

namespace nanoscatter {

struct Atom {
  std::string element;   // chemical symbol, capitalised ("Au", "O")
  int charge = 0;        // formal charge of an ion (+1 for Na1+), 0 for a neutral atom
  Vec3 position;         // Cartesian, Å
  double occupancy = 1;  // site occupancy weight in [0, 1]
  double b_iso = 0;      // isotropic Debye–Waller B, Å² (B = 8π² U_iso)
};

// Unit cell: lengths in Å, angles in degrees.
struct Cell {
  double a = 1, b = 1, c = 1;
  double alpha = 90, beta = 90, gamma = 90;
  // Columns are the lattice vectors a, b, c in Cartesian Å, with a along x and
  // b in the xy plane (the crystallographic standard orientation).
  Mat3 lattice_vectors() const;
  Vec3 to_cartesian(const Vec3& fractional) const;
  Vec3 to_fractional(const Vec3& cartesian) const;
  double volume() const;
};

// Throws Error (naming `where`, field "a", "alpha", ...) unless the lengths are
// positive and finite and the angles make a cell of positive volume.
void validate_cell(const Cell& cell, const Where& where = {});
// The cell whose standard-orientation vectors have the lengths and angles of
// a, b, c (any orientation). Throws Error for a degenerate or left-handed triple.
Cell cell_from_vectors(const Vec3& a, const Vec3& b, const Vec3& c);

struct Structure {
  std::vector<Atom> atoms;
  std::optional<Cell> cell;  // set when built from or read with a unit cell
  std::string title;         // free text carried into output headers
  // True when `atoms` are the complete contents of one periodic `cell` (a CIF
  // expanded by its symmetry operations, an extended XYZ with pbc "T T T"),
  // false for a finite particle or an asymmetric unit.
  bool periodic = false;
  // Whether some atom has a Debye–Waller B ≠ 0 (headers state the damping
  // only where it acts).
  bool has_b_factors() const;
};

// Atomic number of a chemical symbol (case-insensitive: "au", "AU"); throws
// Error for unknown symbols.
int atomic_number(const std::string& symbol);
// Atomic number of a symbol (case-insensitive), or nullopt when unknown.
std::optional<int> find_atomic_number(const std::string& symbol);
// Canonical capitalised symbol of atomic number z (1..118).
const std::string& element_symbol(int z);

// The largest formal charge magnitude a file may give: two digits, as a
// species label ("Fe3+") can write it. Readers refuse larger ones.
inline constexpr int max_formal_charge = 99;

// Split a type label such as "Na1+", "Cl1-", "O2-", "Fe3+", "Au", "Cl-" into
// (element, charge). Throws Error on unknown elements.
std::pair<std::string, int> parse_species_label(const std::string& label);

}  // namespace nanoscatter
