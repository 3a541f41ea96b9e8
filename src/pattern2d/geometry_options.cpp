// The geometry as the front ends give it, value by value, made into a
// Pattern2DGeometry (pattern2d.hpp): which values go together here, the
// values themselves in validate_geometry. Messages name the fields, which
// are the CLI's flags and Python's keywords.
#include <array>
#include <cstddef>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/pattern2d.hpp"

namespace nanoscatter {

namespace {

// A list-valued field holds `count` values, or none (not given).
void require_values(const std::vector<double>& values, std::size_t count, const char* field, const char* what) {
  if (!values.empty() && values.size() != count)
    fail_option(field, "expected ", count, " values (", what, "), got ", values.size());
}

struct Given {
  const char* field;
  bool given;
};

Detector detector(const Pattern2DGeometryOptions& o) {
  const Given polar[] = {{"qmax", o.qmax.has_value()}, {"nq", o.nq.has_value()}, {"nphi", o.nphi.has_value()}};
  const Given flat[] = {{"distance", o.distance.has_value()},
                        {"pixel_size", o.pixel_size.has_value()},
                        {"nx", o.nx.has_value()},
                        {"ny", o.ny.has_value()}};
  if (o.flat) {
    for (const auto& [field, given] : polar)
      if (given) fail_option(field, "not used with a flat detector");
    for (const auto& [field, given] : flat)
      if (!given) fail_option(field, "required with a flat detector");
    FlatDetector d{*o.distance, *o.pixel_size, *o.nx, *o.ny, std::nullopt};
    // Pixel i spans [i, i + 1) from the corner, so its centre, where
    // FlatDetector counts from, lies half a pixel in.
    constexpr double kHalfPixel = 0.5;
    if (!o.direct_beam.empty())
      d.beam_center = std::array<double, 2>{o.direct_beam[0] - kHalfPixel, o.direct_beam[1] - kHalfPixel};
    return d;
  }
  for (const auto& [field, given] : flat)
    if (given) fail_option(field, "only used with a flat detector");
  if (!o.direct_beam.empty()) fail_option("direct_beam", "only used with a flat detector");
  for (const auto& [field, given] : polar)
    if (!given) fail_option(field, "required for the polar detector (or set flat for a flat detector)");
  return PolarDetector{*o.qmax, *o.nq, *o.nphi};
}

}  // namespace

Pattern2DGeometry make_pattern2d_geometry(const Pattern2DGeometryOptions& o) {
  require_values(o.euler_zyz, 3, "euler_zyz", "α β γ, degrees");
  require_values(o.rotation, 9, "rotation", "the matrix row by row");
  require_values(o.beam, 3, "beam", "x y z");
  require_values(o.direct_beam, 2, "direct_beam", "x y, pixels from the lower-left corner");
  Pattern2DGeometry g;
  if (!o.wavelength) fail_option("wavelength", "required (Å)");
  g.wavelength = *o.wavelength;
  if (!o.euler_zyz.empty() && !o.rotation.empty())
    fail_option("rotation", "the orientation is given twice (Euler angles and a rotation matrix); give one");
  if (!o.euler_zyz.empty()) g.orientation = rotation_zyz_degrees(o.euler_zyz[0], o.euler_zyz[1], o.euler_zyz[2]);
  if (!o.rotation.empty())
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) g.orientation.row[i][j] = o.rotation[std::size_t(3 * i + j)];
  if (!o.beam.empty()) g.beam_direction = {o.beam[0], o.beam[1], o.beam[2]};
  g.curvature = !o.no_curvature;
  g.detector = detector(o);
  validate_geometry(g);
  return g;
}

}  // namespace nanoscatter
