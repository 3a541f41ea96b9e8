// The CUDA backend of the RMC engine: one persistent kernel launch runs many
// moves of every tile.
//
// Layout: a cluster of C thread blocks (C = 1 … 8, thread-block clusters of
// sm_90) owns one tile; block r of the cluster owns rows
// [r·R, (r+1)·R) of the tile's half-plane spectrum (R = ⌈N/C⌉), so many tiles
// fill the GPU with C = 1 and a few tiles still spread over many SMs.
// Per pixel the kernel reads F (complex64, 8 bytes) and the folded target
// (a, w as float32 pairs, 8 bytes, shared by all tiles and so L2-resident),
// on the half plane: 16·N·(N/2+1) bytes per trial, no write.
//
// One trial move (chi2.hpp, spectrum.hpp, moves.hpp):
//  1. thread 0 of every block draws the same proposal from Philox (counter =
//     (move, tile, stream)) and the tile's site lists in global memory;
//  2. the block tabulates the move's row and column factors ω^{k x}, ω^{l y}
//     in shared memory and sums ΔS_PI, ΔS_II over its rows (float32 per
//     thread, float64 across threads);
//  3. the block's two sums go to its shared memory; after cluster.sync()
//     every block reads all C partial sums through distributed shared
//     memory in rank order, so all blocks form bit-identical totals and take
//     the same Metropolis decision (float64, same uniform) without further
//     communication;
//  4. on acceptance every block adds ΔF to its rows, and thread 0 of every
//     block writes the same new entries into the site lists. Identical
//     values from all blocks make these writes race-free in effect; the
//     next write to any entry can only follow the next cluster.sync(), and
//     every read sees either its own block's write or an identical one.
// Partial sums are double-buffered by the parity of the synchronised move,
// so one cluster barrier per move suffices. The whole run is reproducible
// for a seed and a cluster size (fixed thread-to-pixel map, fixed
// reduction order), and C depends only on the tile count and the GPU's SM
// count (or --cluster).
#include <cooperative_groups.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/device_buffer.cuh"
#include "nanoscatter/device.hpp"
#include "nanoscatter/error.hpp"
#include "rmc/backend.hpp"
#include "rmc/moves.hpp"
#include "rmc/schedule.hpp"
#include "rmc/spectrum.hpp"

