#include "gisaxs/mesh/mesh_host_copy.hpp"

#include <cstddef>

namespace nanoscatter::gisaxs::mesh {

namespace {
// Below this many points a parallel region costs more than the loop.
constexpr std::ptrdiff_t kParallelFrom = 1 << 16;
}  // namespace

void pack_q(std::span<const Vec3> q, double* xyz) {
  const std::ptrdiff_t n = std::ptrdiff_t(q.size());
#pragma omp parallel for schedule(static) if (n >= kParallelFrom)
  for (std::ptrdiff_t j = 0; j < n; ++j) {
    xyz[3 * j] = q[j].x;
    xyz[3 * j + 1] = q[j].y;
    xyz[3 * j + 2] = q[j].z;
  }
}

void unpack_f(const double* f, std::span<const Vec3> q, double q_min, std::span<Complex> out) {
  const std::ptrdiff_t n = std::ptrdiff_t(q.size());
  const double q_min2 = q_min * q_min;
#pragma omp parallel for schedule(static) if (n >= kParallelFrom)
  for (std::ptrdiff_t j = 0; j < n; ++j) {
    const double q2 = dot(q[j], q[j]);  // the kernel's test (mesh_cuda.cu)
    if (q2 >= q_min2 && q2 > 0) out[j] = Complex(f[2 * j], f[2 * j + 1]);
  }
}

}  // namespace nanoscatter::gisaxs::mesh
