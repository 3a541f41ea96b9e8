// DDA kernels: polarizability closed forms, the Green tensor, and the FFT
// matrix–vector product against the brute-force O(N²) double sum.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "dda/backends.hpp"
#include "dda/matvec_cpu.hpp"
#include "dda/observables.hpp"
#include "dda/physics.hpp"

using namespace nanoscatter;
using namespace nanoscatter::dda;

namespace {
constexpr double kPi = 3.14159265358979323846;
}

TEST(DdaKernels, SmoothFftSizes) {
  EXPECT_EQ(smooth_fft_size(64), 64);
  EXPECT_EQ(smooth_fft_size(22), 24);    // 22 = 2·11 is not 7-smooth
  EXPECT_EQ(smooth_fft_size(500), 500);  // 2²·5³
  EXPECT_EQ(smooth_fft_size(502), 504);  // 2³·3²·7
  EXPECT_EQ(smooth_fft_size(3), 4);      // even
}

// Clausius–Mossotti exactly; RR and LDR satisfy the optical theorem for a
// non-absorbing m: Im(1/α) = −(2/3)k³ (Draine & Goodman 1993), to rounding.
TEST(DdaKernels, Polarizability) {
  const double k = 1.3, d = 0.2;
  const cplx m(1.5, 0), m2 = m * m;
  const cplx cm = 3 * d * d * d / (4 * kPi) * (m2 - 1.0) / (m2 + 2.0);
  EXPECT_NEAR(std::abs(polarizability(DdaPolarizability::cm, m, k, d, 0) - cm), 0, 1e-17);
  for (auto p : {DdaPolarizability::rr, DdaPolarizability::ldr}) {
    const cplx a = polarizability(p, m, k, d, 0);
    EXPECT_NEAR((1.0 / a).imag(), -2.0 / 3 * k * k * k, 1e-12 * k * k * k);
  }
  // LDR → CM as kd → 0 (correction O((kd)²))
  const cplx ldr = polarizability(DdaPolarizability::ldr, m, 1e-4, d, 0);
  EXPECT_NEAR(std::abs(ldr / cm - 1.0), 0, 1e-8);
  // m = 1 does not polarise
  EXPECT_EQ(polarizability(DdaPolarizability::ldr, 1.0, k, d, 0), cplx(0));
}

// Static limit (k → 0): G = (3 r̂r̂ − I)/r³; and the tensor is symmetric under r → −r.
TEST(DdaKernels, GreenTensor) {
  const auto g = green_tensor(1e-9, 0, 0, 2);
  EXPECT_NEAR(g[5].real(), 2.0 / 8, 1e-12);
  EXPECT_NEAR(g[0].real(), -1.0 / 8, 1e-12);
  EXPECT_NEAR(std::abs(g[1]), 0, 1e-15);
  const auto a = green_tensor(1.7, 0.3, -0.4, 1.1), b = green_tensor(1.7, -0.3, 0.4, -1.1);
  for (int c = 0; c < 6; ++c) EXPECT_NEAR(std::abs(a[c] - b[c]), 0, 1e-14 * std::abs(a[c]) + 1e-16);
}

namespace {

struct Problem {
  MatrixSpec spec;
  InteractionFft interaction;
  std::vector<cplx> x;
};

// A random dipole set in a non-cubic box with random S and x.
Problem random_problem(std::array<int, 3> box, double fill, std::uint64_t seed) {
  Problem p;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1), v(-1, 1);
  for (int k = 0; k < box[2]; ++k)
    for (int j = 0; j < box[1]; ++j)
      for (int i = 0; i < box[0]; ++i)
        if (u(rng) < fill) {
          p.spec.position.push_back({static_cast<std::uint16_t>(i), static_cast<std::uint16_t>(j),
                                     static_cast<std::uint16_t>(k)});
          p.spec.s.push_back(cplx(v(rng), v(rng)) * 0.3);
        }
  p.spec.box = box;
  p.spec.grid = fft_grid_for(box);
  p.spec.k = 1.1;
  p.spec.d = 0.37;
  p.interaction = interaction_fft(box, p.spec.grid, p.spec.k, p.spec.d, 0);
  p.spec.interaction = &p.interaction;
  for (std::size_t i = 0; i < 3 * p.spec.position.size(); ++i) p.x.push_back(cplx(v(rng), v(rng)));
  return p;
}

// out_i = x_i − s_i Σ_{j≠i} G(r_i − r_j) s_j x_j, in double.
std::vector<cplx> direct_product(const Problem& p, bool hermitian) {
  const auto& pos = p.spec.position;
  const std::size_t n = pos.size();
  std::vector<cplx> x = p.x;
  if (hermitian)
    for (auto& v : x) v = std::conj(v);
  std::vector<cplx> out(3 * n);
  for (std::size_t i = 0; i < n; ++i) {
    cplx acc[3] = {0, 0, 0};
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const auto g = green_tensor(p.spec.k, (pos[i][0] - pos[j][0]) * p.spec.d, (pos[i][1] - pos[j][1]) * p.spec.d,
                                  (pos[i][2] - pos[j][2]) * p.spec.d);
      const cplx sx[3] = {p.spec.s[j] * x[3 * j], p.spec.s[j] * x[3 * j + 1], p.spec.s[j] * x[3 * j + 2]};
      acc[0] += g[0] * sx[0] + g[1] * sx[1] + g[2] * sx[2];
      acc[1] += g[1] * sx[0] + g[3] * sx[1] + g[4] * sx[2];
      acc[2] += g[2] * sx[0] + g[4] * sx[1] + g[5] * sx[2];
    }
    for (int c = 0; c < 3; ++c) {
      const cplx r = x[3 * i + c] - p.spec.s[i] * acc[c];
      out[3 * i + c] = hermitian ? std::conj(r) : r;
    }
  }
  return out;
}

