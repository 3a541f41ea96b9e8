// Messages are one line (docs/design.md, command-line contract): text from
// third parties (toml++, CLI11, an echoed CIF text field) may hold line
// breaks, so every message goes through one_line before it is shown.
#pragma once
#include <string>
#include <string_view>

namespace nanoscatter {

// Trailing white space goes; each inner line break, with the white space
// around it, becomes "; ".
std::string one_line(std::string_view text);

}  // namespace nanoscatter
