// Debye sums from pair-distance histograms: Σ_pairs w_i w_j sinc(Q r_ij)
// with each bin's pairs expanded about the bin centre r_k to second order,
//   Σ_{pairs in k} w h(r) ≈ n_k h(r_k) + m1_k h'(r_k) + ½ m2_k h''(r_k),
// h(r) = sin(Qr)/(Qr), n_k = Σw, m1_k = Σwδ, m2_k = Σwδ² (PairHistogram).
//
// Error bound (Taylor remainder): per pair of unit weight,
//   |h(r) − h(r_k) − δh'(r_k) − ½δ²h''(r_k)| ≤ sup|h'''|·|δ|³/6,
// |δ| ≤ Δr/2 and h''' = Q³ sinc'''(Qr) with sinc^(n)(u) = ∫₀¹ tⁿ cos^(n)(ut) dt,
// so |sinc'''| ≤ 1/4 and the remainder is ≤ Q³Δr³/192 (and for u = Qr ≥ 4,
// |sinc'''(u)| ≤ 1/u + 3/u² + 6/u³ + 6/u⁴ ≤ 2.3/u). The bin-centre rule
// (n_k h(r_k) only) errs by up to sup|h'|·Δr/2 ≤ QΔr/4 per pair instead.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "core/uninitialized_vector.hpp"
#include "debye/pair_sums.hpp"

namespace nanoscatter::debye {

enum class BinRule {
  taylor2,  // second-order Taylor correction about the bin centre (the engine's rule)
  centre,   // every pair at its bin centre (only for comparison in tests)
};

// A non-empty bin: centre r, n = Σw, m1 = Σwδ, m2 = Σwδ².
struct BinRecord {
  double r, n, m1, m2;
};

// The non-empty bins of each histogram in order, one histogram after the
// other (ends[h]: one past histogram h's), found and copied on all threads
// (execute() starts with this; serially it took ~5 ms for the three
// 2.6e5-bin histograms of a 10⁶-atom particle, longer than the GPU's sums).
UninitVector<BinRecord> nonempty_bins(std::span<const PairHistogram* const> hists, std::vector<std::size_t>& ends);

// The non-empty bins of one histogram as arrays (the sums' loop vectorises
// over them), for callers that sum the same histogram on many Q lists.
struct BinArrays {
  std::vector<double> r, n, m1, m2;
};
BinArrays bin_arrays(const PairHistogram& hist);
void bin_sinc_sums(const BinArrays& bins, std::span<const double> q, std::span<double> out,
                   BinRule rule = BinRule::taylor2, int threads = 0);

// out[k] += Σ_bins [n h + m1 h' + ½ m2 h''] at Q = q[k] (already the sinc,
// no division by Q left to do; Q = 0 gives Σ n).
void histogram_sinc_sums(const PairHistogram& hist, std::span<const double> q,
                         std::span<double> out, BinRule rule = BinRule::taylor2, int threads = 0);
#if NANOSCATTER_HAVE_CUDA
// The same on the GPU (float64; max_device_memory as CudaDebyeOptions, 0:
// half of the free memory).
void histogram_sinc_sums_cuda(const PairHistogram& hist, std::span<const double> q, std::span<double> out,
                              BinRule rule = BinRule::taylor2, std::size_t max_device_memory = 0);
// Several histograms in one launch: out[h][k] += the sums of *hists[h] at q[k].
void histogram_sinc_sums_cuda(const std::vector<const PairHistogram*>& hists, std::span<const double> q,
                              std::vector<std::vector<double>>& out, BinRule rule = BinRule::taylor2,
                              std::size_t max_device_memory = 0);
// The same for histograms kept as BinArrays (a model that sums them on many
// Q lists): out[h][k] += the sums of *arrays[h] at q[k], one launch.
void bin_sinc_sums_cuda(const std::vector<const BinArrays*>& arrays, std::span<const double> q,
                        std::vector<std::vector<double>>& out, BinRule rule = BinRule::taylor2,
                        std::size_t max_device_memory = 0);
#endif

}  // namespace nanoscatter::debye
