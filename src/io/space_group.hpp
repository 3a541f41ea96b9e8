// Symmetry operations of a space group given only by its symbol or number,
// from gemmi's space-group tables (International Tables for Crystallography
// Vol. A settings, as gemmi and ASE use them).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace nanoscatter::io {

// Every operation of the group, centring included, as "x,y,z"-style
// triplets; nullopt when the tables do not know the symbol ("F m -3 m",
// "Fm-3m", "P 63/m m c", with or without an origin choice ":2").
std::optional<std::vector<std::string>> space_group_operations(const std::string& hermann_mauguin);

// The same for an International Tables number 1–230 (the group's standard
// setting); nullopt outside that range.
std::optional<std::vector<std::string>> space_group_operations(int number);

}  // namespace nanoscatter::io
