// Structures: the Structure class (atoms as NumPy columns), file I/O, and
// build(), the `nanoscatter build` subcommand with the same option names.
// Conversion to and from ase.Atoms lives in the Python package
// (nanoscatter/structures.py), which needs no compiled code.
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <map>
#include <tuple>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/structure_io.hpp"

namespace nanoscatter::python {
namespace {

using CellTuple = std::tuple<double, double, double, double, double, double>;

Structure make_structure(const std::vector<std::string>& symbols,
                         py::array_t<double, py::array::c_style | py::array::forcecast> positions,
                         std::optional<std::vector<int>> charges, std::optional<std::vector<double>> occupancy,
                         std::optional<std::vector<double>> b_iso, std::optional<CellTuple> cell,
                         const std::string& title, bool periodic) {
  const std::size_t n = symbols.size();
  if (positions.ndim() != 2 || positions.shape(1) != 3 || std::size_t(positions.shape(0)) != n)
    fail_at({"", 0, "positions"}, "expected an array of shape (", n, ", 3) for ", n, " symbols");
  auto check_length = [n](std::size_t got, const char* field) {
    if (got != n) fail_at({"", 0, field}, "expected ", n, " values (one per atom), got ", got);
  };
  if (charges) check_length(charges->size(), "charges");
  if (occupancy) check_length(occupancy->size(), "occupancy");
  if (b_iso) check_length(b_iso->size(), "b_iso");
  Structure s;
  s.atoms.resize(n);
  const auto p = positions.unchecked<2>();
  for (std::size_t i = 0; i < n; ++i) {
    Atom& a = s.atoms[i];
    // "Na1+" style labels carry their charge, as in XYZ files.
    const auto [element, label_charge] = parse_species_label(symbols[i]);
    a.element = element;
    a.charge = charges ? (*charges)[i] : label_charge;
    a.position = {p(i, 0), p(i, 1), p(i, 2)};
    if (occupancy) a.occupancy = (*occupancy)[i];
    if (b_iso) a.b_iso = (*b_iso)[i];
  }
  if (cell) {
    const auto [a, b, c, alpha, beta, gamma] = *cell;
    s.cell = Cell{a, b, c, alpha, beta, gamma};
    validate_cell(*s.cell, {"", 0, "cell"});
  }
  s.title = title;
  s.periodic = periodic;
  return s;
}

template <class T, class Get>
py::array_t<T> column(const Structure& s, Get get) {
  std::vector<T> v;
  v.reserve(s.atoms.size());
  for (const Atom& a : s.atoms) v.push_back(get(a));
  return to_numpy(std::move(v));
}

// Library errors name their parameter ("radius"); this module names the
// keyword that sets it ("radius"; "vacancies" for the fraction), as the CLI
// names its flag (--radius, --vacancies): Where::option.
template <class F>
auto naming_options(F&& step) -> decltype(step()) {
  static const std::map<std::string, std::string> option_for_field = {
      {"lattice", "lattice"}, {"a", "a"}, {"c", "c"}, {"u", "u"}, {"elements", "elements"},
      {"radius", "radius"}, {"edge", "edge"}, {"size", "size"}, {"height", "height"},
      {"planes", "planes"}, {"fraction", "vacancies"}, {"vacancy elements", "vacancy_elements"},
      {"rms", "displace"}, {"rotation", "placements"}, {"shape", "shape"}};
  try {
    return step();
  } catch (const Error& e) {
    if (!e.where().file.empty()) throw;
    const auto it = option_for_field.find(e.where().field);
    if (it == option_for_field.end()) throw;
    throw Error(Where{"", 0, it->second, true}, e.reason());
  }
}

struct BuildArgs {
  std::optional<std::string> lattice;
  std::optional<double> a, c, u;
  std::optional<std::vector<std::string>> elements;
  py::object cif, input;
  std::optional<std::string> shape;
  std::optional<double> radius, edge, height;
  std::optional<std::vector<double>> size;
  py::object planes, placements;
  std::optional<double> vacancies, displace;
  std::optional<std::vector<std::string>> vacancy_elements;
  std::optional<std::map<std::string, double>> b_factor;
  std::uint64_t seed = 1;
};

Shape shape_from(const BuildArgs& o) {
  if (!o.planes.is_none()) {
    if (o.shape) fail_option("planes", "give either --shape or --planes, not both");
    if (o.radius || o.edge || o.size || o.height) fail_option("planes", "no shape dimensions with --planes");
    ConvexPolyhedron poly;
    if (py::isinstance<py::str>(o.planes)) {
      poly.planes = read_planes(o.planes.cast<std::string>());
    } else {
      for (const auto& row : o.planes.cast<std::vector<std::array<double, 4>>>())
        poly.planes.push_back(Plane{{row[0], row[1], row[2]}, row[3]});
    }
    naming_options([&] { validate_shape(poly); });
    return poly;
  }
  if (!o.shape) fail_option("shape", "required to cut a crystal (or give --planes)");
  const std::map<std::string, std::vector<std::string>> needs = {
      {"sphere", {"--radius"}}, {"cube", {"--edge"}}, {"cuboid", {"--size"}},
      {"cylinder", {"--radius", "--height"}}, {"octahedron", {"--radius"}}};
  const auto it = needs.find(*o.shape);
  if (it == needs.end())
    fail_option("shape", "unknown shape '", *o.shape, "' (sphere, cube, cuboid, cylinder, octahedron)");
  const std::map<std::string, bool> given = {
      {"--radius", bool(o.radius)}, {"--edge", bool(o.edge)}, {"--size", bool(o.size)}, {"--height", bool(o.height)}};
  for (const auto& [option, present] : given) {
    const bool needed = std::find(it->second.begin(), it->second.end(), option) != it->second.end();
    if (needed && !present) fail_at({"", 0, option}, "required for shape ", *o.shape);
    if (!needed && present) fail_at({"", 0, option}, "not used by shape ", *o.shape);
  }
  Shape shape;
  if (*o.shape == "sphere") shape = Sphere{*o.radius};
  else if (*o.shape == "cube") shape = Cube{*o.edge};
  else if (*o.shape == "cuboid") {
    if (o.size->size() != 3) fail_option("size", "expected 3 edges 'a b c', got ", o.size->size());
    shape = Cuboid{(*o.size)[0], (*o.size)[1], (*o.size)[2]};
  } else if (*o.shape == "cylinder") shape = Cylinder{*o.radius, *o.height};
  else shape = Octahedron{*o.radius};
  naming_options([&] { validate_shape(shape); });
  return shape;
}

std::vector<Placement> placements_from(const py::object& obj) {
  if (py::isinstance<py::str>(obj)) return read_placements(obj.cast<std::string>());
  std::vector<Placement> out;
  for (const auto& row : obj.cast<std::vector<std::vector<double>>>()) {
    if (row.size() != 3 && row.size() != 6)
      fail_option("placements", "each placement is (x, y, z) or (x, y, z, alpha, beta, gamma)");
    Placement p;
    p.position = {row[0], row[1], row[2]};
    if (row.size() == 6) p.rotation = rotation_zyz_degrees(row[3], row[4], row[5]);
    out.push_back(p);
  }
  return out;
}

Structure build(const BuildArgs& o) {
  const int sources = bool(o.lattice) + !o.cif.is_none() + !o.input.is_none();
  if (sources != 1) fail_option("lattice", "give exactly one of --lattice, --cif or --input");
  if (!o.lattice && (o.a || o.c || o.u || o.elements))
    fail_option(o.a ? "a" : o.c ? "c" : o.u ? "u" : "elements", "only used with --lattice");
  const bool has_shape = o.shape || !o.planes.is_none();
  Structure structure;
  if (!o.input.is_none()) {
    structure = structure_from(o.input, "--input");
    if (has_shape) structure = crop_structure(structure, shape_from(o));
  } else {
    UnitCellSpec unit_cell;
    if (o.lattice) {
      LatticeOptions lattice;
      lattice.type = naming_options([&] { return parse_lattice_type(*o.lattice); });
      if (!o.a) fail_option("a", "required with --lattice");
      if (!o.elements) fail_option("elements", "required with --lattice");
      lattice.a = *o.a;
      lattice.c = o.c;
      lattice.u = o.u;
      lattice.elements = *o.elements;
      unit_cell = naming_options([&] { return make_lattice(lattice); });
    } else {
      const Structure cell_contents = structure_from(o.cif, "--cif");
      const std::string name = py::isinstance<py::str>(o.cif) ? o.cif.cast<std::string>() : "";
      try {
        unit_cell = unit_cell_from_structure(cell_contents);
      } catch (const Error& e) {
        rethrow_with(e, {name, 0, name.empty() ? "--cif" : ""});
      }
    }
    if (!has_shape) fail_option("shape", "required to cut a crystal (or give --planes)");
    const Shape shape = shape_from(o);
    structure = naming_options([&] { return cut_crystal(unit_cell, shape); });
  }
  if (!o.placements.is_none()) structure = naming_options([&] { return make_ensemble(structure, placements_from(o.placements)); });
  // The CLI's independent defect streams (apps/nanoscatter/build.cpp): same
  // seed, same atoms removed and displaced as `nanoscatter build`.
  constexpr std::uint64_t kStreamOffset = 0x9E3779B97F4A7C15ull;
  if (o.vacancies || o.vacancy_elements) {
    if (!o.vacancies) fail_option("vacancy_elements", "needs --vacancies");
    VacancyOptions v{*o.vacancies, o.seed, o.vacancy_elements.value_or(std::vector<std::string>{})};
    structure = naming_options([&] { return add_vacancies(structure, v); });
  }
  if (o.displace)
    structure = naming_options(
        [&] { return displace_atoms(structure, DisplacementOptions{*o.displace, o.seed + kStreamOffset}); });
  if (o.b_factor) structure = set_b_factors(structure, *o.b_factor);
  return structure;
}

}  // namespace

Structure structure_from(const py::handle& obj, const char* field) {
  if (py::isinstance<Structure>(obj)) return obj.cast<Structure>();
  if (py::isinstance<py::str>(obj) || py::hasattr(obj, "__fspath__"))
    return read_structure(py::str(obj).cast<std::string>());
  fail_at({"", 0, field}, "expected a file name, a nanoscatter.Structure or an ase.Atoms");
}

void bind_structure(py::module_& m) {
  py::class_<Structure>(m, "Structure",
                        "Atoms (element, charge, position in Å, occupancy, B in Å²) and an optional unit cell.")
      .def(py::init(&make_structure), py::arg("symbols"), py::arg("positions"), py::arg("charges") = py::none(),
           py::arg("occupancy") = py::none(), py::arg("b_iso") = py::none(), py::arg("cell") = py::none(),
           py::arg("title") = "", py::arg("periodic") = false)
      .def("__len__", [](const Structure& s) { return s.atoms.size(); })
      .def_property_readonly("symbols", [](const Structure& s) {
        std::vector<std::string> v;
        for (const Atom& a : s.atoms) v.push_back(a.element);
        return v;
      })
      .def_property_readonly("positions", [](const Structure& s) {
        std::vector<double> v;
        v.reserve(3 * s.atoms.size());
        for (const Atom& a : s.atoms) v.insert(v.end(), {a.position.x, a.position.y, a.position.z});
        return to_numpy(std::move(v), {py::ssize_t(s.atoms.size()), 3});
      }, "Å, shape (N, 3) (a copy)")
      .def_property_readonly("charges", [](const Structure& s) { return column<int>(s, [](const Atom& a) { return a.charge; }); })
      .def_property_readonly("occupancy", [](const Structure& s) { return column<double>(s, [](const Atom& a) { return a.occupancy; }); })
      .def_property_readonly("b_iso", [](const Structure& s) { return column<double>(s, [](const Atom& a) { return a.b_iso; }); })
      .def_property_readonly("cell", [](const Structure& s) -> std::optional<CellTuple> {
        if (!s.cell) return std::nullopt;
        const Cell& c = *s.cell;
        return CellTuple{c.a, c.b, c.c, c.alpha, c.beta, c.gamma};
      }, "(a, b, c, alpha, beta, gamma) in Å and degrees, or None")
      .def_property_readonly("cell_vectors", [](const Structure& s) -> py::object {
        if (!s.cell) return py::none();
        const Mat3 l = s.cell->lattice_vectors();
        std::vector<double> rows;  // rows are a, b, c (ASE's convention)
        for (int j = 0; j < 3; ++j) rows.insert(rows.end(), {l.row[0][j], l.row[1][j], l.row[2][j]});
        return to_numpy(std::move(rows), {3, 3});
      }, "lattice vectors as rows a, b, c (Å), or None")
      .def_readwrite("title", &Structure::title)
      .def_readwrite("periodic", &Structure::periodic)
      .def("__repr__", [](const Structure& s) {
        return "<nanoscatter.Structure " + std::to_string(s.atoms.size()) + " atoms" +
               (s.title.empty() ? "" : " '" + s.title + "'") + (s.cell ? ", with cell" : "") + ">";
      });

  m.def("read_structure", &read_structure, py::arg("path"), "Read .xyz, .extxyz, .pdb, .cif (Å).");
  m.def("write_structure", [](const std::string& path, const Structure& s, const std::string& comment) {
    write_structure(path, s, comment);
  }, py::arg("path"), py::arg("structure"), py::arg("comment") = "", "Write .xyz/.extxyz or .pdb.");
  m.def("set_b_factors", [](const py::handle& structure, const std::map<std::string, double>& b_factor) {
    return set_b_factors(structure_from(structure, "structure"), b_factor);
  }, py::arg("structure"), py::arg("b_factor"),
        "A copy of the structure with the isotropic B (Å²) of each named element set: {'Au': 0.5}.");
  m.def("_structure_from", [](const py::handle& obj) { return structure_from(obj, "structure"); });
  m.def("build", [](std::optional<std::string> lattice, std::optional<double> a, std::optional<std::vector<std::string>> elements,
                    std::optional<double> c, std::optional<double> u, py::object cif, py::object input,
                    std::optional<std::string> shape, std::optional<double> radius, std::optional<double> edge,
                    std::optional<std::vector<double>> size, std::optional<double> height, py::object planes,
                    py::object placements, std::optional<double> vacancies,
                    std::optional<std::vector<std::string>> vacancy_elements, std::optional<double> displace,
                    std::optional<std::map<std::string, double>> b_factor, std::uint64_t seed) {
    BuildArgs o{lattice, a, c, u, elements, cif, input, shape, radius, edge, height, size, planes, placements,
                vacancies, displace, vacancy_elements, b_factor, seed};
    return build(o);
  },
        py::kw_only(), py::arg("lattice") = py::none(), py::arg("a") = py::none(), py::arg("elements") = py::none(),
        py::arg("c") = py::none(), py::arg("u") = py::none(), py::arg("cif") = py::none(),
        py::arg("input") = py::none(), py::arg("shape") = py::none(), py::arg("radius") = py::none(),
        py::arg("edge") = py::none(), py::arg("size") = py::none(), py::arg("height") = py::none(),
        py::arg("planes") = py::none(), py::arg("placements") = py::none(), py::arg("vacancies") = py::none(),
        py::arg("vacancy_elements") = py::none(), py::arg("displace") = py::none(), py::arg("b_factor") = py::none(), py::arg("seed") = 1,
        "`nanoscatter build` (same options): a lattice or cell cut by a shape, ensembles, defects.");
}

}  // namespace nanoscatter::python
