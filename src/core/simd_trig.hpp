// Vectorisable sin/cos for the CPU kernels (Debye, pattern2d, GISAXS mesh
// form factors): Cody–Waite range reduction by π/2 and the Cephes minimax
// polynomials on [−π/4, π/4]. Written with plain
// arithmetic and integer bit operations only, so that GCC vectorises loops
// calling them under `#pragma omp simd` without libmvec (glibc's vector sin is
// only reachable with -ffast-math, which this project does not enable).
//
// Accuracy (checked in tests/unit/test_debye_trig.cpp against std::sin/cos):
// double: absolute error ≤ 2e-16·(1 + |x|/1e3) for |x| ≤ 1e4;
// float:  absolute error ≤ 2.5e-7 for the reduced argument; the reduction is
// exact while the quadrant index k = round(2x/π) fits the split constants
// (|k| < 2^20 in double, |k| < 2^13 in float, i.e. |x| ≲ 1.2e4 rad), far
// above Debye phases Q·r ≤ ~12 Å⁻¹ · 500 Å.
#pragma once
#include <bit>
#include <cstdint>

namespace nanoscatter::trig {

template <class T>
struct Traits;

template <>
struct Traits<double> {
  using Bits = std::uint64_t;
  static constexpr double two_over_pi = 0.63661977236758134308;
  // π/2 = p1 + p2 + p3; p1 and p2 carry 33 significant bits (fdlibm's
  // pio2_1, pio2_2), so k·p1 and k·p2 are exact for |k| < 2^20.
  static constexpr double p1 = 1.57079632673412561417e+00;
  static constexpr double p2 = 6.07710050630396597660e-11;
  static constexpr double p3 = 2.02226624879595063154e-21;
  // 1.5·2^52: x + magic rounds x to an integer and leaves that integer
  // (two's complement, modulo 2^51) in the low mantissa bits.
  static constexpr double round_magic = 6755399441055744.0;
  static constexpr int sign_shift = 62;  // quadrant bit 1 → sign bit 63

  // Cephes sin.c coefficients (S. Moshier), |x| ≤ π/4.
  static double sin_poly(double x) {
    const double z = x * x;
    const double p = (((((1.58962301576546568060e-10 * z - 2.50507477628578072866e-8) * z +
                         2.75573136213857245213e-6) * z - 1.98412698295895385996e-4) * z +
                       8.33333333332211858878e-3) * z - 1.66666666666666307295e-1);
    return x + x * z * p;
  }
  static double cos_poly(double x) {
    const double z = x * x;
    const double p = (((((-1.13585365213876817300e-11 * z + 2.08757008419747316778e-9) * z -
                          2.75573141792967388112e-7) * z + 2.48015872888517045348e-5) * z -
                        1.38888888888730564116e-3) * z + 4.16666666666665929218e-2);
    return 1.0 - 0.5 * z + z * z * p;
  }
};

template <>
struct Traits<float> {
  using Bits = std::uint32_t;
  static constexpr float two_over_pi = 0.636619772f;
  // Cephes sinf.c's π/4 split, doubled: p1 has 8 significant bits and p2
  // 12, so k·p1, k·p2 are exact for |k| < 2^13.
  static constexpr float p1 = 1.5703125f;
  static constexpr float p2 = 4.837512969970703125e-4f;
  static constexpr float p3 = 7.54978995489188216e-8f;
  static constexpr float round_magic = 12582912.0f;  // 1.5·2^23
  static constexpr int sign_shift = 30;              // quadrant bit 1 → sign bit 31

  // Cephes sinf.c coefficients, |x| ≤ π/4.
  static float sin_poly(float x) {
    const float z = x * x;
    return x + x * z * ((-1.9515295891e-4f * z + 8.3321608736e-3f) * z - 1.6666654611e-1f);
  }
  static float cos_poly(float x) {
    const float z = x * x;
    return 1.0f - 0.5f * z +
           z * z * ((2.443315711809948e-5f * z - 1.388731625493765e-3f) * z + 4.166664568298827e-2f);
  }
};

// sin(x) and cos(x) together. Branch-free: the quadrant selects between the
// two polynomials with bit masks, so the function vectorises.
template <class T>
inline void sincos(T x, T& s, T& c) {
  using Tr = Traits<T>;
  using Bits = typename Tr::Bits;
  const T shifted = x * Tr::two_over_pi + Tr::round_magic;
  const Bits quadrant = std::bit_cast<Bits>(shifted);
  const T k = shifted - Tr::round_magic;
  const T reduced = ((x - k * Tr::p1) - k * Tr::p2) - k * Tr::p3;
  const Bits ps = std::bit_cast<Bits>(Tr::sin_poly(reduced));
  const Bits pc = std::bit_cast<Bits>(Tr::cos_poly(reduced));
  // Quadrant q: sin x = (s, c, −s, −c)[q], cos x = (c, −s, −c, s)[q].
  const Bits odd = Bits(0) - (quadrant & 1);  // all ones in quadrants 1 and 3
  const Bits sin_sign = (quadrant & 2) << Tr::sign_shift;
  const Bits cos_sign = ((quadrant + 1) & 2) << Tr::sign_shift;
  s = std::bit_cast<T>(((ps & ~odd) | (pc & odd)) ^ sin_sign);
  c = std::bit_cast<T>(((pc & ~odd) | (ps & odd)) ^ cos_sign);
}

// sin and cos in float32 of a float64 argument: the reduction by π/2 runs in
// float64 (so a large phase q·r loses nothing to float32 rounding), the
// polynomials in float32 on the reduced argument |y| ≤ π/4. Absolute error
// ≈ 1 float32 ulp of 1 (~1e-7) for |x| < 2^20·π/2.
inline void sincos_reduced_float(double x, float& s, float& c) {
  using Tr = Traits<double>;
  const double shifted = x * Tr::two_over_pi + Tr::round_magic;
  const std::uint32_t quadrant = std::uint32_t(std::bit_cast<std::uint64_t>(shifted));
  const double k = shifted - Tr::round_magic;
  const float reduced = float(((x - k * Tr::p1) - k * Tr::p2) - k * Tr::p3);
  const std::uint32_t ps = std::bit_cast<std::uint32_t>(Traits<float>::sin_poly(reduced));
  const std::uint32_t pc = std::bit_cast<std::uint32_t>(Traits<float>::cos_poly(reduced));
  const std::uint32_t odd = 0u - (quadrant & 1u);
  const std::uint32_t sin_sign = (quadrant & 2u) << 30;
  const std::uint32_t cos_sign = ((quadrant + 1u) & 2u) << 30;
  s = std::bit_cast<float>(((ps & ~odd) | (pc & odd)) ^ sin_sign);
  c = std::bit_cast<float>(((pc & ~odd) | (ps & odd)) ^ cos_sign);
}

template <class T>
inline T sin(T x) {
  T s, c;
  sincos(x, s, c);
  return s;
}

}  // namespace nanoscatter::trig
