// Scattering factors of atoms and ions for X-rays, neutrons and electrons.
// One strategy type (ScatteringFactors) serves every engine: it is built once
// for a radiation and a list of species and evaluated per |Q|.
//
// Units: Q = 4π sin θ / λ in Å⁻¹. X-ray f in electrons, neutron b_c in fm,
// electron f in Å (Mott–Bethe).
#pragma once
#include <array>
#include <complex>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

namespace nanoscatter {

enum class Radiation { xray, neutron, electron };
Radiation parse_radiation(const std::string& name);  // "xray", "neutron", "electron"
const char* to_string(Radiation r);
const char* display_name(Radiation r);  // "X-ray", "neutron", "electron": for titles

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
// Element symbols are case-insensitive; D and T use hydrogen's entry (same
// electron cloud). Throws Error for a species without an entry, naming it
// ("species 'Xx2+': no Waasmaier–Kirfel entry"), and for Q < 0, non-finite Q
// or Q beyond the fit's range s = Q/(4π) ≤ 6 Å⁻¹.
double xray_f0(const std::string& element, int charge, double q);
// True when a Waasmaier–Kirfel entry exists for this element/charge.
bool has_xray_f0(const std::string& element, int charge);
// Anomalous corrections f', f'' (electrons) at energy (keV), through xraylib
// (Kissel's tables, neutral atoms; used for ions too). Returned as f' + i f''
// with f'' > 0, the convention f = f0 + f' + i f'' (xraylib's Fii is −f'').
std::complex<double> xray_anomalous(const std::string& element, double energy_kev);
// Neutron coherent scattering length b_c (fm), natural isotopic mixture ("D"
// and "T" give the isotopes); complex where the table gives an absorptive
// part: b = b' − i b'' (Sears' convention, imaginary part ≤ 0), thermal value.
std::complex<double> neutron_b_coherent(const std::string& element);
// Electron scattering factor (Å) from the Mott–Bethe formula applied to the
// X-ray f0, with the Q → 0 limit taken from the atom's mean square radius.
// Non-relativistic (multiply by γ = 1 + E/(m c²) for a beam of energy E).
// For an ion the charge term C·q_ion/s² diverges at Q = 0: Q = 0 is an Error
// for ions (the neutral atom's limit C·Σ a_i b_i is finite).
double electron_f(const std::string& element, int charge, double q);

// The Mott–Bethe prefactor C = m e²/(8π ε0 h²) = 1/(8π² a0) in Å⁻¹ (so that
// f_e = C (Z − f_x)/s² is a length): with a0 = 4π ε0 ħ²/(m e²) = ε0 h²/(π m e²)
// one has m e²/(ε0 h²) = 1/(π a0). a0 = 0.529177210903 Å (CODATA 2018) gives
// C = 0.0239337 Å⁻¹.
inline constexpr double kBohrRadiusAngstrom = 0.529177210903;
inline constexpr double kMottBethePrefactor =
    1.0 / (8.0 * std::numbers::pi * std::numbers::pi * kBohrRadiusAngstrom);

// The fit coefficients of one species, for engines that evaluate f0 themselves
// (e.g. on a GPU): f0(s) = Σ a_i exp(−b_i s²) + c. Throws as xray_f0 does.
struct WaasmaierKirfelCoefficients {
  std::array<double, 5> a{};
  std::array<double, 5> b{};  // Å²
  double c = 0;
};
WaasmaierKirfelCoefficients waasmaier_kirfel_coefficients(const std::string& element, int charge);
// A species as the tables name it: "Au", "Na1+", "Cl1-", "Fe3+".
std::string species_label(const std::string& element, int charge);
// Debye–Waller attenuation exp(-B s²), s = Q/(4π).
double debye_waller(double b_iso, double q);

// Refractive index n = 1 − δ + iβ of a compound for X-rays (xraylib).
struct RefractiveIndex { double delta = 0, beta = 0; };
RefractiveIndex xray_refractive_index(const std::string& formula, double density_g_cm3,
                                      double energy_kev);

}  // namespace nanoscatter
