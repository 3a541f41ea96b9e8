#include "nanoscatter/device.hpp"

#include <cmath>
#include <exception>

#include "core/device_memory.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter {

#if !NANOSCATTER_HAVE_CUDA
int cuda_device_count() { return 0; }
std::string cuda_device_name() { return {}; }
void use_cuda_device(int) {}
int current_cuda_device() { return -1; }
std::size_t cuda_free_memory() { return 0; }
#endif

DeviceRequest parse_device(const std::string& name) {
  if (name == "auto") return DeviceRequest::automatic;
  if (name == "cpu") return DeviceRequest::cpu;
  if (name == "gpu") return DeviceRequest::gpu;
  fail_option("device", "unknown device '", name, "' (expected auto, cpu or gpu)");
}

std::size_t parse_memory_size(const std::string& text, const std::string& field) {
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

Precision parse_precision(const std::string& name) {
  if (name == "single" || name == "float" || name == "float32") return Precision::float32;
  if (name == "double" || name == "float64") return Precision::float64;
  if (name == "auto") return Precision::automatic;
  fail_option("precision", "unknown precision '", name, "' (expected auto, single or double)");
}

const char* to_string(Device d) { return d == Device::gpu ? "gpu" : "cpu"; }
const char* to_string(Precision p) {
  switch (p) {
    case Precision::float32: return "single";
    case Precision::float64: return "double";
    case Precision::automatic: break;
  }
  return "auto";
}

void require_gpu() {
  if (cuda_device_count() > 0) return;
  fail_option("device", NANOSCATTER_HAVE_CUDA ? "gpu requested but no CUDA device is available"
                                              : "gpu requested but this build has no CUDA support");
}

void DeviceOptions::validate() const {
  if (threads < 0) fail_option("threads", "must be ≥ 0 (0: all cores), got ", threads);
  if (device == Device::gpu) require_gpu();
}

Precision DeviceOptions::resolved_precision(Precision gpu_automatic) const {
  if (precision != Precision::automatic) return precision;
  return device == Device::gpu ? gpu_automatic : Precision::float64;
}

Device select_device(DeviceRequest request) {
  if (request == DeviceRequest::cpu) return Device::cpu;
  if (request == DeviceRequest::gpu) {
    require_gpu();
    return Device::gpu;
  }
  // auto asks for the GPU only where there is one, so falling back is no
  // news to report: every output's header names the device used, and
  // `nanoscatter info` says whether a GPU is usable (docs/conventions.md).
  return cuda_device_count() > 0 ? Device::gpu : Device::cpu;
}

}  // namespace nanoscatter
