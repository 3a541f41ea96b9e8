// CUDA path of the pair-distance histogram with per-bin moments
// (Σw, Σwδ, Σwδ², δ = r − bin centre), the input of the Taylor-corrected
// histogram mode; the CPU path of the same algorithm is histogram_cpu.cpp.
// This file chooses, per block of atoms, between two kernels:
//  - the fast path (histogram_fast_kernel.cu, queued and read back by
//    histogram_fast_pipeline.cu) for blocks whose atoms share one weight:
//    pairs are counted with integer atomics in a shared-memory ring of bins
//    and scaled by w_a·w_b at the end, at ~10¹² pairs/s on one GPU. Blocks
//    with a few distinct weights (partial occupancies of a few sites) are
//    cut into classes of one weight each, so that they take it too;
//  - the generic kernel (histogram_generic_cuda.cu) for everything else:
//    float64 atomics per pair, any weights, much slower.
// Design, precision and speed: docs/debye.md and histogram_pair_math.hpp;
// the measurements behind the fast kernel's shape and the variants tried
// and dropped: bench/results/2026-11-25-debye-histogram-kernel-history.md.
#include <memory>
#include <vector>

#include "core/device_buffer.cuh"
#include "debye/histogram_fast_kernel.cuh"
#include "debye/histogram_fast_pipeline.cuh"
#include "debye/histogram_generic_cuda.cuh"
#include "debye/histogram_layout.hpp"
#include "debye/pair_sums.hpp"

namespace nanoscatter::debye {
namespace {

// One block into hist; a fast-path run may be left pending in the pipeline
// (launched, not collected), and the pending run from before is collected
// once this block's kernel is queued (or, on the generic path, first).
void histogram_block(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                     const CudaDebyeOptions& options, FastPipeline& pipe) {
  const bool triangle = set == PairSet::triangle;
  if (a.size() == 0 || (!triangle && b.size() == 0)) return;
  // Every distance is below the bounding-box diagonal: the bins are sized
  // for it (the fast path does it once its kernel is queued, while the
  // kernels run; bins_for checks the bin width here, before any work).
  const double r_max = pair_diagonal(a, b, set);
  const std::size_t bins = hist.bins_for(r_max);  // = histogram_bins_needed(a, b, set, Δr), one box pass
  // Measured while a pending block may still hold its buffers: conservative.
  const std::size_t budget = device_memory_budget(options.max_device_memory);
  const hist::BinWords words =
      options.histogram_mode == HistogramMode::fast ? hist::BinWords::one : hist::BinWords::two;
  const int window = fast_window_for_device(words);
  const std::size_t kernel_bins = hist::kSubBins * bins;
  const bool fast_bins = window > 0 && kernel_bins <= std::size_t(hist::kMaxFastBins);
  // One weight, or a few (partial occupancies of a few sites, the usual
  // case in a CIF): the fast path, part by part (FastParts), each part's
  // pairs counted and scaled by w_a·w_b. Its CPU twin takes the same parts.
  FastParts parts;
  if (fast_bins && parts.split(a, b, set)) {
    for (const FastPart& part : parts.parts()) {
      const double part_r_max = pair_diagonal(*part.a, *part.b, part.set);
      fast_histogram_cuda(*part.a, *part.b, part.set, hist, part_r_max, hist.bins_for(part_r_max), words, window,
                          budget, pipe);
    }
    return;
  }
  drain(pipe);
  hist.resize_for(r_max);
  generic_histogram_cuda(a, b, set, hist, bins, budget);
}

}  // namespace

void pair_histogram_cuda(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                         const CudaDebyeOptions& options) {
  CudaHistogramQueue queue;
  queue.add(a, b, set, hist, options);
  queue.finish();
}

struct CudaHistogramQueue::Pending {
  FastPipeline pipe;
};

CudaHistogramQueue::CudaHistogramQueue() : pending_(std::make_unique<Pending>()) {}

CudaHistogramQueue::~CudaHistogramQueue() {
  // Let the kernel end before its buffers go (their frees are queued on the
  // copy stream, which has not waited for it); no result.
  if (pending_->pipe.pending)
    for (const CudaStream& c : pending_->pipe.compute) cudaStreamSynchronize(c.get());
}

void CudaHistogramQueue::add(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                             const CudaDebyeOptions& options) {
  histogram_block(a, b, set, hist, options, pending_->pipe);
}

void CudaHistogramQueue::finish() { drain(pending_->pipe); }

}  // namespace nanoscatter::debye
