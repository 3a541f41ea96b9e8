// Fast CPU Debye pair sums: OpenMP over tile pairs, pair symmetry (only the
// i < j triangle within a species), cache blocking (a staged chunk of pairs ×
// a block of Q), SIMD over pairs.
//
// Uniform Q grids: within a block of kRestart Q points, s_k = sin((q_b + kΔq) r)
// follows the three-term recurrence
//   s_{k+1} = 2 cos(x)·s_k − s_{k−1},   x = Δq·r,
// started at each block from float64 values of s_0, s_1. It is evaluated in
// Reinsch's difference form (Stoer & Bulirsch, Introduction to Numerical
// Analysis, §1.4; error analysis: W. M. Gentleman, Computer J.
// 12, 160 (1969)): with d = 2cos x − 2 = −4 sin²(x/2) and D_k = s_k − s_{k−1},
//   D_{k+1} = D_k + d·s_k,   s_{k+1} = s_k + D_{k+1}.
// In the plain form a rounding error made at step j reaches step k
// multiplied by sin((k−j)x)/sin x, up to 1/x for short distances, and the
// rounding of 2cos x itself shifts the frequency by ~ulp/sin x per step; in
// the difference form both stay O(1) roundings per step near x = 0. Near
// x = π (cos x < 0) the mirrored sequence t_k = (−1)^k s_k obeys the same
// recurrence for π − x and is run instead (σ = −1, d = −4cos²(x/2)), the
// sign going into the amplitude of odd k. Restarting every kRestart steps
// bounds the remaining linear error growth. Block start values (sin, cos of
// q_b r) are carried in float64 from block to block by a rotation through
// kRestart·Δq·r and refreshed by a direct float64 sincos every kRefresh
// blocks (≤ kRefresh float64 roundings, ~1e-15, at a quarter of the cost of
// a direct sincos per block).
// Other grids evaluate sin(q r) directly with the polynomial sincos
// (simd_trig.hpp), the phase always formed and reduced in float64.
//
// Precision::float32: distances, phases and block start values in float64,
// rounded once to float32 with a per-pair dither (pair_dither.hpp; the step
// d rounded stochastically), the block's start phase shifted so that the
// float step's drift is zero at the block's centre; the recurrence, the
// amplitudes w_i w_j/(r σ) and their products in float32, summed in float64
// (kRestart says why). Precision::float64 does everything in float64.
// Bound and measurements: docs/debye.md; property test
// tests/physics/test_debye_property.cpp.

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "debye/pair_sums.hpp"
#include "debye/pair_dither.hpp"
#include "debye/q_grid.hpp"
#include "core/simd_trig.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::debye {

