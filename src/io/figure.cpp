// Figures with axes and colour bars, drawn with cairo (io_figure.hpp).
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

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
// Linear y axes of line plots leave this fraction of the data's span free
// above and below, so that no curve runs along the frame.
constexpr double line_padding = 0.05;
// The title's font relative to the labels'; a title too wide for its panel
// is set smaller until it fits.
constexpr double title_scale = 1.15;
// Log axes label their ticks as plain numbers when all lie in 10^-2 … 10^3,
// else as powers of ten; linear axes switch to m×10ᵏ from |value| 10^5 or
// a step below 10^-3.
constexpr int plain_log_min = -2, plain_log_max = 3;
constexpr double plain_linear_max = 1e5, plain_linear_step = 1e-3;

struct Rect {
  double x, y, w, h;
};

using Context = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

// A rectangle on whole pixels: image edges, frames and the colour bar's
// one-pixel stripes then cover pixels fully (no blending with the white
// background, which would wash the colour bar out).
Rect snapped(const Rect& r) { return {std::round(r.x), std::round(r.y), std::round(r.w), std::round(r.h)}; }

// "10⁻⁵" (exponent in Unicode superscripts, minus U+207B).
std::string power_of_ten(int exponent) {
  static const char* const digits[10] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string out = "10";
  if (exponent < 0) out += "⁻";
  const std::string n = std::to_string(std::abs(exponent));
  for (char c : n) out += digits[c - '0'];
  return out;
}

// A number with `decimals` decimals and a typographic minus (U+2212).
std::string fixed(double v, int decimals) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.*f", std::max(decimals, 0), v);
  std::string s = buffer;
  if (s == "-0" || s.find_first_not_of("-0.") == std::string::npos) s = s.substr(s[0] == '-');  // no "−0"
  if (!s.empty() && s[0] == '-') s = "−" + s.substr(1);
  return s;
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
    const double a = std::min(lo, hi), b = std::max(lo, hi);
    return log ? log_ticks(a, b, axis_ticks) : nice_ticks(a, b, axis_ticks);
  }
};

// Every stride-th tick, the stride the smallest power of two at which the
// labels, `extent` pixels each along the axis plus a font's gap, fit `room`
// (keeping the tick at 0, where there is one, among them).
std::vector<std::size_t> spaced(const std::vector<double>& ticks, const std::vector<double>& extent, double room,
                                double font) {
  double widest = 0;
  for (double e : extent) widest = std::max(widest, e);
  std::size_t stride = 1;
  while (stride < ticks.size() && double((ticks.size() + stride - 1) / stride) * (widest + font) > room) stride *= 2;
  std::size_t anchor = 0;
  for (std::size_t i = 0; i < ticks.size(); ++i)
    if (ticks[i] == 0) anchor = i;
  std::vector<std::size_t> out;
  for (std::size_t i = anchor % stride; i < ticks.size(); i += stride) out.push_back(i);
  return out;
}

void draw_axes(cairo_t* cr, const Rect& plot, const Axis& x, const Axis& y, double font) {
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, 1);
  cairo_rectangle(cr, plot.x + 0.5, plot.y + 0.5, plot.w, plot.h);
  cairo_stroke(cr);
  const std::vector<double> xt = x.ticks(), yt = y.ticks();
  const std::vector<std::string> xl = tick_labels(xt, x.log), yl = tick_labels(yt, y.log);
  std::vector<double> widths;
  for (const std::string& label : xl) {
    cairo_text_extents_t e;
    cairo_text_extents(cr, label.c_str(), &e);
    widths.push_back(e.x_advance);
  }
  for (std::size_t i : spaced(xt, widths, plot.w, font)) {
    const double px = x.at(xt[i]);
    if (px < plot.x - 0.5 || px > plot.x + plot.w + 0.5) continue;
    cairo_move_to(cr, std::round(px) + 0.5, plot.y + plot.h);
    cairo_line_to(cr, std::round(px) + 0.5, plot.y + plot.h + font * 0.4);
    cairo_stroke(cr);
    text_at(cr, xl[i], px, plot.y + plot.h + font * 0.6, 0.5, 0);
  }
  for (std::size_t i : spaced(yt, std::vector<double>(yt.size(), font), plot.h, font)) {
    const double py = y.at(yt[i]);
    if (py < plot.y - 0.5 || py > plot.y + plot.h + 0.5) continue;
    cairo_move_to(cr, plot.x, std::round(py) + 0.5);
    cairo_line_to(cr, plot.x - font * 0.4, std::round(py) + 0.5);
    cairo_stroke(cr);
    text_at(cr, yl[i], plot.x - font * 0.6, py, 1, 0.5);
  }
}

