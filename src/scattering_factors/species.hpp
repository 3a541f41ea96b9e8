// Helpers shared by the scattering-factor sources: element-symbol
// normalisation and the Q → s conversion with its range checks.
#pragma once
#include <string>

namespace nanoscatter::detail {

// The capitalised symbol of an element ("au" → "Au"), "D"/"T" for the hydrogen
// isotopes; an unknown symbol is returned unchanged so that errors can name it.
std::string canonical_symbol(const std::string& element);
// The element whose electron cloud an X-ray or electron factor uses: "H" for
// "D" and "T", otherwise canonical_symbol(element).
std::string electronic_symbol(const std::string& element);
// Atomic number for xraylib (D, T → 1); throws Error for unknown symbols.
int electronic_atomic_number(const std::string& element);

// s = sin θ / λ = Q/(4π) in Å⁻¹. Throws Error for negative or non-finite Q.
double s_from_q(double q);

// The Waasmaier–Kirfel fits reproduce the International Tables f0 for
// 0 ≤ sin θ/λ ≤ 6 Å⁻¹ (Waasmaier & Kirfel 1995; DABAX header of f0_WaasKirf.dat).
inline constexpr double kWaasmaierKirfelMaxS = 6.0;
// s_from_q(q), and an Error naming the species when s lies beyond that range.
double fit_s(const std::string& element, int charge, double q);

}  // namespace nanoscatter::detail
