// RMC targets: reading HDF5, text and TIFF images, the centring
// convention, crop/rebin to the model size, masks, and the one-line errors
// for bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>

#include "nanoscatter/error.hpp"
#include "nanoscatter/io_hdf5.hpp"
#include "nanoscatter/rmc.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

Image2D ramp(std::size_t rows, std::size_t cols) {
  Image2D img{rows, cols, {}};
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) img.data.push_back(double(r * 100 + c + 1));
  return img;
}

// A minimal little-endian baseline TIFF (one strip, uncompressed), written
// from the TIFF 6.0 specification (tags 256–279, 339), independent of
// libtiff.
template <class T>
void write_tiff(const std::filesystem::path& path, std::size_t rows, std::size_t cols, const std::vector<T>& v,
                std::uint16_t sample_format) {
  std::vector<unsigned char> out;
  auto put16 = [&](std::uint16_t x) { out.push_back(std::uint8_t(x)); out.push_back(std::uint8_t(x >> 8)); };
  auto put32 = [&](std::uint32_t x) { for (int i = 0; i < 4; ++i) out.push_back(std::uint8_t(x >> (8 * i))); };
  const std::uint32_t data_bytes = std::uint32_t(rows * cols * sizeof(T));
  out.insert(out.end(), {'I', 'I'});
  put16(42);
  put32(8);  // IFD right after the header
  const std::uint16_t entries = 10;
  const std::uint32_t data_offset = 8 + 2 + entries * 12 + 4;
  put16(entries);
  auto entry = [&](std::uint16_t tag, std::uint16_t type, std::uint32_t value) {
    put16(tag);
    put16(type);
    put32(1);
    if (type == 3) {  // SHORT, left-justified in the 4-byte value field
      put16(std::uint16_t(value));
      put16(0);
    } else {
      put32(value);
    }
  };
  entry(256, 4, std::uint32_t(cols));         // ImageWidth
  entry(257, 4, std::uint32_t(rows));         // ImageLength
  entry(258, 3, 8 * sizeof(T));               // BitsPerSample
  entry(259, 3, 1);                           // Compression: none
  entry(262, 3, 1);                           // Photometric: min-is-black
  entry(273, 4, data_offset);                 // StripOffsets
  entry(277, 3, 1);                           // SamplesPerPixel
  entry(278, 4, std::uint32_t(rows));         // RowsPerStrip
  entry(279, 4, data_bytes);                  // StripByteCounts
  entry(339, 3, sample_format);               // SampleFormat: 1 uint, 2 int, 3 float
  put32(0);                                   // no next IFD
  const auto* bytes = reinterpret_cast<const unsigned char*>(v.data());
  out.insert(out.end(), bytes, bytes + data_bytes);
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(out.data()), std::streamsize(out.size()));
}

}  // namespace

// Centred layout: a square image is used as is; crop keeps the window
// centred on pixel (M/2, M/2), so that pixel lands at (N/2, N/2); fft layout
// is fftshifted first; rebin averages r×r blocks.
TEST(RmcTarget, CentringCropRebin) {
  const Image2D img = ramp(8, 8);
  TargetOptions o;
  RmcTarget t = make_rmc_target(img, nullptr, o, "img");
  EXPECT_EQ(t.size, 8u);
  EXPECT_EQ(t.intensity, img.data);
  o.model_size = 4;
  t = make_rmc_target(img, nullptr, o, "img");
  EXPECT_EQ(t.intensity[2 * 4 + 2], img.at(4, 4));
  EXPECT_EQ(t.intensity[0], img.at(2, 2));
  o.resample = Resample::rebin;
  t = make_rmc_target(img, nullptr, o, "img");
  EXPECT_DOUBLE_EQ(t.intensity[0], (img.at(0, 0) + img.at(0, 1) + img.at(1, 0) + img.at(1, 1)) / 4);
  EXPECT_DOUBLE_EQ(t.intensity[3 * 4 + 3], (img.at(6, 6) + img.at(6, 7) + img.at(7, 6) + img.at(7, 7)) / 4);
  // fft layout: the image's [0][0] (q = 0) moves to the centre.
  TargetOptions f;
  f.layout = TargetLayout::fft;
  t = make_rmc_target(img, nullptr, f, "img");
  EXPECT_EQ(t.intensity[4 * 8 + 4], img.at(0, 0));
  EXPECT_EQ(t.intensity[0], img.at(4, 4));
  // Non-square with --crop: the central square around (rows/2, cols/2).
  TargetOptions sq;
  sq.crop_to_square = true;
  t = make_rmc_target(ramp(6, 10), nullptr, sq, "img");
  EXPECT_EQ(t.size, 6u);
  EXPECT_EQ(t.intensity[3 * 6 + 3], ramp(6, 10).at(3, 5));
}

// Masked pixels (mask 0) and NaN pixels become NaN; rebinned bins with any
// masked pixel are masked.
TEST(RmcTarget, MaskIsApplied) {
  Image2D img = ramp(4, 4);
  img.data[5] = std::nan("");
  Image2D mask{4, 4, std::vector<double>(16, 1.0)};
  mask.data[0] = 0;
  const RmcTarget t = make_rmc_target(img, &mask, {}, "img", "mask");
  EXPECT_TRUE(std::isnan(t.intensity[0]));
  EXPECT_TRUE(std::isnan(t.intensity[5]));
  EXPECT_EQ(t.used_pixels(), 14u);
  TargetOptions r;
  r.model_size = 2;
  r.resample = Resample::rebin;
  const RmcTarget b = make_rmc_target(img, &mask, r, "img", "mask");
  EXPECT_TRUE(std::isnan(b.intensity[0]));
  EXPECT_FALSE(std::isnan(b.intensity[3]));
}

