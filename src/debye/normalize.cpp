// Normalisations of Debye patterns (debye_normalize.hpp).
#include <cmath>
#include <complex>

#include "debye/species.hpp"
#include "nanoscatter/debye_normalize.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter {

DebyeNormalization parse_debye_normalization(const std::string& name) {
  if (name == "none") return DebyeNormalization::none;
  if (name == "per-atom") return DebyeNormalization::per_atom;
  if (name == "sq") return DebyeNormalization::sq;
  if (name == "fq") return DebyeNormalization::fq;
  fail_option("normalize", "unknown normalisation '", name,
          "' (expected none, per-atom, sq or fq)");
}

const char* to_string(DebyeNormalization n) {
  switch (n) {
    case DebyeNormalization::none: return "none";
    case DebyeNormalization::per_atom: return "per-atom";
    case DebyeNormalization::sq: return "sq";
    case DebyeNormalization::fq: return "fq";
  }
  return "?";
}

void normalize_debye_result(DebyeResult& result, const Structure& structure,
                            const DebyeOptions& options, DebyeNormalization normalization) {
  if (normalization == DebyeNormalization::none) return;
  const auto s = debye::group_by_species(structure);
  const double n_atoms = s.total_weight();
  const std::size_t nq = result.q.size(), ns = s.species.size();
  if (result.intensity.size() != nq) fail("normalize_debye_result: intensity and Q differ in length");

  FactorOptions bare = options.factors;
  bare.debye_waller = false;  // self terms are undamped (api.cpp)
  std::vector<double> weight(ns);
  for (std::size_t m = 0; m < ns; ++m) weight[m] = s.total_weight(m) / n_atoms;  // concentration c_m
  // Self term per atom and |⟨f⟩|² per Q; for sq/fq also each species' self term.
  std::vector<double> f2_mean(nq, 0.0), f_mean_sq(nq, 0.0);
  std::vector<std::vector<double>> self(ns, std::vector<double>(nq, 0.0));
  for (std::size_t k = 0; k < nq; ++k) {
    std::complex<double> f_mean = 0;
    for (std::size_t m = 0; m < ns; ++m) {
      const auto f = scattering_factor(options.radiation, s.species[m], result.q[k], bare);
      self[m][k] = weight[m] * std::norm(f);
      f2_mean[k] += self[m][k];
      f_mean += weight[m] * f;
    }
    f_mean_sq[k] = std::norm(f_mean);
  }

  auto scale = [&](double value, std::size_t k) {
    if (normalization == DebyeNormalization::fq) return result.q[k] * value;
    return value;
  };
  for (std::size_t k = 0; k < nq; ++k) {
    const double per_atom = result.intensity[k] / n_atoms;
    if (normalization == DebyeNormalization::per_atom) {
      result.intensity[k] = per_atom;
      continue;
    }
    if (f_mean_sq[k] == 0)
      fail_option("normalize", "⟨f⟩ = 0 at Q = ", result.q[k],
              " Å⁻¹ (scattering lengths cancel): S(Q) is undefined");
    const double s_minus_1 = (per_atom - f2_mean[k]) / f_mean_sq[k];
    result.intensity[k] = normalization == DebyeNormalization::sq ? 1 + s_minus_1
                                                                  : scale(s_minus_1, k);
  }
  // Partials come in the plan's order: (m, n), m ≤ n, row by row.
  std::size_t p = 0;
  for (std::size_t m = 0; m < ns && !result.partials.empty(); ++m)
    for (std::size_t n = m; n < ns; ++n, ++p) {
      auto& col = result.partials.at(p);
      for (std::size_t k = 0; k < nq; ++k) {
        const double per_atom = col[k] / n_atoms;
        if (normalization == DebyeNormalization::per_atom) {
          col[k] = per_atom;
          continue;
        }
        const double pair_part = (per_atom - (m == n ? self[m][k] : 0.0)) / f_mean_sq[k];
        col[k] = scale(pair_part, k);
      }
    }
}

}  // namespace nanoscatter