namespace nanoscatter::rmc {
namespace {

namespace cg = cooperative_groups;

constexpr int kThreads = 1024;   // per block: enough loads in flight for one SM
constexpr int kWarps = kThreads / 32;
constexpr int kBatch = 4;        // pixels loaded per thread before use (memory-level parallelism)
constexpr int kMaxCluster = 8;   // the portable cluster size limit

struct TileScalars {
  double s_pi, s_ii;
  double temperature;
  unsigned long long tried, accepted, blocked;
  unsigned particles;
  unsigned pad;
};

struct DeviceView {
  int size;             // N
  int width;            // W
  int rows_per_block;   // R
  unsigned n_sites;     // N²
  std::size_t pixels;   // N·W per tile
  float2* spectrum;     // [tile][N·W]
  const float2* target; // [N·W]: (a, w)
  const float2* twiddle;
  int* sites;           // [tile][N²]
  int* slot;            // [tile][N²]
  const int* offsets;
  unsigned n_offsets;
  TileScalars* scalars;
  double s_pp;
  double fixed_scale;   // s₀ of χ² (chi2.hpp); 0: free scale
  unsigned long long seed;
  unsigned first_tile;  // global index of tile 0 (RunSettings::first_tile)
  int schedule;
  double final_ratio;
  unsigned long long total_moves;
  double* trace;        // [tile][trace_points]
  unsigned long long trace_interval;
  unsigned trace_points;
  double* probe;        // [tile][count] in probe mode, else null
};

struct SharedProposal {
  int i, j, from, to, valid;
  double u;
};

// ΔF = a1 c1 − a0 c0 (complex products in float32).
__device__ __forceinline__ float2 move_delta(float2 a1, float2 c1, float2 a0, float2 c0) {
  return make_float2(a1.x * c1.x - a1.y * c1.y - (a0.x * c0.x - a0.y * c0.y),
                     a1.x * c1.y + a1.y * c1.x - (a0.x * c0.y + a0.y * c0.x));
}

// Row k and column l of flat index idx = k·W + l (idx < 2²⁴, so the float
// quotient is off by at most one and one correction step makes it exact).
__device__ __forceinline__ void split_index(int idx, int width, float inv_width, int& k, int& l) {
  k = __float2int_rz(__int2float_rn(idx) * inv_width);
  l = idx - k * width;
  if (l < 0) {
    --k;
    l += width;
  } else if (l >= width) {
    ++k;
    l -= width;
  }
}

__global__ void __launch_bounds__(kThreads, 1)
    moves_kernel(DeviceView v, unsigned long long first, unsigned long long count, int probe_mode) {
  extern __shared__ float2 smem[];
  __shared__ double partial[2][2];
  __shared__ double warp_sums[kWarps][2];
  __shared__ SharedProposal proposal[2];
  __shared__ int accept_flag;

  cg::cluster_group cluster = cg::this_cluster();
  const unsigned cluster_blocks = cluster.num_blocks();
  const unsigned rank = cluster.block_rank();
  const unsigned tile = blockIdx.x / cluster_blocks;
  const int n = v.size, width = v.width;
  const int k_begin = int(rank) * v.rows_per_block;
  const int rows = max(0, min(n, k_begin + v.rows_per_block) - k_begin);
  const int pixels = rows * width;

  float2* tw = smem;
  float2* row1 = tw + n;
  float2* row0 = row1 + v.rows_per_block;
  float2* col1 = row0 + v.rows_per_block;
  float2* col0 = col1 + width;
  for (int i = threadIdx.x; i < n; i += kThreads) tw[i] = v.twiddle[i];

  float2* f = v.spectrum + tile * v.pixels + std::size_t(k_begin) * width;
  const float2* target = v.target + std::size_t(k_begin) * width;
  int* sites = v.sites + std::size_t(tile) * v.n_sites;
  int* slot = v.slot + std::size_t(tile) * v.n_sites;
  const TileScalars start = v.scalars[tile];
  // Thread 0's running state (identical in every block of the cluster).
  double s_pi = start.s_pi, s_ii = start.s_ii;
  double chi = relative_chi2(s_pi, s_ii, v.s_pp, v.fixed_scale);
  unsigned long long tried = start.tried, accepted = start.accepted, blocked = start.blocked;
  const float inv_width = 1.0f / float(width);
  const RngStream stream = probe_mode ? RngStream::probe : RngStream::moves;
  unsigned parity = 0;
  __syncthreads();

  for (unsigned long long m = first; m < first + count; ++m) {
    const int b = int(m & 1);
    if (threadIdx.x == 0) {
      const Philox4 r = rmc_random(v.seed, v.first_tile + tile, stream, m);
      const MoveProposal p =
          propose_move(sites, slot, start.particles, v.n_sites, n, v.offsets, v.n_offsets, r);
      proposal[b] = {p.i, p.j, p.from, p.to, p.valid ? 1 : 0, uniform01(r.v[2], r.v[3])};
    }
    __syncthreads();
    const SharedProposal p = proposal[b];
    if (p.valid) {
      const int x0 = p.from / n, y0 = p.from - x0 * n, x1 = p.to / n, y1 = p.to - x1 * n;
      for (int t = threadIdx.x; t < rows; t += kThreads) {
        const int k = k_begin + t;
        row1[t] = tw[(k * x1) % n];
        row0[t] = tw[(k * x0) % n];
      }
      for (int l = threadIdx.x; l < width; l += kThreads) {
        col1[l] = tw[(l * y1) % n];
        col0[l] = tw[(l * y0) % n];
      }
      __syncthreads();

      float acc_pi = 0, acc_ii = 0;
      for (int base = threadIdx.x; base < pixels; base += kBatch * kThreads) {
        float2 fv[kBatch], tv[kBatch];
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
          const int idx = base + u * kThreads;
          fv[u] = idx < pixels ? f[idx] : make_float2(0, 0);
          tv[u] = idx < pixels ? __ldg(target + idx) : make_float2(0, 0);  // zero weights past the end
        }
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
          int k, l;
          split_index(min(base + u * kThreads, pixels - 1), width, inv_width, k, l);
          const float2 d = move_delta(row1[k], col1[l], row0[k], col0[l]);
          const float intensity = fv[u].x * fv[u].x + fv[u].y * fv[u].y;
          const float d_int = 2.0f * (fv[u].x * d.x + fv[u].y * d.y) + d.x * d.x + d.y * d.y;
          acc_pi = fmaf(tv[u].x, d_int, acc_pi);
          acc_ii = fmaf(tv[u].y * d_int, 2.0f * intensity + d_int, acc_ii);
        }
      }
      double sum_pi = acc_pi, sum_ii = acc_ii;
      for (int o = 16; o > 0; o >>= 1) {
        sum_pi += __shfl_down_sync(0xffffffffu, sum_pi, o);
        sum_ii += __shfl_down_sync(0xffffffffu, sum_ii, o);
      }
      if ((threadIdx.x & 31) == 0) {
        warp_sums[threadIdx.x / 32][0] = sum_pi;
        warp_sums[threadIdx.x / 32][1] = sum_ii;
      }
      __syncthreads();
      if (threadIdx.x == 0) {
        double block_pi = 0, block_ii = 0;
        for (int w = 0; w < kWarps; ++w) {
          block_pi += warp_sums[w][0];
          block_ii += warp_sums[w][1];
        }
        partial[parity][0] = block_pi;
        partial[parity][1] = block_ii;
      }
      cluster.sync();
      if (threadIdx.x == 0) {
        double d_pi = 0, d_ii = 0;
        for (unsigned r = 0; r < cluster_blocks; ++r) {
          const double* remote = cluster.map_shared_rank(&partial[parity][0], r);
          d_pi += remote[0];
          d_ii += remote[1];
        }
        const double trial_pi = s_pi + d_pi, trial_ii = s_ii + d_ii;
        const double chi_trial = relative_chi2(trial_pi, trial_ii, v.s_pp, v.fixed_scale);
        bool accept = false;
        if (probe_mode) {
          if (rank == 0) v.probe[std::size_t(tile) * count + (m - first)] = chi_trial - chi;
        } else {
          const double temperature = temperature_at(v.schedule, start.temperature, v.final_ratio, m, v.total_moves);
          accept = metropolis_accept(chi_trial - chi, temperature, p.u);
        }
        if (accept) {
          s_pi = trial_pi;
          s_ii = trial_ii;
          chi = chi_trial;
          ++accepted;
          sites[p.i] = p.to;
          sites[p.j] = p.from;
          slot[p.to] = p.i;
          slot[p.from] = p.j;
        }
        accept_flag = accept ? 1 : 0;
      }
      parity ^= 1u;
      __syncthreads();
      if (accept_flag) {
        for (int idx = threadIdx.x; idx < pixels; idx += kThreads) {
          int k, l;
          split_index(idx, width, inv_width, k, l);
          const float2 d = move_delta(row1[k], col1[l], row0[k], col0[l]);
          float2 fv = f[idx];
          fv.x += d.x;
          fv.y += d.y;
          f[idx] = fv;
        }
      }
    } else if (threadIdx.x == 0) {
      ++blocked;
      if (probe_mode && rank == 0) v.probe[std::size_t(tile) * count + (m - first)] = nan("");
    }
    if (threadIdx.x == 0 && !probe_mode) {
      ++tried;
      if ((m + 1) % v.trace_interval == 0) {
        const unsigned long long point = (m + 1) / v.trace_interval - 1;
        if (rank == 0 && point < v.trace_points) v.trace[std::size_t(tile) * v.trace_points + point] = chi;
      }
    }
  }
  // No block may leave while others can still read its shared memory.
  cluster.sync();
  if (threadIdx.x == 0 && rank == 0 && !probe_mode) {
    TileScalars end = start;
    end.s_pi = s_pi;
    end.s_ii = s_ii;
    end.tried = tried;
    end.accepted = accepted;
    end.blocked = blocked;
    v.scalars[tile] = end;
  }
}

