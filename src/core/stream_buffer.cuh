// Stream-ordered device allocation (cudaMallocAsync / cudaFreeAsync on one
// stream): unlike DeviceBuffer, neither allocating nor freeing waits for the
// device, so a pipeline can prepare and retire buffers while kernels run on
// another stream. Every operation is ordered in the buffer's stream; a
// kernel on another stream must wait for an event recorded after them, and
// the buffer's stream must wait for the kernel before the buffer is read
// back or freed.
#pragma once
#include <cstddef>
#include <utility>
#include <span>

#include "core/cuda_check.cuh"
#include "core/uninitialized_vector.hpp"

namespace nanoscatter {

template <class T>
class StreamBuffer {
 public:
  StreamBuffer() = default;
  StreamBuffer(std::size_t n, cudaStream_t stream) : n_(n), stream_(stream) {
    if (n_) NS_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&ptr_), n_ * sizeof(T), stream_));
  }
  StreamBuffer(std::span<const T> host, cudaStream_t stream) : StreamBuffer(host.size(), stream) {
    if (n_) NS_CUDA_CHECK(cudaMemcpyAsync(ptr_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice, stream_));
  }
  ~StreamBuffer() {
    if (ptr_) cudaFreeAsync(ptr_, stream_);
  }
  StreamBuffer(const StreamBuffer&) = delete;
  StreamBuffer& operator=(const StreamBuffer&) = delete;
  StreamBuffer(StreamBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), n_(std::exchange(o.n_, 0)), stream_(o.stream_) {}
  StreamBuffer& operator=(StreamBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(n_, o.n_);
    std::swap(stream_, o.stream_);
    return *this;
  }

  T* data() const { return ptr_; }
  std::size_t size() const { return n_; }

  void zero() {
    if (n_) NS_CUDA_CHECK(cudaMemsetAsync(ptr_, 0, n_ * sizeof(T), stream_));
  }
  // Waits for the buffer's stream (and so for whatever it waits on).
  UninitVector<T> download() const {
    UninitVector<T> host(n_);
    if (n_) NS_CUDA_CHECK(cudaMemcpyAsync(host.data(), ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost, stream_));
    NS_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return host;
  }

 private:
  T* ptr_ = nullptr;
  std::size_t n_ = 0;
  cudaStream_t stream_ = nullptr;
};

}  // namespace nanoscatter
