// Detector masks (mask.hpp): shapes in pixels and millimetres against
// brute-force point tests on random shapes (polygons by the winding
// number, independent of the library's crossing rule), value masks, mask
// files, and [[shape]] tables with file:line errors.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "nanoscatter/config.hpp"
#include "nanoscatter/mask.hpp"
#include "property_seed.hpp"

namespace nanoscatter {
namespace {

// Winding number of a closed polygon around (x, y) by summed angles.
bool winding_inside(const std::vector<std::array<double, 2>>& v, double x, double y) {
  double total = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto& a = v[i];
    const auto& b = v[(i + 1) % v.size()];
    total += std::atan2((a[0] - x) * (b[1] - y) - (a[1] - y) * (b[0] - x),
                        (a[0] - x) * (b[0] - x) + (a[1] - y) * (b[1] - y));
  }
  return std::abs(total) > std::numbers::pi;
}

// A random star-shaped polygon (vertices at sorted angles, random radii):
// concave in general, never self-intersecting.
MaskShape random_polygon(std::mt19937_64& rng, double cx, double cy, double scale) {
  std::uniform_real_distribution<double> angle(0, 2 * std::numbers::pi), radius(0.2 * scale, scale);
  const int n = std::uniform_int_distribution<int>(3, 9)(rng);
  std::vector<double> angles(static_cast<std::size_t>(n));
  for (auto& a : angles) a = angle(rng);
  std::sort(angles.begin(), angles.end());
  MaskShape s;
  s.kind = MaskShapeKind::polygon;
  for (double a : angles) {
    const double r = radius(rng);
    s.vertices.push_back({cx + r * std::cos(a), cy + r * std::sin(a)});
  }
  return s;
}

// Random non-integral coordinates keep pixel centres off the boundaries,
// where the two rules may differ by rounding.
MaskShape random_shape(std::mt19937_64& rng, double width, double height) {
  std::uniform_real_distribution<double> ux(0, width), uy(0, height);
  MaskShape s;
  switch (std::uniform_int_distribution<int>(0, 2)(rng)) {
    case 0: {
      s.kind = MaskShapeKind::rectangle;
      double a = ux(rng), b = ux(rng), c = uy(rng), d = uy(rng);
      s.x_min = std::min(a, b), s.x_max = std::max(a, b), s.y_min = std::min(c, d), s.y_max = std::max(c, d);
      break;
    }
    case 1:
      s.kind = MaskShapeKind::circle;
      s.centre_x = ux(rng), s.centre_y = uy(rng), s.radius = 0.4 * std::uniform_real_distribution<double>(0, width)(rng);
      break;
    default: s = random_polygon(rng, ux(rng), uy(rng), 0.5 * width);
  }
  return s;
}

bool brute_inside(const MaskShape& s, double x, double y) {
  switch (s.kind) {
    case MaskShapeKind::rectangle: return s.x_min <= x && x <= s.x_max && s.y_min <= y && y <= s.y_max;
    case MaskShapeKind::circle: return std::hypot(x - s.centre_x, y - s.centre_y) <= s.radius;
    default: return winding_inside(s.vertices, x, y);
  }
}

TEST(DetectorMask, PropertyShapesInPixelsAndMillimetres) {
  for (int k = 0; k < test::property_cases(20); ++k) {
    const std::uint64_t seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    const std::size_t rows = std::uniform_int_distribution<std::size_t>(5, 60)(rng);
    const std::size_t cols = std::uniform_int_distribution<std::size_t>(5, 60)(rng);
    const bool lower_left = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
    const MaskGeometry g{std::uniform_real_distribution<double>(0.05, 0.2)(rng),
                         std::uniform_real_distribution<double>(0.05, 0.2)(rng),
                         lower_left ? MaskOrigin::lower_left : MaskOrigin::image};
    const bool mm = std::uniform_int_distribution<int>(0, 1)(rng) == 1;  // from the seed: a printed seed replays its case
    const double sx = mm ? g.pixel_size_x_mm : 1, sy = mm ? g.pixel_size_y_mm : 1;
    std::vector<MaskShape> shapes;
    const int n = std::uniform_int_distribution<int>(1, 4)(rng);
    for (int i = 0; i < n; ++i) {
      MaskShape s = random_shape(rng, double(cols) * sx, double(rows) * sy);
      s.unit = mm ? MaskUnit::millimetre : MaskUnit::pixel;
      s.keep_inside = std::uniform_int_distribution<int>(0, 3)(rng) == 0;
      shapes.push_back(s);
    }
    DetectorMask mask = full_mask(rows, cols);
    apply(mask, shapes, g);
    const bool any_roi = std::any_of(shapes.begin(), shapes.end(), [](const MaskShape& s) { return s.keep_inside; });
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c) {
        // Pixel centres: on whole numbers from the top-left (image), or
        // half-way between edges counted from the lower-left corner.
        const double x = (lower_left ? double(c) + 0.5 : double(c)) * sx;
        const double y = (lower_left ? double(rows - 1 - r) + 0.5 : double(r)) * sy;
        bool in_roi = !any_roi, masked = false;
        for (const MaskShape& s : shapes) {
          const bool inside = brute_inside(s, x, y);
          if (s.keep_inside) in_roi = in_roi || inside;
          else masked = masked || inside;
        }
        ASSERT_EQ(mask.at(r, c), in_roi && !masked) << "pixel (" << r << ", " << c << ")";
      }
  }
}

