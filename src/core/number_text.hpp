// A number written as text, read one way by every reader (structure files,
// text tables, 1D patterns), which had three parsers that drifted: one
// refused 1e-400, one read 1e999 as infinity, one took "+-1".
#pragma once
#include <optional>
#include <string_view>

namespace nanoscatter {

struct TextNumber {
  std::optional<double> value;  // none: not a number, or out of range
  bool out_of_range = false;    // a finite literal beyond the double range (1e999)
};

// The whole token as a number: "1e-3", "-4", "nan", "inf", and "+2.5" (a
// leading '+' that Fortran and C writers emit). An underflow (1e-400) is the
// correctly rounded zero or subnormal.
TextNumber number_from_text(std::string_view token);

}  // namespace nanoscatter
