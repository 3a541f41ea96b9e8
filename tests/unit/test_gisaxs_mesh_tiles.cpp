// Mesh tiles of the fast paths (src/gisaxs/mesh/mesh_tiles.cpp): every
// triangle in exactly one tile with its corners and normal intact, the tile
// limits kept, and the compact patches' vertex phases per triangle (the
// GPU kernel's sincos count) on the benchmark meshes.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <map>

#include "gisaxs/mesh/mesh_tiles.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;

namespace {

// The triangles of a mesh, each as its three corner positions (relative to
// the tiles' centre) and N = (b − a) × (c − a), found again from the tiles.
void expect_same_triangles(const TriangleMesh& mesh, const mesh::MeshTiles& tiles) {
  ASSERT_EQ(tiles.triangles, mesh.triangles.size());
  std::size_t count = 0;
  // Each mesh triangle by its corners, in the mesh's own order (a, b, c):
  // the tiles keep the order, so N keeps the orientation.
  std::map<std::array<double, 9>, int> wanted;
  for (const auto& tri : mesh.triangles) {
    std::array<double, 9> key;
    for (int k = 0; k < 3; ++k) {
      const Vec3 v = mesh.vertices[tri[k]] - tiles.centre;
      key[3 * k] = v.x, key[3 * k + 1] = v.y, key[3 * k + 2] = v.z;
    }
    ++wanted[key];
  }
  for (const mesh::TileRange& r : tiles.tiles) {
    ASSERT_GE(r.triangle_count, 1u);
    ASSERT_LE(r.triangle_count, std::uint32_t(mesh::kTileTriangles));
    ASSERT_LE(r.vertex_count, std::uint32_t(mesh::kTileVertices));
    for (std::uint32_t t = 0; t < r.triangle_count; ++t) {
      const std::size_t g = r.first_triangle + t;
      const std::uint32_t c = tiles.corners[g];
      std::array<double, 9> key;
      Vec3 corner[3];
      for (int k = 0; k < 3; ++k) {
        const std::uint32_t local = (c >> (8 * k)) & 0xff;
        ASSERT_LT(local, r.vertex_count);
        const double* v = &tiles.vertex_xyz[3 * (r.first_vertex + local)];
        corner[k] = {v[0], v[1], v[2]};
        key[3 * k] = v[0], key[3 * k + 1] = v[1], key[3 * k + 2] = v[2];
      }
      auto it = wanted.find(key);
      ASSERT_NE(it, wanted.end()) << "tile triangle " << g << " is no mesh triangle (or lost its corner order)";
      ASSERT_GT(it->second, 0) << "triangle " << g << " in two tiles";
      --it->second;
      const Vec3 n = cross(corner[1] - corner[0], corner[2] - corner[0]);
      const Vec3 stored{tiles.normal_xyz[3 * g], tiles.normal_xyz[3 * g + 1], tiles.normal_xyz[3 * g + 2]};
      // Same cross product of the same edges, up to the rounding of the
      // centred corners (|v| ≤ 40 nm: ≤ 1e-13 of |N| here).
      EXPECT_LE(norm(n - stored), 1e-12 * norm(stored)) << g;
      ++count;
    }
  }
  EXPECT_EQ(count, mesh.triangles.size());
}

}  // namespace

// Exact bookkeeping on the benchmark's meshes (bench/gisaxs_mesh_bench_gpu.cpp)
// and a coarse icosphere; the vertex phases per triangle as measured when
// the tiles became compact patches (2,292: 0.83 → 0.73, 91,752: 0.91 →
// 0.77 for Morton-order runs → patches), with 2 % slack, so that a change to
// the tiler that makes them ragged again shows here.
TEST(GisaxsMeshTiles, EveryTriangleOnceInCompactTiles) {
  struct Case {
    std::size_t triangles;
    double most_phases;
  };
  for (const Case& c : {Case{2292, 0.75}, Case{91752, 0.785}}) {
    const TriangleMesh m = sphere_mesh_with_triangles(20, c.triangles, 0.6);
    const mesh::MeshTiles tiles = mesh::make_mesh_tiles(m);
    std::printf("%zu triangles: %zu tiles, %.4f vertex phases per triangle\n", c.triangles, tiles.tiles.size(),
                tiles.vertex_phases_per_triangle());
    expect_same_triangles(m, tiles);
    EXPECT_LE(tiles.vertex_phases_per_triangle(), c.most_phases) << c.triangles;
  }
  const TriangleMesh coarse = sphere_mesh(5, 1);  // 80 triangles, 2 tiles
  expect_same_triangles(coarse, mesh::make_mesh_tiles(coarse));
}
