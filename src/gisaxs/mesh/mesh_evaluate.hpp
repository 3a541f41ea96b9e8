// A mesh's F at DWBA q vectors through MeshFormFactorPlan (CPU or GPU):
// real q (non-absorbing layers, the common case) go to the plan in one
// call, complex q to the float64 reference.
#pragma once
#include <span>
#include <vector>

#include "nanoscatter/gisaxs_mesh.hpp"

namespace nanoscatter::gisaxs {

void evaluate_mesh(const MeshFormFactor& mesh, const MeshFormFactorOptions& options, std::span<const CVec3> q,
                   std::vector<Complex>& out);

}  // namespace nanoscatter::gisaxs
