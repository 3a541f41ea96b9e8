// The compute flags every engine shares (--threads, --max-device-memory),
// bound to its DeviceOptions, and memory sizes on the command line: "512M",
// "2G", "1.5GiB", "1048576" (bytes).
#pragma once
#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

#include "nanoscatter/device.hpp"

namespace nanoscatter::cli {

// The size in bytes (0 allowed: the option's default meaning); an Error
// naming the option field `field` (printed as its flag) otherwise.
std::size_t parse_memory_size(const std::string& text, const char* field);

// Adds --threads (bound to compute.threads) and --max-device-memory (parsed
// into compute.max_device_memory as the flag is read; its meaning, 0 = half
// the free memory, is DeviceOptions'). `compute` must outlive the parse.
void add_compute_options(CLI::App& sub, DeviceOptions& compute, const std::string& threads_help = "CPU threads (0: all)");

}  // namespace nanoscatter::cli
