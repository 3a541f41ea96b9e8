// HDF5: write → read round trips (bit exact), attributes read back with the
// HDF5 C API, the file opened by h5py, errors naming file and dataset, and no
// file left behind by a failed or abandoned write.
#include <gtest/gtest.h>

// The library target carries HDF5's include directory privately; Debian puts
// the serial headers under hdf5/serial.
#if __has_include(<hdf5.h>)
#include <hdf5.h>
#else
#include <hdf5/serial/hdf5.h>
#endif

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <fstream>
#include <functional>
#include <limits>
#include <numeric>
#include <sstream>

#include "nanoscatter/error.hpp"
#include "nanoscatter/io_hdf5.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

using test::error_of;

std::vector<std::string> dir_entries(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

// 3×5 values with awkward bits (subnormal, -0, extremes, NaN).
std::vector<double> image_3x5() {
  std::vector<double> v(15);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::sin(1.0 + double(i)) * std::pow(10.0, double(i) - 7);
  v[0] = -0.0;
  v[1] = std::numeric_limits<double>::denorm_min();
  v[2] = std::numeric_limits<double>::max();
  v[3] = NAN;
  return v;
}

// Writes the file the tests below inspect.
void write_sample(const std::filesystem::path& path) {
  const auto img = image_3x5();
  const std::vector<float> vec = {1.5f, -2.25f, 3e-30f};
  std::vector<std::int32_t> cube(2 * 3 * 4);
  std::iota(cube.begin(), cube.end(), -5);
  const std::vector<std::int32_t> m2 = {1, -2, 2147483647, -2147483647 - 1, 0, 7};
  const std::vector<std::uint8_t> mask = {0, 1, 255, 1};
  const std::vector<std::complex<double>> amp = {{1.0, -2.0}, {0.5, 1e-300}, {-0.0, 3.0}};

  H5Writer w(path);
  w.write("/a/b/img", img.data(), {3, 5});
  w.write("a/0vec", vec.data(), {3});  // root-relative path, visited before a/b
  w.write("/cube", cube.data(), {2, 3, 4});
  w.write("/m2", m2.data(), {3, 2});
  w.write("/mask", mask.data(), {2, 2});
  w.write("/amp", amp.data(), {3});
  w.create_group("/params");
  w.set_attribute("/", "version", "0.1.0");
  w.set_attribute("/", "command_line", std::string("nanoscatter pattern2d au.xyz --output img.h5"));
  w.set_attribute("/a/b/img", "units", "electrons^2");
  w.set_attribute("/a/b/img", "qmax", 4.5);
  w.set_attribute("/a/b/img", "nq", std::int64_t{1} << 40);
  w.set_attribute("/a/b/img", "nphi", 360);
  w.set_attribute("/params", "euler_deg", std::vector<double>{10.0, 20.5, -30.0});
  w.set_attribute("/params", "wavelength", 1.0);
  w.set_attribute("/params", "wavelength", 1.5406);  // replaced, not duplicated
  w.commit();
}

std::string read_string_attribute(hid_t file, const char* object, const char* name) {
  const hid_t attr = H5Aopen_by_name(file, object, name, H5P_DEFAULT, H5P_DEFAULT);
  EXPECT_GE(attr, 0) << object << "@" << name;
  const hid_t type = H5Aget_type(attr);
  EXPECT_EQ(H5Tis_variable_str(type), 1);
  EXPECT_EQ(H5Tget_cset(type), H5T_CSET_UTF8);
  const hid_t memtype = H5Tcopy(H5T_C_S1);
  H5Tset_size(memtype, H5T_VARIABLE);
  H5Tset_cset(memtype, H5T_CSET_UTF8);
  char* text = nullptr;
  EXPECT_GE(H5Aread(attr, memtype, &text), 0);
  std::string result = text ? text : "";
  H5free_memory(text);
  H5Tclose(memtype);
  H5Tclose(type);
  H5Aclose(attr);
  return result;
}

template <class T>
std::vector<T> read_numeric_attribute(hid_t file, const char* object, const char* name, hid_t memtype) {
  const hid_t attr = H5Aopen_by_name(file, object, name, H5P_DEFAULT, H5P_DEFAULT);
  EXPECT_GE(attr, 0) << object << "@" << name;
  const hid_t space = H5Aget_space(attr);
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  std::vector<T> values(static_cast<std::size_t>(std::max<hssize_t>(n, 0)));
  EXPECT_GE(H5Aread(attr, memtype, values.data()), 0);
  H5Sclose(space);
  H5Aclose(attr);
  return values;
}

}  // namespace

