// Form factors of particles for the gisaxs engine:
//   F(q) = ∫ exp(i q·r) d³r over the particle volume (nm³),
// for complex q (nm⁻¹; q is complex inside absorbing layers). Conventions are
// BornAgain's, so that parameters and numbers carry over unchanged: the
// particle's reference point is the centre of its bottom, which sits at z = 0,
// and its axis points along +z.
//
// A form factor is evaluated on arrays of q vectors (batch interface), so that
// the DWBA, the interference sums and a later GPU path can feed it blocks of
// detector pixels; evaluate() is const and thread-safe.
#pragma once
#include <cmath>
#include <complex>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nanoscatter/vec3.hpp"

namespace nanoscatter::gisaxs {

using Complex = std::complex<double>;

// A complex 3-vector (a wavevector transfer inside an absorbing medium).
struct CVec3 {
  Complex x, y, z;
  constexpr CVec3() = default;
  constexpr CVec3(Complex x_, Complex y_, Complex z_) : x(x_), y(y_), z(z_) {}
  constexpr explicit CVec3(const Vec3& v) : x(v.x), y(v.y), z(v.z) {}
};
inline CVec3 operator+(const CVec3& a, const CVec3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline CVec3 operator-(const CVec3& a, const CVec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline CVec3 operator-(const CVec3& a) { return {-a.x, -a.y, -a.z}; }
inline CVec3 operator*(Complex s, const CVec3& a) { return {s * a.x, s * a.y, s * a.z}; }
// Bilinear product q·r (no complex conjugation): the phase of exp(i q·r).
inline Complex dot(const CVec3& q, const Vec3& r) { return q.x * r.x + q.y * r.y + q.z * r.z; }
inline Complex dot(const CVec3& a, const CVec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
// sqrt(Σ|q_i|²): the size of q, used to pick expansions.
inline double magnitude(const CVec3& q) {
  return std::sqrt(std::norm(q.x) + std::norm(q.y) + std::norm(q.z));
}
// M q for a real matrix (rotations act on complex q component-wise).
inline CVec3 operator*(const Mat3& m, const CVec3& q) {
  return {m.row[0].x * q.x + m.row[0].y * q.y + m.row[0].z * q.z,
          m.row[1].x * q.x + m.row[1].y * q.y + m.row[1].z * q.z,
          m.row[2].x * q.x + m.row[2].y * q.y + m.row[2].z * q.z};
}

// Axis-aligned bounds of a shape in its own frame (nm).
struct Extent {
  Vec3 lo, hi;
};

class FormFactor {
 public:
  virtual ~FormFactor() = default;
  // out[i] = F(q[i]); q and out have the same length.
  virtual void evaluate(std::span<const CVec3> q, std::span<Complex> out) const = 0;
  Complex evaluate(const CVec3& q) const;
  virtual double volume() const = 0;  // F(0), nm³
  virtual Extent extent() const = 0;
  // "cylinder(radius=5 nm, height=5 nm)"
  virtual std::string describe() const = 0;
};

// ---- analytic shapes (BornAgain's parameterisations; lengths nm, angles rad)
// Each factory checks its parameters and throws Error naming the parameter
// (field = the parameter's name) when one is out of range.

// Sphere of radius R resting on z = 0 (centre at z = R).
std::unique_ptr<FormFactor> make_sphere(double radius);
// Sphere of radius R cut by the plane z = 0 so that `height` H (0 < H ≤ 2R)
// remains; a further cap of height `removed_top` (0 ≤ ΔH < H) is cut off the
// top. BornAgain's TruncatedSphere(R, H, ΔH).
std::unique_ptr<FormFactor> make_truncated_sphere(double radius, double height, double removed_top);
// Spheroid with equatorial radius R and full height H along z.
std::unique_ptr<FormFactor> make_spheroid(double radius, double height);
std::unique_ptr<FormFactor> make_cylinder(double radius, double height);
// Box with edges length (x), width (y), height (z), centred on the z axis.
std::unique_ptr<FormFactor> make_box(double length, double width, double height);
// Prism with an equilateral triangle base of edge L (one corner on +x).
std::unique_ptr<FormFactor> make_prism3(double base_edge, double height);
// Prism with a regular hexagon base of edge L (corners on ±x).
std::unique_ptr<FormFactor> make_prism6(double base_edge, double height);
// Frustum of a square pyramid: base edge L (edges along x and y), height H,
// side faces at angle α to the base (0 < α < π; H ≤ L tan(α)/2 for α < π/2).
std::unique_ptr<FormFactor> make_pyramid(double base_edge, double height, double alpha);
// Frustum of a cone: base radius R, height H, side at angle α to the base
// (0 < α ≤ π/2; H ≤ R tan α).
std::unique_ptr<FormFactor> make_cone(double radius, double height, double alpha);
// Frustum of a triangular pyramid (BornAgain's "Tetrahedron"): base triangle
// of edge L oriented as the prism3 base, height H, side angle α (0 < α ≤ π/2).
std::unique_ptr<FormFactor> make_tetrahedron(double base_edge, double height, double alpha);
// Regular icosahedron of edge L resting on one face (a corner of the bottom
// face on +x).
std::unique_ptr<FormFactor> make_icosahedron(double edge);
// Its twelve corners (no validation; the mesh tests triangulate them).
std::vector<Vec3> icosahedron_corners(double edge);

// ---- general polyhedra (J. Wuttke, J. Appl. Cryst. 54 (2021) 580;
// arXiv:1703.00255): face/edge sums from the divergence theorem, with power
// series where the sums would cancel (small |q| or q nearly normal to a face).
namespace detail {
struct PlanarPolygon;
struct FaceSet;
}

class Polyhedron final : public FormFactor {
 public:
  // `faces` lists vertex indices counter-clockwise seen from outside; faces
  // must be planar and convex, and every edge shared by exactly two faces
  // (in opposite directions). Coincident vertices are merged and faces that
  // collapse to a point or a line dropped (a pyramid frustum of zero top).
  // Throws Error (field `name`) when the polyhedron is not valid.
  Polyhedron(const std::vector<Vec3>& vertices, const std::vector<std::vector<int>>& faces,
             std::string name = "polyhedron");
  // The convex hull of the points (faces found and oriented automatically).
  static std::unique_ptr<Polyhedron> convex_hull(const std::vector<Vec3>& points,
                                                 std::string name = "polyhedron");
  ~Polyhedron() override;
  void evaluate(std::span<const CVec3> q, std::span<Complex> out) const override;
  using FormFactor::evaluate;
  double volume() const override { return volume_; }
  Extent extent() const override { return extent_; }
  std::string describe() const override { return name_; }
  std::size_t face_count() const;

  struct Edge {
    Vec3 half;      // E = (V_end − V_start)/2
    Vec3 midpoint;  // R = (V_end + V_start)/2
  };

 private:
  std::unique_ptr<detail::FaceSet> faces_;  // faces about the bounding-box centre
  double volume_ = 0;
  Extent extent_;
  std::string name_;
};

// A convex polygon in the xy plane (counter-clockwise seen from +z) extruded
// from z = 0 to z = height: F = Φ_polygon(q_x, q_y) · H sinc(q_z H/2) exp(i q_z H/2).
class Prism final : public FormFactor {
 public:
  Prism(const std::vector<Vec3>& base, double height, std::string name = "prism");
  ~Prism() override;
  void evaluate(std::span<const CVec3> q, std::span<Complex> out) const override;
  using FormFactor::evaluate;
  double volume() const override { return volume_; }
  Extent extent() const override { return extent_; }
  std::string describe() const override { return name_; }

 private:
  std::unique_ptr<detail::PlanarPolygon> base_;
  double height_ = 0, volume_ = 0;
  Extent extent_;
  std::string name_;
};

// ---- a particle shape as sample files name it ----------------------------
// Most shapes have one body; a core–shell particle has a shell body and a
// core inside it, whose contrast is taken against the shell.
enum class ComponentRole { body, core };
struct ShapeComponent {
  std::shared_ptr<const FormFactor> form_factor;
  ComponentRole role = ComponentRole::body;
  Vec3 offset;  // of the component's reference point in the particle frame, nm
};

enum class ParameterKind {
  length,           // nm, > 0
  length_or_zero,   // nm, ≥ 0
  angle,            // radians inside, degrees in files
};
struct ShapeParameter {
  std::string name;
  ParameterKind kind = ParameterKind::length;
  bool required = true;
  double fallback = 0;  // used when not required and not given
};
struct ShapeInfo {
  std::string name;
  std::string summary;
  std::vector<ShapeParameter> parameters;
  bool has_core = false;  // needs a core material
  // Builds the components from the parameter values (in `parameters` order;
  // angles in radians). Throws Error with field = the parameter at fault.
  std::function<std::vector<ShapeComponent>(std::span<const double>)> build;
};
// Every shape a sample file may name, in a fixed order.
const std::vector<ShapeInfo>& shape_catalogue();
// nullptr for an unknown name.
const ShapeInfo* find_shape(std::string_view name);
// "sphere, truncated_sphere, ..." for messages.
std::string shape_names();

}  // namespace nanoscatter::gisaxs
