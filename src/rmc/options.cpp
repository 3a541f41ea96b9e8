// RmcOptions: the checks of every option (validate) and the parsers of the
// options given as text (schedule, temperature). Errors name the option's
// field (fail_option), which the CLI prints as its flag and Python as its
// keyword.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "nanoscatter/error.hpp"
#include "nanoscatter/rmc.hpp"

namespace nanoscatter {
namespace {

// Tiles of one run (a tile's index keys its random numbers, 32 bits).
constexpr std::size_t kMaxTiles = std::size_t(1) << 20;
// GPU thread blocks per tile (a thread-block cluster holds at most 8).
constexpr int kMaxClusterSize = 8;
// A parabola through the scan's lowest point needs it and two neighbours.
constexpr std::size_t kMinScanPoints = 3;
// Grid points of a scan: each is a tile (or `tiles` of them) of one plan.
constexpr std::size_t kMaxScanPoints = 10000;
// "stop" is on the grid when within this fraction of a step of a grid point
// (0.05:0.45:0.05 has 9 points despite binary rounding).
constexpr double kScanGridTolerance = 1e-9;

double parse_scan_number(const std::string& part, const std::string& text) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(part, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != part.size() || part.empty())
    fail_option("loading_scan", "expected start:stop:step (e.g. 0.05:0.45:0.05), got '", text, "'");
  return v;
}

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

Chi2Scale parse_chi2_scale(const std::string& name) {
  if (name == "free") return Chi2Scale::free;
  if (name == "absolute") return Chi2Scale::absolute;
  if (name == "fixed") return Chi2Scale::fixed;
  fail_option("chi2_scale", "unknown scale '", name, "' (expected free, absolute or fixed)");
}

const char* to_string(Chi2Scale scale) {
  switch (scale) {
    case Chi2Scale::free: return "free";
    case Chi2Scale::absolute: return "absolute";
    case Chi2Scale::fixed: return "fixed";
  }
  return "?";
}

std::vector<double> parse_loading_scan(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  for (std::size_t colon; (colon = text.find(':', begin)) != std::string::npos; begin = colon + 1)
    parts.push_back(text.substr(begin, colon - begin));
  parts.push_back(text.substr(begin));
  if (parts.size() != 3) fail_option("loading_scan", "expected start:stop:step (e.g. 0.05:0.45:0.05), got '", text, "'");
  const double start = parse_scan_number(parts[0], text), stop = parse_scan_number(parts[1], text),
               step = parse_scan_number(parts[2], text);
  if (!(start > 0 && start < 1 && stop > 0 && stop < 1))
    fail_option("loading_scan", "start and stop must lie in (0, 1), got ", start, " and ", stop);
  if (!(step > 0) || !(stop > start)) fail_option("loading_scan", "needs start < stop and step > 0, got '", text, "'");
  const double intervals = std::floor((stop - start) / step + kScanGridTolerance);
  if (intervals + 1 > double(kMaxScanPoints)) fail_option("loading_scan", "more than ", kMaxScanPoints, " loadings");
  std::vector<double> loadings;
  for (int i = 0; i <= int(intervals); ++i) loadings.push_back(std::min(start + i * step, stop));
  return loadings;
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
  if (loading_scan.empty()) {
    if (loading.empty()) fail_option("loading", "required: the fraction of occupied sites (or a loading scan)");
    if (loading.size() != 1 && loading.size() != tiles)
      fail_option("loading", "give one loading or one per tile (", tiles, "), got ", loading.size());
  } else {
    if (!loading.empty()) fail_option("loading_scan", "give either a loading or a loading scan, not both");
    if (loading_scan.size() < kMinScanPoints || loading_scan.size() > kMaxScanPoints)
      fail_option("loading_scan", "needs ", kMinScanPoints, " to ", kMaxScanPoints, " loadings, got ", loading_scan.size());
    for (double l : loading_scan)
      if (!(l > 0 && l < 1)) fail_option("loading_scan", "loadings must lie in (0, 1), got ", l);
    if (tiles * loading_scan.size() > kMaxTiles)
      fail_option("tiles", tiles, " tiles for each of ", loading_scan.size(), " loadings exceed ", kMaxTiles);
  }
  for (double l : loading)
    if (!(l > 0 && l < 1)) fail_option("loading", "must lie in (0, 1), got ", l);
  if (chi2_scale == Chi2Scale::fixed && !(scale > 0 && std::isfinite(scale)))
    fail_option("scale", "the fixed scale must be > 0 and finite, got ", scale);
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

double RmcOptions::fixed_scale() const {
  switch (chi2_scale) {
    case Chi2Scale::free: return 0;
    case Chi2Scale::absolute: return 1;
    case Chi2Scale::fixed: return scale;
  }
  return 0;
}

}  // namespace nanoscatter
