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

// A block's atoms grouped by weight (in order of first appearance, each
// group in the block's order), or nothing when there are more than
// kMaxWeightClasses distinct weights.
constexpr std::size_t kMaxWeightClasses = 8;

std::vector<AtomBlock> weight_classes(const AtomBlock& block) {
  std::vector<AtomBlock> classes;
  for (std::size_t i = 0; i < block.size(); ++i) {
    std::size_t c = 0;
    while (c < classes.size() && classes[c].w[0] != block.w[i]) ++c;
    if (c == classes.size()) {
      if (classes.size() == kMaxWeightClasses) return {};
      classes.emplace_back();
    }
    classes[c].x.push_back(block.x[i]);
    classes[c].y.push_back(block.y[i]);
    classes[c].z.push_back(block.z[i]);
    classes[c].w.push_back(block.w[i]);
  }
  return classes;
}

void histogram_block(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                     const CudaDebyeOptions& options, FastPipeline& pipe);

// Blocks whose weights take a few values (partial occupancies of a few
// sites, the usual case in a CIF) are cut into blocks of one weight each,
// which the fast path takes (pairs counted, scaled by w_a·w_b): a triangle
// into the classes' triangles and the rectangles between classes, a
// rectangle into all class pairs. False when there are too many weights.
bool histogram_by_weight_class(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                               const CudaDebyeOptions& options, FastPipeline& pipe) {
  const bool triangle = set == PairSet::triangle;
  const std::vector<AtomBlock> ca = weight_classes(a);
  const std::vector<AtomBlock> cb = triangle ? std::vector<AtomBlock>{} : weight_classes(b);
  if (ca.empty() || (!triangle && cb.empty())) return false;
  for (std::size_t i = 0; i < ca.size(); ++i) {
    if (triangle) {
      histogram_block(ca[i], ca[i], PairSet::triangle, hist, options, pipe);
      for (std::size_t j = i + 1; j < ca.size(); ++j)
        histogram_block(ca[i], ca[j], PairSet::rectangle, hist, options, pipe);
    } else {
      for (const AtomBlock& bj : cb) histogram_block(ca[i], bj, PairSet::rectangle, hist, options, pipe);
    }
  }
  return true;
}

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
      options.gpu_histogram == GpuHistogram::fast ? hist::BinWords::one : hist::BinWords::two;
  const int window = fast_window_for_device(words);
  const std::size_t kernel_bins = hist::kSubBins * bins;
  const bool fast_bins = window > 0 && kernel_bins <= std::size_t(hist::kMaxFastBins);
  const bool uniform = uniform_weights(a) && (triangle || uniform_weights(b));
  if (fast_bins && !uniform && histogram_by_weight_class(a, b, set, hist, options, pipe)) return;
  if (fast_bins && uniform) {
    fast_histogram_cuda(a, b, set, hist, r_max, bins, words, window, budget, pipe);
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
