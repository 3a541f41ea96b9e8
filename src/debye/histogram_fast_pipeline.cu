// The fast histogram path on the host (histogram_fast_pipeline.cuh): the
// per-block device buffers, the kernel's queue of two runs, and the
// read-back into the histogram's moments (add_fast_bins).
#include "debye/histogram_fast_pipeline.cuh"

#include <algorithm>
#include <memory>
#include <utility>

#include "core/device_buffer.cuh"
#include "debye/histogram_fast_kernel.cuh"
#include "debye/pair_tiles.hpp"

namespace nanoscatter::debye {
namespace {

using hist::GroupGeometry;
using hist::PackedAtom;

// Device bytes of one fast call besides the per-block scratch lists.
std::size_t fast_fixed_bytes(std::size_t bins, std::size_t na, std::size_t nb, PairSet set, hist::BinWords words) {
  const std::size_t atoms = set == PairSet::triangle ? na : na + nb;
  const std::size_t group = std::size_t(hist::group_atoms(words)), groups = (na + group - 1) / group;
  return bins * sizeof(FastBin) + atoms * sizeof(PackedAtom) + groups * sizeof(GroupGeometry) + (1 << 16);
}

// Waits for the run's kernel and adds its bins to its histogram; its
// buffers are then freed behind the read-back on `copy`.
void collect(FastRun& run, const FastPipeline& pipe) {
  run.done.make_wait(pipe.copy.get());
  if (run.d_counters.download()[1] != 0) fail("pair_histogram_cuda: a pair distance fell beyond the last bin");
  const UninitVector<FastBin> bins = run.d_bins.download();
  run.hist->resize_for(run.r_max);  // done at launch; kept for a histogram another block grew since
  add_fast_bins(bins, run.words, run.weight, *run.hist);
}

// Lays the block out on the host (while the device runs the pending block),
// queues its kernel behind that block's, then collects the pending block
// and leaves this one pending in its place.
void fast_histogram_on_device(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                              double r_max, hist::BinWords words, int window, std::size_t budget,
                              FastPipeline& pipe) {
  const bool triangle = set == PairSet::triangle;
  const FastHistogramLayout layout = make_fast_layout(a, b, set, hist.bin_width / hist::kSubBins, window, words);
  const auto& jatoms = layout.j_atoms();
  const std::size_t nj = jatoms.size();
  if (layout.a.empty() || nj == 0) {  // no pairs: the histogram only gets its size
    hist.resize_for(r_max);
    return;
  }
  const cudaStream_t copy = pipe.copy.get(), compute = pipe.compute[pipe.turn].get();
  auto run = std::make_unique<FastRun>();
  run->d_a = StreamBuffer<PackedAtom>(layout.a, copy);
  if (!triangle) run->d_b = StreamBuffer<PackedAtom>(layout.b, copy);
  run->d_groups = StreamBuffer<GroupGeometry>(layout.groups, copy);
  run->d_bins = StreamBuffer<FastBin>(std::size_t(layout.bins), copy);
  run->d_bins.zero();
  run->d_counters = StreamBuffer<int>(2, copy);  // next group, overflow
  run->d_counters.zero();
  run->hist = &hist;
  run->r_max = r_max;
  run->weight = a.w[0] * (triangle ? a.w[0] : b.w[0]);
  run->words = words;

  const std::size_t fixed = fast_fixed_bytes(std::size_t(layout.bins), a.size(), b.size(), set, words);
  const std::size_t per_block = nj * sizeof(int);
  const std::size_t affordable = budget > fixed ? (budget - fixed) / per_block : 1;
  const int blocks = int(std::max<std::size_t>(
      1, std::min({affordable, std::size_t(multiprocessor_count()), layout.groups.size()})));
  run->d_scratch = StreamBuffer<int>(std::size_t(blocks) * nj, copy);
  CudaEvent ready;  // the buffers above are in place
  ready.record(copy);
  ready.make_wait(compute);

  FastArgs args{};
  args.a = run->d_a.data();
  args.j = triangle ? run->d_a.data() : run->d_b.data();
  args.nj = int(nj);
  args.groups = run->d_groups.data();
  args.ngroups = int(layout.groups.size());
  args.next_group = run->d_counters.data();
  args.scratch = run->d_scratch.data();
  args.scratch_stride = static_cast<long long>(nj);
  args.bins = run->d_bins.data();
  args.nbins = layout.bins;
  args.overflow = reinterpret_cast<unsigned*>(run->d_counters.data() + 1);
  launch_fast_histogram(words, window, triangle, blocks, args, compute);
  run->done.record(compute);
  pipe.turn ^= 1;
  // This run becomes the pending one before the previous is collected: if
  // collecting throws, the queue's destructor still waits for this kernel
  // before its buffers are freed.
  std::unique_ptr<FastRun> previous = std::exchange(pipe.pending, std::move(run));
  // Sized while the kernels run (a fresh histogram's zero-fill and page
  // faults, ~2 ms for 2.6e5 bins, would otherwise follow the last kernel).
  hist.resize_for(r_max);
  if (previous) collect(*previous, pipe);
}

}  // namespace

void drain(FastPipeline& pipe) {
  if (!pipe.pending) return;
  const std::unique_ptr<FastRun> run = std::move(pipe.pending);
  collect(*run, pipe);  // the copy stream waits for its kernel, then frees its buffers
}

void fast_histogram_cuda(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist, double r_max,
                         std::size_t bins, hist::BinWords words, int window, std::size_t budget,
                         FastPipeline& pipe) {
  const std::size_t kernel_bins = hist::kSubBins * bins;
  // Global sums stay below 2^64: Σq ≤ pairs·2^20 (Σqa; Σq ≤ pairs·511), pairs ≤ na·nb ≤ 2^43.
  constexpr double kMaxPairs = 8796093022208.0;  // 2^43
  const std::size_t run_budget = budget / 2;  // two runs hold memory at a time (FastPipeline)
  const std::size_t need = fast_fixed_bytes(kernel_bins, 0, 0, set, words);
  if (need > run_budget)
    fail("pair_histogram_cuda: ", bins, " bins need ", need, " bytes of device memory, over the budget of ",
         run_budget, " bytes per block (raise the bin width)");
  split_until_fits(
      a, b, set, 2 * std::size_t(hist::group_atoms(words)),
      [&](std::size_t na, std::size_t nb, PairSet s) {
        const std::size_t nj = s == PairSet::triangle ? na : nb;
        return double(na) * double(nb) <= kMaxPairs &&
               fast_fixed_bytes(kernel_bins, na, nb, s, words) + nj * sizeof(int) <= run_budget;
      },
      [&](const AtomBlock& pa, const AtomBlock& pb, PairSet s) {
        fast_histogram_on_device(pa, pb, s, hist, r_max, words, window, run_budget, pipe);
      });
}

}  // namespace nanoscatter::debye
