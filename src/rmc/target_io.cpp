// Target images: reading (the detector formats of read_detector_image, or a
// text matrix), the mask, layout, square crop and crop/rebin to the model
// size (rmc.hpp).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include "nanoscatter/detector_image.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/io_text.hpp"
#include "nanoscatter/rmc.hpp"

namespace nanoscatter {
namespace {

std::string lower_extension(const std::string& file) {
  std::string ext = std::filesystem::path(file).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

bool is_hdf5_extension(const std::string& ext) { return ext == ".h5" || ext == ".hdf5" || ext == ".nxs" || ext == ".hdf"; }

// The file part of "file.h5:/dataset" (a colon only separates a dataset
// after an HDF5 file name).
std::string file_part(const std::string& spec) {
  const auto colon = spec.find(':');
  if (colon != std::string::npos && is_hdf5_extension(lower_extension(spec.substr(0, colon))))
    return spec.substr(0, colon);
  return spec;
}

// The window [first, first + size) of an image's rows/cols, centred on the
// zero-q pixel `centre` (M/2) so that it becomes the window's size/2.
std::size_t window_start(std::size_t centre, std::size_t size) { return centre - size / 2; }

Image2D sub_image(const Image2D& img, std::size_t r0, std::size_t c0, std::size_t rows, std::size_t cols) {
  Image2D out;
  out.rows = rows;
  out.cols = cols;
  out.data.resize(rows * cols);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) out.data[r * cols + c] = img.at(r0 + r, c0 + c);
  return out;
}

Image2D fftshift(const Image2D& img) {
  Image2D out = img;
  for (std::size_t r = 0; r < img.rows; ++r)
    for (std::size_t c = 0; c < img.cols; ++c)
      out.data[((r + img.rows / 2) % img.rows) * img.cols + (c + img.cols / 2) % img.cols] = img.at(r, c);
  return out;
}

std::string shape(const Image2D& img) { return std::to_string(img.rows) + "×" + std::to_string(img.cols); }

}  // namespace

TargetLayout parse_target_layout(const std::string& name) {
  if (name == "centred" || name == "centered") return TargetLayout::centred;
  if (name == "fft") return TargetLayout::fft;
  fail_option("layout", "unknown layout '", name, "' (expected centred or fft)");
}

Resample parse_resample(const std::string& name) {
  if (name == "crop") return Resample::crop;
  if (name == "rebin") return Resample::rebin;
  fail_option("resample", "unknown resampling '", name, "' (expected crop or rebin)");
}

std::size_t RmcTarget::used_pixels() const {
  return std::size_t(std::count_if(intensity.begin(), intensity.end(), [](double v) { return !std::isnan(v); }));
}

// libtiff is a required dependency now (detector images).
bool tiff_supported() { return true; }

Image2D read_image(const std::string& spec) {
  const std::string file = file_part(spec);
  if (!std::filesystem::exists(file)) fail_at({file, 0, ""}, "no such file");
  // Anything read_detector_image does not recognise is a text matrix.
  if (detector_format_of(spec) != DetectorFormat::unknown) {
    DetectorImage d = read_detector_image(spec);
    return Image2D{d.rows, d.cols, std::move(d.values)};
  }
  TextMatrix m = read_text_matrix(file);
  if (m.rows == 0 || m.cols == 0) fail_at({file, 0, ""}, "no numbers in the file");
  return Image2D{m.rows, m.cols, std::move(m.data)};
}

RmcTarget make_rmc_target(Image2D image, const Image2D* mask, const TargetOptions& options,
                          const std::string& image_name, const std::string& mask_name) {
  const Where at_image{file_part(image_name), 0, ""};
  const Where at_mask{file_part(mask_name), 0, "mask", true};
  if (image.rows == 0 || image.cols == 0) fail_at(at_image, "empty image");
  if (mask && (mask->rows != image.rows || mask->cols != image.cols))
    fail_at(at_mask, "mask is ", shape(*mask), ", target is ", shape(image));
  for (std::size_t r = 0; r < image.rows; ++r)
    for (std::size_t c = 0; c < image.cols; ++c) {
      double& v = image.data[r * image.cols + c];
      if (std::isinf(v)) fail_at(at_image, "pixel (", r, ", ", c, ") is infinite");
      if (mask) {
        const double m = mask->at(r, c);
        if (!std::isfinite(m)) fail_at(at_mask, "pixel (", r, ", ", c, ") is not finite");
        if (m == 0) v = std::nan("");
      }
    }
  if (options.layout == TargetLayout::fft) image = fftshift(image);

  if (image.rows != image.cols) {
    if (!options.crop_to_square)
      fail_at(at_image, "target is ", shape(image), ", not square; take its central square with --crop");
    const std::size_t m = std::min(image.rows, image.cols);
    image = sub_image(image, window_start(image.rows / 2, m), window_start(image.cols / 2, m), m, m);
  }
  const std::size_t full = image.rows;
  const std::size_t n = options.model_size ? options.model_size : full;
  if (n > full) fail_option("tile", "model size ", n, " is larger than the ", full, "×", full, " target");
  if (n < full) {
    if (options.resample == Resample::crop) {
      image = sub_image(image, window_start(full / 2, n), window_start(full / 2, n), n, n);
    } else {
      if (full % n != 0)
        fail_option("resample", "rebin needs the target size ", full, " to be a multiple of the model size ", n);
      const std::size_t f = full / n;
      Image2D binned{n, n, std::vector<double>(n * n)};
      for (std::size_t r = 0; r < n; ++r)
        for (std::size_t c = 0; c < n; ++c) {
          // A bin is used only when all its pixels are (a partly masked bin
          // would average a biased subset).
          double sum = 0;
          for (std::size_t i = 0; i < f; ++i)
            for (std::size_t j = 0; j < f; ++j) sum += image.at(r * f + i, c * f + j);
          binned.data[r * n + c] = sum / double(f * f);
        }
      image = std::move(binned);
    }
  }

  RmcTarget target;
  target.size = n;
  target.intensity = std::move(image.data);
  target.source = image_name + (mask_name.empty() ? "" : " (mask " + mask_name + ")");
  bool any_used = false, any_nonzero = false, any_positive = false;
  for (double v : target.intensity) {
    if (std::isnan(v)) continue;
    any_used = true;
    any_nonzero = any_nonzero || v != 0;
    any_positive = any_positive || v > 0;
  }
  if (!any_used) fail_at(at_image, "the mask leaves no pixel of the ", n, "×", n, " model window");
  if (!any_nonzero) fail_at(at_image, "the target is zero at every used pixel");
  // Background-subtracted data may dip below zero, but an intensity with no
  // positive pixel is no scattering image (the fit would run to nothing).
  if (!any_positive) fail_at(at_image, "no used pixel of the target is positive; an intensity cannot be all negative");
  return target;
}

RmcTarget load_rmc_target(const std::string& target_spec, const std::string& mask_spec, const TargetOptions& options) {
  Image2D image = read_image(target_spec);
  if (mask_spec.empty()) return make_rmc_target(std::move(image), nullptr, options, target_spec, "");
  const Image2D mask = read_image(mask_spec);
  return make_rmc_target(std::move(image), &mask, options, target_spec, mask_spec);
}

}  // namespace nanoscatter
