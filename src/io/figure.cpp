// Figures with axes and colour bars, drawn with cairo (io_figure.hpp).
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/io_figure.hpp"
#include "nanoscatter/io_png.hpp"

namespace nanoscatter {

namespace {

// Margins of a panel around its plot area, in font sizes (room for tick
// labels, axis labels, the title and the colour bar's numbers).
constexpr double left_margin = 5.0, bottom_margin = 3.6, top_margin = 2.2, right_margin = 1.2;
constexpr double colour_bar_width = 1.2, colour_bar_gap = 0.8, colour_bar_labels = 4.2;
// Log colour scales span at most this factor below the largest value, as
// the quick-look PNGs do (io_png.hpp).
constexpr double log_dynamic_range = 1e6;
constexpr int axis_ticks = 5;
constexpr std::array<std::uint8_t, 3> non_finite_grey{160, 160, 160};

struct Rect {
  double x, y, w, h;
};

using Context = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

std::string number(double v) {
  char buffer[32];
  if (v == 0) return "0";
  const double a = std::abs(v);
  std::snprintf(buffer, sizeof buffer, a >= 1e4 || a < 1e-3 ? "%.3g" : "%.4g", v);
  return buffer;
}

void text_at(cairo_t* cr, const std::string& s, double x, double y, double align_x, double align_y,
             bool vertical = false) {
  cairo_text_extents_t e;
  cairo_text_extents(cr, s.c_str(), &e);
  cairo_save(cr);
  cairo_translate(cr, x, y);
  if (vertical) cairo_rotate(cr, -M_PI / 2);
  cairo_move_to(cr, -e.x_bearing - align_x * e.width, -e.y_bearing - align_y * e.height);
  cairo_show_text(cr, s.c_str());
  cairo_restore(cr);
}

void set_rgb(cairo_t* cr, const std::array<std::uint8_t, 3>& c) {
  cairo_set_source_rgb(cr, c[0] / 255.0, c[1] / 255.0, c[2] / 255.0);
}

// Axis value → position along [p0, p1].
struct Axis {
  double lo, hi;
  bool log;
  double p0, p1;
  double at(double v) const {
    const double t = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (v - lo) / (hi - lo);
    return p0 + t * (p1 - p0);
  }
  std::vector<double> ticks() const {
    if (!log) return nice_ticks(lo, hi, axis_ticks);
    std::vector<double> out;
    const int a = int(std::ceil(std::log10(lo) - 1e-9)), b = int(std::floor(std::log10(hi) + 1e-9));
    const int stride = std::max(1, (b - a + 1) / axis_ticks);
    for (int k = a; k <= b; k += stride) out.push_back(std::pow(10.0, k));
    return out;
  }
};

std::string tick_label(double v, bool log) {
  if (!log) return number(v);
  const int k = int(std::lround(std::log10(v)));
  return k >= -2 && k <= 3 ? number(v) : "1e" + std::to_string(k);
}

void draw_axes(cairo_t* cr, const Rect& plot, const Axis& x, const Axis& y, double font) {
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, 1);
  cairo_rectangle(cr, plot.x + 0.5, plot.y + 0.5, plot.w, plot.h);
  cairo_stroke(cr);
  for (double t : x.ticks()) {
    const double px = x.at(t);
    if (px < plot.x - 0.5 || px > plot.x + plot.w + 0.5) continue;
    cairo_move_to(cr, std::round(px) + 0.5, plot.y + plot.h);
    cairo_line_to(cr, std::round(px) + 0.5, plot.y + plot.h + font * 0.4);
    cairo_stroke(cr);
    text_at(cr, tick_label(t, x.log), px, plot.y + plot.h + font * 0.6, 0.5, 0);
  }
  for (double t : y.ticks()) {
    const double py = y.at(t);
    if (py < plot.y - 0.5 || py > plot.y + plot.h + 0.5) continue;
    cairo_move_to(cr, plot.x, std::round(py) + 0.5);
    cairo_line_to(cr, plot.x - font * 0.4, std::round(py) + 0.5);
    cairo_stroke(cr);
    text_at(cr, tick_label(t, y.log), plot.x - font * 0.6, py, 1, 0.5);
  }
}

void draw_labels(cairo_t* cr, const Rect& panel, const Rect& plot, const std::string& title, const std::string& xl,
                 const std::string& yl, double font) {
  cairo_set_source_rgb(cr, 0, 0, 0);
  text_at(cr, xl, plot.x + plot.w / 2, panel.y + panel.h - font * 0.3, 0.5, 1);
  text_at(cr, yl, panel.x + font * 0.3, plot.y + plot.h / 2, 0.5, 0, true);
  cairo_save(cr);
  cairo_set_font_size(cr, font * 1.15);
  text_at(cr, title, plot.x + plot.w / 2, panel.y + font * 0.4, 0.5, 0);
  cairo_restore(cr);
}

struct ColourMap {
  ColourScale scale;
  double vmin, vmax;
  std::array<std::uint8_t, 3> at(double v) const {
    if (!std::isfinite(v)) return non_finite_grey;
    if (scale == ColourScale::log_viridis) {
      const double t = v <= 0 ? 0 : (std::log10(v) - std::log10(vmin)) / (std::log10(vmax) - std::log10(vmin));
      return viridis_rgb(t);
    }
    const double t = (v - vmin) / (vmax - vmin);
    return scale == ColourScale::diverging ? diverging_rgb(t) : viridis_rgb(t);
  }
};

ColourMap colour_map(const ImagePanel& p) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, positive = lo;
  for (double v : p.values)
    if (std::isfinite(v)) {
      lo = std::min(lo, v), hi = std::max(hi, v);
      if (v > 0) positive = std::min(positive, v);
    }
  if (!std::isfinite(lo)) lo = 0, hi = 1, positive = 1;
  ColourMap m{p.scale, lo, hi};
  if (p.scale == ColourScale::log_viridis) {
    if (!(hi > 0)) hi = 1;
    m.vmax = hi, m.vmin = std::max(hi / log_dynamic_range, std::isfinite(positive) ? positive : hi / log_dynamic_range);
  } else if (p.scale == ColourScale::diverging) {
    const double a = std::max(std::abs(lo), std::abs(hi));
    m.vmin = -a, m.vmax = a;
  }
  if (p.vmin) m.vmin = *p.vmin;
  if (p.vmax) m.vmax = *p.vmax;
  if (!(m.vmin < m.vmax)) m.vmax = m.vmin + 1, m.vmin = m.vmin - (m.scale == ColourScale::log_viridis ? 0 : 1);
  if (m.scale == ColourScale::log_viridis && !(m.vmin > 0 && m.vmin < m.vmax)) m.vmin = m.vmax / log_dynamic_range;
  return m;
}

