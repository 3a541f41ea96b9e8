// Mask shapes: containment of a point and their application to a mask
// (coordinates and conventions in mask.hpp).
#include <algorithm>
#include <cmath>

#include "nanoscatter/error.hpp"
#include "nanoscatter/mask.hpp"

namespace nanoscatter {
namespace {

constexpr std::size_t kPolygonMinVertices = 3;

Where shape_where(const MaskShape& s, const char* field) { return Where{s.origin, 0, field}; }

bool all_finite(std::initializer_list<double> values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

// Even–odd rule (W. R. Franklin's PNPOLY crossing test); a point on an
// edge counts as inside, so that "boundary included" holds for polygons too.
bool polygon_contains(const std::vector<std::array<double, 2>>& v, double x, double y) {
  bool inside = false;
  for (std::size_t i = 0, j = v.size() - 1; i < v.size(); j = i++) {
    const double xi = v[i][0], yi = v[i][1], xj = v[j][0], yj = v[j][1];
    // On the segment (collinear and within its box)?
    const double cross = (xj - xi) * (y - yi) - (yj - yi) * (x - xi);
    if (cross == 0 && x >= std::min(xi, xj) && x <= std::max(xi, xj) && y >= std::min(yi, yj) &&
        y <= std::max(yi, yj))
      return true;
    if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

}  // namespace

MaskShapeKind parse_mask_shape_kind(const std::string& name) {
  if (name == "rectangle") return MaskShapeKind::rectangle;
  if (name == "polygon") return MaskShapeKind::polygon;
  if (name == "circle") return MaskShapeKind::circle;
  fail_option("type", "unknown mask shape '", name, "' (expected rectangle, polygon or circle)");
}

MaskUnit parse_mask_unit(const std::string& name) {
  if (name == "px") return MaskUnit::pixel;
  if (name == "mm") return MaskUnit::millimetre;
  fail_option("unit", "unknown unit '", name, "' (expected px or mm)");
}

void MaskShape::validate() const {
  switch (kind) {
    case MaskShapeKind::rectangle:
      if (!all_finite({x_min, x_max, y_min, y_max})) fail_at(shape_where(*this, "x"), "rectangle corners must be finite");
      if (x_min > x_max || y_min > y_max) fail_at(shape_where(*this, "x"), "rectangle needs min <= max along x and y");
      break;
    case MaskShapeKind::circle:
      if (!all_finite({centre_x, centre_y, radius}) || radius < 0)
        fail_at(shape_where(*this, "radius"), "circle needs a finite centre and a radius >= 0");
      break;
    case MaskShapeKind::polygon:
      if (vertices.size() < kPolygonMinVertices)
        fail_at(shape_where(*this, "points"), "polygon needs at least 3 vertices, got ", vertices.size());
      for (const auto& p : vertices)
        if (!all_finite({p[0], p[1]})) fail_at(shape_where(*this, "points"), "polygon vertices must be finite");
      break;
  }
}

bool shape_contains(const MaskShape& s, double x, double y) {
  switch (s.kind) {
    case MaskShapeKind::rectangle: return x >= s.x_min && x <= s.x_max && y >= s.y_min && y <= s.y_max;
    case MaskShapeKind::circle: {
      const double dx = x - s.centre_x, dy = y - s.centre_y;
      return dx * dx + dy * dy <= s.radius * s.radius;
    }
    case MaskShapeKind::polygon: return polygon_contains(s.vertices, x, y);
  }
  return false;
}

void apply(DetectorMask& mask, const std::vector<MaskShape>& shapes, const MaskGeometry& geometry) {
  for (const MaskShape& s : shapes) {
    s.validate();
    if (s.unit == MaskUnit::millimetre &&
        !(geometry.pixel_size_x_mm > 0 && geometry.pixel_size_y_mm > 0 &&
          std::isfinite(geometry.pixel_size_x_mm) && std::isfinite(geometry.pixel_size_y_mm)))
      fail_at(shape_where(s, "unit"), "a shape in mm needs the pixel size (> 0 mm along x and y)");
  }
  // The centre of pixel (r, c) in a shape's unit and the geometry's origin.
  auto point = [&](const MaskShape& s, std::size_t r, std::size_t c) {
    std::array<double, 2> p{double(c), double(r)};
    if (geometry.origin == MaskOrigin::lower_left) p = {double(c) + 0.5, double(mask.rows - 1 - r) + 0.5};
    if (s.unit == MaskUnit::millimetre) p = {p[0] * geometry.pixel_size_x_mm, p[1] * geometry.pixel_size_y_mm};
    return p;
  };
  const bool any_roi = std::any_of(shapes.begin(), shapes.end(), [](const MaskShape& s) { return s.keep_inside; });
  for (std::size_t r = 0; r < mask.rows; ++r)
    for (std::size_t c = 0; c < mask.cols; ++c) {
      std::uint8_t& use = mask.use[r * mask.cols + c];
      if (!use) continue;
      bool in_roi = !any_roi;
      for (const MaskShape& s : shapes) {
        const auto p = point(s, r, c);
        const bool inside = shape_contains(s, p[0], p[1]);
        if (s.keep_inside) in_roi = in_roi || inside;
        else if (inside) use = 0;
      }
      if (!in_roi) use = 0;
    }
}

MaskOrigin parse_mask_origin(const std::string& name) {
  if (name == "image") return MaskOrigin::image;
  if (name == "lower_left") return MaskOrigin::lower_left;
  fail_option("origin", "unknown origin '", name, "' (image, lower_left)");
}

}  // namespace nanoscatter
