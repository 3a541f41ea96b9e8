#include "structure/species_split.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "nanoscatter/error.hpp"

namespace nanoscatter {

SpeciesSplit split_by_species(const Structure& structure) {
  if (structure.atoms.empty()) fail_at({"", 0, "structure"}, "the structure has no atoms");
  SpeciesSplit out;
  for (std::size_t i = 0; i < structure.atoms.size(); ++i) {
    const Atom& atom = structure.atoms[i];
    const std::string where = "atom " + std::to_string(i + 1);
    if (!is_finite(atom.position)) fail_at({"", 0, where}, "position is not finite");
    if (!(atom.occupancy >= 0 && atom.occupancy <= 1))
      fail_at({"", 0, where}, "occupancy ", atom.occupancy, " is outside [0, 1]");
    if (!(atom.b_iso >= 0) || !std::isfinite(atom.b_iso))
      fail_at({"", 0, where}, "B = ", atom.b_iso, " Å² must be finite and ≥ 0");
    if (atom.occupancy == 0) continue;
    const Species sp{atom.element, atom.charge, atom.b_iso};
    const auto it = std::find(out.species.begin(), out.species.end(), sp);
    const auto m = static_cast<std::size_t>(it - out.species.begin());
    if (it == out.species.end()) {
      out.species.push_back(sp);
      out.atoms.emplace_back();
    }
    AtomSoA& list = out.atoms[m];
    list.x.push_back(atom.position.x);
    list.y.push_back(atom.position.y);
    list.z.push_back(atom.position.z);
    list.w.push_back(atom.occupancy);
    ++out.atom_count;
  }
  if (out.species.empty()) fail_at({"", 0, "structure"}, "every atom has occupancy 0: nothing scatters");
  return out;
}

}  // namespace nanoscatter
