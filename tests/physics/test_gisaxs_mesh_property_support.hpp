// Random meshes, random q and an independent high-precision form factor for
// the mesh property tests (CPU: tests/physics/test_gisaxs_mesh_property.cpp;
// CUDA: tests/gpu/test_gisaxs_mesh_property_gpu.cpp).
//
// The independent reference shares nothing with the code under test (no
// divergence theorem, no face or edge sums, no series tiers): the solid is
// the signed sum of the tetrahedra (0, a, b, c) over its outward triangles
// (a closed oriented surface; valid for non-convex and non-star-shaped
// solids), and the integral over a tetrahedron is, by Hermite–Genocchi,
//   ∫ exp(i q·r) d³r = det(a, b, c) · e[0, i q·a, i q·b, i q·c],
// the third divided difference of exp. That divided difference is the (0, 3)
// entry of exp(M) for the bidiagonal matrix M with diagonal (0, iq·a, iq·b,
// iq·c) and ones above it (Opitz), which scaling and squaring with a Taylor
// polynomial evaluates without dividing by differences of the phases
// (coincident phases — q normal to a face or along an edge — are no special
// case), in binary128 (__float128, ~34 digits). Complex q works the same way.
// Cost: ~50 µs per triangle and q, so tests use it on a few hundred q.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "nanoscatter/gisaxs_formfactors.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"
#include "physics/test_gisaxs_mesh_support.hpp"

#include "property_seed.hpp"

