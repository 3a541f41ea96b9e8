// Detector images (detector_image.hpp): every format round-trips files the
// test writes (TIFF through libtiff, gzip through zlib, HDF5/NeXus/Eiger
// through the HDF5 C API); CBF and EDF from an independent writer (fabio)
// are in python/tests/test_detector_images.py. Bad inputs give one-line
// errors naming file and field.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <tiffio.h>
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <random>

#include "nanoscatter/detector_image.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/io_hdf5.hpp"
#include "nanoscatter/rmc.hpp"
#include "property_seed.hpp"
#include "test_util.hpp"

namespace nanoscatter {
namespace {

using test::error_of;

// One line, naming the file (by its name) and containing `field`.
void expect_one_line_error(const std::function<void()>& f, const std::string& file, const std::string& field) {
  const std::string e = error_of(f);
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  EXPECT_NE(e.find(file), std::string::npos) << e;
  EXPECT_NE(e.find(field), std::string::npos) << e;
}

template <class T>
constexpr std::uint16_t tiff_sample_format() {
  if constexpr (std::is_floating_point_v<T>) return SAMPLEFORMAT_IEEEFP;
  else if constexpr (std::is_signed_v<T>) return SAMPLEFORMAT_INT;
  else return SAMPLEFORMAT_UINT;
}

// One channel of T, rows × cols, uncompressed, chunky.
template <class T>
void set_image_fields(TIFF* tif, std::size_t rows, std::size_t cols) {
  TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, std::uint32_t(cols));
  TIFFSetField(tif, TIFFTAG_IMAGELENGTH, std::uint32_t(rows));
  TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, std::uint16_t(8 * sizeof(T)));
  TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, std::uint16_t(1));
  TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, tiff_sample_format<T>());
  TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
  TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
}

// As Pilatus/ALBULA write: one channel, uncompressed, `rows_per_strip`
// rows in each strip (rows for one strip).
template <class T>
void write_tiff(const std::filesystem::path& path, std::size_t rows, std::size_t cols, const std::vector<T>& v,
                std::size_t rows_per_strip, const char* description = nullptr) {
  TIFF* tif = TIFFOpen(path.c_str(), "w");
  ASSERT_NE(tif, nullptr);
  set_image_fields<T>(tif, rows, cols);
  TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, std::uint32_t(rows_per_strip));
  if (description) TIFFSetField(tif, TIFFTAG_IMAGEDESCRIPTION, description);
  for (std::size_t r = 0; r < rows; ++r)
    ASSERT_GE(TIFFWriteScanline(tif, const_cast<T*>(v.data() + r * cols), std::uint32_t(r), 0), 0);
  TIFFClose(tif);
}

// Tiled, as some detector software and image tools write: tile sides are
// multiples of 16 (TIFF 6.0) and may overhang the image; the overhang is
// written as zeros.
template <class T>
void write_tiled_tiff(const std::filesystem::path& path, std::size_t rows, std::size_t cols, const std::vector<T>& v,
                      std::uint32_t tile_rows, std::uint32_t tile_cols) {
  TIFF* tif = TIFFOpen(path.c_str(), "w");
  ASSERT_NE(tif, nullptr);
  set_image_fields<T>(tif, rows, cols);
  TIFFSetField(tif, TIFFTAG_TILEWIDTH, tile_cols);
  TIFFSetField(tif, TIFFTAG_TILELENGTH, tile_rows);
  std::vector<T> tile(std::size_t(tile_rows) * tile_cols);
  for (std::size_t y0 = 0; y0 < rows; y0 += tile_rows)
    for (std::size_t x0 = 0; x0 < cols; x0 += tile_cols) {
      std::fill(tile.begin(), tile.end(), T(0));
      for (std::size_t y = y0; y < std::min(rows, y0 + tile_rows); ++y)
        for (std::size_t x = x0; x < std::min(cols, x0 + tile_cols); ++x)
          tile[(y - y0) * tile_cols + (x - x0)] = v[y * cols + x];
      ASSERT_GE(TIFFWriteTile(tif, tile.data(), std::uint32_t(x0), std::uint32_t(y0), 0, 0), 0);
    }
  TIFFClose(tif);
}

