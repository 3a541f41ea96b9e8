// The resource guard (resource_guard.hpp), one-line messages (one_line.hpp)
// and the signal cleanup of temporary outputs (atomic_file.hpp).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>

#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/one_line.hpp"
#include "nanoscatter/resource_guard.hpp"
#include "nanoscatter/structure_io.hpp"
#include "test_util.hpp"

namespace nanoscatter {
namespace {

TEST(OneLine, LineBreaksBecomeSeparatorsAndTrailingOnesGo) {
  EXPECT_EQ(one_line("a\nb\n"), "a; b");
  EXPECT_EQ(one_line("value  \r\n   next\n\n"), "value; next");
  EXPECT_EQ(one_line("plain  text"), "plain  text");
  EXPECT_EQ(one_line(""), "");
  // Every Error is one line, whatever text a third party handed it.
  EXPECT_EQ(test::error_of([] { fail_at({"s.toml", 3, "density"}, "Error while parsing value\n(error occurred at line 3)\n"); }),
            "s.toml:3: density: Error while parsing value; (error occurred at line 3)");
}

// AddressSanitizer maps its shadow memory and its allocator's regions as
// data, so a lowered RLIMIT_DATA makes its own next mmap fail (it aborts):
// the limit cannot be tested in that build.
#if defined(__SANITIZE_ADDRESS__)
#define NS_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NS_TEST_UNDER_ASAN 1
#endif
#endif

TEST(ResourceGuard, AvailableMemoryFollowsTheDataLimit) {
#ifdef NS_TEST_UNDER_ASAN
  GTEST_SKIP() << "RLIMIT_DATA and AddressSanitizer's mappings do not mix";
#endif
  EXPECT_GT(available_host_bytes(), 0);
  rlimit saved{};
  ASSERT_EQ(getrlimit(RLIMIT_DATA, &saved), 0);
  rlimit lowered = saved;
  const rlim_t limit = rlim_t(3) << 30;  // 3 GiB, below what a test machine has free
  if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < limit) GTEST_SKIP() << "hard data limit below 3 GiB";
  lowered.rlim_cur = limit;
  ASSERT_EQ(setrlimit(RLIMIT_DATA, &lowered), 0);
  const double available = available_host_bytes();
  const std::string message =
      test::error_of([] { require_host_memory({"", 0, "qpoints", true}, "2000000000 Q points", 32e9); });
  setrlimit(RLIMIT_DATA, &saved);
  EXPECT_LE(available, double(limit));
  EXPECT_EQ(message.rfind("qpoints: 2000000000 Q points needs ~32 GB, ", 0), 0u) << message;
  EXPECT_NE(message.find("GB of memory available"), std::string::npos) << message;
}

TEST(ResourceGuard, SmallRequestsPassHugeOnesFail) {
  EXPECT_NO_THROW(require_host_memory({}, "a few bytes", 1024));
  EXPECT_THROW(require_host_memory({}, "a zettabyte", 1e21), Error);
  EXPECT_THROW(require_host_memory({}, "overflowed estimate", std::numeric_limits<double>::infinity()), Error);
  EXPECT_THROW(require_host_memory({}, "nan estimate", std::nan("")), Error);
  EXPECT_EQ(format_gigabytes(32e9), "32 GB");
  EXPECT_EQ(format_gigabytes(1.5e6), "0.0015 GB");
}

TEST(ResourceGuard, DeclaredCountsMustFitTheBytesPresent) {
  EXPECT_NO_THROW(require_present({"f", 1, "count"}, "records", 10, 8, 80));
  EXPECT_EQ(test::error_of([] { require_present({"f", 1, "count"}, "records", 5555555552, 8, 11); }),
            "f:1: count: 5555555552 records declared, but the file has only 11 bytes (at least 8 per record)");
}

TEST(ResourceGuard, XyzCountBeyondTheFileFailsBeforeAllocating) {
  test::TempDir dir("guard_xyz");
  std::ofstream(dir / "huge.xyz") << "5555555552\n";
  const std::string path = (dir / "huge.xyz").string();
  EXPECT_EQ(test::error_of([&] { read_xyz(path); }),
            path + ":1: atom count: the file declares 5555555552 atoms but has only 0 atom lines");
}

TEST(ResourceGuard, BuildEstimatesAtomsFromTheLatticeDensity) {
  // fcc Au: 4 atoms per a³; a sphere of 741 Å holds ~1e8 atoms.
  const double a = 4.078, radius = 741;
  const double expected = shape_volume(Sphere{radius}) / (a * a * a) * 4;
  EXPECT_NEAR(expected / 1e8, 1.0, 0.05);
  EXPECT_DOUBLE_EQ(shape_volume(Cube{2}), 8);
  EXPECT_DOUBLE_EQ(shape_volume(Octahedron{3}), 36);
  // A polyhedron's estimate is its inscribed sphere: a lower bound.
  const ConvexPolyhedron cube{{{{1, 0, 0}, 1}, {{-1, 0, 0}, 1}, {{0, 1, 0}, 1}, {{0, -1, 0}, 1}, {{0, 0, 1}, 1}, {{0, 0, -1}, 1}}};
  EXPECT_LT(shape_volume(cube), 8);
  EXPECT_NEAR(shape_volume(cube), 4.18879, 1e-5);
}

TEST(FiniteInputs, CellsWhoseVolumeLeavesTheRangeOfNumbersAreRefused) {
  EXPECT_THROW(cell_from_vectors({1e308, 0, 0}, {0, 1e308, 0}, {0, 0, 1e308}), Error);
  Cell tiny;
  tiny.a = tiny.b = tiny.c = 1e-300;
  EXPECT_EQ(test::error_of([&] { validate_cell(tiny); }).rfind("a: cell lengths", 0), 0u);
}

TEST(OutputDirectory, CheckedBeforeWorkWithoutCreatingIt) {
  test::TempDir dir("guard_outdir");
  EXPECT_NO_THROW(check_output_directory(dir / "new/deeper", "output_dir"));
  EXPECT_FALSE(std::filesystem::exists(dir / "new"));
  std::ofstream(dir / "file") << "x";
  EXPECT_EQ(test::error_of([&] { check_output_directory(dir / "file", "output_dir"); }),
            (dir / "file").string() + ": output_dir: exists and is not a directory");
  EXPECT_THROW(check_output_directory(dir / "file/sub", "output_dir"), Error);
  make_output_directory(dir / "new/deeper", "output_dir");
  EXPECT_TRUE(std::filesystem::is_directory(dir / "new/deeper"));
}

// A signal during a write removes the temporary and ends the process with
// 128 + the signal; a committed output stays.
TEST(AtomicOutput, SignalRemovesOpenTemporaries) {
  test::TempDir dir("guard_signal");
  for (const int signal_number : {SIGINT, SIGTERM}) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      install_output_signal_handlers();
      AtomicOutput kept(dir / "kept.dat");
      std::ofstream(kept.temp_path()) << "whole";
      kept.commit();
      AtomicOutput open(dir / "open.dat");
      std::ofstream(open.temp_path()) << "partial";
      raise(signal_number);
      _exit(0);  // not reached: the handler exits
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 128 + signal_number);
    std::vector<std::string> left;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) left.push_back(entry.path().filename());
    EXPECT_EQ(left, std::vector<std::string>{"kept.dat"});
    std::filesystem::remove(dir / "kept.dat");
  }
}

// A staging folder (rmc's) goes with its files.
TEST(AtomicOutput, SignalRemovesStagingFolders) {
  test::TempDir dir("guard_staging");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    install_output_signal_handlers();
    std::filesystem::create_directory(dir / ".stage");
    for (int i = 0; i < 300; ++i) std::ofstream(dir / (".stage/file" + std::to_string(i))) << i;
    register_staging_directory(dir / ".stage");
    raise(SIGINT);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

}  // namespace
}  // namespace nanoscatter
