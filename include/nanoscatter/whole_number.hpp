// Whole numbers read from input: counts, indices and pixel numbers that
// arrive as numbers of any kind (TOML number arrays, text columns, a
// "min,max,n" list) or as text (file headers, indices). One test, so every
// reader refuses 2.5, NaN and out-of-range values alike and the cast to an
// integer type that follows is always defined.
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

namespace nanoscatter {

// `value` when it is a whole number within [min, max], else nullopt.
std::optional<std::int64_t> whole_number(double value, std::int64_t min = std::numeric_limits<std::int64_t>::min(),
                                         std::int64_t max = std::numeric_limits<std::int64_t>::max());

// The whole token as a decimal integer ("12", "+12", "-3"; not " 12",
// "12.0" or "1e3") within [min, max], else nullopt.
std::optional<std::int64_t> whole_number(std::string_view text,
                                         std::int64_t min = std::numeric_limits<std::int64_t>::min(),
                                         std::int64_t max = std::numeric_limits<std::int64_t>::max());

}  // namespace nanoscatter
