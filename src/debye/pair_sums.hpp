// The Debye engine's inner kernels: sums over atom pairs of one species block
// (a "triangle", i < j within one species) or two ("rectangle", all i in A,
// j in B). Every backend (float64 reference, fast CPU, CUDA) implements the
// same functions; tests compare them with the reference.
#pragma once
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "nanoscatter/debye.hpp"
#include "nanoscatter/device.hpp"
#include "structure/species_split.hpp"

namespace nanoscatter::debye {

// Atoms of one species, structure-of-arrays, Å; w = occupancy weight.
using AtomBlock = AtomSoA;

// Which pairs a call covers.
enum class PairSet { triangle, rectangle };  // triangle: i<j within a (b is not read); rectangle: a × b

// out[k] += Σ_pairs w_i w_j sin(q_k r_ij) / r_ij.
// Division by q_k happens once per Q in the caller (DESIGN: sin(Qr)/r
// accumulated, divided by Q at the end). Pairs with r_ij = 0 contribute q_k
// (the limit), which keeps sinc(0) = 1 after the division.
void exact_pair_sums_reference(const AtomBlock& a, const AtomBlock& b, PairSet set,
                               std::span<const double> q, std::span<double> out);
void exact_pair_sums_cpu(const AtomBlock& a, const AtomBlock& b, PairSet set,
                         std::span<const double> q, std::span<double> out, Precision precision,
                         int threads);
#if NANOSCATTER_HAVE_CUDA
struct CudaDebyeOptions {
  Precision precision = Precision::float32;
  std::size_t max_device_memory = 0;  // 0: use up to half of the free memory
  // float32 exact, uniform Q grids: Q chunks (of 48 Q) per block sharing
  // one cache of pair starts, 8 or 16 (the slab kernel; on an H200 16 gave
  // 5.9e12 pair·Q/s and 8 5.6e12), or 0 for the per-thread kernel, whose
  // chunk is chunk_q: 32, 48 or 64 Q per thread (48 fastest, 4.0e12).
  int slab_chunks = 16;
  int chunk_q = 48;
  // float64 exact: Q per thread, 32 or 64 (uniform grids only), or 0 for
  // the default (64 on uniform grids of more than 32 Q; pair_sums_cuda.cu).
  int float64_chunk_q = 0;
  // Histograms: the fast kernel's bin code (DebyeOptions::histogram_mode).
  HistogramMode histogram_mode = HistogramMode::precise;
  // float32 exact: the Q points with Q·D below this (D the largest pair
  // distance of the call) are summed in float64. There, in the particle's
  // low-angle fringes, the intensity's minima are cancellations of terms
  // far larger than the result, and the kernel's float32 partial sums do
  // not hold 1e-5 of it (docs/debye.md; 0 turns the split off, for tests).
  double float32_min_qd = kFloat32MinQD;
  static constexpr double kFloat32MinQD = 100;
  // D for float32_min_qd, Å: the whole structure's largest pair distance
  // (a block of a large particle is smaller than its fringes' scale); 0: the
  // call's own atoms.
  double structure_size = 0;
};
void exact_pair_sums_cuda(const AtomBlock& a, const AtomBlock& b, PairSet set,
                          std::span<const double> q, std::span<double> out,
                          const CudaDebyeOptions& options);
#endif

// Histogram of pair distances with per-bin moments, so that I(Q) can be
// computed with a Taylor correction around each bin centre instead of
// placing every distance at the centre. Bin k covers [k·Δr, (k+1)·Δr);
// δ = r − centre_k.
struct PairHistogram {
  double bin_width = kDefaultBinWidth;
  std::vector<double> count;   // Σ w_i w_j
  std::vector<double> sum_d;   // Σ w_i w_j δ
  std::vector<double> sum_d2;  // Σ w_i w_j δ²
  // Bins that hold distances up to r_max (checked: a bin width that needs
  // too many is an input error), and the arrays grown to them.
  std::size_t bins_for(double r_max) const;
  void resize_for(double r_max);
  void add(const PairHistogram& other);
};

void pair_histogram_cpu(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                        int threads);
// The GPU's fast histogram (HistogramMode::fast) on the CPU: the same
// function of the atoms (histogram_fast_cpu.cpp says what that takes).
void pair_histogram_fast_cpu(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                             int threads);
#if NANOSCATTER_HAVE_CUDA
void pair_histogram_cuda(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist,
                         const CudaDebyeOptions& options);

// Several pair_histogram_cuda calls in a row, the host's layout of each
// block (k-d groups and shells, ~7 ms for 5·10⁵ atoms on 16 cores) overlapping the
// device's work on the block before. A histogram is complete once finish()
// has returned; the atoms of a block may go as soon as add() returns, the
// histograms must stay. The destructor waits for the device but drops a
// result that finish() did not collect.
class CudaHistogramQueue {
 public:
  CudaHistogramQueue();
  ~CudaHistogramQueue();
  CudaHistogramQueue(const CudaHistogramQueue&) = delete;
  CudaHistogramQueue& operator=(const CudaHistogramQueue&) = delete;
  void add(const AtomBlock& a, const AtomBlock& b, PairSet set, PairHistogram& hist, const CudaDebyeOptions& options);
  void finish();

 private:
  struct Pending;
  std::unique_ptr<Pending> pending_;  // the launched block, not yet collected
};
#endif

}  // namespace nanoscatter::debye
