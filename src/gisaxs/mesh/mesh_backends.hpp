// Backends of MeshFormFactorPlan (mesh_plan.cpp): the same function on the
// CPU and on CUDA, for real q,
//   out[i] = F(q_i)  for every i with |q_i| ≥ q_min (other entries untouched),
// computed tile by tile with the kernel of triangle_kernel.hpp in float32
// (float64 sums over tiles) or float64.
#pragma once
#include <complex>
#include <memory>
#include <span>
#include <string>

#include "gisaxs/mesh/mesh_tiles.hpp"
#include "nanoscatter/device.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"

namespace nanoscatter::gisaxs::mesh {

// Fast CPU path: OpenMP over blocks of q, SIMD over the q of a block.
void form_factor_cpu(const MeshTiles& tiles, std::span<const Vec3> q, std::span<Complex> out, Precision precision,
                     int threads, double q_min);

#if NANOSCATTER_HAVE_CUDA
// What a plan keeps between CUDA runs (mesh_cuda.cu): the mesh on the device,
// pinned host buffers, and the launch shapes the autotuner chose per device,
// precision and mesh size.
struct MeshCudaState;
struct MeshCudaStateDeleter {
  void operator()(MeshCudaState* s) const;
};
using MeshCudaStatePtr = std::unique_ptr<MeshCudaState, MeshCudaStateDeleter>;
MeshCudaStatePtr make_mesh_cuda_state();

struct CudaMeshOptions {
  Precision precision = Precision::float32;
  std::size_t max_device_memory = 0;  // 0: half the free memory
  double q_min = 0;
  // Tests: this kernel shape instead of the autotuned one (0: autotune):
  // threads per block, threads per q (1, 2, 4; 32 × it divides threads_per_block),
  // q per thread (1, 2), the branch-free triangle kernel.
  int threads_per_block = 0, threads_per_q = 1, q_per_thread = 1;
  bool blend = false;
};
// CUDA path: q in hyperblocks sized from the memory budget, two streams
// overlapping kernels with device→host copies through pinned buffers.
// Adds its hyperblock counts to `stats`.
void form_factor_cuda(const MeshTiles& tiles, std::span<const Vec3> q, std::span<Complex> out,
                      const CudaMeshOptions& options, MeshCudaState& state, MeshRunStats& stats);
#endif

}  // namespace nanoscatter::gisaxs::mesh
