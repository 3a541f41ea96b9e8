// Point defects: random vacancies and Gaussian displacements.
#include <cmath>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/error.hpp"
#include "structure/random.hpp"

namespace nanoscatter {

Structure add_vacancies(const Structure& structure, const VacancyOptions& options) {
  if (!(std::isfinite(options.fraction) && options.fraction >= 0 && options.fraction <= 1))
    fail_at({"", 0, "fraction"}, "vacancy fraction must lie in [0, 1], got ", options.fraction);
  std::vector<std::string> eligible_elements;
  for (const auto& label : options.elements) {
    const auto z = find_atomic_number(label);
    if (!z) fail_at({"", 0, "vacancy elements"}, "unknown element '", label, "'");
    eligible_elements.push_back(element_symbol(*z));
  }
  std::vector<std::size_t> eligible;
  for (std::size_t i = 0; i < structure.atoms.size(); ++i) {
    bool ok = eligible_elements.empty();
    for (const auto& e : eligible_elements) ok = ok || structure.atoms[i].element == e;
    if (ok) eligible.push_back(i);
  }
  const auto removed_count = static_cast<std::size_t>(std::llround(options.fraction * static_cast<double>(eligible.size())));
  // An empty structure is no particle: a run that would write one is a mistake.
  if (!options.allow_empty && removed_count > 0 && removed_count == structure.atoms.size())
    fail_at({"", 0, "fraction"}, "removes all ", removed_count, " atoms, leaving none (fraction ", options.fraction, ")");

  // Partial Fisher–Yates: the first removed_count entries become a uniform
  // random subset (Knuth, TAOCP vol. 2, Algorithm 3.4.2P).
  ReproducibleRandom random(options.seed);
  for (std::size_t i = 0; i < removed_count; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(random.below(eligible.size() - i));
    std::swap(eligible[i], eligible[j]);
  }
  std::vector<bool> removed(structure.atoms.size(), false);
  for (std::size_t i = 0; i < removed_count; ++i) removed[eligible[i]] = true;

  Structure out = structure;
  out.atoms.clear();
  for (std::size_t i = 0; i < structure.atoms.size(); ++i)
    if (!removed[i]) out.atoms.push_back(structure.atoms[i]);
  return out;
}

Structure displace_atoms(const Structure& structure, const DisplacementOptions& options) {
  if (!(std::isfinite(options.rms) && options.rms >= 0))
    fail_at({"", 0, "rms"}, "rms displacement must be non-negative and finite, got ", options.rms);
  ReproducibleRandom random(options.seed);
  Structure out = structure;
  for (Atom& atom : out.atoms) {
    // Fixed order x, y, z so that a seed always gives the same offsets.
    const double dx = random.normal(), dy = random.normal(), dz = random.normal();
    atom.position += Vec3{dx, dy, dz} * options.rms;
  }
  return out;
}

}  // namespace nanoscatter
