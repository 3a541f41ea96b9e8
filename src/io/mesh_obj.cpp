// Strict Wavefront OBJ reader (mesh_obj.hpp). Only what bounds a volume is
// read: `v` and `f`. Texture coordinates, normals, groups, smoothing and
// materials do not change the form factor: they are checked for form (so
// that a face's vt/vn indices can be checked too) and dropped; `mtllib`
// never opens a file. Everything else is refused with its line rather than
// skipped, since a skipped statement could have carried part of the surface.
#include "io/mesh_obj.hpp"

#include <climits>
#include <cmath>
#include <cstring>
#include <numbers>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "io/mesh_weld.hpp"
#include "io/structure_text.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/whole_number.hpp"

namespace nanoscatter::io {

namespace {

using gisaxs::TriangleMesh;

// How a face writes its corners: i, i/t, i//n or i/t/n.
enum class CornerForm { v, v_t, v_n, v_t_n };
const char* form_name(CornerForm f) {
  switch (f) {
    case CornerForm::v: return "i";
    case CornerForm::v_t: return "i/t";
    case CornerForm::v_n: return "i//n";
    case CornerForm::v_t_n: return "i/t/n";
  }
  return "?";
}

// An index as written (1-based, or negative: counted back from the last one
// defined so far) turned into a 0-based one; `what` is "vertex",
// "texture coordinate" or "normal" (`whats` its plural), `defined` how many
// precede this line.
std::size_t resolve_index(std::string_view token, const char* what, const char* whats, std::size_t defined,
                          const Where& where) {
  const auto k = whole_number(token);
  if (!k) fail_at(where, what, " index '", token, "' is not an integer");
  if (*k == 0) fail_at(where, what, " index 0: indices count from 1 (or back from -1, the last one defined)");
  const long long count = static_cast<long long>(defined);
  if (*k > 0) {
    if (*k > count) fail_at(where, what, " index ", *k, " is past the ", defined, " ", whats, " defined so far");
    return static_cast<std::size_t>(*k - 1);
  }
  if (*k < -count)
    fail_at(where, "relative ", what, " index ", *k, " reaches before the first of the ", defined, " ", whats,
            " defined so far");
  return static_cast<std::size_t>(count + *k);
}

// A polygon is split into the fan (0, i, i+1), which is its surface only if
// it is planar and convex. A non-planar polygon has no one surface (each
// split encloses a different volume, so F(q) would depend on our choice),
// and the fan of a concave or self-crossing polygon covers area outside it
// and overlaps itself, which validate_mesh cannot always see. Both are
// refused with the line, so the user splits such a face where it was meant.
void check_polygon(const std::vector<Vec3>& p, const Where& where) {
  const std::size_t n = p.size();
  // Newell's normal: twice the vector area, robust for any simple polygon;
  // summed about the first corner, not the origin, so that a small polygon
  // far from the origin loses no digits. Size: the bounding box's diagonal.
  Vec3 normal, centre, lo = p[0], hi = p[0];
  for (std::size_t i = 0; i < n; ++i) {
    normal = normal + cross(p[i] - p[0], p[(i + 1) % n] - p[0]);
    centre = centre + p[i] / double(n);
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], p[i][k]);
      hi[k] = std::max(hi[k], p[i][k]);
    }
  }
  const double diameter = norm(hi - lo);
  const double largest = std::max({std::abs(lo.x), std::abs(lo.y), std::abs(lo.z), hi.x, hi.y, hi.z});
  const double area2 = norm(normal);
  if (!std::isfinite(area2) || !std::isfinite(diameter))
    fail_at(where, "the polygon's coordinates are too large to check that it is planar and convex");
  if (!(area2 > 1e-12 * diameter * diameter))
    fail_at(where, "the ", n, " corners of the polygon enclose no area (they lie on one line or cross over)");
  const Vec3 axis = normal / area2;
  // Numbers in files carry ~6 significant digits (float32, printf's %g):
  // tolerate that rounding of the coordinates and of the polygon's size.
  const double tolerance = 1e-5 * (diameter + largest);
  for (std::size_t i = 0; i < n; ++i) {
    const double off = std::abs(dot(p[i] - centre, axis));
    if (off > tolerance)
      fail_at(where, "the polygon is not planar: corner ", i + 1, " lies ", off, " off its plane (polygon size ",
              diameter, "); split it into triangles in the file");
  }
  // Convex: every corner turns the same way about the normal (a corner on
  // the line of its neighbours within the tolerance counts as straight), and
  // the turns add up to one revolution (a star turns the same way at every
  // corner but twice round).
  double turning = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 in = p[i] - p[(i + n - 1) % n], out = p[(i + 1) % n] - p[i];
    const double turn = dot(cross(in, out), axis);
    if (turn < -tolerance * norm(in + out))
      fail_at(where, "the polygon is not convex at corner ", i + 1,
              ": its fan of triangles would not be its surface; split it into triangles in the file");
    turning += std::atan2(turn, dot(in, out));
  }
  if (!(std::abs(turning - 2 * std::numbers::pi) <= 1))
    fail_at(where, "the polygon is not convex (its edges wind ", turning / (2 * std::numbers::pi),
            " times round or turn back): split it into triangles in the file");
}

}  // namespace

