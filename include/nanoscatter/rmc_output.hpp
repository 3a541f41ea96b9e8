// Files of an RMC run, written by the library so that the CLI and Python
// write the same ones: one output directory with rmc.h5, text tables and
// pictures, each with the run's record.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "nanoscatter/rmc.hpp"
#include "nanoscatter/run_record.hpp"

namespace nanoscatter {

// The output directory, checked before any work so that bad input costs
// none: it may exist (files in it are replaced) or be created in an
// existing parent. Errors name the path and the option field "output" (a folder).
void check_rmc_output_dir(const std::filesystem::path& dir);

// What an RMC run records about itself: target, model size, tiles, seed,
// moves and cooling, device, time.
std::vector<std::string> rmc_run_lines(const RmcTarget& target, const RmcOptions& options, const RmcResult& result);

// Creates `dir` if needed (check_rmc_output_dir) and writes into it: rmc.h5
// (occupancy, model, target, mask, trace, g(r), per-tile statistics; the
// record and the run's settings as attributes), the figures (io_figure.hpp)
// occupancy_tile<k>.png and model_tile<k>.png, target.png, chi2_trace.dat, acceptance.dat,
// pair_correlation.dat. Every file goes through a staging folder, and all
// are moved into place only when all were written. `result` is the whole
// run's (RmcResult::reduce under MPI).
void write_rmc_outputs(const std::filesystem::path& dir, const RmcResult& result, const RmcTarget& target,
                       const RmcOptions& options, const RunRecord& record);

}  // namespace nanoscatter
