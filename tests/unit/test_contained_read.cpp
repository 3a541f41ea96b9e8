// Contained reads (src/io/contained_read.hpp): a child that crashes, grows
// without bound or hangs ends in a one-line Error naming the file, quickly;
// an Error thrown in the child comes back unchanged; a result comes back
// bit for bit; no child is left behind. Then the detector readers that use
// it: corrupt HDF5 files (random byte changes) and crafted CBF headers.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <thread>

#include "io/contained_read.hpp"
#include "nanoscatter/detector_image.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/resource_guard.hpp"
#include "property_seed.hpp"
#include "test_util.hpp"

namespace nanoscatter {
namespace {

using contained::ResultReader;
using contained::ResultWriter;

const contained::Decoder kDecoder{"img.h5", "the HDF5 library"};

// Short limits: every failure below must come within about a second.
ContainedReadOptions short_limits() {
  ContainedReadOptions o;
  o.time_limit_s = 0.5;
  o.memory_limit_bytes = 64 << 20;
  return o;
}

struct Outcome {
  std::string message;
  double seconds = 0;
};

Outcome run_failing(const std::function<void(ResultWriter&)>& read, const ContainedReadOptions& options = short_limits()) {
  const auto start = std::chrono::steady_clock::now();
  Outcome out{"(no error)", 0};
  try {
    contained::run(kDecoder, options, read, [](ResultReader&) {});
  } catch (const Error& e) {
    out.message = e.what();
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

using test::error_of;

// Every child has been reaped: no zombie, none still running.
void expect_no_children() {
  errno = 0;
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
}

// An HDF5 file with a side × side int32 image /data, every pixel `value`,
// and a root attribute "default" of type `str` and space `aspace` holding
// `data` (the NeXus @default the reader follows).
void write_image_with_default(const std::filesystem::path& path, hsize_t side, std::int32_t value, hid_t str,
                              hid_t aspace, const void* data) {
  const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hsize_t dims[2] = {side, side};
  const hid_t space = H5Screate_simple(2, dims, nullptr);
  const hid_t d = H5Dcreate2(f, "/data", H5T_NATIVE_INT32, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const std::vector<std::int32_t> v(side * side, value);
  H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  const hid_t a = H5Acreate2(f, "default", str, aspace, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, str, data);
  H5Aclose(a);
  H5Dclose(d);
  H5Sclose(space);
  H5Fclose(f);
}

TEST(ContainedRead, CrashIsOneLineErrorNamingTheSignal) {
  const Outcome o = run_failing([](ResultWriter&) { std::raise(SIGSEGV); });
  EXPECT_EQ(o.message.rfind("img.h5: the HDF5 library failed on this file (signal 11 in its reader", 0), 0)
      << o.message;
  EXPECT_EQ(o.message.find('\n'), std::string::npos);
  EXPECT_LT(o.seconds, 2);
  expect_no_children();
}

TEST(ContainedRead, UnboundedAllocationIsKilled) {
  const Outcome o = run_failing([](ResultWriter&) {
    constexpr std::size_t kChunk = 4 << 20;
    // Kept and touched, so that they count as resident; a loop that only
    // allocated could be compiled away (clang: allocation elision, then an
    // infinite loop without side effects).
    std::vector<std::unique_ptr<char[]>> kept;
    for (;;) {
      kept.emplace_back(new char[kChunk]);
      std::memset(kept.back().get(), 1, kChunk);
      *static_cast<volatile char*>(kept.back().get()) = 2;
    }
  });
  EXPECT_EQ(o.message, "img.h5: the HDF5 library needed more than " + format_gigabytes(64 << 20) +
                           " of memory for this file");
  EXPECT_LT(o.seconds, 5);
  expect_no_children();
}

TEST(ContainedRead, HangIsKilledAtTheTimeLimit) {
  const Outcome o = run_failing([](ResultWriter&) { std::this_thread::sleep_for(std::chrono::seconds(30)); });
  EXPECT_EQ(o.message, "img.h5: the HDF5 library took more than 0.5 s for this file");
  EXPECT_GT(o.seconds, 0.45);
  EXPECT_LT(o.seconds, 2);
  expect_no_children();
}

TEST(ContainedRead, ExitWithoutResult) {
  const Outcome o = run_failing([](ResultWriter&) { _exit(3); });
  EXPECT_EQ(o.message, "img.h5: the HDF5 library failed on this file (its reader exited with status 3)");
  expect_no_children();
}

TEST(ContainedRead, ErrorFromTheChildComesBackUnchanged) {
  const Where where{"img.h5", 7, "/entry@default", true};
  const Error expected(where, "names 'x\ny', which is not a group");
  try {
    contained::run(kDecoder, short_limits(), [&](ResultWriter&) { throw expected; }, [](ResultReader&) {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), expected.what());
    EXPECT_EQ(e.reason(), expected.reason());
    EXPECT_EQ(e.where().file, where.file);
    EXPECT_EQ(e.where().line, where.line);
    EXPECT_EQ(e.where().field, where.field);
    EXPECT_EQ(e.where().option, where.option);
  }
  expect_no_children();
}

TEST(ContainedRead, OtherExceptionIsNamed) {
  const Outcome o = run_failing([](ResultWriter&) { throw std::runtime_error("H5Dread: bad heap"); });
  EXPECT_EQ(o.message, "img.h5: the HDF5 library failed on this file (H5Dread: bad heap)");
}

// Doubles of every kind (NaN payloads, signed zeros, subnormals,
// infinities) and any length come back with the same bits.
TEST(ContainedRead, ResultRoundTripsBitForBit) {
  const int cases = test::property_cases(6);
  for (int k = 0; k < cases; ++k) {
    const std::uint64_t seed = test::case_seed(k);
    SCOPED_TRACE(test::replay_hint(seed));
    std::mt19937_64 rng(seed);
    // Up to 3 MB: more than the pipe holds, so the parent reads while the child writes.
    const std::size_t n = std::uniform_int_distribution<std::size_t>(0, 400'000)(rng);
    std::vector<std::uint64_t> bits(n);
    for (auto& b : bits) b = rng();
    std::vector<double> sent(n);
    if (n > 0) std::memcpy(sent.data(), bits.data(), n * sizeof(double));
    std::vector<double> received;
    const std::string label = "label\twith tab";
    std::string label_back;
    contained::run(
        kDecoder, ContainedReadOptions{},
        [&](ResultWriter& out) {
          out.text(label);
          out.value<std::uint64_t>(n);
          out.bytes(sent.data(), n * sizeof(double));
        },
        [&](ResultReader& in) {
          label_back = in.text(100);
          received.resize(in.value<std::uint64_t>());
          in.bytes(received.data(), received.size() * sizeof(double));
        });
    EXPECT_EQ(label_back, label);
    ASSERT_EQ(received.size(), n);
    EXPECT_TRUE(n == 0 || std::memcmp(received.data(), sent.data(), n * sizeof(double)) == 0);
  }
  expect_no_children();
}

// The parent gives up half-way (its decoding throws): the child, blocked
// writing, is killed and reaped.
TEST(ContainedRead, ParentErrorKillsAndReapsTheChild) {
  const std::vector<char> big(8 << 20, 'x');
  EXPECT_THROW(contained::run(
                   kDecoder, ContainedReadOptions{}, [&](ResultWriter& out) { out.bytes(big.data(), big.size()); },
                   [](ResultReader& in) {
                     in.value<char>();
                     fail_at({"img.h5", 0, ""}, "refused");
                   }),
               Error);
  expect_no_children();
}

// ContainedReadOptions::in_process (fuzzing and tests): the same result
// through the same encoding, no child; exceptions pass through unchanged.
TEST(ContainedRead, InProcessRunsWithoutAChild) {
  ContainedReadOptions options;
  EXPECT_FALSE(options.in_process);  // what every production read gets
  options.in_process = true;
  const pid_t self = getpid();
  pid_t reader_pid = 0;
  std::vector<double> received;
  contained::run(
      kDecoder, options,
      [&](ResultWriter& out) {
        reader_pid = getpid();
        out.value<std::uint64_t>(3);
        const double v[3] = {1.5, -0.0, 1e300};
        out.bytes(v, sizeof v);
      },
      [&](ResultReader& in) {
        received.resize(in.value<std::uint64_t>());
        in.bytes(received.data(), received.size() * sizeof(double));
      });
  EXPECT_EQ(reader_pid, self);
  EXPECT_EQ(received, (std::vector<double>{1.5, -0.0, 1e300}));

  const Error expected(Where{"img.h5", 7, "/entry@default"}, "not a group");
  try {
    contained::run(kDecoder, options, [&](ResultWriter&) { throw expected; }, [](ResultReader&) {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), expected.what());
  }
  // Contained, this would be "failed on this file (...)"; in process, the
  // fuzzer sees the exception itself.
  EXPECT_THROW(contained::run(
                   kDecoder, options, [](ResultWriter&) { throw std::out_of_range("substr"); }, [](ResultReader&) {}),
               std::out_of_range);
  // The parent's checks of what comes back hold in process too.
  EXPECT_EQ(error_of([&] {
              contained::run(
                  kDecoder, options, [](ResultWriter& out) { out.value<std::uint32_t>(1); },
                  [](ResultReader& in) { in.value<std::uint64_t>(); });
            }),
            "img.h5: the HDF5 library failed on this file (its reader ended without a result)");
  EXPECT_EQ(error_of([&] {
              contained::run(
                  kDecoder, options, [](ResultWriter& out) { out.value<std::uint64_t>(1); },
                  [](ResultReader& in) { in.value<std::uint32_t>(); });
            }),
            "img.h5: the HDF5 library failed on this file (its reader sent more than its result)");
  expect_no_children();
}

TEST(ContainedRead, OptionsAreValidated) {
  ContainedReadOptions o;
  o.time_limit_s = 0;
  EXPECT_THROW(o.validate(), Error);
  o = {};
  o.memory_limit_bytes = 0;
  EXPECT_THROW(o.validate(), Error);
}

// --- The detector readers that use it ---

// The 3 × 4 int32 image fabio 0.14 writes (byte offset; values 7 i + 1),
// with the header fields substituted where asked.
std::string minicbf(const std::string& size = "12", const std::string& elements = "12",
                    const std::string& type = "\"signed 32-bit integer\"") {
  return "###CBF: VERSION 1.5\r\ndata_i32\r\n_array_data.data\r\n;\r\n--CIF-BINARY-FORMAT-SECTION--\r\n"
         "Content-Type: application/octet-stream;\r\n     conversions=\"x-CBF_BYTE_OFFSET\"\r\n"
         "Content-Transfer-Encoding: BINARY\r\nX-Binary-Size: " +
         size + "\r\nX-Binary-ID: 1\r\nX-Binary-Element-Type: " + type +
         "\r\nX-Binary-Element-Byte-Order: LITTLE_ENDIAN\r\nX-Binary-Number-of-Elements: " + elements +
         "\r\nX-Binary-Size-Fastest-Dimension: 4\r\nX-Binary-Size-Second-Dimension: 3\r\n"
         "X-Binary-Size-Padding: 1\r\n\r\n\x0c\x1a\x04\xd5\x01" +
         std::string(11, '\x07') + "\r\n\r\n--CIF-BINARY-FORMAT-SECTION----\r\n;\r\n";
}

TEST(ContainedRead, CbfReadsAndCraftedHeadersAreRefused) {
  test::TempDir dir("contained_cbf");
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name, std::ios::binary) << text;
    return (dir / name).string();
  };
  const DetectorImage img = read_detector_image(write("good.cbf", minicbf()));
  ASSERT_EQ(img.rows, 3u);
  ASSERT_EQ(img.cols, 4u);
  for (std::size_t i = 0; i < 12; ++i) EXPECT_EQ(img.values[i], 7.0 * double(i) + 1) << i;
  EXPECT_EQ(img.format, "cbf");
  DetectorReadOptions in_process;
  in_process.contain.in_process = true;
  const DetectorImage same = read_detector_image(write("good.cbf", minicbf()), in_process);
  EXPECT_EQ(same.values, img.values);
  EXPECT_EQ(same.rows, img.rows);
  EXPECT_EQ(same.cols, img.cols);

  const std::string big = write("big.cbf", minicbf("3000000000"));
  EXPECT_EQ(error_of([&] { read_detector_image(big); }).rfind(big + ": X-Binary-Size: 3000000000 bytes declared", 0), 0u)
      << error_of([&] { read_detector_image(big); });
  const std::string count = write("count.cbf", minicbf("12", "13"));
  EXPECT_EQ(error_of([&] { read_detector_image(count); }),
            count + ": X-Binary-Number-of-Elements: 13 elements, but the dimensions say 4 × 3");
  const std::string neg = write("neg.cbf", minicbf("-1"));
  EXPECT_EQ(error_of([&] { read_detector_image(neg); }).rfind(neg + ": X-Binary-Size: '-1' is not a size", 0), 0u);
  const std::string type = write("type.cbf", minicbf("12", "12", "\"signed 7-bit integer\""));
  EXPECT_EQ(error_of([&] { read_detector_image(type); }),
            type + ": X-Binary-Element-Type: unknown element type \"signed 7-bit integer\"");
  const std::string few = write("few.cbf", minicbf("11"));
  EXPECT_EQ(error_of([&] { read_detector_image(few); }),
            few + ": X-Binary-Number-of-Elements: 12 elements in 11 bytes (X-Binary-Size) of byte-offset data, which "
                  "take at least one byte each");
  std::string none = minicbf();
  none.replace(none.find("x-CBF_BYTE_OFFSET"), 17, "x-CBF_NONE");
  const std::string raw = write("raw.cbf", none);
  EXPECT_EQ(error_of([&] { read_detector_image(raw); }),
            raw + ": X-Binary-Size: 12 bytes for 12 uncompressed elements of 4 bytes");
  expect_no_children();
}

// A valid HDF5 image with random bytes changed: libhdf5 may refuse it,
// misread it, crash, allocate or loop; the read ends within the limits in
// an image or a one-line Error naming the file.
TEST(ContainedRead, CorruptHdf5FilesEndInOneLineErrors) {
  test::TempDir dir("contained_hdf5");
  const auto good = dir / "good.h5";
  {
    const hid_t aspace = H5Screate(H5S_SCALAR);
    const hid_t str = H5Tcopy(H5T_C_S1);
    H5Tset_size(str, H5T_VARIABLE);
    const char* value = "data";
    write_image_with_default(good, 16, 5, str, aspace, &value);
    H5Tclose(str);
    H5Sclose(aspace);
  }
  std::ifstream in(good, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  DetectorReadOptions options;
  options.contain.time_limit_s = 5;
  options.contain.memory_limit_bytes = std::size_t(1) << 30;
  const int cases = test::property_cases(20);
  for (int k = 0; k < cases; ++k) {
    const std::uint64_t seed = test::case_seed(k);
    SCOPED_TRACE(test::replay_hint(seed));
    std::mt19937_64 rng(seed);
    std::string bad = bytes;
    const int changes = std::uniform_int_distribution<int>(1, 8)(rng);
    for (int c = 0; c < changes; ++c)
      bad[std::uniform_int_distribution<std::size_t>(8, bad.size() - 1)(rng)] = char(rng());
    const auto path = dir / ("bad" + std::to_string(k) + ".h5");
    std::ofstream(path, std::ios::binary) << bad;
    const auto start = std::chrono::steady_clock::now();
    const std::string e = error_of([&] { read_detector_image(path.string(), options); });
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 6.5);
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    if (e != "(no error)") {
      EXPECT_EQ(e.rfind(path.string() + ":", 0), 0u) << e;
    }
  }
  expect_no_children();
}

// A NeXus @default that is an array of strings, not one: H5Aread writes
// every element, and string_attribute's buffers hold one (a stack overrun
// of the variable-length path's char*, a heap overrun of the fixed-length
// path's string; seen while triaging fuzz_detector_hdf5_inprocess). Now
// such an attribute counts as absent. In process, so that a sanitizer
// would see an overrun here.
TEST(ContainedRead, StringAttributeArraysAreNotReadIntoOneString) {
  test::TempDir dir("hdf5_attribute_array");
  for (const bool variable : {true, false}) {
    SCOPED_TRACE(variable ? "variable length" : "fixed length");
    const auto path = dir / (variable ? "vlen.h5" : "fixed.h5");
    {
      const hsize_t n = 3;
      const hid_t aspace = H5Screate_simple(1, &n, nullptr);
      const hid_t str = H5Tcopy(H5T_C_S1);
      H5Tset_size(str, variable ? H5T_VARIABLE : 4);
      const char* values[3] = {"data", "xxxx", "yyyy"};
      const char fixed[12] = {'d', 'a', 't', 'a', 'x', 'x', 'x', 'x', 'y', 'y', 'y', 'y'};
      write_image_with_default(path, 4, 3, str, aspace, variable ? static_cast<const void*>(values) : fixed);
      H5Tclose(str);
      H5Sclose(aspace);
    }
    DetectorReadOptions options;
    options.contain.in_process = true;
    const DetectorImage img = read_detector_image(path.string(), options);
    EXPECT_EQ(img.source, path.string() + ":/data");  // found as the first 2D dataset, not through @default
    EXPECT_EQ(img.rows, 4u);
    EXPECT_EQ(img.values, std::vector<double>(16, 3.0));
    // The production read agrees.
    EXPECT_EQ(read_detector_image(path.string()).values, img.values);
  }
  expect_no_children();
}

// Inputs on which fuzz_detector_hdf5_inprocess found libhdf5 1.10.8 itself
// failing (bench/results/2026-11-26-fuzz.md, "In-process fuzzing"): an
// overlapping memcpy, a segmentation fault and an infinite loop in H5HG_read
// under H5Aread of the NeXus @default string, a 16-byte over-read under
// H5Aexists. The production read contains each: an image or a one-line
// Error naming the file, within the time limit, no child left.
TEST(ContainedRead, LibraryFindingsOfTheInProcessFuzzerAreContained) {
  DetectorReadOptions options;
  options.contain.time_limit_s = 2;
  options.contain.memory_limit_bytes = std::size_t(1) << 30;
  const std::filesystem::path dir = std::filesystem::path(NS_TEST_DATA_DIR) / "libhdf5_findings";
  for (const char* name : {"memcpy_overlap_H5HG_read.h5", "segv_H5HG_read.h5", "overread_H5O_attr_exists.h5",
                           "loop_H5HG_read.h5"}) {
    const std::string path = (dir / name).string();
    SCOPED_TRACE(path);
    ASSERT_TRUE(std::filesystem::is_regular_file(path));
    const auto start = std::chrono::steady_clock::now();
    const std::string e = error_of([&] { read_detector_image(path, options); });
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 3.5);
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    if (e != "(no error)") {
      EXPECT_EQ(e.rfind(path + ": ", 0), 0u) << e;
    }
  }
  // The loop does not end by itself: only the time limit ends it.
  const std::string loop = (dir / "loop_H5HG_read.h5").string();
  EXPECT_EQ(error_of([&] { read_detector_image(loop, options); }),
            loop + ": the HDF5 library took more than 2 s for this file");
  expect_no_children();
}

}  // namespace
}  // namespace nanoscatter
