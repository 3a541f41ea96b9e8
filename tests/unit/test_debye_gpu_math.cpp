// The CUDA exact Debye kernel's float32 arithmetic (src/debye/pair_math_float.cuh),
// run on the host, against the float64 reference pair sums. This checks the
// precision design of the GPU path in CI, where no GPU exists; the GPU
// tests (tests/gpu) check the kernel itself on the device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "debye/atom_pack.cuh"
#include "debye/pair_math_float.cuh"
#include "debye/pair_sums.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/debye.hpp"
#include "test_util.hpp"

using namespace nanoscatter;
using namespace nanoscatter::debye;

namespace {

// The kernel's triangle sums Σ_{i<j} w_i w_j sin(q r)/r on a uniform grid:
// K Q values per recurrence chunk, float32 partials over 32 pairs, then
// float64 (as exact_pair_kernel).
template <int K>
std::vector<double> emulate_kernel(const AtomBlock& block, double q0, double dq, int nq) {
  constexpr int kFlushPairs = 32;
  const Origin o = block_bounds(block, block).centre;
  const auto atoms = pack_atoms<double>(block, o);
  const std::size_t n = atoms.size();
  std::vector<double> out(nq, 0.0);
  std::vector<double> total(K);
  float acc[K];
  for (int k0 = 0; k0 < nq; k0 += K) {
    const fmath::FloatPair mid = fmath::split(q0 + (k0 + 0.5) * dq);
    const fmath::FloatPair half_dq = fmath::split(0.5 * dq);
    for (std::size_t i = 0; i < n; ++i) {
      std::fill(total.begin(), total.end(), 0.0);
      for (std::size_t jb = i + 1; jb < n; jb += kFlushPairs) {
        std::fill(acc, acc + K, 0.f);
        // Two pairs at a time, as the kernel (a zero-weight pair pads an odd count).
        const auto term = [&](std::size_t j) {
          if (j >= std::min(n, jb + kFlushPairs)) return fmath::pair_term(1.0, 0.f, 0u);
          const double dx = atoms[i].x - atoms[j].x, dy = atoms[i].y - atoms[j].y, dz = atoms[i].z - atoms[j].z;
          const float wij = static_cast<float>(atoms[i].w) * static_cast<float>(atoms[j].w);
          return fmath::pair_term(std::fma(dx, dx, std::fma(dy, dy, dz * dz)), wij,
                                  dither::pair_hash(std::uint32_t(i), std::uint32_t(j)));
        };
        for (std::size_t j = jb; j < std::min(n, jb + kFlushPairs); j += 2) {
          auto s0 = fmath::recurrence_start(mid, half_dq, term(j)), s1 = fmath::recurrence_start(mid, half_dq, term(j + 1));
          fmath::to_base_and_ratio(s0, s1);
          fmath::recurrence_accumulate2<K>(s0, s1, acc);
        }
        for (int k = 0; k < K; ++k) total[k] += acc[k];
      }
      for (int k = 0; k < K && k0 + k < nq; ++k) out[k0 + k] += total[k];
    }
  }
  return out;
}

// The slab kernel's arithmetic (exact_slab_kernel): per block of C chunks
// of K Q values, each pair's starts for all C chunks from chunk_starts; the
// pairs (i < j, in order) cut into slabs of 1024, lane l of a warp taking
// pairs l, l + 32, … of a slab two at a time, a float32 partial per lane,
// the 32 lanes added in float32 by the butterfly's pairing (offsets 16, 8,
// 4, 2, 1), then float64.
template <int K, int C>
std::vector<double> emulate_slab_kernel(const AtomBlock& block, double q0, double dq, int nq) {
  constexpr int kSlab = 1024, kLanes = 32;
  const Origin o = block_bounds(block, block).centre;
  const auto atoms = pack_atoms<double>(block, o);
  const std::size_t n = atoms.size();
  struct Start {
    float t[C], u[C], lambda, amp;
    bool mirror;
  };
  std::vector<Start> slab;
  std::vector<double> out(nq, 0.0);
  const auto flush = [&](int k_first) {
    slab.resize(kSlab, Start{});  // padding pairs: zero starts
    float lane_acc[kLanes][K];
    for (int c = 0; c < C; ++c) {
      for (int l = 0; l < kLanes; ++l) {
        std::fill(lane_acc[l], lane_acc[l] + K, 0.f);
        for (int p = l; p < kSlab; p += 2 * kLanes) {
          const Start& a = slab[p];
          const Start& b = slab[p + kLanes];
          // The kernel's slab build stores the pair's amplitudes in this form
          // (with zero starts where it swaps: the same sums).
          fmath::RecurrenceStart sa{a.t[c], a.u[c], a.lambda, a.amp, a.mirror};
          fmath::RecurrenceStart sb{b.t[c], b.u[c], b.lambda, b.amp, b.mirror};
          fmath::to_base_and_ratio(sa, sb);
          fmath::recurrence_accumulate2<K>(sa, sb, lane_acc[l]);
        }
      }
      for (int k = 0; k < K; ++k) {
        float v[kLanes];
        for (int l = 0; l < kLanes; ++l) v[l] = lane_acc[l][k];
        for (int off = kLanes / 2; off > 0; off /= 2)
          for (int l = 0; l < off; ++l) v[l] += v[l + off];
        const int kk = k_first + c * K + k;
        if (kk < nq) out[kk] += v[0];
      }
    }
    slab.clear();
  };
  for (int k_first = 0; k_first < nq; k_first += C * K) {
    const fmath::FloatPair mid0 = fmath::split(q0 + (k_first + 0.5) * dq);
    const fmath::FloatPair half_dq = fmath::split(0.5 * dq);
    const fmath::FloatPair chunk_dq = fmath::split(K * dq);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        const double dx = atoms[i].x - atoms[j].x, dy = atoms[i].y - atoms[j].y, dz = atoms[i].z - atoms[j].z;
        const float wij = static_cast<float>(atoms[i].w) * static_cast<float>(atoms[j].w);
        const auto term = fmath::pair_term(std::fma(dx, dx, std::fma(dy, dy, dz * dz)), wij,
                                           dither::pair_hash(std::uint32_t(i), std::uint32_t(j)));
        Start st;
        fmath::chunk_starts<K, C>(mid0, half_dq, chunk_dq, term, st.t, st.u, st.lambda, st.mirror);
        st.amp = term.amp;
        slab.push_back(st);
        if (slab.size() == kSlab) flush(k_first);
      }
    if (!slab.empty()) flush(k_first);
  }
  return out;
}

