// Taylor-corrected Debye sums from pair histograms (histogram_intensity.hpp).
#include "debye/histogram_intensity.hpp"

#include <omp.h>

#include <algorithm>
#include <vector>

#include "core/simd_trig.hpp"
#include "core/uninitialized_vector.hpp"
#include "debye/sinc_taylor.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::debye {

UninitVector<BinRecord> nonempty_bins(std::span<const PairHistogram* const> hists, std::vector<std::size_t>& ends) {
  constexpr std::size_t kChunk = std::size_t(1) << 14;  // bins per chunk
  struct Chunk {
    const PairHistogram* h;
    std::size_t begin, end;
  };
  std::vector<Chunk> chunks;  // every histogram's, in order: one pass for all
  std::vector<std::size_t> chunk_end;  // one past histogram h's chunks
  for (const PairHistogram* h : hists) {
    for (std::size_t k = 0; k < h->count.size(); k += kChunk)
      chunks.push_back({h, k, std::min(h->count.size(), k + kChunk)});
    chunk_end.push_back(chunks.size());
  }
  const auto empty = [](const PairHistogram& h, std::size_t k) {
    return h.count[k] == 0 && h.sum_d[k] == 0 && h.sum_d2[k] == 0;
  };
  std::vector<std::size_t> at(chunks.size() + 1, 0);  // first record of each chunk
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (std::size_t c = 0; c < chunks.size(); ++c) {
      std::size_t n = 0;
      for (std::size_t k = chunks[c].begin; k < chunks[c].end; ++k) n += empty(*chunks[c].h, k) ? 0 : 1;
      at[c + 1] = n;
    }
#pragma omp single
    for (std::size_t c = 0; c < chunks.size(); ++c) at[c + 1] += at[c];
  }
  UninitVector<BinRecord> out(at.back());
#pragma omp parallel for schedule(static)
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    const PairHistogram& h = *chunks[c].h;
    std::size_t s = at[c];
    for (std::size_t k = chunks[c].begin; k < chunks[c].end; ++k)
      if (!empty(h, k)) out[s++] = {(double(k) + 0.5) * h.bin_width, h.count[k], h.sum_d[k], h.sum_d2[k]};
  }
  ends.clear();
  for (const std::size_t c : chunk_end) ends.push_back(at[c]);
  return out;
}

BinArrays bin_arrays(const PairHistogram& h) {
  BinArrays b;
  const PairHistogram* one[] = {&h};
  std::vector<std::size_t> ends;
  for (const BinRecord& rec : nonempty_bins(one, ends)) {
    b.r.push_back(rec.r);
    b.n.push_back(rec.n);
    b.m1.push_back(rec.m1);
    b.m2.push_back(rec.m2);
  }
  return b;
}

void histogram_sinc_sums(const PairHistogram& hist, std::span<const double> q,
                         std::span<double> out, BinRule rule, int threads) {
  bin_sinc_sums(bin_arrays(hist), q, out, rule, threads);
}

void bin_sinc_sums(const BinArrays& bins, std::span<const double> q, std::span<double> out, BinRule rule,
                   int threads) {
  if (out.size() != q.size())
    fail("histogram_sinc_sums: out has ", out.size(), " entries for ", q.size(), " Q points");
  const std::size_t nb = bins.r.size();
  if (nb == 0) return;
  const double* r = bins.r.data();
  const double* n = bins.n.data();
  const double* m1 = bins.m1.data();
  const double* m2 = bins.m2.data();
  const double t = rule == BinRule::taylor2 ? 1.0 : 0.0;
  const int nthreads = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel for num_threads(nthreads) schedule(dynamic, 4)
  for (std::size_t k = 0; k < q.size(); ++k) {
    const double qk = q[k];
    double sum = 0;
#pragma omp simd reduction(+ : sum)
    for (std::size_t b = 0; b < nb; ++b) {
      const double u = qk * r[b];
      double s, c;
      trig::sincos(u, s, c);
      sum += sinc_taylor_term(qk, u, s, c, n[b], m1[b], m2[b], t);
    }
    out[k] += sum;
  }
}

}  // namespace nanoscatter::debye