void gzip_file(const std::filesystem::path& in, const std::filesystem::path& out) {
  std::ifstream f(in, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(f)), {});
  gzFile g = gzopen(out.c_str(), "wb");
  ASSERT_NE(g, nullptr);
  ASSERT_EQ(gzwrite(g, bytes.data(), unsigned(bytes.size())), int(bytes.size()));
  gzclose(g);
}

template <class T>
std::vector<T> random_values(std::mt19937_64& rng, std::size_t n) {
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(-1e6, 1e6);
    for (auto& x : v) x = d(rng);
  } else {
    std::uniform_int_distribution<long long> d(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    for (auto& x : v) x = T(d(rng));
  }
  return v;
}

template <class T>
void expect_same(const DetectorImage& img, std::size_t rows, std::size_t cols, const std::vector<T>& v) {
  ASSERT_EQ(img.rows, rows);
  ASSERT_EQ(img.cols, cols);
  for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(img.values[i], double(v[i])) << "pixel " << i;
}

template <class T>
void tiff_round_trip(const test::TempDir& dir, std::mt19937_64& rng, const std::string& name) {
  std::uniform_int_distribution<std::size_t> side(1, 40);
  const std::size_t rows = side(rng), cols = side(rng);
  const std::size_t per_strip = std::uniform_int_distribution<std::size_t>(1, rows)(rng);
  const std::vector<T> v = random_values<T>(rng, rows * cols);
  write_tiff(dir / name, rows, cols, v, per_strip);
  SCOPED_TRACE(name + " " + std::to_string(rows) + "x" + std::to_string(cols) + " strip rows " +
               std::to_string(per_strip));
  expect_same(read_detector_image((dir / name).string()), rows, cols, v);
  gzip_file(dir / name, dir / (name + ".gz"));
  expect_same(read_detector_image((dir / (name + ".gz")).string()), rows, cols, v);
}

// Random shapes, sample types, strips and values per run: TIFF (and its
// gzip) and HDF5 read back exactly.
TEST(DetectorImage, PropertyRoundTripTiffAndHdf5) {
  test::TempDir dir("detector-property");
  for (int k = 0; k < test::property_cases(6); ++k) {
    const std::uint64_t seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    tiff_round_trip<std::int32_t>(dir, rng, "i32.tif");
    tiff_round_trip<std::uint32_t>(dir, rng, "u32.tif");
    tiff_round_trip<std::uint16_t>(dir, rng, "u16.tiff");
    tiff_round_trip<float>(dir, rng, "f32.tif");
    {
      std::uniform_int_distribution<std::size_t> side(1, 70);
      std::uniform_int_distribution<std::uint32_t> tile_side(1, 4);
      const std::size_t rows = side(rng), cols = side(rng);
      const std::uint32_t tile_rows = 16 * tile_side(rng), tile_cols = 16 * tile_side(rng);
      const auto v = random_values<std::uint16_t>(rng, rows * cols);
      write_tiled_tiff(dir / "tiled.tif", rows, cols, v, tile_rows, tile_cols);
      SCOPED_TRACE("tiled " + std::to_string(rows) + "x" + std::to_string(cols) + " tiles " +
                   std::to_string(tile_rows) + "x" + std::to_string(tile_cols));
      expect_same(read_detector_image((dir / "tiled.tif").string()), rows, cols, v);
    }

    std::uniform_int_distribution<std::size_t> side(1, 30);
    const std::size_t frames = side(rng) % 4 + 1, rows = side(rng), cols = side(rng);
    const auto v = random_values<std::int32_t>(rng, frames * rows * cols);
    const auto f = random_values<float>(rng, rows * cols);
    std::filesystem::remove(dir / "stack.h5");
    {
      H5Writer w(dir / "stack.h5");
      w.write("/stack", v.data(), {frames, rows, cols});
      w.write("/image", f.data(), {rows, cols});
      w.commit();
    }
    const std::size_t frame = std::uniform_int_distribution<std::size_t>(0, frames - 1)(rng);
    DetectorReadOptions o;
    o.frame = frame;
    const DetectorImage img = read_detector_image((dir / "stack.h5").string() + ":/stack", o);
    expect_same(img, rows, cols, std::vector<std::int32_t>(v.begin() + std::ptrdiff_t(frame * rows * cols),
                                                           v.begin() + std::ptrdiff_t((frame + 1) * rows * cols)));
    expect_same(read_detector_image((dir / "stack.h5").string() + ":/image"), rows, cols, f);
  }
}

