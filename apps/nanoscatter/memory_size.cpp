#include "memory_size.hpp"

#include <cmath>
#include <exception>

#include "nanoscatter/error.hpp"

namespace nanoscatter::cli {

std::size_t parse_memory_size(const std::string& text, const char* field) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    fail_option(field, "'", text, "' is not a size (bytes, or with K, M, G)");
  }
  const std::string unit = text.substr(used);
  constexpr double kKiB = 1024.0;
  double scale = 1;
  if (unit == "" || unit == "B") scale = 1;
  else if (unit == "K" || unit == "KiB" || unit == "k") scale = kKiB;
  else if (unit == "M" || unit == "MiB") scale = kKiB * kKiB;
  else if (unit == "G" || unit == "GiB") scale = kKiB * kKiB * kKiB;
  else fail_option(field, "unknown unit '", unit, "' (K, M, G: powers of 1024)");
  if (!(value >= 0) || !std::isfinite(value)) fail_option(field, "must be ≥ 0, got '", text, "'");
  return static_cast<std::size_t>(value * scale);
}

}  // namespace nanoscatter::cli
