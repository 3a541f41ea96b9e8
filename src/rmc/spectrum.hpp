// The model's Fourier transform F = FFT2(A) on the half plane, and its
// rank-1 update for a move.
//
// A is real, so F[−k][−l] = conj F[k][l] and |F|² is centrosymmetric: only
// the half plane l = 0 … N/2 (W = ⌊N/2⌋ + 1 columns, FFTW's r2c layout,
// row-major N × W) is stored and evaluated; chi2.hpp folds the target onto
// it. A move of a particle from (x0, y0) to (x1, y1) changes two entries of
// A, hence
//   ΔF[k][l] = ω^{k x1} ω^{l y1} − ω^{k x0} ω^{l y0},   ω = exp(−2πi/N),
// a difference of two rank-1 outer products of DFT columns and rows. With
// row factors a_s[k] = ω^{k x_s} and column factors c_s[l] = ω^{l y_s}
// (from one twiddle table ω^m, m = k·x mod N exactly), ΔF = a1 c1 − a0 c0.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace nanoscatter::rmc {

struct HalfPlane {
  int size = 0;   // N
  int width = 0;  // W = N/2 + 1
  explicit HalfPlane(int n = 0) : size(n), width(n / 2 + 1) {}
  std::size_t pixels() const { return std::size_t(size) * std::size_t(width); }
};

// ω^m = exp(−2πi m/N), m = 0 … N−1, in float64.
std::vector<std::complex<double>> twiddles(int size);

// F on the half plane from an N×N occupancy (FFTW r2c, float64).
std::vector<std::complex<double>> exact_spectrum(const std::vector<std::uint8_t>& occupancy, int size);

// ΔF of the move (x0, y0) → (x1, y1) on the half plane, float64 (tests).
std::vector<std::complex<double>> move_delta(const std::vector<std::complex<double>>& tw, int x0, int y0,
                                             int x1, int y1);

}  // namespace nanoscatter::rmc
