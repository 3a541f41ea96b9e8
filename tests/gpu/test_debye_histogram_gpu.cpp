// The CUDA pair histogram's fast path (uniform weights) and fallback
// (weights differ) against the float64 CPU histogram; a device-memory cap
// that splits the work gives the same histogram; the GPU's sinc sums of a
// histogram match the CPU's. Tolerances: the fast path's
// quantisation and distance error (test_histogram_compare.hpp, derived in
// histogram_pair_math.hpp); the fallback computes r in float64 like the CPU
// (only summation order differs). Skips without a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "debye/histogram_intensity.hpp"
#include "debye/histogram_layout.hpp"
#include "debye/pair_sums.hpp"
#include "nanoscatter/device.hpp"
#include "property_seed.hpp"
#include "test_histogram_compare.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

#if !NANOSCATTER_HAVE_CUDA
TEST(DebyeHistogramCuda, NotBuilt) { GTEST_SKIP() << "built without CUDA"; }
#else
using namespace nanoscatter::debye;

namespace {

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

PairHistogram cpu_histogram(const AtomBlock& a, const AtomBlock& b, PairSet set) {
  PairHistogram h;
  h.bin_width = 1e-3;
  pair_histogram_cpu(a, set == PairSet::triangle ? a : b, set, h, 0);
  return h;
}

// The fast path's two bin codes (DebyeOptions::histogram_mode): every fast-path
// test runs both, each against its own bounds (check_fast_histogram).
constexpr HistogramMode kLayouts[] = {HistogramMode::precise, HistogramMode::fast};
hist::BinWords words_of(HistogramMode g) { return g == HistogramMode::fast ? hist::BinWords::one : hist::BinWords::two; }

PairHistogram gpu_histogram(const AtomBlock& a, const AtomBlock& b, PairSet set, HistogramMode layout,
                            std::size_t cap = 0) {
  PairHistogram h;
  h.bin_width = 1e-3;
  CudaDebyeOptions options;
  options.max_device_memory = cap;
  options.histogram_mode = layout;
  pair_histogram_cuda(a, set == PairSet::triangle ? a : b, set, h, options);
  return h;
}

}  // namespace

// Perfect crystal: thousands of pairs at each distance, many exactly on bin
// edges (multiples of a/2 = 2.13 Å are multiples of Δr = 1e-3 Å). 30 Å:
// full groups with far shells, so the tensor-core path takes most pairs
// (the host emulation of the same sizes counts them).
TEST(DebyeHistogramCuda, FastPathCrystalTriangleAndRectangle) {
  SKIP_WITHOUT_GPU();
  const AtomBlock co = test::rocksalt_block(30.0, 0, 1.0), o = test::rocksalt_block(28.0, 1, 0.75);
  ASSERT_GE(co.size(), 4000u);
  for (const HistogramMode g : kLayouts) {
    SCOPED_TRACE(to_string(g));
    test::check_fast_histogram("crystal triangle", co, co, PairSet::triangle, cpu_histogram(co, co, PairSet::triangle),
                               gpu_histogram(co, co, PairSet::triangle, g), words_of(g));
    test::check_fast_histogram("crystal rectangle", co, o, PairSet::rectangle, cpu_histogram(co, o, PairSet::rectangle),
                               gpu_histogram(co, o, PairSet::rectangle, g), words_of(g));
  }
}

TEST(DebyeHistogramCuda, FastPathDisorderedTriangleAndRectangle) {
  SKIP_WITHOUT_GPU();
  const AtomBlock a = test::uniform_ball(2500, 20.0, 7, 0.8), b = test::uniform_ball(1300, 20.0, 8, 0.6);
  for (const HistogramMode g : kLayouts) {
    SCOPED_TRACE(to_string(g));
    test::check_fast_histogram("disordered triangle", a, a, PairSet::triangle, cpu_histogram(a, a, PairSet::triangle),
                               gpu_histogram(a, a, PairSet::triangle, g), words_of(g));
    test::check_fast_histogram("disordered rectangle", a, b, PairSet::rectangle,
                               cpu_histogram(a, b, PairSet::rectangle), gpu_histogram(a, b, PairSet::rectangle, g),
                               words_of(g));
  }
}