namespace {

// Atoms per tile: a tile pair (≤ 65,536 pairs) is one OpenMP work item,
// large enough to amortise scheduling, small enough to balance 100+ threads
// once N ≳ 5,000.
constexpr std::size_t kTileAtoms = 256;
// Pairs staged at once: ~15 arrays × 512 × ≤ 8 bytes ≈ 60 KiB, in L2 next
// to the Q block's accumulators.
constexpr std::size_t kChunkPairs = 512;
// Q steps per block, i.e. between restarts of the three-term recurrence.
// The float32 terms are summed into float64 accumulators (acc below): in a
// crystal, runs of equal terms summed in float32 round alike, and that
// rounding added up coherently (perfect fcc Au R = 30 Å: 6.1e-6 of I with
// float32 partials over 8 terms, 9.6e-7 with float64 ones, the same as a
// particle displaced by 1e-4 Å). The float64 sums cost ~30 % of the
// float32 speed; 64 steps per block instead of 32 win back most of it
// (3.2e9 instead of 2.9e9 pair·Q/s per core on a loaded machine) for an
// error still at that floor (centred drift, see kCentre).
constexpr int kRestart = 64;
// The step within a block at which the float32 sequence is exact (its
// start is shifted by the frequency's rounding so that the drift is zero there).
constexpr double kCentre = 0.5 * (kRestart - 1);
// Blocks between direct float64 sincos evaluations of the block start values.
constexpr int kRefresh = 8;
// Below this distance two atoms count as coincident: sin(qr)/r = q·(1 −
// (qr)²/6 + …) equals its limit q to far better than float64 precision.
constexpr double kCoincident = 1e-20;

// Pairs processed side by side: 128 bytes of T, i.e. eight independent SSE
// vectors on the portable x86-64 baseline. One step of the recurrence is a
// chain of three dependent operations (d·t, D + …, t + D), so throughput
// needs many independent chains in flight. Measured on the CPU benchmark
// (single thread, N = 2000): 32 and 64 bytes leave the FP units waiting on
// that chain (float32 3.3e9, float64 1.9e9 pair·Q/s at 64 bytes); 128 bytes
// give 3.7e9 and 2.1–2.4e9; 256 bytes no more.
template <class T>
constexpr std::size_t kLanes = 128 / sizeof(T);

// The recurrence's step d in T: float32 rounds it stochastically (unbiased,
// pair_dither.hpp), float64 keeps it.
template <class T>
inline T round_step(double d, std::uint32_t hash) {
  if constexpr (std::is_same_v<T, float>)
    return dither::stochastic_round(d, dither::next_hash(hash));
  else
    return d;
}

// The scale σ of a pair's float32 sequence (pair_dither.hpp); 1 in float64.
template <class T>
inline double sequence_scale(std::uint32_t hash) {
  if constexpr (std::is_same_v<T, float>)
    return double(dither::factor(hash, dither::kSequenceScaleWidth));
  else
    return 1.0;
}

struct Range {
  std::size_t begin, end;
};

template <class T>
struct Workspace {
  explicit Workspace(std::size_t nq) : out(nq, 0.0) {}
  std::vector<double> out;  // this thread's float64 accumulator, one per Q
  double coincident_weight = 0;
  std::size_t fill = 0;
  alignas(64) double r[kChunkPairs];       // distance, Å
  alignas(64) double weight[kChunkPairs];  // w_i w_j
  alignas(64) std::uint32_t hash[kChunkPairs];  // float32: the pair's dither (pair_dither.hpp)
  alignas(64) T amp[kChunkPairs];          // w_i w_j / r (0 for coincident atoms)
  // Direct path: r in T is not needed (phases are formed in float64).
  // Uniform path, per pair:
  alignas(64) T flip[kChunkPairs];        // σ = sign cos(Δq r)
  alignas(64) T reinsch_d[kChunkPairs];   // d = 2|cos(Δq r)| − 2
  alignas(64) double cos_step[kChunkPairs];   // cos(x_f), x_f the step the rounded d takes (≈ Δq r)
  alignas(64) double sin_step[kChunkPairs];   // sin(x_f)
  alignas(64) double centre_shift[kChunkPairs];  // ε = −kCentre (x_f − Δq r)
  alignas(64) double cos_block[kChunkPairs];  // cos(kRestart Δq r)
  alignas(64) double sin_block[kChunkPairs];  // sin(kRestart Δq r)
  alignas(64) double cos_start[kChunkPairs];  // cos(q_b r) at the current block
  alignas(64) double sin_start[kChunkPairs];  // sin(q_b r)
  alignas(64) T s0[kChunkPairs];              // t_0 = sin(q_b r) in T
  alignas(64) T s1[kChunkPairs];              // D_0 = t_0 − t_{−1} in T
};

struct Grid {
  std::span<const double> q;
  std::optional<double> step;  // set when uniform
};

// Recurrence along a uniform grid for the staged pairs [0, n), n a multiple
// of kLanes<T>.
template <class T>
void accumulate_uniform(Workspace<T>& ws, std::size_t n, const Grid& grid) {
  constexpr std::size_t V = kLanes<T>;
  const double dq = *grid.step;
#pragma omp simd
  for (std::size_t t = 0; t < n; ++t) {
    const double x = dq * ws.r[t];
    double sh, ch, s, c;
    trig::sincos(0.5 * x, sh, ch);
    const bool flip = ch * ch < sh * sh;  // cos x < 0: run the recurrence for π − x
    ws.flip[t] = flip ? T(-1) : T(1);
    const double d_exact = flip ? -4 * ch * ch : -4 * sh * sh;  // 2|cos x| − 2 without cancellation
    ws.reinsch_d[t] = round_step<T>(d_exact, ws.hash[t]);
    trig::sincos(x, s, c);
    // The step the rounded d really takes, x_f = x + δx (first order in the
    // rounding δd: dd/dx = ∓2 sin x), and the phase offset that makes the
    // sequence exact at the block's centre instead of at its start, so the
    // drift (k − kCentre)·δx stays half as large and changes sign.
    const double delta_d = double(ws.reinsch_d[t]) - d_exact;
    const double two_sin = 2 * s;
    const double delta_x = two_sin != 0 ? (flip ? delta_d : -delta_d) / (two_sin != 0 ? two_sin : 1.0) : 0.0;
    ws.centre_shift[t] = -kCentre * delta_x;
    ws.cos_step[t] = c - s * delta_x;  // cos x_f
    ws.sin_step[t] = s + c * delta_x;  // sin x_f
    trig::sincos(kRestart * x, s, c);
    ws.cos_block[t] = c;
    ws.sin_block[t] = s;
  }
  const int nq = int(grid.q.size());
  for (int k0 = 0, block = 0; k0 < nq; k0 += kRestart, ++block) {
    const int len = std::min(kRestart, nq - k0);
    if (block % kRefresh == 0) {
      const double q0 = grid.q[k0];
#pragma omp simd
      for (std::size_t t = 0; t < n; ++t) trig::sincos(q0 * ws.r[t], ws.sin_start[t], ws.cos_start[t]);
    }
#pragma omp simd
    for (std::size_t t = 0; t < n; ++t) {
      const double s = ws.sin_start[t], c = ws.cos_start[t];
      // Start phase q_b r + ε, ε = −kCentre δx (|ε| ~ 1e-6: cos ε = 1 − ε²/2).
      const double e = ws.centre_shift[t], cos_e = 1 - 0.5 * e * e;
      const double s_c = s * cos_e + c * e, c_c = c * cos_e - s * e;
      const double s1 = s_c * ws.cos_step[t] + c_c * ws.sin_step[t];  // sin(q_b r + ε + x_f)
      // t_k = σ^k sin(q_b r + ε + k x_f); D_0 = t_0 − t_{−1} = (t_1 − t_0) − d t_0.
      const double t1 = double(ws.flip[t]) * s1;
      const double scale = sequence_scale<T>(ws.hash[t]);
      ws.s0[t] = T(s_c * scale);
      ws.s1[t] = T(((t1 - s_c) - double(ws.reinsch_d[t]) * s_c) * scale);
      ws.sin_start[t] = s * ws.cos_block[t] + c * ws.sin_block[t];  // next block's start
      ws.cos_start[t] = c * ws.cos_block[t] - s * ws.sin_block[t];
    }
    alignas(64) double acc[kRestart][V] = {};
    for (std::size_t p = 0; p < n; p += V) {
      // V pairs side by side: the l loops compile to a few SIMD registers
      // each, and the recurrence state stays in L1 between k steps.
      T tk[V], dk[V], d[V], a_even[V], a_odd[V];
#pragma omp simd
      for (std::size_t l = 0; l < V; ++l) {
        tk[l] = ws.s0[p + l];
        dk[l] = ws.s1[p + l];
        d[l] = ws.reinsch_d[p + l];
        a_even[l] = ws.amp[p + l];
        a_odd[l] = ws.amp[p + l] * ws.flip[p + l];
      }
      int k = 0;
      for (; k + 1 < len; k += 2) {
#pragma omp simd
        for (std::size_t l = 0; l < V; ++l) {
          acc[k][l] += a_even[l] * tk[l];
          dk[l] += d[l] * tk[l];
          tk[l] += dk[l];
          acc[k + 1][l] += a_odd[l] * tk[l];
          dk[l] += d[l] * tk[l];
          tk[l] += dk[l];
        }
      }
      if (k < len) {
#pragma omp simd
        for (std::size_t l = 0; l < V; ++l) acc[k][l] += a_even[l] * tk[l];
      }
    }
    for (int k = 0; k < len; ++k) {
      double sum = 0;
      for (std::size_t l = 0; l < V; ++l) sum += double(acc[k][l]);
      ws.out[k0 + k] += sum;
    }
  }
}

// Direct evaluation for non-uniform grids. The phase q·r is formed and
// reduced by π/2 in float64 in both precisions: a float32 q would shift every
// pair's phase by the same relative amount (a coherent error that does not
// average out over pairs), and a float32 phase of ~10³ rad carries an
// absolute rounding of ~3e-5 rad.
template <class T>
void accumulate_direct(Workspace<T>& ws, std::size_t n, const Grid& grid) {
  for (std::size_t k = 0; k < grid.q.size(); ++k) {
    const double qk = grid.q[k];
    // Terms in T, their sum in float64: a float32 sum over the chunk's 512
    // terms (128 per SIMD lane) alone costs ~1e-5 of I(Q) where the pair
    // sums cancel strongly (measured on the 20,000-atom test).
    double sum = 0;
    if constexpr (std::is_same_v<T, float>) {
#pragma omp simd reduction(+ : sum)
      for (std::size_t t = 0; t < n; ++t) {
        float s, c;
        trig::sincos_reduced_float(qk * ws.r[t], s, c);
        sum += double(ws.amp[t] * s);
      }
    } else {
#pragma omp simd reduction(+ : sum)
      for (std::size_t t = 0; t < n; ++t) sum += ws.amp[t] * trig::sin(qk * ws.r[t]);
    }
    ws.out[k] += sum;
  }
}

template <class T>
void flush(Workspace<T>& ws, const Grid& grid) {
  constexpr std::size_t V = kLanes<T>;
  const std::size_t n = (ws.fill + V - 1) / V * V;
  for (std::size_t t = ws.fill; t < n; ++t) {  // padding adds 0
    ws.r[t] = ws.weight[t] = 0;
    ws.hash[t] = 0;
  }
  double coincident = 0;
  const bool uniform = grid.step.has_value();
#pragma omp simd reduction(+ : coincident)
  for (std::size_t t = 0; t < n; ++t) {
    const bool zero = ws.r[t] < kCoincident;
    coincident += zero ? ws.weight[t] : 0.0;
    // The uniform path's sequence carries σ (sequence_scale), so its amplitude divides by it.
    const double sigma = uniform ? sequence_scale<T>(ws.hash[t]) : 1.0;
    ws.amp[t] = T(zero ? 0.0 : ws.weight[t] / ((zero ? 1.0 : ws.r[t]) * sigma));
  }
  ws.coincident_weight += coincident;
  if (grid.step)
    accumulate_uniform(ws, n, grid);
  else
    accumulate_direct(ws, n, grid);
  ws.fill = 0;
}

// Stage the pairs of atom i of a with atoms [j, j_end) of b, flushing full chunks.
template <class T>
void stage_row(Workspace<T>& ws, const AtomBlock& a, std::size_t i, const AtomBlock& b,
               std::size_t j, std::size_t j_end, const Grid& grid) {
  const double xi = a.x[i], yi = a.y[i], zi = a.z[i], wi = a.w[i];
  const double* bx = b.x.data();
  const double* by = b.y.data();
  const double* bz = b.z.data();
  const double* bw = b.w.data();
  while (j < j_end) {
    const std::size_t n = std::min(j_end - j, kChunkPairs - ws.fill);
    double* r = ws.r + ws.fill;
    double* weight = ws.weight + ws.fill;
#pragma omp simd
    for (std::size_t t = 0; t < n; ++t) {
      const double dx = xi - bx[j + t], dy = yi - by[j + t], dz = zi - bz[j + t];
      r[t] = std::sqrt(dx * dx + dy * dy + dz * dz);
      weight[t] = wi * bw[j + t];
    }
    if constexpr (std::is_same_v<T, float>) {
      std::uint32_t* hash = ws.hash + ws.fill;
#pragma omp simd
      for (std::size_t t = 0; t < n; ++t) hash[t] = dither::pair_hash(std::uint32_t(i), std::uint32_t(j + t));
    }
    ws.fill += n;
    j += n;
    if (ws.fill == kChunkPairs) flush(ws, grid);
  }
}

std::vector<Range> tiles(std::size_t n) {
  std::vector<Range> t;
  for (std::size_t b = 0; b < n; b += kTileAtoms) t.push_back({b, std::min(n, b + kTileAtoms)});
  return t;
}

template <class T>
void run(const AtomBlock& a, const AtomBlock& b, PairSet set, std::span<const double> q,
         std::span<double> out, int threads) {
  const bool triangle = set == PairSet::triangle;
  const AtomBlock& other = triangle ? a : b;
  const auto tiles_a = tiles(a.size());
  const auto tiles_b = tiles(other.size());
  struct Item {
    std::size_t ta, tb;
  };
  std::vector<Item> items;
  for (std::size_t i = 0; i < tiles_a.size(); ++i)
    for (std::size_t j = triangle ? i : 0; j < tiles_b.size(); ++j) items.push_back({i, j});
  if (items.empty()) return;

  const Grid grid{q, uniform_q_step(q)};
  const int nthreads = std::max(1, std::min<int>(threads > 0 ? threads : omp_get_max_threads(),
                                                 int(items.size())));
  std::vector<std::vector<double>> partial(nthreads);
  std::vector<double> coincident(nthreads, 0.0);
#pragma omp parallel num_threads(nthreads)
  {
    auto ws = std::make_unique<Workspace<T>>(q.size());
    // Static cyclic schedule: the same thread count gives the same
    // summation order, hence bit-identical results run to run.
#pragma omp for schedule(static, 1)
    for (std::size_t it = 0; it < items.size(); ++it) {
      const Range ra = tiles_a[items[it].ta], rb = tiles_b[items[it].tb];
      const bool diagonal = triangle && items[it].ta == items[it].tb;
      for (std::size_t i = ra.begin; i < ra.end; ++i)
        stage_row(*ws, a, i, other, diagonal ? i + 1 : rb.begin, rb.end, grid);
    }
    if (ws->fill) flush(*ws, grid);
    const int id = omp_get_thread_num();
    partial[id] = std::move(ws->out);
    coincident[id] = ws->coincident_weight;
  }
  // Fixed thread order: deterministic float64 reduction. A thread the
  // runtime did not start (thread limits) left its slot empty.
  for (int t = 0; t < nthreads; ++t) {
    if (partial[t].empty()) continue;
    for (std::size_t k = 0; k < q.size(); ++k) out[k] += partial[t][k] + coincident[t] * q[k];
  }
}

void check_block(const AtomBlock& block, const char* name) {
  const std::size_t n = block.size();
  if (block.y.size() != n || block.z.size() != n || block.w.size() != n)
    fail("exact_pair_sums_cpu: atom block ", name, " has arrays of different lengths");
}

}  // namespace

void exact_pair_sums_cpu(const AtomBlock& a, const AtomBlock& b, PairSet set,
                         std::span<const double> q, std::span<double> out, Precision precision,
                         int threads) {
  if (out.size() != q.size())
    fail("exact_pair_sums_cpu: out has ", out.size(), " entries for ", q.size(), " Q points");
  check_block(a, "a");
  if (set == PairSet::rectangle) check_block(b, "b");
  if (q.empty()) return;
  if (precision == Precision::float32)
    run<float>(a, b, set, q, out, threads);
  else
    run<double>(a, b, set, q, out, threads);
}

}  // namespace nanoscatter::debye
