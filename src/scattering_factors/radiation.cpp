// Radiation names, the Debye–Waller factor and the per-species dispatch that
// every engine calls.
#include <cmath>

#include "nanoscatter/error.hpp"
#include "nanoscatter/scattering_factors.hpp"
#include "scattering_factors/species.hpp"

namespace nanoscatter {

Radiation parse_radiation(const std::string& name) {
  if (name == "xray") return Radiation::xray;
  if (name == "neutron") return Radiation::neutron;
  if (name == "electron") return Radiation::electron;
  fail_option("radiation", "unknown radiation '", name,
          "' (expected xray, neutron or electron)");
}

const char* to_string(Radiation r) {
  switch (r) {
    case Radiation::xray: return "xray";
    case Radiation::neutron: return "neutron";
    case Radiation::electron: return "electron";
  }
  fail("invalid Radiation value ", static_cast<int>(r));
}

const char* display_name(Radiation r) { return r == Radiation::xray ? "X-ray" : to_string(r); }

double debye_waller(double b_iso, double q) {
  const double s = detail::s_from_q(q);
  return std::exp(-b_iso * s * s);
}

std::complex<double> scattering_factor(Radiation radiation, const Species& species, double q,
                                       const FactorOptions& options) {
  std::complex<double> f;
  switch (radiation) {
    case Radiation::xray:
      f = xray_f0(species.element, species.charge, q);
      if (options.energy_kev) f += xray_anomalous(species.element, *options.energy_kev);
      break;
    case Radiation::neutron:
      // Nuclear scattering: point-like, so b does not depend on Q, and the
      // electronic charge of an ion does not enter.
      detail::s_from_q(q);  // same Q validation as the other radiations
      f = neutron_b_coherent(species.element);
      break;
    case Radiation::electron:
      f = electron_f(species.element, species.charge, q);
      break;
  }
  if (options.debye_waller && species.b_iso != 0) f *= debye_waller(species.b_iso, q);
  return f;
}

}  // namespace nanoscatter
