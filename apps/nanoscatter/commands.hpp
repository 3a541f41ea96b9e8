// The CLI's subcommands. Each lives in its own file and only parses options,
// calls the library and writes results; main.cpp turns errors into one line.
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "nanoscatter/device.hpp"
#include "nanoscatter/parallel.hpp"

namespace nanoscatter::cli {

// What every subcommand may need to know about the invocation.
struct RunContext {
  std::string command_line;  // argv joined, recorded in output headers
  std::string version;
  parallel::Communicator comm;  // the MPI ranks of this run (rank 0 of 1 without mpirun)
};

// Options shared by the engines (docs/design.md command-line contract).
struct CommonOptions {
  std::string device = "auto";
  std::string precision = "auto";
  std::string output;
  bool quiet = false;
  int ranks_per_gpu = 1;  // under mpirun: consecutive ranks of a node sharing one GPU
};

// Adds --device, --precision (when the engine has one), --output and --quiet.
// `formats` lists the extensions this subcommand writes, for --help (only
// those it can write: issue 20).
void add_common_options(CLI::App& sub, CommonOptions& options, bool with_precision, const std::string& formats,
                        bool output_required = true);

// Prints "nanoscatter: warning: OLD is deprecated, use NEW" on stderr, once
// per old name: a renamed option works under its old name for one release
// (docs/conventions.md).
void warn_renamed(const std::string& old_name, const std::string& new_name);
// --output FOLDER for the engines that write several files, and its old
// name --output-dir (warned). Whether it was given is the caller's check
// (the library's: an empty folder is refused).
void add_output_folder_option(CLI::App& sub, std::string& folder, const std::string& description);
// OLD as a warned alias of NEW, an option added beside it that keeps its text.
void add_renamed_alias(CLI::App& sub, const std::string& old_name, const std::string& new_name,
                       std::optional<std::string>& target);

// --ranks-per-gpu (for the engines without CommonOptions).
void add_ranks_per_gpu_option(CLI::App& sub, int& ranks_per_gpu);
// select_device, and under mpirun with a GPU: this rank's GPU, (local rank /
// ranks_per_gpu) mod GPUs (parallel_cli.cpp). Notices only on rank 0.
Device select_rank_device(DeviceRequest request, int ranks_per_gpu, const RunContext& context);
// Under mpirun, unless OMP_NUM_THREADS says otherwise: ranks that are not
// bound to cores share the node's cores (cores / ranks of the node each).
void share_cores_between_ranks(const parallel::Communicator& comm);

void add_build_command(CLI::App& app, const RunContext& context);
void add_info_command(CLI::App& app, const RunContext& context);
void add_debye_command(CLI::App& app, const RunContext& context);
void add_pattern2d_command(CLI::App& app, const RunContext& context);
void add_rmc_command(CLI::App& app, const RunContext& context);
void add_dda_command(CLI::App& app, const RunContext& context);
void add_mie_command(CLI::App& app, const RunContext& context);
void add_gisaxs_command(CLI::App& app, const RunContext& context);
void add_fit_command(CLI::App& app, const RunContext& context);

}  // namespace nanoscatter::cli
