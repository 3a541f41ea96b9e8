// Host emulation of the CUDA float32 pattern2d kernel's arithmetic
// (src/pattern2d/amplitude_cuda.cu, phase_sum_kernel<float>), so that its
// rounding can be studied and regression-tested without a GPU.
//
// Emulated exactly (IEEE float32 / float64 with the kernel's FMAs): the
// per-atom fixed-point phase (phase_sincos_float), the float32 group sums
// (fmaf), the float64 group phase and its Cody–Waite reduction, and — in the
// kernel before this file (Rotation::float32_tile) — the float32 rotation of
// each group sum by exp(i q·c_g) and the float32 sum over a tile of
// kTileGroups groups. Not emulated bit for bit: the special-function unit
// (__sincosf); it is modelled as the documented FMUL.RZ by float(1/2π)
// followed by a correctly rounded sin/cos of 2π times that product, which
// leaves out MUFU.SIN's own ~2^-22 absolute table error.
#pragma once
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <numbers>
#include <span>
#include <vector>

#include "pattern2d/phase_sums.hpp"

namespace nanoscatter::pattern2d_test {

enum class Rotation {
  float32_tile,  // before: rotation and tile sum in float32 (__sincosf of the reduced group phase)
  float64,       // now: float32 group sum, rotated and accumulated in float64 (sincospi of the reduced phase)
};

namespace emulation {

// float x·y rounded toward zero (the product of two floats is exact in double).
inline float mul_rz(float x, float y) {
  const double p = double(x) * double(y);
  float f = float(p);  // nearest
  if (std::abs(double(f)) > std::abs(p)) f = std::nextafter(f, 0.0f);
  return f;
}

// __sincosf modelled: FMUL.RZ by float(1/2π), then sin/cos of 2π·t rounded to float.
inline void sincosf_fast(float x, float& s, float& c) {
  const float t = mul_rz(x, 0.15915493667125701904f);
  const double a = 2 * std::numbers::pi * double(t);
  s = float(std::sin(a));
  c = float(std::cos(a));
}

// phase_sincos_float of amplitude_cuda.cu.
// NS_EMU_ATOM selects the per-atom model for investigations: 0 the kernel
// (default), 1 exact sin/cos of the 2^-23-turn quantised phase, 2 of the
// unquantised phase, 3 float r through the modelled __sincosf, 4 see kScale.
inline int& atom_model() { static int m = std::getenv("NS_EMU_ATOM") ? std::atoi(std::getenv("NS_EMU_ATOM")) : 0; return m; }
inline void phase_sincos_float(const double (&u)[3], double ax, double ay, double az, float& s, float& c) {
  constexpr double kFixedMagic = 1572864.0;  // 1.5·2^20
  const double t = std::fma(u[0], ax, std::fma(u[1], ay, std::fma(u[2], az, kFixedMagic)));
  const auto fixed = std::uint32_t(std::bit_cast<std::uint64_t>(t));
  const int n = std::int32_t(fixed + 256u) >> 9;
  const float turns23 = std::bit_cast<float>(0x4B400000 + n) - 12582912.0f;
  // Model 4: kScale one float up, which offsets the modelled FMUL.RZ bias
  // (mean phase scale −5.5e-8 → +2e-8); not applied in the kernel (the
  // FMUL.RZ model is unverified on hardware).
  const float kScale = atom_model() == 4 ? std::nextafter(6.28318530717958647692f / 8388608.0f, 1.0f)
                                          : 6.28318530717958647692f / 8388608.0f;
  if (atom_model() == 1) {  // exact angle of the quantised phase, correctly rounded sin/cos
    const double a = 2 * std::numbers::pi * double(n) / 8388608.0;
    s = float(std::sin(a)), c = float(std::cos(a));
    return;
  }
  if (atom_model() == 2) {  // unquantised r, correctly rounded
    const double r = double(std::int32_t(fixed)) / 4294967296.0;
    s = float(std::sin(2 * std::numbers::pi * r)), c = float(std::cos(2 * std::numbers::pi * r));
    return;
  }
  if (atom_model() == 3) {  // float r (full relative precision) through the modelled __sincosf
    const float r = float(double(std::int32_t(fixed)) / 4294967296.0);
    sincosf_fast(r * 6.28318530717958647692f, s, c);
    return;
  }
  sincosf_fast(turns23 * kScale, s, c);
}

}  // namespace emulation

// out[s·P + p] += S_s(q_p) as the CUDA float32 kernel forms it.
inline void emulate_cuda_float32_phase_sums(std::span<const pattern2d::AtomGroups> species,
                                            std::span<const Vec3> q, std::span<std::complex<double>> out,
                                            Rotation rotation) {
  constexpr int kGroup = int(pattern2d::kGroupSize);
  constexpr int kTileGroups = 8;
  constexpr double kTwoPiHi = 6.28318530717958623200e+00;
  constexpr double kTwoPiLo = 2.44929359829470635445e-16;
  constexpr double kInvTwoPi = 0.5 * std::numbers::inv_pi;
  const std::size_t np = q.size();
#pragma omp parallel for schedule(dynamic, 16)
  for (std::size_t p = 0; p < np; ++p) {
    const double qd[3] = {q[p].x, q[p].y, q[p].z};
    const double u[3] = {qd[0] * kInvTwoPi, qd[1] * kInvTwoPi, qd[2] * kInvTwoPi};
    for (std::size_t s = 0; s < species.size(); ++s) {
      const auto& g = species[s];
      const int ng = int(g.groups());
      double acc_re = 0, acc_im = 0;
      for (int g0 = 0; g0 < ng; g0 += kTileGroups) {
        float tile_re = 0, tile_im = 0;
        for (int gi = g0; gi < std::min(ng, g0 + kTileGroups); ++gi) {
          float sum_re = 0, sum_im = 0;
          for (int t = 0; t < kGroup; ++t) {
            const std::size_t j = std::size_t(gi) * kGroup + std::size_t(t);
            float sn, cs;
            emulation::phase_sincos_float(u, g.dx[j], g.dy[j], g.dz[j], sn, cs);
            const float w = float(g.w[j]);
            sum_re = std::fmaf(w, cs, sum_re);
            sum_im = std::fmaf(w, sn, sum_im);
          }
          if (rotation == Rotation::float32_tile) {
            const double x = std::fma(qd[0], g.cx[gi], std::fma(qd[1], g.cy[gi], qd[2] * g.cz[gi]));
            const double n = std::rint(x * kInvTwoPi);
            double r = std::fma(-n, kTwoPiHi, x);
            r = std::fma(-n, kTwoPiLo, r);
            float sn, cs;
            emulation::sincosf_fast(float(r), sn, cs);
            tile_re += std::fmaf(sum_re, cs, -(sum_im * sn));
            tile_im += std::fmaf(sum_re, sn, sum_im * cs);
          } else {
            const double t = std::fma(u[0], g.cx[gi], std::fma(u[1], g.cy[gi], u[2] * g.cz[gi]));
            const double r = t - std::rint(t);
            const double sn = std::sin(2 * std::numbers::pi * r), cs = std::cos(2 * std::numbers::pi * r);
            acc_re += double(sum_re) * cs - double(sum_im) * sn;
            acc_im += double(sum_re) * sn + double(sum_im) * cs;
          }
        }
        acc_re += double(tile_re);
        acc_im += double(tile_im);
      }
      out[s * np + p] += std::complex<double>(acc_re, acc_im);
    }
  }
}

}  // namespace nanoscatter::pattern2d_test
