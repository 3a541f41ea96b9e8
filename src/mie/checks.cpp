#include "mie/checks.hpp"

#include <cmath>

namespace nanoscatter::mie {

void check_size_parameter(double x, const Where& where) {
  if (!(x > 0) || !std::isfinite(x)) fail_at(where, "size parameter must be a finite value > 0, got ", x);
}

void check_refractive_index(std::complex<double> m, const Where& where) {
  if (!std::isfinite(m.real()) || !std::isfinite(m.imag()) || m == 0.0)
    fail_at(where, "refractive index must be finite and non-zero, got ", m.real(), " ", m.imag());
  if (m.imag() < 0) fail_at(where, "Im(m) must be ≥ 0 (absorption, exp(−iωt) convention), got ", m.imag());
}

}  // namespace nanoscatter::mie
