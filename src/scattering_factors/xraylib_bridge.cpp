// The parts that come from xraylib (Schoonjans et al., Spectrochim. Acta B 66
// (2011) 776): anomalous scattering factors and refractive indices. xraylib 4
// reports problems through an xrl_error** last argument; we turn them into Error.
#include <xraylib.h>

#include <cmath>
#include <string>

#include "nanoscatter/error.hpp"
#include "nanoscatter/scattering_factors.hpp"
#include "scattering_factors/species.hpp"

namespace nanoscatter {
namespace {

// Call an xraylib function taking xrl_error** last; throw Error (prefixed by
// `context`) with xraylib's message when it reports one.
template <class Call>
double checked(const std::string& context, Call&& call) {
  xrl_error* error = nullptr;
  const double value = call(&error);
  if (error) {
    const std::string message = error->message ? error->message : "unspecified error";
    xrl_error_free(error);
    fail(context, ": xraylib: ", message);
  }
  return value;
}

void require_positive_energy(const std::string& context, double energy_kev) {
  if (!std::isfinite(energy_kev) || energy_kev <= 0)
    fail(context, ": photon energy must be finite and > 0 keV, got ", energy_kev);
}

}  // namespace

std::complex<double> xray_anomalous(const std::string& element, double energy_kev) {
  const std::string context = "element '" + element + "' at " + std::to_string(energy_kev) + " keV";
  require_positive_energy(context, energy_kev);
  const int z = detail::electronic_atomic_number(element);
  const double f_prime = checked(context, [&](xrl_error** e) { return Fi(z, energy_kev, e); });
  // xraylib tabulates Fii = −f'' (Kissel's sign); f'' > 0 is absorption in
  // the convention f = f0 + f' + i f'' used here.
  const double fii = checked(context, [&](xrl_error** e) { return Fii(z, energy_kev, e); });
  return {f_prime, -fii};
}

RefractiveIndex xray_refractive_index(const std::string& formula, double density_g_cm3,
                                      double energy_kev) {
  const std::string context = "formula '" + formula + "'";
  require_positive_energy(context, energy_kev);
  if (!std::isfinite(density_g_cm3) || density_g_cm3 <= 0)
    fail(context, ": density must be finite and > 0 g/cm³, got ", density_g_cm3);
  const char* f = formula.c_str();
  const double re =
      checked(context, [&](xrl_error** e) { return Refractive_Index_Re(f, energy_kev, density_g_cm3, e); });
  const double im =
      checked(context, [&](xrl_error** e) { return Refractive_Index_Im(f, energy_kev, density_g_cm3, e); });
  // n = 1 − δ + iβ
  return {1.0 - re, im};
}

}  // namespace nanoscatter
