// Debye pair kernels: the fast CPU path (tiles, OpenMP, recurrence along Q,
// float32/float64) and the histogram kernel against the float64 reference
// and brute-force sums on synthetic atom blocks; Q-grid helpers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <ostream>
#include <random>

#include "debye/histogram_intensity.hpp"
#include "debye/pair_sums.hpp"
#include "debye/q_grid.hpp"
#include "nanoscatter/debye.hpp"
#include "nanoscatter/error.hpp"
#include "test_util.hpp"

using namespace nanoscatter;
using namespace nanoscatter::debye;

namespace {

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

std::vector<double> q_points(bool uniform, int n) {
  std::vector<double> q;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> jitter(0, 0.02);
  for (int k = 0; k < n; ++k) q.push_back(0.03 + 0.13 * k + (uniform ? 0.0 : jitter(rng)));
  return q;
}

struct KernelCase {
  PairSet set;
  bool uniform;
  Precision precision;
  int threads;
};

std::string describe(const KernelCase& c) {
  return std::string(c.set == PairSet::triangle ? "triangle" : "rectangle") +
         (c.uniform ? "_uniform" : "_nonuniform") +
         (c.precision == Precision::float32 ? "_float32" : "_float64") + "_threads" +
         std::to_string(c.threads);
}

std::string case_name(const ::testing::TestParamInfo<KernelCase>& info) { return describe(info.param); }

void PrintTo(const KernelCase& c, std::ostream* os) { *os << describe(c); }

}  // namespace

class DebyeCpuKernel : public ::testing::TestWithParam<KernelCase> {};

// 613 and 389 atoms: several 256-atom tiles, chunks of 512 pairs that end
// mid-row, lane padding; 93 Q points: two full 32-step recurrence blocks and a
// partial one. Tolerances, relative to max_k |S_ref(k)|:
//  - float64: 1e-12 (both sides float64; summation order and the 32-step
//    recurrence, whose rounding errors grow at most linearly per step;
//    measured ≤ 1.3e-14);
//  - float32: 1e-6 (sines and amplitudes rounded to float32, ≤ 32 recurrence
//    steps, float32 sums over ≤ 16 terms per lane before float64; per-pair
//    errors of ~1e-7 with random signs; measured ≤ 4e-9).
TEST_P(DebyeCpuKernel, MatchesFloat64Reference) {
  const KernelCase c = GetParam();
  const AtomBlock a = test::random_ball(613, 22.0, {7.0, -3.0, 1.0}, 1, 0.3);
  const AtomBlock b = test::random_ball(389, 18.0, {7.0, -3.0, 1.0}, 2, 0.3);
  const auto q = q_points(c.uniform, 93);
  ASSERT_EQ(uniform_q_step(q).has_value(), c.uniform);
  std::vector<double> ref(q.size(), 0.0), fast(q.size(), 0.0);
  exact_pair_sums_reference(a, b, c.set, q, ref);
  exact_pair_sums_cpu(a, b, c.set, q, fast, c.precision, c.threads);
  const double tol = c.precision == Precision::float64 ? 1e-12 : 1e-6;
  const double err = max_abs_diff(fast, ref) / max_abs(ref);
  std::printf("%s: max |fast − ref| / max|ref| = %.2e\n", describe(c).c_str(), err);
  EXPECT_LE(err, tol);
}

INSTANTIATE_TEST_SUITE_P(
    AllPaths, DebyeCpuKernel,
    ::testing::Values(KernelCase{PairSet::triangle, true, Precision::float64, 2},
                      KernelCase{PairSet::triangle, false, Precision::float64, 2},
                      KernelCase{PairSet::rectangle, true, Precision::float64, 2},
                      KernelCase{PairSet::rectangle, false, Precision::float64, 1},
                      KernelCase{PairSet::triangle, true, Precision::float32, 2},
                      KernelCase{PairSet::triangle, false, Precision::float32, 1},
                      KernelCase{PairSet::rectangle, true, Precision::float32, 1},
                      KernelCase{PairSet::rectangle, false, Precision::float32, 2}),
    case_name);

