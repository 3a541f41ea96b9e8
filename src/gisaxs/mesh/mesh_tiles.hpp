// A validated mesh cut into tiles for the fast paths: each tile holds up to
// kTileTriangles spatially adjacent triangles and the ≤ kTileVertices
// vertices they use, so that a kernel computes exp(i q·v) once per tile
// vertex and q and every triangle of the tile reads its corners from there
// (triangle_kernel.hpp). Vertices on tile borders appear in each tile that
// uses them; the cost is counted in vertex_phases_per_triangle().
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "nanoscatter/gisaxs_mesh.hpp"

namespace nanoscatter::gisaxs::mesh {

inline constexpr int kTileTriangles = 48;
inline constexpr int kTileVertices = 32;

struct TileRange {
  std::uint32_t first_vertex, vertex_count, first_triangle, triangle_count;
};

struct MeshTiles {
  Vec3 centre;         // bounding-box centre; coordinates below are relative to it
  double radius = 0;   // max |v − centre|
  double volume = 0;   // nm³
  std::size_t triangles = 0;
  std::vector<TileRange> tiles;
  std::vector<double> vertex_xyz;          // 3 per tile vertex
  std::vector<std::uint32_t> corners;      // per triangle: local corner indices a | b << 8 | c << 16
  std::vector<double> normal_xyz;          // 3 per triangle: N = (b − a) × (c − a)
  double vertex_phases_per_triangle() const {
    return triangles ? double(vertex_xyz.size() / 3) / double(triangles) : 0;
  }
};

// Tiles grown as compact patches from seeds in Morton order of the
// triangle centroids (mesh_tiles.cpp).
MeshTiles make_mesh_tiles(const TriangleMesh& mesh);

// A contiguous run of tiles [first, first + count).
struct TileSpan {
  std::size_t first = 0, count = 0;
};

}  // namespace nanoscatter::gisaxs::mesh
