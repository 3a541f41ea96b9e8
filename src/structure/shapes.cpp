// Convex shapes centred at the origin: validity, inside test with a
// tolerance, bounding radius.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/constants.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter {
namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

void require_positive(double value, const char* field, const char* what) {
  if (!(std::isfinite(value) && value > 0)) fail_at({"", 0, field}, what, " must be positive and finite, got ", value);
}

// Relative tolerance for the geometric predicates of the polyhedron checks
// (unit normals, so these are cosines / relative lengths): 1e-12 is 10⁴
// times double rounding, far below any deliberate geometry.
constexpr double kGeometryEpsilon = 1e-12;

struct UnitPlane {
  Vec3 normal;  // unit
  double distance;
};

std::vector<UnitPlane> unit_planes(const ConvexPolyhedron& poly) {
  std::vector<UnitPlane> out;
  for (const Plane& p : poly.planes) {
    const double length = norm(p.normal);
    out.push_back({p.normal / length, p.distance / length});
  }
  return out;
}

// Vertices: intersections of three planes that satisfy all the others.
std::vector<Vec3> polyhedron_vertices(const std::vector<UnitPlane>& planes) {
  std::vector<Vec3> vertices;
  const std::size_t n = planes.size();
  double scale = 0;
  for (const auto& p : planes) scale = std::max(scale, std::abs(p.distance));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = j + 1; k < n; ++k) {
        Mat3 m;
        m.row = {planes[i].normal, planes[j].normal, planes[k].normal};
        if (std::abs(determinant(m)) < kGeometryEpsilon) continue;
        const Vec3 v = inverse(m) * Vec3{planes[i].distance, planes[j].distance, planes[k].distance};
        bool inside = true;
        for (const auto& p : planes)
          if (dot(p.normal, v) > p.distance + 1e-9 * scale) inside = false;
        if (inside) vertices.push_back(v);
      }
  return vertices;
}

void validate_polyhedron(const ConvexPolyhedron& poly) {
  // A bounded polyhedron needs at least four faces (a tetrahedron).
  if (poly.planes.size() < 4)
    fail_at({"", 0, "planes"}, "a bounded polyhedron needs at least 4 planes, got ", poly.planes.size());
  for (std::size_t i = 0; i < poly.planes.size(); ++i) {
    const Plane& p = poly.planes[i];
    if (!is_finite(p.normal) || !(norm(p.normal) > 0))
      fail_at({"", 0, "planes"}, "plane ", i + 1, ": the normal must be finite and non-zero");
    if (!(std::isfinite(p.distance) && p.distance > 0))
      fail_at({"", 0, "planes"}, "plane ", i + 1, ": d must be positive (the centre lies inside), got ",
              p.distance);
  }
  const auto planes = unit_planes(poly);
  // Bounded ⇔ the recession cone {u : n_i·u ≤ 0 ∀i} is {0}. With normals of
  // rank 3 that cone is pointed, so it is trivial exactly when none of its
  // candidate extreme rays ±(n_i × n_j) satisfies every constraint.
  bool rank3 = false;
  for (std::size_t i = 0; i < planes.size() && !rank3; ++i)
    for (std::size_t j = i + 1; j < planes.size() && !rank3; ++j)
      for (std::size_t k = j + 1; k < planes.size() && !rank3; ++k)
        rank3 = std::abs(dot(planes[i].normal, cross(planes[j].normal, planes[k].normal))) > kGeometryEpsilon;
  bool bounded = rank3;
  for (std::size_t i = 0; i < planes.size() && bounded; ++i)
    for (std::size_t j = i + 1; j < planes.size() && bounded; ++j) {
      const Vec3 axis = cross(planes[i].normal, planes[j].normal);
      if (norm(axis) < kGeometryEpsilon) continue;
      for (double sign : {1.0, -1.0}) {
        const Vec3 u = axis * (sign / norm(axis));
        bool escapes = true;
        for (const auto& p : planes)
          if (dot(p.normal, u) > kGeometryEpsilon) escapes = false;
        if (escapes) bounded = false;
      }
    }
  if (!bounded) fail_at({"", 0, "planes"}, "the planes do not enclose a bounded region");
}

}  // namespace

