// The CPU twin of the GPU's fast histogram (DebyeOptions::histogram_mode =
// fast): the same function of the atoms as the one-word kernel
// (histogram_pair_math.hpp), so that a fast histogram does not depend on
// the device. What makes it the same function:
//  - the same parts (FastParts: one weight per part) and the same layout
//    (make_fast_layout for the H100/H200 ring, kTwinWindowBins): each pair's
//    dither U is a function of its atoms' places in the layout's k-d order,
//    hist::dither_i(s) + hist::dither_j(t), s the i atom's place (the lower
//    one in a triangle), t the j atom's;
//  - the same quantisation: kernel bin floor(r) and q = floor(511·δ' + U)
//    from floor(δ'·2^32) (hist::pair_word), summed exactly in integers, so
//    the order of the sums does not matter;
//  - the same conversion to moments (add_fast_bins, whose Σδ² estimate
//    looks at each part's kernel bins as a whole, as the GPU's per run).
// What differs: the kernel's distance (one Newton step from the MUFU seed,
// r² from the tensor cores in far shells) is within ~1e-10·r of the twin's
// float64 sqrt (histogram_pair_math.hpp, "Precision"), which moves the few
// pairs that lie that close to a level of q or a bin edge by one level:
// far below the 1e-6 of I(Q) the two are held to (docs/debye.md). A GPU
// whose shared memory holds a smaller ring, or a block the device's memory
// makes the GPU cut into pieces, lays out differently: its dithers differ
// (still within the fast path's bound of the precise histogram).
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "debye/histogram_layout.hpp"
#include "debye/pair_sums.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/resource_guard.hpp"

namespace nanoscatter::debye {

namespace {

using OneWord = hist::BinCode<hist::BinWords::one>;

// Atoms per tile of the pair loops (as the precise CPU histogram's).
constexpr std::size_t kTwinTile = 256;

// A kernel bin's integer sums on one thread (count, Σq).
struct TwinBin {
  std::uint64_t count, sum;
};

// Pairs (s, t) of the layout, s an i atom's place, t a j atom's, into bins.
inline void add_pair(const hist::PackedAtom& i, const hist::PackedAtom& j, std::uint32_t dither, TwinBin* bins) {
  const double dx = j.x - i.x, dy = j.y - i.y, dz = j.z - i.z;
  // Plain products (std::fma is a library call without an FMA target): the
  // last bits of r² do not matter here (above).
  const double r = std::sqrt(dx * dx + dy * dy + dz * dz + hist::kTinyR2);
  const double k = std::floor(r);
  // floor(δ'·2^32): δ' = r − k is exact, and so is its product with 2^32.
  const auto lo = std::uint32_t((r - k) * 0x1p32);
  const std::uint32_t word = OneWord::words(lo, dither).w[0];
  TwinBin& b = bins[std::size_t(k)];
  b.count += hist::word_count(word);
  b.sum += hist::word_sum(word);
}

// One part (one weight) into hist.
void twin_part(const FastPart& part, PairHistogram& hist, int threads) {
  const double r_max = pair_diagonal(*part.a, *part.b, part.set);
  const FastHistogramLayout layout = make_fast_layout(*part.a, *part.b, part.set, hist.bin_width / hist::kSubBins,
                                                      kTwinWindowBins, hist::BinWords::one);
  const hist::PackedAtom* I = layout.a.data();
  const PackedAtoms& J = layout.j_atoms();
  const std::size_t ni = layout.a.size(), nj = J.size(), nbins = std::size_t(layout.bins);
  const int nthreads = std::max(1, std::min<int>(threads > 0 ? threads : omp_get_max_threads(), int(ni)));
  require_host_memory({"", 0, "bin_width"},
                      nanoscatter::detail::concat("the fast histogram's ", nbins, " kernel bins on ", nthreads,
                                                  " threads"),
                      double(nthreads) * double(nbins) * sizeof(TwinBin));
  std::vector<std::vector<TwinBin>> local(static_cast<std::size_t>(nthreads));
#pragma omp parallel num_threads(nthreads)
  {
    std::vector<TwinBin>& mine = local[std::size_t(omp_get_thread_num())];
    mine.assign(nbins, TwinBin{0, 0});
    TwinBin* out = mine.data();
    // Tiles of consecutive places: the layout's k-d order makes each tile
    // compact, so a tile pair's bins are few and stay in cache (integer
    // sums: the order does not matter). A triangle's tile rows shorten:
    // dynamic scheduling balances them.
#pragma omp for schedule(dynamic, 1)
    for (std::size_t s0 = 0; s0 < ni; s0 += kTwinTile) {
      const std::size_t s1 = std::min(ni, s0 + kTwinTile);
      for (std::size_t t0 = layout.triangle ? s0 : 0; t0 < nj; t0 += kTwinTile) {
        const std::size_t t1 = std::min(nj, t0 + kTwinTile);
        for (std::size_t s = s0; s < s1; ++s) {
          const std::uint32_t di = hist::dither_i(std::uint32_t(s));
          for (std::size_t t = layout.triangle ? std::max(t0, s + 1) : t0; t < t1; ++t)
            add_pair(I[s], J[t], di + hist::dither_j(std::uint32_t(t)), out);
        }
      }
    }
  }
  std::vector<FastBin> sums(nbins, FastBin{0, 0, 0});
#pragma omp parallel for num_threads(nthreads) schedule(static)
  for (std::size_t k = 0; k < nbins; ++k)
    for (const auto& l : local) {
      sums[k].count += l[k].count;
      sums[k].sum += l[k].sum;
    }
  hist.resize_for(r_max);
  add_fast_bins(sums, hist::BinWords::one, part.weight(), hist);
}

}  // namespace

void pair_histogram_fast_cpu(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist, int threads) {
  const bool triangle = set == PairSet::triangle;
  if (a.size() == 0 || (!triangle && b.size() == 0)) return;
  // As the GPU's histogram_block (histogram_cuda.cu): the fast path where
  // its bins reach and the weights allow, else the float64 moments (the
  // GPU's generic kernel computes those too).
  const std::size_t bins = hist.bins_for(pair_diagonal(a, b, set));
  FastParts parts;
  if (hist::kSubBins * bins <= std::size_t(hist::kMaxFastBins) && parts.split(a, b, set)) {
    for (const FastPart& part : parts.parts()) twin_part(part, hist, threads);
    return;
  }
  pair_histogram_cpu(a, b, set, hist, threads);
}

}  // namespace nanoscatter::debye