// Row 0 is the top row as the file stores it; bottom_up reverses the rows.
TEST(DetectorImage, OrientationTopLeftIsRowZero) {
  test::TempDir dir("detector-orientation");
  const std::size_t rows = 4, cols = 5;
  std::vector<std::int32_t> v(rows * cols, 0);
  v[0] = 7;  // the first pixel written: top-left
  write_tiff(dir / "mark.tif", rows, cols, v, 2);
  const DetectorImage img = read_detector_image((dir / "mark.tif").string());
  EXPECT_EQ(img.at(0, 0), 7);
  const DetectorImage up = bottom_up(img);
  EXPECT_EQ(up.at(rows - 1, 0), 7);
  EXPECT_EQ(up.at(0, 0), 0);
  {
    H5Writer w(dir / "mark.h5");
    w.write("/image", v.data(), {rows, cols});
    w.commit();
  }
  EXPECT_EQ(read_detector_image((dir / "mark.h5").string()).at(0, 0), 7);
}

// Pilatus writes a miniCBF header into the TIFF ImageDescription.
TEST(DetectorImage, TiffMiniCbfMetadata) {
  test::TempDir dir("detector-tiff-meta");
  const std::vector<std::int32_t> v = {1, 2, 3, 4};
  write_tiff(dir / "p.tif", 2, 2, v, 2,
             "# Pixel_size 172e-6 m x 172e-6 m\n# Detector_distance 1.5 m\n# Wavelength 1.5406 A\n"
             "# Exposure_time 2.5 s\n");
  const DetectorImage img = read_detector_image((dir / "p.tif").string());
  EXPECT_EQ(img.format, "tiff");
  EXPECT_DOUBLE_EQ(img.metadata.pixel_size_x_m.value_or(0), 172e-6);
  EXPECT_DOUBLE_EQ(img.metadata.pixel_size_y_m.value_or(0), 172e-6);
  EXPECT_DOUBLE_EQ(img.metadata.distance_m.value_or(0), 1.5);
  EXPECT_DOUBLE_EQ(img.metadata.wavelength_a.value_or(0), 1.5406);
  EXPECT_DOUBLE_EQ(img.metadata.exposure_s.value_or(0), 2.5);
}

