// Fields in stratified media (Fresnel, Parratt, Névot–Croce) against closed
// forms: the Fresnel coefficient near and at the critical angle (mpmath),
// Airy's formula for one film on a substrate, flux conservation, continuity
// of the field and its derivative at every interface, and the Névot–Croce
// damping of a single rough interface.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "nanoscatter/constants.hpp"
#include "gisaxs/multilayer.hpp"
#include "test_gisaxs_support.hpp"

namespace nanoscatter::gisaxs {
namespace {

std::vector<Layer> substrate_only(double delta, double beta, double sigma = 0) {
  return {Layer{"vacuum", {"vacuum", 0, 0}, 0, 0}, Layer{"substrate", {"substrate", delta, beta}, 0, sigma}};
}

TEST(GisaxsMultilayer, FresnelAgainstMpmathAroundTheCriticalAngle) {
  // mpmath: r = (sin α − sqrt(n² − cos²α)) / (sin α + sqrt(n² − cos²α)) in 40
  // digits, δ = 6e-6, α = α_c/2, α_c, 2α_c, 0.2°.
  const auto lines = test::read_reference("fresnel");
  ASSERT_EQ(lines.size(), 8u);
  for (const auto& l : lines) {
    const double beta = l.values[0], alpha = l.values[1];
    const Complex ref(l.values[2], l.values[3]);
    const Multilayer m(substrate_only(6e-6, beta), 0.1);
    const Complex r = m.fields(alpha)[0].r;
    const double alpha_c = std::acos(1 - 6e-6);
    if (beta == 0 && std::abs(alpha - alpha_c) < 1e-12) {
      // At α_c itself (β = 0) k_z,1 = k sqrt(n² − cos²α) sits on its
      // square-root branch point: n² − cos²α is a difference of two numbers
      // ~1.2e-5 that vanishes, so its rounding (~3e-21) enters as a square
      // root; r − 1 ≈ −2 k_z,1/k_z,0 is then known to sqrt(3e-21)/3.5e-3 ≈ 2e-8.
      EXPECT_LT(std::abs(r - ref), 3e-8) << "alpha = alpha_c";
      EXPECT_NEAR(std::abs(r), 1.0, 1e-15);
    } else {
      // Elsewhere the same cancellation costs at most ~1e-12 (a relative
      // error 3e-21/|n² − cos²α| under the root).
      EXPECT_LT(std::abs(r - ref) / std::abs(ref), 1e-11) << "alpha = " << alpha << " beta = " << beta;
    }
    // The two-layer Parratt result is the Fresnel coefficient itself.
    EXPECT_LT(std::abs(r - fresnel_r(m.kz(0, alpha), m.kz(1, alpha))), 1e-15);
  }
}

TEST(GisaxsMultilayer, TotalReflectionBelowTheCriticalAngle) {
  // Without absorption |r| = 1 for every α ≤ α_c (k_z,1 is imaginary).
  const Multilayer m(substrate_only(6e-6, 0), 0.1);
  const double alpha_c = std::acos(1 - 6e-6);
  for (double f : {0.01, 0.2, 0.5, 0.9, 0.999}) EXPECT_NEAR(m.reflectivity(f * alpha_c), 1.0, 1e-14) << f;
  EXPECT_LT(m.reflectivity(1.01 * alpha_c), 0.9);
}

// A film (thickness d, absorbing) on a substrate.
std::vector<Layer> film_on_substrate(double d, double sigma_top = 0, double sigma_bottom = 0) {
  return {Layer{"vacuum", {"vacuum", 0, 0}, 0, 0}, Layer{"film", {"film", 1.5e-5, 3e-7}, d, sigma_top},
          Layer{"substrate", {"si", 7.6e-6, 1.7e-7}, 0, sigma_bottom}};
}

TEST(GisaxsMultilayer, SingleFilmMatchesAiryFormula) {
  // r = (r01 + r12 e^{2ik1 d}) / (1 + r01 r12 e^{2ik1 d}), the closed form for
  // one film (Born & Wolf §1.6.4), with k_j from the exact n².
  const double d = 25, wavelength = 0.154;
  const Multilayer m(film_on_substrate(d), wavelength);
  const double k = 2 * std::numbers::pi / wavelength;
  for (double deg = 0.02; deg < 2.0; deg += 0.0173) {
    const double a = deg * kDegree;
    auto kz = [&](double delta, double beta) {
      const Complex n(1 - delta, beta);
      return k * std::sqrt(n * n - std::cos(a) * std::cos(a));
    };
    // Written the textbook way, with n*n − cos²α; fine here away from the
    // critical angles (the engine uses (n² − 1) + sin²α).
    const Complex k0 = k * std::sin(a), k1 = kz(1.5e-5, 3e-7), k2 = kz(7.6e-6, 1.7e-7);
    const Complex r01 = (k0 - k1) / (k0 + k1), r12 = (k1 - k2) / (k1 + k2);
    const Complex e = std::exp(Complex(0, 2) * k1 * d);
    const Complex airy = (r01 + r12 * e) / (1.0 + r01 * r12 * e);
    // 1e-9: the textbook n² − cos²α loses ~log10(1/(n² − cos²α)) ≈ 5 digits
    // near the critical angles of the film and the substrate.
    EXPECT_LT(std::abs(m.fields(a)[0].r - airy) / std::abs(airy), 1e-9) << deg;
  }
}

TEST(GisaxsMultilayer, FieldsAreContinuousAtEveryInterface) {
  // Without roughness E and dE/dz are continuous: with amplitudes at each
  // layer's top, T_j e^{ik_j d_j} + R_j e^{−ik_j d_j} = T_{j+1} + R_{j+1} and
  // k_j (T_j e^{ik_j d_j} − R_j e^{−ik_j d_j}) = k_{j+1} (T_{j+1} − R_{j+1}).
  std::vector<Layer> stack{Layer{"vacuum", {"vacuum", 0, 0}, 0, 0}};
  for (int i = 0; i < 6; ++i)
    stack.push_back(Layer{"l", {"m", i % 2 ? 2e-5 : 5e-6, i % 2 ? 1e-6 : 1e-8}, 4.0 + i, 0});
  stack.push_back(Layer{"substrate", {"si", 7.6e-6, 1.7e-7}, 0, 0});
  const Multilayer m(stack, 0.1);
  for (double deg : {0.05, 0.15, 0.3, 1.0}) {
    const auto f = m.fields(deg * kDegree);
    for (std::size_t j = 0; j + 1 < f.size(); ++j) {
      const double d = stack[j].thickness;
      const Complex down = f[j].t * std::exp(Complex(0, 1) * f[j].kz * d);
      const Complex up = f[j].r * std::exp(Complex(0, -1) * f[j].kz * d);
      const double scale = std::abs(down) + std::abs(up);
      // 1e-13 relative to the local amplitudes: a few roundings per layer.
      EXPECT_LT(std::abs(down + up - (f[j + 1].t + f[j + 1].r)), 1e-13 * scale) << deg << " " << j;
      EXPECT_LT(std::abs(f[j].kz * (down - up) - f[j + 1].kz * (f[j + 1].t - f[j + 1].r)),
                1e-13 * scale * std::abs(f[j].kz))
          << deg << " " << j;
    }
    EXPECT_EQ(f.back().r, Complex(0));
    EXPECT_EQ(f.front().t, Complex(1));
  }
}

TEST(GisaxsMultilayer, FluxIsConservedWithoutAbsorption) {
  // Non-absorbing stack: |r|² + Re(k_z,N)/k_z,0 |t_N|² = 1.
  std::vector<Layer> stack{Layer{"vacuum", {"vacuum", 0, 0}, 0, 0}, Layer{"a", {"a", 2e-5, 0}, 7, 0},
                           Layer{"b", {"b", 4e-6, 0}, 11, 0}, Layer{"s", {"s", 7e-6, 0}, 0, 0}};
  const Multilayer m(stack, 0.1);
  for (double deg = 0.01; deg < 1.5; deg += 0.0371) {
    const auto f = m.fields(deg * kDegree);
    const double flux = std::norm(f[0].r) + f.back().kz.real() / f[0].kz.real() * std::norm(f.back().t);
    EXPECT_NEAR(flux, 1.0, 1e-13) << deg;
  }
}

TEST(GisaxsMultilayer, NevotCroceDampsASingleInterface) {
  // r_σ = r_0 exp(−2 k_z,0 k_z,1 σ²) (Névot & Croce 1980).
  const double sigma = 0.8;
  const Multilayer rough(substrate_only(7.6e-6, 1.7e-7, sigma), 0.154), sharp(substrate_only(7.6e-6, 1.7e-7), 0.154);
  for (double deg = 0.05; deg < 3; deg += 0.11) {
    const double a = deg * kDegree;
    const Complex expected =
        sharp.fields(a)[0].r * std::exp(-2.0 * sharp.kz(0, a) * sharp.kz(1, a) * sigma * sigma);
    EXPECT_LT(std::abs(rough.fields(a)[0].r - expected), 1e-14 * std::abs(expected) + 1e-17) << deg;
  }
}

TEST(GisaxsMultilayer, KzIsThePrincipalBranch) {
  // Re k_z ≥ 0 and Im k_z ≥ 0 in every layer and at every angle, so that
  // the transmitted waves decay downwards.
  const Multilayer m(film_on_substrate(20), 0.1);
  for (double deg = 0.001; deg < 5; deg *= 1.7)
    for (std::size_t j = 0; j < m.size(); ++j) {
      const Complex kz = m.kz(j, deg * kDegree);
      EXPECT_GE(kz.real(), 0);
      EXPECT_GE(kz.imag(), 0);
    }
}

}  // namespace
}  // namespace nanoscatter::gisaxs
