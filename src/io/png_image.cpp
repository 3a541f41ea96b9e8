// Quick-look PNG on a log10 scale with the viridis map and a colour bar.
// libpng reports errors by longjmp, so the encoding step lives in one
// C-style function with no C++ objects that need destructors; everything
// it needs is prepared beforehand and its failure becomes an Error after.
#include <png.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/io_png.hpp"

namespace nanoscatter {
namespace {

constexpr std::size_t error_text_size = 256;

void on_png_error(png_structp png, png_const_charp message) {
  auto* buffer = static_cast<char*>(png_get_error_ptr(png));
  std::snprintf(buffer, error_text_size, "%s", message);
  png_longjmp(png, 1);
}

void on_png_warning(png_structp, png_const_charp) {}  // warnings do not stop the picture

// Encodes 8-bit RGB rows into `file`; on failure writes libpng's reason into
// `error_text` (error_text_size bytes) and returns false.
bool encode_rgb(std::FILE* file, png_bytep* row_pointers, png_uint_32 width, png_uint_32 height,
                png_textp texts, int text_count, char* error_text) {
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, error_text, on_png_error, on_png_warning);
  if (!png) {
    std::snprintf(error_text, error_text_size, "out of memory");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    std::snprintf(error_text, error_text_size, "out of memory");
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_text(png, info, texts, text_count);
  png_write_info(png, info);
  png_write_image(png, row_pointers);
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

std::string full_precision(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);  // round-trips binary64
  return buffer;
}

PngRange choose_range(const std::string& file, const double* image, std::size_t count,
                      const PngOptions& options) {
  if (!(options.dynamic_range > 1) || !std::isfinite(options.dynamic_range))
    fail_at({file, 0, "dynamic_range"}, "must be a finite number > 1, got ",
            options.dynamic_range);
  double max_finite = -std::numeric_limits<double>::infinity();
  double min_positive = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < count; ++i) {
    const double v = image[i];
    if (!std::isfinite(v)) continue;
    max_finite = std::max(max_finite, v);
    if (v > 0) min_positive = std::min(min_positive, v);
  }
  PngRange range;
  if (options.vmax) {
    range.vmax = *options.vmax;
  } else {
    if (!(max_finite > 0))
      fail_at({file, 0, "vmax"},
              "the image has no positive finite pixel to scale logarithmically; give vmin and vmax");
    range.vmax = max_finite;
  }
  if (options.vmin) {
    range.vmin = *options.vmin;
  } else {
    range.vmin = range.vmax / options.dynamic_range;
    // Fewer decades in the data than allowed: start the scale at the data.
    if (min_positive > range.vmin && min_positive < range.vmax) range.vmin = min_positive;
  }
  if (!std::isfinite(range.vmax) || !(range.vmax > 0))
    fail_at({file, 0, "vmax"}, "must be a finite number > 0, got ", range.vmax);
  if (!std::isfinite(range.vmin) || !(range.vmin > 0) || !(range.vmin < range.vmax))
    fail_at({file, 0, "vmin"}, "must be a finite number with 0 < vmin < vmax = ", range.vmax,
            ", got ", range.vmin);
  return range;
}

}  // namespace

PngRange write_png_log(const std::filesystem::path& path, const double* image, std::size_t rows,
                       std::size_t cols, const PngOptions& options) {
  const std::string file = path.string();
  if (rows == 0 || cols == 0) fail_at({file, 0, "image"}, "empty image (", rows, "x", cols, ")");
  if (!image) fail_at({file, 0, "image"}, "no pixel data");
  if (options.colour_bar && options.colour_bar_width == 0)
    fail_at({file, 0, "colour_bar_width"}, "must be at least 1 pixel");
  const std::size_t bar = options.colour_bar ? options.colour_bar_gap + options.colour_bar_width : 0;
  // PNG stores width and height as 31-bit numbers (PNG spec, IHDR).
  constexpr std::size_t png_max = 0x7fffffff;
  if (rows > png_max || cols > png_max - bar)
    fail_at({file, 0, "image"}, "too large for PNG (", rows, "x", cols, ")");
  const std::size_t width = cols + bar;

  for (const auto& [key, value] : options.text) {
    if (key.empty() || key.size() > 79)
      fail_at({file, 0, "text"}, "PNG text keyword must have 1 to 79 characters: '", key, "'");
  }
  const PngRange range = choose_range(file, image, rows * cols, options);
  const double log_lo = std::log10(range.vmin);
  const double log_span = std::log10(range.vmax) - log_lo;

  std::vector<png_byte> rgb(rows * width * 3, 255);  // white background for the gap
  auto put = [&](std::size_t y, std::size_t x, const std::array<std::uint8_t, 3>& c) {
    png_byte* p = &rgb[(y * width + x) * 3];
    p[0] = c[0];
    p[1] = c[1];
    p[2] = c[2];
  };
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t y = options.origin_lower ? rows - 1 - r : r;
    for (std::size_t c = 0; c < cols; ++c) {
      const double v = image[r * cols + c];
      if (!std::isfinite(v)) {
        put(y, c, non_finite_rgb);
      } else {
        // v ≤ 0 lies below any log scale: the lowest colour, like v < vmin.
        const double t = v > 0 ? (std::log10(v) - log_lo) / log_span : 0.0;
        put(y, c, viridis_rgb(t));
      }
    }
  }
  if (options.colour_bar) {
    for (std::size_t y = 0; y < rows; ++y) {
      // Top line = vmax, bottom line = vmin, linear in log10 between.
      const double t = rows > 1 ? double(rows - 1 - y) / double(rows - 1) : 1.0;
      for (std::size_t x = cols + options.colour_bar_gap; x < width; ++x) put(y, x, viridis_rgb(t));
    }
  }
  std::vector<png_bytep> row_pointers(rows);
  for (std::size_t y = 0; y < rows; ++y) row_pointers[y] = &rgb[y * width * 3];

  std::vector<std::pair<std::string, std::string>> text_entries = {
      {"nanoscatter:vmin", full_precision(range.vmin)},
      {"nanoscatter:vmax", full_precision(range.vmax)},
      {"nanoscatter:scale", "log10"},
      {"nanoscatter:colormap", "viridis"},
      {"Software", "nanoscatter " NANOSCATTER_VERSION},
  };
  text_entries.insert(text_entries.end(), options.text.begin(), options.text.end());
  std::vector<png_text> texts(text_entries.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    texts[i] = png_text{};
    texts[i].compression = PNG_TEXT_COMPRESSION_NONE;
    texts[i].key = text_entries[i].first.data();
    texts[i].text = text_entries[i].second.data();
    texts[i].text_length = text_entries[i].second.size();
  }

  AtomicOutput out(path);
  std::FILE* fp = std::fopen(out.temp_path().c_str(), "wb");
  if (!fp) fail_at({file, 0, "--output"}, "cannot create file: ", std::strerror(errno));
  char error_text[error_text_size] = {};
  const bool encoded = encode_rgb(fp, row_pointers.data(), static_cast<png_uint_32>(width),
                                  static_cast<png_uint_32>(rows), texts.data(),
                                  static_cast<int>(texts.size()), error_text);
  const bool write_failed = std::ferror(fp) != 0;
  const int close_status = std::fclose(fp);
  if (!encoded) fail_at({file, 0, "--output"}, "PNG encoding failed: ", error_text);
  if (write_failed || close_status != 0)
    fail_at({file, 0, "--output"}, "write failed: ", std::strerror(errno));
  out.commit();
  return range;
}

}  // namespace nanoscatter
