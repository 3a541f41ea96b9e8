#include "nanoscatter/whole_number.hpp"

#include <charconv>
#include <cmath>

namespace nanoscatter {

std::optional<std::int64_t> whole_number(double value, std::int64_t min, std::int64_t max) {
  // 2^63 is the first double beyond int64; comparing with it (not with
  // double(max), which rounds up to it) keeps the cast defined.
  constexpr double kTwoTo63 = 9223372036854775808.0;
  if (!(value >= -kTwoTo63 && value < kTwoTo63) || value != std::floor(value)) return std::nullopt;
  const auto n = static_cast<std::int64_t>(value);
  if (n < min || n > max) return std::nullopt;
  return n;
}

std::optional<std::int64_t> whole_number(std::string_view text, std::int64_t min, std::int64_t max) {
  // from_chars takes no '+', which Fortran- and C-written files emit.
  if (text.size() > 1 && text.front() == '+' && text[1] != '-') text.remove_prefix(1);
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < min || n > max) return std::nullopt;
  return n;
}

}  // namespace nanoscatter
