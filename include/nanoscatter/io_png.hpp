// The one PNG encoder (8-bit RGB with tEXt metadata) and the colours of
// nanoscatter's pictures. The pictures themselves (axes, colour bars, line
// plots) are drawn by io_figure.hpp, which hands its pixels to
// write_rgb_png.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace nanoscatter {

// Writes `rgb` (3 bytes per pixel, rows top to bottom, width × height) as an
// 8-bit RGB PNG with the tEXt entries (keyword 1–79 printable Latin-1
// characters, text Latin-1) plus Software = "nanoscatter <version>", through
// AtomicOutput. Throws Error naming the file (and the keyword at fault).
void write_rgb_png(const std::filesystem::path& path, const std::vector<std::uint8_t>& rgb, std::size_t width,
                   std::size_t height, const std::vector<std::pair<std::string, std::string>>& text = {});

// The viridis colour for t in [0, 1] (clamped), as 8-bit sRGB.
std::array<std::uint8_t, 3> viridis_rgb(double t);
// The 256 entries of the table behind viridis_rgb (for tests and legends).
const std::array<std::array<std::uint8_t, 3>, 256>& viridis_table();

// Colours for the series of a line plot: black (the total), then
// matplotlib's tab10 cycle.
const std::array<std::array<std::uint8_t, 3>, 10>& plot_colours();

}  // namespace nanoscatter
