// Analysis of fitted structures (rmc.hpp): model image, brute-force χ²,
// radial averages and the pair-correlation function, all in float64.
#include <fftw3.h>

#include <cmath>
#include <memory>

#include "core/fftw_lock.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/rmc.hpp"
#include "rmc/chi2.hpp"
#include "rmc/spectrum.hpp"

namespace nanoscatter {

std::vector<double> rmc_model_intensity(const std::vector<std::uint8_t>& occupancy, std::size_t n, double scale) {
  const int size = int(n);
  const auto f = rmc::exact_spectrum(occupancy, size);
  const rmc::HalfPlane plane(size);
  std::vector<double> image(n * n);
  const int half = size / 2;
  for (int k = 0; k < size; ++k)
    for (int l = 0; l < size; ++l) {
      // Columns past the half plane are the conjugates of −q (|F|² is even).
      const std::size_t h = l < plane.width ? std::size_t(k) * std::size_t(plane.width) + std::size_t(l)
                                            : std::size_t((size - k) % size) * std::size_t(plane.width) + std::size_t(size - l);
      image[std::size_t((k + half) % size) * n + std::size_t((l + half) % size)] = scale * std::norm(f[h]);
    }
  return image;
}

double rmc_relative_chi2(const RmcTarget& target, const std::vector<double>& model_intensity, double fixed_scale) {
  if (model_intensity.size() != target.intensity.size()) fail("rmc_relative_chi2: image sizes differ");
  double s_pi = 0, s_ii = 0, s_pp = 0;
  for (std::size_t p = 0; p < model_intensity.size(); ++p) {
    const double t = target.intensity[p];
    if (std::isnan(t)) continue;
    s_pi += t * model_intensity[p];
    s_ii += model_intensity[p] * model_intensity[p];
    s_pp += t * t;
  }
  return rmc::relative_chi2(s_pi, s_ii, s_pp, fixed_scale);
}

std::vector<double> radial_average(const std::vector<double>& image, std::size_t n) {
  const std::size_t bins = n / 2 + 1;
  std::vector<double> sum(bins, 0.0), count(bins, 0.0);
  const double c = double(n / 2);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t col = 0; col < n; ++col) {
      const double v = image[r * n + col];
      if (std::isnan(v)) continue;
      const auto b = std::size_t(std::floor(std::hypot(double(r) - c, double(col) - c) + 0.5));
      if (b >= bins) continue;
      sum[b] += v;
      count[b] += 1;
    }
  for (std::size_t b = 0; b < bins; ++b) sum[b] = count[b] > 0 ? sum[b] / count[b] : std::nan("");
  return sum;
}

PairCorrelation pair_correlation(const std::vector<std::uint8_t>& occupancy, std::size_t n) {
  const int size = int(n);
  const rmc::HalfPlane plane(size);
  auto f = rmc::exact_spectrum(occupancy, size);
  double particles = 0;
  for (auto o : occupancy) particles += o ? 1 : 0;
  // Autocorrelation C(Δ) = Σ_x A(x) A(x + Δ) = IFFT(|F|²); FFTW's c2r is
  // unnormalised, so its output is N²·C.
  struct FftwFree {
    void operator()(void* p) const { fftw_free(p); }
  };
  std::unique_ptr<fftw_complex, FftwFree> in(fftw_alloc_complex(plane.pixels()));
  std::unique_ptr<double, FftwFree> out(fftw_alloc_real(n * n));
  if (!in || !out) fail("pair_correlation: out of memory");
  const fftw_plan plan =
      with_fftw_planner([&] { return fftw_plan_dft_c2r_2d(size, size, in.get(), out.get(), FFTW_ESTIMATE); });
  if (!plan) fail("pair_correlation: FFTW could not plan a ", size, "² transform");
  for (std::size_t h = 0; h < plane.pixels(); ++h) {
    in.get()[h][0] = std::norm(f[h]);
    in.get()[h][1] = 0;
  }
  fftw_execute(plan);
  with_fftw_planner([&] { fftw_destroy_plan(plan); });
  const std::size_t bins = n / 2 + 1;
  std::vector<double> pairs(bins, 0.0), sites(bins, 0.0);
  for (int dx = 0; dx < size; ++dx)
    for (int dy = 0; dy < size; ++dy) {
      if (dx == 0 && dy == 0) continue;
      // Minimum-image distance on the periodic lattice.
      const int ex = std::min(dx, size - dx), ey = std::min(dy, size - dy);
      const auto b = std::size_t(std::floor(std::hypot(double(ex), double(ey)) + 0.5));
      if (b >= bins) continue;
      pairs[b] += out.get()[std::size_t(dx) * n + std::size_t(dy)] / double(n * n);
      sites[b] += 1;
    }
  const double density = particles / double(n * n);
  PairCorrelation g;
  for (std::size_t b = 1; b < bins; ++b) {
    g.r.push_back(double(b));
    g.g.push_back(sites[b] > 0 && particles > 0 ? pairs[b] / (particles * density * sites[b]) : std::nan(""));
  }
  return g;
}

}  // namespace nanoscatter
