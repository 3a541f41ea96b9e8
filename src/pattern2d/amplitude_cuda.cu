// CUDA path of the pattern2d phase sums (phase_sums.hpp):
//   out[s·P + p] += Σ_{j∈s} w_j exp(i q_p·r_j).
//
// Layout: each thread owns kPixelsPerThread pixels (their q in registers);
// a block of kThreads threads stages tiles of kTileGroups atom groups
// (kTileGroups·kGroupSize atoms plus the group centres) in shared memory and
// every thread sweeps them; blockIdx.y splits the atom groups so that small
// detectors still fill the GPU, and the splits meet in the output through
// float64 atomics.
//
// Phases (see phase_sums.hpp): per atom ν = (q/2π)·d_j in revolutions,
// formed in float64 (both kernels) and reduced exactly to ν − round(ν) ∈
// [−½, ½] (the float32 kernel by a fixed-point trick, phase_sincos_float),
// then sin and cos on the special-function unit (__sincosf, absolute error
// ~4e-7 on [−π, π]) or sincospi in float64; per
// group the large phase q·c_g is formed and reduced by 2π in float64
// (Cody–Waite with a two-term 2π, as sin_reduced in
// src/debye/pair_sums_cuda.cu does in float32). Precision: float32 sums over
// one group; the float32 kernel rotates each by exp(2πi u·c_g) (u·c_g in
// float64, reduced exactly, sincospi) and accumulates in float64 — one
// float64 sincospi and ~8 DFMAs per group and pixel, ~0.3 DFMA-equivalents
// per atom·pixel beside the 3 DFMAs and 2 MUFU ops per atom·pixel. Before,
// the rotation used __sincosf and the tile of
// kTileGroups groups was summed in float32: 2e-5–1.4e-4 relative on drawn
// flat detectors (issue 20). The float64 kernel runs the same steps with
// sincos and float64 throughout.
//
// Speed: the float32 kernel is bounded by the two special-function
// operations (sin, cos) per atom·pixel at 16 per clock and SM; measured
// throughput: bench/results/2026-11-25-pattern2d-throughput-notes.md and
// the GPU suite's records.
//
// Memory: atoms stay resident when they fit in half the budget (otherwise
// they are streamed in chunks of groups); pixels go in chunks sized from the
// rest, so any atom count and any detector size run within
// device_memory_budget.
#include <algorithm>
#include <climits>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/device_buffer.cuh"
#include "pattern2d/phase_sums.hpp"

