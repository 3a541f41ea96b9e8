// FFT-based product A x = x + S D S x on the CPU (FFTW + OpenMP), organised
// as ADDA's matvec.c: a forward FFT along x over the box's y-z lines only,
// then slab by slab (one x frequency at a time, threads over slabs) FFTs along
// y over the box's z range and along z over the whole slab, the product with
// the 3×3 interaction blocks, and the inverse passes, so the zero halves of the
// padded grid are never transformed.
#pragma once
#include <complex>
#include <vector>

#include "dda/backends.hpp"

namespace nanoscatter::dda {

template <class Real>
class CpuMatvec {
 public:
  using C = std::complex<Real>;
  explicit CpuMatvec(const MatrixSpec& spec);
  ~CpuMatvec();
  CpuMatvec(const CpuMatvec&) = delete;
  CpuMatvec& operator=(const CpuMatvec&) = delete;
  // out = A in, or A^H in; in and out have 3 entries per solver dipole.
  void apply(const C* in, C* out, bool hermitian);

 private:
  struct Plans;
  std::array<int, 3> box_, grid_;
  int dsize_y_, dsize_z_;
  std::vector<std::array<std::uint16_t, 3>> position_;
  std::vector<C> s_;
  std::vector<C> dt_;       // reduced interaction FFT in storage precision
  C* x_ = nullptr;          // 3 × box_z × box_y × grid_x
  std::vector<C*> slices_;  // per thread: 3 × grid_z × grid_y  ([c][z][y])
  std::vector<C> conj_in_;
  Plans* plans_ = nullptr;
  int threads_ = 1;
};

}  // namespace nanoscatter::dda
