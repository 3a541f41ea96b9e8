// Quick-look PNG pictures of 2D intensities on a log10 colour scale, and
// line plots of 1D results (I(Q), G(r)).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nanoscatter {

struct PngOptions {
  // The colour scale runs from log10(vmin) to log10(vmax). By default vmax is
  // the largest finite pixel and vmin = max(vmax / dynamic_range, smallest
  // positive pixel), so a picture spans at most log10(dynamic_range) decades
  // (1e6: six decades show many SAXS fringes without drowning the picture in
  // round-off noise) and uses the whole colour map when the data span fewer.
  // Given values must satisfy 0 < vmin < vmax.
  std::optional<double> vmin;
  std::optional<double> vmax;
  double dynamic_range = 1e6;
  // Row 0 of the image is the top line of the picture (as numpy/h5py/imshow
  // show an array); true puts row 0 at the bottom (q_z upwards on a detector).
  bool origin_lower = false;
  // A vertical colour bar (vmax at the top, vmin at the bottom) right of the
  // image, separated by a white gap.
  bool colour_bar = true;
  std::size_t colour_bar_width = 16;  // pixels
  std::size_t colour_bar_gap = 4;     // pixels
  // Extra tEXt chunks (keyword, text); keywords 1–79 printable Latin-1.
  std::vector<std::pair<std::string, std::string>> text;
};

// The range the picture was drawn with (also stored in the file).
struct PngRange {
  double vmin = 0;
  double vmax = 0;
};

// Writes an 8-bit RGB PNG of `rows`×`cols` pixels (plus the colour bar) with
// the viridis colour map: pixels ≤ vmin (including zero and negatives) get the
// lowest colour, ≥ vmax the highest, and non-finite pixels (NaN, ±inf) the
// `non_finite_rgb` colour, which viridis never uses. tEXt chunks record
// nanoscatter:vmin, nanoscatter:vmax (17 significant digits),
// nanoscatter:scale = log10 and nanoscatter:colormap = viridis. Goes through
// AtomicOutput; throws Error naming the file (and the option at fault).
PngRange write_png_log(const std::filesystem::path& path, const double* image, std::size_t rows,
                       std::size_t cols, const PngOptions& options = {});

// Non-finite pixels: magenta, far from every viridis colour.
inline constexpr std::array<std::uint8_t, 3> non_finite_rgb{255, 0, 255};

// The viridis colour for t in [0, 1] (clamped), as 8-bit sRGB.
std::array<std::uint8_t, 3> viridis_rgb(double t);
// The 256 entries of the table behind viridis_rgb (for tests and legends).
const std::array<std::array<std::uint8_t, 3>, 256>& viridis_table();

// ---- Line plots ------------------------------------------------------------

// One curve of a plot: y over the plot's x values, in an 8-bit sRGB colour.
struct PlotSeries {
  std::string name;
  std::vector<double> y;
  std::array<std::uint8_t, 3> rgb{0, 0, 0};
};

struct PlotOptions {
  std::size_t width = 800;  // pixels, 200–10000
  std::size_t height = 500;  // pixels, 150–10000
  bool log_x = false;
  bool log_y = true;
  // Log y axes span at most this factor below the largest value (as the
  // images' dynamic_range), and start at the smallest positive value when
  // the data span less.
  double dynamic_range = 1e8;
  // Recorded as tEXt (the picture has numbers on its ticks but no words).
  std::string x_label;
  std::string y_label;
  std::vector<std::pair<std::string, std::string>> text;
};

struct PlotRange {
  double xmin = 0, xmax = 0, ymin = 0, ymax = 0;
};

// Writes an 8-bit RGB PNG line plot of the series over x: a frame, grid
// lines with numbered ticks (decades on log axes, 1-2-5 steps on linear
// ones), each series as a 2-pixel line (the first drawn on top); points
// that are not finite, or ≤ 0 on a log axis, break the line. tEXt chunks
// record nanoscatter:xmin/xmax/ymin/ymax (17 significant digits),
// xscale/yscale, xlabel/ylabel and series ("name #rrggbb; ..."). Goes
// through AtomicOutput; throws Error naming the file.
PlotRange write_png_plot(const std::filesystem::path& path, const std::vector<double>& x,
                         const std::vector<PlotSeries>& series, const PlotOptions& options = {});

// Colours for the series of a plot: black (the total), then matplotlib's
// tab10 cycle.
const std::array<std::array<std::uint8_t, 3>, 10>& plot_colours();

}  // namespace nanoscatter
