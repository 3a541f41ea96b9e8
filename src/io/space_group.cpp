// gemmi's tables (header-only, Debian gemmi-dev) kept to this one file, so
// the rest of the reader does not compile them.
#include "io/space_group.hpp"

#include <gemmi/symmetry.hpp>

namespace nanoscatter::io {
namespace {

std::optional<std::vector<std::string>> operations_of(const gemmi::SpaceGroup* group) {
  if (!group) return std::nullopt;
  std::vector<std::string> triplets;
  for (const gemmi::Op& op : group->operations()) triplets.push_back(op.triplet());
  return triplets;
}

}  // namespace

std::optional<std::vector<std::string>> space_group_operations(const std::string& hermann_mauguin) {
  return operations_of(gemmi::find_spacegroup_by_name(hermann_mauguin));
}

std::optional<std::vector<std::string>> space_group_operations(int number) {
  constexpr int kLastSpaceGroup = 230;
  if (number < 1 || number > kLastSpaceGroup) return std::nullopt;
  return operations_of(gemmi::find_spacegroup_by_number(number));
}

}  // namespace nanoscatter::io
