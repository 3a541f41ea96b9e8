// Scattering factors of atoms and ions for X-rays, neutrons and electrons.
// One strategy type (ScatteringFactors) serves every engine: it is built once
// for a radiation and a list of species and evaluated per |Q|.
//
// Units: Q = 4π sin θ / λ in Å⁻¹. X-ray f in electrons, neutron b_c in fm,
// electron f in Å (Mott–Bethe).
#pragma once
#include <complex>
#include <optional>
#include <string>
#include <vector>

namespace nanoscatter {

enum class Radiation { xray, neutron, electron };
Radiation parse_radiation(const std::string& name);  // "xray", "neutron", "electron"
const char* to_string(Radiation r);

// A scattering species: what distinguishes atoms for the factorised sums.
struct Species {
  std::string element;
  int charge = 0;
  double b_iso = 0;  // Debye–Waller B, Å²
  bool operator==(const Species&) const = default;
};

struct FactorOptions {
  // X-ray photon energy in keV for anomalous f', f'' (xraylib). Unset: f0 only.
  std::optional<double> energy_kev;
  // Apply exp(-B Q²/(16π²)) per species.
  bool debye_waller = true;
};

// f(Q) of one species (complex: f0 + f' + i f'' for anomalous X-rays).
std::complex<double> scattering_factor(Radiation radiation, const Species& species, double q,
                                       const FactorOptions& options = {});

// X-ray f0(Q) from the Waasmaier–Kirfel (1995) fit, neutral atom or ion.
double xray_f0(const std::string& element, int charge, double q);
// True when a Waasmaier–Kirfel entry exists for this element/charge.
bool has_xray_f0(const std::string& element, int charge);
// Anomalous corrections f', f'' (electrons) at energy (keV), through xraylib.
std::complex<double> xray_anomalous(const std::string& element, double energy_kev);
// Neutron coherent scattering length b_c (fm), natural isotopic mixture;
// complex where the element absorbs (imaginary part, fm).
std::complex<double> neutron_b_coherent(const std::string& element);
// Electron scattering factor (Å) from the Mott–Bethe formula applied to the
// X-ray f0, with the Q → 0 limit taken from the atom's mean square radius.
double electron_f(const std::string& element, int charge, double q);
// Debye–Waller attenuation exp(-B s²), s = Q/(4π).
double debye_waller(double b_iso, double q);

// Refractive index n = 1 − δ + iβ of a compound for X-rays (xraylib).
struct RefractiveIndex { double delta = 0, beta = 0; };
RefractiveIndex xray_refractive_index(const std::string& formula, double density_g_cm3,
                                      double energy_kev);

}  // namespace nanoscatter