// NeXus: /@default → entry@default → NXdata@signal; NeXus metadata fields.
TEST(DetectorImage, NexusDefaultAndSignal) {
  test::TempDir dir("detector-nexus");
  const std::vector<std::int32_t> decoy = {9, 9, 9, 9};
  const std::vector<float> counts = {1, 2, 3, 4, 5, 6};
  const double pixel_mm = 0.075, distance_m = 3.2;
  {
    H5Writer w(dir / "scan.nxs");
    w.write("/aaa/decoy", decoy.data(), {2, 2});  // first in name order: must not be chosen
    w.write("/scan/plot/counts", counts.data(), {1, 2, 3});
    w.write("/entry/instrument/detector/x_pixel_size", &pixel_mm, {1});
    w.set_attribute("/entry/instrument/detector/x_pixel_size", "units", "mm");
    w.write("/entry/instrument/detector/detector_distance", &distance_m, {1});
    w.set_attribute("/", "default", "scan");
    w.set_attribute("/scan", "default", "plot");
    w.set_attribute("/scan/plot", "signal", "counts");
    w.commit();
  }
  const DetectorImage img = read_detector_image((dir / "scan.nxs").string());
  expect_same(img, 2, 3, counts);
  EXPECT_NE(img.source.find(":/scan/plot/counts[0]"), std::string::npos) << img.source;
  EXPECT_DOUBLE_EQ(img.metadata.pixel_size_x_m.value_or(0), 75e-6);
  EXPECT_DOUBLE_EQ(img.metadata.distance_m.value_or(0), distance_m);
  EXPECT_FALSE(img.metadata.wavelength_a.has_value());
}

