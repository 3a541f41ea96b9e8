// Shared part of the homogeneous and coated Mie solutions: given the
// outer size parameter x, the outer relative index m and, for every order n,
// the "effective logarithmic derivatives" U_a(n), U_b(n) of the field inside
// the outer surface, the external coefficients are (Bohren & Huffman eq. 4.88
// and its coated-sphere analogue, eq. 8.2 after dividing by ψ_n(m x)):
//   a_n = [(U_a/m + n/x) ψ_n(x) − ψ_{n−1}(x)] / [(U_a/m + n/x) ξ_n(x) − ξ_{n−1}(x)]
//   b_n = [(m U_b + n/x) ψ_n(x) − ψ_{n−1}(x)] / [(m U_b + n/x) ξ_n(x) − ξ_{n−1}(x)]
// For a homogeneous sphere U_a = U_b = D_n(m x) = ψ'_n(mx)/ψ_n(mx).
#pragma once
#include <complex>
#include <vector>

#include "nanoscatter/mie.hpp"

namespace nanoscatter::mie {

using cplx = std::complex<double>;

// Number of terms: Wiscombe's criterion x + 4 x^{1/3} + 2.
int series_terms(double x);

// Logarithmic derivative D_n(z) = ψ'_n(z)/ψ_n(z) for n = 0..n_max by downward
// recurrence D_{n−1} = n/z − 1/(D_n + n/z), started 15 orders above the larger
// of n_max and |z| (stable for any complex z).
std::vector<cplx> log_derivative_psi(cplx z, int n_max);

// Logarithmic derivative of χ_n(z) = −z y_n(z) for n = 0..n_max by upward
// recurrence Dχ_n = 1/(n/z − Dχ_{n−1}) − n/z from Dχ_0 = −tan z (χ_n is the
// dominant solution, so the upward direction is the stable one).
std::vector<cplx> log_derivative_chi(cplx z, int n_max);

// Coefficients and efficiencies from U_a, U_b (index n−1 for n = 1..N).
MieResult external_coefficients(double x, cplx m, const std::vector<cplx>& u_a,
                                const std::vector<cplx>& u_b);

}  // namespace nanoscatter::mie
