// `nanoscatter gisaxs SAMPLE --formfactor-only`: F(q) of the sample's first
// particle (its own frame: placement applied, no rotation or depth) on a 3D
// q grid, written to HDF5 (docs/gisaxs.md).
#pragma once
#include <string>

#include "commands.hpp"
#include "nanoscatter/device.hpp"

namespace nanoscatter::cli {

struct GisaxsFormFactorCli {
  std::string sample, output;
  std::string qx, qy, qz;  // "min,max,n"
};

// `compute`: the device options gisaxs resolved (device selected).
void run_gisaxs_formfactor(const GisaxsFormFactorCli& o, const DeviceOptions& compute, bool quiet,
                           const RunContext& context);

}  // namespace nanoscatter::cli