class CudaBackend final : public RmcBackend {
 public:
  CudaBackend(const FoldedTarget& target, std::vector<TileSites> tiles, const RunSettings& settings,
              const CudaRmcOptions& options)
      : target_(target), settings_(settings), tiles_(tiles.size()), plane_(target.plane) {
    const int n = plane_.size;
    if (std::size_t(n) * std::size_t(n) > (std::size_t(1) << 24) / 2)
      fail_option("tile", "the GPU path handles models up to 2896×2896 sites, got ", n);
    const int sms = multiprocessor_count();
    cluster_ = options.cluster_size > 0 ? options.cluster_size
                                        : std::clamp(int(sms / std::max<std::size_t>(1, tiles_)), 1, kMaxCluster);
    cluster_ = std::min(cluster_, n);
    choose_launch();

    const std::size_t n_sites = std::size_t(n) * std::size_t(n);
    const std::size_t bytes = tiles_ * (plane_.pixels() * sizeof(float2) + 2 * n_sites * sizeof(int) +
                                        sizeof(TileScalars) + settings.trace_points * sizeof(double)) +
                              plane_.pixels() * sizeof(float2);
    const std::size_t budget = device_memory_budget(options.max_device_memory);
    if (bytes > budget)
      fail_option("tiles", tiles_, " tiles of ", n, "² sites need ", bytes >> 20, " MiB of GPU memory, ",
              budget >> 20, " MiB available");

    std::vector<float2> tgt(plane_.pixels());
    for (std::size_t h = 0; h < tgt.size(); ++h) tgt[h] = make_float2(float(target.a[h]), float(target.w[h]));
    target_buf_ = DeviceBuffer<float2>(tgt);
    const auto tw = twiddles(n);
    std::vector<float2> twf(tw.size());
    for (std::size_t i = 0; i < tw.size(); ++i) twf[i] = make_float2(float(tw[i].real()), float(tw[i].imag()));
    twiddle_ = DeviceBuffer<float2>(twf);
    std::vector<int> offsets(settings.offsets.begin(), settings.offsets.end());
    if (offsets.empty()) offsets.push_back(0);  // a valid pointer; n_offsets stays 0
    offsets_ = DeviceBuffer<int>(offsets);

    std::vector<int> sites(tiles_ * n_sites), slot(tiles_ * n_sites);
    std::vector<TileScalars> scalars(tiles_);
    for (std::size_t t = 0; t < tiles_; ++t) {
      std::copy(tiles[t].sites.begin(), tiles[t].sites.end(), sites.begin() + std::ptrdiff_t(t * n_sites));
      std::copy(tiles[t].slot.begin(), tiles[t].slot.end(), slot.begin() + std::ptrdiff_t(t * n_sites));
      scalars[t] = TileScalars{0, 0, 0, 0, 0, 0, tiles[t].particles, 0};
    }
    sites_ = DeviceBuffer<int>(sites);
    slot_ = DeviceBuffer<int>(slot);
    scalars_ = DeviceBuffer<TileScalars>(scalars);
    spectrum_ = DeviceBuffer<float2>(tiles_ * plane_.pixels());
    trace_ = DeviceBuffer<double>(std::max<std::size_t>(1, tiles_ * settings.trace_points));
    std::vector<double> nan_trace(trace_.size(), std::nan(""));
    trace_.upload(nan_trace);
    refresh();
  }

