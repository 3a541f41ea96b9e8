// What every RMC backend (CPU float64, CUDA float32) implements; api.cpp
// drives them identically. The target (with its mask), the proposals, the
// random numbers and the acceptance rule are shared code (chi2.hpp,
// moves.hpp, philox.hpp, schedule.hpp), so the backends differ only in the
// arithmetic of the Δχ² sums and the rank-1 update.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "rmc/chi2.hpp"
#include "rmc/model.hpp"

namespace nanoscatter::rmc {

struct RunSettings {
  std::uint64_t seed = 1;
  int schedule = 0;                  // kSchedule*
  double final_ratio = 1;
  double fixed_scale = 0;            // s₀ of χ² (chi2.hpp); 0: free scale
  std::uint64_t total_moves = 0;     // per tile, for the schedule
  std::uint64_t trace_interval = 1;  // a trace point after move m when (m + 1) % interval == 0
  std::size_t trace_points = 0;      // points after the start
  std::vector<std::int32_t> offsets; // move_offsets(); empty: anywhere
  // Index of the backend's first tile among all tiles of the run: a tile's
  // random numbers are keyed by its global index, so that a tile draws the
  // same moves whichever MPI rank runs it (RmcOptions::share).
  std::uint32_t first_tile = 0;
};

struct TileStatus {
  std::vector<std::uint8_t> occupancy;
  std::uint32_t particles = 0;
  ChiSums sums;                      // as tracked by the backend
  std::uint64_t tried = 0, accepted = 0, blocked = 0;
};

class RmcBackend {
 public:
  virtual ~RmcBackend() = default;
  // Δχ²_rel of `count` trial moves per tile from the current state, none
  // accepted (probe random stream); NaN for blocked trials.
  virtual std::vector<std::vector<double>> probe(std::uint64_t count) = 0;
  virtual void set_temperatures(const std::vector<double>& t0) = 0;
  // Trial moves first … first + count − 1 of every tile.
  virtual void run(std::uint64_t first, std::uint64_t count) = 0;
  // F recomputed exactly from the occupancy (FFT), and the sums from it.
  virtual void refresh() = 0;
  virtual std::vector<TileStatus> status() const = 0;
  virtual std::vector<std::vector<double>> trace() const = 0;  // [tile][point]
  virtual int cluster_size() const { return 1; }
};

std::unique_ptr<RmcBackend> make_cpu_backend(const FoldedTarget& target, std::vector<TileSites> tiles,
                                             const RunSettings& settings, int threads);
#if NANOSCATTER_HAVE_CUDA
struct CudaRmcOptions {
  int cluster_size = 0;              // 0: from the SM count and the number of tiles
  std::size_t max_device_memory = 0; // 0: half of the free memory
};
std::unique_ptr<RmcBackend> make_cuda_backend(const FoldedTarget& target, std::vector<TileSites> tiles,
                                              const RunSettings& settings, const CudaRmcOptions& options);
#endif

}  // namespace nanoscatter::rmc
