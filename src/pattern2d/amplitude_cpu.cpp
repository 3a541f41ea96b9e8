// Fast CPU pattern2d phase sums: OpenMP over blocks of pixels, SIMD over the
// kGroupSize atoms of a group, the group phase in float64 (phase_sums.hpp).
//
// Per pixel and group:
//   s_g = Σ_{j∈g} w_j exp(2πi ν_j),   ν_j = (q/2π)·d_j   (revolutions, float64)
//   S  += s_g · exp(i q·c_g)                             (float64)
// The per-atom phase ν_j is formed in float64 and reduced exactly to
// r = ν − round(ν) ∈ [−½, ½] (the difference of a float and its nearest
// integer is exact); r, rounded to T, goes to the polynomials of
// simd_trig.hpp on one octant (sin/cos(2π r)), which GCC vectorises, and the
// group sum s_g is formed in T. T = float: r is good to 3e-8 revolutions
// whatever |ν|. Forming ν itself in float32 (as before issue 20) lost
// ~6e-8·|ν| — |ν| = |q||d|/2π reaches ~30 revolutions at |q| = 25 Å⁻¹ and
// |d| ≈ 7 Å, ~1e-5 rad per atom, deterministic in the offsets and so
// partly coherent in crystals: 3.4e-5 relative error in I where
// I > 1e-3 max I on drawn cases (tests/physics/test_pattern2d_property.cpp),
// against 3e-6 now, for ~15 % more time per atom·pixel. T = double does
// every step in float64.
//
// Measured speed (bench/pattern2d_bench.cpp):
// bench/results/2026-11-25-pattern2d-throughput-notes.md.
//
// Cache blocking: a chunk of groups (kGroupChunk·kGroupSize atoms, ≤ 64 KiB
// of offsets and weights) is swept by all pixels of a block before the next
// chunk, so the atoms come from L1/L2 while the block's pixels stay in
// registers and a small accumulator array.
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/simd_trig.hpp"
#include "nanoscatter/error.hpp"
#include "pattern2d/phase_sums.hpp"

