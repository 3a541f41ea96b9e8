// Element-symbol normalisation and species labels for the scattering factors.
#include "scattering_factors/species.hpp"

#include <cmath>
#include <cstdlib>
#include <numbers>

#include "nanoscatter/error.hpp"
#include "nanoscatter/scattering_factors.hpp"
#include "nanoscatter/structure.hpp"

namespace nanoscatter {
namespace detail {

std::string canonical_symbol(const std::string& element) {
  if (const auto z = find_atomic_number(element)) return element_symbol(*z);
  // Deuterium and tritium are not elements of the periodic table but are
  // distinct species for neutrons (the neutron table carries them).
  if (element == "D" || element == "d") return "D";
  if (element == "T" || element == "t") return "T";
  return element;
}

std::string electronic_symbol(const std::string& element) {
  const std::string symbol = canonical_symbol(element);
  return (symbol == "D" || symbol == "T") ? std::string("H") : symbol;
}

int electronic_atomic_number(const std::string& element) {
  return atomic_number(electronic_symbol(element));
}

double s_from_q(double q) {
  if (!std::isfinite(q) || q < 0) fail("Q must be finite and ≥ 0, got ", q, " Å⁻¹");
  return q / (4 * std::numbers::pi);
}

double fit_s(const std::string& element, int charge, double q) {
  const double s = s_from_q(q);
  if (s > kWaasmaierKirfelMaxS)
    fail("species '", species_label(element, charge), "': Q = ", q,
         " Å⁻¹ lies beyond the Waasmaier–Kirfel fit range s = Q/(4π) ≤ ", kWaasmaierKirfelMaxS, " Å⁻¹");
  return s;
}

}  // namespace detail

std::string species_label(const std::string& element, int charge) {
  const std::string symbol = detail::canonical_symbol(element);
  if (charge == 0) return symbol;
  return symbol + std::to_string(std::abs(charge)) + (charge > 0 ? "+" : "-");
}

}  // namespace nanoscatter
