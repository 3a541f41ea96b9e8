// The CPU backend: float64 spectra, one tile per OpenMP thread (tiles are
// independent, so results do not depend on the thread count).
#include <omp.h>

#include <cmath>

#include "core/omp_errors.hpp"
#include "nanoscatter/error.hpp"
#include "rmc/backend.hpp"
#include "rmc/dft_update.hpp"
#include "rmc/moves.hpp"
#include "rmc/schedule.hpp"

namespace nanoscatter::rmc {
namespace {

struct CpuTile {
  TileSites sites;
  CpuSpectrum spectrum;
  ChiSums sums;
  double temperature = 0;
  std::uint64_t tried = 0, accepted = 0, blocked = 0;
  std::vector<double> trace;
};

class CpuBackend final : public RmcBackend {
 public:
  CpuBackend(const FoldedTarget& target, std::vector<TileSites> tiles, const RunSettings& settings, int threads)
      : target_(target), settings_(settings), twiddles_(twiddles(target.plane.size)), threads_(threads) {
    tiles_.resize(tiles.size());
    for (std::size_t t = 0; t < tiles.size(); ++t) {
      tiles_[t].sites = std::move(tiles[t]);
      tiles_[t].spectrum.plane = target.plane;
      tiles_[t].trace.assign(settings.trace_points, std::nan(""));
    }
    refresh();
  }

  std::vector<std::vector<double>> probe(std::uint64_t count) override {
    std::vector<std::vector<double>> deltas(tiles_.size(), std::vector<double>(count));
    for_each_tile([&](std::size_t t) {
      CpuTile& tile = tiles_[t];
      MoveFactors factors;
      const double chi = chi2(tile.sums);
      for (std::uint64_t m = 0; m < count; ++m) {
        const MoveProposal p = propose(tile, t, RngStream::probe, m);
        if (!p.valid) {
          deltas[t][m] = std::nan("");
          continue;
        }
        factors.prepare(twiddles_, target_.plane.size, p.from, p.to);
        const ChiSums d = delta_sums_cpu(tile.spectrum, target_, twiddles_, factors);
        deltas[t][m] = chi2({tile.sums.s_pi + d.s_pi, tile.sums.s_ii + d.s_ii}) - chi;
      }
    });
    return deltas;
  }

  void set_temperatures(const std::vector<double>& t0) override {
    for (std::size_t t = 0; t < tiles_.size(); ++t) tiles_[t].temperature = t0[t];
  }

  void run(std::uint64_t first, std::uint64_t count) override {
    for_each_tile([&](std::size_t t) {
      CpuTile& tile = tiles_[t];
      MoveFactors factors;
      double chi = chi2(tile.sums);
      for (std::uint64_t m = first; m < first + count; ++m) {
        const MoveProposal p = propose(tile, t, RngStream::moves, m);
        ++tile.tried;
        if (!p.valid) {
          ++tile.blocked;
        } else {
          factors.prepare(twiddles_, target_.plane.size, p.from, p.to);
          const ChiSums d = delta_sums_cpu(tile.spectrum, target_, twiddles_, factors);
          const ChiSums trial{tile.sums.s_pi + d.s_pi, tile.sums.s_ii + d.s_ii};
          const double chi_trial = chi2(trial);
          const double temperature =
              temperature_at(settings_.schedule, tile.temperature, settings_.final_ratio, m, settings_.total_moves);
          const Philox4 r = rmc_random(settings_.seed, settings_.first_tile + std::uint32_t(t), RngStream::moves, m);
          if (metropolis_accept(chi_trial - chi, temperature, uniform01(r.v[2], r.v[3]))) {
            apply_move_cpu(tile.spectrum, twiddles_, factors);
            tile.sites.apply_move(p.i, p.j);
            tile.sums = trial;
            chi = chi_trial;
            ++tile.accepted;
          }
        }
        if ((m + 1) % settings_.trace_interval == 0) {
          const std::uint64_t point = (m + 1) / settings_.trace_interval - 1;
          if (point < tile.trace.size()) tile.trace[point] = chi;
        }
      }
    });
  }

  void refresh() override {
    for_each_tile([&](std::size_t t) {
      CpuTile& tile = tiles_[t];
      const auto f = exact_spectrum(tile.sites.occupancy(), target_.plane.size);
      tile.spectrum.assign(f);
      tile.sums = chi_sums(target_, f);
    });
  }

  std::vector<TileStatus> status() const override {
    std::vector<TileStatus> out(tiles_.size());
    for (std::size_t t = 0; t < tiles_.size(); ++t) {
      const CpuTile& tile = tiles_[t];
      out[t] = {tile.sites.occupancy(), tile.sites.particles, tile.sums, tile.tried, tile.accepted, tile.blocked};
    }
    return out;
  }

  std::vector<std::vector<double>> trace() const override {
    std::vector<std::vector<double>> out;
    for (const CpuTile& tile : tiles_) out.push_back(tile.trace);
    return out;
  }

 private:
  double chi2(const ChiSums& s) const { return relative_chi2(s.s_pi, s.s_ii, target_.s_pp, settings_.fixed_scale); }

  MoveProposal propose(const CpuTile& tile, std::size_t t, RngStream stream, std::uint64_t m) const {
    const Philox4 r = rmc_random(settings_.seed, settings_.first_tile + std::uint32_t(t), stream, m);
    return propose_move(tile.sites.sites.data(), tile.sites.slot.data(), tile.sites.particles,
                        tile.sites.site_count(), tile.sites.size, settings_.offsets.data(),
                        std::uint32_t(settings_.offsets.size() / 2), r);
  }

  // Runs body(t) for every tile on OpenMP threads; the first exception
  // thrown by any tile is rethrown here.
  template <class Body>
  void for_each_tile(Body&& body) {
    OmpErrors errors;
    const int threads = threads_ > 0 ? threads_ : omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (std::size_t t = 0; t < tiles_.size(); ++t) errors.capture([&] { body(t); });
    errors.rethrow();
  }

  FoldedTarget target_;
  RunSettings settings_;
  std::vector<std::complex<double>> twiddles_;
  int threads_;
  std::vector<CpuTile> tiles_;
};

}  // namespace

std::unique_ptr<RmcBackend> make_cpu_backend(const FoldedTarget& target, std::vector<TileSites> tiles,
                                             const RunSettings& settings, int threads) {
  return std::make_unique<CpuBackend>(target, std::move(tiles), settings, threads);
}

}  // namespace nanoscatter::rmc