namespace nanoscatter::pattern2d {

namespace {



// Pixels per OpenMP work item: enough to amortise each atom chunk's trip
// through the cache, few enough that 100+ threads balance on small images.
constexpr std::size_t kPixelBlock = 16;
// Groups per cache chunk: 64 × 32 atoms × 4 arrays × ≤ 8 bytes = 64 KiB.
constexpr std::size_t kGroupChunk = 64;

// Round to the nearest integer by the 1.5·2^(mantissa bits) trick: exact for
// |x| < 2^22 (float) or 2^51 (double), and vectorisable without SSE4.1's
// round instructions (the portable x86-64 baseline this project builds for).
template <class T>
constexpr T kRoundMagic = sizeof(T) == 4 ? T(12582912.0f) : T(6755399441055744.0);

template <class T>
inline T round_nearest(T x) {
  const T shifted = x + kRoundMagic<T>;
  return shifted - kRoundMagic<T>;
}

// exp(2πi r) for r ∈ [−½, ½] (revolutions): quadrant k = round(4r), then
// the Cephes polynomials of simd_trig.hpp on 2π(r − k/4) ∈ [−π/4, π/4]
// (r − k/4 is exact), swapped and signed by k mod 4 as trig::sincos does.
// Cheaper than trig::sincos(2πr), whose Cody–Waite reduction by π/2 is
// not needed once the argument is known to be small and in revolutions.
template <class T>
inline void sincos_turns(T r, T& s, T& c) {
  using Tr = trig::Traits<T>;
  using Bits = typename Tr::Bits;
  constexpr T two_pi = T(2 * std::numbers::pi);
  const T shifted = T(4) * r + kRoundMagic<T>;
  const Bits quadrant = std::bit_cast<Bits>(shifted);  // k in the low bits (two's complement)
  const T k = shifted - kRoundMagic<T>;
  const T x = two_pi * (r - T(0.25) * k);
  const Bits ps = std::bit_cast<Bits>(Tr::sin_poly(x));
  const Bits pc = std::bit_cast<Bits>(Tr::cos_poly(x));
  // Quadrant k: sin = (s, c, −s, −c)[k], cos = (c, −s, −c, s)[k].
  const Bits odd = Bits(0) - (quadrant & 1);
  const Bits sin_sign = (quadrant & 2) << Tr::sign_shift;
  const Bits cos_sign = ((quadrant + 1) & 2) << Tr::sign_shift;
  s = std::bit_cast<T>(((ps & ~odd) | (pc & odd)) ^ sin_sign);
  c = std::bit_cast<T>(((pc & ~odd) | (ps & odd)) ^ cos_sign);
}

// One species' groups (offsets in float64) and weights in the working type.
template <class T>
struct TypedGroups {
  explicit TypedGroups(const AtomGroups& g) : groups(g), w(g.w.begin(), g.w.end()) {}
  const AtomGroups& groups;
  std::vector<T> w;
};

// Σ w_j exp(2πi ν_j) over the kGroupSize atoms starting at `first`, for a
// pixel whose scattering vector is (ux, uy, uz) = q/2π (float64): the phase
// in float64, the sincos and the sum in type T.
template <class T>
inline void group_sum(const TypedGroups<T>& g, std::size_t first, double ux, double uy, double uz, T& re, T& im) {
  const double* dx = g.groups.dx.data() + first;
  const double* dy = g.groups.dy.data() + first;
  const double* dz = g.groups.dz.data() + first;
  const T* w = g.w.data() + first;
  T sum_re = 0, sum_im = 0;
#pragma omp simd reduction(+ : sum_re, sum_im)
  for (std::size_t t = 0; t < kGroupSize; ++t) {
    const double nu = ux * dx[t] + uy * dy[t] + uz * dz[t];
    T s, c;
    sincos_turns(T(nu - round_nearest(nu)), s, c);
    sum_re += w[t] * c;
    sum_im += w[t] * s;
  }
  re = sum_re;
  im = sum_im;
}

template <class T>
void run(std::span<const AtomGroups> species, std::span<const Vec3> q, std::span<std::complex<double>> out,
         int threads) {
  const std::size_t np = q.size();
  std::vector<TypedGroups<T>> typed;
  typed.reserve(species.size());
  for (const auto& g : species) typed.emplace_back(g);
  const std::size_t blocks = (np + kPixelBlock - 1) / kPixelBlock;
  const int nthreads = std::max(1, std::min<int>(threads > 0 ? threads : omp_get_max_threads(), int(blocks)));
  constexpr double inv_two_pi = 0.5 * std::numbers::inv_pi;

#pragma omp parallel for num_threads(nthreads) schedule(dynamic, 1)
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t p0 = b * kPixelBlock, pn = std::min(np, p0 + kPixelBlock) - p0;
    for (std::size_t s = 0; s < typed.size(); ++s) {
      const TypedGroups<T>& tg = typed[s];
      const AtomGroups& g = tg.groups;
      double acc_re[kPixelBlock] = {}, acc_im[kPixelBlock] = {};
      for (std::size_t c0 = 0; c0 < g.groups(); c0 += kGroupChunk) {
        const std::size_t c1 = std::min(g.groups(), c0 + kGroupChunk);
        for (std::size_t i = 0; i < pn; ++i) {
          const Vec3& qp = q[p0 + i];
          const double ux = qp.x * inv_two_pi, uy = qp.y * inv_two_pi, uz = qp.z * inv_two_pi;
          const std::size_t ng = c1 - c0;
          // exp(i q·c_g) in float64, vectorised over the chunk's groups; the
          // polynomial sincos reduces |x| up to ~1.6e6 rad exactly
          // (simd_trig.hpp), far beyond q·c.
          alignas(64) double centre_cos[kGroupChunk], centre_sin[kGroupChunk];
          const double* cx = g.cx.data() + c0;
          const double* cy = g.cy.data() + c0;
          const double* cz = g.cz.data() + c0;
#pragma omp simd
          for (std::size_t gi = 0; gi < ng; ++gi)
            trig::sincos(qp.x * cx[gi] + qp.y * cy[gi] + qp.z * cz[gi], centre_sin[gi], centre_cos[gi]);
          double sr = 0, si = 0;
          for (std::size_t gi = 0; gi < ng; ++gi) {
            T re, im;
            group_sum(tg, (c0 + gi) * kGroupSize, ux, uy, uz, re, im);
            sr += double(re) * centre_cos[gi] - double(im) * centre_sin[gi];
            si += double(re) * centre_sin[gi] + double(im) * centre_cos[gi];
          }
          acc_re[i] += sr;
          acc_im[i] += si;
        }
      }
      for (std::size_t i = 0; i < pn; ++i) out[s * np + p0 + i] += std::complex<double>(acc_re[i], acc_im[i]);
    }
  }
}

}  // namespace

void phase_sums_cpu(std::span<const AtomGroups> species, std::span<const Vec3> q,
                    std::span<std::complex<double>> out, Precision precision, int threads) {
  if (out.size() != species.size() * q.size())
    fail("phase_sums_cpu: out has ", out.size(), " entries for ", species.size(), " species × ", q.size(),
         " pixels");
  for (const auto& g : species)
    if (g.dx.size() != g.groups() * kGroupSize || g.w.size() != g.dx.size())
      fail("phase_sums_cpu: atom groups are not padded to whole groups");
  if (q.empty() || species.empty()) return;
  if (precision == Precision::float32)
    run<float>(species, q, out, threads);
  else
    run<double>(species, q, out, threads);
}

}  // namespace nanoscatter::pattern2d
