// Concentric coated sphere (Bohren & Huffman §8.1, eq. 8.2), rewritten with
// logarithmic derivatives and ratios so that no Riccati–Bessel function of a
// complex argument is formed on its own (those overflow for large orders).
//
// With z1 = m1 x, z2 = m2 x, z3 = m2 y (x core, y shell), B&H's A_n, B_n enter
// a_n, b_n only through T_n = A_n χ_n(z3)/ψ_n(z3) and S_n = B_n χ_n(z3)/ψ_n(z3):
//   T_n = ρ_n [m2 D(z1) − m1 Dψ(z2)] / [m2 D(z1) − m1 Dχ(z2)]
//   S_n = ρ_n [m2 Dψ(z2) − m1 D(z1)] / [m2 Dχ(z2) − m1 D(z1)]
//   ρ_n = ψ_n(z2) χ_n(z3) / (χ_n(z2) ψ_n(z3)),
// and then a_n, b_n are the homogeneous-sphere formulas with D_n(m2 y)
// replaced by U = (Dψ(z3) − T Dχ(z3)) / (1 − T) (resp. S for b_n).
// ρ_n follows from ψ_{n−1}/ψ_n = D_n + n/z (same for χ):
//   ρ_n = ρ_{n−1} · (Dψ_n(z3) + n/z3)/(Dψ_n(z2) + n/z2) · (Dχ_n(z2) + n/z2)/(Dχ_n(z3) + n/z3),
//   ρ_0 = tan(z2)/tan(z3).
#include <cmath>

#include "mie/checks.hpp"
#include "mie/mie_series.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter {

MieResult mie_coated_sphere(double x_core, double x_shell, std::complex<double> m_core,
                            std::complex<double> m_shell) {
  mie::check_size_parameter(x_shell, {"", 0, "x_shell"});
  if (!(x_core >= 0) || x_core > x_shell)
    fail_at({"", 0, "x_core"}, "core size parameter must lie in [0, x_shell], got ", x_core);
  mie::check_refractive_index(m_core, {"", 0, "m_core"});
  mie::check_refractive_index(m_shell, {"", 0, "m_shell"});
  if (x_core == 0) return mie_sphere(x_shell, m_shell);
  if (x_core == x_shell) return mie_sphere(x_shell, m_core);

  using mie::cplx;
  const int nstop = mie::series_terms(x_shell);
  const cplx z1 = m_core * x_core, z2 = m_shell * x_core, z3 = m_shell * x_shell;
  const auto d1 = mie::log_derivative_psi(z1, nstop);
  const auto dpsi2 = mie::log_derivative_psi(z2, nstop);
  const auto dpsi3 = mie::log_derivative_psi(z3, nstop);
  const auto dchi2 = mie::log_derivative_chi(z2, nstop);
  const auto dchi3 = mie::log_derivative_chi(z3, nstop);

  std::vector<cplx> u_a(nstop), u_b(nstop);
  cplx rho = std::tan(z2) / std::tan(z3);
  for (int n = 1; n <= nstop; ++n) {
    const double dn = n;
    rho *= (dpsi3[n] + dn / z3) / (dpsi2[n] + dn / z2) * (dchi2[n] + dn / z2) /
           (dchi3[n] + dn / z3);
    const cplx t = rho * (m_shell * d1[n] - m_core * dpsi2[n]) / (m_shell * d1[n] - m_core * dchi2[n]);
    const cplx s = rho * (m_shell * dpsi2[n] - m_core * d1[n]) / (m_shell * dchi2[n] - m_core * d1[n]);
    u_a[n - 1] = (dpsi3[n] - t * dchi3[n]) / (1.0 - t);
    u_b[n - 1] = (dpsi3[n] - s * dchi3[n]) / (1.0 - s);
  }
  return mie::external_coefficients(x_shell, m_shell, u_a, u_b);
}

}  // namespace nanoscatter