void draw_image(cairo_t* cr, const Rect& panel, const ImagePanel& p, double font) {
  if (p.values.size() != p.rows * p.cols || !p.rows || !p.cols)
    fail("figure panel '", p.title, "': ", p.values.size(), " values for ", p.rows, " × ", p.cols, " pixels");
  const double bar_room = (colour_bar_gap + colour_bar_width + colour_bar_labels) * font;
  const Rect plot{panel.x + left_margin * font, panel.y + top_margin * font,
                  panel.w - left_margin * font - right_margin * font - bar_room,
                  panel.h - top_margin * font - bottom_margin * font};
  const ColourMap map = colour_map(p);
  // The image at its own resolution, scaled onto the plot without smoothing.
  cairo_surface_t* image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, int(p.cols), int(p.rows));
  cairo_surface_flush(image);
  unsigned char* bytes = cairo_image_surface_get_data(image);
  const int stride = cairo_image_surface_get_stride(image);
  for (std::size_t r = 0; r < p.rows; ++r)
    for (std::size_t c = 0; c < p.cols; ++c) {
      const auto rgb = map.at(p.values[r * p.cols + c]);
      auto* px = reinterpret_cast<std::uint32_t*>(bytes + (p.rows - 1 - r) * std::size_t(stride)) + c;
      *px = (std::uint32_t(rgb[0]) << 16) | (std::uint32_t(rgb[1]) << 8) | rgb[2];
    }
  cairo_surface_mark_dirty(image);
  cairo_save(cr);
  cairo_rectangle(cr, plot.x, plot.y, plot.w, plot.h);
  cairo_clip(cr);
  cairo_translate(cr, plot.x, plot.y);
  cairo_scale(cr, plot.w / double(p.cols), plot.h / double(p.rows));
  cairo_set_source_surface(cr, image, 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
  cairo_paint(cr);
  cairo_restore(cr);
  cairo_surface_destroy(image);

  const Axis x{p.x_min, p.x_max, false, plot.x, plot.x + plot.w};
  const Axis y{p.y_min, p.y_max, false, plot.y + plot.h, plot.y};
  draw_axes(cr, plot, x, y, font);
  draw_labels(cr, panel, plot, p.title, p.x_label, p.y_label, font);

  // Colour bar: vmin at the bottom, vmax at the top, numbered ticks.
  const Rect bar{plot.x + plot.w + colour_bar_gap * font, plot.y, colour_bar_width * font, plot.h};
  const bool log = map.scale == ColourScale::log_viridis;
  for (int k = 0; k < int(bar.h); ++k) {
    const double t = (double(k) + 0.5) / bar.h;
    const double v = log ? map.vmin * std::pow(map.vmax / map.vmin, t) : map.vmin + t * (map.vmax - map.vmin);
    set_rgb(cr, map.at(v));
    cairo_rectangle(cr, bar.x, bar.y + bar.h - k - 1, bar.w, 1);
    cairo_fill(cr);
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_rectangle(cr, bar.x + 0.5, bar.y + 0.5, bar.w, bar.h);
  cairo_stroke(cr);
  const Axis v{map.vmin, map.vmax, log, bar.y + bar.h, bar.y};
  for (double t : v.ticks()) {
    const double py = v.at(t);
    cairo_move_to(cr, bar.x + bar.w, std::round(py) + 0.5);
    cairo_line_to(cr, bar.x + bar.w + font * 0.3, std::round(py) + 0.5);
    cairo_stroke(cr);
    text_at(cr, tick_label(t, log), bar.x + bar.w + font * 0.45, py, 0, 0.5);
  }
  if (!p.colour_label.empty()) text_at(cr, p.colour_label, bar.x + bar.w / 2, bar.y - font * 0.3, 0.5, 1);
}

void draw_lines(cairo_t* cr, const Rect& panel, const LinePanel& p, double font) {
  double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
  for (const auto& s : p.series) {
    if (s.x.size() != s.y.size()) fail("figure panel '", p.title, "': series '", s.name, "' has x and y of different lengths");
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      const double x = s.x[i], y = s.y[i];
      if (!std::isfinite(x) || !std::isfinite(y) || (p.log_x && x <= 0) || (p.log_y && y <= 0)) continue;
      xlo = std::min(xlo, x), xhi = std::max(xhi, x), ylo = std::min(ylo, y), yhi = std::max(yhi, y);
    }
  }
  if (!std::isfinite(xlo)) xlo = p.log_x ? 1 : 0, xhi = p.log_x ? 10 : 1, ylo = p.log_y ? 1 : 0, yhi = p.log_y ? 10 : 1;
  if (!(xlo < xhi)) xhi = p.log_x ? xlo * 10 : xlo + 1;
  if (!(ylo < yhi)) yhi = p.log_y ? ylo * 10 : ylo + 1;
  if (p.log_y) ylo = std::max(ylo, yhi / log_dynamic_range);
  const Rect plot{panel.x + left_margin * font, panel.y + top_margin * font,
                  panel.w - (left_margin + right_margin) * font, panel.h - (top_margin + bottom_margin) * font};
  const Axis x{xlo, xhi, p.log_x, plot.x, plot.x + plot.w};
  const Axis y{ylo, yhi, p.log_y, plot.y + plot.h, plot.y};
  cairo_save(cr);
  cairo_rectangle(cr, plot.x, plot.y, plot.w, plot.h);
  cairo_clip(cr);
  cairo_set_line_width(cr, 1.5);
  for (auto s = p.series.rbegin(); s != p.series.rend(); ++s) {  // the first on top
    set_rgb(cr, s->rgb);
    bool pen = false;
    for (std::size_t i = 0; i < s->x.size(); ++i) {
      const double xv = s->x[i], yv = s->y[i];
      if (!std::isfinite(xv) || !std::isfinite(yv) || (p.log_x && xv <= 0) || (p.log_y && yv <= 0)) {
        pen = false;
        continue;
      }
      const double px = x.at(xv), py = y.at(std::max(yv, ylo));
      pen ? cairo_line_to(cr, px, py) : cairo_move_to(cr, px, py);
      pen = true;
    }
    cairo_stroke(cr);
  }
  cairo_restore(cr);
  draw_axes(cr, plot, x, y, font);
  draw_labels(cr, panel, plot, p.title, p.x_label, p.y_label, font);
  // Legend, top right inside the plot.
  double ly = plot.y + font;
  for (const auto& s : p.series) {
    if (s.name.empty()) continue;
    set_rgb(cr, s.rgb);
    cairo_rectangle(cr, plot.x + plot.w - font * 7, ly - font * 0.1, font * 1.2, font * 0.3);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    text_at(cr, s.name, plot.x + plot.w - font * 5.5, ly, 0, 0.5);
    ly += font * 1.3;
  }
}

}  // namespace

