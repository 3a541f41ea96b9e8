// Homogeneous sphere (Bohren & Huffman ch. 4, algorithm of BHMIE).
#include <cmath>

#include "mie/mie_series.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter {

namespace {
void check_index(std::complex<double> m, const char* field) {
  if (!std::isfinite(m.real()) || !std::isfinite(m.imag()) || m == 0.0)
    fail_at({"", 0, field}, "refractive index must be finite and non-zero, got ", m.real(), " ",
            m.imag());
  if (m.imag() < 0)
    fail_at({"", 0, field}, "Im(m) must be ≥ 0 (absorption, exp(−iωt) convention), got ",
            m.imag());
}
}  // namespace

MieResult mie_sphere(double x, std::complex<double> m) {
  if (!(x > 0) || !std::isfinite(x)) fail_at({"", 0, "x"}, "size parameter must be > 0, got ", x);
  check_index(m, "m");
  const int nstop = mie::series_terms(x);
  const auto d = mie::log_derivative_psi(m * x, nstop);
  std::vector<mie::cplx> u(d.begin() + 1, d.end());
  return mie::external_coefficients(x, m, u, u);
}

}  // namespace nanoscatter