namespace nanoscatter::gisaxs::mesh_property {

using nanoscatter::test::random_rotation;

// ---- binary128 complex arithmetic -------------------------------------------

using Quad = __float128;
struct QComplex {
  Quad re = 0, im = 0;
};
inline QComplex operator+(QComplex a, QComplex b) { return {a.re + b.re, a.im + b.im}; }
inline QComplex operator*(QComplex a, QComplex b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
inline QComplex operator*(Quad s, QComplex a) { return {s * a.re, s * a.im}; }

// e[0, y1, y2, y3] for complex y (binary128), by exp of the 4 × 4 bidiagonal
// matrix (see the top of the file).
inline QComplex divided_difference_exp(const std::array<QComplex, 4>& y) {
  // Scale so that every |y|/2^s ≤ 1/8: the Taylor polynomial of degree 24
  // then leaves < (1/8 + 2^-s)^25/25! ≈ 1e-48.
  double ymax = 0;
  for (const auto& v : y) ymax = std::max(ymax, std::hypot(double(v.re), double(v.im)));
  int s = 3;
  while (std::ldexp(ymax, -s) > 0.125) ++s;
  const Quad scale = Quad(std::ldexp(1.0, -s));
  // A = M / 2^s: diagonal d_i = y_i / 2^s, superdiagonal u = 2^-s.
  QComplex d[4];
  for (int i = 0; i < 4; ++i) d[i] = scale * y[i];
  const Quad u = scale;
  // Upper-triangular 4 × 4 complex matrices, entries (i, j), i ≤ j.
  using Mat = std::array<std::array<QComplex, 4>, 4>;
  Mat e{};
  for (int i = 0; i < 4; ++i) e[i][i].re = 1;
  // Horner: E = I + A/n (I + A/(n−1) (…)), A bidiagonal, so A·E is cheap.
  for (int n = 24; n >= 1; --n) {
    Mat next{};
    const Quad inv = Quad(1) / Quad(n);
    for (int i = 0; i < 4; ++i)
      for (int j = i; j < 4; ++j) {
        QComplex ae = d[i] * e[i][j];
        if (i + 1 <= j) ae = ae + u * e[i + 1][j];
        next[i][j] = inv * ae;
        if (i == j) next[i][j].re += 1;
      }
    e = next;
  }
  for (int k = 0; k < s; ++k) {
    Mat sq{};
    for (int i = 0; i < 4; ++i)
      for (int j = i; j < 4; ++j) {
        QComplex acc{};
        for (int m = i; m <= j; ++m) acc = acc + e[i][m] * e[m][j];
        sq[i][j] = acc;
      }
    e = sq;
  }
  return e[0][3];
}

// F(q) of a closed, outward-oriented mesh as the signed sum of tetrahedra
// from the origin, in binary128.
inline Complex tetrahedra_form_factor(const TriangleMesh& m, const CVec3& q) {
  // i q·v for every vertex (products of doubles are exact in binary128).
  std::vector<QComplex> phase(m.vertices.size());
  for (std::size_t k = 0; k < m.vertices.size(); ++k) {
    const Vec3& v = m.vertices[k];
    const Quad re = Quad(q.x.real()) * v.x + Quad(q.y.real()) * v.y + Quad(q.z.real()) * v.z;
    const Quad im = Quad(q.x.imag()) * v.x + Quad(q.y.imag()) * v.y + Quad(q.z.imag()) * v.z;
    phase[k] = {-im, re};  // i (re + i im)
  }
  QComplex sum{};
  for (const auto& t : m.triangles) {
    const Vec3 &a = m.vertices[std::size_t(t[0])], &b = m.vertices[std::size_t(t[1])],
               &c = m.vertices[std::size_t(t[2])];
    // det(a, b, c) = a · (b × c), in binary128.
    const Quad det = Quad(a.x) * (Quad(b.y) * c.z - Quad(b.z) * c.y) +
                     Quad(a.y) * (Quad(b.z) * c.x - Quad(b.x) * c.z) +
                     Quad(a.z) * (Quad(b.x) * c.y - Quad(b.y) * c.x);
    sum = sum + det * divided_difference_exp({QComplex{}, phase[std::size_t(t[0])], phase[std::size_t(t[1])],
                                              phase[std::size_t(t[2])]});
  }
  return {double(sum.re), double(sum.im)};
}

// ---- random meshes ------------------------------------------------------------

inline double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
inline double log_uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::exp(uniform(rng, std::log(lo), std::log(hi)));
}
inline int uniform_int(std::mt19937_64& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

// A torus (genus 1: neither convex nor star-shaped) of major radius R and
// minor radius r about the z axis, n × m quads split in two, every vertex
// moved by up to `jitter` of the minor radius along its normal.
inline TriangleMesh torus_mesh(double R, double r, int n, int m, double jitter, std::mt19937_64& rng) {
  TriangleMesh t;
  t.source = "torus";
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      const double u = 2 * std::numbers::pi * i / n, v = 2 * std::numbers::pi * j / m;
      const double rr = r * (1 + jitter * uniform(rng, -1, 1));
      t.vertices.push_back({(R + rr * std::cos(v)) * std::cos(u), (R + rr * std::cos(v)) * std::sin(u),
                            rr * std::sin(v)});
    }
  auto at = [&](int i, int j) { return ((i + n) % n) * m + (j + m) % m; };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      // Outward: (∂/∂u × ∂/∂v) points away from the tube's axis.
      t.triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      t.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  return t;
}

// A star-shaped, generally non-convex body: an icosphere whose vertices are
// moved radially by a factor in [1 − bump, 1 + bump].
inline TriangleMesh bumpy_sphere_mesh(double radius, int levels, double bump, std::mt19937_64& rng) {
  TriangleMesh s = sphere_mesh(radius, levels);
  const Vec3 centre{0, 0, radius};
  for (Vec3& v : s.vertices) v = centre + (1 + bump * uniform(rng, -1, 1)) * (v - centre);
  s.source = "bumpy sphere";
  return s;
}

struct DrawnMesh {
  TriangleMesh mesh;
  std::string what;
  // Where the mesh has a closed form independent of the mesh code (the box:
  // a product of sincs): F_mesh(q) = exp(i q·t) F_box(Rᵀ q).
  std::unique_ptr<FormFactor> analytic;
  Mat3 rotation = Mat3::identity();
  Vec3 shift;
};

// One mesh: box, pyramid frustum, convex hull of random points, bumpy
// (non-convex) icosphere or jittered torus, of size ~1–30 nm, rotated at
// random and shifted by up to `max_shift` nm. `max_triangles` caps the
// refinement (the binary128 reference costs ∝ triangles).
inline DrawnMesh draw_mesh(std::mt19937_64& rng, std::size_t max_triangles = 400, double max_shift = 20) {
  DrawnMesh d;
  std::ostringstream what;
  const double size = log_uniform(rng, 1, 30);
  TriangleMesh m;
  const int kind = uniform_int(rng, 0, 4);
  if (kind == 0) {
    const double a = size * uniform(rng, 0.2, 1), b = size * uniform(rng, 0.2, 1), c = size * uniform(rng, 0.2, 1);
    m = box_mesh(a, b, c);
    d.analytic = make_box(a, b, c);
    what << "box " << a << " × " << b << " × " << c;
  } else if (kind == 1) {
    const double alpha = uniform(rng, 0.3, 1.45), L = size;
    const double H = L / 2 * std::tan(alpha) * uniform(rng, 0.2, 0.95);
    m = mesh_test::hull_mesh(mesh_test::pyramid_points(L, H, alpha), "pyramid");
    what << "pyramid L = " << L << " H = " << H << " α = " << alpha;
  } else if (kind == 2) {
    const int n = uniform_int(rng, 5, 24);
    std::vector<Vec3> p;
    for (int i = 0; i < n; ++i)
      p.push_back({size * uniform(rng, -0.5, 0.5), size * uniform(rng, -0.5, 0.5), size * uniform(rng, -0.5, 0.5)});
    m = mesh_test::hull_mesh(p, "random hull");
    what << "convex hull of " << n << " random points";
  } else if (kind == 3) {
    const int levels = max_triangles >= 1280 ? uniform_int(rng, 1, 3) : max_triangles >= 320 ? uniform_int(rng, 1, 2) : 1;
    const double bump = uniform(rng, 0.05, 0.45);
    m = bumpy_sphere_mesh(size / 2, levels, bump, rng);
    what << "bumpy icosphere R = " << size / 2 << " ±" << bump << ", " << m.triangles.size() << " triangles";
  } else {
    const int n = uniform_int(rng, 6, 14), k = uniform_int(rng, 4, 10);
    const double R = size / 2, r = R * uniform(rng, 0.15, 0.6);
    m = torus_mesh(R, r, n, k, uniform(rng, 0, 0.3), rng);
    what << "torus R = " << R << " r = " << r << ", " << m.triangles.size() << " triangles";
  }
  // Anisotropic stretch (not for the box and pyramid, whose closed forms are
  // compared), rotation and shift.
  if (kind >= 2 && uniform(rng, 0, 1) < 0.5) {
    const Vec3 s{log_uniform(rng, 0.5, 2), log_uniform(rng, 0.5, 2), log_uniform(rng, 0.5, 2)};
    for (Vec3& v : m.vertices) v = {v.x * s.x, v.y * s.y, v.z * s.z};
    what << ", stretched (" << s.x << ", " << s.y << ", " << s.z << ")";
  }
  d.rotation = random_rotation(rng);
  d.shift = Vec3{uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)} * (max_shift * uniform(rng, 0, 1));
  for (Vec3& v : m.vertices) v = d.rotation * v + d.shift;
  what << ", rotated, shifted by (" << d.shift.x << ", " << d.shift.y << ", " << d.shift.z << ") nm; "
       << m.triangles.size() << " triangles";
  d.mesh = std::move(m);
  d.what = what.str();
  return d;
}

