// The DWBA for a particle in layer j (Vineyard; Sinha et al., Phys. Rev. B 38
// (1988) 2297; BornAgain's ComputeDWBA): the incident and the (time-reversed)
// outgoing wave each reach the particle directly (T) or after reflection
// below it (R), giving four terms
//   F_DWBA = T_i T_f F(q∥, −k_i − k_f) + R_i T_f F(q∥, k_i − k_f)
//          + T_i R_f F(q∥, −k_i + k_f) + R_i R_f F(q∥, k_i + k_f),
// with k_i = k_z,j(α_i), k_f = k_z,j(α_f) and (T, R) the layer's fields
// (multilayer.hpp). For a particle on a substrate (j = 0, vacuum) this is
// F(−a−b) + r_i F(a−b) + r_f F(−a+b) + r_i r_f F(a+b), a = k sin α_i, b = k sin α_f.
#pragma once
#include <array>

#include "gisaxs/multilayer.hpp"
#include "nanoscatter/gisaxs_formfactors.hpp"

namespace nanoscatter::gisaxs {

struct ScatteringTerms {
  int count = 0;
  std::array<CVec3, 4> q;
  std::array<Complex, 4> coefficient;
};

// The four DWBA terms for in-plane (q_x, q_y) (real, from k_i − k_f) and the
// layer fields of the incident (α_i) and outgoing (α_f) waves.
ScatteringTerms dwba_terms(double qx, double qy, const LayerField& incident, const LayerField& outgoing);
// Below the horizon (α_f < 0) the outgoing fields come with k_z of negative
// sign (Multilayer::fields), which continues the same four terms there, as
// BornAgain 1.19 does; for a particle on a substrate that is the issue's
// formula with b = k sin α_f < 0 and r_f = r(|α_f|).
// The single Born term: q = k_i − k_f in the ambient.
ScatteringTerms born_terms(double qx, double qy, double qz);

}  // namespace nanoscatter::gisaxs
