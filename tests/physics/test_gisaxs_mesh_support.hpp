// Meshes of BornAgain's test solids for the mesh form-factor tests (CPU and
// GPU): convex hulls triangulated by fans, and the q sets the acceptance
// criteria name (|q| from 1e-6 to 10 nm⁻¹, along faces and edges).
#pragma once
#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "nanoscatter/gisaxs_formfactors.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"

namespace nanoscatter::gisaxs::mesh_test {

// The convex hull of `points` as an outward triangle mesh (faces found as
// planes with every point on one side, corners sorted about the face centre,
// fanned). Small inputs only (O(n⁴)).
inline TriangleMesh hull_mesh(const std::vector<Vec3>& p, const char* name) {
  double diameter = 0;
  for (const Vec3& a : p)
    for (const Vec3& b : p) diameter = std::max(diameter, norm(a - b));
  const double tol = 1e-9 * diameter;
  std::vector<std::vector<int>> faces;
  std::vector<std::pair<Vec3, double>> planes;
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = j + 1; k < n; ++k) {
        Vec3 normal = cross(p[j] - p[i], p[k] - p[i]);
        if (norm(normal) <= tol * diameter) continue;
        normal = normal / norm(normal);
        double offset = dot(normal, p[i]);
        bool below = true, above = true;
        for (const Vec3& v : p) {
          below = below && dot(normal, v) - offset <= tol;
          above = above && dot(normal, v) - offset >= -tol;
        }
        if (!below && !above) continue;
        if (!below) normal = -normal, offset = -offset;
        bool known = false;
        for (const auto& [nn, off] : planes) known = known || (norm(nn - normal) < 1e-9 && std::abs(off - offset) <= tol);
        if (known) continue;
        planes.push_back({normal, offset});
        std::vector<int> on;
        Vec3 centre;
        for (std::size_t m = 0; m < n; ++m)
          if (std::abs(dot(normal, p[m]) - offset) <= tol) on.push_back(int(m)), centre += p[m];
        centre = centre / double(on.size());
        const Vec3 e1 = (p[on[0]] - centre) / norm(p[on[0]] - centre), e2 = cross(normal, e1);
        std::sort(on.begin(), on.end(), [&](int a, int b) {
          return std::atan2(dot(p[a] - centre, e2), dot(p[a] - centre, e1)) <
                 std::atan2(dot(p[b] - centre, e2), dot(p[b] - centre, e1));
        });
        faces.push_back(on);
      }
  return mesh_from_faces(p, faces, name);
}

// BornAgain's Pyramid(L, H, α) corners (base edges along x and y).
inline std::vector<Vec3> pyramid_points(double L, double H, double alpha) {
  const double top = L / 2 - H / std::tan(alpha);
  std::vector<Vec3> p;
  for (int sx : {-1, 1})
    for (int sy : {-1, 1}) {
      p.push_back({sx * L / 2, sy * L / 2, 0});
      p.push_back({sx * top, sy * top, H});
    }
  return p;
}

// BornAgain's Icosahedron(L) corners (resting on a face), as the analytic
// shape builds them; what the tests compare is the mesh form factor against
// the polyhedron's, not the corners.
inline std::vector<Vec3> icosahedron_points(double edge) { return icosahedron_corners(edge); }

// q vectors with |q| log-spaced over [1e-6, 10] nm⁻¹ along each direction
// (unit vectors); the directions include face normals and edge directions.
inline std::vector<Vec3> q_along(const std::vector<Vec3>& directions, int per_decade = 4) {
  std::vector<Vec3> q;
  for (const Vec3& d : directions)
    for (int k = 0; k <= 7 * per_decade; ++k) q.push_back(std::pow(10.0, -6.0 + double(k) / per_decade) * d);
  return q;
}

// Unit vectors of a mesh's face normals and edge directions (every k-th),
// plus generic directions.
inline std::vector<Vec3> special_directions(const TriangleMesh& m, std::size_t every = 1) {
  std::vector<Vec3> d{Vec3{0.36, 0.48, 0.8}, Vec3{-0.6, 0.64, 0.48}};
  for (std::size_t t = 0; t < m.triangles.size(); t += every) {
    const auto& tri = m.triangles[t];
    const Vec3 &a = m.vertices[tri[0]], &b = m.vertices[tri[1]], &c = m.vertices[tri[2]];
    const Vec3 n = cross(b - a, c - a);
    d.push_back(n / norm(n));
    d.push_back((b - a) / norm(b - a));
    // In the face plane, perpendicular to an edge (q ⟂ normal and ⟂ edge).
    const Vec3 in_plane = cross(n, b - a);
    d.push_back(in_plane / norm(in_plane));
  }
  return d;
}

}  // namespace nanoscatter::gisaxs::mesh_test