// Coincident atoms (r = 0, one crowded bin with 40·39/2 pairs) and a sparse
// cloud (groups of the bin code's size wider than the window, which the layout
// halves).
TEST(DebyeHistogramCuda, FastPathCoincidentAndSparse) {
  SKIP_WITHOUT_GPU();
  AtomBlock a = test::uniform_ball(600, 150.0, 9, 1.0);
  for (int k = 0; k < 40; ++k) {
    a.x.push_back(1.25);
    a.y.push_back(-0.5);
    a.z.push_back(2.0);
    a.w.push_back(1.0);
  }
  const PairHistogram cpu = cpu_histogram(a, a, PairSet::triangle);
  for (const HistogramMode g : kLayouts) {
    SCOPED_TRACE(to_string(g));
    const PairHistogram gpu = gpu_histogram(a, a, PairSet::triangle, g);
    EXPECT_EQ(gpu.count[0], cpu.count[0]);
    test::check_fast_histogram("coincident and sparse", a, a, PairSet::triangle, cpu, gpu, words_of(g));
  }
}

// Weights that differ within a block take the generic float64 kernel: the
// CPU's numbers up to summation order (as DebyeCuda.HistogramMatchesCpu),
// here with one uniform block against a non-uniform one.
TEST(DebyeHistogramCuda, FallbackForMixedWeights) {
  SKIP_WITHOUT_GPU();
  const AtomBlock a = test::uniform_ball(1200, 18.0, 3, 1.0);
  const AtomBlock b = test::random_ball(900, 18.0, {3.0, -1.0, 0.0}, 4, 0.5);
  ASSERT_FALSE(uniform_weights(b));
  const PairHistogram cpu = cpu_histogram(a, b, PairSet::rectangle),
                      gpu = gpu_histogram(a, b, PairSet::rectangle, HistogramMode::precise);
  double max_count = 0, worst_n = 0, worst_d = 0, worst_d2 = 0;
  for (std::size_t k = 0; k < std::min(cpu.count.size(), gpu.count.size()); ++k) {
    max_count = std::max(max_count, cpu.count[k]);
    worst_n = std::max(worst_n, std::abs(gpu.count[k] - cpu.count[k]));
    worst_d = std::max(worst_d, std::abs(gpu.sum_d[k] - cpu.sum_d[k]));
    worst_d2 = std::max(worst_d2, std::abs(gpu.sum_d2[k] - cpu.sum_d2[k]));
  }
  const double dr = cpu.bin_width;
  EXPECT_LT(worst_n, 1e-9);
  EXPECT_LT(worst_d, 1e-10 * dr * max_count);
  EXPECT_LT(worst_d2, 1e-10 * dr * dr * max_count);
}

