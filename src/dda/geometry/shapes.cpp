// Built-in DDA shapes, discretised exactly as ADDA's make_particle.c does
// (InitShape/MakeParticle, jagged = 1): the box is box_x × box_y × box_z with
// box_y,z = round(aspect · box_x); dipole (i, j, k) has relative coordinates
//   xr = (i − (box_x − 1)/2)/box_x,  yr = (j − (box_y − 1)/2)/box_x,  zr likewise,
// in units of the particle's size along x, and belongs to the particle when the
// shape's inequality holds at that point (boundary included, as in ADDA).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "nanoscatter/dda.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/resource_guard.hpp"

namespace nanoscatter {

DdaShapeKind parse_dda_shape(const std::string& name) {
  if (name == "sphere") return DdaShapeKind::sphere;
  if (name == "ellipsoid") return DdaShapeKind::ellipsoid;
  if (name == "cylinder") return DdaShapeKind::cylinder;
  if (name == "box") return DdaShapeKind::box;
  if (name == "coated") return DdaShapeKind::coated;
  if (name == "capsule") return DdaShapeKind::capsule;
  if (name == "read" || name == "file") return DdaShapeKind::file;
  fail_option("shape", "unknown shape '", name,
          "' (expected sphere, ellipsoid, cylinder, box, coated, capsule or read FILE)");
}

const char* to_string(DdaShapeKind k) {
  switch (k) {
    case DdaShapeKind::sphere: return "sphere";
    case DdaShapeKind::ellipsoid: return "ellipsoid";
    case DdaShapeKind::cylinder: return "cylinder";
    case DdaShapeKind::box: return "box";
    case DdaShapeKind::coated: return "coated";
    case DdaShapeKind::capsule: return "capsule";
    case DdaShapeKind::file: return "read";
  }
  return "?";
}

namespace {

double shape_parameter(const std::string& token) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(token, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (token.empty() || used != token.size()) fail_option("shape", "not a number '", token, "'");
  return v;
}

}  // namespace

DdaShape parse_dda_shape_spec(const std::vector<std::string>& tokens, const std::string& shape_file) {
  DdaShape shape;
  if (!shape_file.empty()) {
    if (!tokens.empty()) fail_option("shape_file", "give either --shape or --shape-file");
    shape.kind = DdaShapeKind::file;
    shape.file = shape_file;
    return shape;
  }
  if (tokens.empty()) return shape;  // a sphere
  shape.kind = parse_dda_shape(tokens[0]);
  if (shape.kind == DdaShapeKind::file) {
    if (tokens.size() != 2) fail_option("shape", "'read' takes one file name");
    shape.file = tokens[1];
    return shape;
  }
  for (std::size_t i = 1; i < tokens.size(); ++i) shape.params.push_back(shape_parameter(tokens[i]));
  return shape;
}

namespace {

constexpr double kPiOver6 = 0.52359877559829887308;  // sphere volume / cube of its diameter
constexpr double kPiOver4 = 0.78539816339744830962;  // disc area / square of its diameter

void expect_params(const DdaShape& s, std::initializer_list<std::size_t> counts) {
  for (std::size_t c : counts)
    if (s.params.size() == c) return;
  std::ostringstream os;
  bool first = true;
  for (std::size_t c : counts) {
    os << (first ? "" : " or ") << c;
    first = false;
  }
  fail_option("shape", to_string(s.kind), " takes ", os.str(), " parameter(s), got ",
          s.params.size());
}

void positive(double v, const char* what) {
  if (!(v > 0) || !std::isfinite(v)) fail_option("shape", what, " must be > 0, got ", v);
}

}  // namespace

DdaGeometry make_dda_shape(const DdaShape& shape, int grid_x, std::array<int, 2> grid_yz,
                           const std::function<void(const std::array<int, 3>&)>& before_scan) {
  if (shape.kind == DdaShapeKind::file) fail("make_dda_shape: shape files go through read_adda_shape_file");
  if (grid_x < 1) fail_option("grid", "must be ≥ 1, got ", grid_x);
  if (grid_x > 65535) fail_option("grid", "must be ≤ 65535, got ", grid_x);
  DdaGeometry g;
  g.sym_x = g.sym_y = g.sym_z = g.sym_r = true;
  double yx = 1, zx = 1;
  // shape-specific state
  double inv_sq_y = 1, inv_sq_z = 1, half_y = 0.5, half_z = 0.5, hd = 0, coat_r2 = 0;
  std::array<double, 3> coat_c{0, 0, 0};
  std::ostringstream desc;
  switch (shape.kind) {
    case DdaShapeKind::sphere:
      expect_params(shape, {0});
      g.volume_ratio = kPiOver6;
      desc << "sphere; diameter:";
      break;
    case DdaShapeKind::ellipsoid: {
      expect_params(shape, {2});
      positive(shape.params[0], "aspect ratio y/x");
      positive(shape.params[1], "aspect ratio z/x");
      yx = shape.params[0];
      zx = shape.params[1];
      if (yx != 1) g.sym_r = false;
      inv_sq_y = 1 / (yx * yx);
      inv_sq_z = 1 / (zx * zx);
      g.volume_ratio = kPiOver6 * yx * zx;
      desc << "ellipsoid; size along x-axis:";
      break;
    }
    case DdaShapeKind::cylinder:
      expect_params(shape, {1});
      positive(shape.params[0], "height to diameter ratio h/d");
      hd = shape.params[0] / 2;
      zx = shape.params[0];
      g.volume_ratio = kPiOver4 * shape.params[0];
      desc << "cylinder; diameter(d):";
      break;
    case DdaShapeKind::box:
      expect_params(shape, {0, 2});
      if (shape.params.size() == 2) {
        positive(shape.params[0], "aspect ratio y/x");
        positive(shape.params[1], "aspect ratio z/x");
        yx = shape.params[0];
        zx = shape.params[1];
        desc << "rectangular parallelepiped; size along x-axis:";
      } else {
        desc << "cube; size of edge along x-axis:";
      }
      if (yx != 1) g.sym_r = false;
      half_y = yx / 2;
      half_z = zx / 2;
      g.volume_ratio = yx * zx;
      break;
    case DdaShapeKind::coated: {
      expect_params(shape, {1, 4});
      const double ratio = shape.params[0];
      if (!(ratio >= 0 && ratio <= 1))
        fail_option("shape", "inner/outer diameter ratio must lie in [0, 1], got ", ratio);
      if (shape.params.size() == 4) {
        coat_c = {shape.params[1], shape.params[2], shape.params[3]};
        const double r2 = coat_c[0] * coat_c[0] + coat_c[1] * coat_c[1] + coat_c[2] * coat_c[2];
        if (r2 > 0.25 * (1 - ratio) * (1 - ratio))
          fail_option("shape", "inner sphere is not fully inside the outer one");
      }
      if (coat_c[0] != 0) g.sym_x = g.sym_r = false;
      if (coat_c[1] != 0) g.sym_y = g.sym_r = false;
      if (coat_c[2] != 0) g.sym_z = false;
      coat_r2 = 0.25 * ratio * ratio;
      g.volume_ratio = kPiOver6;
      g.materials = 2;
      desc << "coated sphere; diameter(d):";
      break;
    }
    case DdaShapeKind::capsule:
      expect_params(shape, {1});
      if (!(shape.params[0] >= 0) || !std::isfinite(shape.params[0]))
        fail_option("shape", "cylinder height to diameter ratio h/d must be ≥ 0, got ",
                shape.params[0]);
      hd = shape.params[0] / 2;
      zx = shape.params[0] + 1;
      g.volume_ratio = kPiOver4 * shape.params[0] + kPiOver6;
      desc << "capsule; diameter(d):";
      break;
    case DdaShapeKind::file: break;
  }
  g.description = desc.str();
  const int box_x = grid_x;
  // ADDA FitBox_yz: round to nearest (half away from zero)
  const int auto_y = static_cast<int>(std::lround(yx * box_x));
  const int auto_z = static_cast<int>(std::lround(zx * box_x));
  int box_y = grid_yz[0] ? grid_yz[0] : auto_y;
  int box_z = grid_yz[1] ? grid_yz[1] : auto_z;
  if (box_y < 1 || box_z < 1)
    fail_option("grid", "the particle is too thin along ", box_y < 1 ? "y" : "z",
            " to be described by ", box_x, " dipoles along x; use a larger --grid");
  if (grid_yz[0] || grid_yz[1]) {
    if (auto_y > box_y || auto_z > box_z)
      fail_option("grid", "the particle (", auto_y, "×", auto_z,
              " along y, z) does not fit into the given box ", box_y, "×", box_z);
    // void layers on one side only break the mirror symmetry (ADDA InitShape)
    if ((box_y - auto_y) % 2) g.sym_y = false;
    if ((box_z - auto_z) % 2) g.sym_z = false;
  }
  if (box_y > 65535 || box_z > 65535) fail_option("grid", "box too large");
  if ((box_x - box_y) % 2) g.sym_r = false;  // the 90° rotation must map the lattice onto itself
  g.box = {box_x, box_y, box_z};
  // The grid comes from the user: its dipoles must fit memory before the
  // scan below makes them (the solver's own needs are checked in make_dda_setup).
  const double voxels = double(box_x) * double(box_y) * double(box_z);
  const double filled = g.volume_ratio > 0 ? std::min(1.0, g.volume_ratio) : 1.0;
  require_host_memory({"", 0, "grid", true},
                      detail::concat("the dipole grid ", box_x, "×", box_y, "×", box_z),
                      voxels * filled * (sizeof(g.position[0]) + sizeof(g.material[0])));
  if (before_scan) before_scan(g.box);

  for (int k = 0; k < box_z; ++k)
    for (int j = 0; j < box_y; ++j)
      for (int i = 0; i < box_x; ++i) {
        const double xr = 0.5 * (2 * i + 1 - box_x) / box_x;
        const double yr = 0.5 * (2 * j + 1 - box_y) / box_x;
        const double zr = 0.5 * (2 * k + 1 - box_z) / box_x;
        int mat = -1;
        switch (shape.kind) {
          case DdaShapeKind::sphere:
            if (xr * xr + yr * yr + zr * zr <= 0.25) mat = 0;
            break;
          case DdaShapeKind::ellipsoid:
            if (xr * xr + yr * yr * inv_sq_y + zr * zr * inv_sq_z <= 0.25) mat = 0;
            break;
          case DdaShapeKind::cylinder:
            if (xr * xr + yr * yr <= 0.25 && std::fabs(zr) <= hd) mat = 0;
            break;
          case DdaShapeKind::box:
            if (std::fabs(yr) <= half_y && std::fabs(zr) <= half_z) mat = 0;
            break;
          case DdaShapeKind::coated:
            if (xr * xr + yr * yr + zr * zr <= 0.25) {
              const double dx = xr - coat_c[0], dy = yr - coat_c[1], dz = zr - coat_c[2];
              mat = (dx * dx + dy * dy + dz * dz <= coat_r2) ? 1 : 0;
            }
            break;
          case DdaShapeKind::capsule: {
            const double ro2 = xr * xr + yr * yr;
            if (ro2 <= 0.25) {
              const double t = std::fabs(zr) - hd;
              if (t <= 0 || t * t + ro2 <= 0.25) mat = 0;
            }
            break;
          }
          case DdaShapeKind::file: break;
        }
        if (mat >= 0) {
          g.position.push_back({static_cast<std::uint16_t>(i), static_cast<std::uint16_t>(j),
                                static_cast<std::uint16_t>(k)});
          g.material.push_back(static_cast<std::uint8_t>(mat));
        }
      }
  return g;
}

}  // namespace nanoscatter