TEST(IoHdf5, DoubleRoundTripIsBitExact) {
  test::TempDir dir("io_h5_roundtrip");
  const auto path = dir / "out.h5";
  write_sample(path);
  const Dataset2D d = read_dataset_2d(path.string() + ":/a/b/img");
  EXPECT_EQ(d.dataset, "/a/b/img");
  EXPECT_EQ(d.file, path.string());
  ASSERT_EQ(d.rows, 3u);
  ASSERT_EQ(d.cols, 5u);
  const auto img = image_3x5();
  // Tolerance: none; float64 stored as IEEE F64LE is copied, not converted.
  for (std::size_t i = 0; i < img.size(); ++i)
    EXPECT_EQ(std::bit_cast<std::uint64_t>(d.data[i]), std::bit_cast<std::uint64_t>(img[i])) << i;

  // Integer datasets convert exactly to double (|v| < 2^53).
  const Dataset2D m2 = read_dataset_2d(path.string() + ":/m2");
  ASSERT_EQ(m2.rows, 3u);
  ASSERT_EQ(m2.cols, 2u);
  EXPECT_EQ(m2.data, (std::vector<double>{1, -2, 2147483647, -2147483648.0, 0, 7}));
  const Dataset2D mask = read_dataset_2d(path.string() + ":/mask");
  EXPECT_EQ(mask.data, (std::vector<double>{0, 1, 255, 1}));
}

TEST(IoHdf5, PlainFileReadsFirst2DDataset) {
  test::TempDir dir("io_h5_first");
  const auto path = dir / "out.h5";
  write_sample(path);
  // Depth-first by name: /a/0vec (1D, skipped), /a/b/img (2D) comes before /m2.
  const Dataset2D d = read_dataset_2d(path.string());
  EXPECT_EQ(d.dataset, "/a/b/img");
  EXPECT_EQ(d.rows, 3u);
  EXPECT_EQ(d.cols, 5u);
}

TEST(IoHdf5, AttributesAndTypesReadBackWithTheCApi) {
  test::TempDir dir("io_h5_attrs");
  const auto path = dir / "out.h5";
  write_sample(path);
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  EXPECT_EQ(read_string_attribute(file, "/", "version"), "0.1.0");
  EXPECT_EQ(read_string_attribute(file, "/", "command_line"),
            "nanoscatter pattern2d au.xyz --output img.h5");
  EXPECT_EQ(read_string_attribute(file, "/a/b/img", "units"), "electrons^2");
  EXPECT_EQ(read_numeric_attribute<double>(file, "/a/b/img", "qmax", H5T_NATIVE_DOUBLE),
            std::vector<double>{4.5});
  EXPECT_EQ(read_numeric_attribute<std::int64_t>(file, "/a/b/img", "nq", H5T_NATIVE_INT64),
            std::vector<std::int64_t>{std::int64_t{1} << 40});
  EXPECT_EQ(read_numeric_attribute<std::int64_t>(file, "/a/b/img", "nphi", H5T_NATIVE_INT64),
            std::vector<std::int64_t>{360});
  EXPECT_EQ(read_numeric_attribute<double>(file, "/params", "euler_deg", H5T_NATIVE_DOUBLE),
            (std::vector<double>{10.0, 20.5, -30.0}));
  EXPECT_EQ(read_numeric_attribute<double>(file, "/params", "wavelength", H5T_NATIVE_DOUBLE),
            std::vector<double>{1.5406});
  const hid_t params = H5Gopen2(file, "/params", H5P_DEFAULT);
  H5G_info_t ginfo;
  ASSERT_GE(H5Gget_info(params, &ginfo), 0);
  EXPECT_EQ(ginfo.nlinks, 0u);  // an empty group, created explicitly
  H5Gclose(params);

  // Stored types: little-endian IEEE / two's complement, complex as {r, i}.
  auto class_and_size = [&](const char* name) {
    const hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
    const hid_t t = H5Dget_type(d);
    auto result = std::make_pair(H5Tget_class(t), H5Tget_size(t));
    H5Tclose(t);
    H5Dclose(d);
    return result;
  };
  EXPECT_EQ(class_and_size("/a/b/img"), std::make_pair(H5T_FLOAT, std::size_t{8}));
  EXPECT_EQ(class_and_size("/a/0vec"), std::make_pair(H5T_FLOAT, std::size_t{4}));
  EXPECT_EQ(class_and_size("/cube"), std::make_pair(H5T_INTEGER, std::size_t{4}));
  EXPECT_EQ(class_and_size("/mask"), std::make_pair(H5T_INTEGER, std::size_t{1}));
  EXPECT_EQ(class_and_size("/amp"), std::make_pair(H5T_COMPOUND, std::size_t{16}));
  {
    const hid_t d = H5Dopen2(file, "/amp", H5P_DEFAULT);
    const hid_t t = H5Dget_type(d);
    ASSERT_EQ(H5Tget_nmembers(t), 2);
    char* r = H5Tget_member_name(t, 0);
    char* i = H5Tget_member_name(t, 1);
    EXPECT_STREQ(r, "r");
    EXPECT_STREQ(i, "i");
    EXPECT_EQ(H5Tget_member_offset(t, 1), sizeof(double));
    H5free_memory(r);
    H5free_memory(i);
    std::vector<std::complex<double>> back(3);
    const hid_t mem = H5Tcreate(H5T_COMPOUND, sizeof(std::complex<double>));
    H5Tinsert(mem, "r", 0, H5T_NATIVE_DOUBLE);
    H5Tinsert(mem, "i", sizeof(double), H5T_NATIVE_DOUBLE);
    ASSERT_GE(H5Dread(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, back.data()), 0);
    EXPECT_EQ(back[0], std::complex<double>(1.0, -2.0));
    EXPECT_EQ(back[1], std::complex<double>(0.5, 1e-300));
    EXPECT_EQ(back[2].imag(), 3.0);
    H5Tclose(mem);
    H5Tclose(t);
    H5Dclose(d);
  }
  H5Fclose(file);
}