// A cap just above the bins' own memory leaves room for ~500 atoms per call:
// split_until_fits cuts the triangle into triangles and rectangles, each laid
// out on its own (own box, own hi grid), and the result is the same
// histogram within the fast path's bounds; the integer totals are equal.
TEST(DebyeHistogramCuda, MemoryCapSplitsWithoutChangingTheResult) {
  SKIP_WITHOUT_GPU();
  const AtomBlock a = test::uniform_ball(3000, 20.0, 5, 1.0);
  const std::size_t bins = histogram_bins_needed(a, a, PairSet::triangle, 1e-3);
  // Two blocks hold device memory at a time (the pipeline), each within
  // half the cap: a few thousand bytes of atoms per block.
  const std::size_t cap = 2 * (hist::kSubBins * bins * sizeof(FastBin) + (1 << 16) + 20000);
  const PairHistogram cpu = cpu_histogram(a, a, PairSet::triangle);
  for (const HistogramMode g : kLayouts) {
    SCOPED_TRACE(to_string(g));
    const PairHistogram whole = gpu_histogram(a, a, PairSet::triangle, g);
    const PairHistogram capped = gpu_histogram(a, a, PairSet::triangle, g, cap);
    test::check_fast_histogram("memory cap", a, a, PairSet::triangle, cpu, capped, words_of(g));
    const double n_whole = std::accumulate(whole.count.begin(), whole.count.end(), 0.0);
    const double n_capped = std::accumulate(capped.count.begin(), capped.count.end(), 0.0);
    EXPECT_EQ(n_capped, n_whole);
    EXPECT_EQ(n_whole, 0.5 * 3000.0 * 2999.0);
  }
}
#endif  // NANOSCATTER_HAVE_CUDA

#if NANOSCATTER_HAVE_CUDA
// The Taylor-corrected sinc sums on the GPU against the CPU's, on a
// histogram with random moments over 3·10⁴ bins (bin 0 and the first bins
// take the series branch at small Q) and Q from 0 to 25 Å⁻¹, with a memory
// cap that cuts the bins into many pieces. Both are float64 with different
// sin/cos (trig::sincos, CUDA's sincos: each within ~1e-15 absolute at
// these phases) and summation orders: bound 1e-13 of Σ|terms| per Q. Also
// two histograms in one launch, each against its own CPU sums.
TEST(DebyeHistogramCuda, SincSumsMatchCpu) {
  SKIP_WITHOUT_GPU();
  PairHistogram h;
  h.bin_width = 1e-3;
  h.resize_for(30.0);
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (std::size_t k = 0; k < h.count.size(); ++k) {
    if (k > 50 && unit(rng) < 0.3) continue;  // empty bins are skipped
    const double n = 1 + 100 * unit(rng);
    h.count[k] = n;
    h.sum_d[k] = n * (unit(rng) - 0.5) * h.bin_width;
    h.sum_d2[k] = n * unit(rng) * 0.25 * h.bin_width * h.bin_width;
  }
  std::vector<double> q;
  for (int k = 0; k < 700; ++k) q.push_back(25.0 * k / 699.0);
  for (const std::size_t cap : {std::size_t(0), std::size_t(1) << 16}) {
    std::vector<double> cpu(q.size(), 0.0), gpu(q.size(), 0.0);
    histogram_sinc_sums(h, q, cpu, BinRule::taylor2, 0);
    histogram_sinc_sums_cuda(h, q, gpu, BinRule::taylor2, cap);
    double worst = 0;
    for (std::size_t k = 0; k < q.size(); ++k) {
      double scale = 0;
      for (std::size_t b = 0; b < h.count.size(); ++b)
        scale += h.count[b] + q[k] * std::abs(h.sum_d[b]) + q[k] * q[k] * h.sum_d2[b];
      worst = std::max(worst, std::abs(gpu[k] - cpu[k]) / scale);
    }
    std::printf("sinc sums, cap %zu bytes: max |GPU − CPU| / Σ|terms| = %.2e\n", cap, worst);
    EXPECT_LT(worst, 1e-13) << "cap " << cap;
  }
  // Several histograms in one launch (as a plan's species pairs): a second,
  // shorter one with other moments; each against its own CPU sums.
  PairHistogram h2 = h;
  h2.count.resize(12000), h2.sum_d.resize(12000), h2.sum_d2.resize(12000);
  for (std::size_t k = 0; k < h2.count.size(); ++k) h2.count[k] *= 0.5, h2.sum_d[k] *= -1;
  for (const std::size_t cap : {std::size_t(0), std::size_t(1) << 16}) {
    std::vector<std::vector<double>> gpu(2, std::vector<double>(q.size(), 0.0));
    histogram_sinc_sums_cuda({&h, &h2}, q, gpu, BinRule::taylor2, cap);
    int which = 0;
    for (const PairHistogram* one : {&h, &h2}) {
      std::vector<double> cpu(q.size(), 0.0);
      histogram_sinc_sums(*one, q, cpu, BinRule::taylor2, 0);
      double worst = 0;
      for (std::size_t k = 0; k < q.size(); ++k) {
        double scale = 0;
        for (std::size_t b = 0; b < one->count.size(); ++b)
          scale += one->count[b] + q[k] * std::abs(one->sum_d[b]) + q[k] * q[k] * one->sum_d2[b];
        worst = std::max(worst, std::abs(gpu[std::size_t(which)][k] - cpu[k]) / scale);
      }
      std::printf("sinc sums, two histograms in one launch, cap %zu, histogram %d: %.2e\n", cap, which, worst);
      EXPECT_LT(worst, 1e-13) << "histogram " << which << " cap " << cap;
      ++which;
    }
  }
}
#endif