void validate_shape(const Shape& shape) {
  std::visit(Overloaded{
                 [](const Sphere& s) { require_positive(s.radius, "radius", "sphere radius"); },
                 [](const Cube& s) { require_positive(s.edge, "edge", "cube edge"); },
                 [](const Cuboid& s) {
                   require_positive(s.a, "size", "cuboid edge a");
                   require_positive(s.b, "size", "cuboid edge b");
                   require_positive(s.c, "size", "cuboid edge c");
                 },
                 [](const Cylinder& s) {
                   require_positive(s.radius, "radius", "cylinder radius");
                   require_positive(s.height, "height", "cylinder height");
                 },
                 [](const Octahedron& s) { require_positive(s.radius, "radius", "octahedron vertex distance"); },
                 [](const ConvexPolyhedron& s) { validate_polyhedron(s); },
             },
             shape);
}

bool shape_contains(const Shape& shape, const Vec3& r, double tolerance) {
  return std::visit(
      Overloaded{
          [&](const Sphere& s) { return norm(r) <= s.radius + tolerance; },
          [&](const Cube& s) {
            const double half = s.edge / 2 + tolerance;
            return std::abs(r.x) <= half && std::abs(r.y) <= half && std::abs(r.z) <= half;
          },
          [&](const Cuboid& s) {
            return std::abs(r.x) <= s.a / 2 + tolerance && std::abs(r.y) <= s.b / 2 + tolerance &&
                   std::abs(r.z) <= s.c / 2 + tolerance;
          },
          [&](const Cylinder& s) {
            return std::hypot(r.x, r.y) <= s.radius + tolerance && std::abs(r.z) <= s.height / 2 + tolerance;
          },
          [&](const Octahedron& s) {
            // Faces |x|+|y|+|z| = R have normals (±1,±1,±1)/√3.
            return (std::abs(r.x) + std::abs(r.y) + std::abs(r.z) - s.radius) / std::sqrt(3.0) <= tolerance;
          },
          [&](const ConvexPolyhedron& s) {
            for (const Plane& p : s.planes)
              if ((dot(p.normal, r) - p.distance) / norm(p.normal) > tolerance) return false;
            return true;
          },
      },
      shape);
}

double bounding_radius(const Shape& shape) {
  return std::visit(Overloaded{
                        [](const Sphere& s) { return s.radius; },
                        [](const Cube& s) { return s.edge * std::sqrt(3.0) / 2; },
                        [](const Cuboid& s) { return std::sqrt(s.a * s.a + s.b * s.b + s.c * s.c) / 2; },
                        [](const Cylinder& s) { return std::hypot(s.radius, s.height / 2); },
                        [](const Octahedron& s) { return s.radius; },
                        [](const ConvexPolyhedron& s) {
                          double radius = 0;
                          for (const Vec3& v : polyhedron_vertices(unit_planes(s))) radius = std::max(radius, norm(v));
                          return radius;
                        },
                    },
                    shape);
}

double shape_volume(const Shape& shape) {
  return std::visit(Overloaded{
                        [](const Sphere& s) { return 4 * kPi / 3 * s.radius * s.radius * s.radius; },
                        [](const Cube& s) { return s.edge * s.edge * s.edge; },
                        [](const Cuboid& s) { return s.a * s.b * s.c; },
                        [](const Cylinder& s) { return kPi * s.radius * s.radius * s.height; },
                        // Eight tetrahedra of volume R³/6.
                        [](const Octahedron& s) { return 4 * s.radius * s.radius * s.radius / 3; },
                        [](const ConvexPolyhedron& s) {
                          double inscribed = std::numeric_limits<double>::infinity();
                          for (const Plane& p : s.planes) inscribed = std::min(inscribed, p.distance / norm(p.normal));
                          return 4 * kPi / 3 * inscribed * inscribed * inscribed;
                        },
                    },
                    shape);
}

std::string describe_shape(const Shape& shape) {
  std::ostringstream os;
  std::visit(Overloaded{
                 [&](const Sphere& s) { os << "sphere R=" << s.radius << " Å"; },
                 [&](const Cube& s) { os << "cube edge=" << s.edge << " Å"; },
                 [&](const Cuboid& s) { os << "cuboid " << s.a << "x" << s.b << "x" << s.c << " Å"; },
                 [&](const Cylinder& s) { os << "cylinder R=" << s.radius << " Å h=" << s.height << " Å"; },
                 [&](const Octahedron& s) { os << "octahedron R=" << s.radius << " Å"; },
                 [&](const ConvexPolyhedron& s) { os << "polyhedron of " << s.planes.size() << " planes"; },
             },
             shape);
  return os.str();
}

}  // namespace nanoscatter