// Two species' worth of atoms as one block: a vacancy-thinned, displaced
// rocksalt sphere (no coincident sites). Its pattern has deep low-Q fringes
// (I/Imax ~ 1e-3), where N²/2 positive terms cancel and any error that is
// a deterministic function of r adds up coherently.
AtomBlock disordered_particle(double radius) {
  LatticeOptions lattice;
  lattice.type = LatticeType::rocksalt;
  lattice.a = 4.26;
  lattice.elements = {"Co", "O"};
  Structure s = cut_crystal(make_lattice(lattice), Sphere{radius});
  s = add_vacancies(s, VacancyOptions{0.05, 11, {}});
  s = displace_atoms(s, DisplacementOptions{0.05, 12});
  AtomBlock b;
  for (const auto& a : s.atoms) {
    b.x.push_back(a.position.x), b.y.push_back(a.position.y), b.z.push_back(a.position.z);
    b.w.push_back(1.0);
  }
  return b;
}

// S(Q) = N + 2 W(Q)/Q for one species of unit factor: the quantity whose
// relative error acceptance (c) bounds.
std::vector<double> structure_factor(const std::vector<double>& w, const std::vector<double>& q, std::size_t n) {
  std::vector<double> s(q.size());
  for (std::size_t k = 0; k < q.size(); ++k) s[k] = double(n) + 2.0 * w[k] / q[k];
  return s;
}

}  // namespace

TEST(DebyeGpuMath, PairDistanceIsAccurateAndUnbiased) {
  // r to ~1e-14 (r_hi + r_lo) and 1/r to ~1 ulp over distances 0.5–2000 Å.
  double worst_r = 0, worst_inv = 0;
  for (int i = 0; i < 20000; ++i) {
    const double r = 0.5 * std::pow(4000.0, i / 20000.0) * (1 + 1e-3 * std::sin(i * 0.37));
    const double d2 = r * r;
    const auto d = fmath::pair_distance(d2);
    const double rr = std::sqrt(d2);
    worst_r = std::max(worst_r, std::abs(double(d.r_hi) + double(d.r_lo) - rr) / rr);
    worst_inv = std::max(worst_inv, std::abs(double(d.inv_r) * rr - 1.0));
  }
  std::printf("pair_distance: r rel err %.2e, 1/r rel err %.2e\n", worst_r, worst_inv);
  EXPECT_LE(worst_r, 1e-13);           // a double-float pair: ~2^-46 at worst
  EXPECT_LE(worst_inv, 1.2e-7);        // one float rounding (2^-24 = 6e-8) plus the Newton residual
}

