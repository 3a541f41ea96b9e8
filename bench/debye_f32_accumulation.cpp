// Host emulation of variants of the CUDA slab kernel's float32 recurrence
// and accumulation (exact_slab_kernel, src/debye/pair_sums_cuda.cu), against
// the float64 CPU pair sums: the experiment behind
// bench/results/2026-11-26-debye-float32-gpu-accumulation.md. Serial, so
// slow (the fcc case is 12M pairs × 3961 Q per variant).
// Usage: debye_f32_accumulation CASE K C FLUSH REC_DOUBLE ACC_DOUBLE CENTRE KAHAN_T [GROUP]
//   CASE au: perfect fcc Au R = 20 Å, Q = 0.5 + 0.01k × 1151;
//        fcc: perfect fcc a = 3.78752, R = $FCC_R (25 Å: 4,897 atoms), Q 0.589–14.05 × 3961;
//        ($FCC_NQ: its first FCC_NQ points only); count: atom counts of the fcc case over R.
//   FLUSH: pairs per lane partial before it joins float64 (32: the kernel's);
//   REC_DOUBLE, ACC_DOUBLE: the recurrence or the partials in float64;
//   CENTRE: the recurrence run both ways from the chunk's centre;
//   KAHAN_T: t += u compensated; GROUP: pairs summed (base-and-ratio form)
//   before one rounding into the partial (1: the kernel's earlier FMA per pair).
// The float64 reference is cached in the working directory.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "debye/atom_pack.cuh"
#include "debye/pair_math_float.cuh"
#include "debye/pair_sums.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/debye.hpp"

using namespace nanoscatter;
using namespace nanoscatter::debye;

struct Variant {
  int flush = 32;      // pairs per lane partial before float64
  bool rec_double = false;
  bool acc_double = false;
  bool centre = false;  // bidirectional from the chunk centre
  bool kahan_t = false; // compensated t += u
  int group = 1;        // pairs combined per rounding into acc (base-pair form)
};

template <int K, int C>
void starts(bool centre, fmath::FloatPair mid0, fmath::FloatPair half_dq, fmath::FloatPair chunk_dq,
            const fmath::PairTerm& p, float (&t)[C], float (&u)[C], float& lambda, bool& mirror) {
  if (!centre) {
    fmath::chunk_starts<K, C>(mid0, half_dq, chunk_dq, p, t, u, lambda, mirror);
    return;
  }
  const double r = double(p.d.r_hi) + double(p.d.r_lo);
  const double h = (double(half_dq.hi) + double(half_dq.lo)) * r;
  const double sh_d = std::sin(h), ch_d = std::cos(h);
  mirror = ch_d * ch_d < sh_d * sh_d;
  const double lambda_exact = mirror ? -4.0 * ch_d * ch_d : -4.0 * sh_d * sh_d;
  lambda = dither::stochastic_round(lambda_exact, p.step_hash);
  const double phase = (double(mid0.hi) + double(mid0.lo)) * r;
  const double chunk_phase = (double(chunk_dq.hi) + double(chunk_dq.lo)) * r;
  double s_mid = std::sin(phase), c_mid = std::cos(phase);
  const double s_step = std::sin(chunk_phase), c_step = std::cos(chunk_phase);
  const double sigma = p.sigma;
  const double a = ch_d * sigma, b = sh_d * sigma;
  for (int c = 0; c < C; ++c) {
    t[c] = static_cast<float>(s_mid * a + c_mid * b);  // sin(mid + h): the point K/2
    u[c] = static_cast<float>(mirror ? 2.0 * s_mid * a : 2.0 * c_mid * b);
    const double s_next = s_mid * c_step + c_mid * s_step;
    c_mid = c_mid * c_step - s_mid * s_step;
    s_mid = s_next;
  }
}

struct St { float t, u, lambda, amp; bool mirror; };

