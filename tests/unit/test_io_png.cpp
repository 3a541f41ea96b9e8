// PNG quick-looks: decoded with libpng to the expected size, colours and
// tEXt metadata; the viridis table's lightness rises monotonically; failed
// writes leave no file.
#include <gtest/gtest.h>
#include <png.h>

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>

#include "nanoscatter/error.hpp"
#include "nanoscatter/io_png.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

struct DecodedPng {
  png_uint_32 width = 0, height = 0;
  int bit_depth = 0, color_type = 0;
  std::vector<png_byte> rgb;  // 3 bytes per pixel, rows top to bottom
  std::map<std::string, std::string> text;
  std::array<png_byte, 3> at(std::size_t y, std::size_t x) const {
    const png_byte* p = &rgb[(y * width + x) * 3];
    return {p[0], p[1], p[2]};
  }
};

// Decodes `fp` into `out` with libpng's own reader (independent of the
// writer's code path). libpng reports errors by longjmp, so this function
// creates no object with a destructor after setjmp.
bool decode(std::FILE* fp, DecodedPng* out) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    return false;
  }
  png_init_io(png, fp);
  png_read_info(png, info);
  out->width = png_get_image_width(png, info);
  out->height = png_get_image_height(png, info);
  out->bit_depth = png_get_bit_depth(png, info);
  out->color_type = png_get_color_type(png, info);
  if (out->bit_depth != 8 || out->color_type != PNG_COLOR_TYPE_RGB) {
    png_destroy_read_struct(&png, &info, nullptr);
    return true;  // the caller checks the format
  }
  out->rgb.resize(std::size_t(out->width) * out->height * 3);
  for (png_uint_32 y = 0; y < out->height; ++y) png_read_row(png, &out->rgb[y * out->width * 3], nullptr);
  png_read_end(png, info);
  png_textp texts = nullptr;
  const int n = png_get_text(png, info, &texts, nullptr);
  for (int i = 0; i < n; ++i) out->text[texts[i].key] = texts[i].text;
  png_destroy_read_struct(&png, &info, nullptr);
  return true;
}

DecodedPng read_png(const std::filesystem::path& path) {
  DecodedPng out;
  std::FILE* fp = std::fopen(path.c_str(), "rb");
  EXPECT_NE(fp, nullptr) << path;
  if (!fp) return out;
  EXPECT_TRUE(decode(fp, &out)) << path;
  std::fclose(fp);
  EXPECT_EQ(out.bit_depth, 8);
  EXPECT_EQ(out.color_type, PNG_COLOR_TYPE_RGB);
  return out;
}

// CIE L* of an 8-bit sRGB colour (IEC 61966-2-1 transfer, D65 luminance
// weights, CIE 1976 lightness): the quantity viridis is designed to raise
// monotonically.
double lightness(const std::array<std::uint8_t, 3>& c) {
  auto linear = [](std::uint8_t v) {
    const double s = v / 255.0;
    return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
  };
  const double y = 0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2]);
  return y > 216.0 / 24389.0 ? 116.0 * std::cbrt(y) - 16.0 : 24389.0 / 27.0 * y;
}

std::array<std::uint8_t, 3> as_array(const std::array<png_byte, 3>& p) { return {p[0], p[1], p[2]}; }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(IoPng, ViridisTableMatchesMatplotlibEndsAndLightnessRises) {
  const auto& table = viridis_table();
  // End points of matplotlib's _viridis_data, rounded to 8 bits:
  // (0.267004, 0.004874, 0.329415) and (0.993248, 0.906157, 0.143936).
  EXPECT_EQ(table[0], (std::array<std::uint8_t, 3>{68, 1, 84}));
  EXPECT_EQ(table[255], (std::array<std::uint8_t, 3>{253, 231, 37}));
  // Viridis' L* rises strictly in the float table; rounding to 8 bits can
  // lower one step by at most ~0.03 (so allow 0.05), while every two steps
  // must still rise.
  for (std::size_t i = 0; i + 1 < 256; ++i)
    EXPECT_GT(lightness(table[i + 1]), lightness(table[i]) - 0.05) << i;
  for (std::size_t i = 0; i + 2 < 256; ++i)
    EXPECT_GT(lightness(table[i + 2]), lightness(table[i])) << i;
  EXPECT_EQ(viridis_rgb(-1.0), table[0]);
  EXPECT_EQ(viridis_rgb(2.0), table[255]);
  EXPECT_EQ(viridis_rgb(0.5), table[128]);
  // The non-finite marker is far from every map colour.
  for (const auto& c : table) {
    const int d = std::abs(c[0] - non_finite_rgb[0]) + std::abs(c[1] - non_finite_rgb[1]) +
                  std::abs(c[2] - non_finite_rgb[2]);
    EXPECT_GT(d, 150);
  }
}

