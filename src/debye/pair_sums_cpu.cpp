// Fast CPU Debye pair sums: OpenMP over tile pairs, pair symmetry (only the
// i < j triangle within a species), cache blocking (a staged chunk of pairs ×
// a block of Q), SIMD over pairs. On a uniform Q grid sin(q_k r) comes from
// the three-term recurrence
//   sin((k+1)x + φ) = 2 cos(x)·sin(kx + φ) − sin((k−1)x + φ),   x = Δq·r,
// restarted from a direct sincos every kRestart steps: a rounding error made
// at step j reaches step k multiplied by sin((k−j)x)/sin x ≤ k−j, so with
// restarts the error stays ≤ ~kRestart²/2 roundings per term. Other grids
// evaluate sin(q r) directly with the polynomial sincos (simd_trig.hpp).
//
// Precision::single keeps positions as float64 (distances are computed in
// float64 and rounded once), runs the recurrence and the per-chunk
// accumulation in float32 and adds each chunk's sums into float64
// accumulators; Precision::dual does everything in float64.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "debye/pair_sums.hpp"
#include "debye/q_grid.hpp"
#include "debye/simd_trig.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::debye {

namespace {

// Atoms per tile: a tile pair (≤ 65,536 pairs) is one OpenMP work item,
// large enough to amortise scheduling, small enough to balance 100+ threads
// once N ≳ 5,000.
constexpr std::size_t kTileAtoms = 256;
// Pairs staged at once: 7 arrays × 512 × ≤ 8 bytes = 28 KiB, inside L1 (with
// the Q block's accumulators), and few enough that a float32 lane sums
// ≤ 512/kLanes terms before the chunk is flushed into float64.
constexpr std::size_t kChunkPairs = 512;
// Q steps between direct sincos restarts of the recurrence (error bound
// above); the restart costs one sincos per pair per block, ~5–10 % of the
// block's work.
constexpr int kRestart = 32;
// Below this distance two atoms count as coincident: sin(qr)/r = q·(1 −
// (qr)²/6 + …) equals its limit q to far better than float64 precision.
constexpr double kCoincident = 1e-20;

// Pairs processed side by side: 64 bytes of T, i.e. four SSE vectors on the
// portable x86-64 baseline (one AVX-512 vector where the compiler may use
// it). Measured on the CPU benchmark: 16 and 32 bytes leave the FP units
// idle on the dependency chain of the recurrence, 128 bytes spill.
template <class T>
constexpr std::size_t kLanes = 64 / sizeof(T);

struct Range {
  std::size_t begin, end;
};

template <class T>
struct Workspace {
  explicit Workspace(std::size_t nq) : out(nq, 0.0) {}
  std::vector<double> out;  // this thread's float64 accumulator, one per Q
  double coincident_weight = 0;
  std::size_t fill = 0;
  alignas(64) double r[kChunkPairs];
  alignas(64) double weight[kChunkPairs];
  alignas(64) T rt[kChunkPairs];
  alignas(64) T amp[kChunkPairs];   // w_i w_j / r
  alignas(64) T cos2[kChunkPairs];  // 2 cos(Δq r)
  alignas(64) T cosx[kChunkPairs];  // cos(Δq r)
  alignas(64) T sinx[kChunkPairs];  // sin(Δq r)
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
    double s, c;
    trig::sincos(dq * ws.r[t], s, c);
    ws.cos2[t] = T(2 * c);
    ws.cosx[t] = T(c);
    ws.sinx[t] = T(s);
  }
  const int nq = int(grid.q.size());
  for (int k0 = 0; k0 < nq; k0 += kRestart) {
    const int len = std::min(kRestart, nq - k0);
    alignas(64) T acc[kRestart][V] = {};
    const T q0 = T(grid.q[k0]);
    for (std::size_t p = 0; p < n; p += V) {
      // V pairs side by side: the l loops compile to a few SIMD registers
      // each, and the recurrence state stays in L1 between k steps.
      T s0[V], s1[V], c2[V], a[V];
#pragma omp simd
      for (std::size_t l = 0; l < V; ++l) {
        T s, c;
        trig::sincos(q0 * ws.rt[p + l], s, c);
        s0[l] = s;                                        // sin(q0 r)
        s1[l] = s * ws.cosx[p + l] + c * ws.sinx[p + l];  // sin((q0 + Δq) r)
        c2[l] = ws.cos2[p + l];
        a[l] = ws.amp[p + l];
      }
      for (int k = 0; k < len; ++k) {
#pragma omp simd
        for (std::size_t l = 0; l < V; ++l) {
          acc[k][l] += a[l] * s0[l];
          const T next = c2[l] * s1[l] - s0[l];
          s0[l] = s1[l];
          s1[l] = next;
        }
      }
    }
    for (int k = 0; k < len; ++k) {
      double sum = 0;
      for (std::size_t l = 0; l < V; ++l) sum += double(acc[k][l]);
      ws.out[k0 + k] += sum;
    }
  }
}

// Direct evaluation for non-uniform grids.
template <class T>
void accumulate_direct(Workspace<T>& ws, std::size_t n, const Grid& grid) {
  for (std::size_t k = 0; k < grid.q.size(); ++k) {
    const T qk = T(grid.q[k]);
    T sum = 0;
#pragma omp simd reduction(+ : sum)
    for (std::size_t t = 0; t < n; ++t) sum += ws.amp[t] * trig::sin(qk * ws.rt[t]);
    ws.out[k] += double(sum);
  }
}

template <class T>
void flush(Workspace<T>& ws, const Grid& grid) {
  constexpr std::size_t V = kLanes<T>;
  const std::size_t n = (ws.fill + V - 1) / V * V;
  for (std::size_t t = ws.fill; t < n; ++t) ws.r[t] = ws.weight[t] = 0;  // padding adds 0
  double coincident = 0;
#pragma omp simd reduction(+ : coincident)
  for (std::size_t t = 0; t < n; ++t) {
    const bool zero = ws.r[t] < kCoincident;
    coincident += zero ? ws.weight[t] : 0.0;
    ws.amp[t] = T(zero ? 0.0 : ws.weight[t] / (zero ? 1.0 : ws.r[t]));
    ws.rt[t] = T(ws.r[t]);
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
  if (precision == Precision::single)
    run<float>(a, b, set, q, out, threads);
  else
    run<double>(a, b, set, q, out, threads);
}

}  // namespace nanoscatter::debye