// F of the drawn mesh from its closed form (only when d.analytic).
inline Complex analytic_form_factor(const DrawnMesh& d, const CVec3& q) {
  const CVec3 body = transpose(d.rotation) * q;
  return d.analytic->evaluate(body) * std::exp(Complex(0, 1) * dot(q, d.shift));
}

// ---- random q -------------------------------------------------------------------

// |q| log-uniform over [q_lo, q_hi] nm⁻¹; directions: uniformly random, or
// one of the mesh's special directions (a face normal, an edge, in a face ⟂
// an edge), exactly or tilted by 1e-9–1e-2 rad (near the kernels' switches
// between series and closed forms).
inline std::vector<Vec3> draw_q(std::mt19937_64& rng, const TriangleMesh& m, std::size_t n, double q_lo = 1e-10,
                                double q_hi = 1e2) {
  std::normal_distribution<double> g(0, 1);
  std::vector<Vec3> q;
  q.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    Vec3 dir{g(rng), g(rng), g(rng)};
    const int kind = uniform_int(rng, 0, 5);
    if (kind >= 2) {
      const auto& t = m.triangles[std::size_t(uniform_int(rng, 0, int(m.triangles.size()) - 1))];
      const Vec3 &a = m.vertices[std::size_t(t[0])], &b = m.vertices[std::size_t(t[1])],
                 &c = m.vertices[std::size_t(t[2])];
      const Vec3 normal = cross(b - a, c - a), edge = b - a;
      const Vec3 special = kind == 2 ? normal : kind == 3 ? edge : kind == 4 ? cross(normal, edge) : (c - a);
      Vec3 tilt{g(rng), g(rng), g(rng)};
      tilt = tilt / norm(tilt);
      const double angle = uniform(rng, 0, 1) < 0.4 ? 0.0 : log_uniform(rng, 1e-9, 1e-2);
      dir = special / norm(special) + angle * tilt;
    }
    dir = dir / norm(dir);
    q.push_back(log_uniform(rng, q_lo, q_hi) * dir);
  }
  return q;
}