TEST(IoPng, SizeMetadataAndPixelColours) {
  test::TempDir dir("io_png_basic");
  const std::size_t rows = 20, cols = 30;
  // A ramp over 8 decades along each row: 10^(-5 + 8 c/(cols-1)).
  std::vector<double> img(rows * cols);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) img[r * cols + c] = std::pow(10.0, -5.0 + 8.0 * c / (cols - 1));
  img[3 * cols + 4] = NAN;
  img[4 * cols + 4] = INFINITY;
  img[5 * cols + 4] = 0.0;
  img[6 * cols + 4] = -3.0;

  PngOptions options;
  options.text = {{"Comment", "test ramp"}};
  const PngRange range = write_png_log(dir / "img.png", img.data(), rows, cols, options);
  // Default range: vmax = largest finite pixel = 1e3; 8 decades exceed the
  // default 1e6 dynamic range, so vmin = 1e3 / 1e6 = 1e-3 (both up to the
  // rounding of pow and the division, 1 ulp-ish; 1e-15 relative).
  EXPECT_NEAR(range.vmax, 1e3, 1e3 * 1e-15);
  EXPECT_NEAR(range.vmin, 1e-3, 1e-3 * 1e-15);

  const DecodedPng png = read_png(dir / "img.png");
  EXPECT_EQ(png.height, rows);
  EXPECT_EQ(png.width, cols + options.colour_bar_gap + options.colour_bar_width);
  // tEXt chunks carry the range to 17 digits, which parse back exactly.
  ASSERT_EQ(png.text.count("nanoscatter:vmin"), 1u);
  ASSERT_EQ(png.text.count("nanoscatter:vmax"), 1u);
  EXPECT_EQ(std::strtod(png.text.at("nanoscatter:vmin").c_str(), nullptr), range.vmin);
  EXPECT_EQ(std::strtod(png.text.at("nanoscatter:vmax").c_str(), nullptr), range.vmax);
  EXPECT_EQ(png.text.at("nanoscatter:scale"), "log10");
  EXPECT_EQ(png.text.at("nanoscatter:colormap"), "viridis");
  EXPECT_EQ(png.text.at("Comment"), "test ramp");

  const auto& table = viridis_table();
  // Column c has log10 value -5 + 8c/29; t = (log10 v + 3) / 6.
  for (std::size_t c = 0; c < cols; ++c) {
    const double t = (-5.0 + 8.0 * c / (cols - 1) + 3.0) / 6.0;
    const double pos = std::clamp(t, 0.0, 1.0) * 256.0;
    if (std::abs(pos - std::round(pos)) < 1e-6) continue;  // bin edge: either neighbour is right
    const auto expected = table[std::min<std::size_t>(255, static_cast<std::size_t>(pos))];
    EXPECT_EQ(as_array(png.at(0, c)), expected) << "column " << c;
  }
  EXPECT_EQ(as_array(png.at(3, 4)), non_finite_rgb);  // NaN
  EXPECT_EQ(as_array(png.at(4, 4)), non_finite_rgb);  // +inf
  EXPECT_EQ(as_array(png.at(5, 4)), table[0]);        // zero: below any log scale
  EXPECT_EQ(as_array(png.at(6, 4)), table[0]);        // negative
  // Lightness along a row never falls (8-bit rounding allowance as above).
  for (std::size_t c = 0; c + 1 < cols; ++c)
    EXPECT_GE(lightness(as_array(png.at(10, c + 1))), lightness(as_array(png.at(10, c))) - 0.05);
  // The gap is white; the colour bar runs from vmin (bottom) to vmax (top).
  EXPECT_EQ(as_array(png.at(0, cols)), (std::array<std::uint8_t, 3>{255, 255, 255}));
  const std::size_t bar_x = cols + options.colour_bar_gap + 1;
  EXPECT_EQ(as_array(png.at(0, bar_x)), table[255]);
  EXPECT_EQ(as_array(png.at(rows - 1, bar_x)), table[0]);
  for (std::size_t y = 0; y + 1 < rows; ++y)
    EXPECT_GE(lightness(as_array(png.at(y, bar_x))), lightness(as_array(png.at(y + 1, bar_x))) - 0.05);
}

