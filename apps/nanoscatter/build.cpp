// `nanoscatter build`: a nanoparticle from a named lattice or a unit cell read
// from a file, cut by a shape centred on the lattice origin, optionally
// copied into an ensemble and given vacancies and displacements.
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "unit_options.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/structure_io.hpp"

namespace nanoscatter::cli {
namespace {

struct BuildOptions {
  CommonOptions common;
  // source: exactly one of these
  std::string lattice;
  std::string cell_file;   // --cif: any structure file holding one periodic cell
  std::string input_file;  // --input: a finite structure to crop, copy, perturb or convert
  double a = 0, c = 0, u = 0;
  std::vector<std::string> elements;
  // shape
  std::string shape;
  double radius = 0, edge = 0, height = 0;
  std::vector<double> size;
  std::string planes_file;
  // ensemble and defects
  std::string placements_file;
  double vacancies = 0;
  std::vector<std::string> vacancy_elements;
  double displace = 0;
  std::vector<std::string> b_factors;  // "Au=0.5" pairs
  std::uint64_t seed = 1;
};

// Library errors name their parameter ("radius"); on the command line the
// user knows it as an option ("--radius").
const std::map<std::string, std::string>& option_for_field() {
  static const std::map<std::string, std::string> table = {
      {"lattice", "--lattice"},   {"a", "--a"},
      {"c", "--c"},               {"u", "--u"},
      {"elements", "--elements"}, {"radius", "--radius"},
      {"edge", "--edge"},         {"size", "--size"},
      {"height", "--height"},     {"planes", "--planes"},
      {"fraction", "--vacancies"}, {"vacancy elements", "--vacancy-elements"},
      {"rms", "--displace"},      {"rotation", "--placements"},
      {"shape", "--shape"},       {"b_factor", "--b-factor"},
  };
  return table;
}

template <class F>
auto naming_options(F&& step) -> decltype(step()) {
  try {
    return step();
  } catch (const Error& e) {
    if (!e.where().file.empty()) throw;
    const auto it = option_for_field().find(e.where().field);
    if (it == option_for_field().end()) throw;
    throw Error(Where{"", 0, it->second}, e.reason());
  }
}

bool given(const CLI::App& sub, const char* option) { return sub.count(option) > 0; }

Shape shape_from_options(const CLI::App& sub, const BuildOptions& o) {
  if (!o.planes_file.empty()) {
    if (given(sub, "--shape")) fail_at({"", 0, "--planes"}, "give either --shape or --planes, not both");
    for (const char* extra : {"--radius", "--edge", "--size", "--height"})
      if (given(sub, extra)) fail_at({"", 0, extra}, "not used with --planes");
    ConvexPolyhedron poly{read_planes(o.planes_file)};
    try {
      validate_shape(poly);
    } catch (const Error& e) {
      rethrow_with(e, {o.planes_file, 0, ""});
    }
    return poly;
  }
  struct ShapeParameters {
    std::vector<const char*> needed;
  };
  const std::map<std::string, ShapeParameters> shapes = {
      {"sphere", {{"--radius"}}},   {"cube", {{"--edge"}}},
      {"cuboid", {{"--size"}}},     {"cylinder", {{"--radius", "--height"}}},
      {"octahedron", {{"--radius"}}},
  };
  const auto it = shapes.find(o.shape);
  if (it == shapes.end())
    fail_at({"", 0, "--shape"}, "unknown shape '", o.shape, "' (sphere, cube, cuboid, cylinder, octahedron)");
  for (const char* option : {"--radius", "--edge", "--size", "--height"}) {
    bool needed = false;
    for (const char* n : it->second.needed) needed = needed || std::string(n) == option;
    if (needed && !given(sub, option)) fail_at({"", 0, option}, "required for shape ", o.shape);
    if (!needed && given(sub, option)) fail_at({"", 0, option}, "not used by shape ", o.shape);
  }
  Shape shape;
  if (o.shape == "sphere") shape = Sphere{o.radius};
  else if (o.shape == "cube") shape = Cube{o.edge};
  else if (o.shape == "cuboid") {
    if (o.size.size() != 3) fail_at({"", 0, "--size"}, "expected 3 edges 'a b c', got ", o.size.size());
    shape = Cuboid{o.size[0], o.size[1], o.size[2]};
  }
  else if (o.shape == "cylinder") shape = Cylinder{o.radius, o.height};
  else shape = Octahedron{o.radius};
  naming_options([&] { validate_shape(shape); });
  return shape;
}

// --b-factor's "Au=0.5" pairs; the library checks the elements and values.
std::map<std::string, double> b_factor_map(const std::vector<std::string>& pairs) {
  std::map<std::string, double> b;
  for (const std::string& pair : pairs) {
    const auto eq = pair.find('=');
    double value = 0;
    try {
      std::size_t used = 0;
      if (eq == std::string::npos) throw std::invalid_argument("no '='");
      value = std::stod(pair.substr(eq + 1), &used);
      if (used != pair.size() - eq - 1) throw std::invalid_argument("trailing text");
    } catch (const std::exception&) {
      fail_at({"", 0, "--b-factor"}, "expected ELEMENT=B (Å²), e.g. Au=0.5, got '", pair, "'");
    }
    b[pair.substr(0, eq)] = value;
  }
  return b;
}

Structure build(const CLI::App& sub, const BuildOptions& o) {
  const int sources = !o.lattice.empty() + !o.cell_file.empty() + !o.input_file.empty();
  if (sources != 1) fail_at({"", 0, "--lattice"}, "give exactly one of --lattice, --cif or --input");
  const bool has_shape = given(sub, "--shape") || !o.planes_file.empty();
  if (o.lattice.empty())
    for (const char* option : {"--a", "--c", "--u", "--elements"})
      if (given(sub, option)) fail_at({"", 0, option}, "only used with --lattice");

  Structure structure;
  if (!o.input_file.empty()) {
    structure = read_structure(o.input_file);
    if (has_shape) {
      const Shape shape = shape_from_options(sub, o);
      structure = crop_structure(structure, shape);
    }
  } else {
    UnitCellSpec unit_cell;
    if (!o.lattice.empty()) {
      LatticeOptions lattice;
      lattice.type = naming_options([&] { return parse_lattice_type(o.lattice); });
      if (!given(sub, "--a")) fail_at({"", 0, "--a"}, "required with --lattice");
      if (!given(sub, "--elements")) fail_at({"", 0, "--elements"}, "required with --lattice");
      lattice.a = o.a;
      if (given(sub, "--c")) lattice.c = o.c;
      if (given(sub, "--u")) lattice.u = o.u;
      lattice.elements = o.elements;
      unit_cell = naming_options([&] { return make_lattice(lattice); });
    } else {
      const Structure cell_contents = read_structure(o.cell_file);
      try {
        unit_cell = unit_cell_from_structure(cell_contents);
      } catch (const Error& e) {
        rethrow_with(e, {o.cell_file, 0, ""});
      }
    }
    if (!has_shape) fail_at({"", 0, "--shape"}, "required to cut a crystal (or give --planes)");
    const Shape shape = shape_from_options(sub, o);
    structure = naming_options([&] { return cut_crystal(unit_cell, shape); });
  }

  if (!o.placements_file.empty()) {
    const auto placements = read_placements(o.placements_file);
    try {
      structure = make_ensemble(structure, placements);
    } catch (const Error& e) {
      rethrow_with(e, {o.placements_file, 0, ""});
    }
  }
  // Independent streams for the two defect kinds, so adding --displace does
  // not change which atoms --vacancies removes. The odd constant is 2^64/φ
  // (the SplitMix64 increment), a standard way to decorrelate seeds.
  constexpr std::uint64_t kStreamOffset = 0x9E3779B97F4A7C15ull;
  if (given(sub, "--vacancies") || given(sub, "--vacancy-elements")) {
    if (!given(sub, "--vacancies")) fail_at({"", 0, "--vacancy-elements"}, "needs --vacancies");
    structure = naming_options(
        [&] { return add_vacancies(structure, VacancyOptions{o.vacancies, o.seed, o.vacancy_elements}); });
  }
  if (given(sub, "--displace"))
    structure = naming_options(
        [&] { return displace_atoms(structure, DisplacementOptions{o.displace, o.seed + kStreamOffset}); });
  if (!o.b_factors.empty()) structure = naming_options([&] { return set_b_factors(structure, b_factor_map(o.b_factors)); });
  return structure;
}

// The output's format, checked before any work: XYZ or PDB. A built
// particle is finite (no periodic cell), so CIF, which describes a crystal
// by its unit cell, is refused with that reason.
void check_structure_output(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".xyz" || ext == ".extxyz" || ext == ".pdb") return;
  if (ext == ".cif")
    fail_at({path, 0, "--output"},
            "a built particle is finite and has no unit cell to write as CIF; use .xyz, .extxyz or .pdb");
  fail_at({path, 0, "--output"}, ext.empty() ? std::string("no extension") : "unknown extension '" + ext + "'",
          "; build writes .xyz, .extxyz (extended XYZ) or .pdb");
}

}  // namespace

