// CUDA side of device selection (compiled only when CUDA is built).
#include <cstdio>
#include <string>

#include "core/cuda_check.cuh"
#include "core/device_memory.hpp"
#include "nanoscatter/device.hpp"

namespace nanoscatter {

int cuda_device_count() {
  int n = 0;
  // No driver or no device is a normal situation on CPU machines, not an error.
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky status
    return 0;
  }
  return n;
}

void use_cuda_device(int index) { NS_CUDA_CHECK(cudaSetDevice(index)); }

int current_cuda_device() {
  int device = -1;
  if (cuda_device_count() == 0 || cudaGetDevice(&device) != cudaSuccess) return -1;
  return device;
}

std::size_t cuda_free_memory() {
  std::size_t free_b = 0, total_b = 0;
  if (cuda_device_count() == 0 || cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky status: an unknown amount is reported as none
    return 0;
  }
  return free_b;
}

std::string cuda_device_name() {
  if (cuda_device_count() == 0) return {};
  int device = 0;
  NS_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  NS_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s, %d SMs, %.0f GiB", prop.name, prop.multiProcessorCount,
                prop.totalGlobalMem / 1073741824.0);
  return buf;
}

}  // namespace nanoscatter