namespace nanoscatter::pattern2d {
namespace {

constexpr int kThreads = 128;         // threads per block
constexpr int kPixelsPerThread = 2;   // pixels per thread: each staged atom load serves two pixels
constexpr int kPixelsPerBlock = kThreads * kPixelsPerThread;
constexpr int kGroup = int(kGroupSize);
constexpr int kTileGroups = 8;        // groups per shared-memory tile: 256 atoms, 2 loads per thread
constexpr int kTileAtoms = kTileGroups * kGroup;
// Blocks per SM to aim for when choosing the atom split: a few waves of the
// ~8 resident blocks an SM holds, so that the tail of the last wave is short.
constexpr int kTargetBlocksPerSm = 32;
// Pixels per launch at most (keeps grid.x and the int pixel index small).
constexpr std::size_t kMaxPixelsPerLaunch = std::size_t(1) << 24;

// 2π as a float64 head and tail. With fused multiply–adds x − n·head is
// rounded once (it is small, so the rounding is ~1e-16), and n·tail restores
// the digits of 2π beyond float64: the reduced phase is good to ~1e-15 rad
// plus |n|·1e-32 for any group phase q·c a structure can have.
constexpr double kTwoPiHi = 6.28318530717958623200e+00;
constexpr double kTwoPiLo = 2.44929359829470635445e-16;
constexpr double kInvTwoPi = 0.5 * std::numbers::inv_pi;

template <class Real>
struct alignas(sizeof(Real) * 4) Offset4 {
  Real x, y, z, w;  // offset from the group centre (Å) and occupancy weight
};
// The float32 kernel keeps the offsets in float64 (its per-atom phases are
// formed in float64, see phase_turns_fixed) and the weight in float32.
struct alignas(32) OffsetF {
  double x, y, z;
  float w, pad;
};
template <class Real>
struct AtomOf {
  using type = Offset4<Real>;
};
template <>
struct AtomOf<float> {
  using type = OffsetF;
};
template <class Real>
using Atom = typename AtomOf<Real>::type;

struct alignas(32) Centre {
  double x, y, z, pad;
};

// Pixels go to the device as they are: three doubles per Vec3, no padding.
static_assert(sizeof(Vec3) == 3 * sizeof(double));

// Nearest integer of x by adding and subtracting 1.5·2^(mantissa bits):
// exact for |x| < 2^22 (float) or 2^51 (double), and two full-rate adds,
// where rint is a conversion instruction that shares the quarter-rate unit
// with the special functions (sm_70 and later) and would be a third
// quarter-rate operation per atom·pixel besides sin and cos.
__device__ __forceinline__ double round_to_integer(double x) {
  constexpr double magic = 6755399441055744.0;  // 1.5·2^52
  return (x + magic) - magic;
}

// exp(2πi r) for r ∈ [−½, ½].
__device__ __forceinline__ void sincos_turns(double r, double& s, double& c) { sincospi(2.0 * r, &s, &c); }

// exp(2πi ν) of one atom in the float32 kernel, ν = u·d in revolutions.
// ν is formed in float64 by three FMAs on top of 1.5·2^20, which leaves
// 2^20 + ν (|ν| < 2^19) with an ulp of 2^-32 revolutions: the low 32 bits of
// that double are ν − round(ν) as a two's-complement fixed-point number
// (units of 2^-32 turns), the exact reduction for free (__double2loint is a
// register move). Its top 23 bits become a float exactly by the integer
// trick 1.5·2^23 + n (full-rate integer and float adds, where int→float
// conversion would be a quarter-rate instruction beside sin and cos), good to
// 2^-24 revolutions (3.7e-7 rad, the size of __sincosf's own error) whatever
// |ν|. Forming ν in float32, as before issue 20, lost ~6e-8·|ν|, ~1e-5 rad at
// |q| = 25 Å⁻¹ and |d| ≈ 7 Å, partly coherent in crystals (3.4e-5 relative in
// I where I > 1e-3 max I on the CPU twin, tests/physics/test_pattern2d_
// property.cpp).
__device__ __forceinline__ void phase_sincos_float(const double (&u)[3], const OffsetF& a, float& s, float& c) {
  constexpr double kFixedMagic = 1572864.0;  // 1.5·2^20
  const double t = fma(u[0], a.x, fma(u[1], a.y, fma(u[2], a.z, kFixedMagic)));
  const unsigned fixed = static_cast<unsigned>(__double2loint(t));  // (ν mod 1)·2^32
  const int n = static_cast<int>(fixed + 256u) >> 9;                 // round(r·2^23), |n| ≤ 2^22
  const float turns23 = __int_as_float(0x4B400000 + n) - 12582912.0f;  // n, exactly
  constexpr float kScale = 6.28318530717958647692f / 8388608.0f;      // 2π / 2^23
  __sincosf(turns23 * kScale, &s, &c);
}

// exp(i x) for a float64 phase x of any size: exact reduction by 2π, then the
// working precision's sincos.
template <class Real>
__device__ __forceinline__ void sincos_reduced(double x, Real& s, Real& c) {
  const double n = rint(x * kInvTwoPi);
  double r = fma(-n, kTwoPiHi, x);
  r = fma(-n, kTwoPiLo, r);
  if constexpr (sizeof(Real) == 4) {
    __sincosf(static_cast<float>(r), &s, &c);
  } else {
    sincos(r, &s, &c);
  }
}

template <class Real>
__global__ void __launch_bounds__(kThreads)
    phase_sum_kernel(const Atom<Real>* __restrict__ atoms, const Centre* __restrict__ centres, int n_groups,
                     int groups_per_split, const double* __restrict__ q, int n_pixels,
                     double* __restrict__ out) {
  __shared__ Atom<Real> tile[kTileAtoms];
  __shared__ Centre tile_centres[kTileGroups];

  double qd[kPixelsPerThread][3];
  double u[kPixelsPerThread][3];  // q/2π (revolutions per Å), float64 in both kernels
  double acc_re[kPixelsPerThread], acc_im[kPixelsPerThread];
  const int pixel0 = blockIdx.x * kPixelsPerBlock + threadIdx.x;
#pragma unroll
  for (int k = 0; k < kPixelsPerThread; ++k) {
    const int p = pixel0 + k * kThreads;
#pragma unroll
    for (int d = 0; d < 3; ++d) {
      qd[k][d] = p < n_pixels ? q[3 * p + d] : 0.0;  // pixels past the end compute zeros, never stored
      u[k][d] = qd[k][d] * kInvTwoPi;
    }
    acc_re[k] = acc_im[k] = 0;
  }

  const int g_begin = blockIdx.y * groups_per_split;
  const int g_end = min(n_groups, g_begin + groups_per_split);
  for (int g0 = g_begin; g0 < g_end; g0 += kTileGroups) {
    const int ng = min(kTileGroups, g_end - g0);
    __syncthreads();
    for (int t = threadIdx.x; t < ng * kGroup; t += kThreads) tile[t] = atoms[std::size_t(g0) * kGroup + t];
    if (threadIdx.x < ng) tile_centres[threadIdx.x] = centres[g0 + threadIdx.x];
    __syncthreads();

    Real tile_re[kPixelsPerThread], tile_im[kPixelsPerThread];
#pragma unroll
    for (int k = 0; k < kPixelsPerThread; ++k) tile_re[k] = tile_im[k] = 0;
    for (int gi = 0; gi < ng; ++gi) {
      Real sum_re[kPixelsPerThread], sum_im[kPixelsPerThread];
#pragma unroll
      for (int k = 0; k < kPixelsPerThread; ++k) sum_re[k] = sum_im[k] = 0;
#pragma unroll 8
      for (int t = 0; t < kGroup; ++t) {
        const Atom<Real> a = tile[gi * kGroup + t];
#pragma unroll
        for (int k = 0; k < kPixelsPerThread; ++k) {
          Real s, c;
          if constexpr (sizeof(Real) == 4) {
            phase_sincos_float(u[k], a, s, c);
          } else {
            const double nu = fma(u[k][0], a.x, fma(u[k][1], a.y, u[k][2] * a.z));
            sincos_turns(nu - round_to_integer(nu), s, c);
          }
          sum_re[k] = fma(a.w, c, sum_re[k]);
          sum_im[k] = fma(a.w, s, sum_im[k]);
        }
      }
      const Centre cg = tile_centres[gi];
#pragma unroll
      for (int k = 0; k < kPixelsPerThread; ++k) {
        if constexpr (sizeof(Real) == 4) {
          // Float32 group sum, rotated by exp(i q·c_g) and accumulated in
          // float64 (sincospi of the exactly reduced group phase): a float32
          // rotation (__sincosf, ~4e-7 absolute) and a float32 sum over the
          // tile add errors of ~1e-7 of each group's own size, which do not
          // cancel where the groups' sum does (faint pixels of a flat
          // detector whose brightest pixel is far below N²: 2e-5 to 1.4e-4
          // relative in I on drawn cases, emulated in tests/physics/
          // test_pattern2d_cuda_emulation_support.hpp).
          const double t = fma(u[k][0], cg.x, fma(u[k][1], cg.y, u[k][2] * cg.z));
          double s, c;
          sincos_turns(t - round_to_integer(t), s, c);
          const double re = static_cast<double>(sum_re[k]), im = static_cast<double>(sum_im[k]);
          acc_re[k] = fma(re, c, fma(-im, s, acc_re[k]));
          acc_im[k] = fma(re, s, fma(im, c, acc_im[k]));
        } else {
          Real s, c;
          sincos_reduced<Real>(fma(qd[k][0], cg.x, fma(qd[k][1], cg.y, qd[k][2] * cg.z)), s, c);
          tile_re[k] += sum_re[k] * c - sum_im[k] * s;
          tile_im[k] += sum_re[k] * s + sum_im[k] * c;
        }
      }
    }
#pragma unroll
    for (int k = 0; k < kPixelsPerThread; ++k) {
      acc_re[k] += static_cast<double>(tile_re[k]);
      acc_im[k] += static_cast<double>(tile_im[k]);
    }
  }
#pragma unroll
  for (int k = 0; k < kPixelsPerThread; ++k) {
    const int p = pixel0 + k * kThreads;
    if (p >= n_pixels) continue;
    atomicAdd(out + 2 * std::size_t(p), acc_re[k]);
    atomicAdd(out + 2 * std::size_t(p) + 1, acc_im[k]);
  }
}

// One species packed for the device.
template <class Real>
struct PackedSpecies {
  std::vector<Atom<Real>> atoms;
  std::vector<Centre> centres;
};

template <class Real>
PackedSpecies<Real> pack(const AtomGroups& g) {
  PackedSpecies<Real> p;
  p.atoms.resize(g.dx.size());
  for (std::size_t t = 0; t < g.dx.size(); ++t) {
    if constexpr (sizeof(Real) == 4)
      p.atoms[t] = {g.dx[t], g.dy[t], g.dz[t], float(g.w[t]), 0.0f};
    else
      p.atoms[t] = {g.dx[t], g.dy[t], g.dz[t], g.w[t]};
  }
  p.centres.resize(g.groups());
  for (std::size_t b = 0; b < g.groups(); ++b) p.centres[b] = {g.cx[b], g.cy[b], g.cz[b], 0.0};
  return p;
}

// Launch one species' groups [0, n_groups) against n_pixels pixels.
template <class Real>
void launch(const Atom<Real>* atoms, const Centre* centres, int n_groups, const double* q, int n_pixels,
            double* out, int sms) {
  if (n_groups == 0 || n_pixels == 0) return;
  const int blocks_x = (n_pixels + kPixelsPerBlock - 1) / kPixelsPerBlock;
  const int tiles = (n_groups + kTileGroups - 1) / kTileGroups;
  const int want = (kTargetBlocksPerSm * sms + blocks_x - 1) / blocks_x;
  const int splits = std::clamp(want, 1, std::min(tiles, 65535));
  const int groups_per_split = (tiles + splits - 1) / splits * kTileGroups;
  const int used_splits = (n_groups + groups_per_split - 1) / groups_per_split;
  phase_sum_kernel<Real><<<dim3(unsigned(blocks_x), unsigned(used_splits)), kThreads>>>(
      atoms, centres, n_groups, groups_per_split, q, n_pixels, out);
  NS_CUDA_CHECK_LAUNCH();
}

template <class Real>
void run(std::span<const AtomGroups> species, std::span<const Vec3> q, std::span<std::complex<double>> out,
         std::size_t budget) {
  const std::size_t ns = species.size(), np = q.size();
  std::vector<PackedSpecies<Real>> packed;
  std::size_t total_groups = 0, max_groups = 0;
  for (const auto& g : species) {
    packed.push_back(pack<Real>(g));
    total_groups += g.groups();
    max_groups = std::max(max_groups, g.groups());
  }
  const std::size_t group_bytes = kGroup * sizeof(Atom<Real>) + sizeof(Centre);
  const std::size_t pixel_bytes = 3 * sizeof(double) + ns * 2 * sizeof(double);
  // Atoms resident when they fit in half the budget, else streamed in chunks.
  const bool resident = total_groups * group_bytes <= budget / 2;
  const std::size_t group_chunk =
      resident ? max_groups : std::max<std::size_t>(kTileGroups, budget / 2 / group_bytes / kTileGroups * kTileGroups);
  const std::size_t atom_bytes = resident ? total_groups * group_bytes : group_chunk * group_bytes;
  if (atom_bytes + kPixelsPerBlock * pixel_bytes > budget)
    fail_option("max_device_memory", "device memory budget of ", budget,
                " bytes is too small for one tile of atoms and one block of pixels");
  const std::size_t pixel_chunk =
      std::min({np, kMaxPixelsPerLaunch, (budget - atom_bytes) / pixel_bytes / kPixelsPerBlock * kPixelsPerBlock});

  std::vector<DeviceBuffer<Atom<Real>>> d_atoms;
  std::vector<DeviceBuffer<Centre>> d_centres;
  if (resident) {
    for (const auto& p : packed) {
      d_atoms.emplace_back(p.atoms);
      d_centres.emplace_back(p.centres);
    }
  } else {
    d_atoms.emplace_back(group_chunk * kGroup);
    d_centres.emplace_back(group_chunk);
  }
  DeviceBuffer<double> d_q(3 * pixel_chunk);
  DeviceBuffer<double> d_out(2 * ns * pixel_chunk);
  const int sms = multiprocessor_count();

  for (std::size_t p0 = 0; p0 < np; p0 += pixel_chunk) {
    const std::size_t n = std::min(pixel_chunk, np - p0);
    d_q.upload(reinterpret_cast<const double*>(q.data() + p0), 3 * n);
    d_out.zero();
    for (std::size_t s = 0; s < ns; ++s) {
      double* out_s = d_out.data() + 2 * s * n;
      const std::size_t groups = species[s].groups();
      if (resident) {
        launch<Real>(d_atoms[s].data(), d_centres[s].data(), int(groups), d_q.data(), int(n), out_s, sms);
        continue;
      }
      for (std::size_t g0 = 0; g0 < groups; g0 += group_chunk) {
        const std::size_t ng = std::min(group_chunk, groups - g0);
        // The previous launch reads the staging buffers: wait before refilling them.
        NS_CUDA_CHECK(cudaDeviceSynchronize());
        d_atoms[0].upload(packed[s].atoms.data() + g0 * kGroup, ng * kGroup);
        d_centres[0].upload(packed[s].centres.data() + g0, ng);
        launch<Real>(d_atoms[0].data(), d_centres[0].data(), int(ng), d_q.data(), int(n), out_s, sms);
      }
    }
    NS_CUDA_CHECK(cudaDeviceSynchronize());
    const auto result = d_out.download();
    for (std::size_t s = 0; s < ns; ++s)
      for (std::size_t p = 0; p < n; ++p)
        out[s * np + p0 + p] += std::complex<double>(result[2 * (s * n + p)], result[2 * (s * n + p) + 1]);
  }
}

}  // namespace

void phase_sums_cuda(std::span<const AtomGroups> species, std::span<const Vec3> q,
                     std::span<std::complex<double>> out, const CudaPattern2DOptions& options) {
  if (out.size() != species.size() * q.size())
    fail("phase_sums_cuda: out has ", out.size(), " entries for ", species.size(), " species × ", q.size(),
         " pixels");
  for (const auto& g : species)
    if (g.dx.size() != g.groups() * kGroupSize || g.w.size() != g.dx.size())
      fail("phase_sums_cuda: atom groups are not padded to whole groups");
  if (q.empty() || species.empty()) return;
  for (const auto& g : species)
    if (g.groups() > std::size_t(INT_MAX) / kGroupSize) fail("phase_sums_cuda: too many atoms in one species");
  const std::size_t budget = device_memory_budget(options.max_device_memory);
  // The float32 kernel's fixed-point phases need |ν| = |q·d|/2π < 2^19
  // revolutions (phase_sincos_float); beyond (offsets of ~10⁴ Å in a group
  // of a very sparse structure at large |q|) the float64 kernel runs.
  double q_max = 0, d_max = 0;
  for (const Vec3& v : q) q_max = std::max(q_max, norm(v));
  for (const auto& g : species)
    for (std::size_t t = 0; t < g.dx.size(); ++t)
      d_max = std::max(d_max, std::abs(g.dx[t]) + std::abs(g.dy[t]) + std::abs(g.dz[t]));
  const bool fixed_point_fits = q_max * kInvTwoPi * d_max < double(1 << 18);
  if (options.precision == Precision::float32 && fixed_point_fits)
    run<float>(species, q, out, budget);
  else
    run<double>(species, q, out, budget);
}

}  // namespace nanoscatter::pattern2d
