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

  // Tiles grown as compact patches: the vertex phases per triangle are the
  // tile's vertices over its triangles, and a patch of n triangles on a
  // closed mesh uses ≈ n/2 + (its boundary)/2 vertices, least for a disc.
  // Cutting the Morton order into runs gave ragged patches (HipGISAXS-size
  // ellipsoid, 91,752 triangles: 35 triangles per tile, 0.91 vertex phases
  // per triangle); growing each tile from the first unassigned triangle in
  // Morton order gives 41.6 and 0.77. A tile takes, while it has room, the
  // unassigned triangle sharing its vertices that adds the fewest new
  // vertices, nearest the seed among those (the disc); when none fits, the
  // next unassigned triangles in Morton order (the fragments the sweep
  // leaves behind, so that they do not make tiles of one triangle each).
  const std::size_t nt = mesh.triangles.size(), nv = mesh.vertices.size();
  std::vector<std::uint32_t> first(nv + 1, 0), adjacent;  // vertex → triangles (CSR)
  for (const auto& tri : mesh.triangles)
    for (int g : tri) ++first[g + 1];
  for (std::size_t v = 0; v < nv; ++v) first[v + 1] += first[v];
  adjacent.resize(first[nv]);
  {
    std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
    for (std::size_t t = 0; t < nt; ++t)
      for (int g : mesh.triangles[t]) adjacent[fill[g]++] = std::uint32_t(t);
  }
  std::vector<Vec3> centroid(nt);
  for (std::size_t t = 0; t < nt; ++t) {
    const auto& tri = mesh.triangles[t];
    centroid[t] = (mesh.vertices[tri[0]] + mesh.vertices[tri[1]] + mesh.vertices[tri[2]]) / 3.0;
  }
  std::vector<char> assigned(nt, 0);
  std::vector<int> local(nv, -1);             // tile-local index of a vertex of the open tile
  std::vector<std::size_t> offered(nt, SIZE_MAX);  // the tile that has a triangle among its candidates
  std::vector<int> tile_vertices;             // global indices of the open tile's vertices
  std::vector<std::uint32_t> candidates;
  constexpr int kFragmentScan = 64;           // unassigned triangles looked at past the seed when no neighbour fits
  std::size_t cursor = 0;
  for (std::size_t tile = 0;; ++tile) {
    while (cursor < nt && assigned[order[cursor]]) ++cursor;
    if (cursor == nt) break;
    TileRange open{std::uint32_t(out.vertex_xyz.size() / 3), 0, std::uint32_t(out.corners.size()), 0};
    const Vec3 seed = centroid[order[cursor]];
    auto fresh_vertices = [&](std::size_t t) {
      int fresh = 0;
      for (int g : mesh.triangles[t]) fresh += local[g] < 0 ? 1 : 0;  // corners are distinct (validated)
      return fresh;
    };
    auto add_triangle = [&](std::size_t t) {
      const auto& tri = mesh.triangles[t];
      for (int g : tri) {
        if (local[g] >= 0) continue;
        local[g] = int(tile_vertices.size());
        tile_vertices.push_back(g);
        const Vec3 v = mesh.vertices[g] - out.centre;
        out.vertex_xyz.insert(out.vertex_xyz.end(), {v.x, v.y, v.z});
        ++open.vertex_count;
        for (std::uint32_t k = first[g]; k < first[g + 1]; ++k) {
          const std::uint32_t u = adjacent[k];
          if (!assigned[u] && offered[u] != tile) offered[u] = tile, candidates.push_back(u);
        }
      }
      assigned[t] = 1;
      out.corners.push_back(std::uint32_t(local[tri[0]]) | std::uint32_t(local[tri[1]]) << 8 |
                            std::uint32_t(local[tri[2]]) << 16);
      const Vec3 n = cross(mesh.vertices[tri[1]] - mesh.vertices[tri[0]], mesh.vertices[tri[2]] - mesh.vertices[tri[0]]);
      out.normal_xyz.insert(out.normal_xyz.end(), {n.x, n.y, n.z});
      ++open.triangle_count;
    };
    add_triangle(order[cursor]);
    while (open.triangle_count < std::uint32_t(kTileTriangles)) {
      std::size_t best = SIZE_MAX;
      int best_fresh = 4;
      double best_distance = 0;
      auto consider = [&](std::size_t t) {
        const int fresh = fresh_vertices(t);
        if (int(tile_vertices.size()) + fresh > kTileVertices) return;
        const Vec3 from_seed = centroid[t] - seed;
        const double d = dot(from_seed, from_seed);
        if (fresh < best_fresh || (fresh == best_fresh && d < best_distance)) best = t, best_fresh = fresh, best_distance = d;
      };
      std::size_t kept = 0;
      for (std::uint32_t t : candidates) {
        if (assigned[t]) continue;
        candidates[kept++] = t;
        consider(t);
      }
      candidates.resize(kept);
      if (best == SIZE_MAX) {
        int seen = 0;
        for (std::size_t i = cursor; i < nt && seen < kFragmentScan; ++i)
          if (!assigned[order[i]]) ++seen, consider(order[i]);
      }
      if (best == SIZE_MAX) break;
      add_triangle(best);
    }
    for (int g : tile_vertices) local[g] = -1;
    tile_vertices.clear();
    candidates.clear();
    out.tiles.push_back(open);
  }
  return out;
}

}  // namespace nanoscatter::gisaxs::mesh