std::array<std::uint8_t, 3> diverging_rgb(double t) {
  t = std::clamp(std::isfinite(t) ? t : 0.5, 0.0, 1.0);
  // Linear blend blue (0.23, 0.30, 0.75) – white – red (0.71, 0.02, 0.15): the
  // end colours of Moreland's cool–warm map.
  const double blue[3] = {59, 76, 192}, red[3] = {180, 4, 38}, white[3] = {255, 255, 255};
  std::array<std::uint8_t, 3> out{};
  for (int k = 0; k < 3; ++k) {
    const double v = t < 0.5 ? blue[k] + (white[k] - blue[k]) * (t / 0.5) : white[k] + (red[k] - white[k]) * ((t - 0.5) / 0.5);
    out[k] = std::uint8_t(std::lround(v));
  }
  return out;
}

std::vector<double> nice_ticks(double lo, double hi, int target) {
  std::vector<double> out;
  if (!(hi > lo) || target < 1) return out;
  const double raw = (hi - lo) / target;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  double step = decade;
  for (double f : {1.0, 2.0, 5.0, 10.0})
    if (f * decade >= raw) {
      step = f * decade;
      break;
    }
  // Integer multiples of the step (no accumulated round-off).
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k += 1) out.push_back(k * step);
  return out;
}