// Coincident atoms contribute the limit w_i w_j q (sinc(0) = 1 after the
// division by q) in every path; the answer is exact, so the tolerance is
// float64 rounding of a few terms (float32: 1e-7 relative).
TEST(DebyeCpuKernel, CoincidentAtomsGiveTheLimit) {
  AtomBlock a;
  a.x = {1.5, 1.5, 1.5};
  a.y = {-2, -2, -2};
  a.z = {0.25, 0.25, 0.25};
  a.w = {1.0, 0.5, 0.25};
  const double pair_weight = 1.0 * 0.5 + 1.0 * 0.25 + 0.5 * 0.25;
  const auto q = uniform_q_grid(0.0, 10.0, 41);
  for (int path = 0; path < 3; ++path) {
    std::vector<double> out(q.size(), 0.0);
    if (path == 0) exact_pair_sums_reference(a, a, PairSet::triangle, q, out);
    if (path == 1) exact_pair_sums_cpu(a, a, PairSet::triangle, q, out, Precision::float64, 1);
    if (path == 2) exact_pair_sums_cpu(a, a, PairSet::triangle, q, out, Precision::float32, 1);
    for (std::size_t k = 0; k < q.size(); ++k)
      EXPECT_NEAR(out[k], pair_weight * q[k], (path == 2 ? 1e-7 : 1e-15) * (1 + q[k])) << path;
  }
}

// The kernels add to `out`, and a triangle of one atom or a rectangle with an
// empty side adds nothing.
TEST(DebyeCpuKernel, AccumulatesAndHandlesEmptySets) {
  const AtomBlock a = test::random_ball(300, 10.0, {7.0, -3.0, 1.0}, 3, 0.3);
  AtomBlock one, empty;
  one.x = {0}, one.y = {0}, one.z = {0}, one.w = {1};
  const auto q = uniform_q_grid(0.1, 5.0, 50);
  std::vector<double> once(q.size(), 0.0), twice(q.size(), 0.0);
  exact_pair_sums_cpu(a, a, PairSet::triangle, q, once, Precision::float64, 2);
  exact_pair_sums_cpu(a, a, PairSet::triangle, q, twice, Precision::float64, 2);
  exact_pair_sums_cpu(a, a, PairSet::triangle, q, twice, Precision::float64, 2);
  for (std::size_t k = 0; k < q.size(); ++k) EXPECT_DOUBLE_EQ(twice[k], 2 * once[k]);
  std::vector<double> unchanged(q.size(), 3.0);
  exact_pair_sums_cpu(one, one, PairSet::triangle, q, unchanged, Precision::float32, 2);
  exact_pair_sums_cpu(a, empty, PairSet::rectangle, q, unchanged, Precision::float64, 2);
  exact_pair_sums_reference(one, one, PairSet::triangle, q, unchanged);
  for (double v : unchanged) EXPECT_EQ(v, 3.0);
  std::vector<double> wrong_size(q.size() - 1);
  EXPECT_THROW(exact_pair_sums_cpu(a, a, PairSet::triangle, q, wrong_size, Precision::float64, 1), Error);
}

// Same thread count, same summation order: bit-identical results. Different
// thread counts differ only by float64 rounding (1e-13 of max|S|).
TEST(DebyeCpuKernel, DeterministicForAThreadCount) {
  const AtomBlock a = test::random_ball(1100, 20.0, {7.0, -3.0, 1.0}, 4, 0.3);
  const auto q = uniform_q_grid(0.05, 12.0, 70);
  std::vector<double> r1(q.size(), 0.0), r2(q.size(), 0.0), r3(q.size(), 0.0);
  exact_pair_sums_cpu(a, a, PairSet::triangle, q, r1, Precision::float32, 2);
  exact_pair_sums_cpu(a, a, PairSet::triangle, q, r2, Precision::float32, 2);
  EXPECT_EQ(r1, r2);
  std::vector<double> d1(q.size(), 0.0), d2(q.size(), 0.0);
  exact_pair_sums_cpu(a, a, PairSet::triangle, q, d1, Precision::float64, 1);
  exact_pair_sums_cpu(a, a, PairSet::triangle, q, d2, Precision::float64, 2);
  EXPECT_LE(max_abs_diff(d1, d2), 1e-13 * max_abs(d1));
}

TEST(DebyeQGrid, UniformDetection) {
  const auto q = uniform_q_grid(0.2, 12.0, 590);
  ASSERT_TRUE(uniform_q_step(q).has_value());
  EXPECT_NEAR(*uniform_q_step(q), 11.8 / 589, 1e-15);
  auto bent = q;
  bent[300] *= 1 + 1e-10;  // 1e-10 relative is beyond the 1e-12 tolerance
  EXPECT_FALSE(uniform_q_step(bent).has_value());
  auto tiny = q;
  tiny[300] += 1e-13;  // within 1e-12·max|q| = 1.2e-11
  EXPECT_TRUE(uniform_q_step(tiny).has_value());
  EXPECT_FALSE(uniform_q_step(std::vector<double>{1.0}).has_value());
  EXPECT_FALSE(uniform_q_step(std::vector<double>{2.0, 1.0, 0.0}).has_value());
  EXPECT_FALSE(uniform_q_step(two_theta_q_grid(5, 120, 100, 1.54)).has_value());
}