#if NANOSCATTER_HAVE_CUDA
// The queue overlaps each block's host layout with the device's previous
// block: a fast block, a block of mixed weights (generic kernel: the queue
// collects first), a rectangle, and two blocks into one histogram give the
// histograms of separate calls, exactly on the fast path (same arithmetic,
// integer bins).
TEST(DebyeHistogramCuda, QueueGivesTheSameHistogramsAsSeparateCalls) {
  SKIP_WITHOUT_GPU();
  const AtomBlock co = test::rocksalt_block(15.0, 0, 1.0), o = test::rocksalt_block(15.0, 1, 0.5);
  const AtomBlock mixed = test::random_ball(700, 15.0, {1.0, 0.0, 0.0}, 4, 0.5);
  ASSERT_FALSE(uniform_weights(mixed));
  const auto fresh = [] {
    PairHistogram h;
    h.bin_width = 1e-3;
    return h;
  };
  for (const HistogramMode g : kLayouts) {
    SCOPED_TRACE(to_string(g));
    PairHistogram q1 = fresh(), q2 = fresh(), q3 = fresh(), s1 = fresh(), s2 = fresh(), s3 = fresh();
    CudaDebyeOptions options;
    options.histogram_mode = g;
    {
      CudaHistogramQueue queue;
      queue.add(co, co, PairSet::triangle, q1, options);
      queue.add(mixed, mixed, PairSet::triangle, q2, options);
      queue.add(co, o, PairSet::rectangle, q3, options);
      queue.add(o, o, PairSet::triangle, q3, options);  // a second block into the same histogram
      queue.finish();
    }
    pair_histogram_cuda(co, co, PairSet::triangle, s1, options);
    pair_histogram_cuda(mixed, mixed, PairSet::triangle, s2, options);
    pair_histogram_cuda(co, o, PairSet::rectangle, s3, options);
    pair_histogram_cuda(o, o, PairSet::triangle, s3, options);
    for (const auto& [q, s] : {std::pair{&q1, &s1}, std::pair{&q3, &s3}}) {  // fast path: integer bins, exact
      ASSERT_EQ(q->count.size(), s->count.size());
      EXPECT_EQ(q->count, s->count);
      EXPECT_EQ(q->sum_d, s->sum_d);
      EXPECT_EQ(q->sum_d2, s->sum_d2);
      EXPECT_GT(std::accumulate(q->count.begin(), q->count.end(), 0.0), 0.0);
    }
    // And against the independent reference, the float64 CPU histogram (the
    // separate calls share the queue's code; a queue of one has no overlap).
    test::check_fast_histogram("queue, Co triangle", co, co, PairSet::triangle, cpu_histogram(co, co, PairSet::triangle),
                               q1, words_of(g));
    PairHistogram cpu3 = cpu_histogram(co, o, PairSet::rectangle);
    cpu3.add(cpu_histogram(o, o, PairSet::triangle));
    const double within_o = 0.5 * double(o.size()) * double(o.size() - 1) * o.w[0] * o.w[0];
    const double across = double(co.size()) * double(o.size()) * co.w[0] * o.w[0];
    EXPECT_NEAR(std::accumulate(q3.count.begin(), q3.count.end(), 0.0), within_o + across, 1e-12 * (within_o + across));
    // Σw·r (binning-independent) of the two blocks: each pair's r is off by
    // ≤ hist::offset_error bin (the offset's quantum) + the distance bound.
    const auto sum_wr = [](const PairHistogram& h) {
      double s = 0;
      for (std::size_t k = 0; k < h.count.size(); ++k) s += h.count[k] * ((double(k) + 0.5) * h.bin_width) + h.sum_d[k];
      return s;
    };
    const double per_pair = (hist::offset_error(words_of(g)) + test::fast_distance_error_bins(co, o, PairSet::rectangle, 1e-3)) * 1e-3;
    EXPECT_NEAR(sum_wr(q3), sum_wr(cpu3), per_pair * (within_o + across)) << "Σw·r of two blocks in one histogram";
    // Generic kernel: float64 atomics in any order, so equal to rounding (as FallbackForMixedWeights).
    ASSERT_EQ(q2.count.size(), s2.count.size());
    for (std::size_t k = 0; k < q2.count.size(); ++k) {
      EXPECT_NEAR(q2.count[k], s2.count[k], 1e-12 * (1 + s2.count[k]));
      EXPECT_NEAR(q2.sum_d[k], s2.sum_d[k], 1e-12 * (1 + s2.count[k]) * q2.bin_width);
  }
}
}
#endif