// Axis labels and the title, placed from the plot area (which an equal
// aspect may have shrunk inside its panel). The title is centred over the
// plot and set smaller where it would reach past the panel's left edge or
// `right` (the panel's right edge, or where a colour bar's label starts).
void draw_labels(cairo_t* cr, const Rect& panel, const Rect& plot, const std::string& title, const std::string& xl,
                 const std::string& yl, double font, double right) {
  cairo_set_source_rgb(cr, 0, 0, 0);
  text_at(cr, xl, plot.x + plot.w / 2, plot.y + plot.h + (bottom_margin - 0.3) * font, 0.5, 1);
  text_at(cr, yl, plot.x - (left_margin - 0.3) * font, plot.y + plot.h / 2, 0.5, 0, true);
  cairo_save(cr);
  double size = font * title_scale;
  cairo_set_font_size(cr, size);
  cairo_text_extents_t e;
  cairo_text_extents(cr, title.c_str(), &e);
  const double centre = plot.x + plot.w / 2;
  const double room = 2 * std::min(centre - panel.x, right - centre) - font;
  if (e.x_advance > room) cairo_set_font_size(cr, size *= room / e.x_advance);
  text_at(cr, title, centre, plot.y - (top_margin - 0.4) * font, 0.5, 0);
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
    // From the smallest positive value, at most six decades down; a constant
    // image sits at the top of a six-decade scale.
    m.vmax = hi, m.vmin = positive < hi ? std::max(hi / log_dynamic_range, positive) : hi / log_dynamic_range;
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
  Rect plot{panel.x + left_margin * font, panel.y + top_margin * font,
            panel.w - left_margin * font - right_margin * font - bar_room,
            panel.h - top_margin * font - bottom_margin * font};
  if (p.equal_aspect) {
    const double x_span = std::abs(p.x_max - p.x_min), y_span = std::abs(p.y_max - p.y_min);
    if (!(x_span > 0) || !(y_span > 0) || !std::isfinite(x_span / y_span))
      fail("figure panel '", p.title, "': an equal aspect needs finite axis spans > 0");
    const double scale = std::min(plot.w / x_span, plot.h / y_span);
    const double w = x_span * scale, h = y_span * scale;
    plot.x += (plot.w - w) / 2, plot.y += (plot.h - h) / 2, plot.w = w, plot.h = h;
  }
  plot = snapped(plot);
  const ColourMap map = colour_map(p);
  // The image at its own resolution, scaled onto the plot without smoothing.
  cairo_surface_t* image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, int(p.cols), int(p.rows));
  cairo_surface_flush(image);
  unsigned char* bytes = cairo_image_surface_get_data(image);
  const int stride = cairo_image_surface_get_stride(image);
  for (std::size_t r = 0; r < p.rows; ++r)
    for (std::size_t c = 0; c < p.cols; ++c) {
      const auto rgb = map.at(p.values[r * p.cols + c]);
      const std::size_t line = p.origin_upper ? r : p.rows - 1 - r;
      auto* px = reinterpret_cast<std::uint32_t*>(bytes + line * std::size_t(stride)) + c;
      *px = (std::uint32_t(rgb[0]) << 16) | (std::uint32_t(rgb[1]) << 8) | rgb[2];
    }
  cairo_surface_mark_dirty(image);
  cairo_save(cr);
  cairo_rectangle(cr, plot.x, plot.y, plot.w, plot.h);
  cairo_clip(cr);
  cairo_translate(cr, plot.x, plot.y);
  cairo_scale(cr, plot.w / double(p.cols), plot.h / double(p.rows));
  cairo_set_source_surface(cr, image, 0, 0);
  // Sharp pixels where the plot enlarges the image; averaged ones where it
  // shrinks it (a 1025-pixel picture in a 466-pixel plot would alias).
  const bool shrinks = double(p.cols) > plot.w || double(p.rows) > plot.h;
  cairo_pattern_set_filter(cairo_get_source(cr), shrinks ? CAIRO_FILTER_GOOD : CAIRO_FILTER_NEAREST);
  cairo_paint(cr);
  cairo_restore(cr);
  cairo_surface_destroy(image);

  const Axis x{p.x_min, p.x_max, false, plot.x, plot.x + plot.w};
  const Axis y = p.origin_upper ? Axis{p.y_min, p.y_max, false, plot.y, plot.y + plot.h}
                                : Axis{p.y_min, p.y_max, false, plot.y + plot.h, plot.y};
  draw_axes(cr, plot, x, y, font);
  // Colour bar: vmin at the bottom, vmax at the top, numbered ticks; its
  // label above it, moved left where it would leave the panel.
  const Rect bar = snapped({plot.x + plot.w + colour_bar_gap * font, plot.y, colour_bar_width * font, plot.h});
  cairo_text_extents_t label_extents;
  cairo_text_extents(cr, p.colour_label.c_str(), &label_extents);
  const double label_centre =
      std::min(bar.x + bar.w / 2, panel.x + panel.w - font * 0.3 - label_extents.x_advance / 2);
  const double label_left = p.colour_label.empty() ? panel.x + panel.w : label_centre - label_extents.x_advance / 2;
  draw_labels(cr, panel, plot, p.title, p.x_label, p.y_label, font, label_left);

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
  const ColourBar numbers = colour_bar(p);
  for (std::size_t i = 0; i < numbers.ticks.size(); ++i) {
    const double py = v.at(numbers.ticks[i]);
    cairo_move_to(cr, bar.x + bar.w, std::round(py) + 0.5);
    cairo_line_to(cr, bar.x + bar.w + font * 0.3, std::round(py) + 0.5);
    cairo_stroke(cr);
    text_at(cr, numbers.labels[i], bar.x + bar.w + font * 0.45, py, 0, 0.5);
  }
  if (!p.colour_label.empty()) text_at(cr, p.colour_label, label_centre, bar.y - font * 0.3, 0.5, 1);
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
  else {
    const double pad = line_padding * (yhi - ylo);
    ylo -= pad, yhi += pad;
  }
  const Rect plot = snapped({panel.x + left_margin * font, panel.y + top_margin * font,
                             panel.w - (left_margin + right_margin) * font,
                             panel.h - (top_margin + bottom_margin) * font});
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
  draw_labels(cr, panel, plot, p.title, p.x_label, p.y_label, font, panel.x + panel.w);
  // Legend, top right inside the plot, where there are curves to tell apart.
  const auto named = std::count_if(p.series.begin(), p.series.end(), [](const LineSeries& s) { return !s.name.empty(); });
  if (named < 2) return;
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
  // The largest 1-2-5 step that still puts target − 1 ticks (or more) on the
  // range, so that a range just past a round step is not left with two.
  const int wanted = std::max(2, target - 1);
  double step = 0;
  for (double decade = std::pow(10.0, std::floor(std::log10(hi - lo))); step == 0; decade /= 10)
    for (double f : {5.0, 2.0, 1.0}) {
      const double s = f * decade;
      if (std::floor(hi / s + 1e-9) - std::ceil(lo / s - 1e-9) + 1 >= wanted) {
        step = s;
        break;
      }
    }
  // Integer multiples of the step (no accumulated round-off).
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k += 1) out.push_back(k * step);
  return out;
}

