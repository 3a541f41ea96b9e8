// Seeds for property tests: tests that draw fresh random cases on every run.
//
// Each run draws a new base seed (std::random_device) unless NS_TEST_SEED is
// set, in which case that seed is replayed. A property test derives one seed
// per case from the base (case_seed) and wraps each case in
// NS_PROPERTY_CASE(seed), so that a failure prints
//   "property case seed = S (replay: NS_TEST_SEED=S ... --gtest_filter=...)"
// A replayed seed reproduces the failing case as the first case of the test.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "nanoscatter/vec3.hpp"

namespace nanoscatter::test {

// The run's base seed: NS_TEST_SEED if set (decimal), else fresh entropy.
// Printed once per test binary so that a log of a passing run still says what it drew.
inline std::uint64_t property_base_seed() {
  static const std::uint64_t seed = [] {
    std::uint64_t s = 0;
    if (const char* env = std::getenv("NS_TEST_SEED"); env && *env) {
      s = std::strtoull(env, nullptr, 10);
    } else {
      std::random_device rd;
      s = (std::uint64_t(rd()) << 32) ^ rd();
    }
    std::fprintf(stderr, "[property tests] base seed %llu (replay with NS_TEST_SEED=%llu)\n",
                 static_cast<unsigned long long>(s), static_cast<unsigned long long>(s));
    return s;
  }();
  return seed;
}

// Seed of case k of a test: case 0 is the base seed itself, so a failing
// case's printed seed, given back as NS_TEST_SEED, is drawn first.
inline std::uint64_t case_seed(int k) {
  std::uint64_t z = property_base_seed() + 0x9E3779B97F4A7C15ull * std::uint64_t(k);
  if (k == 0) return z;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// How many cases a property test draws: NS_PROPERTY_CASES if set, else `fallback`.
inline int property_cases(int fallback) {
  const char* env = std::getenv("NS_PROPERTY_CASES");
  return env && *env ? std::max(1, std::atoi(env)) : fallback;
}

inline std::string replay_hint(std::uint64_t seed) {
  std::ostringstream s;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  s << "property case seed = " << seed << " (replay: NS_TEST_SEED=" << seed << " <test binary> --gtest_filter="
    << (info ? std::string(info->test_suite_name()) + "." + info->name() : std::string("...")) << ")";
  return s.str();
}

// A rotation drawn uniformly from SO(3): a random unit quaternion.
inline Mat3 random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<double> n(0, 1);
  double w = n(rng), x = n(rng), y = n(rng), z = n(rng);
  const double s = std::sqrt(w * w + x * x + y * y + z * z);
  w /= s, x /= s, y /= s, z /= s;
  Mat3 r;
  r.row[0] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)};
  r.row[1] = {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)};
  r.row[2] = {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)};
  return r;
}

}  // namespace nanoscatter::test

// Inside a case's scope: every failure below it prints the case's seed and how to replay it.
#define NS_PROPERTY_CASE(seed) SCOPED_TRACE(::nanoscatter::test::replay_hint(seed))