void write_figure_png(const std::filesystem::path& path, const std::vector<FigurePanel>& panels,
                      const FigureOptions& options) {
  if (panels.empty()) fail_at({path.string(), 0, ""}, "a figure needs at least one panel");
  const int width = options.panel_width * int(panels.size()), height = options.panel_height;
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height), cairo_surface_destroy);
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
    fail_at({path.string(), 0, ""}, "cannot make a ", width, " × ", height, " figure");
  Context cr(cairo_create(surface.get()), cairo_destroy);
  cairo_set_source_rgb(cr.get(), 1, 1, 1);
  cairo_paint(cr.get());
  cairo_select_font_face(cr.get(), "sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr.get(), options.font_size);
  for (std::size_t k = 0; k < panels.size(); ++k) {
    const Rect panel{double(k) * options.panel_width, 0, double(options.panel_width), double(options.panel_height)};
    if (const auto* image = std::get_if<ImagePanel>(&panels[k])) draw_image(cr.get(), panel, *image, options.font_size);
    else draw_lines(cr.get(), panel, std::get<LinePanel>(panels[k]), options.font_size);
  }
  cairo_surface_flush(surface.get());
  AtomicOutput out(path);
  if (cairo_surface_write_to_png(surface.get(), out.temp_path().c_str()) != CAIRO_STATUS_SUCCESS)
    fail_at({path.string(), 0, ""}, "cannot write the PNG file");
  out.commit();
}

}  // namespace nanoscatter
