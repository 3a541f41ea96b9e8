// Figures with axes, tick labels, units, titles and colour bars, drawn with
// cairo into PNG files: panels side by side, each an image (log or linear
// colour scale) or a line plot. Text is UTF-8 (Å, χ², σ) in cairo's "sans"
// font. Used for fit results (data / fit / normalised residual) and line
// fits (powder, PDF).
#pragma once
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
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
// [y_min, y_max] in axis units (pixel edges). Non-finite pixels are grey.
struct ImagePanel {
  std::string title, x_label, y_label, colour_label;
  std::vector<double> values;
  std::size_t rows = 0, cols = 0;
  double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
  ColourScale scale = ColourScale::log_viridis;
  std::optional<double> vmin, vmax;  // default: the finite data's range (log: ≤ 6 decades)
};

struct LineSeries {
  std::string name;
  std::vector<double> x, y;
  std::array<std::uint8_t, 3> rgb{0, 0, 0};
};
struct LinePanel {
  std::string title, x_label, y_label;
  std::vector<LineSeries> series;
  bool log_x = false, log_y = false;
};

using FigurePanel = std::variant<ImagePanel, LinePanel>;

struct FigureOptions {
  int panel_width = 420, panel_height = 360;  // pixels per panel, colour bar included
  double font_size = 12;                      // pixels
};

// Writes the panels side by side as an RGB PNG through AtomicOutput;
// throws Error naming the file (and the panel at fault).
void write_figure_png(const std::filesystem::path& path, const std::vector<FigurePanel>& panels,
                      const FigureOptions& options = {});

// The diverging colour for t in [0, 1]: blue (0) – white (0.5) – red (1).
std::array<std::uint8_t, 3> diverging_rgb(double t);

// Tick positions of a linear axis at 1-2-5 steps (about `target` ticks).
std::vector<double> nice_ticks(double lo, double hi, int target);

}  // namespace nanoscatter
