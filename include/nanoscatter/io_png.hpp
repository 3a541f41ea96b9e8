// Quick-look PNG pictures of 2D intensities on a log10 colour scale.
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

}  // namespace nanoscatter
