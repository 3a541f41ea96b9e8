#include <cmath>

#include "gisaxs/multilayer.hpp"

namespace nanoscatter::gisaxs {

Complex fresnel_r(Complex kz_a, Complex kz_b) { return (kz_a - kz_b) / (kz_a + kz_b); }

InterfaceTransfer interface_transfer(Complex kz_a, Complex kz_b, double sigma) {
  Complex diff = kz_a - kz_b, sum = kz_a + kz_b;
  if (sigma > 0) {
    const double s2 = sigma * sigma;
    return {sum * std::exp(-diff * diff * s2 / 2.0), diff * std::exp(-sum * sum * s2 / 2.0)};
  }
  return {sum, diff};
}

}  // namespace nanoscatter::gisaxs