TriangleMesh read_obj_mesh(const std::string& path) {
  const std::vector<std::string> lines = read_lines(path);
  std::vector<Vec3> positions;  // every `v`, in file order
  std::size_t texture_coordinates = 0, normals = 0;
  std::vector<std::array<std::size_t, 3>> faces;  // into positions
  std::vector<std::size_t> corners;
  std::vector<Vec3> polygon;
  for (std::size_t l = 0; l < lines.size(); ++l) {
    std::string_view text = lines[l];
    if (const auto hash = text.find('#'); hash != std::string_view::npos) text = text.substr(0, hash);
    const std::vector<std::string_view> tokens = split_whitespace(text);
    if (tokens.empty()) continue;
    const int line = l + 1 > std::size_t(INT_MAX) ? INT_MAX : int(l + 1);
    const std::string keyword(tokens[0]);
    const Where where{path, line, keyword};
    if (tokens.back().back() == '\\')
      fail_at(where, "continued lines ('\\' at the end) are not supported: join them");
    const std::size_t args = tokens.size() - 1;
    if (keyword == "v") {
      // x y z, and an optional weight w that only rational curves use.
      if (args != 3 && args != 4) fail_at(where, "takes x y z [w], got ", args, " number(s)");
      const Vec3 v{parse_finite(tokens[1], where), parse_finite(tokens[2], where), parse_finite(tokens[3], where)};
      if (args == 4) parse_finite(tokens[4], where);
      if (positions.size() >= std::size_t(INT_MAX)) fail_at(where, "more vertices than a mesh can index");
      positions.push_back(v);
    } else if (keyword == "vt") {
      if (args < 1 || args > 3) fail_at(where, "takes u [v [w]], got ", args, " number(s)");
      for (std::size_t i = 1; i <= args; ++i) parse_finite(tokens[i], where);
      ++texture_coordinates;
    } else if (keyword == "vn") {
      if (args != 3) fail_at(where, "takes i j k, got ", args, " number(s)");
      for (std::size_t i = 1; i <= args; ++i) parse_finite(tokens[i], where);
      ++normals;
    } else if (keyword == "f") {
      if (args < 3) fail_at(where, "a face needs at least 3 corners, got ", args);
      corners.clear();
      std::optional<CornerForm> face_form;
      for (std::size_t i = 1; i <= args; ++i) {
        const std::string_view corner = tokens[i];
        const std::size_t s1 = corner.find('/');
        const std::size_t s2 = s1 == std::string_view::npos ? s1 : corner.find('/', s1 + 1);
        if (s2 != std::string_view::npos && corner.find('/', s2 + 1) != std::string_view::npos)
          fail_at(where, "corner '", corner, "' has more than three parts (i, i/t, i//n or i/t/n)");
        const std::string_view v = corner.substr(0, s1);
        const std::string_view t = s1 == std::string_view::npos   ? std::string_view{}
                                   : s2 == std::string_view::npos ? corner.substr(s1 + 1)
                                                                  : corner.substr(s1 + 1, s2 - s1 - 1);
        const std::string_view n = s2 == std::string_view::npos ? std::string_view{} : corner.substr(s2 + 1);
        const CornerForm form = s1 == std::string_view::npos   ? CornerForm::v
                                : s2 == std::string_view::npos ? CornerForm::v_t
                                : t.empty()                    ? CornerForm::v_n
                                                               : CornerForm::v_t_n;
        if ((form == CornerForm::v_t && t.empty()) || (s2 != std::string_view::npos && n.empty()) || v.empty())
          fail_at(where, "corner '", corner, "' is not of the form i, i/t, i//n or i/t/n");
        if (face_form && *face_form != form)
          fail_at(where, "corner '", corner, "' is written ", form_name(form), " but the face's first corner ",
                  form_name(*face_form), " (one form per face)");
        face_form = form;
        corners.push_back(resolve_index(v, "vertex", "vertices", positions.size(), where));
        if (!t.empty()) resolve_index(t, "texture coordinate", "texture coordinates", texture_coordinates, where);
        if (!n.empty()) resolve_index(n, "normal", "normals", normals, where);
      }
      if (corners.size() > 3) {
        polygon.clear();
        for (std::size_t c : corners) polygon.push_back(positions[c]);
        check_polygon(polygon, where);
      }
      for (std::size_t i = 1; i + 1 < corners.size(); ++i) faces.push_back({corners[0], corners[i], corners[i + 1]});
    } else if (keyword == "l" || keyword == "p") {
      fail_at(where, "lines and points bound no volume: a particle mesh takes faces (f) only");
    } else if (keyword == "o" || keyword == "g" || keyword == "s" || keyword == "usemtl" || keyword == "mtllib") {
      // Names, smoothing groups and materials: nothing of the surface.
    } else {
      fail_at(where, "unknown or unsupported statement (a mesh takes v, f, and ignores vt, vn, o, g, s, usemtl, ",
              "mtllib)");
    }
  }
  if (faces.empty()) fail_at({path, 0, "file"}, "the mesh has no triangles (no f statement)");

  // The vertices that faces use, in file order, welded; unused ones would
  // still move place_mesh's bounding box.
  std::vector<char> used(positions.size(), 0);
  for (const auto& f : faces)
    for (std::size_t c : f) used[c] = 1;
  TriangleMesh mesh;
  mesh.source = path;
  std::vector<int> welded(positions.size(), -1);
  VertexWelder weld(mesh.vertices);
  for (std::size_t i = 0; i < positions.size(); ++i)
    if (used[i]) welded[i] = weld.index(positions[i].x, positions[i].y, positions[i].z);
  mesh.triangles.reserve(faces.size());
  for (const auto& f : faces) mesh.triangles.push_back({welded[f[0]], welded[f[1]], welded[f[2]]});
  return mesh;
}

}  // namespace nanoscatter::io