TEST(IoHdf5, ReadableByH5py) {
  const std::string python = NS_SYSTEM_PYTHON;
  if (test::run_command(python + " -c 'import h5py'").exit_code != 0)
    GTEST_SKIP() << "h5py not available for " << python;
  test::TempDir dir("io_h5_h5py");
  const auto path = dir / "out.h5";
  write_sample(path);
  const std::string script =
      "import h5py, numpy as np, sys\n"
      "f = h5py.File(sys.argv[1], 'r')\n"
      "img = f['a/b/img']\n"
      "print('img', img.shape, img.dtype, img.attrs['units'], img.attrs['qmax'], img.attrs['nq'])\n"
      "print('img01', repr(float(img[0, 1])), repr(float(img[2, 4])))\n"
      "print('cube', f['cube'].shape, f['cube'].dtype, int(f['cube'][1, 2, 3]))\n"
      "print('vec', f['a/0vec'].dtype, f['mask'].dtype)\n"
      "a = f['amp'][()]\n"
      "print('amp', a.dtype, a[0], a[2].imag)\n"
      "print('root', f.attrs['version'], f.attrs['command_line'])\n"
      "print('params', list(f['params'].attrs['euler_deg']), f['params'].attrs['wavelength'])\n";
  std::ofstream(dir / "check.py") << script;
  const auto result = test::run_command(python + " " + (dir / "check.py").string() + " " + path.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto img = image_3x5();
  // Python prints repr(float), the shortest string that round-trips, so
  // parsing it back must give the exact values.
  std::istringstream lines(result.output);
  std::string line;
  std::vector<std::string> got;
  while (std::getline(lines, line)) got.push_back(line);
  ASSERT_EQ(got.size(), 7u) << result.output;
  EXPECT_EQ(got[0], "img (3, 5) float64 electrons^2 4.5 1099511627776");
  {
    // strtod (not istream, which may reject the subnormal with ERANGE).
    char* end = nullptr;
    const double v1 = std::strtod(got[1].c_str() + 6, &end);
    const double v14 = std::strtod(end, nullptr);
    EXPECT_EQ(v1, img[1]);
    EXPECT_EQ(v14, img[14]);
  }
  EXPECT_EQ(got[2], "cube (2, 3, 4) int32 18");  // -5 + (1*12 + 2*4 + 3)
  EXPECT_EQ(got[3], "vec float32 uint8");
  EXPECT_EQ(got[4], "amp complex128 (1-2j) 3.0");
  EXPECT_EQ(got[5], "root 0.1.0 nanoscatter pattern2d au.xyz --output img.h5");
  EXPECT_EQ(got[6], "params [10.0, 20.5, -30.0] 1.5406");
}

TEST(IoHdf5, ReadErrorsNameFileAndDataset) {
  test::TempDir dir("io_h5_errors");
  const auto path = dir / "out.h5";
  const std::string f = path.string();
  write_sample(path);
  EXPECT_EQ(error_of([&] { read_dataset_2d(f + ":/a/b/nope"); }),
            f + ": /a/b/nope: no such dataset in the file");
  EXPECT_EQ(error_of([&] { read_dataset_2d(f + ":/cube"); }),
            f + ": /cube: has rank 3, expected a 2D dataset");
  EXPECT_EQ(error_of([&] { read_dataset_2d(f + ":/a"); }), f + ": /a: is a group, not a dataset");
  EXPECT_EQ(error_of([&] { read_dataset_2d(f + ":/amp"); }),
            f + ": /amp: holds compound (e.g. complex) values; expected integer or floating-point numbers");
  EXPECT_EQ(error_of([&] { read_dataset_2d((dir / "absent.h5").string()); }),
            (dir / "absent.h5").string() + ": no such file");

  std::ofstream(dir / "text.h5") << "not hdf5\n";
  const std::string msg = error_of([&] { read_dataset_2d((dir / "text.h5").string() + ":/x"); });
  EXPECT_EQ(msg.rfind((dir / "text.h5").string() + ": /x: cannot open as HDF5", 0), 0u) << msg;

  {
    H5Writer w(dir / "only1d.h5");
    const double v[2] = {1, 2};
    w.write("/v", v, {2});
    w.commit();
  }
  EXPECT_EQ(error_of([&] { read_dataset_2d((dir / "only1d.h5").string()); }),
            (dir / "only1d.h5").string() +
                ": no 2D numeric dataset in the file; name one as " + (dir / "only1d.h5").string() +
                ":/path");
}

TEST(IoHdf5, HdfErrorStackIsNotPrintedAndAutoReportingIsRestored) {
  test::TempDir dir("io_h5_quiet");
  // Start from HDF5's default (print the stack to stderr), whatever other
  // code in this process may have set.
  const auto before_func = reinterpret_cast<H5E_auto2_t>(H5Eprint2);
  void* const before_data = stderr;
  ASSERT_GE(H5Eset_auto2(H5E_DEFAULT, before_func, before_data), 0);
  std::ofstream(dir / "text.h5") << "not hdf5\n";
  testing::internal::CaptureStderr();
  EXPECT_THROW(read_dataset_2d((dir / "text.h5").string()), Error);
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed, "");
  H5E_auto2_t after_func = nullptr;
  void* after_data = nullptr;
  H5Eget_auto2(H5E_DEFAULT, &after_func, &after_data);
  EXPECT_EQ(after_func, before_func);
  EXPECT_EQ(after_data, before_data);
}