// Eiger: the master's /entry/data/data_000001 is an external link into a
// data file holding a (frames, rows, cols) stack.
TEST(DetectorImage, EigerMasterWithExternalLinks) {
  test::TempDir dir("detector-eiger");
  const std::size_t frames = 3, rows = 2, cols = 3;
  std::vector<std::int32_t> v(frames * rows * cols);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::int32_t(i);
  {
    H5Writer w(dir / "x_data_000001.h5");
    w.write("/entry/data/data", v.data(), {frames, rows, cols});
    w.commit();
  }
  {
    H5Writer w(dir / "x_master.h5");
    w.create_group("/entry/data");
    w.commit();
  }
  hid_t f = H5Fopen((dir / "x_master.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  // Relative, as Eiger writes it: resolved beside the master file.
  ASSERT_GE(H5Lcreate_external("x_data_000001.h5", "/entry/data/data", f, "/entry/data/data_000001", H5P_DEFAULT,
                               H5P_DEFAULT),
            0);
  H5Fclose(f);
  DetectorReadOptions o;
  o.frame = 2;
  const DetectorImage img = read_detector_image((dir / "x_master.h5").string(), o);
  expect_same(img, rows, cols, std::vector<std::int32_t>(v.begin() + 12, v.end()));
  o.frame = 3;
  expect_one_line_error([&] { read_detector_image((dir / "x_master.h5").string(), o); }, "x_master.h5", "frame");
}

// Frame index on rank 2 and rank (1, N, M): only frame 0 exists.
TEST(DetectorImage, SingleFrameStacks) {
  test::TempDir dir("detector-frames");
  const std::vector<double> v = {1, 2, 3, 4, 5, 6};
  {
    H5Writer w(dir / "one.h5");
    w.write("/one", v.data(), {1, 2, 3});
    w.write("/flat", v.data(), {2, 3});
    w.commit();
  }
  const std::string file = (dir / "one.h5").string();
  expect_same(read_detector_image(file + ":/one"), 2, 3, v);
  expect_same(read_detector_image(file + ":/flat"), 2, 3, v);
  DetectorReadOptions o;
  o.frame = 1;
  EXPECT_EQ(error_of([&] { read_detector_image(file + ":/flat", o); }),
            file + ": frame: frame 1 requested; /flat holds 1 frame");
  // RMC accepts a (1, N, M) target now.
  EXPECT_EQ(read_image(file + ":/one").data, v);
}

// A dataset whose chunks need a filter nobody provides names the filter.
TEST(DetectorImage, MissingFilterPluginIsNamed) {
  test::TempDir dir("detector-filter");
  const std::string file = (dir / "f.h5").string();
  constexpr H5Z_filter_t kUnknownFilter = 32999;
  hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hsize_t dims[2] = {4, 4};
  hid_t space = H5Screate_simple(2, dims, nullptr);
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 2, dims);
  ASSERT_GE(H5Pset_filter(dcpl, kUnknownFilter, H5Z_FLAG_OPTIONAL, 0, nullptr), 0);
  hid_t d = H5Dcreate2(f, "/data", H5T_NATIVE_INT32, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  ASSERT_GE(d, 0);
  // The chunk as if the filter had run (filter mask 0: not skipped).
  std::vector<std::int32_t> chunk(16, 1);
  const hsize_t offset[2] = {0, 0};
  ASSERT_GE(H5Dwrite_chunk(d, H5P_DEFAULT, 0, offset, chunk.size() * sizeof(std::int32_t), chunk.data()), 0);
  H5Dclose(d);
  H5Pclose(dcpl);
  H5Sclose(space);
  H5Fclose(f);
  EXPECT_EQ(error_of([&] { read_detector_image(file + ":/data"); }),
            file + ": /data: compression filter 32999 is not available; install its HDF5 plugin or set "
                   "HDF5_PLUGIN_PATH");
}

// Bad inputs: one line naming file and field, no crash, no huge allocation.
TEST(DetectorImage, BadInputs) {
  test::TempDir dir("detector-bad");
  std::vector<std::int32_t> v(64 * 64, 5);
  write_tiff(dir / "ok.tif", 64, 64, v, 8);
  {
    std::ifstream in(dir / "ok.tif", std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    std::ofstream(dir / "cut.tif", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    gzip_file(dir / "ok.tif", dir / "ok.tif.gz");
    std::ifstream gz(dir / "ok.tif.gz", std::ios::binary);
    std::string zipped((std::istreambuf_iterator<char>(gz)), {});
    std::ofstream(dir / "cut.tif.gz", std::ios::binary) << zipped.substr(0, zipped.size() / 2);
  }
  // libtiff writes the directory after the pixels: a cut file has none.
  expect_one_line_error([&] { read_detector_image((dir / "cut.tif").string()); }, "cut.tif", "cut.tif: cannot read as TIFF");
  expect_one_line_error([&] { read_detector_image((dir / "cut.tif.gz").string()); }, "cut.tif.gz", "gzip");

  // A tiled TIFF whose header claims 65536 × 1048576-pixel tiles (a fuzzer
  // finding: the tile buffer was sized from the header before any check).
  {
    TIFF* tif = TIFFOpen((dir / "huge-tile.tif").c_str(), "w");
    ASSERT_NE(tif, nullptr);
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, std::uint32_t(16));
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, std::uint32_t(16));
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, std::uint16_t(8));
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, std::uint16_t(1));
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(tif, TIFFTAG_TILEWIDTH, std::uint32_t(1) << 20);
    TIFFSetField(tif, TIFFTAG_TILELENGTH, std::uint32_t(1) << 16);
    const unsigned char raw[16] = {};
    ASSERT_GE(TIFFWriteRawTile(tif, 0, const_cast<unsigned char*>(raw), sizeof raw), 0);
    TIFFClose(tif);
    const std::string file = (dir / "huge-tile.tif").string();
    EXPECT_EQ(error_of([&] { read_detector_image(file); }),
              file + ": TileWidth: 65536 × 1048576 pixels (~550 GB): a side exceeds the limit of 65536 (max_side)");
  }

  // EDF header claiming 1e5 × 1e5 pixels.
  std::ofstream(dir / "huge.edf", std::ios::binary)
      << "{\nDim_1 = 100000 ;\nDim_2 = 100000 ;\nDataType = SignedInteger ;\nSize = 40000000000 ;\n}\n";
  expect_one_line_error([&] { read_detector_image((dir / "huge.edf").string()); }, "huge.edf", "Dim_1");
  std::ofstream(dir / "short.edf", std::ios::binary)
      << "{\nDim_1 = 4 ;\nDim_2 = 4 ;\nDataType = UnsignedShort ;\nByteOrder = LowByteFirst ;\nSize = 32 ;\n}\nabc";
  expect_one_line_error([&] { read_detector_image((dir / "short.edf").string()); }, "short.edf", "Size");
  std::ofstream(dir / "type.edf", std::ios::binary) << "{\nDim_1 = 4 ;\nDim_2 = 4 ;\nDataType = Complex ;\n}\n";
  expect_one_line_error([&] { read_detector_image((dir / "type.edf").string()); }, "type.edf", "DataType");

  // HDF5 dataset claiming 1e5 × 1e5 pixels (chunked, never written: tiny file).
  {
    const std::string file = (dir / "huge.h5").string();
    hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hsize_t dims[2] = {100000, 100000}, chunk[2] = {64, 64};
    hid_t space = H5Screate_simple(2, dims, nullptr);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 2, chunk);
    H5Dclose(H5Dcreate2(f, "/big", H5T_NATIVE_INT32, space, H5P_DEFAULT, dcpl, H5P_DEFAULT));
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Fclose(f);
    EXPECT_EQ(error_of([&] { read_detector_image(file); }),
              file + ": /big: 100000 × 100000 pixels (~80 GB): a side exceeds the limit of 65536 (max_side)");
    expect_one_line_error([&] { read_detector_image(file + ":/entry/none"); }, "huge.h5", "/entry/none");
  }
  // Truncated HDF5 and CBF, unknown format, missing file.
  std::ofstream(dir / "bad.h5", std::ios::binary) << "\x89HDF\r\n\x1a\nrest";
  expect_one_line_error([&] { read_detector_image((dir / "bad.h5").string()); }, "bad.h5", "cannot open as HDF5");
  std::ofstream(dir / "bad.cbf", std::ios::binary) << "###CBF: VERSION 1.5\nnothing else\n";
  expect_one_line_error([&] { read_detector_image((dir / "bad.cbf").string()); }, "bad.cbf", "header: cannot read as CBF");
  std::ofstream(dir / "image.xyz") << "1 2 3";
  expect_one_line_error([&] { read_detector_image((dir / "image.xyz").string()); }, "image.xyz", "unknown image format");
  expect_one_line_error([&] { read_detector_image((dir / "nope.tif").string()); }, "nope.tif", "no such file");
  DetectorReadOptions o;
  o.frame = 2;
  expect_one_line_error([&] { read_detector_image((dir / "ok.tif").string(), o); }, "ok.tif", "frame");
}

