// Owning handles of a CUDA stream (non-blocking: it does not wait for the
// legacy default stream, nor that stream for it) and of a CUDA event
// (timing off: used only to order streams).
#pragma once
#include <utility>

#include "core/cuda_check.cuh"

namespace nanoscatter {

class CudaStream {
 public:
  CudaStream() { NS_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~CudaStream() {
    if (s_) cudaStreamDestroy(s_);
  }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  cudaStream_t get() const { return s_; }
  void synchronize() const { NS_CUDA_CHECK(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_ = nullptr;
};

class CudaEvent {
 public:
  CudaEvent() { NS_CUDA_CHECK(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming)); }
  ~CudaEvent() {
    if (e_) cudaEventDestroy(e_);
  }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  // The event completes when `stream` reaches this point.
  void record(cudaStream_t stream) { NS_CUDA_CHECK(cudaEventRecord(e_, stream)); }
  // Work queued on `stream` from now on waits for the event.
  void make_wait(cudaStream_t stream) const { NS_CUDA_CHECK(cudaStreamWaitEvent(stream, e_, 0)); }

 private:
  cudaEvent_t e_ = nullptr;
};

}  // namespace nanoscatter
