// Host side of the fast pair-histogram path (histogram_pair_math.hpp): atoms
// in bin units (float64), the i atoms ordered (k-d bisection)
// and cut into compact groups with their shell geometry, and the conversion of the
// kernel's integer bins into PairHistogram moments. Used by the CUDA path
// and by the host emulation test, so both see the same layout.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/uninitialized_vector.hpp"
#include "debye/histogram_pair_math.hpp"
#include "debye/pair_sums.hpp"

namespace nanoscatter::debye {

// Whether every atom of the block has the same weight (the fast path
// histograms unweighted pairs and scales by w_a·w_b at the end).
bool uniform_weights(const AtomBlock& block);

// How the fast path takes a block of pairs (the GPU kernel and its CPU
// twin alike, so that both histogram the same parts with the same atom
// indices, which the dither depends on): as it is when its atoms share one
// weight; otherwise cut into classes of one weight each (in order of first
// appearance, each in the block's order), a triangle into the classes'
// triangles and the rectangles between classes, a rectangle into all class
// pairs. No parts (false) when there are more than kMaxWeightClasses
// weights: the block then takes the generic path.
inline constexpr std::size_t kMaxWeightClasses = 8;
struct FastPart {
  const AtomBlock* a;
  const AtomBlock* b;  // a itself for a triangle
  PairSet set;
  double weight() const { return a->w[0] * b->w[0]; }
};
class FastParts {
 public:
  bool split(const AtomBlock& a, const AtomBlock& b, PairSet set);
  const std::vector<FastPart>& parts() const { return parts_; }

 private:
  std::vector<AtomBlock> classes_a_, classes_b_;  // the parts point into these
  std::vector<FastPart> parts_;
};

// The ring (kernel bins) of the one-word fast kernel on an H100/H200, which
// its CPU twin lays its atoms out for (the layout's k-d order, and so each
// pair's dither, depends on it).
inline constexpr int kTwinWindowBins = hist::BinCode<hist::BinWords::one>::kRingSizes[0];

// Bins a pair set can reach: floor(box diagonal / Δr) + 2, as
// PairHistogram::resize_for sizes them for pair_diagonal.
std::size_t histogram_bins_needed(const AtomBlock& a, const AtomBlock& b, PairSet set, double bin_width);

// The diagonal of the pair set's bounding box (a's, or a's and b's), which
// no pair distance exceeds.
double pair_diagonal(const AtomBlock& a, const AtomBlock& b, PairSet set);

using PackedAtoms = UninitVector<hist::PackedAtom>;

struct FastHistogramLayout {
  PackedAtoms a;  // i atoms in groups (k-d order); keys are their indices in the block
  UninitVector<std::uint32_t> a_order;  // a[s] is input atom a_order[s]
  PackedAtoms b;  // rectangle: j atoms in k-d order (keys: indices in the block); triangle: empty
  std::vector<hist::GroupGeometry> groups;
  int bins = 0;          // bins every pair falls below
  int window_bins = 0;   // ring buffer size W the shells were cut for
  bool triangle = false;
  const PackedAtoms& j_atoms() const { return triangle ? a : b; }
};

// Groups of hist::group_atoms(words) atoms (the bin code's).
// Requires histogram_bins_needed(...) ≤ hist::kMaxFastBins and window_bins ≥ 1024;
// fails where no grouping puts every pair of a shell in the window.
FastHistogramLayout make_fast_layout(const AtomBlock& a, const AtomBlock& b, PairSet set, double bin_width,
                                     int window_bins, hist::BinWords words);

// A kernel bin (a sub-bin of Δr/hist::kSubBins) as the kernel accumulates
// it: pairs, Σq (one word) or Σqa, and Σq2 (two words; 0 with one word)
// (histogram_pair_math.hpp).
struct FastBin {
  std::uint64_t count, sum, sum2;
};

// hist[k] += weight × (moments about the bin centre) of kernel bins
// kSubBins·k … kSubBins·k + kSubBins − 1 of `bins`, kept with bin code
// `words`: counts exact, Σδ unbiased within hist::offset_error(words) per
// pair; Σδ² within hist::square_error(words) per pair: unbiased from Σq2
// with two words, with one word estimated from each kernel bin's count and
// mean and whether its neighbours are empty, which is why the kernel bins
// must then be those of one run (the estimate is not additive over partial
// sums). hist must hold every bin they reach.
void add_fast_bins(std::span<const FastBin> bins, hist::BinWords words, double weight, PairHistogram& hist);

}  // namespace nanoscatter::debye
