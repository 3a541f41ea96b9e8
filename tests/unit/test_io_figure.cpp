// The cairo figure module: a PNG of the requested size, colours where the
// panels put them (row 0 at the bottom or the top, equal aspect), UTF-8
// text (Å, χ², σ) without a crash, line panels, the run's record in tEXt;
// and the layout's choices: ticks for linear and log ranges, their labels,
// the colour bar's range and numbers.
#include <gtest/gtest.h>
#include <png.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "nanoscatter/error.hpp"
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

// The plot area of a one-image panel (figure.cpp's margins, in font sizes:
// left 5, top 2.2, bottom 3.6, right 1.2 plus the colour bar's 0.8 + 1.2 + 4.2).
struct PlotArea {
  double x, y, w, h;
};
PlotArea image_plot_area(const FigureOptions& o) {
  const double f = o.font_size;
  return {5 * f, 2.2 * f, o.panel_width - 12.4 * f, o.panel_height - 5.8 * f};
}

ImagePanel two_rows() {  // row 0 dark (1), row 1 bright (1e6), log scale
  ImagePanel p;
  p.rows = 2, p.cols = 2;
  p.values = {1, 1, 1e6, 1e6};
  return p;
}

TEST(IoFigure, RowZeroAtTheBottomOrTheTop) {
  const auto dir = std::filesystem::temp_directory_path() / "ns_figure_origin";
  std::filesystem::create_directories(dir);
  const FigureOptions o;
  const PlotArea a = image_plot_area(o);
  const int x = int(a.x + a.w / 2), upper = int(a.y + a.h / 4), lower = int(a.y + 3 * a.h / 4);
  ImagePanel p = two_rows();
  write_figure_png(dir / "lower.png", {p}, o);
  Picture pic = read_png(dir / "lower.png");
  EXPECT_EQ(pic.at(x, upper), viridis_rgb(1.0));
  EXPECT_EQ(pic.at(x, lower), viridis_rgb(0.0));
  p.origin_upper = true;
  write_figure_png(dir / "upper.png", {p}, o);
  pic = read_png(dir / "upper.png");
  EXPECT_EQ(pic.at(x, upper), viridis_rgb(0.0));
  EXPECT_EQ(pic.at(x, lower), viridis_rgb(1.0));
  std::filesystem::remove_all(dir);
}

TEST(IoFigure, EqualAspectShrinksThePlotArea) {
  const auto dir = std::filesystem::temp_directory_path() / "ns_figure_aspect";
  std::filesystem::create_directories(dir);
  const FigureOptions o;
  const PlotArea a = image_plot_area(o);
  ImagePanel p = two_rows();
  p.values.assign(4, 1e6);
  p.x_min = -2, p.x_max = 2, p.y_min = -0.5, p.y_max = 0.5;  // four units across, one up
  p.equal_aspect = true;
  write_figure_png(dir / "aspect.png", {p}, o);
  const Picture pic = read_png(dir / "aspect.png");
  // The plot keeps its width and is a quarter as high, centred: its middle
  // is the image's colour, a point an eighth of the height above it white.
  ASSERT_GT(a.h, a.w / 4 + 8);  // the test needs room above the shrunk plot
  const int x = int(a.x + a.w / 2), middle = int(a.y + a.h / 2);
  EXPECT_EQ(pic.at(x, middle), viridis_rgb(1.0));
  EXPECT_EQ(pic.at(x, int(middle - a.w / 8 - 4)), (std::array<std::uint8_t, 3>{255, 255, 255}));
  EXPECT_EQ(pic.at(int(a.x + 2), middle), viridis_rgb(1.0));  // the full width
  p.x_max = p.x_min;
  EXPECT_THROW(write_figure_png(dir / "bad.png", {p}, o), Error);
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.png"));
  std::filesystem::remove_all(dir);
}