template <class R, class A, int K>
void accumulate(const St& s, A (&acc)[K], const Variant& v) {
  const R amp = s.amp, odd = s.mirror ? -s.amp : s.amp;
  const R lam = s.lambda;
  auto add = [&](int k, R t) { acc[k] = std::fma(A((k & 1) ? odd : amp), A(t), acc[k]); };
  if (!v.centre) {
    R t = s.t, u = s.u, c = 0;
    add(0, t);
    for (int k = 1; k < K; ++k) {
      if (k > 1) u = std::fma(lam, t + c, u);
      if (v.kahan_t) { const R y = u; const R sum = t + y; c += (t - sum) + y; t = sum; }
      else t += u;
      add(k, t);
    }
  } else {
    const int m = K / 2;
    R t = s.t, u = s.u;
    add(m, t);
    for (int k = m + 1; k < K; ++k) { u = std::fma(lam, t, u); t += u; add(k, t); }
    t = s.t, u = s.u;
    for (int k = m - 1; k >= 0; --k) { t -= u; add(k, t); u = std::fma(-lam, t, u); }
  }
}

template <int K>
void sequence(const St& s, float (&t_out)[K]) {
  float t = s.t, u = s.u;
  t_out[0] = t;
  for (int k = 1; k < K; ++k) { if (k > 1) u = std::fma(s.lambda, t, u); t += u; t_out[k] = t; }
}

// G pairs into acc with one rounding per k: x = t_0 + sum rho_i t_i, acc = fma(c_0, x, acc).
template <int K>
void accumulate_group(const St* s, int G, float (&acc)[K]) {
  St g[32];
  for (int i = 0; i < G; ++i) g[i] = s[i];
  // the base: pair 0 if its amplitude is nonzero, else the largest |amp| with pair 0's sequence zeroed
  float base_amp = g[0].amp; bool base_mirror = g[0].mirror;
  if (base_amp == 0.f) {
    g[0].t = g[0].u = 0.f;
    int best = 0;
    for (int i = 1; i < G; ++i) if (std::abs(g[i].amp) > std::abs(g[best].amp)) best = i;
    // swap best into position 0 (its sequence becomes the base)
    std::swap(g[0], g[best]);
    base_amp = g[0].amp; base_mirror = g[0].mirror;
  }
  const float base_odd = base_mirror ? -base_amp : base_amp;
  float rho_e[32], rho_o[32];
  const float inv = base_amp != 0.f ? 1.f / base_amp : 0.f;
  for (int i = 1; i < G; ++i) {
    rho_e[i] = base_amp != 0.f ? float(double(g[i].amp) / double(base_amp)) : 0.f; (void)inv;
    rho_o[i] = (g[i].mirror != base_mirror) ? -rho_e[i] : rho_e[i];
  }
  float seq[32][K];
  for (int i = 0; i < G; ++i) sequence<K>(g[i], seq[i]);
  for (int k = 0; k < K; ++k) {
    float x = seq[0][k];
    for (int i = 1; i < G; ++i) x = std::fma((k & 1) ? rho_o[i] : rho_e[i], seq[i][k], x);
    acc[k] = std::fma((k & 1) ? base_odd : base_amp, x, acc[k]);
  }
}

