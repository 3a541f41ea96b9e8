// Checks that a triangle mesh bounds a solid (gisaxs_mesh.hpp). The
// divergence theorem turns the volume integral into a sum over the surface
// only when the surface is closed and every triangle's normal points out;
// a hole or a flipped triangle would change F(q) without any other sign.
#include <cmath>
#include <unordered_map>

#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"

namespace nanoscatter::gisaxs {

namespace {

Where at_triangle(const TriangleMesh& mesh, std::size_t t) {
  return {mesh.source, 0, "triangle " + std::to_string(t)};
}

std::uint64_t edge_key(int a, int b) { return (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b); }

}  // namespace

double mesh_volume(const TriangleMesh& mesh) {
  // V = (1/6) Σ a·(b × c) (divergence theorem with the field r/3).
  double v = 0;
  for (const auto& t : mesh.triangles)
    v += dot(mesh.vertices[t[0]], cross(mesh.vertices[t[1]], mesh.vertices[t[2]]));
  return v / 6;
}

void validate_mesh(const TriangleMesh& mesh) {
  const std::size_t nv = mesh.vertices.size();
  if (mesh.triangles.size() < 4)
    fail_at({mesh.source, 0, "triangles"}, "a closed surface needs at least 4 triangles, got ", mesh.triangles.size());
  // Size of the mesh, for relative tolerances.
  Vec3 lo = mesh.vertices.empty() ? Vec3{} : mesh.vertices[0], hi = lo;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    for (int i : mesh.triangles[t]) {
      if (i < 0 || std::size_t(i) >= nv)
        fail_at(at_triangle(mesh, t), "names vertex ", i, ", but there are ", nv, " vertices");
      const Vec3& v = mesh.vertices[i];
      if (!is_finite(v))
        fail_at(at_triangle(mesh, t), "has a corner with a coordinate that is not a finite number (", v.x, ", ",
                v.y, ", ", v.z, ")");
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], v[k]);
        hi[k] = std::max(hi[k], v[k]);
      }
    }
  }
  const double size = norm(hi - lo);
  // Zero area: |(b − a) × (c − a)| ≤ 1e-12 × (longest edge)², i.e. the
  // corners are collinear to ~1e-12 of the triangle's own size (or coincide).
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    const Vec3 &a = mesh.vertices[tri[0]], &b = mesh.vertices[tri[1]], &c = mesh.vertices[tri[2]];
    const double longest = std::max({norm(b - a), norm(c - b), norm(a - c)});
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] || longest <= 1e-14 * size ||
        norm(cross(b - a, c - a)) <= 1e-12 * longest * longest)
      fail_at(at_triangle(mesh, t), "has zero area (corners coincide or lie on one line)");
  }
  // Every directed edge once, and its reverse once: closed, manifold along
  // edges, consistently oriented.
  std::unordered_map<std::uint64_t, std::size_t> owner;  // directed edge → triangle
  owner.reserve(3 * mesh.triangles.size());
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    for (int k = 0; k < 3; ++k) {
      const int a = tri[k], b = tri[(k + 1) % 3];
      auto [it, inserted] = owner.try_emplace(edge_key(a, b), t);
      if (!inserted) {
        const std::size_t other = it->second;
        if (owner.count(edge_key(b, a)))
          fail_at(at_triangle(mesh, t), "shares the edge ", a, "–", b, " with two or more other triangles (",
                  other, " and more): the surface is not manifold");
        fail_at(at_triangle(mesh, t), "runs along the edge ", a, "→", b, " in the same direction as triangle ",
                other, ": one of them is flipped (triangles must run counter-clockwise seen from outside)");
      }
    }
  }
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    for (int k = 0; k < 3; ++k) {
      const int a = tri[k], b = tri[(k + 1) % 3];
      if (!owner.count(edge_key(b, a)))
        fail_at(at_triangle(mesh, t), "has the edge ", a, "–", b,
                " that no other triangle shares: the surface has a hole (it must be closed)");
    }
  }
  const double volume = mesh_volume(mesh);
  if (!(volume > 0))
    fail_at({mesh.source, 0, "triangles"}, "the enclosed volume comes out as ", volume,
            " nm³: the triangles run clockwise seen from outside (flip them) or the surface is degenerate");
}

TriangleMesh place_mesh(const TriangleMesh& mesh, const MeshPlacement& p) {
  if (!(p.scale > 0) || !std::isfinite(p.scale)) fail_at({mesh.source, 0, "scale"}, "must be positive, got ", p.scale);
  if (!is_finite(p.offset)) fail_at({mesh.source, 0, "offset"}, "must be finite");
  TriangleMesh out = mesh;
  for (Vec3& v : out.vertices) v = v * p.scale;
  if (p.origin == MeshOrigin::bottom_centre && !out.vertices.empty()) {
    Vec3 lo = out.vertices[0], hi = lo;
    for (const Vec3& v : out.vertices)
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], v[k]);
        hi[k] = std::max(hi[k], v[k]);
      }
    const Vec3 bottom{(lo.x + hi.x) / 2, (lo.y + hi.y) / 2, lo.z};
    for (Vec3& v : out.vertices) v = v - bottom;
  }
  for (Vec3& v : out.vertices) v = v + p.offset;
  return out;
}

}  // namespace nanoscatter::gisaxs
