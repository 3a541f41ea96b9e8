#include "nanoscatter/resource_guard.hpp"

#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/device_memory.hpp"

namespace nanoscatter {
namespace {

constexpr double kBytesPerKiB = 1024;
constexpr double kBytesPerGB = 1e9;

// MemAvailable in bytes, or +inf where /proc/meminfo does not say.
double mem_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kib = 0;
  std::string unit;
  while (meminfo >> key >> kib) {
    std::getline(meminfo, unit);
    if (key == "MemAvailable:") return kib * kBytesPerKiB;
  }
  return std::numeric_limits<double>::infinity();
}

// The soft limit `resource` in bytes, or +inf when unlimited.
double soft_limit(int resource) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return std::numeric_limits<double>::infinity();
  return static_cast<double>(limit.rlim_cur);
}

void require(const Where& where, std::string_view what, double bytes, double available, const char* memory) {
  if (!(bytes <= available))
    fail_at(where, what, " needs ~", format_gigabytes(bytes), ", ", format_gigabytes(available), " ", memory,
            " available");
}

}  // namespace

double available_host_bytes() {
  double available = mem_available();
  available = std::fmin(available, soft_limit(RLIMIT_AS));
  available = std::fmin(available, soft_limit(RLIMIT_DATA));
  return std::isfinite(available) ? available : std::numeric_limits<double>::max();
}

double available_device_bytes() { return static_cast<double>(cuda_free_memory()); }

std::string format_gigabytes(double bytes) {
  char text[64];
  const double gb = bytes / kBytesPerGB;
  // Three significant digits: enough to compare a need with what is there.
  std::snprintf(text, sizeof text, gb < 1e6 ? "%.3g GB" : "%.3e GB", gb);
  return text;
}

void require_host_memory(const Where& where, std::string_view what, double bytes) {
  require(where, what, bytes, available_host_bytes(), "of memory");
}

void require_device_memory(const Where& where, std::string_view what, double bytes) {
  require(where, what, bytes, available_device_bytes(), "of GPU memory");
}

void require_present(const Where& where, std::string_view what, double declared, double min_bytes_each,
                     double bytes_present) {
  if (declared * min_bytes_each > bytes_present) {
    std::ostringstream count;
    count.precision(std::numeric_limits<double>::digits10);
    count << declared;
    fail_at(where, count.str(), " ", what, " declared, but the file has only ", static_cast<std::uint64_t>(bytes_present),
            " bytes (at least ", min_bytes_each, " per record)");
  }
}

}  // namespace nanoscatter