// The real GALAXI frame: 981 (x, columns) × 1043 (y, rows) int32, −1 in the
// module gap (columns 487–493, 7301 pixels; its README). It is
// not in the repository: NS_REAL_DATA_DIR names the folder holding
// galaxi_gisaxs/galaxi_data.tif.gz; skipped without it.
TEST(DetectorImage, RealGalaxiTiffGz) {
  const char* root = std::getenv("NS_REAL_DATA_DIR");
  const std::filesystem::path file =
      root ? std::filesystem::path(root) / "galaxi_gisaxs" / "galaxi_data.tif.gz" : std::filesystem::path();
  if (!root || !std::filesystem::exists(file))
    GTEST_SKIP() << "set NS_REAL_DATA_DIR to the folder with galaxi_gisaxs/galaxi_data.tif.gz to run this";
  const DetectorImage img = read_detector_image(file.string());
  constexpr std::size_t kRows = 1043, kCols = 981, kGapFirst = 487, kGapLast = 493;
  ASSERT_EQ(img.rows, kRows);
  ASSERT_EQ(img.cols, kCols);
  EXPECT_EQ(std::count(img.values.begin(), img.values.end(), -1.0), std::ptrdiff_t(kRows * (kGapLast - kGapFirst + 1)));
  for (std::size_t r = 0; r < kRows; ++r)
    for (std::size_t c = kGapFirst; c <= kGapLast; ++c) ASSERT_EQ(img.at(r, c), -1.0) << r << ", " << c;
}

}  // namespace
}  // namespace nanoscatter
