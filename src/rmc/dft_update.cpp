// CPU kernels of one RMC move (dft_update.hpp).
#include "rmc/dft_update.hpp"

namespace nanoscatter::rmc {

void CpuSpectrum::assign(const std::vector<std::complex<double>>& f) {
  re.resize(f.size());
  im.resize(f.size());
  for (std::size_t p = 0; p < f.size(); ++p) {
    re[p] = f[p].real();
    im[p] = f[p].imag();
  }
}

std::vector<std::complex<double>> CpuSpectrum::to_complex() const {
  std::vector<std::complex<double>> f(re.size());
  for (std::size_t p = 0; p < f.size(); ++p) f[p] = {re[p], im[p]};
  return f;
}

void MoveFactors::prepare(const std::vector<std::complex<double>>& tw, int size, int from, int to) {
  x0 = from / size;
  x1 = to / size;
  const int y0 = from - x0 * size, y1 = to - x1 * size;
  const int width = size / 2 + 1;
  c1re.resize(std::size_t(width));
  c1im.resize(std::size_t(width));
  c0re.resize(std::size_t(width));
  c0im.resize(std::size_t(width));
  int m1 = 0, m0 = 0;  // l·y mod N, advanced by y per column
  for (int l = 0; l < width; ++l) {
    c1re[std::size_t(l)] = tw[std::size_t(m1)].real();
    c1im[std::size_t(l)] = tw[std::size_t(m1)].imag();
    c0re[std::size_t(l)] = tw[std::size_t(m0)].real();
    c0im[std::size_t(l)] = tw[std::size_t(m0)].imag();
    m1 += y1;
    if (m1 >= size) m1 -= size;
    m0 += y0;
    if (m0 >= size) m0 -= size;
  }
}

ChiSums delta_sums_cpu(const CpuSpectrum& f, const FoldedTarget& target, const std::vector<std::complex<double>>& tw,
                       const MoveFactors& m) {
  const int n = f.plane.size, width = f.plane.width;
  double d_pi = 0, d_ii = 0;
  int r1 = 0, r0 = 0;  // k·x mod N
  for (int k = 0; k < n; ++k) {
    const double a1re = tw[std::size_t(r1)].real(), a1im = tw[std::size_t(r1)].imag();
    const double a0re = tw[std::size_t(r0)].real(), a0im = tw[std::size_t(r0)].imag();
    const std::size_t row = std::size_t(k) * std::size_t(width);
    const double* fre = f.re.data() + row;
    const double* fim = f.im.data() + row;
    const double* a = target.a.data() + row;
    const double* w = target.w.data() + row;
    double row_pi = 0, row_ii = 0;
#pragma omp simd reduction(+ : row_pi, row_ii)
    for (int l = 0; l < width; ++l) {
      const double dre = a1re * m.c1re[l] - a1im * m.c1im[l] - (a0re * m.c0re[l] - a0im * m.c0im[l]);
      const double dim = a1re * m.c1im[l] + a1im * m.c1re[l] - (a0re * m.c0im[l] + a0im * m.c0re[l]);
      const double intensity = fre[l] * fre[l] + fim[l] * fim[l];
      const double d_int = 2.0 * (fre[l] * dre + fim[l] * dim) + dre * dre + dim * dim;
      row_pi += a[l] * d_int;
      row_ii += w[l] * d_int * (2.0 * intensity + d_int);
    }
    d_pi += row_pi;
    d_ii += row_ii;
    r1 += m.x1;
    if (r1 >= n) r1 -= n;
    r0 += m.x0;
    if (r0 >= n) r0 -= n;
  }
  return {d_pi, d_ii};
}

void apply_move_cpu(CpuSpectrum& f, const std::vector<std::complex<double>>& tw, const MoveFactors& m) {
  const int n = f.plane.size, width = f.plane.width;
  int r1 = 0, r0 = 0;
  for (int k = 0; k < n; ++k) {
    const double a1re = tw[std::size_t(r1)].real(), a1im = tw[std::size_t(r1)].imag();
    const double a0re = tw[std::size_t(r0)].real(), a0im = tw[std::size_t(r0)].imag();
    const std::size_t row = std::size_t(k) * std::size_t(width);
    double* fre = f.re.data() + row;
    double* fim = f.im.data() + row;
#pragma omp simd
    for (int l = 0; l < width; ++l) {
      fre[l] += a1re * m.c1re[l] - a1im * m.c1im[l] - (a0re * m.c0re[l] - a0im * m.c0im[l]);
      fim[l] += a1re * m.c1im[l] + a1im * m.c1re[l] - (a0re * m.c0im[l] + a0im * m.c0re[l]);
    }
    r1 += m.x1;
    if (r1 >= n) r1 -= n;
    r0 += m.x0;
    if (r0 >= n) r0 -= n;
  }
}

}  // namespace nanoscatter::rmc
