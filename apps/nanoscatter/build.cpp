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
#include "nanoscatter/build_options.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/structure_io.hpp"

namespace nanoscatter::cli {
namespace {

// The flags' values; each is one field of the library's BuildOptions (its
// checks and steps are build_structure's).
struct BuildCliOptions {
  CommonOptions common;
  BuildOptions build;
  std::vector<std::string> b_factors;  // "Au=0.5" pairs
};

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

// A file-name flag that sets a source field (a path, or data in Python).
template <class Source>
CLI::Option* add_path_option(CLI::App& sub, const std::string& name, std::optional<Source>& target,
                             const std::string& description) {
  return sub.add_option_function<std::string>(name, [&target](const std::string& path) { target = path; },
                                              description);
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
  auto options = std::make_shared<BuildCliOptions>();
  BuildOptions& o = options->build;
  // --device is accepted; building runs on the CPU. A finite particle has no
  // unit cell, so there is no CIF output.
  add_common_options(*sub, options->common, /*with_precision=*/false, ".xyz/.extxyz (extended XYZ), .pdb");
  sub->add_option("--lattice", o.lattice, "sc|bcc|fcc|hcp|diamond|rocksalt|zincblende|wurtzite|perovskite");
  // Lengths in Å when bare, or with their unit: --radius 2nm (unit_options.hpp).
  const QuantityParser angstrom = length_in(units::Length::angstrom);
  add_quantity_option(*sub, "--a", o.a, angstrom, "lattice constant a, Å (or with its unit: 0.4078nm)");
  add_quantity_option(*sub, "--c", o.c, angstrom, "lattice constant c, Å (hcp, wurtzite; default ideal √(8/3)·a)");
  sub->add_option_function<double>("--u", [&o](double u) { o.u = u; }, "wurtzite internal parameter (default 3/8)");
  sub->add_option("--elements", o.elements, "species: 1 (sc..diamond), 2 (rocksalt, zincblende, wurtzite), 3 (perovskite ABX3)")
      ->expected(1, 16);  // more than any lattice takes, so a wrong count gets our one-line error
  add_path_option(*sub, "--cif", o.cif, "unit cell file (.cif; or .xyz/.pdb holding one periodic cell)");
  add_path_option(*sub, "--input", o.input, "finite structure (.xyz, .pdb, .cif) to crop, copy, perturb or convert");
  sub->add_option("--shape", o.shape, "sphere|cube|cuboid|cylinder|octahedron, centred on the lattice origin");
  add_quantity_option(*sub, "--radius", o.radius, angstrom, "sphere/cylinder radius, octahedron vertex distance, Å (or 2nm)");
  add_quantity_option(*sub, "--edge", o.edge, angstrom, "cube edge, Å");
  // Any count is accepted here so that a wrong one gets our one-line error.
  add_quantities_option(*sub, "--size", o.size, angstrom, "cuboid edges along x y z, Å")->expected(1, 3);
  add_quantity_option(*sub, "--height", o.height, angstrom, "cylinder height along z, Å");
  add_path_option(*sub, "--planes", o.planes, "convex polyhedron: file of 'nx ny nz d' lines (n·r ≤ d, Å)");
  add_path_option(*sub, "--placements", o.placements,
                  "ensemble: file of 'x y z [alpha beta gamma]' lines (Å, ZYZ Euler degrees), one copy each");
  sub->add_option_function<double>("--vacancies", [&o](double f) { o.vacancies = f; },
                                   "fraction of atoms removed at random");
  sub->add_option("--vacancy-elements", o.vacancy_elements, "only these elements become vacancies");
  add_quantity_option(*sub, "--displace", o.displace, angstrom, "Gaussian displacement, rms per Cartesian coordinate, Å");
  sub->add_option("--b-factor", options->b_factors, "isotropic Debye–Waller B per element, Å²: Au=0.5 [Pd=0.7 ...]");
  sub->add_option("--seed", o.seed, "random seed for --vacancies and --displace")->capture_default_str();

  sub->callback([options, context] {
    if (!context.comm.root()) return;  // serial and quick: under mpirun rank 0 alone builds and writes
    BuildOptions& o = options->build;
    const CommonOptions& common = options->common;
    o.b_factor = b_factor_map(options->b_factors);
    o.validate();
    check_structure_output(common.output);
    const Structure structure = build_structure(o);
    const std::string comment = structure.title + " (nanoscatter " + context.version + " build)";
    write_structure(common.output, structure, comment);
    if (!common.quiet)
      std::fprintf(stderr, "%zu atoms → %s\n", structure.atoms.size(), common.output.c_str());
  });
}

}  // namespace nanoscatter::cli
