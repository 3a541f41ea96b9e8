// Normalisations of a Debye pattern I(Q) (the unnormalised double sum with
// self terms, docs/design.md). With N = Σ_i w_i (occupancy-weighted atom count),
// ⟨|f|²⟩ = Σ_i w_i |f_i|² / N and ⟨f⟩ = Σ_i w_i f_i / N, all without the
// Debye–Waller factor (the engine leaves self terms undamped):
//
//   none      I(Q)
//   per-atom  I(Q)/N
//   sq        S(Q) = 1 + [I(Q)/N − ⟨|f|²⟩] / |⟨f⟩|²        (Faber–Ziman total
//             structure factor: T. E. Faber, J. M. Ziman, Phil. Mag. 11, 153
//             (1965); D. A. Keen, J. Appl. Cryst. 34, 172 (2001))
//   fq        F(Q) = Q [S(Q) − 1]                          (reduced structure factor, Å⁻¹)
//
// Partial columns: per-atom divides them by N; sq and fq give each species
// pair's contribution to S(Q) − 1 or F(Q) (self terms removed from the
// m-m columns), so that they sum to S(Q) − 1 and F(Q).
#pragma once
#include <string>
#include <vector>

#include "nanoscatter/debye.hpp"

namespace nanoscatter {

enum class DebyeNormalization { none, per_atom, sq, fq };
DebyeNormalization parse_debye_normalization(const std::string& name);  // "none", "per-atom", "sq", "fq"
const char* to_string(DebyeNormalization n);

// Rewrites result.intensity and result.partials in place. `structure` and
// `options` must be those the plan was made with (the averages of f need
// the composition and the radiation).
void normalize_debye_result(DebyeResult& result, const Structure& structure,
                            const DebyeOptions& options, DebyeNormalization normalization);

}  // namespace nanoscatter
