// X-ray atomic form factors f0 from the Waasmaier–Kirfel (1995) fits,
// Acta Cryst. A51, 416: f0(s) = Σ_{i=1..5} a_i exp(−b_i s²) + c, s = Q/(4π).
#include <cmath>
#include <sstream>
#include <string>
#include <unordered_map>

#include "nanoscatter/error.hpp"
#include "nanoscatter/scattering_factors.hpp"
#include "scattering_factors/species.hpp"
#include "scattering_factors/tables.hpp"

namespace nanoscatter {
namespace {

using detail::WaasmaierKirfelEntry;

// Label ("Na1+") → entry. Built once from the constant table; read-only after.
const std::unordered_map<std::string, const WaasmaierKirfelEntry*>& index() {
  static const auto map = [] {
    std::unordered_map<std::string, const WaasmaierKirfelEntry*> m;
    for (const auto& entry : detail::waasmaier_kirfel_table())
      m.emplace(species_label(entry.element, entry.charge), &entry);
    return m;
  }();
  return map;
}

const WaasmaierKirfelEntry* find_entry(const std::string& element, int charge) {
  const auto it = index().find(species_label(detail::electronic_symbol(element), charge));
  return it == index().end() ? nullptr : it->second;
}

// The charges that have an entry for this element, for the error message.
std::string available_charges(const std::string& symbol) {
  std::ostringstream os;
  const char* sep = "";
  for (const auto& entry : detail::waasmaier_kirfel_table()) {
    if (symbol != entry.element) continue;
    os << sep << (entry.charge > 0 ? "+" : "") << entry.charge;
    sep = ", ";
  }
  return os.str();
}

const WaasmaierKirfelEntry& entry_or_fail(const std::string& element, int charge) {
  if (const auto* entry = find_entry(element, charge)) return *entry;
  const std::string symbol = detail::electronic_symbol(element);
  const std::string charges = available_charges(symbol);
  if (charges.empty())
    fail("species '", species_label(element, charge), "': no Waasmaier–Kirfel entry");
  fail("species '", species_label(element, charge), "': no Waasmaier–Kirfel entry (charges with one for ",
       symbol, ": ", charges, ")");
}

}  // namespace

bool has_xray_f0(const std::string& element, int charge) {
  return find_entry(element, charge) != nullptr;
}

WaasmaierKirfelCoefficients waasmaier_kirfel_coefficients(const std::string& element, int charge) {
  const auto& entry = entry_or_fail(element, charge);
  WaasmaierKirfelCoefficients out;
  for (int i = 0; i < 5; ++i) {
    out.a[i] = entry.a[i];
    out.b[i] = entry.b[i];
  }
  out.c = entry.c;
  return out;
}

double xray_f0(const std::string& element, int charge, double q) {
  const auto& entry = entry_or_fail(element, charge);
  const double s = detail::fit_s(element, charge, q);
  const double s2 = s * s;
  double f = entry.c;
  for (int i = 0; i < 5; ++i) f += entry.a[i] * std::exp(-entry.b[i] * s2);
  return f;
}

}  // namespace nanoscatter
