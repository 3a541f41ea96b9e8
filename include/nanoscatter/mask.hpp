// Detector masks: which pixels of a DetectorImage take part (1 = use,
// 0 = masked), built from a mask file, from the image's own values (module
// gaps, saturation, NaN) and from shapes (rectangles, polygons, circles such
// as a beamstop; or the inverse, a region of interest).
//
// Shape coordinates (MaskGeometry::origin): by default x along a row
// (column index), y down the columns (row index, row 0 = top as in
// detector_image.hpp); in pixels, pixel (r, c) has its centre at (x, y) =
// (c, r); in millimetres, (x, y) = (c·px, r·py) with the pixel sizes of
// MaskGeometry, the same origin. With origin lower_left, coordinates are the
// detector's from its lower-left corner (see MaskOrigin). A pixel is inside
// a shape when its centre is (boundary included).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nanoscatter/detector_image.hpp"

namespace nanoscatter {

class ConfigTable;

struct DetectorMask {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<std::uint8_t> use;  // row-major; 1 = use the pixel, 0 = masked
  std::size_t used() const;
  bool at(std::size_t r, std::size_t c) const { return use[r * cols + c] != 0; }
};

// All pixels used.
DetectorMask full_mask(std::size_t rows, std::size_t cols);

// What a nonzero pixel of a mask file means. Conventions differ between
// tools (pyFAI: nonzero = masked; many beamline masks: 1 = valid), so the
// caller says which.
enum class MaskFileMeaning { nonzero_masked, nonzero_used };
MaskFileMeaning parse_mask_file_meaning(const std::string& name);  // "masked" | "used"

DetectorMask mask_from_image(const DetectorImage& image, MaskFileMeaning meaning);
// Any format read_detector_image reads. A NaN pixel of the file is masked.
DetectorMask read_detector_mask(const std::string& spec, MaskFileMeaning meaning,
                                const DetectorReadOptions& options = {});

// Masks from the measured values: NaN is always masked; negative values
// are the module gaps and dead pixels of Pilatus/Eiger (-1, -2).
struct ValueMaskOptions {
  bool mask_negative = true;
  std::optional<double> saturation;  // values >= saturation are masked
  void validate() const;
};
DetectorMask mask_from_values(const DetectorImage& image, const ValueMaskOptions& options = {});

enum class MaskShapeKind { rectangle, polygon, circle };
enum class MaskUnit { pixel, millimetre };
MaskShapeKind parse_mask_shape_kind(const std::string& name);  // "rectangle" | "polygon" | "circle"
MaskUnit parse_mask_unit(const std::string& name);             // "px" | "mm"

struct MaskShape {
  MaskShapeKind kind = MaskShapeKind::rectangle;
  MaskUnit unit = MaskUnit::pixel;
  // false: the pixels inside are masked (beamstop, bad region).
  // true: region of interest; pixels outside every such shape are masked.
  bool keep_inside = false;
  double x_min = 0, x_max = 0, y_min = 0, y_max = 0;   // rectangle
  double centre_x = 0, centre_y = 0, radius = 0;       // circle
  std::vector<std::array<double, 2>> vertices;         // polygon (x, y), ≥ 3, closed implicitly
  std::string origin;  // where it was defined ("mask.toml:7"), for messages
  void validate() const;
};

// Where shape coordinates start.
//  - image: x = column, y = row of the image as stored (row 0 = top), pixel
//    centres on whole numbers (as NumPy/pyFAI index an array);
//  - lower_left: x, y from the detector's lower-left corner, y upwards,
//    pixel edges on whole numbers, so pixel column c spans [c, c + 1) and
//    its centre is c + 0.5 (BornAgain's and GALAXI's detector coordinates,
//    also in mm: [c·px, (c + 1)·px)).
enum class MaskOrigin { image, lower_left };
MaskOrigin parse_mask_origin(const std::string& name);  // "image" | "lower_left"

// Pixel sizes for shapes given in millimetres, and the coordinates' origin.
struct MaskGeometry {
  double pixel_size_x_mm = 0;
  double pixel_size_y_mm = 0;
  MaskOrigin origin = MaskOrigin::image;
};

// Whether the point (x, y), in the shape's own unit, lies inside it.
bool shape_contains(const MaskShape& shape, double x, double y);

// Applies the shapes: regions of interest first (pixels outside all of
// them masked), then every masking shape. Pixels already masked stay so.
void apply(DetectorMask& mask, const std::vector<MaskShape>& shapes, const MaskGeometry& geometry);

// [[<key>]] tables of a TOML file (a fit file's [mask] section, say):
//   type = "rectangle" | "polygon" | "circle"   unit = "px" (default) | "mm"
//   keep_inside = false (default) | true
//   rectangle: x = [x_min, x_max], y = [y_min, y_max]
//   circle:    centre = [x, y], radius = r
//   polygon:   points = [x0, y0, x1, y1, x2, y2, ...]
// Errors name file:line and the key.
std::vector<MaskShape> mask_shapes_from_config(const ConfigTable& table, const std::string& key = "shape");

}  // namespace nanoscatter
