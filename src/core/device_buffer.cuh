// Owning device allocation (host-side RAII object) whose raw pointer is what
// kernels receive; copies in and out go through the checked CUDA macro.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

#include "core/cuda_check.cuh"

namespace nanoscatter {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n) : n_(n) {
    if (n_) NS_CUDA_CHECK(cudaMalloc(&ptr_, n_ * sizeof(T)));
  }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(n_, o.n_);
    return *this;
  }

  T* data() const { return ptr_; }
  std::size_t size() const { return n_; }

  void upload(const std::vector<T>& host) {
    if (host.size() != n_) fail("DeviceBuffer::upload: size mismatch");
    if (n_) NS_CUDA_CHECK(cudaMemcpy(ptr_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice));
  }
  void upload(const T* host, std::size_t count, std::size_t offset = 0) {
    if (offset + count > n_) fail("DeviceBuffer::upload: out of range");
    if (count) NS_CUDA_CHECK(cudaMemcpy(ptr_ + offset, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(n_);
    if (n_) NS_CUDA_CHECK(cudaMemcpy(host.data(), ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  void zero() {
    if (n_) NS_CUDA_CHECK(cudaMemset(ptr_, 0, n_ * sizeof(T)));
  }

 private:
  T* ptr_ = nullptr;
  std::size_t n_ = 0;
};

// Streaming multiprocessors of the current device (at least 1): kernels size
// persistent grids and work splits by it.
inline int multiprocessor_count() {
  int device = 0, count = 0;
  NS_CUDA_CHECK(cudaGetDevice(&device));
  NS_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count > 1 ? count : 1;
}

// Bytes of device memory an engine may use: the user's cap when set,
// otherwise a fraction of what is free now (others may share the GPU).
inline std::size_t device_memory_budget(std::size_t user_cap, double free_fraction = 0.5) {
  std::size_t free_b = 0, total_b = 0;
  NS_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  const auto budget = static_cast<std::size_t>(free_fraction * static_cast<double>(free_b));
  return user_cap ? std::min(user_cap, free_b) : budget;
}

}  // namespace nanoscatter