TEST(IoPng, RangeDefaultsAndExplicitValues) {
  test::TempDir dir("io_png_range");
  // Fewer decades than the dynamic range: the scale starts at the smallest
  // positive pixel, so the picture uses the whole colour map.
  const std::vector<double> narrow = {10.0, 20.0, 0.0, 1000.0};
  PngRange r = write_png_log(dir / "a.png", narrow.data(), 2, 2);
  EXPECT_EQ(r.vmin, 10.0);
  EXPECT_EQ(r.vmax, 1000.0);

  PngOptions no_bar;
  no_bar.colour_bar = false;
  no_bar.vmin = 1.0;
  no_bar.vmax = 100.0;
  r = write_png_log(dir / "b.png", narrow.data(), 2, 2, no_bar);
  EXPECT_EQ(r.vmin, 1.0);
  EXPECT_EQ(r.vmax, 100.0);
  const DecodedPng png = read_png(dir / "b.png");
  EXPECT_EQ(png.width, 2u);
  EXPECT_EQ(png.height, 2u);
  // 10 sits at t = 0.5 (bin 128), 20 at t = log10(20)/2 = 0.6505 (bin 166),
  // 1000 above vmax clamps to the top.
  EXPECT_EQ(as_array(png.at(0, 0)), viridis_table()[128]);
  EXPECT_EQ(as_array(png.at(0, 1)), viridis_table()[166]);
  EXPECT_EQ(as_array(png.at(1, 1)), viridis_table()[255]);

  // A constant image still gets a valid range (vmax / dynamic_range .. vmax).
  const std::vector<double> flat(4, 5.0);
  r = write_png_log(dir / "c.png", flat.data(), 2, 2);
  EXPECT_EQ(r.vmax, 5.0);
  EXPECT_EQ(r.vmin, 5.0 / 1e6);
}

TEST(IoPng, OriginLowerPutsRowZeroAtTheBottom) {
  test::TempDir dir("io_png_origin");
  const std::vector<double> img = {1.0, 1.0, 1e6, 1e6};  // row 0 dark, row 1 bright
  PngOptions options;
  options.colour_bar = false;
  options.origin_lower = true;
  write_png_log(dir / "o.png", img.data(), 2, 2, options);
  const DecodedPng png = read_png(dir / "o.png");
  EXPECT_EQ(as_array(png.at(0, 0)), viridis_table()[255]);  // top line = row 1
  EXPECT_EQ(as_array(png.at(1, 0)), viridis_table()[0]);
}

