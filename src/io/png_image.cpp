// Quick-look PNGs: images on a log10 scale with the viridis map and a colour
// bar, and line plots (write_png_plot: I(Q) and the like).
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

// Encodes `rgb` (8-bit RGB, rows top to bottom) with the tEXt entries (plus
// Software) through AtomicOutput. Errors name the file and `--output`.
void encode_to_file(const std::filesystem::path& path, std::vector<png_byte>& rgb, std::size_t width,
                    std::size_t height, std::vector<std::pair<std::string, std::string>> text_entries) {
  const std::string file = path.string();
  for (const auto& [key, value] : text_entries) {
    if (key.empty() || key.size() > 79)
      fail_at({file, 0, "text"}, "PNG text keyword must have 1 to 79 characters: '", key, "'");
  }
  text_entries.emplace_back("Software", "nanoscatter " NANOSCATTER_VERSION);
  std::vector<png_bytep> row_pointers(height);
  for (std::size_t y = 0; y < height; ++y) row_pointers[y] = &rgb[y * width * 3];
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
                                  static_cast<png_uint_32>(height), texts.data(),
                                  static_cast<int>(texts.size()), error_text);
  const bool write_failed = std::ferror(fp) != 0;
  const int close_status = std::fclose(fp);
  if (!encoded) fail_at({file, 0, "--output"}, "PNG encoding failed: ", error_text);
  if (write_failed || close_status != 0)
    fail_at({file, 0, "--output"}, "write failed: ", std::strerror(errno));
  out.commit();
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
  std::vector<std::pair<std::string, std::string>> text_entries = {
      {"nanoscatter:vmin", full_precision(range.vmin)},
      {"nanoscatter:vmax", full_precision(range.vmax)},
      {"nanoscatter:scale", "log10"},
      {"nanoscatter:colormap", "viridis"},
  };
  text_entries.insert(text_entries.end(), options.text.begin(), options.text.end());
  encode_to_file(path, rgb, width, rows, text_entries);
  return range;
}

