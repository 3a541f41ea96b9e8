// The generic (any weights, float64 atomics) CUDA pair-distance histogram
// (histogram_generic_cuda.cu).
#pragma once
#include <cstddef>

#include "debye/pair_sums.hpp"

namespace nanoscatter::debye {

// The pairs of a block into hist, which must already hold `bins` bins (all
// the pair set can reach), cut into parts whose buffers fit `budget` bytes
// of device memory; synchronous.
void generic_histogram_cuda(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                            std::size_t bins, std::size_t budget);

}  // namespace nanoscatter::debye
