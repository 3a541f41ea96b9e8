// Scattering quantities from the dipole polarisations (ADDA crosssec.c and
// CalculateE.c): far-field amplitude, Cext, Cabs, integrated Csca and the
// asymmetry vector, amplitude matrix and Mueller matrix.
#pragma once
#include <array>
#include <complex>
#include <cstdint>
#include <functional>
#include <vector>

namespace nanoscatter::dda {

using cplx = std::complex<double>;
using Vec3d = std::array<double, 3>;
using CVec3 = std::array<cplx, 3>;

// Dipoles of one solution: grid positions, box, dipole size and P (3 each).
struct DipoleSet {
  std::array<int, 3> box{};
  double d = 0;
  const std::vector<std::array<std::uint16_t, 3>>* position = nullptr;
  const std::vector<cplx>* p = nullptr;
};

// Centred coordinate (ADDA DipoleCoord): (i − (box−1)/2)·d.
Vec3d dipole_coordinate(const DipoleSet& s, std::size_t i);

// Scattering amplitude F(n) = −i k³ (I − n n)·Σ_j P_j exp(−i k r_j·n), with
// E_sca = F exp(ikr)/(−ikr) (ADDA CalcFieldFree). Many directions at once
// (threads over directions).
std::vector<CVec3> far_field(const DipoleSet& s, double k, const std::vector<Vec3d>& dirs);

// Cext = (4π/k²) Re(F(prop)·e_pol) for the unit plane wave (ADDA ExtCross).
double extinction_cross_section(const CVec3& f_forward, const Vec3d& e_pol, double k);
// Cabs = 4πk Σ_j (−Im(1/α_j) − (2/3)k³)|P_j|² (ADDA AbsCross, Draine's form).
double absorption_cross_section(const std::vector<cplx>& p, const std::vector<std::uint8_t>& material,
                                const std::vector<cplx>& alpha, double k);

// Csca = (1/k²)∮|F|² dΩ and g = (1/(k² Csca))∮ n |F|² dΩ by Gauss–Legendre
// in cos θ and the trapezoid rule in φ, with enough nodes for a field of
// angular band limit k·r_max (r_max: largest dipole distance from the centre).
struct Integrated {
  double csca = 0;
  Vec3d g{0, 0, 0};
};
Integrated integrate_far_field(const std::function<std::vector<CVec3>(const std::vector<Vec3d>&)>& amplitude,
                               double k, double r_max);

// Mueller matrix from the amplitude-matrix elements (B&H eq. 3.16, as ADDA
// ComputeMuellerMatrix), row-major s11 s12 ... s44.
std::array<double, 16> mueller_from_amplitudes(cplx s1, cplx s2, cplx s3, cplx s4);

// Gauss–Legendre nodes and weights on [−1, 1].
void gauss_legendre(int n, std::vector<double>& x, std::vector<double>& w);

}  // namespace nanoscatter::dda