TEST(DetectorMask, FromValuesAndFiles) {
  DetectorImage img{2, 3, {-1, 0, 5, std::nan(""), 100, 99.5}, "x", "text", {}};
  ValueMaskOptions o;
  o.saturation = 100;
  const DetectorMask m = mask_from_values(img, o);
  EXPECT_EQ(m.use, (std::vector<std::uint8_t>{0, 1, 1, 0, 0, 1}));
  EXPECT_EQ(m.used(), 3u);
  o.mask_negative = false;
  EXPECT_EQ(mask_from_values(img, o).use, (std::vector<std::uint8_t>{1, 1, 1, 0, 0, 1}));
  EXPECT_EQ(mask_from_image(img, MaskFileMeaning::nonzero_masked).use,
            (std::vector<std::uint8_t>{0, 1, 0, 0, 0, 0}));
  EXPECT_EQ(mask_from_image(img, MaskFileMeaning::nonzero_used).use,
            (std::vector<std::uint8_t>{1, 0, 1, 0, 1, 1}));
  EXPECT_EQ(parse_mask_file_meaning("used"), MaskFileMeaning::nonzero_used);
  EXPECT_THROW(parse_mask_file_meaning("yes"), Error);
}

TEST(DetectorMask, ShapesFromConfig) {
  const ConfigTable t = parse_config(R"(
[mask]
[[mask.shape]]
type = "circle"
centre = [10, 10]
radius = 3

[[mask.shape]]
type = "rectangle"
unit = "mm"
x = [0, 1]
y = [0, 0.5]

[[mask.shape]]
type = "polygon"
keep_inside = true
points = [0, 0, 20, 0, 20, 20]
)", "fit.toml");
  const auto shapes = mask_shapes_from_config(t.get_table("mask"));
  ASSERT_EQ(shapes.size(), 3u);
  EXPECT_EQ(shapes[0].kind, MaskShapeKind::circle);
  EXPECT_EQ(shapes[0].radius, 3);
  EXPECT_EQ(shapes[1].unit, MaskUnit::millimetre);
  EXPECT_EQ(shapes[1].x_max, 1);
  EXPECT_TRUE(shapes[2].keep_inside);
  EXPECT_EQ(shapes[2].vertices.size(), 3u);

  auto error_of = [](const std::string& text) {
    try {
      mask_shapes_from_config(parse_config(text, "fit.toml"));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(error_of("[[shape]]\ntype = \"star\"\n"),
            "fit.toml:2: shape[0].type: unknown mask shape 'star' (expected rectangle, polygon or circle)");
  EXPECT_EQ(error_of("[[shape]]\ntype = \"circle\"\ncentre = [1]\nradius = 2\n"),
            "fit.toml:3: shape[0].centre: expected two numbers, got 1");
  EXPECT_EQ(error_of("[[shape]]\ntype = \"polygon\"\npoints = [0, 0, 1, 1]\n"),
            "fit.toml:3: shape[0].points: expected x, y pairs of at least 3 vertices, got 4 numbers");
  EXPECT_NE(error_of("[[shape]]\ntype = \"rectangle\"\nx = [0, 1]\ny = [0, 1]\nradius = 1\n").find("fit.toml:5"),
            std::string::npos);

  // mm shapes need the pixel size.
  DetectorMask m = full_mask(4, 4);
  EXPECT_THROW(apply(m, shapes, MaskGeometry{}), Error);
}

}  // namespace
}  // namespace nanoscatter
