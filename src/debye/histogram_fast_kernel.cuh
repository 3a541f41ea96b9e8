// The fast histogram kernel (histogram_fast_kernel.cu) as the host pipeline
// (histogram_fast_pipeline.cu) sees it: its arguments, the ring it can run
// with on this device, and its launch.
#pragma once
#include <cuda_runtime.h>

#include "core/cuda_check.cuh"
#include "debye/histogram_layout.hpp"
#include "debye/histogram_pair_math.hpp"

namespace nanoscatter::debye {

struct FastArgs {
  const hist::PackedAtom* a;  // i atoms (sorted)
  const hist::PackedAtom* j;  // j atoms (triangle: == a)
  int nj;
  const hist::GroupGeometry* groups;
  int ngroups;
  int* next_group;
  int* scratch;  // gridDim.x lists of nj indices
  long long scratch_stride;
  FastBin* bins;
  int nbins;
  unsigned* overflow;
};

// Largest ring (kernel bins) of the bin code `words` whose shared memory
// this device grants a block (0: none, the generic kernel runs).
int fast_window_for_device(hist::BinWords words);

// Queues the kernel of bin code `words` on `stream` with `blocks`
// persistent blocks and a ring of `window` bins, a value
// fast_window_for_device(words) returned.
void launch_fast_histogram(hist::BinWords words, int window, bool triangle, int blocks, const FastArgs& args,
                           cudaStream_t stream);

}  // namespace nanoscatter::debye