// |a − b| / max(|b|, floor · V)
inline double rel_error(Complex a, Complex b, double volume, double floor) {
  return std::abs(a - b) / std::max(std::abs(b), floor * volume);
}

// ---- the GPU property test's draws -------------------------------------------

// One case of tests/gpu/test_gisaxs_mesh_property_gpu.cpp, drawn from `rng`
// (here so that the CPU tests can replay the GPU test's seeds on the host):
// with probability 0.3 a fine stretched icosphere of 2,000–20,000 triangles,
// rotated and shifted by up to 20 nm, else draw_mesh(rng, 1280, 20); then
// 1e4–1e5 q from draw_q. Of the q with |q| R < 1e-3 (R from the bounding-box
// centre, as in mesh_tiles.cpp) only every 32nd is kept: they take the
// float64 reference on the host in every plan (mesh_plan.cpp), the same
// code for CPU and GPU, and with |q| log-uniform down to 1e-10 they were
// half of the draws and most of the GPU test's 235 s on an H100 host. The
// subsampling comes after the draws, so a seed printed before it still
// replays the same mesh and the same q of the fast routes.
struct GpuCase {
  DrawnMesh drawn;
  std::vector<Vec3> q;
  std::size_t q_drawn = 0;
};

inline GpuCase draw_gpu_case(std::mt19937_64& rng) {
  GpuCase c;
  DrawnMesh& d = c.drawn;
  if (uniform(rng, 0, 1) < 0.3) {
    // A fine mesh: many tiles, tile splits, several hyperblocks.
    const std::size_t triangles = 2 * std::size_t(log_uniform(rng, 1000, 10000));
    const double radius = log_uniform(rng, 2, 30), stretch = log_uniform(rng, 0.5, 2);
    d.mesh = sphere_mesh_with_triangles(radius, triangles, stretch);
    const Mat3 r = random_rotation(rng);
    const Vec3 shift{uniform(rng, -20, 20), uniform(rng, -20, 20), uniform(rng, -20, 20)};
    for (Vec3& v : d.mesh.vertices) v = r * v + shift;
    d.what = "icosphere R = " + std::to_string(radius) + " stretch " + std::to_string(stretch) + ", " +
             std::to_string(d.mesh.triangles.size()) + " triangles, rotated and shifted";
  } else {
    d = draw_mesh(rng, 1280, 20);
  }
  c.q_drawn = std::size_t(log_uniform(rng, 1e4, 1e5));
  c.q = draw_q(rng, d.mesh, c.q_drawn);
  Vec3 lo = d.mesh.vertices[0], hi = lo;
  for (const Vec3& p : d.mesh.vertices)
    for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], p[a]), hi[a] = std::max(hi[a], p[a]);
  double radius = 0;
  for (const Vec3& p : d.mesh.vertices) radius = std::max(radius, norm(p - (lo + hi) / 2.0));
  std::size_t kept = 0, tiny = 0;
  for (const Vec3& p : c.q)
    if (norm(p) * radius >= 1e-3 || tiny++ % 32 == 0) c.q[kept++] = p;
  c.q.resize(kept);
  return c;
}

}  // namespace nanoscatter::gisaxs::mesh_property
