// Named lattices as conventional unit cells, and unit cells taken from
// periodic structures (CIF).
#include <cctype>
#include <cmath>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter {
namespace {

struct LatticeEntry {
  LatticeType type;
  const char* name;
  int species;
};

constexpr LatticeEntry kLattices[] = {
    {LatticeType::sc, "sc", 1},           {LatticeType::bcc, "bcc", 1},
    {LatticeType::fcc, "fcc", 1},         {LatticeType::hcp, "hcp", 1},
    {LatticeType::diamond, "diamond", 1}, {LatticeType::rocksalt, "rocksalt", 2},
    {LatticeType::zincblende, "zincblende", 2}, {LatticeType::wurtzite, "wurtzite", 2},
    {LatticeType::perovskite, "perovskite", 3},
};

const LatticeEntry& entry(LatticeType type) {
  for (const auto& e : kLattices)
    if (e.type == type) return e;
  fail("unknown lattice type ", static_cast<int>(type));
}

bool hexagonal(LatticeType type) { return type == LatticeType::hcp || type == LatticeType::wurtzite; }

// Face-centred translations of a cubic cell.
constexpr Vec3 kFcc[4] = {{0, 0, 0}, {0, 0.5, 0.5}, {0.5, 0, 0.5}, {0.5, 0.5, 0}};

}  // namespace

LatticeType parse_lattice_type(const std::string& name) {
  std::string lower;
  for (char ch : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (const auto& e : kLattices)
    if (lower == e.name) return e.type;
  fail_at({"", 0, "lattice"}, "unknown lattice '", name,
          "' (sc, bcc, fcc, hcp, diamond, rocksalt, zincblende, wurtzite, perovskite)");
}

std::string lattice_name(LatticeType type) { return entry(type).name; }

int lattice_species_count(LatticeType type) { return entry(type).species; }

UnitCellSpec make_lattice(const LatticeOptions& options) {
  const LatticeType type = options.type;
  const std::string name = lattice_name(type);
  // a³ must be a normal number too: the cell's volume (a = 1e-300 Å is no crystal).
  if (!(std::isfinite(options.a) && options.a > 0 && std::isnormal(options.a * options.a * options.a) &&
        std::isfinite(options.a * options.a * options.a)))
    fail_at({"", 0, "a"}, "lattice constant must be positive and finite, with a³ within the range of numbers, got ",
            options.a);
  if (options.c && !hexagonal(type)) fail_at({"", 0, "c"}, "only hcp and wurtzite take c, not ", name);
  if (options.c && !(std::isfinite(*options.c) && *options.c > 0))
    fail_at({"", 0, "c"}, "lattice constant must be positive and finite, got ", *options.c);
  if (options.u && type != LatticeType::wurtzite) fail_at({"", 0, "u"}, "only wurtzite takes u, not ", name);
  if (options.u && !(std::isfinite(*options.u) && *options.u > 0 && *options.u < 1))
    fail_at({"", 0, "u"}, "must lie in (0, 1), got ", *options.u);
  const int needed = lattice_species_count(type);
  if (static_cast<int>(options.elements.size()) != needed)
    fail_at({"", 0, "elements"}, name, " needs ", needed, needed == 1 ? " element" : " elements", ", got ",
            options.elements.size());
  std::vector<std::pair<std::string, int>> species;
  for (const auto& label : options.elements) {
    try {
      species.push_back(parse_species_label(label));
    } catch (const Error& e) {
      rethrow_with(e, {"", 0, "elements"});
    }
  }

  UnitCellSpec spec;
  spec.name = name;
  for (const auto& label : options.elements) spec.name += " " + label;
  spec.cell.a = spec.cell.b = spec.cell.c = options.a;
  auto add = [&](int which, Vec3 f) {
    spec.basis.push_back(BasisSite{species[which].first, species[which].second, f, 1, 0});
  };
  auto shifted = [](Vec3 f, Vec3 by) { return f + by; };
  switch (type) {
    case LatticeType::sc:
      add(0, {0, 0, 0});
      break;
    case LatticeType::bcc:
      add(0, {0, 0, 0});
      add(0, {0.5, 0.5, 0.5});
      break;
    case LatticeType::fcc:
      for (const Vec3& t : kFcc) add(0, t);
      break;
    case LatticeType::diamond:
      for (const Vec3& t : kFcc) add(0, t);
      for (const Vec3& t : kFcc) add(0, shifted(t, {0.25, 0.25, 0.25}));
      break;
    case LatticeType::rocksalt:
      for (const Vec3& t : kFcc) add(0, t);
      for (const Vec3& t : kFcc) add(1, shifted(t, {0.5, 0, 0}));
      break;
    case LatticeType::zincblende:
      for (const Vec3& t : kFcc) add(0, t);
      for (const Vec3& t : kFcc) add(1, shifted(t, {0.25, 0.25, 0.25}));
      break;
    case LatticeType::perovskite:
      add(0, {0, 0, 0});
      add(1, {0.5, 0.5, 0.5});
      add(2, {0.5, 0.5, 0});
      add(2, {0.5, 0, 0.5});
      add(2, {0, 0.5, 0.5});
      break;
    case LatticeType::hcp:
    case LatticeType::wurtzite: {
      // Ideal close packing: c/a = √(8/3).
      spec.cell.c = options.c.value_or(options.a * std::sqrt(8.0 / 3.0));
      spec.cell.gamma = 120;
      if (type == LatticeType::hcp) {
        add(0, {1.0 / 3, 2.0 / 3, 0.25});
        add(0, {2.0 / 3, 1.0 / 3, 0.75});
      } else {
        // u = 3/8 makes the tetrahedra regular at the ideal c/a.
        const double u = options.u.value_or(0.375);
        add(0, {1.0 / 3, 2.0 / 3, 0});
        add(0, {2.0 / 3, 1.0 / 3, 0.5});
        add(1, {1.0 / 3, 2.0 / 3, u});
        add(1, {2.0 / 3, 1.0 / 3, 0.5 + u});
      }
      break;
    }
  }
  return spec;
}

UnitCellSpec unit_cell_from_structure(const Structure& structure) {
  if (!structure.cell) fail_at({"", 0, "cell"}, "the structure has no unit cell");
  if (!structure.periodic)
    fail_at({"", 0, "cell"}, "the structure is not the periodic contents of its cell (a finite particle or "
                             "an asymmetric unit)");
  if (structure.atoms.empty()) fail_at({"", 0, "atoms"}, "the unit cell holds no atoms");
  validate_cell(*structure.cell);
  UnitCellSpec spec;
  spec.cell = *structure.cell;
  spec.name = structure.title;
  const Mat3 to_fractional = inverse(spec.cell.lattice_vectors());
  for (const Atom& atom : structure.atoms)
    spec.basis.push_back(BasisSite{atom.element, atom.charge, to_fractional * atom.position, atom.occupancy,
                                   atom.b_iso});
  return spec;
}

}  // namespace nanoscatter
