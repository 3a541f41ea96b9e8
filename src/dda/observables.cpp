#include "dda/observables.hpp"
#include "core/quadrature.hpp"
#include "nanoscatter/constants.hpp"

#include <cmath>

namespace nanoscatter::dda {

Vec3d dipole_coordinate(const DipoleSet& s, std::size_t i) {
  const auto& r = (*s.position)[i];
  Vec3d c;
  for (int a = 0; a < 3; ++a) c[a] = (r[a] - 0.5 * (s.box[a] - 1)) * s.d;
  return c;
}

std::vector<CVec3> far_field(const DipoleSet& s, double k, const std::vector<Vec3d>& dirs) {
  const auto& pos = *s.position;
  const auto& p = *s.p;
  const std::size_t n = pos.size();
  std::vector<CVec3> out(dirs.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t di = 0; di < dirs.size(); ++di) {
    const Vec3d& nv = dirs[di];
    // exp(−ik r·n) = ex[i]·ey[j]·ez[k] with centred coordinates (separable)
    std::array<std::vector<cplx>, 3> e;
    for (int a = 0; a < 3; ++a) {
      e[a].resize(s.box[a]);
      for (int i = 0; i < s.box[a]; ++i)
        e[a][i] = std::polar(1.0, -k * nv[a] * (i - 0.5 * (s.box[a] - 1)) * s.d);
    }
    cplx sum[3] = {0, 0, 0};
    int last_y = -1, last_z = -1;
    cplx eyz = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const auto& r = pos[j];
      if (r[1] != last_y || r[2] != last_z) {
        last_y = r[1];
        last_z = r[2];
        eyz = e[1][r[1]] * e[2][r[2]];
      }
      const cplx a = eyz * e[0][r[0]];
      sum[0] += p[3 * j] * a;
      sum[1] += p[3 * j + 1] * a;
      sum[2] += p[3 * j + 2] * a;
    }
    const cplx dot = sum[0] * nv[0] + sum[1] * nv[1] + sum[2] * nv[2];
    const cplx scale(0, -k * k * k);
    for (int a = 0; a < 3; ++a) out[di][a] = scale * (sum[a] - dot * nv[a]);
  }
  return out;
}

double extinction_cross_section(const CVec3& f, const Vec3d& e, double k) {
  const cplx proj = f[0] * e[0] + f[1] * e[1] + f[2] * e[2];
  return 4 * kPi / (k * k) * proj.real();
}

double absorption_cross_section(const std::vector<cplx>& p, const std::vector<std::uint8_t>& material,
                                const std::vector<cplx>& alpha, double k) {
  const double rr = 2 * k * k * k / 3;
  std::vector<double> mult(alpha.size());
  for (std::size_t i = 0; i < alpha.size(); ++i) mult[i] = -(1.0 / alpha[i]).imag() - rr;
  double sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (std::size_t j = 0; j < material.size(); ++j)
    sum += mult[material[j]] * (std::norm(p[3 * j]) + std::norm(p[3 * j + 1]) + std::norm(p[3 * j + 2]));
  return 4 * kPi * k * sum;
}

void gauss_legendre(int n, std::vector<double>& x, std::vector<double>& w) {
  GaussRule rule = gauss_legendre_rule(n);
  x = std::move(rule.nodes);
  w = std::move(rule.weights);
}

Integrated integrate_far_field(const std::function<std::vector<CVec3>(const std::vector<Vec3d>&)>& amplitude,
                               double k, double r_max) {
  // |F|² contains spherical harmonics up to degree ≈ 2 k r_max; Gauss–Legendre
  // with n nodes is exact to degree 2n − 1 in cos θ, the trapezoid rule with
  // m nodes to Fourier order m − 1 in φ; 16 spare nodes cover the decaying tail.
  const int nt = static_cast<int>(std::ceil(k * r_max)) + 16;
  const int np = 2 * nt;
  std::vector<double> mu, w;
  gauss_legendre(nt, mu, w);
  std::vector<Vec3d> dirs;
  std::vector<double> weight;
  dirs.reserve(static_cast<std::size_t>(nt) * np);
  for (int i = 0; i < nt; ++i) {
    const double st = std::sqrt(std::max(0.0, 1 - mu[i] * mu[i]));
    for (int j = 0; j < np; ++j) {
      const double ph = 2 * kPi * j / np;
      dirs.push_back({st * std::cos(ph), st * std::sin(ph), mu[i]});
      weight.push_back(w[i] * 2 * kPi / np);
    }
  }
  const auto f = amplitude(dirs);
  Integrated out;
  double sum = 0;
  Vec3d g{0, 0, 0};
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    const double i2 = std::norm(f[i][0]) + std::norm(f[i][1]) + std::norm(f[i][2]);
    sum += weight[i] * i2;
    for (int a = 0; a < 3; ++a) g[a] += weight[i] * i2 * dirs[i][a];
  }
  out.csca = sum / (k * k);
  for (int a = 0; a < 3; ++a) out.g[a] = sum > 0 ? g[a] / sum : 0;
  return out;
}

std::array<double, 16> mueller_from_amplitudes(cplx s1, cplx s2, cplx s3, cplx s4) {
  const double a1 = std::norm(s1), a2 = std::norm(s2), a3 = std::norm(s3), a4 = std::norm(s4);
  auto re = [](cplx v) { return v.real(); };
  auto im = [](cplx v) { return v.imag(); };
  using std::conj;
  return {0.5 * (a1 + a2 + a3 + a4),
          0.5 * (a2 - a1 + a4 - a3),
          re(s2 * conj(s3) + s1 * conj(s4)),
          im(s2 * conj(s3) - s1 * conj(s4)),
          0.5 * (a2 - a1 + a3 - a4),
          0.5 * (a2 + a1 - a3 - a4),
          re(s2 * conj(s3) - s1 * conj(s4)),
          im(s2 * conj(s3) + s1 * conj(s4)),
          re(s2 * conj(s4) + s1 * conj(s3)),
          re(s2 * conj(s4) - s1 * conj(s3)),
          re(s1 * conj(s2) + s3 * conj(s4)),
          im(s2 * conj(s1) + s4 * conj(s3)),
          im(s4 * conj(s2) + s1 * conj(s3)),
          im(s4 * conj(s2) - s1 * conj(s3)),
          im(s1 * conj(s2) - s3 * conj(s4)),
          re(s1 * conj(s2) - s3 * conj(s4))};
}

}  // namespace nanoscatter::dda
