// Mask shapes from [[shape]] tables of a TOML file (mask.hpp): every error
// names file:line and the key, through ConfigTable.
#include "nanoscatter/config.hpp"
#include "nanoscatter/mask.hpp"

namespace nanoscatter {
namespace {

constexpr std::size_t kPairSize = 2;

std::array<double, 2> pair_of(const ConfigTable& t, const char* key) {
  const std::vector<double> v = t.get_array_of_doubles(key);
  if (v.size() != kPairSize) fail_at(t.where(key), "expected two numbers, got ", v.size());
  return {v[0], v[1]};
}

// A parse_* error names the key only; give it the table's file and line.
template <class F>
auto parsed(const ConfigTable& t, const char* key, F parse, const std::string& fallback) {
  const std::string text = t.get_string_or(key, fallback);
  try {
    return parse(text);
  } catch (const Error& e) {
    fail_at(t.where(key), e.reason());
  }
}

std::string line_origin(const Where& w) { return w.file + (w.line ? ":" + std::to_string(w.line) : ""); }

}  // namespace

std::vector<MaskShape> mask_shapes_from_config(const ConfigTable& table, const std::string& key) {
  std::vector<MaskShape> shapes;
  if (!table.has(key)) return shapes;
  for (const ConfigTable& t : table.get_array_of_tables(key)) {
    MaskShape s;
    s.origin = line_origin(t.where());
    if (!t.has("type")) fail_at(t.where("type"), "missing; expected rectangle, polygon or circle");
    s.kind = parsed(t, "type", parse_mask_shape_kind, "");
    s.unit = parsed(t, "unit", parse_mask_unit, "px");
    s.keep_inside = t.get_bool_or("keep_inside", false);
    switch (s.kind) {
      case MaskShapeKind::rectangle: {
        t.check_keys({"type", "unit", "keep_inside", "x", "y"});
        const auto x = pair_of(t, "x"), y = pair_of(t, "y");
        s.x_min = x[0], s.x_max = x[1], s.y_min = y[0], s.y_max = y[1];
        if (s.x_min > s.x_max) fail_at(t.where("x"), "expected [min, max]");
        if (s.y_min > s.y_max) fail_at(t.where("y"), "expected [min, max]");
        break;
      }
      case MaskShapeKind::circle: {
        t.check_keys({"type", "unit", "keep_inside", "centre", "radius"});
        const auto c = pair_of(t, "centre");
        s.centre_x = c[0], s.centre_y = c[1];
        s.radius = t.get_double("radius");
        if (s.radius < 0) fail_at(t.where("radius"), "must be >= 0");
        break;
      }
      case MaskShapeKind::polygon: {
        t.check_keys({"type", "unit", "keep_inside", "points"});
        const std::vector<double> p = t.get_array_of_doubles("points");
        if (p.size() % kPairSize != 0 || p.size() < 3 * kPairSize)
          fail_at(t.where("points"), "expected x, y pairs of at least 3 vertices, got ", p.size(), " numbers");
        for (std::size_t i = 0; i < p.size(); i += kPairSize) s.vertices.push_back({p[i], p[i + 1]});
        break;
      }
    }
    s.validate();
    shapes.push_back(std::move(s));
  }
  return shapes;
}

}  // namespace nanoscatter
