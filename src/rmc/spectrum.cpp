// Twiddles, the exact half-plane spectrum (FFTW) and the float64 ΔF of a move.
#include "rmc/spectrum.hpp"

#include <fftw3.h>

#include <memory>
#include <numbers>

#include "core/fftw_lock.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::rmc {

std::vector<std::complex<double>> twiddles(int size) {
  std::vector<std::complex<double>> tw(static_cast<std::size_t>(size));
  for (int m = 0; m < size; ++m) {
    // Angles in [−π, π] keep sin/cos at full float64 accuracy for every m.
    const int mm = 2 * m > size ? m - size : m;
    const double angle = -2.0 * std::numbers::pi * double(mm) / double(size);
    tw[std::size_t(m)] = {std::cos(angle), std::sin(angle)};
  }
  return tw;
}

std::vector<std::complex<double>> exact_spectrum(const std::vector<std::uint8_t>& occupancy, int size) {
  const HalfPlane plane(size);
  const std::size_t n_sites = std::size_t(size) * std::size_t(size);
  if (occupancy.size() != n_sites) fail("exact_spectrum: occupancy has ", occupancy.size(), " sites, expected ", n_sites);
  struct FftwFree {
    void operator()(void* p) const { fftw_free(p); }
  };
  std::unique_ptr<double, FftwFree> in(fftw_alloc_real(n_sites));
  std::unique_ptr<fftw_complex, FftwFree> out(fftw_alloc_complex(plane.pixels()));
  if (!in || !out) fail("exact_spectrum: out of memory for a ", size, "² FFT");
  const fftw_plan plan =
      with_fftw_planner([&] { return fftw_plan_dft_r2c_2d(size, size, in.get(), out.get(), FFTW_ESTIMATE); });
  if (!plan) fail("exact_spectrum: FFTW could not plan a ", size, "² transform");
  for (std::size_t s = 0; s < n_sites; ++s) in.get()[s] = occupancy[s] ? 1.0 : 0.0;
  fftw_execute(plan);
  with_fftw_planner([&] { fftw_destroy_plan(plan); });
  std::vector<std::complex<double>> f(plane.pixels());
  for (std::size_t p = 0; p < f.size(); ++p) f[p] = {out.get()[p][0], out.get()[p][1]};
  return f;
}

std::vector<std::complex<double>> move_delta(const std::vector<std::complex<double>>& tw, int x0, int y0,
                                             int x1, int y1) {
  const int n = int(tw.size());
  const HalfPlane plane(n);
  std::vector<std::complex<double>> d(plane.pixels());
  for (int k = 0; k < n; ++k)
    for (int l = 0; l < plane.width; ++l) {
      const auto e1 = tw[std::size_t((std::int64_t(k) * x1 + std::int64_t(l) * y1) % n)];
      const auto e0 = tw[std::size_t((std::int64_t(k) * x0 + std::int64_t(l) * y0) % n)];
      d[std::size_t(k) * std::size_t(plane.width) + std::size_t(l)] = e1 - e0;
    }
  return d;
}

}  // namespace nanoscatter::rmc
