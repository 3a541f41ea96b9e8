// DDA physics shared by the CPU and GPU paths: polarizability prescriptions,
// the point-dipole interaction tensor and its FFT on the padded grid.
#pragma once
#include <array>
#include <complex>
#include <vector>

#include "nanoscatter/dda.hpp"

namespace nanoscatter::dda {

using cplx = std::complex<double>;

// Smallest even n' ≥ n whose prime factors are 2, 3, 5, 7 (FFT-friendly).
int smooth_fft_size(int n);
// Padded grid for the convolution: 2·box rounded up to a smooth size.
std::array<int, 3> fft_grid_for(const std::array<int, 3>& box);

// Polarizability α of a cubical dipole of size d (volume d³) with relative
// index m at wavenumber k; S = Σ_i prop_i² e_i² (ADDA's LDR term, 0 for the
// default incidence along z with x or y polarisation).
//   CM:  α_CM = (3d³/4π)(m²−1)/(m²+2)
//   RR:  α = α_CM / (1 − (α_CM/d³) i (2/3)(kd)³)
//   LDR: α = α_CM / (1 − (α_CM/d³)[(b1 + (b2 + b3 S) m²)(kd)² + i(2/3)(kd)³])
//        b1 = 1.8915316, b2 = −0.1648469, b3 = 1.7700004 (Draine & Goodman,
//        ApJ 405, 685 (1993); ADDA const.h; the same as Draine's form with
//        the opposite signs of b1..b3 and of the bracket).
cplx polarizability(DdaPolarizability p, cplx m, double k, double d, double S);

// Point-dipole interaction tensor G(r) (field at r of a unit dipole at 0):
//   G = e^{ikr}/r³ [(k²r² + ikr − 1) I + (3 − k²r² − 3ikr) r̂r̂],
// returned as xx, xy, xz, yy, yz, zz.
std::array<cplx, 6> green_tensor(double k, double rx, double ry, double rz);

// FFT of the interaction on the padded grid, stored for y ≤ gy/2, z ≤ gz/2
// only (G is even in each coordinate except for the odd off-diagonal
// components, so the other half follows by sign flips; ADDA fft.c):
//   Dt = −FFT(G)/(gx gy gz), index ((x·(gz/2+1) + z)·(gy/2+1) + y)·6 + c.
// Then D x = IFFT(Dt · FFT(x)) with unnormalised FFTs.
struct InteractionFft {
  std::array<int, 3> grid{};
  int dsize_y = 0, dsize_z = 0;  // gy/2+1, gz/2+1
  std::vector<cplx> data;
};
InteractionFft interaction_fft(const std::array<int, 3>& box, const std::array<int, 3>& grid,
                               double k, double d, int threads);

}  // namespace nanoscatter::dda
