// The generic kernel of the CUDA pair-distance histogram, for blocks whose
// atoms do not share one weight (and that histogram_cuda.cu could not cut
// into a few classes of one weight each): every pair adds w_i·w_j, w·δ and
// w·δ² to its bin's float64 record by three global float64 atomics. Slower
// than the fast path by far (docs/debye.md), but it takes any weights and
// keeps δ in float64.
#include "debye/histogram_generic_cuda.cuh"

#include <algorithm>
#include <cstddef>

#include "core/device_buffer.cuh"
#include "debye/atom_pack.cuh"
#include "debye/histogram_layout.hpp"
#include "debye/pair_tiles.hpp"

namespace nanoscatter::debye {
namespace {

constexpr int kTile = 128;  // atoms per i tile (threads per block) and per j tile
constexpr int kRun = 16;    // j tiles per work item
constexpr int kMaxItemsPerLaunch = 1 << 16;

struct BinMoments {
  double count, sum_d, sum_d2;
};

// Same tiling as the exact kernel (i tile per block, runs of j tiles in
// shared memory). Distances in float64 so that δ keeps its digits at any r.
// The three moments of a bin sit in one 24-byte record, so its three atomic
// adds touch one memory sector.
template <bool Triangle>
__global__ void __launch_bounds__(kTile) histogram_kernel(const Atom4<double>* __restrict__ a, int na,
                                                          const Atom4<double>* __restrict__ b, int nb,
                                                          const PairWorkItem* __restrict__ items,
                                                          double bin_width, long long nbins,
                                                          BinMoments* __restrict__ bins,
                                                          unsigned* __restrict__ overflow) {
  __shared__ Atom4<double> tile[kTile];
  const PairWorkItem item = items[blockIdx.x];
  const int i = item.i_tile * kTile + threadIdx.x;
  const Atom4<double> ai = i < na ? a[i] : Atom4<double>{0, 0, 0, 0};
  const double inv_width = 1.0 / bin_width;
  for (int jt = item.j_begin; jt < item.j_end; ++jt) {
    const int j = jt * kTile + threadIdx.x;
    __syncthreads();
    tile[threadIdx.x] = j < nb ? b[j] : Atom4<double>{0, 0, 0, 0};
    __syncthreads();
    const int j_lo = (Triangle && jt == item.i_tile) ? threadIdx.x + 1 : 0;
    for (int jj = j_lo; jj < kTile; ++jj) {
      const Atom4<double> bj = tile[jj];
      const double w = ai.w * bj.w;
      if (w == 0.0) continue;  // padding (w = 0) and vacant sites add nothing
      const double dx = ai.x - bj.x, dy = ai.y - bj.y, dz = ai.z - bj.z;
      const double d2 = fma(dx, dx, fma(dy, dy, dz * dz));
      const double r = sqrt(d2);  // correctly rounded, as on the CPU
      const long long bin = static_cast<long long>(r * inv_width);
      if (bin >= nbins) {
        atomicAdd(overflow, 1u);
        continue;
      }
      const double delta = r - (static_cast<double>(bin) + 0.5) * bin_width;
      BinMoments* m = bins + bin;
      atomicAdd(&m->count, w);
      atomicAdd(&m->sum_d, w * delta);
      atomicAdd(&m->sum_d2, w * delta * delta);
    }
  }
}

void generic_histogram_on_device(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                                 std::size_t nbins_needed) {
  const bool triangle = set == PairSet::triangle;
  const Origin origin = block_bounds(a, b).centre;
  DeviceBuffer<Atom4<double>> d_a(pack_atoms<double>(a, origin));
  DeviceBuffer<Atom4<double>> d_b;
  if (!triangle) d_b = DeviceBuffer<Atom4<double>>(pack_atoms<double>(b, origin));
  const Atom4<double>* pb = triangle ? d_a.data() : d_b.data();
  const int na = static_cast<int>(a.size()), nb = static_cast<int>(triangle ? a.size() : b.size());

  const auto nbins = static_cast<long long>(nbins_needed);
  DeviceBuffer<BinMoments> d_bins(nbins_needed);
  d_bins.zero();
  DeviceBuffer<unsigned> d_overflow(1);
  d_overflow.zero();

  const auto items = make_pair_work(na, nb, set, kTile, kRun);
  DeviceBuffer<PairWorkItem> d_items(items);
  for (std::size_t first = 0; first < items.size(); first += kMaxItemsPerLaunch) {
    const auto count = static_cast<unsigned>(std::min<std::size_t>(kMaxItemsPerLaunch, items.size() - first));
    if (triangle)
      histogram_kernel<true><<<count, kTile>>>(d_a.data(), na, pb, nb, d_items.data() + first, hist.bin_width,
                                               nbins, d_bins.data(), d_overflow.data());
    else
      histogram_kernel<false><<<count, kTile>>>(d_a.data(), na, pb, nb, d_items.data() + first, hist.bin_width,
                                                nbins, d_bins.data(), d_overflow.data());
    NS_CUDA_CHECK_LAUNCH();
  }
  NS_CUDA_CHECK(cudaDeviceSynchronize());
  if (d_overflow.download()[0] != 0) fail("pair_histogram_cuda: a pair distance fell beyond the last bin");
  const auto bins = d_bins.download();
  for (std::size_t k = 0; k < bins.size(); ++k) {
    hist.count[k] += bins[k].count;
    hist.sum_d[k] += bins[k].sum_d;
    hist.sum_d2[k] += bins[k].sum_d2;
  }
}

}  // namespace

void generic_histogram_cuda(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                            std::size_t bins, std::size_t budget) {
  const std::size_t bin_bytes = bins * sizeof(BinMoments);
  if (bin_bytes + (std::size_t(1) << 20) > budget)
    fail("pair_histogram_cuda: ", bins, " bins need ", bin_bytes, " bytes of device memory, over the budget of ",
         budget, " bytes (raise the bin width)");
  split_until_fits(
      a, b, set, kTile,
      [&](std::size_t na, std::size_t nb, PairSet s) {
        const std::size_t atoms = s == PairSet::triangle ? na : na + nb;
        const double items = double(na) / kTile * (double(nb) / kTile / kRun + 1);
        return bin_bytes + atoms * sizeof(Atom4<double>) + static_cast<std::size_t>(items) * sizeof(PairWorkItem) <=
               budget;
      },
      [&](const AtomBlock& pa, const AtomBlock& pb, PairSet s) {
        generic_histogram_on_device(pa, pb, s, hist, histogram_bins_needed(pa, pb, s, hist.bin_width));
      });
}

}  // namespace nanoscatter::debye
