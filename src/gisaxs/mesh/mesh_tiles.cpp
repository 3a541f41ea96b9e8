#include "gisaxs/mesh/mesh_tiles.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace nanoscatter::gisaxs::mesh {

namespace {

// Spreads the low 10 bits of x to every third bit.
std::uint32_t spread_bits(std::uint32_t x) {
  x &= 0x3ff;
  x = (x | (x << 16)) & 0x030000ff;
  x = (x | (x << 8)) & 0x0300f00f;
  x = (x | (x << 4)) & 0x030c30c3;
  x = (x | (x << 2)) & 0x09249249;
  return x;
}

}  // namespace

MeshTiles make_mesh_tiles(const TriangleMesh& mesh) {
  MeshTiles out;
  Vec3 lo = mesh.vertices[0], hi = lo;
  for (const Vec3& v : mesh.vertices)
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], v[k]);
      hi[k] = std::max(hi[k], v[k]);
    }
  out.centre = (lo + hi) / 2.0;
  for (const Vec3& v : mesh.vertices) out.radius = std::max(out.radius, norm(v - out.centre));
  out.volume = mesh_volume(mesh);
  out.triangles = mesh.triangles.size();

  const double extent = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
  std::vector<std::uint32_t> code(mesh.triangles.size());
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    const Vec3 c = (mesh.vertices[tri[0]] + mesh.vertices[tri[1]] + mesh.vertices[tri[2]]) / 3.0;
    std::uint32_t key = 0;
    for (int k = 0; k < 3; ++k) {
      const double u = extent > 0 ? (c[k] - lo[k]) / extent : 0;
      key |= spread_bits(std::uint32_t(std::clamp(u, 0.0, 1.0) * 1023.0)) << k;
    }
    code[t] = key;
  }
  std::vector<std::size_t> order(mesh.triangles.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return code[a] < code[b]; });

  std::vector<int> local(mesh.vertices.size(), -1);
  std::vector<int> tile_vertices;  // global indices of the open tile
  TileRange open{0, 0, 0, 0};
  auto close_tile = [&] {
    for (int g : tile_vertices) local[g] = -1;
    tile_vertices.clear();
    out.tiles.push_back(open);
    open = {std::uint32_t(out.vertex_xyz.size() / 3), 0, std::uint32_t(out.corners.size()), 0};
  };
  for (std::size_t t : order) {
    const auto& tri = mesh.triangles[t];
    int fresh = 0;
    for (int k = 0; k < 3; ++k) fresh += local[tri[k]] < 0 ? 1 : 0;  // corners are distinct (validated)
    if (open.triangle_count == kTileTriangles || int(tile_vertices.size()) + fresh > kTileVertices) close_tile();
    std::uint32_t packed = 0;
    for (int k = 0; k < 3; ++k) {
      const int g = tri[k];
      if (local[g] < 0) {
        local[g] = int(tile_vertices.size());
        tile_vertices.push_back(g);
        const Vec3 v = mesh.vertices[g] - out.centre;
        out.vertex_xyz.insert(out.vertex_xyz.end(), {v.x, v.y, v.z});
        ++open.vertex_count;
      }
      packed |= std::uint32_t(local[g]) << (8 * k);
    }
    out.corners.push_back(packed);
    const Vec3 n = cross(mesh.vertices[tri[1]] - mesh.vertices[tri[0]], mesh.vertices[tri[2]] - mesh.vertices[tri[0]]);
    out.normal_xyz.insert(out.normal_xyz.end(), {n.x, n.y, n.z});
    ++open.triangle_count;
  }
  if (open.triangle_count) close_tile();
  return out;
}

}  // namespace nanoscatter::gisaxs::mesh
