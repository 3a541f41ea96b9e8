// The fast histogram path on the host: a block's layout, its device
// buffers, the kernel's queueing on two compute streams and the read-back
// of its bins into the PairHistogram (histogram_fast_kernel.cu is the
// kernel). Blocks are pipelined so that the host's layout of one block and
// the read-back of another overlap the kernel between them.
#pragma once
#include <cstddef>
#include <memory>

#include "core/cuda_stream.cuh"
#include "core/stream_buffer.cuh"
#include "debye/histogram_layout.hpp"
#include "debye/pair_sums.hpp"

namespace nanoscatter::debye {

// A launched fast histogram: its device buffers and where its bins go.
struct FastRun {
  StreamBuffer<hist::PackedAtom> d_a, d_b;
  StreamBuffer<hist::GroupGeometry> d_groups;
  StreamBuffer<FastBin> d_bins;
  StreamBuffer<int> d_counters, d_scratch;
  CudaEvent done;  // recorded on `compute` after the kernel
  PairHistogram* hist = nullptr;
  double r_max = 0;  // the histogram is sized for it when the bins arrive
  double weight = 0;
  hist::BinWords words = hist::BinWords::two;  // the bin code the kernel ran with
};

// The fast path's pipeline: kernels run on the two `compute` streams in
// turn; every buffer is allocated, filled, read back and freed on `copy`
// (stream-ordered, so neither waits for the device). A block's upload
// overlaps the kernel before it, and its kernel, on the other stream, is
// queued while that one runs: its blocks take the SMs that the one before
// leaves idle at its end (a rectangle of 1953 groups of ~17 ms on 132 SMs
// leaves a fifth of them idle for a group's time). The one before is read
// back and added up on the host meanwhile. Two runs hold device memory at a
// time (fast_histogram_cuda halves the budget for it), so a stream's previous
// kernel has always ended, and been collected, before it gets the next.
struct FastPipeline {
  CudaStream compute[2], copy;
  int turn = 0;  // the compute stream of the next kernel
  std::unique_ptr<FastRun> pending;  // launched, not collected; goes before the streams
};

// Collects the pending run, if any: its bins are in its histogram when this returns.
void drain(FastPipeline& pipe);

// The pairs of a block whose atoms share one weight (a's, and b's for a
// rectangle) into hist, cut into parts that fit the pipeline's half of the
// device memory `budget` (bytes); the last part's run may be left pending
// in the pipeline. r_max: the pair set's diagonal, which `bins` histogram
// bins cover; words: the bin code (histogram_pair_math.hpp); window:
// fast_window_for_device(words) (> 0).
void fast_histogram_cuda(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist, double r_max,
                         std::size_t bins, hist::BinWords words, int window, std::size_t budget,
                         FastPipeline& pipe);

}  // namespace nanoscatter::debye
