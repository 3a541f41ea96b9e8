// Free memory of the current GPU, for the resource guard (resource_guard.hpp).
#pragma once
#include <cstddef>

namespace nanoscatter {

// Bytes free on the current GPU now (cudaMemGetInfo); 0 without CUDA or a
// device. Never throws.
std::size_t cuda_free_memory();

}  // namespace nanoscatter
