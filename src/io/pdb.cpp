// PDB reader and writer (wwPDB format v3.3, fixed columns). Only what a
// structure for scattering needs: ATOM/HETATM coordinates, element, charge,
// occupancy, B-factor, and the CRYST1 cell.
#include <cctype>
#include <cmath>
#include <cstdio>

#include "io/structure_text.hpp"
#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/structure_io.hpp"

namespace nanoscatter {
namespace {

// Columns first..last (1-based, inclusive, as the format document numbers
// them), trimmed; "" when the line is shorter.
std::string_view columns(const std::string& line, std::size_t first, std::size_t last) {
  if (line.size() < first) return {};
  const std::string_view view(line);
  return io::trim(view.substr(first - 1, std::min(last, line.size()) - first + 1));
}

bool record_is(const std::string& line, std::string_view name) {
  return std::string_view(line).substr(0, name.size()) == name;
}

double required_number(const std::string& line, std::size_t first, std::size_t last, const Where& where) {
  const auto text = columns(line, first, last);
  if (text.empty()) fail_at(where, "missing (columns ", first, "-", last, ")");
  return io::parse_finite(text, where);
}

double optional_number(const std::string& line, std::size_t first, std::size_t last, double fallback,
                       const Where& where) {
  const auto text = columns(line, first, last);
  return text.empty() ? fallback : io::parse_finite(text, where);
}

// Element when columns 77–78 are blank, from the atom name (columns 13–16):
// the format right-justifies one-letter elements in 13–14 (" CA " is a
// carbon), so a name that starts in column 13 begins with a two-letter
// element when one fits ("FE  ", "CA  " calcium).
std::string element_from_name(const std::string& line, const Where& where) {
  const std::string name = line.size() >= 13 ? line.substr(12, std::min<std::size_t>(4, line.size() - 12)) : "";
  std::string letters;
  for (char ch : name)
    if (std::isalpha(static_cast<unsigned char>(ch))) letters += ch;
    else if (!letters.empty()) break;
  if (letters.empty()) fail_at(where, "no element in columns 77-78 and none in the atom name '", name, "'");
  const bool starts_in_13 = !name.empty() && name[0] != ' ' && !std::isdigit(static_cast<unsigned char>(name[0]));
  if (starts_in_13 && letters.size() >= 2 && find_atomic_number(letters.substr(0, 2)))
    return element_symbol(*find_atomic_number(letters.substr(0, 2)));
  if (const auto z = find_atomic_number(letters.substr(0, 1))) return element_symbol(*z);
  fail_at(where, "no element in columns 77-78 and none recognised in the atom name '", name, "'");
}

// Columns 79–80: "2+", "1-" (the format's order) or "+2".
int parse_charge(std::string_view text, const Where& where) {
  if (text.empty()) return 0;
  std::string label = "H" + std::string(text);  // reuse the species-label grammar
  try {
    return parse_species_label(label).second;
  } catch (const Error&) {
    fail_at(where, "bad charge '", text, "' (expected e.g. 2+ or 1-)");
  }
}

}  // namespace

Structure read_pdb(const std::string& path) {
  const auto lines = io::read_lines(path);
  Structure structure;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const std::string& line = lines[k];
    const int n = static_cast<int>(k) + 1;
    // Only the first model of a multi-model file; END closes the entry.
    if (record_is(line, "ENDMDL") || io::trim(line) == "END") break;
    if (record_is(line, "TITLE ") || record_is(line, "HEADER")) {
      if (structure.title.empty()) structure.title = std::string(columns(line, 11, 80));
      continue;
    }
    if (record_is(line, "CRYST1")) {
      Cell cell;
      cell.a = required_number(line, 7, 15, {path, n, "CRYST1 a"});
      cell.b = required_number(line, 16, 24, {path, n, "CRYST1 b"});
      cell.c = required_number(line, 25, 33, {path, n, "CRYST1 c"});
      cell.alpha = required_number(line, 34, 40, {path, n, "CRYST1 alpha"});
      cell.beta = required_number(line, 41, 47, {path, n, "CRYST1 beta"});
      cell.gamma = required_number(line, 48, 54, {path, n, "CRYST1 gamma"});
      // The format's placeholder for structures without a crystal cell.
      const bool placeholder = cell.a == 1 && cell.b == 1 && cell.c == 1 && cell.alpha == 90 &&
                               cell.beta == 90 && cell.gamma == 90;
      if (!placeholder) {
        validate_cell(cell, {path, n, ""});
        structure.cell = cell;
        // Atoms are the whole cell only in P 1; otherwise they are the
        // asymmetric unit and the space group would have to expand them.
        std::string group;
        for (char ch : columns(line, 56, 66))
          if (ch != ' ') group += ch;
        structure.periodic = io::iequals(group, "P1");
      }
      continue;
    }
    if (!record_is(line, "ATOM  ") && !record_is(line, "HETATM") && line != "ATOM" && line != "HETATM")
      continue;
    Atom atom;
    atom.position.x = required_number(line, 31, 38, {path, n, "x"});
    atom.position.y = required_number(line, 39, 46, {path, n, "y"});
    atom.position.z = required_number(line, 47, 54, {path, n, "z"});
    atom.occupancy = optional_number(line, 55, 60, 1.0, {path, n, "occupancy"});
    if (atom.occupancy < 0 || atom.occupancy > 1)
      fail_at({path, n, "occupancy"}, "outside [0, 1]: ", atom.occupancy);
    atom.b_iso = optional_number(line, 61, 66, 0.0, {path, n, "B-factor"});
    const auto element = columns(line, 77, 78);
    if (element.empty()) {
      atom.element = element_from_name(line, {path, n, "element"});
    } else {
      const auto z = find_atomic_number(std::string(element));
      if (!z) fail_at({path, n, "element"}, "unknown element '", element, "'");
      atom.element = element_symbol(*z);
    }
    atom.charge = parse_charge(columns(line, 79, 80), {path, n, "charge"});
    structure.atoms.push_back(std::move(atom));
  }
  return structure;
}

