// The iterative solvers are written once against this interface; the CPU
// (OpenMP + FFTW) and GPU (cuFFT + CUB, every vector resident on the device)
// backends implement it. Vectors are handles owned by the backend, complex
// double in either precision; scalars travel as complex<double>. In single
// (mixed) precision only the FFT convolution of matvec() runs in float32;
// matvec_exact() is the float64 product the driver checks the true residual
// with (iterative.cpp). The matrix is
//   A = I + S D S   (complex symmetric, A^T = A),
// so A^H y = conj(A conj(y)).
#pragma once
#include <complex>
#include <vector>

namespace nanoscatter::dda {

using cplx = std::complex<double>;

class SolverBackend {
 public:
  virtual ~SolverBackend() = default;
  // Length of every vector (3 × solver dipoles).
  virtual std::size_t length() const = 0;
  // A new zeroed vector; handles are small integers, reused after release().
  virtual int create() = 0;
  virtual void release(int v) = 0;
  virtual void upload(int v, const std::vector<cplx>& host) = 0;
  virtual std::vector<cplx> download(int v) = 0;
  virtual void copy(int dst, int src) = 0;
  virtual void set_zero(int v) = 0;
  // out = A in (hermitian: A^H in); when norm2 is given it receives |out|².
  // In the working precision: float32 FFTs in single (mixed) precision.
  virtual void matvec(int in, int out, bool hermitian, double* norm2 = nullptr) = 0;
  // The same product with float64 FFTs (the reference for the true residual).
  virtual void matvec_exact(int in, int out, bool hermitian, double* norm2 = nullptr) = 0;
  // True when matvec() is less accurate than matvec_exact() (float32 FFTs).
  virtual bool matvec_is_approximate() const = 0;
  // From now on matvec() = matvec_exact() (the driver's float64 fallback).
  virtual void use_exact_products() = 0;
  // dst = a x + b y (+ c z when z ≥ 0); dst may be any of x, y, z. When
  // norm2 is given it receives |dst|².
  virtual void lincomb(int dst, cplx a, int x, cplx b, int y, cplx c = 0, int z = -1,
                       double* norm2 = nullptr) = 0;
  virtual cplx dot_u(int x, int y) = 0;  // Σ x_i y_i (bilinear form of the complex-symmetric methods)
  virtual cplx dot_c(int x, int y) = 0;  // Σ conj(x_i) y_i
  virtual double norm2(int x) = 0;       // Σ |x_i|²
  // Σ x_i² and Σ |x_i|² in one pass.
  virtual void dot_u_self_and_norm2(int x, cplx* dot, double* norm2) = 0;
  virtual int matvec_count() const = 0;        // every product (matvec and matvec_exact)
  virtual int exact_matvec_count() const = 0;  // those of matvec_exact
};

}  // namespace nanoscatter::dda