TEST(IoPng, BadInputIsAnErrorAndLeavesNoFile) {
  test::TempDir dir("io_png_errors");
  const auto p = dir / "x.png";
  const std::string f = p.string();
  const std::vector<double> zeros(6, 0.0);
  EXPECT_EQ(error_of([&] { write_png_log(p, zeros.data(), 2, 3); }),
            f + ": vmax: the image has no positive finite pixel to scale logarithmically; give vmin "
                "and vmax");
  PngOptions inverted;
  inverted.vmin = 10.0;
  inverted.vmax = 1.0;
  EXPECT_EQ(error_of([&] { write_png_log(p, zeros.data(), 2, 3, inverted); }),
            f + ": vmin: must be a finite number with 0 < vmin < vmax = 1, got 10");
  EXPECT_THROW(write_png_log(p, zeros.data(), 0, 3), Error);
  PngOptions bad_key;
  bad_key.vmin = 1.0;
  bad_key.vmax = 2.0;
  bad_key.text = {{"", "x"}};
  EXPECT_THROW(write_png_log(p, zeros.data(), 2, 3, bad_key), Error);
  const std::vector<double> ones(6, 1.0);
  EXPECT_THROW(write_png_log(dir / "no-dir" / "x.png", ones.data(), 2, 3), Error);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// Line plots (debye --output I.png): size, ranges in tEXt, the curve's pixels
// where the axes put them, the total drawn over the partials, bad input.
TEST(IoPng, LinePlotDrawsTheCurvesWhereTheAxesPutThem) {
  test::TempDir dir("io_png_plot");
  const auto p = dir / "plot.png";
  std::vector<double> x, total, partial;
  for (int i = 0; i <= 100; ++i) {
    x.push_back(0.1 * i);
    total.push_back(std::pow(10.0, 4.0 - 0.03 * i));  // a straight line on a log scale: 1e4 .. 10
    partial.push_back(0.5 * total.back());
  }
  PlotOptions options;
  options.x_label = "Q (1/Å)";
  const PlotRange range =
      write_png_plot(p, x, {{"I", total, plot_colours()[0]}, {"A-A", partial, plot_colours()[1]}}, options);
  EXPECT_DOUBLE_EQ(range.xmin, 0.0);
  EXPECT_DOUBLE_EQ(range.xmax, 10.0);
  EXPECT_DOUBLE_EQ(range.ymax, 1e4);
  EXPECT_DOUBLE_EQ(range.ymin, 5.0);  // the smallest positive value: fewer decades than allowed
  const DecodedPng png = read_png(p);
  ASSERT_EQ(png.width, 800u);
  ASSERT_EQ(png.height, 500u);
  EXPECT_EQ(png.text.at("nanoscatter:yscale"), "log10");
  EXPECT_EQ(png.text.at("nanoscatter:xscale"), "linear");
  EXPECT_EQ(png.text.at("nanoscatter:xlabel"), "Q (1/Å)");
  EXPECT_EQ(png.text.at("nanoscatter:series"), "I #000000; A-A #1f77b4");
  EXPECT_EQ(std::stod(png.text.at("nanoscatter:ymax")), 1e4);
  // Plot area: x from column 70 to 784, y from row 14 (ymax) to 470 (ymin).
  auto column_of = [](double q) { return 70 + std::lround(q / 10.0 * 714); };
  auto row_of = [&](double v) {
    return 470 - std::lround((std::log10(v) - std::log10(5.0)) / (4.0 - std::log10(5.0)) * 456);
  };
  for (int i : {10, 50, 90}) {
    const long c = column_of(x[i]);
    // Black (the total) at its row, blue (the partial) at its own.
    EXPECT_EQ(as_array(png.at(row_of(total[i]), c)), (std::array<std::uint8_t, 3>{0, 0, 0})) << i;
    EXPECT_EQ(as_array(png.at(row_of(partial[i]), c)), plot_colours()[1]) << i;
  }

  // Bad input: one clear error, no file.
  const auto q = dir / "bad.png";
  EXPECT_EQ(error_of([&] { write_png_plot(q, x, {{"I", std::vector<double>(3, 1.0)}}); }),
            q.string() + ": series: 'I' has 3 values for 101 x values");
  EXPECT_EQ(error_of([&] { write_png_plot(q, x, {{"I", std::vector<double>(101, 0.0)}}); }),
            q.string() + ": y: no positive finite value to plot on a log scale");
  EXPECT_FALSE(std::filesystem::exists(q));
}
