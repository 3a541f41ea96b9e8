#include "structure/species_split.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "nanoscatter/error.hpp"

namespace nanoscatter {

SpeciesSplit split_by_species(const Structure& structure) {
  if (structure.atoms.empty()) fail_at({"", 0, "structure"}, "the structure has no atoms");
  SpeciesSplit out;
  const auto where = [](std::size_t i) { return "atom " + std::to_string(i + 1); };  // only for errors
  const auto same = [](const Species& s, const Atom& a) {
    return s.charge == a.charge && s.b_iso == a.b_iso && s.element == a.element;
  };
  std::size_t last = 0;  // species of the previous atom: runs of one species are the common case
  for (std::size_t i = 0; i < structure.atoms.size(); ++i) {
    const Atom& atom = structure.atoms[i];
    if (!is_finite(atom.position)) fail_at({"", 0, where(i)}, "position is not finite");
    if (!(atom.occupancy >= 0 && atom.occupancy <= 1))
      fail_at({"", 0, where(i)}, "occupancy ", atom.occupancy, " is outside [0, 1]");
    if (!(atom.b_iso >= 0) || !std::isfinite(atom.b_iso))
      fail_at({"", 0, where(i)}, "B = ", atom.b_iso, " Å² must be finite and ≥ 0");
    if (atom.occupancy == 0) continue;
    if (last >= out.species.size() || !same(out.species[last], atom)) {
      last = std::size_t(std::find_if(out.species.begin(), out.species.end(),
                                      [&](const Species& s) { return same(s, atom); }) -
                         out.species.begin());
      if (last == out.species.size()) {
        out.species.push_back(Species{atom.element, atom.charge, atom.b_iso});
        out.atoms.emplace_back();
      }
    }
    AtomSoA& list = out.atoms[last];
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
