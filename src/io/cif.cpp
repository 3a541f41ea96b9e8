// CIF reader: cell, symmetry operations and atom sites of one data block,
// expanded into the full unit cell.
#include <cctype>
#include <cmath>
#include <limits>
#include <numbers>

#include "io/cif_document.hpp"
#include "io/space_group.hpp"
#include "io/structure_text.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/structure_io.hpp"
#include "structure/symmetry.hpp"
#include "nanoscatter/whole_number.hpp"

namespace nanoscatter {
namespace {

// Two images of one site closer than this (fractional, periodic max-norm) are
// one atom: the task's 1e-4, far above the rounding of 4–6 digit CIF
// coordinates pushed through symmetry operations and far below any real
// interatomic separation (1e-4 of a 50 Å cell is 0.005 Å).
constexpr double kMergeTolerance = 1e-4;

const io::CifBlock& choose_block(const std::vector<io::CifBlock>& blocks, const std::string& path) {
  if (blocks.empty()) fail_at({path, 0, "data_"}, "no data_ block");
  for (const auto& block : blocks)
    if (block.has("_atom_site_fract_x") || block.has("_cell_length_a")) return block;
  return blocks.front();
}

double required_number(const io::CifBlock& block, const std::string& tag, const std::string& path) {
  const auto* value = block.item(tag);
  if (!value || io::cif_missing(*value)) fail_at({path, value ? value->line : 0, tag}, "missing");
  const auto number = io::cif_number(*value);
  if (!number || !std::isfinite(*number)) fail_at({path, value->line, tag}, "not a number '", value->text, "'");
  return *number;
}

Cell read_cell(const io::CifBlock& block, const std::string& path) {
  Cell cell;
  cell.a = required_number(block, "_cell_length_a", path);
  cell.b = required_number(block, "_cell_length_b", path);
  cell.c = required_number(block, "_cell_length_c", path);
  cell.alpha = required_number(block, "_cell_angle_alpha", path);
  cell.beta = required_number(block, "_cell_angle_beta", path);
  cell.gamma = required_number(block, "_cell_angle_gamma", path);
  const auto* a = block.item("_cell_length_a");
  validate_cell(cell, {path, a->line, ""});
  return cell;
}

std::vector<SymmetryOp> read_symmetry(const io::CifBlock& block, const std::string& path) {
  // CIF 2 core name first, then the older CIF 1 name.
  for (const std::string tag : {"_space_group_symop_operation_xyz", "_symmetry_equiv_pos_as_xyz"}) {
    const auto values = block.values(tag);
    if (values.empty()) continue;
    std::vector<SymmetryOp> ops;
    for (const auto& value : values) {
      if (io::cif_missing(value)) fail_at({path, value.line, tag}, "missing symmetry operation");
      try {
        ops.push_back(parse_symmetry_op(value.text));
      } catch (const Error& e) {
        rethrow_with(e, {path, value.line, tag});
      }
    }
    return ops;
  }
  // No operations: the space group's symbol or number, expanded from gemmi's
  // tables (as ASE and gemmi read such files); neither given is P1.
  const auto parsed = [&](const std::vector<std::string>& triplets) {
    std::vector<SymmetryOp> ops;
    for (const auto& t : triplets) ops.push_back(parse_symmetry_op(t));
    return ops;
  };
  for (const std::string tag : {"_space_group_name_H-M_alt", "_symmetry_space_group_name_H-M"}) {
    const auto* value = block.item(io::to_lower(tag));
    if (!value || io::cif_missing(*value)) continue;
    if (const auto triplets = io::space_group_operations(value->text)) return parsed(*triplets);
    fail_at({path, value->line, tag}, "unknown space group '", value->text,
            "' (give its operations as _space_group_symop_operation_xyz)");
  }
  for (const std::string tag : {"_space_group_IT_number", "_symmetry_Int_Tables_number"}) {
    const auto* value = block.item(io::to_lower(tag));
    if (!value || io::cif_missing(*value)) continue;
    const auto number = io::cif_number(*value);
    const auto whole = number ? whole_number(*number, 1, 230) : std::nullopt;
    const auto triplets = whole ? io::space_group_operations(static_cast<int>(*whole)) : std::nullopt;
    if (triplets) return parsed(*triplets);
    fail_at({path, value->line, tag}, "not a space-group number 1–230: '", value->text, "'");
  }
  return {parse_symmetry_op("x,y,z")};
}

// Element of a site label when there is no type symbol: "Na1" -> Na,
// "O2a" -> O, "Fe" -> Fe. A second letter counts only in lower case, since
// labels are written "Ca1" for calcium and "CA1" would be a carbon.
std::string element_from_label(const io::CifValue& label, const std::string& path) {
  const std::string& text = label.text;
  if (text.empty() || !std::isalpha(static_cast<unsigned char>(text[0])))
    fail_at({path, label.line, "_atom_site_label"}, "no element in label '", text, "'");
  if (text.size() >= 2 && std::islower(static_cast<unsigned char>(text[1])))
    if (const auto z = find_atomic_number(text.substr(0, 2))) return element_symbol(*z);
  if (const auto z = find_atomic_number(text.substr(0, 1))) return element_symbol(*z);
  fail_at({path, label.line, "_atom_site_label"}, "no element in label '", text, "'");
}

}  // namespace

Structure read_cif(const std::string& path) {
  const auto blocks = io::parse_cif(io::read_lines(path), path);
  const io::CifBlock& block = choose_block(blocks, path);
  Structure structure;
  structure.title = block.name;
  const Cell cell = read_cell(block, path);
  structure.cell = cell;
  structure.periodic = true;
  const auto ops = read_symmetry(block, path);
  const Mat3 lattice = cell.lattice_vectors();

  const io::CifLoop* sites = block.loop_with("_atom_site_fract_x");
  io::CifLoop single;  // one site given as plain items instead of a loop
  if (!sites) {
    for (const auto& [tag, value] : block.items)
      if (tag.rfind("_atom_site_", 0) == 0) single.tags.push_back(tag);
    if (!block.item("_atom_site_fract_x")) fail_at({path, 0, "_atom_site_fract_x"}, "missing");
    single.rows.emplace_back();
    for (const auto& tag : single.tags) single.rows.back().push_back(*block.item(tag));
    sites = &single;
  }
  const int col_x = sites->column("_atom_site_fract_x"), col_y = sites->column("_atom_site_fract_y"),
            col_z = sites->column("_atom_site_fract_z");
  if (col_y < 0) fail_at({path, sites->line, "_atom_site_fract_y"}, "missing");
  if (col_z < 0) fail_at({path, sites->line, "_atom_site_fract_z"}, "missing");
  const int col_label = sites->column("_atom_site_label");
  const int col_type = sites->column("_atom_site_type_symbol");
  const int col_occupancy = sites->column("_atom_site_occupancy");
  const int col_u = sites->column("_atom_site_u_iso_or_equiv");
  const int col_b = sites->column("_atom_site_b_iso_or_equiv");
  if (col_label < 0 && col_type < 0)
    fail_at({path, sites->line, "_atom_site_type_symbol"}, "missing (and no _atom_site_label)");

  // Oxidation numbers listed per type symbol, for type symbols without a charge.
  std::vector<std::pair<std::string, int>> oxidation;
  if (const auto* types = block.loop_with("_atom_type_oxidation_number")) {
    const int col_symbol = types->column("_atom_type_symbol");
    const int col_ox = types->column("_atom_type_oxidation_number");
    if (col_symbol >= 0)
      for (const auto& row : types->rows) {
        // Non-whole numbers (mixed valence, 2.5) are skipped: no formal charge
        // has a table. A whole number beyond a label's two digits is an error.
        const auto number = io::cif_number(row[col_ox]);
        if (!number || *number != std::round(*number)) continue;
        const auto charge = whole_number(*number, -max_formal_charge, max_formal_charge);
        if (!charge)
          fail_at({path, row[col_ox].line, "_atom_type_oxidation_number"}, "must lie within +-", max_formal_charge,
                  ", got ", *number);
        oxidation.emplace_back(io::to_lower(row[col_symbol].text), static_cast<int>(*charge));
      }
  }

  for (const auto& row : sites->rows) {
    auto number = [&](int col, const char* tag) {
      const auto& value = row[col];
      if (io::cif_missing(value)) fail_at({path, value.line, tag}, "missing");
      const auto parsed = io::cif_number(value);
      if (!parsed) fail_at({path, value.line, tag}, "not a number '", value.text, "'");
      if (!std::isfinite(*parsed)) fail_at({path, value.line, tag}, "not a finite number '", value.text, "'");
      return *parsed;
    };
    const Vec3 site{number(col_x, "_atom_site_fract_x"), number(col_y, "_atom_site_fract_y"),
                    number(col_z, "_atom_site_fract_z")};
    Atom atom;
    if (col_type >= 0 && !io::cif_missing(row[col_type])) {
      const auto& value = row[col_type];
      try {
        std::tie(atom.element, atom.charge) = parse_species_label(value.text);
      } catch (const Error& e) {
        rethrow_with(e, {path, value.line, "_atom_site_type_symbol"});
      }
      if (atom.charge == 0)
        for (const auto& [symbol, charge] : oxidation)
          if (symbol == io::to_lower(value.text)) atom.charge = charge;
    } else if (col_label >= 0) {
      atom.element = element_from_label(row[col_label], path);
    } else {
      fail_at({path, row[col_type].line, "_atom_site_type_symbol"}, "missing");
    }
    if (col_occupancy >= 0 && !io::cif_missing(row[col_occupancy])) {
      atom.occupancy = number(col_occupancy, "_atom_site_occupancy");
      if (atom.occupancy < 0 || atom.occupancy > 1)
        fail_at({path, row[col_occupancy].line, "_atom_site_occupancy"}, "outside [0, 1]: ", atom.occupancy);
    }
    if (col_u >= 0 && !io::cif_missing(row[col_u])) {
      // B = 8π² U (Trueblood et al., Acta Cryst. A52, 770 (1996)).
      atom.b_iso = 8 * std::numbers::pi * std::numbers::pi * number(col_u, "_atom_site_U_iso_or_equiv");
    } else if (col_b >= 0 && !io::cif_missing(row[col_b])) {
      atom.b_iso = number(col_b, "_atom_site_B_iso_or_equiv");
    }
    for (const Vec3& fractional : site_orbit(site, ops, kMergeTolerance)) {
      Atom image = atom;
      image.position = lattice * fractional;
      structure.atoms.push_back(std::move(image));
    }
  }
  return structure;
}

}  // namespace nanoscatter