std::vector<double> log_ticks(double lo, double hi, int target) {
  std::vector<double> out;
  if (!(lo > 0) || !(hi > lo) || !std::isfinite(hi) || target < 1) return out;
  // A tick on an end of the range counts as inside (vmax = 1000 gets 10³).
  constexpr double slack = 1e-9;
  const int a = int(std::ceil(std::log10(lo) - slack)), b = int(std::floor(std::log10(hi) + slack));
  const int decades = b - a + 1;
  if (decades >= 2) {
    const int stride = std::max(1, decades / target);
    // Multiples of the stride, so that labels read 10⁰, 10², 10⁴ … alike.
    const int first = int(std::ceil(double(a) / stride)) * stride;
    for (int k = first; k <= b; k += stride) out.push_back(std::pow(10.0, k));
    return out;
  }
  for (int d = int(std::floor(std::log10(lo))); d <= b; ++d)
    for (double m : {1.0, 2.0, 5.0}) {
      const double v = m * std::pow(10.0, d);
      if (v >= lo * (1 - slack) && v <= hi * (1 + slack)) out.push_back(v);
    }
  return out.size() >= 2 ? out : nice_ticks(lo, hi, target);
}

std::vector<std::string> tick_labels(const std::vector<double>& ticks, bool log) {
  std::vector<std::string> out;
  auto one_two_five = [](double v) {
    const double m = v / std::pow(10.0, std::floor(std::log10(v) + 1e-9));
    return std::abs(m - 1) < 1e-9 || std::abs(m - 2) < 1e-9 || std::abs(m - 5) < 1e-9;
  };
  // log_ticks' linear fallback (less than a 1-2-5 pair inside) reads as linear.
  if (log && !std::all_of(ticks.begin(), ticks.end(), one_two_five)) return tick_labels(ticks, false);
  if (log) {
    // Plain numbers where every tick allows them, else powers of ten for all
    // (one style along an axis).
    auto exponent = [](double v) { return int(std::floor(std::log10(v) + 1e-9)); };
    const bool plain = std::all_of(ticks.begin(), ticks.end(), [&](double v) {
      return exponent(v) >= plain_log_min && exponent(v) <= plain_log_max;
    });
    for (double v : ticks) {
      const int k = exponent(v);
      const double mantissa = v / std::pow(10.0, k);
      const bool decade = std::abs(mantissa - 1) < 1e-9;
      if (plain) out.push_back(fixed(v, std::max(0, -k)));
      else out.push_back(decade ? power_of_ten(k) : fixed(mantissa, 0) + "×" + power_of_ten(k));
    }
    return out;
  }
  if (ticks.empty()) return out;
  double step = 0, largest = 0;
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    largest = std::max(largest, std::abs(ticks[i]));
    if (i) step = step > 0 ? std::min(step, ticks[i] - ticks[i - 1]) : ticks[i] - ticks[i - 1];
  }
  if (!(step > 0)) step = largest > 0 ? largest : 1;
  const int step_digit = int(std::floor(std::log10(step) + 1e-9));
  if (largest < plain_linear_max && step >= plain_linear_step) {
    for (double v : ticks) out.push_back(fixed(v, -step_digit));
    return out;
  }
  // m×10ᵏ with k from the largest tick and as many mantissa decimals as the step needs.
  const int k = int(std::floor(std::log10(largest) + 1e-9));
  for (double v : ticks) {
    if (v == 0) out.push_back("0");
    else out.push_back(fixed(v / std::pow(10.0, k), k - step_digit) + "×" + power_of_ten(k));
  }
  return out;
}

