// One macro for every CUDA runtime call: on failure it throws an Error naming
// the call, the file and the line, so no CUDA error passes silently.
#pragma once
#include <cuda_runtime.h>

#include "nanoscatter/error.hpp"

#define NS_CUDA_CHECK(call)                                                                  \
  do {                                                                                       \
    const cudaError_t ns_cuda_status_ = (call);                                              \
    if (ns_cuda_status_ != cudaSuccess)                                                      \
      ::nanoscatter::fail("CUDA error '", cudaGetErrorString(ns_cuda_status_), "' in ", #call, \
                          " at ", __FILE__, ":", __LINE__);                                  \
  } while (0)

// After a kernel launch: catches launch-configuration errors at once.
#define NS_CUDA_CHECK_LAUNCH() NS_CUDA_CHECK(cudaGetLastError())
