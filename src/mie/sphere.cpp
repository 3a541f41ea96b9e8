// Homogeneous sphere (Bohren & Huffman ch. 4, algorithm of BHMIE).
#include "mie/checks.hpp"
#include "mie/mie_series.hpp"

namespace nanoscatter {

MieResult mie_sphere(double x, std::complex<double> m) {
  mie::check_size_parameter(x, {"", 0, "x"});
  mie::check_refractive_index(m, {"", 0, "m"});
  const int nstop = mie::series_terms(x);
  const auto d = mie::log_derivative_psi(m * x, nstop);
  std::vector<mie::cplx> u(d.begin() + 1, d.end());
  return mie::external_coefficients(x, m, u, u);
}

}  // namespace nanoscatter
