// The generated data tables (tools/gen_scattering_tables.py writes the .cpp
// files from python3-periodictable; see their header comments for provenance).
#pragma once
#include <span>

namespace nanoscatter::detail {

// One Waasmaier–Kirfel (1995) fit: f0(s) = Σ_{i=1..5} a_i exp(−b_i s²) + c,
// s = sin θ / λ in Å⁻¹, b_i in Å².
struct WaasmaierKirfelEntry {
  const char* element;  // capitalised symbol
  int charge;           // formal charge, 0 for the neutral atom
  double a[5];
  double b[5];
  double c;
};

// Bound coherent neutron scattering length of an element in natural isotopic
// abundance (or the isotope D or T): b = b_c + i b_c_im, fm, b_c_im ≤ 0.
struct NeutronEntry {
  const char* element;
  double b_c;
  double b_c_im;
  bool energy_dependent;  // resonant absorber: the stored value is the thermal one
};

std::span<const WaasmaierKirfelEntry> waasmaier_kirfel_table();
std::span<const NeutronEntry> neutron_table();

}  // namespace nanoscatter::detail
