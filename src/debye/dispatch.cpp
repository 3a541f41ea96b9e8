// Pair blocks and device dispatch for the Debye engine (dispatch.hpp).
#include "debye/dispatch.hpp"
#include "debye/q_grid.hpp"

#include <algorithm>
#include <cmath>

#include "debye/histogram_intensity.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/progress.hpp"
#include "nanoscatter/resource_guard.hpp"

namespace nanoscatter::debye {

namespace {

// Atoms per piece. Exact CPU: a 8192² rectangle is 1,024 tile pairs,
// enough to keep 100+ threads busy, and ~1e11 pair·Q at 1456 Q points per
// call (seconds: progress moves). CUDA: 32768² pairs fill a GPU for ~1 s.
// Histograms: per-thread histograms are allocated and reduced per call, so
// calls must carry many pairs (32768² ≈ 1e9) for that cost to vanish.
constexpr std::size_t kPieceExactCpu = 8192;
constexpr std::size_t kPieceExactGpu = 32768;
constexpr std::size_t kPieceHistogram = 32768;
// The CUDA histogram bounds its own memory (split_until_fits) and pays per
// call for its bins (allocation, transfer, float64 conversion of ~r_max/Δr
// bins) and for the work a group repeats per call (shells of the j atoms,
// the window's sweep over all distances), so whole species go in one call.
constexpr std::size_t kPieceHistogramGpu = std::size_t(1) << 22;
// Smallest pieces when a run is split over MPI ranks: a 256² CPU block at
// 1456 Q points is ~1e8 pair·Q (tens of ms on a core); a 4096² GPU block is
// ~2e10 pair·Q, still well above a kernel launch. Below that, per-block
// costs would eat what the finer dealing gains.
constexpr std::size_t kMinPieceCpu = 256;
constexpr std::size_t kMinPieceGpu = 4096;
// Blocks per part the pieces aim at (LPT dealing then stays within a few
// per cent of the mean once blocks are this many).
constexpr double kBlocksPerPart = 8;
// A histogram bin holds a count, Σd and Σd² in float64 (PairHistogram).
constexpr double kHistogramBytesPerBin = 3 * sizeof(double);

std::vector<AtomBlock> cut(const AtomBlock& b, std::size_t piece) {
  std::vector<AtomBlock> out;
  for (std::size_t s = 0; s < b.size(); s += piece) {
    const std::size_t e = std::min(b.size(), s + piece);
    AtomBlock p;
    p.x.assign(b.x.begin() + s, b.x.begin() + e);
    p.y.assign(b.y.begin() + s, b.y.begin() + e);
    p.z.assign(b.z.begin() + s, b.z.begin() + e);
    p.w.assign(b.w.begin() + s, b.w.begin() + e);
    out.push_back(std::move(p));
  }
  return out;
}

#if NANOSCATTER_HAVE_CUDA
CudaDebyeOptions cuda_options(const DebyeOptions& o) {
  CudaDebyeOptions c;
  c.precision = o.resolved_precision();
  c.max_device_memory = o.compute.max_device_memory;
  c.histogram_mode = o.histogram_mode;
  return c;
}
#endif

// Every pair distance is at most the diagonal of the atoms' bounding box.
double max_distance_bound(const SpeciesBlocks& s) {
  AxisBox box;
  for (const auto& b : s.blocks) box.include(bounding_box(b));
  return box.diagonal();
}

}  // namespace

PairBlocks make_pair_blocks(const SpeciesBlocks& s, std::size_t piece) {
  PairBlocks p;
  const std::size_t ns = s.blocks.size();
  // A block that fits one piece is used in place (a copy of 10⁶ atoms costs
  // ~20 ms, all of it before the first GPU kernel).
  p.pieces.resize(ns);
  std::vector<std::vector<const AtomBlock*>> parts(ns);
  for (std::size_t m = 0; m < ns; ++m) {
    if (s.blocks[m].size() > piece) {
      p.pieces[m] = cut(s.blocks[m], piece);
      for (const auto& c : p.pieces[m]) parts[m].push_back(&c);
    } else if (s.blocks[m].size() > 0) {
      parts[m].push_back(&s.blocks[m]);
    }
  }
  const double size = max_distance_bound(s);
  auto add = [&](std::size_t pair, const AtomBlock& a, const AtomBlock& b, PairSet set) {
    const double n = set == PairSet::triangle ? 0.5 * double(a.size()) * double(a.size() - 1)
                                              : double(a.size()) * double(b.size());
    p.blocks.push_back({pair, &a, &b, set, n, size});
    p.total_pairs += n;
  };
  for (std::size_t m = 0; m < ns; ++m) {
    const auto& pm = parts[m];
    for (std::size_t i = 0; i < pm.size(); ++i) {
      add(pair_index(ns, m, m), *pm[i], *pm[i], PairSet::triangle);
      for (std::size_t j = i + 1; j < pm.size(); ++j)
        add(pair_index(ns, m, m), *pm[i], *pm[j], PairSet::rectangle);
    }
    for (std::size_t n = m + 1; n < ns; ++n)
      for (const AtomBlock* a : pm)
        for (const AtomBlock* b : parts[n]) add(pair_index(ns, m, n), *a, *b, PairSet::rectangle);
  }
  return p;
}


std::size_t piece_for_share(std::size_t piece, std::size_t atoms, int parts, std::size_t min_piece) {
  if (parts <= 1 || atoms == 0) return piece;
  // n pieces give about n(n+1)/2 blocks: n = sqrt(2 · blocks) pieces.
  const double pieces = std::ceil(std::sqrt(2 * kBlocksPerPart * parts));
  const auto wanted = std::size_t(std::ceil(double(atoms) / pieces));
  return std::clamp(wanted, std::min(min_piece, piece), piece);
}

std::vector<int> deal_blocks(const PairBlocks& blocks, int parts) {
  std::vector<double> cost;
  cost.reserve(blocks.blocks.size());
  for (const auto& b : blocks.blocks) cost.push_back(b.pairs);
  return deal_by_cost(cost, parts);
}

std::size_t exact_piece_atoms(const DebyeOptions& options, std::size_t atoms) {
  const bool gpu = options.compute.device == Device::gpu;
  const std::size_t piece = gpu ? kPieceExactGpu : kPieceExactCpu;
  // float32: the pieces of one process, only dealt out. A block's float32
  // partial sums group pairs by the block's own tiles, so finer pieces
  // change the rounding (~1e-6 of I, more at weak points) and ranks would
  // not reproduce the single process; with the same blocks they agree to
  // the float64 reduction order. float64 may cut finer for balance.
  if (options.resolved_precision() == Precision::float32) return piece;
  return piece_for_share(piece, atoms, options.share.count, gpu ? kMinPieceGpu : kMinPieceCpu);
}

void run_histogram_sums(const DebyeOptions& o, const std::vector<PairHistogram>& hists, std::span<const double> q,
                        std::vector<std::vector<double>>& out) {
  if (o.compute.device == Device::gpu) {
#if NANOSCATTER_HAVE_CUDA
    std::vector<const PairHistogram*> list;
    for (const auto& h : hists) list.push_back(&h);
    histogram_sinc_sums_cuda(list, q, out, BinRule::taylor2, o.compute.max_device_memory);
    return;
#else
    require_gpu();
#endif
  }
  for (std::size_t p = 0; p < hists.size(); ++p) histogram_sinc_sums(hists[p], q, out[p], BinRule::taylor2, o.compute.threads);
}

void run_exact(const DebyeOptions& o, const PairBlock& blk, std::span<const double> q,
               std::span<double> out) {
  // float32 is held to its bound (docs/debye.md) only where its terms come
  // from the dithered recurrence, i.e. on uniform Q grids; on other grids
  // (2θ grids, Q lists) each term is one float32 sine whose rounding is the
  // same for every pair of a crystal shell and adds up coherently, so those
  // grids are summed in float64 (the cost is the same order: one sine per
  // pair·Q either way).
  const Precision precision = uniform_q_step(q) ? o.resolved_precision() : Precision::float64;
  if (o.compute.device == Device::gpu) {
#if NANOSCATTER_HAVE_CUDA
    CudaDebyeOptions c = cuda_options(o);
    c.precision = precision;
    c.structure_size = blk.structure_size;
    exact_pair_sums_cuda(*blk.a, *blk.b, blk.set, q, out, c);
    return;
#else
    require_gpu();
#endif
  }
  exact_pair_sums_cpu(*blk.a, *blk.b, blk.set, q, out, precision, o.compute.threads);
}

// Whether the histograms take the GPU's pieces (whole species, in input
// order): on a GPU, and for the fast histogram on either device, whose
// dithers depend on the pieces (histogram_fast_cpu.cpp).
namespace {
bool device_pieces(const DebyeOptions& options) {
  return options.method == DebyeMethod::histogram &&
         (options.compute.device == Device::gpu || options.histogram_mode == HistogramMode::fast);
}
}  // namespace

AtomOrder atom_order_for(const DebyeOptions& options, std::size_t atoms) {
  return device_pieces(options) && atoms <= kPieceHistogramGpu ? AtomOrder::input : AtomOrder::spatial;
}

std::vector<PairHistogram> pair_histograms(const SpeciesBlocks& s, const DebyeOptions& options) {
  const std::size_t ns = s.blocks.size(), npairs = ns * (ns + 1) / 2;
  const double r_max = max_distance_bound(s);
  PairHistogram shape;
  shape.bin_width = options.bin_width;
  const std::size_t bins = shape.bins_for(r_max);  // a bin width that needs too many bins fails before any work
  // One histogram (count, Σd, Σd²) per species pair: atoms that each carry
  // their own B are as many species, and N² histograms would not fit.
  require_host_memory({"", 0, "species"},
                      nanoscatter::detail::concat(ns, " species (element, charge, B) make ", npairs,
                                                  " pair histograms of ", bins, " bins, which"),
                      double(npairs) * (double(bins) * kHistogramBytesPerBin + sizeof(PairHistogram)));
  std::vector<PairHistogram> hist(npairs, shape);
  // Every histogram ends with the bins of r_max (ranks sum them bin by bin).
  // The GPU path sizes them at the end: its blocks size theirs once their
  // kernels are queued, while the device runs.
  const auto size_all = [&] {
    for (auto& h : hist) h.resize_for(r_max);
  };
  std::size_t atoms = 0;
  for (const auto& b : s.blocks) atoms += b.size();
  // GPU, and the fast histogram anywhere: each pair's dither depends on
  // its atoms' places in the piece, and the fast histogram's Σδ² estimate
  // is made per piece, so another cut of the atoms gives other dithers
  // (within the fast histogram's bound, not the same function); ranks deal
  // the single process's pieces and so reproduce it. The precise CPU
  // histogram bins in float64 alike for any cut: finer pieces.
  const PairBlocks blocks = make_pair_blocks(
      s, device_pieces(options) ? kPieceHistogramGpu
                                : piece_for_share(kPieceHistogram, atoms, options.share.count, kMinPieceCpu));
  const std::vector<int> owner = deal_blocks(blocks, options.share.count);
  double mine = 0;
  for (std::size_t b = 0; b < blocks.blocks.size(); ++b)
    if (owner[b] == options.share.index) mine += blocks.blocks[b].pairs;
  Progress progress("debye: pair histograms", std::uint64_t(mine), {.quiet = options.compute.quiet});
#if NANOSCATTER_HAVE_CUDA
  if (options.compute.device == Device::gpu) {
    // Each block's host layout overlaps the device's work on the one before;
    // progress counts a block when it is launched.
    CudaHistogramQueue queue;
    for (std::size_t b = 0; b < blocks.blocks.size(); ++b) {
      if (owner[b] != options.share.index) continue;
      const PairBlock& blk = blocks.blocks[b];
      queue.add(*blk.a, *blk.b, blk.set, hist[blk.pair], cuda_options(options));
      progress.advance(std::uint64_t(blk.pairs));
    }
    queue.finish();
    size_all();
    return hist;
  }
#endif
  size_all();
  for (std::size_t b = 0; b < blocks.blocks.size(); ++b) {
    if (owner[b] != options.share.index) continue;
    const PairBlock& blk = blocks.blocks[b];
    if (options.histogram_mode == HistogramMode::fast)
      pair_histogram_fast_cpu(*blk.a, *blk.b, blk.set, hist[blk.pair], options.compute.threads);
    else
      pair_histogram_cpu(*blk.a, *blk.b, blk.set, hist[blk.pair], options.compute.threads);
    progress.advance(std::uint64_t(blocks.blocks[b].pairs));
  }
  return hist;
}

}  // namespace nanoscatter::debye