TEST(DebyeQGrid, GridsAndTheirErrors) {
  const auto q = uniform_q_grid(0.0, 2.0, 5);
  EXPECT_EQ(q, (std::vector<double>{0.0, 0.5, 1.0, 1.5, 2.0}));
  EXPECT_EQ(uniform_q_grid(0.3, 1.0, 1), std::vector<double>{0.3});
  // Q = 4π sin θ / λ at the ends of a 2θ grid.
  const auto t = two_theta_q_grid(10, 150, 8, 1.5406);
  EXPECT_NEAR(t.front(), 4 * M_PI * std::sin(5 * M_PI / 180) / 1.5406, 1e-14);
  EXPECT_NEAR(t.back(), 4 * M_PI * std::sin(75 * M_PI / 180) / 1.5406, 1e-14);
  auto field_of = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return e.where().field;
    }
    return std::string("no error");
  };
  EXPECT_EQ(field_of([] { uniform_q_grid(-0.1, 1, 10); }), "qmin");
  EXPECT_EQ(field_of([] { uniform_q_grid(1, 1, 10); }), "qmax");
  EXPECT_EQ(field_of([] { uniform_q_grid(1, 0.5, 10); }), "qmax");
  EXPECT_EQ(field_of([] { uniform_q_grid(0.1, 1, 0); }), "qpoints");
  EXPECT_EQ(field_of([] { two_theta_q_grid(10, 20, 10, 0); }), "wavelength");
  EXPECT_EQ(field_of([] { two_theta_q_grid(-1, 20, 10, 1); }), "two_theta_min");
  EXPECT_EQ(field_of([] { two_theta_q_grid(30, 20, 10, 1); }), "two_theta_max");
  EXPECT_EQ(field_of([] { two_theta_q_grid(30, 181, 10, 1); }), "two_theta_max");
  // The front ends' grid rules (make_q_grid): which fields go together.
  // Fields: qmin, qmax, qpoints, two_theta_min, two_theta_max, wavelength.
  const auto grid_field = [&](QGridOptions o) { return field_of([&] { make_q_grid(o); }); };
  const std::nullopt_t no = std::nullopt;
  EXPECT_EQ(grid_field(QGridOptions{no, 5, no, no, no, no}), "qpoints");
  EXPECT_EQ(grid_field(QGridOptions{0.1, no, 10, no, no, no}), "qmax");
  EXPECT_EQ(grid_field(QGridOptions{no, 5, 10, 10, 80, 1.5}), "qmax");
  EXPECT_EQ(grid_field(QGridOptions{no, no, 10, no, 80, 1.5}), "two_theta_min");
  EXPECT_EQ(grid_field(QGridOptions{no, no, 10, no, no, 1.5}), "two_theta_min");
  EXPECT_EQ(make_q_grid(QGridOptions{no, 2, 5, no, no, no}), uniform_q_grid(0, 2, 5));  // qmin defaults to 0
  EXPECT_EQ(make_q_grid(QGridOptions{no, no, 8, 10, 150, 1.5406}), two_theta_q_grid(10, 150, 8, 1.5406));
}

// Histogram kernel against brute-force binning of every pair (float64 both;
// 1e-12 relative covers summation order).
TEST(DebyePairHistogram, MatchesBruteForceBinning) {
  const AtomBlock a = test::random_ball(700, 9.0, {7.0, -3.0, 1.0}, 6, 0.3);
  const AtomBlock b = test::random_ball(300, 7.0, {7.0, -3.0, 1.0}, 7, 0.3);
  for (PairSet set : {PairSet::triangle, PairSet::rectangle}) {
    PairHistogram h;
    h.bin_width = 0.01;
    pair_histogram_cpu(a, b, set, h, 2);
    PairHistogram expect;
    expect.bin_width = 0.01;
    expect.resize_for(40.0);
    const AtomBlock& other = set == PairSet::triangle ? a : b;
    for (std::size_t i = 0; i < a.size(); ++i)
      for (std::size_t j = set == PairSet::triangle ? i + 1 : 0; j < other.size(); ++j) {
        const double r = std::hypot(a.x[i] - other.x[j], a.y[i] - other.y[j], a.z[i] - other.z[j]);
        const auto k = std::size_t(std::floor(r / 0.01));
        const double d = r - (k + 0.5) * 0.01;
        const double w = a.w[i] * other.w[j];
        expect.count[k] += w;
        expect.sum_d[k] += w * d;
        expect.sum_d2[k] += w * d * d;
      }
    ASSERT_LE(h.count.size(), expect.count.size());
    double total = 0;
    for (std::size_t k = 0; k < h.count.size(); ++k) {
      EXPECT_NEAR(h.count[k], expect.count[k], 1e-12 * (1 + expect.count[k])) << k;
      EXPECT_NEAR(h.sum_d[k], expect.sum_d[k], 1e-14 * (1 + expect.count[k])) << k;
      EXPECT_NEAR(h.sum_d2[k], expect.sum_d2[k], 1e-16 * (1 + expect.count[k])) << k;
      total += h.count[k];
      // Every δ lies in its bin: |Σwδ| ≤ Σw·Δr/2.
      EXPECT_LE(std::abs(h.sum_d[k]), 0.5 * 0.01 * h.count[k] * (1 + 1e-12));
    }
    double all = 0;
    for (std::size_t k = 0; k < expect.count.size(); ++k) all += expect.count[k];
    EXPECT_NEAR(total, all, 1e-12 * all);
  }
}