TEST(DebyeGpuMath, SincosHasNoSmoothError) {
  // What matters for the pair sums is not the worst error but its smooth
  // part (pair_math_float.cuh says why): project the error of sin and cos
  // on the harmonics sin(mx), cos(mx), m = 0..8, over 10⁶ arguments in
  // [0, 2000) rad. Measured (NumPy emulation, 3·10⁵ arguments): correctly
  // rounded float values 3.7e-11 (the noise floor), this function 9.3e-11,
  // with a float-rounded reduced argument 1.7e-10, Cephes' float minimax
  // polynomials (the kernel's earlier choice) 4.7e-10.
  constexpr int kSamples = 1000000, kHarmonics = 8;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.0, 2000.0);
  double proj[2][2][kHarmonics + 1] = {};
  double worst = 0;
  for (int i = 0; i < kSamples; ++i) {
    const double x = u(rng);
    const fmath::FloatPair xs = fmath::split(x);
    float s, c;
    fmath::sincos_accurate(xs.hi, xs.lo, s, c);
    const double es = double(s) - std::sin(x), ec = double(c) - std::cos(x);
    worst = std::max({worst, std::abs(es), std::abs(ec)});
    for (int m = 0; m <= kHarmonics; ++m) {
      const double sm = std::sin(m * x), cm = std::cos(m * x);
      proj[0][0][m] += es * sm, proj[0][1][m] += es * cm;
      proj[1][0][m] += ec * sm, proj[1][1][m] += ec * cm;
    }
  }
  double worst_proj = 0;
  for (auto& f : proj)
    for (auto& g : f)
      for (double v : g) worst_proj = std::max(worst_proj, std::abs(v) / kSamples);
  std::printf("sincos_accurate: max abs error %.2e, largest harmonic projection %.2e\n", worst, worst_proj);
  EXPECT_LE(worst, 1.2e-7);       // ~1 ulp of values near 1
  EXPECT_LE(worst_proj, 2e-10);   // below the float-rounded reduction, far below Cephes
}

TEST(DebyeGpuMath, RecurrenceKernelMatchesFloat64WhereTheFringesCancel) {
  // The grid on which the GPU float32 kernel failed acceptance (c) with
  // 4.1e-5 (26k atoms) before its sincos lost its smooth error: 0.1–10 Å⁻¹, 200 points.
  const AtomBlock block = disordered_particle(16.0);
  ASSERT_GE(block.size(), 1500u);
  const auto q = uniform_q_grid(0.1, 10.0, 200);
  const double dq = q[1] - q[0];
  std::vector<double> ref(q.size(), 0.0);
  exact_pair_sums_reference(block, block, PairSet::triangle, q, ref);
  const auto s_ref = structure_factor(ref, q, block.size());
  for (int K : {32, 64}) {
    const auto w = K == 32 ? emulate_kernel<32>(block, q[0], dq, int(q.size()))
                           : emulate_kernel<64>(block, q[0], dq, int(q.size()));
    const auto s = structure_factor(w, q, block.size());
    const double err = test::max_rel_error(s, s_ref, 1e-3);
    std::printf("N=%zu K=%d: float32 kernel arithmetic, max rel err %.3e where S > 1e-3 max S\n", block.size(), K,
                err);
    // Acceptance (c) asks 1e-5 of the GPU. Measured 8e-8 here before the
    // dither (pair_dither.hpp), 3.8e-7 (K = 32) and 5.8e-7 (K = 64) with it:
    // the dither trades coherent error on crystals for a little noise on
    // disordered particles. With the earlier Cephes sincos 9.8e-7 (and
    // 4.1e-5 at 26k atoms, as on the GPU).
    EXPECT_LE(err, 2e-6);
  }
}

TEST(DebyeGpuMath, SlabKernelMatchesFloat64WhereTheFringesCancel) {
  // The slab kernel's chunk starts come from rotations through the chunk
  // step (C − 1 of them per pair) and its lanes' partials meet in float32:
  // same grid and bound as the per-thread kernel above, and a longer grid
  // (1456 Q, the seed case's) so that every block has its C chunks.
  // (The long grid on a smaller particle: the emulation costs N²·NQ.)
  struct Grid {
    double radius, qmax;
    int nq, chunks;
  };
  for (const Grid g : {Grid{16.0, 10.0, 200, 8}, Grid{11.0, 12.0, 1456, 16}}) {
    const AtomBlock block = disordered_particle(g.radius);
    const auto q = uniform_q_grid(0.1, g.qmax, g.nq);
    const double dq = q[1] - q[0];
    std::vector<double> ref(q.size(), 0.0);
    exact_pair_sums_reference(block, block, PairSet::triangle, q, ref);
    const auto w = g.chunks == 8 ? emulate_slab_kernel<48, 8>(block, q[0], dq, g.nq)
                                 : emulate_slab_kernel<48, 16>(block, q[0], dq, g.nq);
    const double err = test::max_rel_error(structure_factor(w, q, block.size()),
                                           structure_factor(ref, q, block.size()), 1e-3);
    std::printf("N=%zu NQ=%d K=48 C=%d: slab kernel arithmetic, max rel err %.3e where S > 1e-3 max S\n",
                block.size(), g.nq, g.chunks, err);
    // Acceptance (c) asks 1e-5 of the GPU. Measured 3.9e-8 (N = 1701,
    // 200 Q, C = 8) and 1.4e-7 (N = 558, 1456 Q, C = 16) with two pairs
    // summed before each rounding into the partial (recurrence_accumulate2);
    // 3.6e-7 and 2.5e-7 with a rounding per pair.
    EXPECT_LE(err, 1e-6);
  }
}

