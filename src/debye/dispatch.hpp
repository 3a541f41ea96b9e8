// Cutting the species blocks into pair blocks (the unit of one kernel call
// and of progress) and running them on the selected device.
#pragma once
#include <span>
#include <vector>

#include "debye/pair_sums.hpp"
#include "debye/species.hpp"
#include "nanoscatter/debye.hpp"

namespace nanoscatter::debye {

// Species pairs (m ≤ n) row by row: (0,0), (0,1), …, (1,1), …
inline std::size_t pair_index(std::size_t species, std::size_t m, std::size_t n) {
  return m * species - m * (m - 1) / 2 + (n - m);
}

// One kernel call: a triangle of one piece or a rectangle of two.
struct PairBlock {
  std::size_t pair;  // species-pair index
  const AtomBlock* a;
  const AtomBlock* b;
  PairSet set;
  double pairs;  // atom pairs covered, for progress
  // The largest pair distance of the whole structure (Å): the scale of its
  // low-angle fringes, where float32 sums hand over to float64
  // (CudaDebyeOptions::float32_min_qd), the same for every block.
  double structure_size = 0;
};

struct PairBlocks {
  std::vector<std::vector<AtomBlock>> pieces;  // per species: its pieces where it is cut, else none
  std::vector<PairBlock> blocks;               // point into pieces, or into the species blocks (keep them)
  double total_pairs = 0;
};

// Every pair of atoms exactly once, in pieces of at most `piece` atoms.
PairBlocks make_pair_blocks(const SpeciesBlocks& species, std::size_t piece);

// Pieces for a work share of `parts` parts: small enough for about 8 blocks
// per part (so that dealing them balances the parts), never below
// `min_piece` atoms; `piece` itself for one part.
std::size_t piece_for_share(std::size_t piece, std::size_t atoms, int parts, std::size_t min_piece);
// The part that runs each block: deal_by_cost on the blocks' pair counts.
std::vector<int> deal_blocks(const PairBlocks& blocks, int parts);

// Error naming --device when a GPU is asked for and none can run.

// Pieces sized for exact sums on the device in `options`, for `atoms` atoms
// in all (smaller when options.share has several parts).
std::size_t exact_piece_atoms(const DebyeOptions& options, std::size_t atoms);

void run_exact(const DebyeOptions& options, const PairBlock& block, std::span<const double> q,
               std::span<double> out);

// out[p] += the Taylor-corrected sinc sums of hists[p] (histogram_intensity.hpp)
// on options.device (one launch for all on the GPU).
void run_histogram_sums(const DebyeOptions& options, const std::vector<PairHistogram>& hists,
                        std::span<const double> q, std::vector<std::vector<double>>& out);

// How a plan should order each species block (group_by_species): the GPU
// histogram's layout orders its blocks itself (k-d groups), so there the
// Morton sort (~35 ms for 10⁶ atoms, before the first kernel) is skipped
// unless a block is cut into pieces, which the sort keeps compact.
AtomOrder atom_order_for(const DebyeOptions& options, std::size_t atoms);

// Histograms of every species pair (indexed by pair_index), bin width
// options.bin_width, on options.device, with progress unless quiet; of the
// blocks of options.share only.
std::vector<PairHistogram> pair_histograms(const SpeciesBlocks& species,
                                           const DebyeOptions& options);

}  // namespace nanoscatter::debye