void add_build_command(CLI::App& app, const RunContext& context) {
  auto* sub = app.add_subcommand("build", "build a nanoparticle from a lattice or a CIF");
  auto options = std::make_shared<BuildOptions>();
  BuildOptions& o = *options;
  // --device is accepted; building runs on the CPU. A finite particle has no
  // unit cell, so there is no CIF output.
  add_common_options(*sub, o.common, /*with_precision=*/false, ".xyz/.extxyz (extended XYZ), .pdb");
  sub->add_option("--lattice", o.lattice, "sc|bcc|fcc|hcp|diamond|rocksalt|zincblende|wurtzite|perovskite");
  // Lengths in Å when bare, or with their unit: --radius 2nm (unit_options.hpp).
  const QuantityParser angstrom = length_in(units::Length::angstrom);
  add_quantity_option(*sub, "--a", o.a, angstrom, "lattice constant a, Å (or with its unit: 0.4078nm)");
  add_quantity_option(*sub, "--c", o.c, angstrom, "lattice constant c, Å (hcp, wurtzite; default ideal √(8/3)·a)");
  sub->add_option("--u", o.u, "wurtzite internal parameter (default 3/8)");
  sub->add_option("--elements", o.elements, "species: 1 (sc..diamond), 2 (rocksalt, zincblende, wurtzite), 3 (perovskite ABX3)")
      ->expected(1, 16);  // more than any lattice takes, so a wrong count gets our one-line error
  sub->add_option("--cif", o.cell_file, "unit cell file (.cif; or .xyz/.pdb holding one periodic cell)");
  sub->add_option("--input", o.input_file, "finite structure (.xyz, .pdb, .cif) to crop, copy, perturb or convert");
  sub->add_option("--shape", o.shape, "sphere|cube|cuboid|cylinder|octahedron, centred on the lattice origin");
  add_quantity_option(*sub, "--radius", o.radius, angstrom, "sphere/cylinder radius, octahedron vertex distance, Å (or 2nm)");
  add_quantity_option(*sub, "--edge", o.edge, angstrom, "cube edge, Å");
  // Any count is accepted here so that a wrong one gets our one-line error.
  add_quantities_option(*sub, "--size", o.size, angstrom, "cuboid edges along x y z, Å")->expected(1, 3);
  add_quantity_option(*sub, "--height", o.height, angstrom, "cylinder height along z, Å");
  sub->add_option("--planes", o.planes_file, "convex polyhedron: file of 'nx ny nz d' lines (n·r ≤ d, Å)");
  sub->add_option("--placements", o.placements_file,
                  "ensemble: file of 'x y z [alpha beta gamma]' lines (Å, ZYZ Euler degrees), one copy each");
  sub->add_option("--vacancies", o.vacancies, "fraction of atoms removed at random");
  sub->add_option("--vacancy-elements", o.vacancy_elements, "only these elements become vacancies");
  add_quantity_option(*sub, "--displace", o.displace, angstrom, "Gaussian displacement, rms per Cartesian coordinate, Å");
  sub->add_option("--b-factor", o.b_factors, "isotropic Debye–Waller B per element, Å²: Au=0.5 [Pd=0.7 ...]");
  sub->add_option("--seed", o.seed, "random seed for --vacancies and --displace")->capture_default_str();

  sub->callback([sub, options, context] {
    if (!context.comm.root()) return;  // serial and quick: under mpirun rank 0 alone builds and writes
    const BuildOptions& o = *options;
    check_structure_output(o.common.output);
    const Structure structure = build(*sub, o);
    const std::string comment = structure.title + " (nanoscatter " + context.version + " build)";
    write_structure(o.common.output, structure, comment);
    if (!o.common.quiet)
      std::fprintf(stderr, "%zu atoms → %s\n", structure.atoms.size(), o.common.output.c_str());
  });
}

}  // namespace nanoscatter::cli
