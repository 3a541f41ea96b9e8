// The cairo figure module: a PNG of the requested size, colours where the
// panels put them, UTF-8 text (Å, χ², σ) without a crash, and line panels.
#include <gtest/gtest.h>
#include <png.h>

#include <cstdio>
#include <filesystem>

#include "nanoscatter/io_figure.hpp"
#include "nanoscatter/io_png.hpp"

namespace nanoscatter {
namespace {

struct Picture {
  png_uint_32 width = 0, height = 0;
  std::vector<std::array<std::uint8_t, 3>> rgb;
  std::array<std::uint8_t, 3> at(int x, int y) const { return rgb[std::size_t(y) * width + std::size_t(x)]; }
};

Picture read_png(const std::filesystem::path& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  EXPECT_TRUE(png_image_begin_read_from_file(&image, path.c_str()));
  image.format = PNG_FORMAT_RGB;
  Picture p;
  p.width = image.width, p.height = image.height;
  std::vector<std::uint8_t> bytes(PNG_IMAGE_SIZE(image));
  EXPECT_TRUE(png_image_finish_read(&image, nullptr, bytes.data(), 0, nullptr));
  for (std::size_t i = 0; i + 2 < bytes.size(); i += 3) p.rgb.push_back({bytes[i], bytes[i + 1], bytes[i + 2]});
  return p;
}

TEST(IoFigure, ImagePanelsHaveTheirSizeAndColours) {
  const auto dir = std::filesystem::temp_directory_path() / "ns_figure_test";
  std::filesystem::create_directories(dir);
  ImagePanel constant;
  constant.title = "q (Å⁻¹), χ², σ";
  constant.x_label = "φ_f (°)";
  constant.y_label = "α_f (°)";
  constant.rows = 10, constant.cols = 10;
  constant.values.assign(100, 5.0);
  constant.vmin = 1, constant.vmax = 5;  // 5 is the top of the log scale: viridis(1)
  ImagePanel residual = constant;
  residual.scale = ColourScale::diverging;
  residual.values.assign(100, 0.0);  // 0 on a symmetric diverging scale: white
  residual.vmin = -1, residual.vmax = 1;
  FigureOptions o;
  const auto path = dir / "figure.png";
  write_figure_png(path, {constant, residual}, o);
  const Picture p = read_png(path);
  EXPECT_EQ(p.width, png_uint_32(2 * o.panel_width));
  EXPECT_EQ(p.height, png_uint_32(o.panel_height));
  // The middle of each plot area (left margin 5 fonts, colour bar ~6.2 fonts on the right).
  const int y = o.panel_height / 2;
  const int x0 = int(5 * o.font_size + (o.panel_width - 12.4 * o.font_size) / 2);
  EXPECT_EQ(p.at(x0, y), viridis_rgb(1.0));
  EXPECT_EQ(p.at(o.panel_width + x0, y), (std::array<std::uint8_t, 3>{255, 255, 255}));
  EXPECT_EQ(p.at(0, 0), (std::array<std::uint8_t, 3>{255, 255, 255}));  // background
  std::filesystem::remove_all(dir);
}

TEST(IoFigure, LinePanelsAndTicks) {
  const auto dir = std::filesystem::temp_directory_path() / "ns_figure_lines";
  std::filesystem::create_directories(dir);
  LinePanel lines;
  lines.title = "I(Q) — Å⁻¹";
  lines.x_label = "Q (Å⁻¹)";
  lines.y_label = "I";
  lines.log_y = true;
  LineSeries s{"data", {}, {}, {255, 0, 0}};
  for (int i = 1; i < 100; ++i) s.x.push_back(0.01 * i), s.y.push_back(1.0 / (i * i));
  lines.series = {s};
  write_figure_png(dir / "lines.png", {lines});
  const Picture p = read_png(dir / "lines.png");
  EXPECT_EQ(p.width, 420u);
  int red = 0;
  for (const auto& c : p.rgb) red += c[0] > 200 && c[1] < 80 && c[2] < 80;
  EXPECT_GT(red, 100);  // the curve was drawn
  const std::vector<double> ticks = nice_ticks(0, 1, 5), expected{0, 0.2, 0.4, 0.6, 0.8, 1};
  ASSERT_EQ(ticks.size(), expected.size());
  for (std::size_t i = 0; i < ticks.size(); ++i) EXPECT_NEAR(ticks[i], expected[i], 1e-15);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace nanoscatter
