// Neutron bound coherent scattering lengths (fm), from the generated table.
#include <string>
#include <unordered_map>

#include "nanoscatter/error.hpp"
#include "nanoscatter/scattering_factors.hpp"
#include "scattering_factors/species.hpp"
#include "scattering_factors/tables.hpp"

namespace nanoscatter {

std::complex<double> neutron_b_coherent(const std::string& element) {
  // Symbol → entry, built once from the constant table; read-only after.
  static const auto index = [] {
    std::unordered_map<std::string, const detail::NeutronEntry*> m;
    for (const auto& entry : detail::neutron_table()) m.emplace(entry.element, &entry);
    return m;
  }();
  const auto it = index.find(detail::canonical_symbol(element));
  if (it == index.end())
    fail("element '", element, "': no tabulated neutron coherent scattering length");
  return {it->second->b_c, it->second->b_c_im};
}

}  // namespace nanoscatter
