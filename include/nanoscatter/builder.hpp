// Building nanoparticles: a unit cell (named lattice or read from a file),
// repeated and cut by a convex shape centred on the lattice origin
// (docs/design.md: an atom is kept when it lies inside the shape, with a 1e-6 Å
// tolerance), then optionally copied into an ensemble and given defects.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "nanoscatter/structure.hpp"

namespace nanoscatter {

// ---- unit cells --------------------------------------------------------------

struct BasisSite {
  std::string element;  // capitalised symbol
  int charge = 0;
  Vec3 fractional;      // position in the cell, fractional coordinates
  double occupancy = 1;
  double b_iso = 0;     // Å²
};

struct UnitCellSpec {
  Cell cell;
  std::vector<BasisSite> basis;
  std::string name;  // "fcc Au", "rocksalt Co O", the CIF block name
};

enum class LatticeType { sc, bcc, fcc, hcp, diamond, rocksalt, zincblende, wurtzite, perovskite };

// "fcc", "FCC", ... ; Error (field "lattice") for unknown names.
LatticeType parse_lattice_type(const std::string& name);
std::string lattice_name(LatticeType type);
// Species a lattice takes: 1 for sc, bcc, fcc, hcp, diamond; 2 for rocksalt,
// zincblende, wurtzite (cation, anion); 3 for perovskite ABX3 (A, B, X).
int lattice_species_count(LatticeType type);

struct LatticeOptions {
  LatticeType type = LatticeType::fcc;
  double a = 0;                        // Å
  std::optional<double> c;             // Å; hcp and wurtzite only, default the ideal c = a·√(8/3)
  std::optional<double> u;             // wurtzite internal parameter (units of c), default 3/8
  std::vector<std::string> elements;   // species labels ("Au", "Na1+"), lattice_species_count of them
};

// Conventional cells:
//   sc (0,0,0); bcc + (½,½,½); fcc (0,0,0), (0,½,½), (½,0,½), (½,½,0);
//   hcp a = b, γ = 120°, atoms at (⅓,⅔,¼), (⅔,⅓,¾) (P6₃/mmc 2c);
//   diamond: fcc + fcc shifted by (¼,¼,¼);
//   rocksalt: A on fcc, B on fcc + (½,0,0);  zincblende: A on fcc, B on fcc + (¼,¼,¼);
//   wurtzite: A at (⅓,⅔,0), (⅔,⅓,½); B at (⅓,⅔,u), (⅔,⅓,½+u);
//   perovskite ABX3: A (0,0,0), B (½,½,½), X (½,½,0), (½,0,½), (0,½,½).
// Errors name the field ("a", "c", "u", "elements").
UnitCellSpec make_lattice(const LatticeOptions& options);

// The atoms of a periodic structure (a CIF read with read_cif, an extended
// XYZ with pbc "T T T") as a unit cell; Error when it has no cell or is not
// periodic.
UnitCellSpec unit_cell_from_structure(const Structure& structure);

// ---- shapes (centred at the origin) -----------------------------------------

struct Sphere { double radius = 0; };
struct Cube { double edge = 0; };                    // faces normal to x, y, z
struct Cuboid { double a = 0, b = 0, c = 0; };       // edges along x, y, z
struct Cylinder { double radius = 0, height = 0; };  // axis along z, |z| ≤ height/2
struct Octahedron { double radius = 0; };            // vertices at ±radius on each axis: |x|+|y|+|z| ≤ radius
struct Plane { Vec3 normal; double distance = 0; };  // half-space n·r ≤ d (n need not be unit)
// Intersection of half-spaces; must be bounded and contain the origin
// strictly inside (every d > 0), since the shape is centred on the origin.
struct ConvexPolyhedron { std::vector<Plane> planes; };

using Shape = std::variant<Sphere, Cube, Cuboid, Cylinder, Octahedron, ConvexPolyhedron>;

// Error (field "radius", "edge", "size", "height", "planes") unless every
// dimension is positive and finite and a polyhedron is bounded around the origin.
void validate_shape(const Shape& shape);
// Whether r lies inside the shape or within `tolerance` (Å) of it, measured
// perpendicular to the surface (distance to the nearest face for polyhedra).
bool shape_contains(const Shape& shape, const Vec3& r, double tolerance);
// Radius of a sphere about the origin that holds the whole shape.
double bounding_radius(const Shape& shape);
// Volume in Å³; for a polyhedron the volume of the largest sphere about the
// origin inside it (a lower bound, enough to size a cut before making it).
double shape_volume(const Shape& shape);
std::string describe_shape(const Shape& shape);  // "sphere R=16 Å"

// ---- cutting -------------------------------------------------------------------

struct CutOptions {
  double tolerance = 1e-6;  // Å, docs/design.md rule: |r| ≤ R + 1e-6 Å for a sphere
};

// Every atom r = L (n + f) of the infinite crystal (lattice vectors L,
// integer n, basis f) with shape_contains(shape, r). The result keeps the
// cell; atoms are ordered by cell index (n_a, n_b, n_c), then by basis order.
Structure cut_crystal(const UnitCellSpec& unit_cell, const Shape& shape, const CutOptions& options = {});

// The atoms of a finite structure that lie inside the shape (about the origin).
Structure crop_structure(const Structure& structure, const Shape& shape, const CutOptions& options = {});

// ---- ensembles -------------------------------------------------------------------

struct Placement {
  Vec3 position;                     // Å, where the structure's origin goes
  Mat3 rotation = Mat3::identity();  // applied about the structure's origin first
};

// Active rotation R = Rz(α) Ry(β) Rz(γ) (ZYZ Euler angles in degrees).
Mat3 rotation_zyz_degrees(double alpha, double beta, double gamma);

// One copy of `structure` per placement: r' = R r + position. Error (field
// "rotation") when a matrix is not a proper rotation (‖RᵀR − 1‖ > 1e-9 or det < 0).
// The result has no cell.
Structure make_ensemble(const Structure& structure, const std::vector<Placement>& placements);

// ---- defects -----------------------------------------------------------------------

struct VacancyOptions {
  double fraction = 0;                // of the eligible atoms, in [0, 1]
  std::uint64_t seed = 1;
  std::vector<std::string> elements;  // eligible elements; empty: all atoms
  bool allow_empty = false;           // removing every atom is an error unless asked for
};

// Removes round(fraction · N_eligible) atoms chosen uniformly without
// replacement (partial Fisher–Yates with std::mt19937_64 and rejection
// sampling: the choice depends only on the seed, not on the standard
// library's distribution classes, whose output is implementation-defined).
// The remaining atoms keep their order. Removing every atom is an error
// unless allow_empty.
Structure add_vacancies(const Structure& structure, const VacancyOptions& options);

struct DisplacementOptions {
  double rms = 0;  // Å, root-mean-square displacement PER CARTESIAN COORDINATE
                   // (the total rms displacement |Δr| is rms·√3)
  std::uint64_t seed = 1;
};

// Adds independent Gaussian N(0, rms²) offsets to x, y and z of every atom
// (Box–Muller on std::mt19937_64 rather than std::normal_distribution, whose
// output differs between standard libraries; same seed, same result).
Structure displace_atoms(const Structure& structure, const DisplacementOptions& options);

// Sets the isotropic Debye–Waller B (Å²) of every atom of each element named
// in `b_by_element` (keys are element symbols, "Au"); other atoms keep theirs.
// Errors name the field b_factor: an unknown element, one the structure does
// not hold, or B that is negative or not finite.
Structure set_b_factors(const Structure& structure, const std::map<std::string, double>& b_by_element);

// Planes file for ConvexPolyhedron: one "nx ny nz d" per line, '#' comments
// and blank lines ignored. Errors name the file, line and field.
std::vector<Plane> read_planes(const std::string& path);

// Placements file for make_ensemble: one "x y z" (Å) or "x y z α β γ"
// (Å, ZYZ Euler angles in degrees) per line; '#' comments ignored.
std::vector<Placement> read_placements(const std::string& path);

}  // namespace nanoscatter