double rel_error(const std::vector<cplx>& a, const std::vector<cplx>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += std::norm(a[i] - b[i]);
    den += std::norm(b[i]);
  }
  return std::sqrt(num / den);
}

}  // namespace

// The FFT convolution equals the direct sum: double to ~1e-13 (FFT rounding
// over a 16×12×10 grid), float FFTs (the single-precision product, double
// vectors) to ~1e-6.
TEST(DdaKernels, FftMatvecEqualsDirectSum) {
  const Problem p = random_problem({8, 6, 5}, 0.6, 11);
  for (bool herm : {false, true}) {
    const auto ref = direct_product(p, herm);
    CpuMatvec<double> md(p.spec);
    std::vector<cplx> out(p.x.size());
    md.apply(p.x.data(), out.data(), herm);
    EXPECT_LT(rel_error(out, ref), 1e-13) << "hermitian " << herm;
    CpuMatvec<float> mf(p.spec);
    std::vector<cplx> of(p.x.size());
    mf.apply(p.x.data(), of.data(), herm);
    EXPECT_LT(rel_error(of, ref), 3e-6) << "hermitian " << herm;
  }
}

// Odd box sizes and a single row exercise the y/z reflections of the reduced
// interaction storage.
TEST(DdaKernels, FftMatvecOddBoxes) {
  for (auto box : {std::array<int, 3>{3, 5, 7}, std::array<int, 3>{7, 1, 2}, std::array<int, 3>{1, 1, 4}}) {
    const Problem p = random_problem(box, 0.8, 5);
    if (p.spec.position.size() < 2) continue;
    CpuMatvec<double> md(p.spec);
    std::vector<cplx> out(p.x.size());
    md.apply(p.x.data(), out.data(), false);
    EXPECT_LT(rel_error(out, direct_product(p, false)), 1e-13);
  }
}

// Backend vector operations against plain loops (double storage: exact to rounding).
TEST(DdaKernels, CpuBackendVectorOps) {
  const Problem p = random_problem({4, 4, 4}, 0.5, 3);
  auto be = make_cpu_backend(p.spec, Precision::dual);
  const int a = be->create(), b = be->create(), c = be->create();
  std::vector<cplx> va = p.x, vb(p.x.rbegin(), p.x.rend());
  be->upload(a, va);
  be->upload(b, vb);
  cplx du = 0, dc = 0;
  double n2 = 0;
  for (std::size_t i = 0; i < va.size(); ++i) {
    du += va[i] * vb[i];
    dc += std::conj(va[i]) * vb[i];
    n2 += std::norm(va[i]);
  }
  EXPECT_NEAR(std::abs(be->dot_u(a, b) - du), 0, 1e-12 * std::abs(du));
  EXPECT_NEAR(std::abs(be->dot_c(a, b) - dc), 0, 1e-12 * std::abs(dc));
  EXPECT_NEAR(be->norm2(a), n2, 1e-12 * n2);
  double nc = 0;
  be->lincomb(c, cplx(2, 1), a, cplx(0, -1), b, cplx(0.5), a, &nc);
  const auto vc = be->download(c);
  double ref = 0;
  for (std::size_t i = 0; i < va.size(); ++i) {
    const cplx e = cplx(2, 1) * va[i] + cplx(0, -1) * vb[i] + 0.5 * va[i];
    EXPECT_NEAR(std::abs(vc[i] - e), 0, 1e-14);
    ref += std::norm(e);
  }
  EXPECT_NEAR(nc, ref, 1e-12 * ref);
}

// Mueller matrix of the identity amplitude (S1 = S2 = 1, S3 = S4 = 0):
// diag(1, 1, 1, 1) (B&H eq. 3.16).
TEST(DdaKernels, MuellerFromAmplitudes) {
  const auto m = mueller_from_amplitudes(1.0, 1.0, 0.0, 0.0);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_NEAR(m[4 * i + j], i == j ? 1.0 : 0.0, 1e-15);
  std::vector<double> x, w;
  gauss_legendre(5, x, w);
  double s = 0, s4 = 0;
  for (int i = 0; i < 5; ++i) {
    s += w[i];
    s4 += w[i] * std::pow(x[i], 8);
  }
  EXPECT_NEAR(s, 2, 1e-14);
  EXPECT_NEAR(s4, 2.0 / 9, 1e-14);  // exact to degree 9
}