TEST(DebyePairHistogram, ResizeAddAndErrors) {
  PairHistogram h;
  h.bin_width = 0.5;
  h.resize_for(10.0);
  EXPECT_EQ(h.count.size(), 22u);  // bins 0..20 hold r ≤ 10, plus one for rounding
  PairHistogram g;
  g.bin_width = 0.5;
  g.resize_for(20.0);
  g.count[30] = 2;
  h.add(g);
  EXPECT_EQ(h.count.size(), g.count.size());
  EXPECT_EQ(h.count[30], 2);
  PairHistogram other;
  other.bin_width = 0.25;
  EXPECT_THROW(h.add(other), Error);
  PairHistogram bad;
  bad.bin_width = 0;
  try {
    bad.resize_for(1.0);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().field, "bin_width");
  }
  PairHistogram huge;
  huge.bin_width = 1e-9;
  EXPECT_THROW(huge.resize_for(300.0), Error);  // 3e11 bins
}

// One pair: Taylor-corrected sum against sinc(q r) with the remainder bound
// |error| ≤ w (qΔr)³/192 (histogram_intensity.hpp), the bin-centre rule
// against its bound w·qΔr/4; Q = 0 gives Σw exactly; both sides of the
// small-u series switch (u = 1e-2) agree with sinc to 1e-15.
TEST(DebyeHistogramSums, OnePairWithinTheTaylorBound) {
  const double width = 0.05, w = 0.7;
  for (double r : {0.004, 0.2, 1.2345, 3.98, 17.031}) {
    AtomBlock a;
    a.x = {0, r}, a.y = {0, 0}, a.z = {0, 0}, a.w = {1.0, w};
    PairHistogram h;
    h.bin_width = width;
    pair_histogram_cpu(a, a, PairSet::triangle, h, 1);
    const auto q = uniform_q_grid(0.0, 25.0, 251);
    std::vector<double> taylor(q.size(), 0.0), centre(q.size(), 0.0);
    histogram_sinc_sums(h, q, taylor, BinRule::taylor2, 1);
    histogram_sinc_sums(h, q, centre, BinRule::centre, 1);
    for (std::size_t k = 0; k < q.size(); ++k) {
      const double u = q[k] * r;
      const double exact = w * (u == 0 ? 1.0 : std::sin(u) / u);
      const double qd = q[k] * width;
      EXPECT_LE(std::abs(taylor[k] - exact), w * qd * qd * qd / 192 + 1e-15) << r << " " << q[k];
      EXPECT_LE(std::abs(centre[k] - exact), w * qd / 4 + 1e-15) << r << " " << q[k];
    }
    EXPECT_NEAR(taylor[0], w, 1e-15);
  }
  // Series branch: a pair exactly at a bin centre (δ = 0) is exact to rounding.
  AtomBlock a;
  a.x = {0, 0.125}, a.y = {0, 0}, a.z = {0, 0}, a.w = {1, 1};
  PairHistogram h;
  h.bin_width = 0.25;
  pair_histogram_cpu(a, a, PairSet::triangle, h, 1);
  const std::vector<double> q = {0.0799, 0.08, 0.0801, 1e-9};  // u = q·0.125 about 1e-2
  std::vector<double> out(q.size(), 0.0);
  histogram_sinc_sums(h, q, out);
  for (std::size_t k = 0; k < q.size(); ++k)
    EXPECT_NEAR(out[k], std::sin(q[k] * 0.125) / (q[k] * 0.125), 1e-15);
}