TEST(IoHdf5, WriterErrorsNameFileAndDataset) {
  test::TempDir dir("io_h5_werrors");
  const auto path = dir / "out.h5";
  const std::string f = path.string();
  H5Writer w(path);
  const double v[4] = {1, 2, 3, 4};
  w.write("/g/d", v, {2, 2});
  EXPECT_EQ(error_of([&] { w.write("/g/d", v, {4}); }), f + ": /g/d: dataset or group already exists");
  EXPECT_EQ(error_of([&] { w.write("/g", v, {4}); }), f + ": /g: dataset or group already exists");
  EXPECT_EQ(error_of([&] { w.write("/x", v, {}); }), f + ": /x: a dataset needs at least one dimension");
  EXPECT_EQ(error_of([&] { w.write("/y", static_cast<const double*>(nullptr), {2}); }),
            f + ": /y: no data given for 2 values");
  EXPECT_EQ(error_of([&] { w.set_attribute("/nope", "units", "m"); }),
            f + ": /nope@units: no dataset or group '/nope'");
  EXPECT_EQ(error_of([&] { w.create_group("/g/d"); }), f + ": /g/d: exists and is not a group");
  w.commit();
  EXPECT_EQ(error_of([&] { w.write("/z", v, {4}); }),
            f + ": /z: file already committed; no more writes");
  EXPECT_TRUE(std::filesystem::exists(path));
}

TEST(IoHdf5, FailedOrAbandonedWritesLeaveNoFile) {
  test::TempDir dir("io_h5_nofile");
  const double v[4] = {1, 2, 3, 4};
  EXPECT_THROW(H5Writer(dir / "missing-dir" / "out.h5"), Error);

  // An exception in the middle of writing (as a failing engine would throw)
  // unwinds through the writer: the temporary file is closed and removed.
  try {
    H5Writer w(dir / "out.h5");
    w.write("/first", v, {4});
    EXPECT_EQ(dir_entries(dir.path()).size(), 1u);  // the temporary exists meanwhile
    throw std::runtime_error("simulated failure mid-write");
  } catch (const std::runtime_error&) {
  }
  // An HDF5-level failure (duplicate dataset) followed by abandoning the writer.
  try {
    H5Writer w(dir / "out.h5");
    w.write("/d", v, {4});
    w.write("/d", v, {4});
  } catch (const Error&) {
  }
  EXPECT_TRUE(dir_entries(dir.path()).empty());
}
