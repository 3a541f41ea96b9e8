// The compute flags every engine shares (--threads, --max-device-memory),
// bound to its DeviceOptions; sizes are read by the library's
// parse_memory_size (device.hpp), as Python's max_device_memory is.
#pragma once
#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

#include "nanoscatter/device.hpp"

namespace nanoscatter::cli {

// Adds --threads (bound to compute.threads) and --max-device-memory (parsed
// into compute.max_device_memory as the flag is read; its meaning, 0 = half
// the free memory, is DeviceOptions'). `compute` must outlive the parse.
void add_compute_options(CLI::App& sub, DeviceOptions& compute, const std::string& threads_help = "CPU threads (0: all)");

}  // namespace nanoscatter::cli
