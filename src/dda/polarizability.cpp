#include <cmath>

#include "dda/physics.hpp"
#include "nanoscatter/constants.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter {

DdaPolarizability parse_dda_polarizability(const std::string& name) {
  if (name == "ldr") return DdaPolarizability::ldr;
  if (name == "cm") return DdaPolarizability::cm;
  if (name == "rr" || name == "rrc") return DdaPolarizability::rr;
  fail_option("pol", "unknown polarizability '", name, "' (expected ldr, cm or rr)");
}

const char* to_string(DdaPolarizability p) {
  switch (p) {
    case DdaPolarizability::ldr: return "ldr";
    case DdaPolarizability::cm: return "cm";
    case DdaPolarizability::rr: return "rr";
  }
  return "?";
}

namespace dda {

namespace {
// LDR coefficients (ADDA const.h LDR_B1..B3)
constexpr double kLdrB1 = 1.8915316;
constexpr double kLdrB2 = -0.1648469;
constexpr double kLdrB3 = 1.7700004;
}  // namespace

cplx polarizability(DdaPolarizability p, cplx m, double k, double d, double S) {
  const double vol = d * d * d;
  const cplx m2 = m * m;
  const cplx cm = (3.0 / (4.0 * kPi)) * vol * (m2 - 1.0) / (m2 + 2.0);
  const double kd = k * d;
  const cplx rr(0, 2.0 * kd * kd * kd / 3.0);  // radiative reaction i(2/3)(kd)³
  cplx M = 0;
  switch (p) {
    case DdaPolarizability::cm: return cm;
    case DdaPolarizability::rr: M = rr; break;
    case DdaPolarizability::ldr: M = (kLdrB1 + (kLdrB2 + kLdrB3 * S) * m2) * kd * kd + rr; break;
  }
  return cm / (1.0 - (cm / vol) * M);
}

}  // namespace dda
}  // namespace nanoscatter
