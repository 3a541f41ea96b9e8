// Masks from a mask file and from an image's own values (mask.hpp).
#include <algorithm>
#include <cmath>

#include "nanoscatter/error.hpp"
#include "nanoscatter/mask.hpp"

namespace nanoscatter {

std::size_t DetectorMask::used() const { return std::size_t(std::count(use.begin(), use.end(), std::uint8_t(1))); }

DetectorMask full_mask(std::size_t rows, std::size_t cols) { return DetectorMask{rows, cols, std::vector<std::uint8_t>(rows * cols, 1)}; }

MaskFileMeaning parse_mask_file_meaning(const std::string& name) {
  if (name == "masked") return MaskFileMeaning::nonzero_masked;
  if (name == "used") return MaskFileMeaning::nonzero_used;
  fail_option("nonzero", "unknown meaning '", name, "' (expected masked or used)");
}

DetectorMask mask_from_image(const DetectorImage& image, MaskFileMeaning meaning) {
  DetectorMask mask = full_mask(image.rows, image.cols);
  for (std::size_t i = 0; i < image.values.size(); ++i) {
    const double v = image.values[i];
    const bool nonzero = v != 0;
    mask.use[i] = !std::isnan(v) && (meaning == MaskFileMeaning::nonzero_used ? nonzero : !nonzero);
  }
  return mask;
}

DetectorMask read_detector_mask(const std::string& spec, MaskFileMeaning meaning, const DetectorReadOptions& options) {
  return mask_from_image(read_detector_image(spec, options), meaning);
}

void ValueMaskOptions::validate() const {
  if (saturation && std::isnan(*saturation)) fail_option("saturation", "must be a number, not NaN");
}

DetectorMask mask_from_values(const DetectorImage& image, const ValueMaskOptions& options) {
  options.validate();
  DetectorMask mask = full_mask(image.rows, image.cols);
  for (std::size_t i = 0; i < image.values.size(); ++i) {
    const double v = image.values[i];
    const bool bad = std::isnan(v) || (options.mask_negative && v < 0) || (options.saturation && v >= *options.saturation);
    mask.use[i] = !bad;
  }
  return mask;
}

}  // namespace nanoscatter
