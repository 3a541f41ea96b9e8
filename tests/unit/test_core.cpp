// Core helpers: error formatting, atomic output, device selection,
// exceptions out of OpenMP loops, the stopwatch.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include "core/omp_errors.hpp"
#include "core/quadrature.hpp"
#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/device.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/stopwatch.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

TEST(Error, MessageNamesFileLineAndField) {
  try {
    fail_at({"a.xyz", 7, "x"}, "not a number: '", "abc", "'");
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "a.xyz:7: x: not a number: 'abc'");
    EXPECT_EQ(e.where().line, 7);
  }
}

TEST(Error, RethrowFillsMissingFile) {
  try {
    try {
      fail_at({"", 3, "cell"}, "missing");
    } catch (const Error& e) {
      rethrow_with(e, {"p.cif", 0, ""});
    }
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "p.cif:3: cell: missing");
  }
}

TEST(AtomicOutput, NoFileUnlessCommitted) {
  test::TempDir dir("atomic");
  const auto target = dir / "out.dat";
  {
    AtomicOutput out(target);
    std::ofstream(out.temp_path()) << "partial";
    // destroyed without commit: as if an error happened mid-write
  }
  EXPECT_FALSE(std::filesystem::exists(target));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  {
    AtomicOutput out(target);
    std::ofstream(out.temp_path()) << "whole";
    out.commit();
  }
  EXPECT_EQ(test::read_text(target), "whole");
}

TEST(AtomicOutput, MissingDirectoryIsAnError) {
  EXPECT_THROW(AtomicOutput("/nonexistent-dir-xyz/out.dat"), Error);
}

TEST(Device, CpuAlwaysAvailableAndGpuErrorsWithoutDevice) {
  EXPECT_EQ(select_device(DeviceRequest::cpu), Device::cpu);
  if (cuda_device_count() == 0) {
    EXPECT_THROW(select_device(DeviceRequest::gpu), Error);
    EXPECT_EQ(select_device(DeviceRequest::automatic), Device::cpu);
  } else {
    EXPECT_EQ(select_device(DeviceRequest::automatic), Device::gpu);
  }
  EXPECT_THROW(parse_device("tpu"), Error);
  EXPECT_EQ(parse_precision("single"), Precision::float32);
  EXPECT_EQ(parse_precision("auto"), Precision::automatic);
  EXPECT_STREQ(to_string(Precision::automatic), "auto");
}

// auto resolves per device: the engine's GPU choice on the GPU, float64 on
// the CPU; a precision the user chose is kept on either.
TEST(Device, AutomaticPrecisionResolvesPerDevice) {
  DeviceOptions o;
  EXPECT_EQ(o.precision, Precision::automatic);
  EXPECT_EQ(o.resolved_precision(Precision::float32), Precision::float64);
  o.device = Device::gpu;
  EXPECT_EQ(o.resolved_precision(Precision::float32), Precision::float32);
  EXPECT_EQ(o.resolved_precision(), Precision::float64);
  for (const Precision chosen : {Precision::float32, Precision::float64})
    for (const Device d : {Device::cpu, Device::gpu}) {
      o.precision = chosen;
      o.device = d;
      EXPECT_EQ(o.resolved_precision(Precision::float32), chosen);
      EXPECT_EQ(o.resolved_precision(Precision::float64), chosen);
    }
  EXPECT_THROW(parse_precision("half"), Error);
}

// An n-point Gauss–Legendre rule integrates polynomials of degree ≤ 2n − 1
// exactly: ∫_{−1}^{1} x^k dx = 2/(k+1) for even k, 0 for odd (1e-14: rounding).
TEST(Quadrature, GaussLegendreIsExactToDegree2nMinus1) {
  for (int n : {1, 2, 5, 16, 57}) {
    const GaussRule rule = gauss_legendre_rule(n);
    for (int k = 0; k <= 2 * n - 1; ++k) {
      double sum = 0;
      for (int i = 0; i < n; ++i) sum += rule.weights[i] * std::pow(rule.nodes[i], k);
      const double exact = k % 2 ? 0.0 : 2.0 / (k + 1);
      EXPECT_NEAR(sum, exact, 1e-14) << "n=" << n << " k=" << k;
    }
    // and not beyond (visible for small n; the error constant of x^(2n)
    // falls factorially): x^(2n) is integrated with an error
    if (n <= 5) {
      double sum = 0;
      for (int i = 0; i < n; ++i) sum += rule.weights[i] * std::pow(rule.nodes[i], 2 * n);
      EXPECT_GT(std::abs(sum - 2.0 / (2 * n + 1)), 1e-6) << "n=" << n;
    }
  }
  EXPECT_THROW(gauss_legendre_rule(0), Error);
}

TEST(OmpErrors, LoopFinishesAndTheExceptionReachesTheCaller) {
  constexpr int kIterations = 64;
  std::atomic<int> done{0};
  OmpErrors errors;
#pragma omp parallel for schedule(dynamic, 1) num_threads(2)
  for (int i = 0; i < kIterations; ++i)
    errors.capture([&] {
      ++done;
      if (i % 16 == 3) fail_at({"", 0, "iteration"}, "bad ", i);
    });
  EXPECT_EQ(done.load(), kIterations);  // a failing iteration does not stop the others
  try {
    errors.rethrow();
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().field, "iteration");  // the exception itself, type and context kept
  }
  OmpErrors none;
  none.capture([] {});
  EXPECT_NO_THROW(none.rethrow());
}

TEST(Stopwatch, CountsUpFromZeroAndRestarts) {
  Stopwatch watch;
  const double first = watch.seconds();
  EXPECT_GE(first, 0.0);
  EXPECT_GE(watch.seconds(), first);  // monotonic
  watch.restart();
  EXPECT_LT(watch.seconds(), 60.0);
}
