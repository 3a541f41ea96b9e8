// `nanoscatter gisaxs SAMPLE --formfactor-only`: F(q) of the sample's first
// particle (its own frame: placement applied, no rotation or depth) on a 3D
// q grid, written to HDF5 (docs/gisaxs.md).
#pragma once
#include <cstddef>
#include <string>

#include "commands.hpp"
#include "nanoscatter/device.hpp"

namespace nanoscatter::cli {

struct GisaxsFormFactorCli {
  std::string sample, output;
  std::string qx, qy, qz;  // "min,max,n"
  Device device = Device::cpu;
  Precision precision = Precision::dual;
  std::size_t max_device_memory = 0;
  int threads = 0;
  bool quiet = false;
};

// "512M", "2G", "1.5GiB", "1048576" (bytes); Error naming `option` otherwise.
std::size_t parse_memory_size(const std::string& text, const char* option);

void run_gisaxs_formfactor(const GisaxsFormFactorCli& o, const RunContext& context);

}  // namespace nanoscatter::cli
