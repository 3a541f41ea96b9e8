// Helpers shared by the gisaxs tests: the mpmath reference values of
// tests/data/gisaxs/special_values.txt (tools/gisaxs_reference.py
// special-values) and brute-force quadratures of exp(i q·r) over shapes,
// independent of the engine's closed forms and series.
#pragma once
#include <cmath>
#include <complex>
#include <fstream>
#include <functional>
#include <map>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "gisaxs/special_functions.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs_formfactors.hpp"

namespace nanoscatter::gisaxs::test {

// One line of special_values.txt: a tag, then numbers.
struct ReferenceLine {
  std::string tag;
  std::vector<double> values;
};
inline std::vector<ReferenceLine> read_reference(const std::string& tag_prefix) {
  std::ifstream in(std::string(NS_TEST_DATA_DIR) + "/gisaxs/special_values.txt");
  std::vector<ReferenceLine> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream is(line);
    ReferenceLine r;
    is >> r.tag;
    if (r.tag.rfind(tag_prefix, 0) != 0) continue;
    std::string token;
    while (is >> token) r.values.push_back(std::stod(token));
    lines.push_back(r);
  }
  return lines;
}

inline double rel_error(Complex a, Complex b) { return std::abs(a - b) / std::abs(b); }

// ∫ exp(i q·r) over a solid of revolution about z, r ≤ r_max(z) for z in
// [z0, z1], by Gauss–Legendre in z, in ρ = r/r_max and in θ (periodic: the
// trapezoidal rule). No Bessel function and no closed form involved.
inline Complex revolution_quadrature(const CVec3& q, double z0, double z1, const std::function<double(double)>& r_max,
                                     int nz = 96, int nr = 64, int ntheta = 96) {
  const GaussRule& gz = gauss_legendre(nz);
  const GaussRule& gr = gauss_legendre(nr);
  Complex total = 0;
  for (std::size_t a = 0; a < gz.nodes.size(); ++a) {
    const double z = 0.5 * (z0 + z1) + 0.5 * (z1 - z0) * gz.nodes[a];
    const double rm = r_max(z);
    Complex slice = 0;
    for (std::size_t b = 0; b < gr.nodes.size(); ++b) {
      const double r = 0.5 * rm * (1 + gr.nodes[b]);
      Complex ring = 0;
      for (int t = 0; t < ntheta; ++t) {
        const double th = 2 * std::numbers::pi * t / ntheta;
        ring += std::exp(Complex(0, 1) * (q.x * r * std::cos(th) + q.y * r * std::sin(th)));
      }
      slice += gr.weights[b] * 0.5 * rm * r * ring * (2 * std::numbers::pi / ntheta);
    }
    total += gz.weights[a] * 0.5 * (z1 - z0) * slice * std::exp(Complex(0, 1) * q.z * z);
  }
  return total;
}

// ∫ exp(i q·r) over the tetrahedron v0 v1 v2 v3 by the collapsed-coordinate
// (Duffy) map of the unit cube onto it and an n³ Gauss–Legendre rule.
inline Complex tetrahedron_quadrature(const CVec3& q, const Vec3& v0, const Vec3& v1, const Vec3& v2,
                                      const Vec3& v3, int n = 48) {
  const GaussRule& g = gauss_legendre(n);
  const Vec3 a = v1 - v0, b = v2 - v0, c = v3 - v0;
  const double jac = std::abs(dot(a, cross(b, c)));
  Complex total = 0;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const double u = 0.5 * (1 + g.nodes[i]);
    for (std::size_t j = 0; j < g.nodes.size(); ++j) {
      const double v = 0.5 * (1 + g.nodes[j]);
      for (std::size_t k = 0; k < g.nodes.size(); ++k) {
        const double w = 0.5 * (1 + g.nodes[k]);
        // (s, t, r) = (u, u v, u v w) fills the simplex s ≥ t ≥ r ≥ 0 with Jacobian u² v.
        const double s = u, t = u * v, r = u * v * w;
        const Vec3 p = v0 + (s - t) * a + (t - r) * b + r * c;
        total += g.weights[i] * g.weights[j] * g.weights[k] * u * u * v *
                 std::exp(Complex(0, 1) * dot(q, p));
      }
    }
  }
  return total * jac / 8.0;
}

}  // namespace nanoscatter::gisaxs::test
