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

void add_compute_options(CLI::App& sub, DeviceOptions& compute, const std::string& threads_help) {
  sub.add_option("--threads", compute.threads, threads_help)->capture_default_str();
  sub.add_option_function<std::string>(
      "--max-device-memory",
      [&compute](const std::string& text) { compute.max_device_memory = parse_memory_size(text, "max_device_memory"); },
      "GPU memory the engine may use (bytes, or 512M, 2G; 0: half the free memory)");
}

}  // namespace nanoscatter::cli
