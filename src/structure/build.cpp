// BuildOptions: the checks and steps of `nanoscatter build` and
// nanoscatter.build(), once for both.
#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <utility>

#include "nanoscatter/build_options.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/structure_io.hpp"

namespace nanoscatter {
namespace {

// The steps name their own parameters (add_vacancies' "fraction"); the user
// set them through an option, so the message names the option.
const std::map<std::string, std::string>& option_for_step_field() {
  static const std::map<std::string, std::string> table = {
      {"lattice", "lattice"},   {"a", "a"},         {"c", "c"},
      {"u", "u"},               {"elements", "elements"},
      {"shape", "shape"},       {"radius", "radius"}, {"edge", "edge"},
      {"size", "size"},         {"height", "height"}, {"planes", "planes"},
      {"fraction", "vacancies"}, {"vacancy elements", "vacancy_elements"},
      {"rms", "displace"},      {"rotation", "placements"}, {"b_factor", "b_factor"},
  };
  return table;
}

// An error about no file: the option that set the step's field, or
// `option` where the step named no field.
[[noreturn]] void rethrow_naming_option(const Error& e, const char* option = "") {
  if (!e.where().file.empty()) throw e;
  const auto it = option_for_step_field().find(e.where().field);
  if (it != option_for_step_field().end()) throw Error(Where{"", 0, it->second, true}, e.reason());
  rethrow_with(e, {"", 0, option, *option != 0});
}

template <class F>
auto naming_options(F&& step) -> decltype(step()) {
  try {
    return step();
  } catch (const Error& e) {
    rethrow_naming_option(e);
  }
}

// A step on what a source held: an error names the file it came from, or,
// for a value given in memory, the option.
template <class Source, class F>
auto from_source(const Source& source, const char* option, F&& step) -> decltype(step()) {
  try {
    return step();
  } catch (const Error& e) {
    if (const auto* path = std::get_if<std::string>(&source)) rethrow_with(e, {*path, 0, ""});
    rethrow_naming_option(e, option);
  }
}

Structure structure_of(const StructureSource& source) {
  if (const auto* path = std::get_if<std::string>(&source)) return read_structure(*path);
  return std::get<Structure>(source);
}

struct ShapeDimension {
  const char* field;
  bool given;
};

std::array<ShapeDimension, 4> dimensions(const BuildOptions& o) {
  return {{{"radius", o.radius.has_value()},
           {"edge", o.edge.has_value()},
           {"size", !o.size.empty()},
           {"height", o.height.has_value()}}};
}

// The dimensions each named shape takes; the others are refused.
const std::map<std::string, std::vector<std::string>>& dimensions_of_shapes() {
  static const std::map<std::string, std::vector<std::string>> table = {
      {"sphere", {"radius"}},           {"cube", {"edge"}},        {"cuboid", {"size"}},
      {"cylinder", {"radius", "height"}}, {"octahedron", {"radius"}}};
  return table;
}

// The named shape, its dimensions checked for presence (validate()).
Shape named_shape(const BuildOptions& o) {
  if (o.shape == "sphere") return Sphere{*o.radius};
  if (o.shape == "cube") return Cube{*o.edge};
  if (o.shape == "cuboid") return Cuboid{o.size[0], o.size[1], o.size[2]};
  if (o.shape == "cylinder") return Cylinder{*o.radius, *o.height};
  return Octahedron{*o.radius};
}

void validate_shape_options(const BuildOptions& o) {
  if (o.planes) {
    if (!o.shape.empty()) fail_option("planes", "give either --shape or --planes, not both");
    for (const ShapeDimension& d : dimensions(o))
      if (d.given) fail_option(d.field, "not used with --planes");
    return;
  }
  if (o.shape.empty()) {
    for (const ShapeDimension& d : dimensions(o))
      if (d.given) fail_option(d.field, "only used with --shape");
    return;
  }
  const auto it = dimensions_of_shapes().find(o.shape);
  if (it == dimensions_of_shapes().end())
    fail_option("shape", "unknown shape '", o.shape, "' (sphere, cube, cuboid, cylinder, octahedron)");
  for (const ShapeDimension& d : dimensions(o)) {
    const bool needed = std::find(it->second.begin(), it->second.end(), d.field) != it->second.end();
    if (needed && !d.given) fail_option(d.field, "required for shape ", o.shape);
    if (!needed && d.given) fail_option(d.field, "not used by shape ", o.shape);
  }
  if (o.shape == "cuboid" && o.size.size() != 3) fail_option("size", "expected 3 edges 'a b c', got ", o.size.size());
  naming_options([&] { validate_shape(named_shape(o)); });
}

Shape shape_of(const BuildOptions& o) {
  if (!o.planes) return named_shape(o);
  const PlanesSource& planes = *o.planes;
  ConvexPolyhedron poly;
  if (const auto* path = std::get_if<std::string>(&planes)) poly.planes = read_planes(*path);
  else poly.planes = std::get<std::vector<Plane>>(planes);
  from_source(planes, "planes", [&] { validate_shape(poly); });
  return poly;
}

UnitCellSpec unit_cell_of(const BuildOptions& o) {
  if (o.lattice.empty()) {
    const Structure contents = structure_of(*o.cif);
    return from_source(*o.cif, "cif", [&] { return unit_cell_from_structure(contents); });
  }
  LatticeOptions lattice;
  lattice.type = parse_lattice_type(o.lattice);
  lattice.a = *o.a;
  lattice.c = o.c;
  lattice.u = o.u;
  lattice.elements = o.elements;
  return naming_options([&] { return make_lattice(lattice); });
}

}  // namespace

void BuildOptions::validate() const {
  const int sources = !lattice.empty() + cif.has_value() + input.has_value();
  if (sources != 1) fail_option("lattice", "give exactly one of --lattice, --cif or --input");
  if (lattice.empty()) {
    const std::array<ShapeDimension, 4> lattice_only = {
        {{"a", a.has_value()}, {"c", c.has_value()}, {"u", u.has_value()}, {"elements", !elements.empty()}}};
    for (const ShapeDimension& d : lattice_only)
      if (d.given) fail_option(d.field, "only used with --lattice");
  } else {
    naming_options([&] { parse_lattice_type(lattice); });
    if (!a) fail_option("a", "required with --lattice");
    if (elements.empty()) fail_option("elements", "required with --lattice");
  }
  if (!input && shape.empty() && !planes) fail_option("shape", "required to cut a crystal (or give --planes)");
  validate_shape_options(*this);
  if (!vacancy_elements.empty() && !vacancies) fail_option("vacancy_elements", "needs --vacancies");
}

Structure build_structure(const BuildOptions& o) {
  o.validate();
  Structure structure;
  if (o.input) {
    structure = structure_of(*o.input);
    if (!o.shape.empty() || o.planes) structure = crop_structure(structure, shape_of(o));
  } else {
    const UnitCellSpec unit_cell = unit_cell_of(o);
    const Shape shape = shape_of(o);
    structure = naming_options([&] { return cut_crystal(unit_cell, shape); });
  }
  if (o.placements) {
    const PlacementsSource& source = *o.placements;
    const std::vector<Placement> placements = std::holds_alternative<std::string>(source)
                                                  ? read_placements(std::get<std::string>(source))
                                                  : std::get<std::vector<Placement>>(source);
    structure = from_source(source, "placements", [&] { return make_ensemble(structure, placements); });
  }
  // Independent streams for the two defect kinds, so adding displace does
  // not change which atoms vacancies removes. The odd constant is 2^64/φ
  // (the SplitMix64 increment), a standard way to decorrelate seeds.
  constexpr std::uint64_t kStreamOffset = 0x9E3779B97F4A7C15ull;
  if (o.vacancies)
    structure = naming_options(
        [&] { return add_vacancies(structure, VacancyOptions{*o.vacancies, o.seed, o.vacancy_elements}); });
  if (o.displace)
    structure = naming_options(
        [&] { return displace_atoms(structure, DisplacementOptions{*o.displace, o.seed + kStreamOffset}); });
  if (!o.b_factor.empty()) structure = naming_options([&] { return set_b_factors(structure, o.b_factor); });
  return structure;
}

}  // namespace nanoscatter