  std::vector<std::vector<double>> probe(std::uint64_t count) override {
    DeviceBuffer<double> out(tiles_ * count);
    launch(0, count, out.data());
    const auto flat = out.download();
    std::vector<std::vector<double>> deltas(tiles_);
    for (std::size_t t = 0; t < tiles_; ++t)
      deltas[t].assign(flat.begin() + std::ptrdiff_t(t * count), flat.begin() + std::ptrdiff_t((t + 1) * count));
    return deltas;
  }

  void set_temperatures(const std::vector<double>& t0) override {
    auto scalars = scalars_.download();
    for (std::size_t t = 0; t < tiles_; ++t) scalars[t].temperature = t0[t];
    scalars_.upload(scalars);
  }

  void run(std::uint64_t first, std::uint64_t count) override { launch(first, count, nullptr); }

  // F from float64 FFTs of the occupancy on the host (the CPU backend's
  // code), rounded once to complex64, and the sums from the float64 F.
  void refresh() override {
    std::vector<std::complex<float>> f;
    std::vector<ChiSums> sums;
    exact_spectra_single(occupancy(), target_, f, sums);
    static_assert(sizeof(std::complex<float>) == sizeof(float2), "complex<float> and float2 share a layout");
    spectrum_.upload(reinterpret_cast<const float2*>(f.data()), f.size());
    auto scalars = scalars_.download();
    for (std::size_t t = 0; t < tiles_; ++t) {
      scalars[t].s_pi = sums[t].s_pi;
      scalars[t].s_ii = sums[t].s_ii;
    }
    scalars_.upload(scalars);
  }

  std::vector<TileStatus> status() const override {
    const auto occupancies = occupancy();
    const auto scalars = scalars_.download();
    std::vector<TileStatus> out(tiles_);
    for (std::size_t t = 0; t < tiles_; ++t)
      out[t] = {occupancies[t], scalars[t].particles, {scalars[t].s_pi, scalars[t].s_ii},
                scalars[t].tried, scalars[t].accepted, scalars[t].blocked};
    return out;
  }

  std::vector<std::vector<double>> trace() const override {
    const auto flat = trace_.download();
    std::vector<std::vector<double>> out(tiles_);
    for (std::size_t t = 0; t < tiles_; ++t)
      out[t].assign(flat.begin() + std::ptrdiff_t(t * settings_.trace_points),
                    flat.begin() + std::ptrdiff_t((t + 1) * settings_.trace_points));
    return out;
  }

  int cluster_size() const override { return cluster_; }

 private:
  std::size_t rows_per_block() const { return std::size_t((plane_.size + cluster_ - 1) / cluster_); }
  std::size_t shared_bytes() const {
    return (std::size_t(plane_.size) + 2 * rows_per_block() + 2 * std::size_t(plane_.width)) * sizeof(float2);
  }

