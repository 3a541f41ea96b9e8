// RmcResult::reduce: every rank's run of tiles to every rank. A tile is
// computed by exactly one rank, so nothing is added: the tiles are packed,
// gathered on rank 0 in rank order (the order of their global indices) and
// broadcast with rank 0's trace moves, times and device.
#include "nanoscatter/error.hpp"
#include "nanoscatter/rmc.hpp"

namespace nanoscatter {
namespace {

void put_tiles(parallel::ByteWriter& w, const RmcResult& result) {
  w.put<std::uint64_t>(result.tiles.size());
  for (std::size_t t = 0; t < result.tiles.size(); ++t) {
    const RmcTileResult& r = result.tiles[t];
    w.put(r.loading);
    w.put<std::uint64_t>(r.particles);
    w.put_vector(r.occupancy);
    w.put(r.temperature);
    w.put(r.chi2_initial);
    w.put(r.chi2_final);
    w.put(r.scale);
    w.put(r.chi2_free);
    w.put(r.final_acceptance);
    w.put(r.tried);
    w.put(r.accepted);
    w.put(r.blocked);
    w.put_vector(result.trace[t]);
  }
}

void get_tiles(parallel::ByteReader& r, RmcResult& result) {
  const auto count = r.get<std::uint64_t>();
  for (std::uint64_t t = 0; t < count; ++t) {
    RmcTileResult tile;
    tile.loading = r.get<double>();
    tile.particles = r.get<std::uint64_t>();
    tile.occupancy = r.get_vector<std::uint8_t>();
    tile.temperature = r.get<double>();
    tile.chi2_initial = r.get<double>();
    tile.chi2_final = r.get<double>();
    tile.scale = r.get<double>();
    tile.chi2_free = r.get<double>();
    tile.final_acceptance = r.get<double>();
    tile.tried = r.get<std::uint64_t>();
    tile.accepted = r.get<std::uint64_t>();
    tile.blocked = r.get<std::uint64_t>();
    result.tiles.push_back(std::move(tile));
    result.trace.push_back(r.get_vector<double>());
  }
}

}  // namespace

void RmcResult::reduce(const parallel::Communicator& comm) {
  if (!comm.distributed()) return;
  parallel::ByteWriter mine;
  put_tiles(mine, *this);
  const std::vector<std::string> parts = comm.gather(mine.bytes());
  // Rank 0's description of the run, then every rank's tiles.
  parallel::ByteWriter whole;
  if (comm.root()) {
    whole.put<std::uint64_t>(size);
    whole.put(device);
    whole.put_vector(trace_moves);
    whole.put(seconds);
    whole.put(move_seconds);
    whole.put(cluster_size);
  }
  std::string bytes = whole.bytes();
  for (const std::string& part : parts) bytes += part;
  comm.broadcast(bytes);

  parallel::ByteReader r(bytes);
  size = r.get<std::uint64_t>();
  device = r.get<Device>();
  trace_moves = r.get_vector<std::uint64_t>();
  seconds = r.get<double>();
  move_seconds = r.get<double>();
  cluster_size = r.get<int>();
  tiles.clear();
  trace.clear();
  for (int rank = 0; rank < comm.size(); ++rank) get_tiles(r, *this);
  if (!r.done()) fail("RmcResult::reduce: unread bytes after ", comm.size(), " ranks' tiles");
  first_tile = 0;
}

}  // namespace nanoscatter