#if NANOSCATTER_HAVE_CUDA
// Partial occupancies on a few sites (three weights on the Co sites, two on
// the O sites): the blocks are cut by weight and every piece takes the fast
// path, against the CPU histogram with the fast path's bounds. Weights are
// binary fractions, so the CPU's per-pair sums of w_i w_j stay exact and
// the counts can be compared to 1e-9 as for one weight.
TEST(DebyeHistogramCuda, FewWeightsTakeTheFastPathByClass) {
  SKIP_WITHOUT_GPU();
  AtomBlock co = test::rocksalt_block(18.0, 0, 1.0), o = test::rocksalt_block(18.0, 1, 0.25);
  for (std::size_t i = 0; i < co.size(); ++i) co.w[i] = i % 3 == 0 ? 0.5 : i % 5 == 0 ? 0.75 : 1.0;
  for (std::size_t i = 0; i < o.size(); i += 4) o.w[i] = 1.0;
  ASSERT_FALSE(uniform_weights(co));
  ASSERT_FALSE(uniform_weights(o));
  for (const HistogramMode g : kLayouts) {
    SCOPED_TRACE(to_string(g));
    test::check_fast_histogram("three weights, triangle", co, co, PairSet::triangle,
                               cpu_histogram(co, co, PairSet::triangle), gpu_histogram(co, co, PairSet::triangle, g),
                               words_of(g));
    test::check_fast_histogram("three and two weights, rectangle", co, o, PairSet::rectangle,
                               cpu_histogram(co, o, PairSet::rectangle), gpu_histogram(co, o, PairSet::rectangle, g),
                               words_of(g));
  }
}

