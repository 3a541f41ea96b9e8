// Vertices welded by bit-identical coordinates, for the mesh readers: STL
// stores every triangle's corners separately and OBJ exporters repeat a
// position at each normal or texture seam, and shared corners are written
// with identical numbers. Nothing is merged by tolerance (validate_mesh
// reports near-duplicates instead). Float coordinates (binary STL's) widen
// to double exactly, so one key type serves both readers.
#pragma once
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "nanoscatter/gisaxs_mesh.hpp"

namespace nanoscatter::io {

class VertexWelder {
 public:
  using Vertex = decltype(gisaxs::TriangleMesh::vertices)::value_type;
  explicit VertexWelder(std::vector<Vertex>& vertices) : vertices_(vertices) {}

  // The index of (x, y, z) in the vertices, appended when first seen.
  int index(double x, double y, double z) {
    const auto inserted = index_.try_emplace(Key{x, y, z}, int(vertices_.size()));
    if (inserted.second) vertices_.push_back({x, y, z});
    return inserted.first->second;
  }

 private:
  struct Key {
    double x, y, z;
    bool operator==(const Key& o) const { return std::memcmp(this, &o, sizeof(Key)) == 0; }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t b[3];
      std::memcpy(b, &k, sizeof b);
      std::size_t h = b[0];
      h = h * 0x9E3779B97F4A7C15ull ^ b[1];
      h = h * 0x9E3779B97F4A7C15ull ^ b[2];
      return h ^ (h >> 29);
    }
  };
  std::vector<Vertex>& vertices_;
  std::unordered_map<Key, int, KeyHash> index_;
};

}  // namespace nanoscatter::io
