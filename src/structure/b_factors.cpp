// Isotropic Debye–Waller B factors set per element.
#include <algorithm>
#include <cmath>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter {

bool Structure::has_b_factors() const {
  return std::any_of(atoms.begin(), atoms.end(), [](const Atom& a) { return a.b_iso != 0; });
}

Structure set_b_factors(const Structure& structure, const std::map<std::string, double>& b_by_element) {
  std::map<std::string, double> by_symbol;
  for (const auto& [label, b] : b_by_element) {
    const auto z = find_atomic_number(label);
    if (!z) fail_option("b_factor", "unknown element '", label, "'");
    if (!(std::isfinite(b) && b >= 0)) fail_option("b_factor", label, ": B must be a finite value ≥ 0 Å², got ", b);
    by_symbol[element_symbol(*z)] = b;
  }
  Structure out = structure;
  std::map<std::string, bool> used;
  for (Atom& atom : out.atoms)
    if (const auto it = by_symbol.find(atom.element); it != by_symbol.end()) {
      atom.b_iso = it->second;
      used[it->first] = true;
    }
  // A B for an element the structure lacks is most likely a typo (Ag for Au).
  for (const auto& [symbol, b] : by_symbol)
    if (!used[symbol]) fail_option("b_factor", "the structure has no ", symbol, " atom");
  return out;
}

}  // namespace nanoscatter