void write_pdb(const std::string& path, const Structure& structure, const std::string& title) {
  // Columns 31–54 hold three %8.3f numbers: |x| below 10^4 Å (−9999.999).
  constexpr double kMaxCoordinate = 9999.999;
  for (std::size_t i = 0; i < structure.atoms.size(); ++i) {
    const Vec3& r = structure.atoms[i].position;
    if (!is_finite(r) || std::abs(r.x) > kMaxCoordinate || std::abs(r.y) > kMaxCoordinate ||
        std::abs(r.z) > kMaxCoordinate)
      fail_at({path, 0, "position"}, "atom ", i + 1, " lies outside the PDB coordinate range (|x| < 10000 Å)");
  }
  AtomicOutput output(path);
  FILE* file = std::fopen(output.temp_path().c_str(), "w");
  if (!file) fail_at({path, 0, "--output"}, "cannot create file");
  std::string clean = title.substr(0, 70);
  for (char& ch : clean)
    if (ch == '\n' || ch == '\r') ch = ' ';
  if (!clean.empty()) std::fprintf(file, "TITLE     %s\n", clean.c_str());
  // CRYST1 says the atoms fill a crystal with this cell; a finite particle
  // cut from one gets no CRYST1 (the format's way to say "not a crystal").
  if (structure.cell && structure.periodic) {
    const Cell& c = *structure.cell;
    std::fprintf(file, "CRYST1%9.3f%9.3f%9.3f%7.2f%7.2f%7.2f %-11s%4d\n", c.a, c.b, c.c, c.alpha, c.beta,
                 c.gamma, "P 1", 1);
  }
  for (std::size_t i = 0; i < structure.atoms.size(); ++i) {
    const Atom& atom = structure.atoms[i];
    // Serial numbers have five columns; they wrap as in other writers (ASE, VMD).
    const int serial = static_cast<int>((i + 1) % 100000);
    char charge[3] = "  ";
    if (atom.charge != 0 && std::abs(atom.charge) < 10)
      std::snprintf(charge, sizeof charge, "%d%c", std::abs(atom.charge), atom.charge > 0 ? '+' : '-');
    // Upper case as the format writes elements; one-letter elements sit in column 14.
    std::string element = atom.element;
    for (char& ch : element) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    const std::string name = element.size() == 1 ? " " + element : element;
    std::fprintf(file, "HETATM%5d %-4s %3s %c%4d    %8.3f%8.3f%8.3f%6.2f%6.2f          %2s%2s\n", serial,
                 name.c_str(), "UNL", 'A', 1, atom.position.x, atom.position.y, atom.position.z,
                 atom.occupancy, atom.b_iso, element.c_str(), charge);
  }
  std::fprintf(file, "END\n");
  const bool ok = std::ferror(file) == 0;
  if (std::fclose(file) != 0 || !ok) fail_at({path, 0, "--output"}, "write error");
  output.commit();
}

}  // namespace nanoscatter
