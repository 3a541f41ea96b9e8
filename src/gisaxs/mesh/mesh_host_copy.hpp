// Host side of the CUDA mesh path's hyperblocks (mesh_cuda.cu): packing q
// into the pinned upload buffer and copying results out of the pinned
// download buffer. OpenMP-parallel and compiled as C++ (the CUDA compile of
// mesh_cuda.cu does not see the OpenMP flags), so that this work, which runs
// while the GPU computes another hyperblock, stays short next to the kernels
// even for small meshes.
#pragma once
#include <span>

#include "nanoscatter/gisaxs_mesh.hpp"

namespace nanoscatter::gisaxs::mesh {

// xyz[3 j + k] = q[j][k].
void pack_q(std::span<const Vec3> q, double* xyz);

// out[j] = (f[2 j], f[2 j + 1]) for every j with |q_j|² ≥ q_min² and q_j ≠ 0
// (the points the kernel computed); other entries are left untouched.
void unpack_f(const double* f, std::span<const Vec3> q, double q_min, std::span<Complex> out);

}  // namespace nanoscatter::gisaxs::mesh
