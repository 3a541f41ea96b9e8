// The CPU's per-move kernels on the half-plane spectrum (float64,
// structure of arrays so the inner loop over l vectorises): Δ of the χ²
// sums for a trial move without writing F, and the rank-1 update of F once
// a move is accepted. See spectrum.hpp (ΔF) and chi2.hpp (sums).
#pragma once
#include <complex>
#include <vector>

#include "rmc/chi2.hpp"
#include "rmc/spectrum.hpp"

namespace nanoscatter::rmc {

struct CpuSpectrum {
  HalfPlane plane;
  std::vector<double> re, im;
  void assign(const std::vector<std::complex<double>>& f);
  std::vector<std::complex<double>> to_complex() const;
};

// Column factors c1[l] = ω^{l y1}, c0[l] = ω^{l y0} of one move, and the
// rows' x0, x1: computed once per trial, used by both kernels.
struct MoveFactors {
  int x0 = 0, x1 = 0;
  std::vector<double> c1re, c1im, c0re, c0im;
  void prepare(const std::vector<std::complex<double>>& tw, int size, int from, int to);
};

ChiSums delta_sums_cpu(const CpuSpectrum& f, const FoldedTarget& target, const std::vector<std::complex<double>>& tw,
                       const MoveFactors& m);
void apply_move_cpu(CpuSpectrum& f, const std::vector<std::complex<double>>& tw, const MoveFactors& m);

}  // namespace nanoscatter::rmc
