// FFTW plans made and destroyed from several threads at once, as two Python
// threads do when the bindings release the GIL: through the DDA (interaction
// tensor FFT and the float64 / float32 matrix–vector plans of DdaPlan) and
// the RMC (exact spectrum, pair correlation), every thread must get the
// single-threaded result. FFTW's planner is not thread-safe, so without the
// planner lock (core/fftw_lock.hpp) this races; a race shows as a crash or
// a wrong number, though not on every run.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <thread>
#include <vector>

#include "core/fftw_lock.hpp"
#include "nanoscatter/dda.hpp"
#include "nanoscatter/rmc.hpp"
#include "rmc/spectrum.hpp"

using namespace nanoscatter;

namespace {

constexpr int kThreads = 6;  // more than this machine's cores: the threads interleave
constexpr int kRounds = 4;   // plans made and destroyed per thread and path

// Runs body(t) on kThreads threads started together.
void on_threads(const std::function<void(int)>& body) {
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      ++ready;
      while (ready.load() < kThreads) std::this_thread::yield();
      body(t);
    });
  for (std::thread& th : threads) th.join();
}

DdaOptions small_sphere(Precision precision) {
  DdaOptions o;
  o.grid = {8};
  o.eq_rad = 2;
  o.m = {{1.5, 0.01}};
  o.compute.precision = precision;
  o.compute.threads = 1;  // this test's threads are the concurrency under test
  return o;
}

std::vector<std::uint8_t> random_occupancy(int n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution occupied(0.3);
  std::vector<std::uint8_t> occ(std::size_t(n) * std::size_t(n));
  for (auto& o : occ) o = occupied(rng) ? 1 : 0;
  return occ;
}

double rel_diff(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

}  // namespace

TEST(FftwPlannerLock, SerialisesPlannerCalls) {
  std::atomic<int> inside{0}, most{0};
  on_threads([&](int) {
    for (int k = 0; k < 200; ++k) {
      const int got = with_fftw_planner([&] {
        const int now = ++inside;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        --inside;
        return k;
      });
      EXPECT_EQ(got, k);
    }
  });
  EXPECT_EQ(most.load(), 1);
}

TEST(FftwPlannerLock, DdaPlansFromSeveralThreads) {
  for (const Precision precision : {Precision::float64, Precision::float32}) {
    const DdaResult serial = DdaPlan(small_sphere(precision)).execute();
    ASSERT_TRUE(serial.converged);
    std::vector<double> qext(kThreads * kRounds, 0.0);
    on_threads([&](int t) {
      for (int r = 0; r < kRounds; ++r) qext[t * kRounds + r] = DdaPlan(small_sphere(precision)).execute().runs[0].qext;
    });
    for (double q : qext) EXPECT_LE(rel_diff(q, serial.runs[0].qext), 1e-12) << to_string(precision);
  }
}

TEST(FftwPlannerLock, RmcPlansFromSeveralThreads) {
  constexpr int kSize = 48;
  std::vector<std::vector<std::uint8_t>> occupancy;
  std::vector<std::vector<std::complex<double>>> spectrum;
  std::vector<PairCorrelation> correlation;
  for (int t = 0; t < kThreads; ++t) {
    occupancy.push_back(random_occupancy(kSize, std::uint32_t(t + 1)));
    spectrum.push_back(rmc::exact_spectrum(occupancy.back(), kSize));
    correlation.push_back(pair_correlation(occupancy.back(), kSize));
  }
  std::vector<int> mismatches(kThreads, 0);
  on_threads([&](int t) {
    for (int r = 0; r < kRounds; ++r) {
      const auto f = rmc::exact_spectrum(occupancy[t], kSize);
      for (std::size_t p = 0; p < f.size(); ++p)
        if (std::abs(f[p] - spectrum[t][p]) > 1e-9 * (1 + std::abs(spectrum[t][p]))) ++mismatches[t];
      const PairCorrelation c = pair_correlation(occupancy[t], kSize);
      for (std::size_t b = 0; b < c.g.size(); ++b)
        if (std::abs(c.g[b] - correlation[t].g[b]) > 1e-9 * (1 + std::abs(correlation[t].g[b]))) ++mismatches[t];
    }
  });
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}