namespace {

// A 5×7 bitmap font for tick labels: digits, '.', '-', '+', 'e'. Each glyph
// is 7 rows of 5 bits, most significant bit on the left.
const std::array<std::uint8_t, 7>* glyph(char c) {
  static const std::array<std::uint8_t, 7> digits[10] = {
      {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}, {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E},
      {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}, {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E},
      {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}, {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E},
      {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}, {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
      {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}, {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}};
  static const std::array<std::uint8_t, 7> dot{0, 0, 0, 0, 0, 0x0C, 0x0C};
  static const std::array<std::uint8_t, 7> minus{0, 0, 0, 0x1F, 0, 0, 0};
  static const std::array<std::uint8_t, 7> plus{0, 0x04, 0x04, 0x1F, 0x04, 0x04, 0};
  static const std::array<std::uint8_t, 7> e{0, 0, 0x0E, 0x11, 0x1F, 0x10, 0x0E};
  if (c >= '0' && c <= '9') return &digits[c - '0'];
  if (c == '.') return &dot;
  if (c == '-') return &minus;
  if (c == '+') return &plus;
  if (c == 'e') return &e;
  return nullptr;
}

struct Canvas {
  std::size_t width, height;
  std::vector<png_byte> rgb;
  Canvas(std::size_t w, std::size_t h) : width(w), height(h), rgb(w * h * 3, 255) {}
  void put(long x, long y, const std::array<std::uint8_t, 3>& c) {
    if (x < 0 || y < 0 || x >= long(width) || y >= long(height)) return;
    png_byte* p = &rgb[(std::size_t(y) * width + std::size_t(x)) * 3];
    p[0] = c[0];
    p[1] = c[1];
    p[2] = c[2];
  }
  // Bresenham, clipped to [x_lo, x_hi] × [y_lo, y_hi].
  void line(long x0, long y0, long x1, long y1, const std::array<std::uint8_t, 3>& c, long x_lo, long x_hi,
            long y_lo, long y_hi) {
    const long dx = std::labs(x1 - x0), dy = -std::labs(y1 - y0);
    const long sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    long err = dx + dy;
    for (;;) {
      if (x0 >= x_lo && x0 <= x_hi && y0 >= y_lo && y0 <= y_hi) put(x0, y0, c);
      if (x0 == x1 && y0 == y1) break;
      const long e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
  }
  // Text of glyph() characters with its top-left corner at (x, y).
  void text(long x, long y, const std::string& s, const std::array<std::uint8_t, 3>& c) {
    for (char ch : s) {
      if (const auto* g = glyph(ch))
        for (int row = 0; row < 7; ++row)
          for (int col = 0; col < 5; ++col)
            if ((*g)[row] & (0x10 >> col)) put(x + col, y + row, c);
      x += 6;
    }
  }
};

std::string tick_label(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", v);
  std::string s = buffer;  // 1e+08 → 1e8, 1e-05 → 1e-5
  for (const char* from : {"e+0", "e+", "e-0"}) {
    const auto at = s.find(from);
    if (at != std::string::npos) s.replace(at, std::string(from).size(), from[1] == '-' ? "e-" : "e");
  }
  return s;
}

// Tick values for [lo, hi] on a linear axis: multiples of 1, 2 or 5 × 10^k,
// about 5 to 10 of them.
std::vector<double> linear_ticks(double lo, double hi) {
  const double span = hi - lo;
  double step = std::pow(10.0, std::floor(std::log10(span / 5)));
  for (double f : {1.0, 2.0, 5.0, 10.0})
    if (span / (step * f) <= 10) {
      step *= f;
      break;
    }
  std::vector<double> ticks;
  for (double t = std::ceil(lo / step) * step; t <= hi + 1e-9 * span; t += step)
    ticks.push_back(std::abs(t) < 1e-12 * span ? 0.0 : t);
  return ticks;
}

}  // namespace

PlotRange write_png_plot(const std::filesystem::path& path, const std::vector<double>& x,
                         const std::vector<PlotSeries>& series, const PlotOptions& options) {
  const std::string file = path.string();
  if (x.size() < 2) fail_at({file, 0, "x"}, "a plot needs at least 2 points, got ", x.size());
  if (series.empty()) fail_at({file, 0, "series"}, "nothing to plot");
  for (const PlotSeries& s : series)
    if (s.y.size() != x.size())
      fail_at({file, 0, "series"}, "'", s.name, "' has ", s.y.size(), " values for ", x.size(), " x values");
  if (options.width < 200 || options.height < 150 || options.width > 10000 || options.height > 10000)
    fail_at({file, 0, "size"}, "a plot takes 200–10000 × 150–10000 pixels, got ", options.width, "x",
            options.height);
  if (!(options.dynamic_range > 1) || !std::isfinite(options.dynamic_range))
    fail_at({file, 0, "dynamic_range"}, "must be a finite number > 1, got ", options.dynamic_range);
  for (const auto& [key, value] : options.text)
    if (key.empty() || key.size() > 79)
      fail_at({file, 0, "text"}, "PNG text keyword must have 1 to 79 characters: '", key, "'");

  PlotRange range;
  range.xmin = std::numeric_limits<double>::infinity();
  range.xmax = -range.xmin;
  for (double v : x)
    if (std::isfinite(v) && (!options.log_x || v > 0)) {
      range.xmin = std::min(range.xmin, v);
      range.xmax = std::max(range.xmax, v);
    }
  if (!(range.xmax > range.xmin))
    fail_at({file, 0, "x"}, "needs two distinct finite", options.log_x ? " positive" : "", " x values");
  double ymax = -std::numeric_limits<double>::infinity(), ymin = -ymax, min_positive = ymin;
  for (const PlotSeries& s : series)
    for (double v : s.y)
      if (std::isfinite(v)) {
        ymax = std::max(ymax, v);
        ymin = std::min(ymin, v);
        if (v > 0) min_positive = std::min(min_positive, v);
      }
  if (options.log_y) {
    if (!(ymax > 0)) fail_at({file, 0, "y"}, "no positive finite value to plot on a log scale");
    range.ymax = ymax;
    range.ymin = std::max(ymax / options.dynamic_range, min_positive);
    if (!(range.ymin < range.ymax)) range.ymin = range.ymax / 10;
  } else {
    if (!(ymax >= ymin)) fail_at({file, 0, "y"}, "no finite value to plot");
    const double pad = ymax > ymin ? 0.05 * (ymax - ymin) : std::max(std::abs(ymax), 1.0);
    range.ymin = ymin - pad;
    range.ymax = ymax + pad;
  }

  const std::array<std::uint8_t, 3> black{0, 0, 0}, grey{225, 225, 225};
  const long left = 70, right = long(options.width) - 16, top = 14, bottom = long(options.height) - 30;
  auto fx = [&](double v) {
    return options.log_x ? (std::log10(v) - std::log10(range.xmin)) / (std::log10(range.xmax) - std::log10(range.xmin))
                         : (v - range.xmin) / (range.xmax - range.xmin);
  };
  auto fy = [&](double v) {
    return options.log_y ? (std::log10(v) - std::log10(range.ymin)) / (std::log10(range.ymax) - std::log10(range.ymin))
                         : (v - range.ymin) / (range.ymax - range.ymin);
  };
  auto px = [&](double v) { return left + std::lround(fx(v) * double(right - left)); };
  auto py = [&](double v) { return bottom - std::lround(fy(v) * double(bottom - top)); };

  Canvas canvas(options.width, options.height);
  // Grid and tick labels: decades on log axes, 1-2-5 steps on linear ones.
  auto ticks = [](double lo, double hi, bool log) {
    if (!log) return linear_ticks(lo, hi);
    std::vector<double> t;
    const long first = long(std::ceil(std::log10(lo) - 1e-9)), last = long(std::floor(std::log10(hi) + 1e-9));
    const long stride = std::max(1L, (last - first + 1 + 7) / 8);  // at most 8 labelled decades
    for (long k = first; k <= last; k += stride) t.push_back(std::pow(10.0, double(k)));
    return t;
  };
  for (double t : ticks(range.xmin, range.xmax, options.log_x)) {
    const long X = px(t);
    canvas.line(X, top, X, bottom, grey, left, right, top, bottom);
    const std::string label = tick_label(t);
    canvas.text(X - long(label.size()) * 3, bottom + 8, label, black);
  }
  for (double t : ticks(range.ymin, range.ymax, options.log_y)) {
    const long Y = py(t);
    canvas.line(left, Y, right, Y, grey, left, right, top, bottom);
    const std::string label = tick_label(t);
    canvas.text(left - 6 - long(label.size()) * 6, Y - 3, label, black);
  }
  // Curves, the first (the total) last so that it stays on top, 2 pixels
  // thick; non-finite points and, on log scales, points ≤ 0 break the line.
  for (std::size_t k = series.size(); k-- > 0;) {
    const PlotSeries& s = series[k];
    bool have = false;
    long X0 = 0, Y0 = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double v = s.y[i];
      const bool ok = std::isfinite(v) && std::isfinite(x[i]) && (!options.log_y || v > 0) &&
                      (!options.log_x || x[i] > 0);
      if (!ok) {
        have = false;
        continue;
      }
      const double vy = options.log_y ? std::max(v, range.ymin * 1e-3) : v;
      const long X = px(x[i]), Y = py(vy);
      if (have) {
        canvas.line(X0, Y0, X, Y, s.rgb, left, right, top, bottom);
        canvas.line(X0, Y0 + 1, X, Y + 1, s.rgb, left, right, top, bottom);
      } else {
        canvas.line(X, Y, X, Y + 1, s.rgb, left, right, top, bottom);
      }
      have = true;
      X0 = X;
      Y0 = Y;
    }
  }
  // Frame.
  canvas.line(left, top, right, top, black, 0, right, 0, bottom);
  canvas.line(left, bottom, right, bottom, black, 0, right, 0, bottom);
  canvas.line(left, top, left, bottom, black, 0, right, 0, bottom);
  canvas.line(right, top, right, bottom, black, 0, right, 0, bottom);

  std::vector<std::pair<std::string, std::string>> text_entries = {
      {"nanoscatter:xmin", full_precision(range.xmin)},
      {"nanoscatter:xmax", full_precision(range.xmax)},
      {"nanoscatter:ymin", full_precision(range.ymin)},
      {"nanoscatter:ymax", full_precision(range.ymax)},
      {"nanoscatter:xscale", options.log_x ? "log10" : "linear"},
      {"nanoscatter:yscale", options.log_y ? "log10" : "linear"},
      {"nanoscatter:xlabel", options.x_label},
      {"nanoscatter:ylabel", options.y_label},
  };
  std::string legend;
  for (const PlotSeries& s : series) {
    char colour[16];
    std::snprintf(colour, sizeof colour, "#%02x%02x%02x", s.rgb[0], s.rgb[1], s.rgb[2]);
    legend += (legend.empty() ? "" : "; ") + s.name + " " + colour;
  }
  text_entries.emplace_back("nanoscatter:series", legend);
  text_entries.insert(text_entries.end(), options.text.begin(), options.text.end());
  encode_to_file(path, canvas.rgb, canvas.width, canvas.height, text_entries);
  return range;
}

const std::array<std::array<std::uint8_t, 3>, 10>& plot_colours() {
  // matplotlib's tab10 cycle, the total first in black.
  static const std::array<std::array<std::uint8_t, 3>, 10> colours{{{0, 0, 0},
                                                                     {31, 119, 180},
                                                                     {255, 127, 14},
                                                                     {44, 160, 44},
                                                                     {214, 39, 40},
                                                                     {148, 103, 189},
                                                                     {140, 86, 75},
                                                                     {227, 119, 194},
                                                                     {127, 127, 127},
                                                                     {23, 190, 207}}};
  return colours;
}

}  // namespace nanoscatter
