// FFT-based product A x = x + S D S x on the CPU (FFTW + OpenMP), organised
// as ADDA's matvec.c: a forward FFT along x over the box's y-z lines only,
// then slab by slab (one x frequency at a time, threads over slabs) FFTs along
// y over the box's z range and along z over the whole slab, the product with
// the 3×3 interaction blocks, and the inverse passes, so the zero halves of the
// padded grid are never transformed.
//
// The FFTs run in Real (float or double); the vectors are always complex
// double: S·in is rounded to Real before the transforms and the result is
// added back in double (out = in + S·(D S in)), so with Real = float only the
// convolution carries float32 rounding (the mixed-precision solver's product).
#pragma once
#include <complex>
#include <vector>

#include "dda/backends.hpp"

namespace nanoscatter::dda {

template <class Real>
class CpuMatvec {
 public:
  using C = std::complex<Real>;
  using V = std::complex<double>;
  // FFT work arrays: X (3 × box_z × box_y × grid_x) and one slice (3 × grid_z ×
  // grid_y) per thread. A product in float can borrow those of a double one
  // (twice the bytes it needs; the two never run at the same time).
  struct Workspace {
    void* x = nullptr;
    std::vector<void*> slices;
  };
  explicit CpuMatvec(const MatrixSpec& spec, const Workspace* borrow = nullptr);
  ~CpuMatvec();
  CpuMatvec(const CpuMatvec&) = delete;
  CpuMatvec& operator=(const CpuMatvec&) = delete;
  // out = A in, or A^H in; in and out have 3 entries per solver dipole.
  void apply(const V* in, V* out, bool hermitian);
  Workspace workspace() const;

 private:
  struct Plans;
  std::array<int, 3> box_, grid_;
  int dsize_y_, dsize_z_;
  std::vector<std::array<std::uint16_t, 3>> position_;
  std::vector<V> s_;        // S per solver dipole (double)
  std::vector<C> dt_;       // reduced interaction FFT in the FFT precision
  C* x_ = nullptr;          // 3 × box_z × box_y × grid_x
  std::vector<C*> slices_;  // per thread: 3 × grid_z × grid_y  ([c][z][y])
  std::vector<V> conj_in_;
  Plans* plans_ = nullptr;
  bool owns_work_ = true;
  int threads_ = 1;
};

}  // namespace nanoscatter::dda
