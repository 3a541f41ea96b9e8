// Figures with axes, tick labels, units, titles and colour bars, drawn with
// cairo into PNG files: panels side by side, each an image (log or linear
// colour scale) or a line plot. Text is UTF-8 (Å, χ², σ) in cairo's "sans"
// font. Every picture the engines write goes through here: the `--png`
// quick-looks (debye, pattern2d, gisaxs, rmc) and the fit results.
#pragma once
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace nanoscatter {

enum class ColourScale {
  log_viridis,       // log10, viridis (io_png.hpp's table); values ≤ 0 get the lowest colour
  linear_viridis,
  diverging,         // linear, blue–white–red, symmetric about 0 unless vmin/vmax are given
};

// An image panel: values rows × cols, row-major, row 0 drawn at the BOTTOM
// (the model's orientation: α_f, q_z upwards), spanning [x_min, x_max] ×
// [y_min, y_max] in axis units (pixel edges: y_min is row 0's outer edge).
// Non-finite pixels (masked, off the detector) are grey.
struct ImagePanel {
  std::string title, x_label, y_label, colour_label;
  std::vector<double> values;
  std::size_t rows = 0, cols = 0;
  double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
  ColourScale scale = ColourScale::log_viridis;
  std::optional<double> vmin, vmax;  // default: the finite data's range (log: ≤ 6 decades)
  // Row 0 at the TOP and the y axis running downwards, as image viewers and
  // imshow show an array (for images read from a file, such as RMC targets).
  bool origin_upper = false;
  // One axis unit as long across as up (maps of q_x, q_y or of positions):
  // the plot area shrinks in one direction, centred in its panel.
  bool equal_aspect = false;
};

// A curve; its name goes into the legend (top right), drawn where two or
// more curves have names. The first series is drawn on top.
struct LineSeries {
  std::string name;
  std::vector<double> x, y;
  std::array<std::uint8_t, 3> rgb{0, 0, 0};
};
struct LinePanel {
  std::string title, x_label, y_label;
  std::vector<LineSeries> series;
  // Log axes leave out points ≤ 0; a log y axis spans at most six decades
  // below the largest value, a linear one pads the data by 5 % each way.
  bool log_x = false, log_y = false;
};

using FigurePanel = std::variant<ImagePanel, LinePanel>;

struct FigureOptions {
  int panel_width = 420, panel_height = 360;  // pixels per panel, colour bar included
  double font_size = 12;                      // pixels
  // PNG tEXt entries (keyword, Latin-1 text): the run's record
  // (png_header_entries in run_record.hpp), so a picture says what made it.
  std::vector<std::pair<std::string, std::string>> text;
};

// Writes the panels side by side as an RGB PNG (write_rgb_png: through
// AtomicOutput, with options.text); throws Error naming the file (and the
// panel at fault).
void write_figure_png(const std::filesystem::path& path, const std::vector<FigurePanel>& panels,
                      const FigureOptions& options = {});

// The quick-look size of a one-image figure, for every engine's `--png`.
FigureOptions quick_look_figure();
// The size of a one-plot figure (I(Q), G(r), line fits).
FigureOptions line_figure();

// What an image panel's colour bar shows: the range its colours span (the
// given vmin/vmax, else the finite data's, a log scale at most six decades
// below the largest value) and the numbered ticks on the bar.
struct ColourBar {
  double vmin = 0, vmax = 1;
  bool log = true;
  std::vector<double> ticks;
  std::vector<std::string> labels;
};
ColourBar colour_bar(const ImagePanel& panel);

// The diverging colour for t in [0, 1]: blue (0) – white (0.5) – red (1).
std::array<std::uint8_t, 3> diverging_rgb(double t);

// Tick positions of a linear axis: multiples of the largest 1-2-5 step that
// puts at least target − 1 of them on [lo, hi] (0–1, 5: 0, 0.2, … 1).
std::vector<double> nice_ticks(double lo, double hi, int target);
// Tick positions of a log axis (0 < lo < hi): the decades inside, every
// k-th of them for at most about `target`; where fewer than two decades lie
// inside, 1-2-5 multiples of the decades, else linear ticks (nice_ticks).
std::vector<double> log_ticks(double lo, double hi, int target);
// Labels for ticks as returned above: linear ticks with as many decimals as
// their step needs (0.5, 1, 1.5; not 1.0000001); log ticks 0.01 … 1000 in
// plain numbers, others as 10⁻⁵ or 2×10⁻⁵.
std::vector<std::string> tick_labels(const std::vector<double>& ticks, bool log);

}  // namespace nanoscatter