TEST(IoFigure, RecordGoesIntoTextChunks) {
  const auto dir = std::filesystem::temp_directory_path() / "ns_figure_text";
  std::filesystem::create_directories(dir);
  FigureOptions o = quick_look_figure();
  o.text = {{"nanoscatter:header_1", "command: nanoscatter test"}};
  write_figure_png(dir / "t.png", {two_rows()}, o);
  const Picture pic = read_png(dir / "t.png");
  EXPECT_EQ(pic.width, png_uint_32(o.panel_width));
  EXPECT_EQ(pic.height, png_uint_32(o.panel_height));
  std::ifstream f(dir / "t.png", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_NE(bytes.find(std::string("tEXtnanoscatter:header_1\0command: nanoscatter test", 50)), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(IoFigure, LinearTicksAndLabels) {
  // One number of decimals for all, from the step (as matplotlib labels them).
  EXPECT_EQ(tick_labels(nice_ticks(0, 1, 5), false),
            (std::vector<std::string>{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
  // A range just past a round step gets the finer one (not −0.2, 0, 0.2).
  EXPECT_EQ(tick_labels(nice_ticks(-0.35, 0.35, 5), false),
            (std::vector<std::string>{"−0.3", "−0.2", "−0.1", "0.0", "0.1", "0.2", "0.3"}));
  // A range far from zero keeps the digits its step needs.
  EXPECT_EQ(tick_labels(nice_ticks(1000.01, 1000.09, 5), false),
            (std::vector<std::string>{"1000.02", "1000.04", "1000.06", "1000.08"}));
  EXPECT_EQ(tick_labels(nice_ticks(-32.5, 31.5, 5), false),
            (std::vector<std::string>{"−30", "−20", "−10", "0", "10", "20", "30"}));
  // Large and tiny values as m×10ᵏ.
  EXPECT_EQ(tick_labels(nice_ticks(0, 3e5, 4), false), (std::vector<std::string>{"0", "1×10⁵", "2×10⁵", "3×10⁵"}));
  EXPECT_EQ(tick_labels({2e-5, 4e-5}, false), (std::vector<std::string>{"2×10⁻⁵", "4×10⁻⁵"}));
}

TEST(IoFigure, LogTicksForWideAndNarrowRanges) {
  // Six decades: every decade, as powers of ten (10⁻³ is past plain numbers).
  EXPECT_EQ(tick_labels(log_ticks(1e-3, 1e3, 5), true),
            (std::vector<std::string>{"10⁻³", "10⁻²", "10⁻¹", "10⁰", "10¹", "10²", "10³"}));
  EXPECT_EQ(tick_labels(log_ticks(0.01, 1000, 5), true),
            (std::vector<std::string>{"0.01", "0.1", "1", "10", "100", "1000"}));
  // Twelve decades: every second, on even exponents.
  const std::vector<double> wide = log_ticks(3e-7, 2e5, 5);
  EXPECT_EQ(tick_labels(wide, true), (std::vector<std::string>{"10⁻⁶", "10⁻⁴", "10⁻²", "10⁰", "10²", "10⁴"}));
  // Less than two decades inside: 1-2-5 multiples.
  EXPECT_EQ(tick_labels(log_ticks(1.5e4, 9e5, 5), true), (std::vector<std::string>{"2×10⁴", "5×10⁴", "10⁵", "2×10⁵", "5×10⁵"}));
  EXPECT_EQ(log_ticks(0.5, 1, 5), (std::vector<double>{0.5, 1}));
  // Not even a 1-2-5 pair: linear ticks, labelled as such.
  EXPECT_EQ(tick_labels(log_ticks(0.6, 0.9, 5), true), (std::vector<std::string>{"0.6", "0.7", "0.8", "0.9"}));
  EXPECT_TRUE(log_ticks(0, 1, 5).empty());
}

TEST(IoFigure, ColourBarRangeAndNumbers) {
  ImagePanel p;
  p.rows = 1, p.cols = 4;
  p.values = {1e-5, 1, 1e3, std::nan("")};  // 8 decades: the bar keeps the top 6
  ColourBar bar = colour_bar(p);
  EXPECT_TRUE(bar.log);
  EXPECT_DOUBLE_EQ(bar.vmax, 1e3);
  EXPECT_DOUBLE_EQ(bar.vmin, 1e-3);
  EXPECT_EQ(bar.labels, (std::vector<std::string>{"10⁻³", "10⁻²", "10⁻¹", "10⁰", "10¹", "10²", "10³"}));
  p.values = {10, 20, 0, 1000};  // fewer decades: from the smallest positive value
  bar = colour_bar(p);
  EXPECT_DOUBLE_EQ(bar.vmin, 10);
  EXPECT_EQ(bar.labels, (std::vector<std::string>{"10", "100", "1000"}));
  p.scale = ColourScale::linear_viridis;
  p.vmin = 0, p.vmax = 1;
  bar = colour_bar(p);
  EXPECT_FALSE(bar.log);
  EXPECT_EQ(bar.labels, (std::vector<std::string>{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
  p.scale = ColourScale::diverging;
  p.vmin.reset(), p.vmax.reset();
  p.values = {-3, 1, 2, 0};  // symmetric about 0
  bar = colour_bar(p);
  EXPECT_EQ(bar.vmin, -3);
  EXPECT_EQ(bar.vmax, 3);
  EXPECT_EQ(bar.labels, (std::vector<std::string>{"−3", "−2", "−1", "0", "1", "2", "3"}));
}

}  // namespace
}  // namespace nanoscatter
