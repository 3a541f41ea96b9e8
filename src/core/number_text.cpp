#include "core/number_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <system_error>

namespace nanoscatter {

TextNumber number_from_text(std::string_view token) {
  // from_chars takes no leading '+'.
  if (token.size() > 1 && token[0] == '+' && token[1] != '-' && token[1] != '+') token.remove_prefix(1);
  double value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (end != token.data() + token.size() || ec == std::errc::invalid_argument) return {};
  if (ec == std::errc::result_out_of_range) {
    // from_chars reports underflow this way too; strtod tells the two apart
    // (HUGE_VAL for an overflow) and rounds an underflow correctly.
    const std::string copy(token);
    value = std::strtod(copy.c_str(), nullptr);
    if (value == HUGE_VAL || value == -HUGE_VAL) return {std::nullopt, true};
  }
  return {value, false};
}

}  // namespace nanoscatter