TEST(RmcTarget, BadInputErrors) {
  EXPECT_EQ(test::error_of([] { make_rmc_target(ramp(4, 6), nullptr, {}, "a.h5:/img"); }),
            "a.h5: target is 4×6, not square; take its central square with --crop");
  const Image2D mask = ramp(5, 5);
  EXPECT_EQ(test::error_of([&] { make_rmc_target(ramp(4, 4), &mask, {}, "a.h5", "m.h5:/mask"); }),
            "m.h5: mask: mask is 5×5, target is 4×4");
  EXPECT_EQ(test::error_of([] { make_rmc_target(Image2D{4, 4, std::vector<double>(16, 0.0)}, nullptr, {}, "z.txt"); }),
            "z.txt: the target is zero at every used pixel");
  TargetOptions big;
  big.model_size = 8;
  EXPECT_EQ(test::error_of([&] { make_rmc_target(ramp(4, 4), nullptr, big, "a.txt"); }),
            "tile: model size 8 is larger than the 4×4 target");
  TargetOptions rebin;
  rebin.model_size = 3;
  rebin.resample = Resample::rebin;
  EXPECT_EQ(test::error_of([&] { make_rmc_target(ramp(8, 8), nullptr, rebin, "a.txt"); }),
            "resample: rebin needs the target size 8 to be a multiple of the model size 3");
  Image2D inf = ramp(4, 4);
  inf.data[6] = INFINITY;
  EXPECT_EQ(test::error_of([&] { make_rmc_target(inf, nullptr, {}, "i.txt"); }), "i.txt: pixel (1, 2) is infinite");
  EXPECT_EQ(test::error_of([] { read_image("missing.h5:/x"); }), "missing.h5: no such file");
  EXPECT_EQ(test::error_of([] { parse_resample("zoom"); }), "resample: unknown resampling 'zoom' (expected crop or rebin)");
}

// HDF5 (named dataset and first 2D dataset) and text read back exactly.
TEST(RmcTarget, ReadsHdf5AndText) {
  test::TempDir dir("rmc-target-io");
  const Image2D img = ramp(3, 5);
  {
    H5Writer w(dir / "img.h5");
    const double scalar[1] = {1};
    w.write("/meta/one", scalar, {1});
    w.write("/entry/data", img.data.data(), {3, 5});
    w.commit();
  }
  for (const std::string& spec : {(dir / "img.h5").string() + ":/entry/data", (dir / "img.h5").string()}) {
    const Image2D r = read_image(spec);
    EXPECT_EQ(r.rows, 3u);
    EXPECT_EQ(r.cols, 5u);
    EXPECT_EQ(r.data, img.data);
  }
  {
    std::ofstream t(dir / "img.txt");
    t << "# a comment\n";
    for (std::size_t r = 0; r < 3; ++r) {
      for (std::size_t c = 0; c < 5; ++c) t << img.at(r, c) << ' ';
      t << '\n';
    }
  }
  EXPECT_EQ(read_image((dir / "img.txt").string()).data, img.data);
}

// 16-bit unsigned, 32-bit signed and 32-bit float TIFFs (the detector
// formats) read back exactly; skipped where the build has no libtiff.
TEST(RmcTarget, ReadsTiff) {
  if (!tiff_supported()) GTEST_SKIP() << "built without libtiff";
  test::TempDir dir("rmc-target-tiff");
  const std::size_t rows = 3, cols = 4;
  std::vector<std::uint16_t> u16;
  std::vector<std::int32_t> i32;
  std::vector<float> f32;
  for (std::size_t i = 0; i < rows * cols; ++i) {
    u16.push_back(std::uint16_t(60000 + i));
    i32.push_back(std::int32_t(i) - 2);  // Pilatus marks gaps with −1, −2
    f32.push_back(0.25f * float(i));
  }
  write_tiff(dir / "u16.tif", rows, cols, u16, 1);
  write_tiff(dir / "i32.tiff", rows, cols, i32, 2);
  write_tiff(dir / "f32.tif", rows, cols, f32, 3);
  const Image2D a = read_image((dir / "u16.tif").string());
  const Image2D b = read_image((dir / "i32.tiff").string());
  const Image2D c = read_image((dir / "f32.tif").string());
  ASSERT_EQ(a.rows, rows);
  ASSERT_EQ(a.cols, cols);
  for (std::size_t i = 0; i < rows * cols; ++i) {
    EXPECT_EQ(a.data[i], double(u16[i]));
    EXPECT_EQ(b.data[i], double(i32[i]));
    EXPECT_EQ(c.data[i], double(f32[i]));
  }
  std::ofstream(dir / "bad.tif") << "not a tiff";
  EXPECT_NE(test::error_of([&] { read_image((dir / "bad.tif").string()); }).find("bad.tif: cannot read as TIFF"),
            std::string::npos);
}
