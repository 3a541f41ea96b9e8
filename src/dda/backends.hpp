// Factories of the solver backends. Both take the solver dipoles (those with
// m ≠ 1), their S = α^{1/2} and the interaction FFT, and build A = I + S D S.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "dda/physics.hpp"
#include "dda/solver_backend.hpp"
#include "nanoscatter/device.hpp"

namespace nanoscatter::dda {

struct MatrixSpec {
  std::array<int, 3> box{};
  std::array<int, 3> grid{};
  std::vector<std::array<std::uint16_t, 3>> position;  // solver dipoles
  std::vector<cplx> s;                                 // S = α^{1/2} per solver dipole
  const InteractionFft* interaction = nullptr;  // CPU: computed by the caller
  double k = 0, d = 0;                          // GPU: the backend computes the interaction itself
  std::size_t max_device_bytes = 0;             // GPU: user cap on device memory (0: half of the free memory)
  int solver_vectors = 8;                       // GPU: vectors the solver will create (memory check)
  int threads = 0;
};

std::unique_ptr<SolverBackend> make_cpu_backend(const MatrixSpec& spec, Precision precision);
#if NANOSCATTER_HAVE_CUDA
std::unique_ptr<SolverBackend> make_cuda_backend(const MatrixSpec& spec, Precision precision);
// Bytes the GPU path allocates for this problem (interaction, FFT buffers, `vectors` solver vectors).
std::size_t cuda_memory_bytes(const std::array<int, 3>& box, const std::array<int, 3>& grid,
                              std::size_t solver_dipoles, int vectors, Precision precision);
#endif

}  // namespace nanoscatter::dda
