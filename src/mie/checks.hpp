// What the Mie series asks of its inputs, checked in one place for the
// options (MieOptions::validate) and the functions of mie.hpp.
#pragma once
#include <complex>

#include "nanoscatter/error.hpp"

namespace nanoscatter::mie {

// A finite size parameter x > 0; errors name `where`.
void check_size_parameter(double x, const Where& where);
// Finite, non-zero and Im(m) ≥ 0 (absorption in the exp(−iωt) convention);
// errors name `where`.
void check_refractive_index(std::complex<double> m, const Where& where);

}  // namespace nanoscatter::mie
