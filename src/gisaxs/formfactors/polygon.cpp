#include "gisaxs/formfactors/polygon.hpp"

#include <algorithm>
#include <cmath>

#include "gisaxs/special_functions.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::gisaxs::detail {

namespace {

// Bilinear cross product of a real and a complex vector.
CVec3 cross(const Vec3& a, const CVec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
CVec3 conj(const CVec3& a) { return {std::conj(a.x), std::conj(a.y), std::conj(a.z)}; }

}  // namespace

int series_order(double x) {
  // Smallest n ≥ 2 with x^n/n! < 1e-18; x is below ~1 where series are used.
  double term = 1;
  int n = 0;
  while (n < 2 || term >= 1e-18) {
    ++n;
    term *= x / n;
    if (n > 60) break;
  }
  return n;
}

PlanarPolygon make_planar_polygon(const std::vector<Vec3>& input, const char* what) {
  if (input.size() < 3) fail_at({"", 0, what}, "a face needs at least 3 vertices, got ", input.size());
  double diameter = 0;
  for (const Vec3& a : input)
    for (const Vec3& b : input) diameter = std::max(diameter, norm(a - b));
  if (!(diameter > 0)) fail_at({"", 0, what}, "a face has all its vertices at one point");
  const double tol = 1e-12 * diameter;

  // Merge coincident consecutive vertices.
  std::vector<Vec3> v;
  for (const Vec3& p : input)
    if (v.empty() || norm(p - v.back()) > tol) v.push_back(p);
  while (v.size() > 1 && norm(v.front() - v.back()) <= tol) v.pop_back();

  // Newell's normal: robust for any planar polygon, |n| = 2 × area.
  Vec3 n;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vec3& a = v[i];
    const Vec3& b = v[(i + 1) % v.size()];
    n += cross(a, b);
  }
  const double twice_area = norm(n);
  if (v.size() < 3 || !(twice_area > tol * diameter))
    fail_at({"", 0, what}, "a face has zero area (collinear vertices)");
  n = n / twice_area;

  // Drop vertices between collinear edges (they would not change the shape).
  for (bool changed = true; changed && v.size() > 3;) {
    changed = false;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const Vec3& prev = v[(i + v.size() - 1) % v.size()];
      const Vec3& next = v[(i + 1) % v.size()];
      if (norm(cross(v[i] - prev, next - v[i])) <= tol * diameter &&
          dot(v[i] - prev, next - v[i]) > 0) {
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
        changed = true;
        break;
      }
    }
  }

  PlanarPolygon p;
  p.normal = n;
  p.area = twice_area / 2;
  for (const Vec3& a : v) p.centroid += a;
  p.centroid = p.centroid / double(v.size());
  const double plane = dot(n, v[0]);
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vec3& a = v[i];
    const Vec3& b = v[(i + 1) % v.size()];
    const Vec3& c = v[(i + 2) % v.size()];
    if (std::abs(dot(n, a) - plane) > 1e-10 * diameter)
      fail_at({"", 0, what}, "a face is not planar (vertex off the plane by ",
              std::abs(dot(n, a) - plane), " nm)");
    if (dot(cross(b - a, c - b), n) < -tol * diameter)
      fail_at({"", 0, what}, "a face is not convex, or its vertices are not in order");
    p.edges.push_back({(b - a) / 2.0, (a + b) / 2.0});
    p.radius = std::max(p.radius, norm(a - p.centroid));
  }
  return p;
}

