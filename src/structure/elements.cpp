// Element symbols 1..118 (IUPAC 2016 names for 113–118) and species labels.
#include <array>
#include <cctype>
#include <string>

#include "nanoscatter/error.hpp"
#include "nanoscatter/structure.hpp"
#include "nanoscatter/whole_number.hpp"

namespace nanoscatter {
namespace {

constexpr int kElementCount = 118;

const std::array<std::string, kElementCount + 1>& symbols() {
  static const std::array<std::string, kElementCount + 1> table = {
      "",   "H",  "He", "Li", "Be", "B",  "C",  "N",  "O",  "F",  "Ne", "Na", "Mg", "Al", "Si",
      "P",  "S",  "Cl", "Ar", "K",  "Ca", "Sc", "Ti", "V",  "Cr", "Mn", "Fe", "Co", "Ni", "Cu",
      "Zn", "Ga", "Ge", "As", "Se", "Br", "Kr", "Rb", "Sr", "Y",  "Zr", "Nb", "Mo", "Tc", "Ru",
      "Rh", "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te", "I",  "Xe", "Cs", "Ba", "La", "Ce", "Pr",
      "Nd", "Pm", "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf", "Ta", "W",
      "Re", "Os", "Ir", "Pt", "Au", "Hg", "Tl", "Pb", "Bi", "Po", "At", "Rn", "Fr", "Ra", "Ac",
      "Th", "Pa", "U",  "Np", "Pu", "Am", "Cm", "Bk", "Cf", "Es", "Fm", "Md", "No", "Lr", "Rf",
      "Db", "Sg", "Bh", "Hs", "Mt", "Ds", "Rg", "Cn", "Nh", "Fl", "Mc", "Lv", "Ts", "Og"};
  return table;
}

// "au", "AU", "aU" -> "Au"
std::string capitalised(const std::string& s) {
  std::string out = s;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto ch = static_cast<unsigned char>(out[i]);
    out[i] = static_cast<char>(i == 0 ? std::toupper(ch) : std::tolower(ch));
  }
  return out;
}

}  // namespace

std::optional<int> find_atomic_number(const std::string& symbol) {
  if (symbol.empty() || symbol.size() > 2) return std::nullopt;
  const std::string canonical = capitalised(symbol);
  const auto& table = symbols();
  for (int z = 1; z <= kElementCount; ++z)
    if (table[z] == canonical) return z;
  return std::nullopt;
}

int atomic_number(const std::string& symbol) {
  const auto z = find_atomic_number(symbol);
  if (!z) fail("unknown element '", symbol, "'");
  return *z;
}

const std::string& element_symbol(int z) {
  if (z < 1 || z > kElementCount) fail("atomic number ", z, " outside 1..", kElementCount);
  return symbols()[z];
}

// Grammar: letters, then an optional charge written "<digits><sign>" (CIF
// type symbols "Fe3+", "O2-"), "<sign><digits>" ("Fe+3") or a bare sign ("Cl-").
std::pair<std::string, int> parse_species_label(const std::string& label) {
  std::size_t i = 0;
  while (i < label.size() && std::isalpha(static_cast<unsigned char>(label[i]))) ++i;
  const std::string letters = label.substr(0, i);
  const auto z = find_atomic_number(letters);
  if (!z) fail("unknown element in species label '", label, "'");
  const std::string rest = label.substr(i);
  if (rest.empty()) return {element_symbol(*z), 0};

  // One or two digits: a charge magnitude, never a sign of its own.
  auto digits = [](const std::string& s) {
    return s.empty() || s.front() == '+' || s.front() == '-' ? std::nullopt : whole_number(s, 0, max_formal_charge);
  };
  std::int64_t magnitude = 0;
  char sign = 0;
  if (rest == "+" || rest == "-") {
    magnitude = 1;
    sign = rest[0];
  } else if (const auto m = (rest.back() == '+' || rest.back() == '-') ? digits(rest.substr(0, rest.size() - 1)) : std::nullopt) {
    magnitude = *m;
    sign = rest.back();
  } else if (const auto m = (rest.front() == '+' || rest.front() == '-') ? digits(rest.substr(1)) : std::nullopt) {
    magnitude = *m;
    sign = rest.front();
  } else {
    fail("bad charge '", rest, "' in species label '", label, "' (expected e.g. Fe3+, O2-, Cl-)");
  }
  return {element_symbol(*z), int(sign == '-' ? -magnitude : magnitude)};
}

}  // namespace nanoscatter
