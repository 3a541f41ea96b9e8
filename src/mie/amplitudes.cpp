// Amplitude functions S1, S2 (B&H eq. 4.74) with the angular functions π_n,
// τ_n by their upward recurrences (B&H eq. 4.47), and the sphere's Mueller
// elements (B&H eq. 4.77), one angle or a table of them.
#include <cmath>

#include "nanoscatter/constants.hpp"
#include "nanoscatter/mie.hpp"

namespace nanoscatter {

MieAmplitude mie_amplitude(const MieResult& r, double theta) {
  const double mu = std::cos(theta);
  double pi_prev = 0, pi = 1;  // π_0, π_1
  MieAmplitude s{0, 0};
  for (std::size_t i = 0; i < r.a.size(); ++i) {
    const double n = static_cast<double>(i + 1);
    const double tau = n * mu * pi - (n + 1) * pi_prev;
    const double w = (2 * n + 1) / (n * (n + 1));
    s.s1 += w * (r.a[i] * pi + r.b[i] * tau);
    s.s2 += w * (r.a[i] * tau + r.b[i] * pi);
    const double pi_next = ((2 * n + 1) * mu * pi - (n + 1) * pi_prev) / n;
    pi_prev = pi;
    pi = pi_next;
  }
  return s;
}

MieMueller mie_mueller(const MieResult& r, double theta) {
  const MieAmplitude s = mie_amplitude(r, theta);
  MieMueller m;
  m.s11 = 0.5 * (std::norm(s.s2) + std::norm(s.s1));
  m.s12 = 0.5 * (std::norm(s.s2) - std::norm(s.s1));
  m.s33 = (s.s1 * std::conj(s.s2)).real();
  m.s34 = (s.s2 * std::conj(s.s1)).imag();
  return m;
}

MieMuellerTable mie_mueller_table(const MieResult& r, const std::vector<double>& theta_degrees) {
  MieMuellerTable t;
  t.theta = theta_degrees;
  for (const double th : theta_degrees) {
    const MieMueller mm = mie_mueller(r, th * kPi / 180);
    t.s11.push_back(mm.s11);
    t.s12.push_back(mm.s12);
    t.s33.push_back(mm.s33);
    t.s34.push_back(mm.s34);
  }
  return t;
}

}  // namespace nanoscatter
