#include "nanoscatter/gisaxs_formfactors.hpp"

namespace nanoscatter::gisaxs {

Complex FormFactor::evaluate(const CVec3& q) const {
  Complex out;
  evaluate(std::span<const CVec3>(&q, 1), std::span<Complex>(&out, 1));
  return out;
}

}  // namespace nanoscatter::gisaxs
