// What `nanoscatter build` and nanoscatter.build() take: one options struct
// whose fields are the flags and keywords (field vacancy_elements is
// --vacancy-elements and vacancy_elements=), checked once by validate() and
// built by build_structure(), so the two front ends only map their
// arguments onto it and report the same messages.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/structure.hpp"

namespace nanoscatter {

// A structure file's path, or a structure already in memory (Python's
// Structure or ase.Atoms).
using StructureSource = std::variant<std::string, Structure>;
// A planes file (read_planes), or the planes themselves.
using PlanesSource = std::variant<std::string, std::vector<Plane>>;
// A placements file (read_placements), or the placements themselves.
using PlacementsSource = std::variant<std::string, std::vector<Placement>>;

struct BuildOptions {
  // The source, exactly one of: a named lattice (with a, elements and
  // optionally c, u), a periodic cell (cif) or a finite structure (input).
  std::string lattice;                  // parse_lattice_type's names; "" when not given
  std::optional<double> a, c, u;        // Å (u: in units of c)
  std::vector<std::string> elements;    // species labels; empty when not given
  std::optional<StructureSource> cif;
  std::optional<StructureSource> input;
  // The cut (required for a lattice or a cell, a crop of an input): a named
  // shape with its dimensions, or planes.
  std::string shape;                    // sphere|cube|cuboid|cylinder|octahedron; "" when not given
  std::optional<double> radius, edge, height;  // Å
  std::vector<double> size;             // Å, the cuboid's 3 edges; empty when not given
  std::optional<PlanesSource> planes;
  // Then, in this order: copies, vacancies, displacements, B factors.
  std::optional<PlacementsSource> placements;
  std::optional<double> vacancies;      // fraction of the eligible atoms removed
  std::vector<std::string> vacancy_elements;  // eligible elements; empty: all
  std::optional<double> displace;       // Å, Gaussian rms per Cartesian coordinate
  std::map<std::string, double> b_factor;     // element → B (Å²)
  std::uint64_t seed = 1;               // of vacancies and displace

  // The checks that need no file: one source, the options that go with it,
  // the shape and its dimensions, the analytic shape's values. Errors name
  // the field (fail_option). build_structure calls it first; a front end
  // may call it before it opens its output.
  void validate() const;
};

// The structure the options describe. Errors from the steps (make_lattice,
// validate_shape, add_vacancies, ...) name the option that set the value
// (--vacancies, not the step's "fraction"), or the file that held it.
Structure build_structure(const BuildOptions& options);

}  // namespace nanoscatter
