// Meshes of known solids for tests, benchmarks and examples, and STL writers.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <numbers>

#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"

namespace nanoscatter::gisaxs {

TriangleMesh box_mesh(double a, double b, double c) {
  const std::vector<Vec3> v{{-a / 2, -b / 2, 0}, {a / 2, -b / 2, 0}, {a / 2, b / 2, 0}, {-a / 2, b / 2, 0},
                            {-a / 2, -b / 2, c}, {a / 2, -b / 2, c}, {a / 2, b / 2, c}, {-a / 2, b / 2, c}};
  const std::vector<std::vector<int>> faces{{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                            {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
  return mesh_from_faces(v, faces, "box mesh");
}

TriangleMesh mesh_from_faces(const std::vector<Vec3>& vertices, const std::vector<std::vector<int>>& faces,
                             std::string source) {
  TriangleMesh m;
  m.vertices = vertices;
  m.source = std::move(source);
  for (const auto& f : faces)
    for (std::size_t k = 1; k + 1 < f.size(); ++k) m.triangles.push_back({f[0], f[k], f[k + 1]});
  return m;
}

TriangleMesh sphere_mesh(double radius, int levels, double stretch) {
  const double p = std::numbers::phi;
  std::vector<Vec3> v{{-1, p, 0}, {1, p, 0}, {-1, -p, 0}, {1, -p, 0}, {0, -1, p}, {0, 1, p},
                      {0, -1, -p}, {0, 1, -p}, {p, 0, -1}, {p, 0, 1}, {-p, 0, -1}, {-p, 0, 1}};
  std::vector<std::array<int, 3>> t{{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                    {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                    {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                    {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (Vec3& a : v) a = a / norm(a);
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<int, int>, int> middle;
    auto mid = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      auto it = middle.find(key);
      if (it != middle.end()) return it->second;
      Vec3 m = v[a] + v[b];
      v.push_back(m / norm(m));
      return middle[key] = int(v.size()) - 1;
    };
    std::vector<std::array<int, 3>> next;
    for (const auto& tri : t) {
      const int ab = mid(tri[0], tri[1]), bc = mid(tri[1], tri[2]), ca = mid(tri[2], tri[0]);
      next.push_back({tri[0], ab, ca});
      next.push_back({tri[1], bc, ab});
      next.push_back({tri[2], ca, bc});
      next.push_back({ab, bc, ca});
    }
    t = std::move(next);
  }
  TriangleMesh m;
  for (const Vec3& a : v) m.vertices.push_back({radius * a.x, radius * a.y, radius * stretch * (a.z + 1)});
  m.triangles = std::move(t);
  m.source = "sphere mesh";
  return m;
}

TriangleMesh sphere_mesh_with_triangles(double radius, std::size_t triangles, double stretch) {
  if (triangles < 20 || triangles % 2) fail_at({"", 0, "triangles"}, "need an even count ≥ 20, got ", triangles);
  int levels = 0;
  while (20 * (std::size_t(4) << (2 * levels)) <= triangles) ++levels;
  TriangleMesh m = sphere_mesh(radius, levels, stretch);
  const std::size_t base = m.triangles.size(), splits = (triangles - base) / 2;
  const Vec3 centre{0, 0, radius * stretch};
  for (std::size_t k = 0; k < splits; ++k) {
    const std::size_t t = k * base / splits;  // evenly spread over the base triangles
    const auto tri = m.triangles[t];
    const Vec3 c = (m.vertices[tri[0]] + m.vertices[tri[1]] + m.vertices[tri[2]]) / 3.0;
    // Lift the centroid to the ellipsoid along the ray from its centre.
    const Vec3 d = c - centre;
    const double s = 1 / std::sqrt((d.x * d.x + d.y * d.y) / (radius * radius) +
                                   d.z * d.z / (radius * radius * stretch * stretch));
    m.vertices.push_back(centre + s * d);
    const int v = int(m.vertices.size()) - 1;
    m.triangles[t] = {tri[0], tri[1], v};
    m.triangles.push_back({tri[1], tri[2], v});
    m.triangles.push_back({tri[2], tri[0], v});
  }
  return m;
}

TriangleMesh cylinder_mesh(double radius, double height, int segments) {
  TriangleMesh m;
  m.source = "cylinder mesh";
  for (int s = 0; s < segments; ++s) {
    const double a = 2 * std::numbers::pi * s / segments;
    m.vertices.push_back({radius * std::cos(a), radius * std::sin(a), 0});
    m.vertices.push_back({radius * std::cos(a), radius * std::sin(a), height});
  }
  const int bottom = int(m.vertices.size()), top = bottom + 1;
  m.vertices.push_back({0, 0, 0});
  m.vertices.push_back({0, 0, height});
  for (int s = 0; s < segments; ++s) {
    const int b0 = 2 * s, t0 = 2 * s + 1, b1 = 2 * ((s + 1) % segments), t1 = b1 + 1;
    m.triangles.push_back({b0, b1, t1});
    m.triangles.push_back({b0, t1, t0});
    m.triangles.push_back({bottom, b1, b0});
    m.triangles.push_back({top, t0, t1});
  }
  return m;
}

namespace {
Vec3 unit_normal(const TriangleMesh& m, const std::array<int, 3>& t) {
  const Vec3 n = cross(m.vertices[t[1]] - m.vertices[t[0]], m.vertices[t[2]] - m.vertices[t[0]]);
  const double s = norm(n);
  return s > 0 ? n / s : Vec3{};
}
}  // namespace

void write_stl_binary(const std::filesystem::path& path, const TriangleMesh& mesh) {
  std::ofstream out(path, std::ios::binary);
  if (!out) fail_at({path.string(), 0, ""}, "cannot write");
  char header[80] = "nanoscatter binary STL";
  out.write(header, 80);
  const std::uint32_t n = std::uint32_t(mesh.triangles.size());
  out.write(reinterpret_cast<const char*>(&n), 4);
  for (const auto& t : mesh.triangles) {
    float record[12];
    const Vec3 nn = unit_normal(mesh, t);
    record[0] = float(nn.x), record[1] = float(nn.y), record[2] = float(nn.z);
    for (int k = 0; k < 3; ++k) {
      const Vec3& v = mesh.vertices[t[k]];
      record[3 + 3 * k] = float(v.x), record[4 + 3 * k] = float(v.y), record[5 + 3 * k] = float(v.z);
    }
    out.write(reinterpret_cast<const char*>(record), sizeof record);
    const std::uint16_t attribute = 0;
    out.write(reinterpret_cast<const char*>(&attribute), 2);
  }
  if (!out) fail_at({path.string(), 0, ""}, "write failed");
}

void write_stl_ascii(const std::filesystem::path& path, const TriangleMesh& mesh) {
  std::ofstream out(path);
  if (!out) fail_at({path.string(), 0, ""}, "cannot write");
  out.precision(17);
  out << "solid nanoscatter\n";
  for (const auto& t : mesh.triangles) {
    const Vec3 nn = unit_normal(mesh, t);
    out << "  facet normal " << nn.x << ' ' << nn.y << ' ' << nn.z << "\n    outer loop\n";
    for (int k = 0; k < 3; ++k) {
      const Vec3& v = mesh.vertices[t[k]];
      out << "      vertex " << v.x << ' ' << v.y << ' ' << v.z << "\n";
    }
    out << "    endloop\n  endfacet\n";
  }
  out << "endsolid nanoscatter\n";
  if (!out) fail_at({path.string(), 0, ""}, "write failed");
}

}  // namespace nanoscatter::gisaxs
