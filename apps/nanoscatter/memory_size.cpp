#include "memory_size.hpp"

#include <cmath>
#include <exception>

#include "nanoscatter/error.hpp"

namespace nanoscatter::cli {


void add_compute_options(CLI::App& sub, DeviceOptions& compute, const std::string& threads_help) {
  sub.add_option("--threads", compute.threads, threads_help)->capture_default_str();
  sub.add_option_function<std::string>(
      "--max-device-memory",
      [&compute](const std::string& text) { compute.max_device_memory = parse_memory_size(text, "max_device_memory"); },
      "GPU memory the engine may use (bytes, or 512M, 2G; 0: half the free memory)");
}

}  // namespace nanoscatter::cli
