// FFT-based A x = x + S D S x on the GPU (cuFFT), every array on the device.
// The 3D FFT is split into 1D passes as in ADDA, so the zero halves of the
// padded grid are not transformed: x over the box's (y, z) lines; a tiled
// transpose to [c][x][z<bz][y]; y over those rows; a transpose to
// [c][x][y][z]; z over everything; the 3×3 product with the reduced
// interaction FFT; and the inverse passes in reverse order.
//
// The transforms run in Real; the vectors are always complex double: S·in is
// formed in double and rounded to Real, and out = in + S·(D S in) is added in
// double. A float product (single = mixed precision) borrows the FFT work
// arrays of a double one (the two never run at the same time) and rounds its
// interaction FFT instead of computing it again.
#pragma once
#include <cufft.h>

#include <array>
#include <complex>
#include <cstdint>
#include <vector>

#include "core/device_buffer.cuh"
#include "dda/backends.hpp"

namespace nanoscatter::dda {

template <class Real>
struct CudaTypes;
template <>
struct CudaTypes<float> {
  using C = cufftComplex;
  static constexpr cufftType kType = CUFFT_C2C;
};
template <>
struct CudaTypes<double> {
  using C = cufftDoubleComplex;
  static constexpr cufftType kType = CUFFT_Z2Z;
};

#define NS_CUFFT_CHECK(call)                                                                   \
  do {                                                                                         \
    const cufftResult ns_cufft_status_ = (call);                                               \
    if (ns_cufft_status_ != CUFFT_SUCCESS)                                                     \
      ::nanoscatter::fail("cuFFT error ", static_cast<int>(ns_cufft_status_), " in ", #call,   \
                          " at ", __FILE__, ":", __LINE__);                                    \
  } while (0)

template <class Real>
class CudaMatvec {
 public:
  using C = typename CudaTypes<Real>::C;
  using V = cufftDoubleComplex;
  struct Shared {
    void* a = nullptr;
    void* b = nullptr;
    void* work = nullptr;
    std::size_t a_bytes = 0, b_bytes = 0, work_bytes = 0;
    const cufftDoubleComplex* dt = nullptr;  // the double interaction FFT
  };
  explicit CudaMatvec(const MatrixSpec& spec, const Shared* borrow = nullptr);
  ~CudaMatvec();
  CudaMatvec(const CudaMatvec&) = delete;
  CudaMatvec& operator=(const CudaMatvec&) = delete;
  // out = A in (hermitian: A^H in); device pointers, 3 entries per dipole.
  void apply(const V* in, V* out, bool hermitian);
  // What a float product may borrow (this object keeps owning it).
  Shared shared() const;
  std::size_t dipoles() const { return n_; }
  // Bytes of device memory this object holds.
  std::size_t bytes() const;

 private:
  void fft(cufftHandle plan, C* data, int direction);
  std::array<int, 3> box_, grid_;
  int dsize_y_ = 0, dsize_z_ = 0;
  std::size_t n_ = 0;
  DeviceBuffer<std::uint16_t> pos_;  // 3 per dipole
  DeviceBuffer<V> s_;                // S per dipole (double)
  DeviceBuffer<C> dt_;               // reduced interaction FFT
  DeviceBuffer<C> a_;                // X ([c][z<bz][y<by][x]) and Z ([c][x][y][z]) share it
  DeviceBuffer<C> b_;                // Y ([c][x][z<bz][y])
  DeviceBuffer<char> work_;          // cuFFT work area shared by the plans
  C* a_ptr_ = nullptr;               // a_, b_, work_ or the borrowed arrays
  C* b_ptr_ = nullptr;
  void* work_ptr_ = nullptr;
  std::size_t work_bytes_ = 0;
  cufftHandle plan_x_ = 0, plan_y_ = 0, plan_z_ = 0;
};

// Computes the reduced interaction FFT on the device (double precision) and
// stores it as Real: G on the full padded grid per component, a cuFFT 3D
// transform, −1/N and the y ≤ gy/2, z ≤ gz/2 part kept.
template <class Real>
void interaction_fft_device(const std::array<int, 3>& box, const std::array<int, 3>& grid, double k, double d,
                            typename CudaTypes<Real>::C* out);

}  // namespace nanoscatter::dda
