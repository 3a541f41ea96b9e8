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
#include "keywords.hpp"
#include "nanoscatter/build_options.hpp"
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

// A file name, or the data itself, as the library's source variants take it.
template <class Source, class Rows>
std::optional<Source> source_from(const py::object& obj, Rows rows) {
  if (obj.is_none()) return std::nullopt;
  if (py::isinstance<py::str>(obj)) return Source{obj.cast<std::string>()};
  return Source{rows(obj)};
}

std::optional<StructureSource> structure_source(const py::object& obj, const char* field) {
  return source_from<StructureSource>(obj, [field](const py::object& o) { return structure_from(o, field); });
}

std::vector<Plane> planes_from(const py::object& obj) {
  std::vector<Plane> planes;
  for (const auto& row : obj.cast<std::vector<std::array<double, 4>>>())
    planes.push_back(Plane{{row[0], row[1], row[2]}, row[3]});
  return planes;
}

std::vector<Placement> placements_from(const py::object& obj) {
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
  // Each keyword is one field of the library's BuildOptions (its checks and
  // steps are build_structure's).
  // Keywords, not a fixed pybind11 signature: a mistyped keyword is a
  // nanoscatter.Error listing the valid ones, as for the engines.
  m.def(
      "build",
      [](const py::kwargs& kwargs) {
        const Keywords k(kwargs,
                         {"lattice", "a", "elements", "c", "u", "cif", "input", "shape", "radius", "edge", "size",
                          "height", "planes", "placements", "vacancies", "vacancy_elements", "displace", "b_factor",
                          "seed"},
                         "build");
        const auto object = [&](const char* name) { return k.has(name) ? py::object(kwargs[name]) : py::none(); };
        BuildOptions o;
        std::optional<std::string> lattice, shape;
        std::optional<std::vector<std::string>> elements, vacancy_elements;
        std::optional<std::vector<double>> size;
        std::optional<std::map<std::string, double>> b_factor;
        k.get("lattice", lattice), k.get("shape", shape);
        k.get("elements", elements), k.get("vacancy_elements", vacancy_elements);
        k.get("size", size), k.get("b_factor", b_factor);
        k.get("a", o.a), k.get("c", o.c), k.get("u", o.u);
        k.get("radius", o.radius), k.get("edge", o.edge), k.get("height", o.height);
        k.get("vacancies", o.vacancies), k.get("displace", o.displace);
        k.get("seed", o.seed);
        o.lattice = lattice.value_or("");
        o.shape = shape.value_or("");
        o.elements = elements.value_or(std::vector<std::string>{});
        o.vacancy_elements = vacancy_elements.value_or(std::vector<std::string>{});
        o.size = size.value_or(std::vector<double>{});
        o.b_factor = b_factor.value_or(std::map<std::string, double>{});
        o.cif = structure_source(object("cif"), "cif");
        o.input = structure_source(object("input"), "input");
        o.planes = source_from<PlanesSource>(object("planes"), planes_from);
        o.placements = source_from<PlacementsSource>(object("placements"), placements_from);
        return build_structure(o);
      },
      "`nanoscatter build` (same options as keywords): a lattice or cell cut by a shape, ensembles, defects.");
}

}  // namespace nanoscatter::python
