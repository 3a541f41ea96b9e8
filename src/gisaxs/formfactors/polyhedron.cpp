// The general polyhedron form factor (Wuttke, J. Appl. Cryst. 54 (2021) 580).
//
// With s = r − c measured from the centre c of the vertices' bounding box,
// F(q) = exp(i q·c) G(q), and G is evaluated in one of two ways:
//  * |q| R ≥ kVolumeSeriesLimit: the divergence theorem with the constant
//    field w exp(i q·s), w = conj(q) (so that q·w = |q|² ≠ 0 also for complex q):
//      G = (−i/|q|²) Σ_faces (conj(q)·n̂_f) exp(i q·c_f) Φ_f(q),
//    Φ_f the face transform about the face centroid c_f (polygon.hpp). The
//    face sum cancels to O(|q|² R² V) from terms O(|q| R A), a loss of about
//    log10(1/(|q|R)) digits, which the limit keeps below one digit.
//  * below: the Taylor series G = Σ_n i^n S_n, S_n = (1/n!) ∫_V (q·s)^n d³s,
//    with Euler's theorem for the homogeneous integrand,
//      S_n = 1/(n+3) Σ_f d_f (1/n!) ∫_f (q·s)^n d²s,   d_f = n̂_f·s on face f,
//    and on each face s = d_f n̂_f + σ (σ from the foot point d_f n̂_f) so that
//      (1/n!) ∫_f (q·s)^n = Σ_k (q⊥ d_f)^{n−k}/(n−k)! · m_k(q∥; foot point).
//    Every term is O((|q|R)^n V/n!): no cancellation, no division by q.
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "gisaxs/formfactors/face_set.hpp"
#include "gisaxs/special_functions.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs_formfactors.hpp"

namespace nanoscatter::gisaxs {

Polyhedron::~Polyhedron() = default;

std::size_t Polyhedron::face_count() const { return faces_->faces.size(); }

Polyhedron::Polyhedron(const std::vector<Vec3>& vertices,
                       const std::vector<std::vector<int>>& faces, std::string name)
    : faces_(std::make_unique<detail::FaceSet>()), name_(std::move(name)) {
  Vec3& centre = faces_->centre;
  double& radius = faces_->radius;
  const char* what = name_.c_str();
  if (vertices.size() < 4) fail_at({"", 0, what}, "a polyhedron needs at least 4 vertices");
  Vec3 lo = vertices[0], hi = vertices[0];
  for (const Vec3& v : vertices) {
    if (!is_finite(v)) fail_at({"", 0, what}, "vertex coordinates must be finite");
    for (int i = 0; i < 3; ++i) {
      lo[i] = std::min(lo[i], v[i]);
      hi[i] = std::max(hi[i], v[i]);
    }
  }
  extent_ = {lo, hi};
  centre = (lo + hi) / 2.0;
  for (const Vec3& v : vertices) radius = std::max(radius, norm(v - centre));
  if (!(radius > 0)) fail_at({"", 0, what}, "all vertices coincide");
  const double tol = 1e-12 * radius;

  // Canonical index per position, so that coincident vertices count as one.
  std::vector<int> canonical(vertices.size());
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    canonical[i] = static_cast<int>(i);
    for (std::size_t j = 0; j < i; ++j)
      if (norm(vertices[i] - vertices[j]) <= tol) {
        canonical[i] = canonical[j];
        break;
      }
  }