template <int K, int C>
std::vector<double> emulate(const std::vector<Atom4<double>>& atoms, double q0, double dq, int nq, const Variant& v) {
  constexpr int kSlab = 1024, kLanes = 32;
  const std::size_t n = atoms.size();
  struct Start { float t[C], u[C], lambda, amp; bool mirror; };
  std::vector<Start> slab;
  std::vector<double> out(nq, 0.0);
  const auto flush = [&](int k_first) {
    slab.resize(kSlab, Start{});
    for (int c = 0; c < C; ++c) {
      double total[K] = {};
      float lane_acc[kLanes][K];
      double lane_accd[kLanes][K];
      int pairs_in = 0;
      auto do_flush = [&] {
        for (int k = 0; k < K; ++k) {
          if (v.acc_double) {
            double s = 0; for (int l = 0; l < kLanes; ++l) s += lane_accd[l][k];
            total[k] += s;
          } else {
            float w[kLanes];
            for (int l = 0; l < kLanes; ++l) w[l] = lane_acc[l][k];
            for (int off = kLanes / 2; off > 0; off /= 2) for (int l = 0; l < off; ++l) w[l] += w[l + off];
            total[k] += w[0];
          }
        }
        for (int l = 0; l < kLanes; ++l) { std::fill(lane_acc[l], lane_acc[l] + K, 0.f); std::fill(lane_accd[l], lane_accd[l] + K, 0.0); }
      };
      for (int l = 0; l < kLanes; ++l) { std::fill(lane_acc[l], lane_acc[l] + K, 0.f); std::fill(lane_accd[l], lane_accd[l] + K, 0.0); }
      // iteration it covers pairs it*64 + l and it*64 + 32 + l for every lane
      if (v.group > 1) {
        const int G = v.group;
        for (int it = 0; it < kSlab / (32 * G); ++it) {
          for (int l = 0; l < kLanes; ++l) {
            St g[32];
            for (int h = 0; h < G; ++h) { const Start& a = slab[it * 32 * G + h * 32 + l]; g[h] = St{a.t[c], a.u[c], a.lambda, a.amp, a.mirror}; }
            accumulate_group<K>(g, G, lane_acc[l]);
          }
          pairs_in += G;
          if (pairs_in >= v.flush) { do_flush(); pairs_in = 0; }
        }
      } else
      for (int it = 0; it < kSlab / 64; ++it) {
        for (int l = 0; l < kLanes; ++l)
          for (int h = 0; h < 2; ++h) {
            const Start& a = slab[it * 64 + h * 32 + l];
            const St s{a.t[c], a.u[c], a.lambda, a.amp, a.mirror};
            if (v.acc_double) {
              if (v.rec_double) accumulate<double, double, K>(s, lane_accd[l], v);
              else accumulate<float, double, K>(s, lane_accd[l], v);
            } else {
              if (v.rec_double) accumulate<double, float, K>(s, lane_acc[l], v);
              else accumulate<float, float, K>(s, lane_acc[l], v);
            }
          }
        pairs_in += 2;
        if (pairs_in == v.flush) { do_flush(); pairs_in = 0; }
      }
      if (pairs_in) do_flush();
      for (int k = 0; k < K; ++k) { const int kk = k_first + c * K + k; if (kk < nq) out[kk] += total[k]; }
    }
    slab.clear();
  };
  for (int k_first = 0; k_first < nq; k_first += C * K) {
    const double mid_offset = v.centre ? (K / 2 - 0.5) : 0.5;
    const fmath::FloatPair mid0 = fmath::split(q0 + (k_first + mid_offset) * dq);
    const fmath::FloatPair half_dq = fmath::split(0.5 * dq);
    const fmath::FloatPair chunk_dq = fmath::split(K * dq);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        const double dx = atoms[i].x - atoms[j].x, dy = atoms[i].y - atoms[j].y, dz = atoms[i].z - atoms[j].z;
        const float wij = static_cast<float>(atoms[i].w) * static_cast<float>(atoms[j].w);
        const auto term = fmath::pair_term(std::fma(dx, dx, std::fma(dy, dy, dz * dz)), wij,
                                           dither::pair_hash(std::uint32_t(i), std::uint32_t(j)));
        Start st;
        starts<K, C>(v.centre, mid0, half_dq, chunk_dq, term, st.t, st.u, st.lambda, st.mirror);
        st.amp = term.amp;
        slab.push_back(st);
        if (slab.size() == kSlab) flush(k_first);
      }
    if (!slab.empty()) flush(k_first);
  }
  return out;
}

AtomBlock fcc_sphere(double a, double radius) {
  LatticeOptions lattice;
  lattice.type = LatticeType::fcc;
  lattice.a = a;
  lattice.elements = {"Au"};
  const Structure s = cut_crystal(make_lattice(lattice), Sphere{radius});
  AtomBlock b;
  for (const auto& at : s.atoms) {
    b.x.push_back(at.position.x), b.y.push_back(at.position.y), b.z.push_back(at.position.z);
    b.w.push_back(1.0);
  }
  return b;
}

