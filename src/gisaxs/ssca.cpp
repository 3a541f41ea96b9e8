#include "gisaxs/ssca.hpp"

#include <cmath>

#include "gisaxs/interference/interference.hpp"
#include "gisaxs/special_functions.hpp"

namespace nanoscatter::gisaxs {

Complex SscaCoupling::phase(double q_parallel, double radial_extension) const {
  return exp_i(paracrystal.size_spacing_coupling * q_parallel * (radial_extension - mean_radius));
}

double SscaCoupling::interference(double q_parallel, Complex a, Complex b, Complex p) const {
  const Complex omega = radial_paracrystal_ftpdf(paracrystal, q_parallel);
  const double debye_waller = std::exp(-q_parallel * q_parallel * position_variance);
  return debye_waller * 2.0 * (a * b * omega / (1.0 - p * omega)).real();
}

}  // namespace nanoscatter::gisaxs