  // Largest cluster size ≤ the requested one that the GPU can schedule with
  // this kernel's shared memory.
  void choose_launch() {
    int device = 0, max_optin = 0;
    NS_CUDA_CHECK(cudaGetDevice(&device));
    NS_CUDA_CHECK(cudaDeviceGetAttribute(&max_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    for (; cluster_ >= 1; --cluster_) {
      const std::size_t smem = shared_bytes();
      if (smem + 4096 > std::size_t(max_optin)) continue;  // 4 KiB: the kernel's static shared memory
      NS_CUDA_CHECK(cudaFuncSetAttribute(moves_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
      cudaLaunchConfig_t config = launch_config(1, smem);
      int clusters = 0;
      if (cudaOccupancyMaxActiveClusters(&clusters, moves_kernel, &config) == cudaSuccess && clusters > 0) return;
      cudaGetLastError();  // clear the error of an unschedulable size and try a smaller one
    }
    fail_option("tile", "the GPU cannot run a ", plane_.size, "² model (shared memory)");
  }

  cudaLaunchConfig_t launch_config(std::size_t tiles, std::size_t smem) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(unsigned(tiles * std::size_t(cluster_)));
    config.blockDim = dim3(kThreads);
    config.dynamicSmemBytes = smem;
    config.stream = nullptr;
    attribute_.id = cudaLaunchAttributeClusterDimension;
    attribute_.val.clusterDim.x = unsigned(cluster_);
    attribute_.val.clusterDim.y = 1;
    attribute_.val.clusterDim.z = 1;
    config.attrs = &attribute_;
    config.numAttrs = 1;
    return config;
  }

  void launch(std::uint64_t first, std::uint64_t count, double* probe) {
    if (count == 0) return;
    DeviceView v{};
    v.size = plane_.size;
    v.width = plane_.width;
    v.rows_per_block = int(rows_per_block());
    v.n_sites = unsigned(std::size_t(plane_.size) * std::size_t(plane_.size));
    v.pixels = plane_.pixels();
    v.spectrum = spectrum_.data();
    v.target = target_buf_.data();
    v.twiddle = twiddle_.data();
    v.sites = sites_.data();
    v.slot = slot_.data();
    v.offsets = offsets_.data();
    v.n_offsets = unsigned(settings_.offsets.size() / 2);
    v.scalars = scalars_.data();
    v.s_pp = target_.s_pp;
    v.fixed_scale = settings_.fixed_scale;
    v.seed = settings_.seed;
    v.first_tile = settings_.first_tile;
    v.schedule = settings_.schedule;
    v.final_ratio = settings_.final_ratio;
    v.total_moves = settings_.total_moves;
    v.trace = trace_.data();
    v.trace_interval = settings_.trace_interval;
    v.trace_points = unsigned(settings_.trace_points);
    v.probe = probe;
    const cudaLaunchConfig_t config = launch_config(tiles_, shared_bytes());
    NS_CUDA_CHECK(cudaLaunchKernelEx(&config, moves_kernel, v, (unsigned long long)first, (unsigned long long)count,
                                     probe ? 1 : 0));
    NS_CUDA_CHECK_LAUNCH();
    NS_CUDA_CHECK(cudaDeviceSynchronize());
  }

  std::vector<std::vector<std::uint8_t>> occupancy() const {
    const auto sites = sites_.download();
    const auto scalars = scalars_.download();
    const std::size_t n_sites = std::size_t(plane_.size) * std::size_t(plane_.size);
    std::vector<std::vector<std::uint8_t>> out(tiles_, std::vector<std::uint8_t>(n_sites, 0));
    for (std::size_t t = 0; t < tiles_; ++t)
      for (unsigned i = 0; i < scalars[t].particles; ++i) out[t][std::size_t(sites[t * n_sites + i])] = 1;
    return out;
  }

  FoldedTarget target_;
  RunSettings settings_;
  std::size_t tiles_;
  HalfPlane plane_;
  int cluster_ = 1;
  cudaLaunchAttribute attribute_{};
  DeviceBuffer<float2> target_buf_, twiddle_, spectrum_;
  DeviceBuffer<int> offsets_, sites_, slot_;
  DeviceBuffer<TileScalars> scalars_;
  DeviceBuffer<double> trace_;
};

}  // namespace

std::unique_ptr<RmcBackend> make_cuda_backend(const FoldedTarget& target, std::vector<TileSites> tiles,
                                              const RunSettings& settings, const CudaRmcOptions& options) {
  return std::make_unique<CudaBackend>(target, std::move(tiles), settings, options);
}

}  // namespace nanoscatter::rmc