// A perfect crystal: thousands of pairs share each distance exactly, so any
// float32 rounding that is a function of r alone adds up shell by shell.
AtomBlock perfect_au_sphere(double radius) {
  LatticeOptions lattice;
  lattice.type = LatticeType::fcc;
  lattice.a = 4.078;
  lattice.elements = {"Au"};
  const Structure s = cut_crystal(make_lattice(lattice), Sphere{radius});
  AtomBlock b;
  for (const auto& a : s.atoms) {
    b.x.push_back(a.position.x), b.y.push_back(a.position.y), b.z.push_back(a.position.z);
    b.w.push_back(1.0);
  }
  return b;
}

TEST(DebyeGpuMath, SlabKernelOnAPerfectCrystalWithAGridStartingPastTheForwardPeak) {
  // Issue 20's CPU-sized case: fcc Au R = 20 Å (1,985 atoms), Q = 0.5 + 0.01k,
  // 1151 points. The threshold 1e-3·max S then takes in the deep low-angle
  // fringe minima; without the dither the GPU arithmetic was off by ~1e-4 there.
  const AtomBlock block = perfect_au_sphere(20.0);
  ASSERT_EQ(block.size(), 1985u);
  const int nq = 1151;
  std::vector<double> q(nq);
  for (int k = 0; k < nq; ++k) q[k] = 0.5 + 0.01 * k;
  std::vector<double> ref(q.size(), 0.0);
  exact_pair_sums_cpu(block, block, PairSet::triangle, q, ref, Precision::float64, 0);
  const auto w = emulate_slab_kernel<48, 16>(block, q[0], q[1] - q[0], nq);
  const double err = test::max_rel_error(structure_factor(w, q, block.size()),
                                         structure_factor(ref, q, block.size()), 1e-3);
  std::printf("perfect Au sphere N=%zu, Q 0.5-12 x 1151: slab kernel arithmetic, max rel err %.3e\n", block.size(), err);
  // Issue 20 asks 1e-5. Measured 2.7e-6 with two pairs' terms summed
  // before each rounding into the float32 partial (recurrence_accumulate2);
  // 1.45e-5 with a rounding per pair, 1.4e-6 with float64 partials, 9.1e-5
  // with the dither alone (before the float64 step, chunk starts and the
  // centred drift). Other variants: bench/results/2026-11-26-debye-float32-gpu-accumulation.md.
  EXPECT_LE(err, 5e-6);
}

TEST(DebyeGpuMath, CoincidentPairWeightMatchesBruteForce) {
  // Shared sites (a substitutional alloy written as two atoms per site) in a
  // triangle and between two blocks; the float32 kernel leaves these pairs
  // to the host. Exact: sums of a few products of small binary fractions.
  std::vector<Atom4<double>> a = {{0, 0, 0, 0.5}, {0, 0, 0, 0.25}, {1, 0, 0, 1}, {0, 0, 0, 0.125}, {1, 0, 0, 0.5}};
  std::vector<Atom4<double>> b = {{1, 0, 0, 0.75}, {2, 0, 0, 1}, {0, 0, 0, 0.5}};
  double tri = 0, rect = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = i + 1; j < a.size(); ++j)
      if (a[i].x == a[j].x && a[i].y == a[j].y && a[i].z == a[j].z) tri += a[i].w * a[j].w;
    for (const auto& q : b)
      if (a[i].x == q.x && a[i].y == q.y && a[i].z == q.z) rect += a[i].w * q.w;
  }
  EXPECT_EQ(coincident_pair_weight(a, a, true), tri);
  EXPECT_EQ(coincident_pair_weight(a, b, false), rect);
  EXPECT_EQ(tri, 0.5 * 0.25 + 0.5 * 0.125 + 0.25 * 0.125 + 1 * 0.5);
  // No shared site: zero.
  EXPECT_EQ(coincident_pair_weight(b, b, true), 0.0);
}
