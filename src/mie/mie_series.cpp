#include "mie/mie_series.hpp"

#include <algorithm>
#include <cmath>

namespace nanoscatter::mie {

int series_terms(double x) { return static_cast<int>(std::ceil(x + 4.0 * std::cbrt(x) + 2.0)); }

std::vector<cplx> log_derivative_psi(cplx z, int n_max) {
  // Starting 15 orders above max(n_max, |z|) makes the start value D = 0
  // irrelevant to double precision (Bohren & Huffman, BHMIE).
  const int start = std::max(n_max, static_cast<int>(std::ceil(std::abs(z)))) + 15;
  std::vector<cplx> d(n_max + 1);
  cplx dn = 0;
  for (int n = start; n > 0; --n) {
    const cplx nz = static_cast<double>(n) / z;
    dn = nz - 1.0 / (dn + nz);  // this is D_{n−1}
    if (n - 1 <= n_max) d[n - 1] = dn;
  }
  return d;
}

std::vector<cplx> log_derivative_chi(cplx z, int n_max) {
  std::vector<cplx> d(n_max + 1);
  d[0] = -std::tan(z);  // χ_0 = cos z, χ'_0 = −sin z
  for (int n = 1; n <= n_max; ++n) {
    const cplx nz = static_cast<double>(n) / z;
    d[n] = 1.0 / (nz - d[n - 1]) - nz;
  }
  return d;
}

MieResult external_coefficients(double x, cplx m, const std::vector<cplx>& u_a,
                                const std::vector<cplx>& u_b) {
  const int nstop = static_cast<int>(u_a.size());
  MieResult r;
  r.x = x;
  r.a.resize(nstop);
  r.b.resize(nstop);
  // Riccati–Bessel functions of the real argument x by upward recurrence
  // (BHMIE): ψ_{−1} = cos x, ψ_0 = sin x, χ_{−1} = −sin x, χ_0 = cos x.
  double psi0 = std::cos(x), psi1 = std::sin(x);
  double chi0 = -std::sin(x), chi1 = std::cos(x);
  cplx xi1(psi1, -chi1);
  for (int n = 1; n <= nstop; ++n) {
    const double f = (2.0 * n - 1.0) / x;
    const double psi = f * psi1 - psi0;
    const double chi = f * chi1 - chi0;
    const cplx xi(psi, -chi);
    const double nx = n / x;
    const cplx da = u_a[n - 1] / m + nx;
    const cplx db = m * u_b[n - 1] + nx;
    r.a[n - 1] = (da * psi - psi1) / (da * xi - xi1);
    r.b[n - 1] = (db * psi - psi1) / (db * xi - xi1);
    psi0 = psi1;
    psi1 = psi;
    chi0 = chi1;
    chi1 = chi;
    xi1 = xi;
  }
  double ext = 0, sca = 0, asym = 0;
  cplx back = 0;
  for (int n = 1; n <= nstop; ++n) {
    const cplx an = r.a[n - 1], bn = r.b[n - 1];
    const double w = 2.0 * n + 1.0;
    ext += w * (an + bn).real();
    sca += w * (std::norm(an) + std::norm(bn));
    asym += w / (n * (n + 1.0)) * (an * std::conj(bn)).real();
    if (n < nstop) {
      const cplx an1 = r.a[n], bn1 = r.b[n];
      asym += n * (n + 2.0) / (n + 1.0) * (an * std::conj(an1) + bn * std::conj(bn1)).real();
    }
    back += w * (n % 2 ? -1.0 : 1.0) * (an - bn);
  }
  r.qext = 2.0 / (x * x) * ext;
  r.qsca = 2.0 / (x * x) * sca;
  r.qabs = r.qext - r.qsca;
  r.g = r.qsca > 0 ? 4.0 / (x * x) * asym / r.qsca : 0.0;
  r.qback = std::norm(back) / (x * x);
  return r;
}

}  // namespace nanoscatter::mie
