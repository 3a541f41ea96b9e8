// Lorenz–Mie theory: exact scattering of a plane wave by a homogeneous sphere
// and by a concentric coated sphere (Bohren & Huffman, "Absorption and
// Scattering of Light by Small Particles", 1983, ch. 4 and 8.1).
//
// Conventions follow Bohren & Huffman and ADDA: time dependence exp(−iωt), so
// an absorbing material has Im(m) > 0; m is relative to the surrounding
// medium; size parameter x = k r = 2π r/λ. Efficiencies are cross sections
// divided by π r² of the outer radius.
#pragma once
#include <complex>
#include <vector>

namespace nanoscatter {

struct MieResult {
  double x = 0;       // outer size parameter
  double qext = 0;    // extinction efficiency
  double qsca = 0;    // scattering efficiency
  double qabs = 0;    // qext − qsca
  double qback = 0;   // backscattering efficiency |Σ(2n+1)(−1)^n (a_n − b_n)|² / x²
  double g = 0;       // asymmetry parameter <cos θ>
  std::vector<std::complex<double>> a, b;  // coefficients a_n, b_n for n = 1..N (index n−1)
};

// Homogeneous sphere of size parameter x > 0 and relative index m (Im m ≥ 0).
MieResult mie_sphere(double x, std::complex<double> m);

// Concentric coated sphere: a core of size parameter x_core and index m_core
// inside a shell of outer size parameter x_shell ≥ x_core and index m_shell.
// x_core = 0 is the homogeneous shell material, x_core = x_shell the core.
MieResult mie_coated_sphere(double x_core, double x_shell, std::complex<double> m_core,
                            std::complex<double> m_shell);

// Amplitude-matrix elements S1 (perpendicular) and S2 (parallel) at the
// scattering angle theta (radians), Bohren & Huffman eq. 4.74.
struct MieAmplitude {
  std::complex<double> s1, s2;
};
MieAmplitude mie_amplitude(const MieResult& r, double theta);

// Non-zero Mueller elements of a sphere (B&H eq. 4.77), normalised as the
// amplitude matrix (no 1/(k²r²) factor): S11, S12, S33, S34 (S22 = S11,
// S44 = S33, S21 = S12, S43 = −S34).
struct MieMueller {
  double s11, s12, s33, s34;
};
MieMueller mie_mueller(const MieResult& r, double theta);

}  // namespace nanoscatter
