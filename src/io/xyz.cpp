// XYZ reader and writer, plain and extended (the extended-XYZ comment line of
// ASE/QUIP/OVITO: Lattice="...", Properties=name:type:count:..., pbc="T T T").
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>

#include "io/structure_text.hpp"
#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/resource_guard.hpp"
#include "nanoscatter/structure_io.hpp"
#include "nanoscatter/whole_number.hpp"

namespace nanoscatter {
namespace {

constexpr int kCommentLine = 2;  // 1-based line of the comment / extended-XYZ header

// key=value pairs of an extended-XYZ comment line; values may be "quoted".
std::map<std::string, std::string> parse_key_values(const std::string& text, const Where& where) {
  std::map<std::string, std::string> pairs;
  std::size_t pos = 0;
  auto skip_space = [&] {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  };
  for (skip_space(); pos < text.size(); skip_space()) {
    const std::size_t key_begin = pos;
    while (pos < text.size() && text[pos] != '=' && !std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    const std::string key = io::to_lower(text.substr(key_begin, pos - key_begin));
    std::string value;
    skip_space();
    if (pos < text.size() && text[pos] == '=') {
      ++pos;
      skip_space();
      if (pos < text.size() && text[pos] == '"') {
        ++pos;
        bool closed = false;
        while (pos < text.size()) {
          if (text[pos] == '\\' && pos + 1 < text.size()) {
            value += text[pos + 1];
            pos += 2;
          } else if (text[pos] == '"') {
            ++pos;
            closed = true;
            break;
          } else {
            value += text[pos++];
          }
        }
        if (!closed) fail_at({where.file, where.line, key}, "unterminated quoted value");
      } else {
        const std::size_t begin = pos;
        while (pos < text.size() && !std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
        value = text.substr(begin, pos - begin);
      }
    } else {
      value = "T";  // a bare key is a logical flag (extended-XYZ convention)
    }
    pairs[key] = value;
  }
  return pairs;
}

// Column layout of an extended-XYZ atom line.
struct Columns {
  int species = 0;           // column of the species label (or atomic number)
  bool species_is_number = false;
  int position = 1;          // first of three position columns
  int charge = -1, occupancy = -1, b_iso = -1;
  int count = 4;             // columns each atom line must have
};

Columns parse_properties(const std::string& spec, const Where& where) {
  std::vector<std::string> parts(1);
  for (char ch : spec) {
    if (ch == ':') parts.emplace_back();
    else parts.back() += ch;
  }
  if (parts.size() % 3 != 0) fail_at(where, "expected name:type:count triples in '", spec, "'");
  Columns columns;
  columns.species = columns.position = -1;
  int column = 0;
  for (std::size_t i = 0; i < parts.size(); i += 3) {
    const std::string name = io::to_lower(parts[i]);
    const std::string type = io::to_lower(parts[i + 1]);
    const auto count = whole_number(parts[i + 2]);
    if (!count || *count < 1 || (type != "s" && type != "r" && type != "i" && type != "l"))
      fail_at(where, "bad property '", parts[i], ":", parts[i + 1], ":", parts[i + 2], "'");
    if ((name == "species" || name == "z") && *count == 1) {
      columns.species = column;
      columns.species_is_number = name == "z";
    } else if (name == "pos" && *count == 3 && type == "r") {
      columns.position = column;
    } else if ((name == "charge" || name == "initial_charges") && *count == 1) {
      columns.charge = column;
    } else if (name == "occupancy" && *count == 1) {
      columns.occupancy = column;
    } else if (name == "b_iso" && *count == 1) {
      columns.b_iso = column;
    }
    column += static_cast<int>(*count);
  }
  if (columns.species < 0) fail_at(where, "no species:S:1 (or Z:I:1) column in '", spec, "'");
  if (columns.position < 0) fail_at(where, "no pos:R:3 column in '", spec, "'");
  columns.count = column;
  return columns;
}

Cell parse_lattice(const std::string& text, const Where& where, Mat3& file_vectors) {
  const auto tokens = io::split_whitespace(text);
  if (tokens.size() != 9) fail_at(where, "expected 9 numbers, got ", tokens.size());
  double v[9];
  for (int i = 0; i < 9; ++i) v[i] = io::parse_finite(tokens[i], where);
  const Vec3 a{v[0], v[1], v[2]}, b{v[3], v[4], v[5]}, c{v[6], v[7], v[8]};
  file_vectors = Mat3::from_columns(a, b, c);
  try {
    return cell_from_vectors(a, b, c);
  } catch (const Error& e) {
    rethrow_with(e, where);
  }
}

// Species token: a label ("Au", "Na1+") or, in a Z column / as a bare
// integer, an atomic number.
std::pair<std::string, int> parse_species(std::string_view token, bool is_number, const Where& where) {
  if (const auto z = whole_number(token)) {
    if (*z < 1 || *z > 118) fail_at(where, "atomic number ", *z, " outside 1..118");
    return {element_symbol(static_cast<int>(*z)), 0};
  }
  if (is_number) fail_at(where, "not an atomic number '", token, "'");
  try {
    return parse_species_label(std::string(token));
  } catch (const Error& e) {
    rethrow_with(e, where);
  }
}

}  // namespace

Structure read_xyz(const std::string& path) {
  const auto lines = io::read_lines(path);
  if (lines.empty()) fail_at({path, 1, "atom count"}, "empty file");
  const auto count_tokens = io::split_whitespace(lines[0]);
  const auto declared = count_tokens.empty() ? std::nullopt : whole_number(count_tokens[0]);
  if (!declared || *declared < 0)
    fail_at({path, 1, "atom count"}, "not a non-negative integer '", io::trim(lines[0]), "'");
  // The declared count is untrusted: it must fit the lines present, and
  // memory, before anything is reserved for it.
  const int first_atom_line = 3;  // 1-based
  const std::size_t atom_lines = lines.size() >= first_atom_line ? lines.size() - (first_atom_line - 1) : 0;
  if (static_cast<std::uint64_t>(*declared) > atom_lines)
    fail_at({path, 1, "atom count"}, "the file declares ", *declared, " atoms but has only ", atom_lines,
            " atom lines");
  const auto atom_count = static_cast<std::size_t>(*declared);
  require_host_memory({path, 1, "atom count"}, std::to_string(atom_count) + " atoms",
                      static_cast<double>(atom_count) * sizeof(Atom));

  Structure structure;
  Columns columns;
  const std::string comment = lines.size() > 1 ? lines[1] : "";
  structure.title = std::string(io::trim(comment));
  const std::string lowered = io::to_lower(comment);
  std::optional<Mat3> to_standard;  // rotation onto the cell's standard orientation
  if (lowered.find("lattice=") != std::string::npos || lowered.find("properties=") != std::string::npos) {
    const auto pairs = parse_key_values(comment, {path, kCommentLine, ""});
    if (auto it = pairs.find("properties"); it != pairs.end())
      columns = parse_properties(it->second, {path, kCommentLine, "Properties"});
    if (auto it = pairs.find("lattice"); it != pairs.end()) {
      Mat3 file_vectors;
      structure.cell = parse_lattice(it->second, {path, kCommentLine, "Lattice"}, file_vectors);
      // ASE's convention: a Lattice without pbc means periodic in all directions.
      structure.periodic = true;
      const Mat3 rotation = structure.cell->lattice_vectors() * inverse(file_vectors);
      double off_identity = 0;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) off_identity = std::fmax(off_identity, std::abs(rotation.row[i][j] - (i == j)));
      // 1e-12: rounding of the matrix product for a lattice already in standard orientation.
      if (off_identity > 1e-12) to_standard = rotation;
    }
    if (auto it = pairs.find("pbc"); it != pairs.end()) {
      const auto flags = io::split_whitespace(it->second);
      bool all = flags.size() == 3;
      for (auto flag : flags) all = all && (io::iequals(flag, "t") || io::iequals(flag, "true"));
      structure.periodic = all && structure.cell.has_value();
    }
    if (auto it = pairs.find("comment"); it != pairs.end()) structure.title = it->second;
  }

  structure.atoms.reserve(atom_count);
  for (std::size_t i = 0; i < atom_count; ++i) {
    const int line_number = first_atom_line + static_cast<int>(i);
    if (static_cast<std::size_t>(line_number) > lines.size())
      fail_at({path, 1, "atom count"}, "the file declares ", atom_count, " atoms but has only ", i,
              " atom lines");
    const auto tokens = io::split_whitespace(lines[line_number - 1]);
    auto column = [&](int index, const char* field) {
      if (index >= static_cast<int>(tokens.size()))
        fail_at({path, line_number, field}, "missing (line has ", tokens.size(), " columns, expected ",
                columns.count, ")");
      return tokens[index];
    };
    if (tokens.empty())
      fail_at({path, line_number, "atom count"}, "blank line where atom ", i + 1, " of ", atom_count,
              " was expected");
    Atom atom;
    const auto [element, charge] =
        parse_species(column(columns.species, "element"), columns.species_is_number, {path, line_number, "element"});
    atom.element = element;
    atom.charge = charge;
    static const char* axis_names[3] = {"x", "y", "z"};
    for (int k = 0; k < 3; ++k)
      atom.position[k] = io::parse_finite(column(columns.position + k, axis_names[k]), {path, line_number, axis_names[k]});
    if (to_standard) atom.position = *to_standard * atom.position;
    if (columns.charge >= 0) {
      const Where where{path, line_number, "charge"};
      const double q = io::parse_finite(column(columns.charge, "charge"), where);
      const auto whole = whole_number(q, -max_formal_charge, max_formal_charge);
      if (!whole)
        fail_at(where, "formal charge must be a whole number within +-", max_formal_charge, ", got ", q);
      atom.charge = static_cast<int>(*whole);
    }
    if (columns.occupancy >= 0) {
      const Where where{path, line_number, "occupancy"};
      atom.occupancy = io::parse_finite(column(columns.occupancy, "occupancy"), where);
      if (atom.occupancy < 0 || atom.occupancy > 1) fail_at(where, "outside [0, 1]: ", atom.occupancy);
    }
    if (columns.b_iso >= 0)
      atom.b_iso = io::parse_finite(column(columns.b_iso, "b_iso"), {path, line_number, "b_iso"});
    structure.atoms.push_back(std::move(atom));
  }
  for (std::size_t k = first_atom_line - 1 + atom_count; k < lines.size(); ++k)
    if (!io::trim(lines[k]).empty())
      fail_at({path, static_cast<int>(k) + 1, "atom count"}, "more lines than the ", atom_count,
              " atoms declared on line 1 (multi-frame XYZ is not supported)");
  return structure;
}

void write_xyz(const std::string& path, const Structure& structure, const std::string& comment) {
  bool need_charge = false, need_occupancy = false, need_b = false;
  for (std::size_t i = 0; i < structure.atoms.size(); ++i) {
    const Atom& atom = structure.atoms[i];
    if (!is_finite(atom.position)) fail_at({path, 0, "position"}, "atom ", i + 1, " has a non-finite position");
    need_charge |= atom.charge != 0;
    need_occupancy |= atom.occupancy != 1;
    need_b |= atom.b_iso != 0;
  }
  const bool extended = structure.cell || need_charge || need_occupancy || need_b;

  // One line only, and no quote that would end comment="..." early.
  std::string clean = comment;
  for (char& ch : clean) {
    if (ch == '\n' || ch == '\r') ch = ' ';
    if (extended && ch == '"') ch = '\'';
  }

  AtomicOutput output(path);
  FILE* file = std::fopen(output.temp_path().c_str(), "w");
  if (!file) fail_at({path, 0, "--output"}, "cannot create file");
  std::fprintf(file, "%zu\n", structure.atoms.size());
  if (extended) {
    if (structure.cell) {
      const Mat3 lattice = structure.cell->lattice_vectors();
      std::fprintf(file, "Lattice=\"");
      for (int j = 0; j < 3; ++j) {
        const Vec3 v = lattice.column(j);
        std::fprintf(file, "%s%.10f %.10f %.10f", j ? " " : "", v.x, v.y, v.z);
      }
      std::fprintf(file, "\" ");
    }
    std::fprintf(file, "Properties=species:S:1:pos:R:3%s%s%s", need_charge ? ":charge:I:1" : "",
                 need_occupancy ? ":occupancy:R:1" : "", need_b ? ":b_iso:R:1" : "");
    if (structure.cell) std::fprintf(file, " pbc=\"%s\"", structure.periodic ? "T T T" : "F F F");
    if (!clean.empty()) std::fprintf(file, " comment=\"%s\"", clean.c_str());
    std::fprintf(file, "\n");
  } else {
    std::fprintf(file, "%s\n", clean.c_str());
  }
  for (const Atom& atom : structure.atoms) {
    std::fprintf(file, "%-2s %16.8f %16.8f %16.8f", atom.element.c_str(), atom.position.x, atom.position.y,
                 atom.position.z);
    if (need_charge) std::fprintf(file, " %3d", atom.charge);
    if (need_occupancy) std::fprintf(file, " %.6f", atom.occupancy);
    if (need_b) std::fprintf(file, " %.6f", atom.b_iso);
    std::fprintf(file, "\n");
  }
  const bool ok = std::ferror(file) == 0;
  if (std::fclose(file) != 0 || !ok) fail_at({path, 0, "--output"}, "write error");
  output.commit();
}

}  // namespace nanoscatter