int main(int argc, char** argv) {
  // args: case (au|fcc) K C flush rec_double acc_double centre kahan
  const std::string cs = argv[1];
  const int K = std::atoi(argv[2]), C = std::atoi(argv[3]);
  Variant v;
  v.flush = std::atoi(argv[4]);
  v.rec_double = std::atoi(argv[5]);
  v.acc_double = std::atoi(argv[6]);
  v.centre = std::atoi(argv[7]);
  v.kahan_t = std::atoi(argv[8]);
  v.group = argc > 9 ? std::atoi(argv[9]) : 1;
  AtomBlock block;
  std::vector<double> q;
  if (cs == "count") {
    for (double r = 24.0; r < 26.5; r += 0.05) std::printf("R=%.2f N=%zu\n", r, fcc_sphere(3.78752, r).size());
    return 0;
  }
  if (cs == "au") {
    block = fcc_sphere(4.078, 20.0);
    for (int k = 0; k < 1151; ++k) q.push_back(0.5 + 0.01 * k);
  } else {
    const double r = std::atof(getenv("FCC_R") ? getenv("FCC_R") : "15.3");
    block = fcc_sphere(3.78752, r);
    // $FCC_NQ: only the grid's first points (the low-angle fringes), same spacing.
    const int nq = 3961, n_used = getenv("FCC_NQ") ? std::atoi(getenv("FCC_NQ")) : nq;
    for (int k = 0; k < n_used; ++k) q.push_back(0.589 + (14.05 - 0.589) * k / (nq - 1));
  }
  const int nq = int(q.size());
  const double dq = q[1] - q[0];
  const Origin o = block_bounds(block, block).centre;
  const auto atoms = pack_atoms<double>(block, o);
  std::vector<double> ref(nq, 0.0);
  const std::string cache = "debye_f32_accumulation_ref_" + cs + "_" + std::to_string(block.size()) + "_" + std::to_string(q.size()) + ".bin";
  {
    std::ifstream f(cache, std::ios::binary);
    if (f) f.read(reinterpret_cast<char*>(ref.data()), nq * sizeof(double));
    else {
      exact_pair_sums_cpu(block, block, PairSet::triangle, q, ref, Precision::float64, 0);
      std::ofstream g(cache, std::ios::binary);
      g.write(reinterpret_cast<const char*>(ref.data()), nq * sizeof(double));
    }
  }
  std::vector<double> w;
#define RUN(KK, CC) if (K == KK && C == CC) w = emulate<KK, CC>(atoms, q[0], dq, nq, v);
  RUN(48, 16) RUN(32, 16) RUN(32, 24) RUN(24, 32) RUN(24, 16) RUN(64, 12)
  if (w.empty()) { std::fprintf(stderr, "no K,C\n"); return 1; }
  const std::size_t N = block.size();
  std::vector<double> s(nq), sr(nq);
  double mx = 0;
  for (int k = 0; k < nq; ++k) { s[k] = N + 2 * w[k] / q[k]; sr[k] = N + 2 * ref[k] / q[k]; mx = std::max(mx, std::abs(sr[k])); }
  double err = 0; int kw = 0;
  for (int k = 0; k < nq; ++k) if (std::abs(sr[k]) > 1e-3 * mx) { const double e = std::abs(s[k] - sr[k]) / std::abs(sr[k]); if (e > err) err = e, kw = k; }
  std::printf("%s N=%zu K=%d C=%d flush=%d rec_double=%d acc_double=%d centre=%d kahan_t=%d group=%d: max rel err %.3e at Q=%.4f (S/Smax %.2e)\n",
              cs.c_str(), N, K, C, v.flush, v.rec_double, v.acc_double, v.centre, v.kahan_t, v.group, err, q[kw], sr[kw] / mx);
  return 0;
}