  std::map<std::pair<int, int>, int> directed_edges;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    std::vector<int> ring;
    for (int index : faces[f]) {
      if (index < 0 || static_cast<std::size_t>(index) >= vertices.size())
        fail_at({"", 0, what}, "face ", f, " names vertex ", index, ", but there are ",
                vertices.size(), " vertices");
      const int c = canonical[index];
      if (ring.empty() || ring.back() != c) ring.push_back(c);
    }
    while (ring.size() > 1 && ring.front() == ring.back()) ring.pop_back();
    if (ring.size() < 3) continue;  // collapsed to a point or a line
    std::vector<Vec3> corners;
    for (int c : ring) corners.push_back(vertices[c] - centre);
    double face_diameter = 0;
    for (const Vec3& a : corners)
      for (const Vec3& b : corners) face_diameter = std::max(face_diameter, norm(a - b));
    if (face_diameter <= 1e-12 * radius) continue;
    for (std::size_t i = 0; i < ring.size(); ++i)
      ++directed_edges[{ring[i], ring[(i + 1) % ring.size()]}];
    faces_->faces.push_back(detail::make_planar_polygon(corners, what));
  }
  if (faces_->faces.size() < 4) fail_at({"", 0, what}, "a polyhedron needs at least 4 faces of non-zero area");
  for (const auto& [edge, count] : directed_edges) {
    if (count != 1)
      fail_at({"", 0, what}, "edge ", edge.first, "→", edge.second,
              " is used by more than one face in the same direction (faces not consistently oriented)");
    if (!directed_edges.count({edge.second, edge.first}))
      fail_at({"", 0, what}, "edge ", edge.first, "→", edge.second,
              " has no partner face: the surface is not closed");
  }
  volume_ = detail::face_set_volume(*faces_);
  if (!(volume_ > 0))
    fail_at({"", 0, what},
            "faces must run counter-clockwise seen from outside (the volume comes out as ", volume_, ")");
}

std::unique_ptr<Polyhedron> Polyhedron::convex_hull(const std::vector<Vec3>& input, std::string name) {
  const char* what = name.c_str();
  double diameter = 0;
  for (const Vec3& a : input)
    for (const Vec3& b : input) diameter = std::max(diameter, norm(a - b));
  if (!(diameter > 0) || !std::isfinite(diameter))
    fail_at({"", 0, what}, "the points span no volume");
  const double tol = 1e-10 * diameter;
  std::vector<Vec3> p;
  for (const Vec3& v : input) {
    bool seen = false;
    for (const Vec3& u : p) seen = seen || norm(u - v) <= tol;
    if (!seen) p.push_back(v);
  }
  // A face plane is one through three points with every point on one side.
  struct Plane {
    Vec3 normal;
    double offset;
  };
  std::vector<Plane> planes;
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = j + 1; k < n; ++k) {
        Vec3 normal = cross(p[j] - p[i], p[k] - p[i]);
        const double size = norm(normal);
        if (size <= tol * diameter) continue;  // collinear
        normal = normal / size;
        double offset = dot(normal, p[i]);
        bool below = true, above = true;
        for (const Vec3& v : p) {
          const double s = dot(normal, v) - offset;
          below = below && s <= tol;
          above = above && s >= -tol;
        }
        if (!below && !above) continue;
        if (!below) {
          normal = -normal;
          offset = -offset;
        }
        bool known = false;
        for (const Plane& pl : planes)
          known = known || (norm(pl.normal - normal) < 1e-9 && std::abs(pl.offset - offset) <= tol);
        if (!known) planes.push_back({normal, offset});
      }
  std::vector<std::vector<int>> faces;
  for (const Plane& pl : planes) {
    std::vector<int> on;
    Vec3 centroid;
    for (std::size_t i = 0; i < n; ++i)
      if (std::abs(dot(pl.normal, p[i]) - pl.offset) <= tol) {
        on.push_back(static_cast<int>(i));
        centroid += p[i];
      }
    centroid = centroid / double(on.size());
    const Vec3 e1 = (p[on[0]] - centroid) / norm(p[on[0]] - centroid);
    const Vec3 e2 = cross(pl.normal, e1);
    std::sort(on.begin(), on.end(), [&](int a, int b) {
      const Vec3 da = p[a] - centroid, db = p[b] - centroid;
      return std::atan2(dot(da, e2), dot(da, e1)) < std::atan2(dot(db, e2), dot(db, e1));
    });
    // Points inside an edge (collinear with their neighbours) are not corners.
    std::vector<int> corners;
    for (std::size_t i = 0; i < on.size(); ++i) {
      const Vec3& prev = p[on[(i + on.size() - 1) % on.size()]];
      const Vec3& next = p[on[(i + 1) % on.size()]];
      const Vec3& here = p[on[i]];
      if (norm(cross(here - prev, next - here)) > tol * diameter) corners.push_back(on[i]);
    }
    faces.push_back(corners);
  }
  return std::make_unique<Polyhedron>(p, faces, std::move(name));
}

void Polyhedron::evaluate(std::span<const CVec3> q, std::span<Complex> out) const {
  for (std::size_t i = 0; i < q.size(); ++i) out[i] = detail::face_set_transform(*faces_, q[i]);
}

}  // namespace nanoscatter::gisaxs
