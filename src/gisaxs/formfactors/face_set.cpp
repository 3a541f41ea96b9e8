// The closed-surface transform shared by polyhedra and triangle meshes; the
// formulas and their error budget are described at the top of polyhedron.cpp.
#include "gisaxs/formfactors/face_set.hpp"

#include <algorithm>
#include <cmath>

#include "gisaxs/special_functions.hpp"

namespace nanoscatter::gisaxs::detail {

namespace {

// Below this |q| R the series is summed (see the top of polyhedron.cpp).
constexpr double kVolumeSeriesLimit = 0.2;

CVec3 conj(const CVec3& a) { return {std::conj(a.x), std::conj(a.y), std::conj(a.z)}; }

Complex series(const FaceSet& set, const CVec3& q, double x) {
  constexpr int kMax = 64;
  const int n_max = std::min(series_order(x), kMax);
  Complex s[kMax + 1] = {};
  Complex m[kMax + 1], a[kMax + 1];
  for (const auto& f : set.faces) {
    const double d = dot(f.normal, f.centroid);
    if (d == 0) continue;  // the face plane passes through the origin
    const Complex q_perp = dot(q, f.normal);
    const CVec3 q_par = q - q_perp * CVec3(f.normal);
    polygon_moments(f, q_par, d * f.normal, n_max, m);
    a[0] = 1;
    for (int j = 1; j <= n_max; ++j) a[j] = a[j - 1] * q_perp * d / double(j);
    for (int order = 0; order <= n_max; ++order) {
      Complex p = 0;
      for (int k = 0; k <= order; ++k) p += a[order - k] * m[k];
      s[order] += d * p / double(order + 3);
    }
  }
  Complex sum = 0, i_n = 1;
  for (int order = 0; order <= n_max; ++order) {
    sum += i_n * s[order];
    i_n *= Complex(0, 1);
  }
  return sum;
}

// exp(i q·r), with one sincos when q is real.
Complex phase_of(const CVec3& q, const Vec3& r) {
  if (q.x.imag() == 0 && q.y.imag() == 0 && q.z.imag() == 0)
    return std::polar(1.0, q.x.real() * r.x + q.y.real() * r.y + q.z.real() * r.z);
  return exp_i(dot(q, r));
}

}  // namespace

Complex face_set_transform(const FaceSet& set, const CVec3& q) {
  const Complex phase = phase_of(q, set.centre);
  const double q_size = magnitude(q);
  const double x = q_size * set.radius;
  if (x < kVolumeSeriesLimit) return phase * series(set, q, x);
  const CVec3 w = conj(q);
  Complex sum = 0;
  for (const auto& f : set.faces) {
    const Complex w_n = dot(w, f.normal);
    if (w_n == 0.0) continue;  // q lies in the face plane: no flux through it
    sum += w_n * phase_of(q, f.centroid) * polygon_transform(f, q);
  }
  return phase * Complex(0, -1) * sum / (q_size * q_size);
}

double face_set_volume(const FaceSet& set) {
  double v = 0;
  for (const auto& f : set.faces) v += dot(f.normal, f.centroid) * f.area / 3.0;
  return v;
}

}  // namespace nanoscatter::gisaxs::detail