// The fast histogram is one function on both devices: the GPU's one-word
// kernel against its CPU twin (histogram_fast_cpu.cpp) on drawn particles
// (perfect crystals, whose shells put thousands of pairs at one distance;
// displaced ones; one or a few weights), two species a and b. Measured as
// issue 20 states it: the Debye intensity of a ∪ b with these weights,
//   I(Q) = Σ w² + 2 [T_a(Q) + T_b(Q) + R_ab(Q)]
// (T the triangles', R the rectangle's Σ w·sinc(Qr) from each device's
// histograms) on Q 0.5–20 Å⁻¹, max |I_GPU − I_twin|/I_twin where I_twin >
// 1e-3·max I_twin: bound 1e-6. Only pairs within the kernel's float32
// distance error of a level of q or of a bin edge can differ (by one
// level, ≤ 2e-6 Å at Δr = 1e-3 Å); perfect crystals put whole shells at
// the same distance, so there some tens of bins differ in count. The pair
// sums' largest difference against their peak is printed too (no bound:
// it is not a relative error of anything a user sees).
TEST(DebyeHistogramCuda, FastHistogramIsItsCpuTwinsFunction) {
  SKIP_WITHOUT_GPU();
  std::vector<double> q(400);
  for (std::size_t i = 0; i < q.size(); ++i) q[i] = 0.5 + 19.5 * double(i) / double(q.size() - 1);
  const auto sums = [&](const PairHistogram& h) {
    std::vector<double> s(q.size(), 0.0);
    histogram_sinc_sums(h, q, s);
    return s;
  };
  const auto self = [](const AtomBlock& blk) {
    double s = 0;
    for (double w : blk.w) s += w * w;
    return s;
  };
  for (int k = 0; k < test::property_cases(6); ++k) {
    const std::uint64_t seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uni(0.0, 1.0);
    const double radius = 15.0 + 20.0 * uni(rng), sigma = k % 2 == 0 ? 0.0 : 0.05 * uni(rng);
    AtomBlock a = test::rocksalt_block(radius, 0, 1.0), b = test::rocksalt_block(radius, 1, 0.5);
    std::normal_distribution<double> shift(0.0, sigma > 0 ? sigma : 1.0);
    for (AtomBlock* blk : {&a, &b})
      for (std::size_t i = 0; i < blk->size() && sigma > 0; ++i) {
        blk->x[i] += shift(rng);
        blk->y[i] += shift(rng);
        blk->z[i] += shift(rng);
      }
    if (k % 3 == 2)  // partial occupancies of three values: the parts of FastParts
      for (std::size_t i = 0; i < a.size(); ++i) a.w[i] = 0.5 + 0.25 * double(i % 3);
    std::vector<double> i_gpu(q.size(), self(a) + self(b)), i_twin = i_gpu;
    double worst_pair_sum = 0;
    std::size_t differ = 0;
    const std::pair<const AtomBlock*, const AtomBlock*> parts[] = {{&a, &a}, {&b, &b}, {&a, &b}};
    for (const auto& [x, y] : parts) {
      const PairSet set = x == y ? PairSet::triangle : PairSet::rectangle;
      const PairHistogram gpu = gpu_histogram(*x, *y, set, HistogramMode::fast);
      PairHistogram twin;
      twin.bin_width = gpu.bin_width;
      pair_histogram_fast_cpu(*x, *y, set, twin, 0);
      const std::vector<double> sg = sums(gpu), st = sums(twin);
      double peak = 0, worst = 0;
      for (std::size_t i = 0; i < q.size(); ++i) {
        peak = std::max(peak, std::abs(st[i]));
        worst = std::max(worst, std::abs(sg[i] - st[i]));
        i_gpu[i] += 2 * sg[i];
        i_twin[i] += 2 * st[i];
      }
      worst_pair_sum = std::max(worst_pair_sum, worst / peak);
      for (std::size_t i = 0; i < std::min(gpu.count.size(), twin.count.size()); ++i) differ += gpu.count[i] != twin.count[i];
    }
    const double err = test::max_rel_error(i_gpu, i_twin, 1e-3);
    std::printf("case %d: %zu + %zu atoms, R %.1f Å, sigma %.3f Å: I(Q) GPU vs CPU twin %.2e (pair sums %.2e of "
                "their peak), %zu bins with other counts\n",
                k, a.size(), b.size(), radius, sigma, err, worst_pair_sum, differ);
    EXPECT_LE(err, 1e-6);
  }
}
#endif