void polygon_moments(const PlanarPolygon& p, const CVec3& q, const Vec3& origin, int n_max,
                     Complex* m) {
  for (int k = 0; k <= n_max; ++k) m[k] = 0;
  // Per edge: a_j = v^j/j!, b_l = u^{2l}/(2l+1)!, C_k = Σ_l b_l a_{k−2l}.
  constexpr int kMax = 64;
  Complex a[kMax + 1], b[kMax / 2 + 1];
  n_max = std::min(n_max, kMax);
  for (const auto& e : p.edges) {
    const double length = 2 * norm(e.half);
    // Outward in-plane normal of the edge: Ê × n̂ for counter-clockwise order.
    const Vec3 outward = cross(e.half, p.normal) / norm(e.half);
    const double h = dot(outward, e.midpoint - origin);
    const Complex u = dot(q, e.half);
    const Complex v = dot(q, e.midpoint - origin);
    a[0] = 1;
    for (int j = 1; j <= n_max; ++j) a[j] = a[j - 1] * v / double(j);
    b[0] = 1;
    for (int l = 1; 2 * l <= n_max; ++l) b[l] = b[l - 1] * u * u / double((2 * l) * (2 * l + 1));
    const double weight = length * h;  // 2|E_e| h_e
    for (int k = 0; k <= n_max; ++k) {
      Complex c = 0;
      for (int l = 0; 2 * l <= k; ++l) c += b[l] * a[k - 2 * l];
      m[k] += weight * c / double(k + 2);
    }
  }
}

namespace {

bool is_real(const CVec3& q) { return q.x.imag() == 0 && q.y.imag() == 0 && q.z.imag() == 0; }

// The direct edge sum for real q (q in a non-absorbing layer, the common
// case): the same formula in real arithmetic, one sincos per edge.
Complex edge_sum_real(const PlanarPolygon& p, const Vec3& q_par) {
  const Vec3 pre = cross(p.normal, q_par);
  double re = 0, im = 0, pre_sum = 0;
  const std::size_t n_edges = p.edges.size();
  for (std::size_t i = 0; i < n_edges; ++i) {
    const auto& e = p.edges[i];
    double vfac;
    if (i + 1 < n_edges) {
      vfac = dot(pre, e.half);
      pre_sum += vfac;
    } else {
      vfac = -pre_sum;
    }
    const double w = vfac * sinc(dot(q_par, e.half));
    const double phase = dot(q_par, e.midpoint - p.centroid);
    re += w * std::cos(phase);
    im += w * std::sin(phase);
  }
  // (−2i)(re + i im) / |q∥|²
  const double q2 = dot(q_par, q_par);
  return Complex(2 * im / q2, -2 * re / q2);
}

}  // namespace

Complex polygon_transform(const PlanarPolygon& p, const CVec3& q) {
  if (is_real(q)) {
    const Vec3 qr{q.x.real(), q.y.real(), q.z.real()};
    const Vec3 q_par = qr - dot(qr, p.normal) * p.normal;
    if (norm(q_par) * p.radius >= kPolygonSeriesLimit) return edge_sum_real(p, q_par);
  }
  const Complex q_perp = dot(q, p.normal);
  const CVec3 q_par = q - q_perp * CVec3(p.normal);
  const double q_par_size = magnitude(q_par);
  const double x = q_par_size * p.radius;
  if (x < kPolygonSeriesLimit) {
    constexpr int kMax = 64;
    Complex m[kMax + 1];
    const int n = std::min(series_order(x), kMax);
    polygon_moments(p, q_par, p.centroid, n, m);
    Complex sum = 0, i_k = 1;
    for (int k = 0; k <= n; ++k) {
      sum += i_k * m[k];
      i_k *= Complex(0, 1);
    }
    return sum;
  }
  // Direct edge sum. The prefactors (n̂ × w)·E_e add up to zero for a closed
  // polygon; the last one is set to minus the others so that they do so in
  // floating point too, which keeps the cancellation at its analytic size.
  const CVec3 pre = cross(p.normal, conj(q_par));
  Complex sum = 0, pre_sum = 0;
  const std::size_t n_edges = p.edges.size();
  for (std::size_t i = 0; i < n_edges; ++i) {
    const auto& e = p.edges[i];
    Complex vfac;
    if (i + 1 < n_edges) {
      vfac = dot(pre, e.half);
      pre_sum += vfac;
    } else {
      vfac = -pre_sum;
    }
    sum += vfac * sinc(dot(q_par, e.half)) * exp_i(dot(q_par, e.midpoint - p.centroid));
  }
  return Complex(0, -2) * sum / (q_par_size * q_par_size);
}

}  // namespace nanoscatter::gisaxs::detail
