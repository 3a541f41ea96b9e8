// RmcOptions: the checks of every option (validate) and the parsers of the
// options given as text (schedule, temperature). Errors name the option's
// field (fail_option), which the CLI prints as its flag and Python as its
// keyword.
#include <cmath>
#include <string>

#include "nanoscatter/error.hpp"
#include "nanoscatter/rmc.hpp"

namespace nanoscatter {
namespace {

// Tiles of one run (a tile's index keys its random numbers, 32 bits).
constexpr std::size_t kMaxTiles = std::size_t(1) << 20;
// GPU thread blocks per tile (a thread-block cluster holds at most 8).
constexpr int kMaxClusterSize = 8;

}  // namespace

CoolingSchedule parse_cooling_schedule(const std::string& name) {
  if (name == "fixed") return CoolingSchedule::fixed;
  if (name == "exponential") return CoolingSchedule::exponential;
  if (name == "linear") return CoolingSchedule::linear;
  fail_option("schedule", "unknown schedule '", name, "' (expected fixed, exponential or linear)");
}

const char* to_string(CoolingSchedule schedule) {
  switch (schedule) {
    case CoolingSchedule::fixed: return "fixed";
    case CoolingSchedule::exponential: return "exponential";
    case CoolingSchedule::linear: return "linear";
  }
  return "?";
}

std::optional<double> parse_rmc_temperature(const std::string& text) {
  if (text == "auto") return std::nullopt;
  std::size_t used = 0;
  double t = 0;
  try {
    t = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty()) fail_option("temperature", "expected a number or 'auto', got '", text, "'");
  return t;
}

void RmcOptions::validate() const {
  if (tiles < 1 || tiles > kMaxTiles) fail_option("tiles", "must lie in [1, ", kMaxTiles, "], got ", tiles);
  if (loading.size() != 1 && loading.size() != tiles)
    fail_option("loading", "give one loading or one per tile (", tiles, "), got ", loading.size());
  for (double l : loading)
    if (!(l > 0 && l < 1)) fail_option("loading", "must lie in (0, 1), got ", l);
  if (steps < 1) fail_option("steps", "must be at least 1");
  if (!(max_distance >= 0) || !std::isfinite(max_distance))
    fail_option("max_distance", "must be ≥ 0 and finite, got ", max_distance);
  if (max_distance > 0 && max_distance < 1)
    fail_option("max_distance", "must be 0 (anywhere) or ≥ 1 lattice unit, got ", max_distance);
  if (temperature && (!(*temperature >= 0) || !std::isfinite(*temperature)))
    fail_option("temperature", "must be ≥ 0 and finite, got ", *temperature);
  if (!(target_acceptance > 0 && target_acceptance < 1))
    fail_option("target_acceptance", "must lie in (0, 1), got ", target_acceptance);
  if (!temperature && probe_moves < 1) fail_option("probe_moves", "must be at least 1");
  if (schedule == CoolingSchedule::exponential && !(final_ratio > 0 && std::isfinite(final_ratio)))
    fail_option("final_ratio", "exponential cooling needs T_final/T0 > 0, got ", final_ratio);
  if (schedule == CoolingSchedule::linear && !(final_ratio >= 0 && std::isfinite(final_ratio)))
    fail_option("final_ratio", "linear cooling needs T_final/T0 ≥ 0, got ", final_ratio);
  // multires_levels and cluster_size are named as their flags and keywords.
  if (multires_levels < 0) fail_option("multires", "must be ≥ 0, got ", multires_levels);
  if (cluster_size < 0 || cluster_size > kMaxClusterSize)
    fail_option("cluster", "must lie in [0, ", kMaxClusterSize, "], got ", cluster_size);
  compute.validate();
  validate_work_share(share);
}

}  // namespace nanoscatter
