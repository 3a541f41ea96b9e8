// The PNG encoder: decoded with libpng to the size, pixels and tEXt
// metadata it was given; the viridis table's lightness rises monotonically;
// failed writes leave no file. (The figures drawn into it: test_io_figure.)
#include <gtest/gtest.h>
#include <png.h>

#include <cmath>
#include <csetjmp>
#include <cstdio>
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

using test::error_of;

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
}

TEST(IoPng, EncoderKeepsPixelsAndText) {
  test::TempDir dir("io_png_encoder");
  const std::size_t width = 7, height = 3;
  std::vector<std::uint8_t> rgb(width * height * 3);
  for (std::size_t i = 0; i < rgb.size(); ++i) rgb[i] = std::uint8_t(i * 37 % 256);
  write_rgb_png(dir / "a.png", rgb, width, height, {{"Comment", "test pixels"}, {"nanoscatter:header_0", "x"}});
  const DecodedPng png = read_png(dir / "a.png");
  ASSERT_EQ(png.width, width);
  ASSERT_EQ(png.height, height);
  EXPECT_EQ(std::vector<std::uint8_t>(png.rgb.begin(), png.rgb.end()), rgb);  // row 0 on top, RGB order
  EXPECT_EQ(png.text.at("Comment"), "test pixels");
  EXPECT_EQ(png.text.at("nanoscatter:header_0"), "x");
  EXPECT_EQ(png.text.at("Software").rfind("nanoscatter ", 0), 0u);
}

TEST(IoPng, BadInputIsAnErrorAndLeavesNoFile) {
  test::TempDir dir("io_png_errors");
  const auto p = dir / "x.png";
  const std::string f = p.string();
  const std::vector<std::uint8_t> six(2 * 3 * 3, 0);
  EXPECT_EQ(error_of([&] { write_rgb_png(p, six, 3, 3); }), f + ": image: 18 bytes for 3x3 RGB pixels");
  EXPECT_EQ(error_of([&] { write_rgb_png(p, {}, 0, 3); }),
            f + ": image: a PNG takes 1 to 2^31 - 1 pixels a side, got 0x3");
  EXPECT_EQ(error_of([&] { write_rgb_png(p, six, 3, 2, {{"", "x"}}); }),
            f + ": text: PNG text keyword must have 1 to 79 characters: ''");
  EXPECT_THROW(write_rgb_png(dir / "no-dir" / "x.png", six, 3, 2), Error);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}
