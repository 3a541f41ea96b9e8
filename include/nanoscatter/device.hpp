// Device selection: where an engine runs (CPU or a CUDA GPU).
#pragma once
#include <cstddef>
#include <string>

namespace nanoscatter {

enum class DeviceRequest { automatic, cpu, gpu };
enum class Device { cpu, gpu };
// "single", "double" and "auto" to users (--precision, precision=). automatic
// is each engine's own choice (DeviceOptions::resolved_precision).
enum class Precision { float32, float64, automatic };

// Where and how an engine runs: the part of every engine's options that is
// about the machine, with one meaning everywhere. Front ends resolve the
// user's "auto|cpu|gpu" with select_device before they fill `device`.
struct DeviceOptions {
  Device device = Device::cpu;
  Precision precision = Precision::automatic;  // each engine's page says what single means for it
  // Bytes of GPU memory a plan may use; 0: half of the memory free when the
  // plan runs (others may share the GPU). Larger problems run in blocks.
  std::size_t max_device_memory = 0;
  int threads = 0;  // CPU threads (OpenMP); 0: all cores
  bool quiet = true;  // progress bars and notices on stderr off

  // threads ≥ 0; device gpu needs a usable GPU (require_gpu). Errors name
  // the field (fail_option).
  void validate() const;

  // The precision the engine runs in: `precision` where the user chose one;
  // for automatic, `gpu_automatic` on the GPU (the engine's fastest path
  // whose proven bound is ≤ 1e-5, which its page states) and float64 on
  // the CPU, where the reference paths run (single stays one flag away).
  Precision resolved_precision(Precision gpu_automatic = Precision::float64) const;
};

// The one check that a GPU is usable, with the one message when it is not.
void require_gpu();

DeviceRequest parse_device(const std::string& name);  // "auto", "cpu", "gpu"
Precision parse_precision(const std::string& name);   // "single", "double", "auto"
// A memory size as the CLI's --max-device-memory and Python's
// max_device_memory take it: bytes ("1048576"), or with K, M, G (powers of
// 1024: "512M", "1.5GiB"); 0 allowed. An Error naming the option `field`
// otherwise.
std::size_t parse_memory_size(const std::string& text, const std::string& field);
const char* to_string(Device d);
const char* to_string(Precision p);

// Number of usable CUDA devices (0 when built without CUDA or when no driver
// or device is present). Never throws.
int cuda_device_count();
// Short description of the current GPU ("NVIDIA H200, 132 SMs, 139 GiB"), or "".
std::string cuda_device_name();
// Makes GPU `index` current for this process's later CUDA work (each MPI
// rank its own); call before any engine touches the GPU. No-op without CUDA.
void use_cuda_device(int index);
// The current GPU's index, or −1 without CUDA or a device.
int current_cuda_device();

// Resolve a request: gpu without a usable GPU is an Error; automatic takes
// the GPU where one is usable and the CPU otherwise, silently.
Device select_device(DeviceRequest request);

}  // namespace nanoscatter
