// Special functions of complex argument for the form factors, each accurate to
// a few ulp over the whole plane the engine meets (|z| up to ~1e4), with
// series where the textbook formula would cancel.
#pragma once
#include "core/quadrature.hpp"
#include <complex>
#include <vector>

namespace nanoscatter::gisaxs {

using Complex = std::complex<double>;

// sin(z)/z, 1 at z = 0.
Complex sinc(Complex z);
double sinc(double x);

// J1(z)/z (→ 1/2 at z = 0), the Bessel factor of every circular cross
// section: ∫_disc exp(i q·r) d²r = 2π R² J1(qR)/(qR).
// Real x ≤ 25: piecewise Chebyshev interpolants (degree 15 on unit
// intervals, built once from libstdc++'s cyl_bessel_j and the series,
// good to a few ulp and five times faster than calling cyl_bessel_j);
// Hankel's expansion above. Complex z: power
// series for |z| ≤ 8, the trapezoidal rule on Bessel's integral
// J1(z) = (1/π)∫₀^π cos(τ − z sin τ) dτ (spectrally exact for a periodic
// integrand) for 8 < |z| ≤ 25, Hankel's expansion (DLMF 10.17.3) beyond.
double bessel_j1c(double x);
Complex bessel_j1c(Complex z);
// The Chebyshev coefficients behind bessel_j1c(double) on [1, 25]: interval
// m = ⌊x⌋ (0 … 24) holds 16 coefficients from index 16 m, for t = 2(x − m) − 1
// (the GPU path evaluates the same interpolants: analytic_math.hpp).
const std::vector<double>& bessel_j1c_chebyshev();

// sinc(z) exp(i z) = (exp(2iz) − 1)/(2iz): the height factor of every
// prism-like shape, with one complex exponential instead of sin and exp
// (Taylor series below |2z| = 1/2, where the difference would cancel).
Complex sinc_exp_i(Complex z);

// 3 (sin x − x cos x)/x³ (→ 1 at x = 0), the normalised sphere amplitude;
// an even function, so either square root of x² may be passed.
Complex sphere_amplitude(Complex x);
// The same for real x (q real: particles in a non-absorbing layer, Born):
// real sin and cos, the same series below |x| = 1.
double sphere_amplitude(double x);

// Gauss–Legendre rule on [−1, 1] (core/quadrature.hpp).
using nanoscatter::GaussRule;
// The n-point rule, n ∈ {8, 16, 24, 32, 48, 64, 96, 128}; other n → the next
// larger one (n ≤ 128). Built once, shared between threads.
const GaussRule& gauss_legendre(int n);

// exp(i z)
inline Complex exp_i(Complex z) { return std::exp(Complex(-z.imag(), z.real())); }

}  // namespace nanoscatter::gisaxs
