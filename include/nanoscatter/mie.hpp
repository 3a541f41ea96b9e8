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
#include <optional>
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

// ---- a run as the CLI and Python ask for it -----------------------------------

// A homogeneous or coated sphere given by its size parameter, or by its
// radius and the wavelength (any one length unit), and the angles of its
// Mueller elements: `nanoscatter mie`'s flags, Python mie()'s keywords.
struct MieOptions {
  std::optional<double> x;            // size parameter 2πr/λ of the (outer) sphere; or
  std::optional<double> radius;       // the (outer) radius, with lambda
  double lambda = 6.283185307179586;  // wavelength (default 2π, so x = radius)
  std::complex<double> m{1.5, 0.0};   // index of the sphere (of the shell when coated)
  std::optional<double> core_ratio;   // coated: core/outer diameter ratio in [0, 1], with m_core
  std::optional<std::complex<double>> m_core;
  int ntheta = 0;                     // Mueller elements at this many θ over 0..180° (0: none)
  std::vector<double> theta;          // or at these θ (degrees), instead of ntheta

  // Every check of these options, once (mie_scatter calls it); errors name
  // the field (fail_option).
  void validate() const;
  double size_parameter() const;      // x, or 2π radius/λ
  std::vector<double> angles() const; // theta, or the ntheta grid (degrees)
};

// The coefficients and efficiencies of the sphere `options` describes.
MieResult mie_scatter(const MieOptions& options);

// Mueller elements of `r` (mie_mueller) at each θ of `theta_degrees`.
struct MieMuellerTable {
  std::vector<double> theta;  // degrees
  std::vector<double> s11, s12, s33, s34;
};
MieMuellerTable mie_mueller_table(const MieResult& r, const std::vector<double>& theta_degrees);

}  // namespace nanoscatter
