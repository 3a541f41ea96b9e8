// The photon energy of debye's anomalous factors, for the CLI and Python.
#include "nanoscatter/debye.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/pattern2d.hpp"

namespace nanoscatter {

std::optional<double> anomalous_energy_kev(bool anomalous, std::optional<double> energy_kev,
                                           std::optional<double> wavelength) {
  if (!anomalous || energy_kev) return energy_kev;
  // The beam's own energy, as pattern2d's anomalous takes hc/λ (docs/conventions.md).
  if (wavelength) return photon_energy_kev(*wavelength);
  fail_option("anomalous", "needs the photon energy: --energy (keV) or --wavelength (Å)");
}

}  // namespace nanoscatter
