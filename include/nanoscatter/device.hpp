// Device selection: where an engine runs (CPU or a CUDA GPU).
#pragma once
#include <string>

namespace nanoscatter {

enum class DeviceRequest { automatic, cpu, gpu };
enum class Device { cpu, gpu };
enum class Precision { single, dual };  // "dual" = float64 ("double" is a keyword)

DeviceRequest parse_device(const std::string& name);  // "auto", "cpu", "gpu"
Precision parse_precision(const std::string& name);   // "single", "double"
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

// Resolve a request: gpu without a usable GPU is an Error; automatic falls
// back to the CPU and says so once on stderr (unless quiet).
Device select_device(DeviceRequest request, bool quiet = false);

}  // namespace nanoscatter