ColourBar colour_bar(const ImagePanel& panel) {
  const ColourMap map = colour_map(panel);
  ColourBar bar;
  bar.vmin = map.vmin, bar.vmax = map.vmax;
  bar.log = map.scale == ColourScale::log_viridis;
  bar.ticks = bar.log ? log_ticks(bar.vmin, bar.vmax, axis_ticks) : nice_ticks(bar.vmin, bar.vmax, axis_ticks);
  bar.labels = tick_labels(bar.ticks, bar.log);
  return bar;
}

FigureOptions quick_look_figure() {
  FigureOptions o;
  // Large enough for a 256-ring or 400-pixel detector to show its rings at
  // about one picture pixel each, with 14-pixel text.
  o.panel_width = 640, o.panel_height = 560, o.font_size = 14;
  return o;
}

FigureOptions line_figure() {
  FigureOptions o;
  o.panel_width = 800, o.panel_height = 500, o.font_size = 14;
  return o;
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
  // cairo's RGB24 pixels are native-endian 32-bit words 0x00RRGGBB; the one
  // PNG encoder (io_png.hpp) takes RGB bytes and writes the tEXt entries.
  const unsigned char* data = cairo_image_surface_get_data(surface.get());
  const int stride = cairo_image_surface_get_stride(surface.get());
  std::vector<std::uint8_t> rgb(std::size_t(width) * std::size_t(height) * 3);
  for (int y = 0; y < height; ++y) {
    const auto* line = reinterpret_cast<const std::uint32_t*>(data + std::size_t(y) * std::size_t(stride));
    for (int x = 0; x < width; ++x) {
      std::uint8_t* px = &rgb[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3];
      px[0] = std::uint8_t(line[x] >> 16), px[1] = std::uint8_t(line[x] >> 8), px[2] = std::uint8_t(line[x]);
    }
  }
  write_rgb_png(path, rgb, std::size_t(width), std::size_t(height), options.text);
}

}  // namespace nanoscatter
