// Detector resolution (BornAgain 1.19's ResolutionFunction2DGaussian applied
// by ConvolutionDetectorResolution): the Gaussian's CDF is a product
// Φ(x/σx)Φ(y/σy), so the pixel-integrated 2D kernel is the product of two 1D
// kernels and the convolution runs along rows, then along columns.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "nanoscatter/constants.hpp"
#include "nanoscatter/gisaxs.hpp"

namespace nanoscatter::gisaxs {

namespace {

// Φ(x/σ) − Φ(x'/σ) without the cancellation of 1 − 1 far out in the tails.
double gaussian_mass(double from, double to, double sigma) {
  const double s = sigma * std::numbers::sqrt2;
  if (from >= 0) return 0.5 * (std::erfc(from / s) - std::erfc(to / s));
  if (to <= 0) return 0.5 * (std::erfc(-to / s) - std::erfc(-from / s));
  return 0.5 * (std::erf(to / s) - std::erf(from / s));
}

// Kernel over pixel offsets: positions of the axis centres relative to the
// middle one (BornAgain's mid = n/2), each integrated over one mean step.
std::vector<double> kernel(const std::vector<double>& centres, double sigma, std::size_t& mid) {
  const std::size_t n = centres.size();
  mid = n / 2;
  if (n < 2) return {1.0};
  const double step = std::abs(centres[n - 1] - centres[0]) / double(n - 1);
  std::vector<double> k(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = centres[i] - centres[mid];
    k[i] = gaussian_mass(x - 0.5 * step, x + 0.5 * step, sigma);
  }
  return k;
}

std::vector<double> pixel_numbers(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = double(i);
  return v;
}

std::vector<double> scaled(const std::vector<double>& v, double scale) {
  std::vector<double> out(v);
  for (double& x : out) x *= scale;
  return out;
}

}  // namespace

ResolutionConvolution make_resolution_convolution(const Detector& detector, const PixelGrid& pixels,
                                                  const DetectorResolution& resolution) {
  // Axis positions in the units of σ: pixel numbers (flat), rad (angular; the
  // grid's axes are in degrees), 1/nm (q grid).
  std::vector<double> x, y;
  if (std::holds_alternative<FlatDetector>(detector)) {
    x = pixel_numbers(pixels.cols);
    y = pixel_numbers(pixels.rows);
  } else if (std::holds_alternative<AngularDetector>(detector)) {
    x = scaled(pixels.horizontal, kDegree);
    y = scaled(pixels.vertical, kDegree);
  } else {
    x = pixels.horizontal;
    y = pixels.vertical;
  }
  ResolutionConvolution c;
  c.kernel_x = kernel(x, resolution.sigma_x, c.centre_x);
  c.kernel_y = kernel(y, resolution.sigma_y, c.centre_y);
  return c;
}

namespace {

// out[i] = Σ_j kernel[i − j + centre] in[j] along one axis of the image:
// `n` points spaced `stride` apart, `lines` such axes spaced `next` apart.
// Only the kernel's non-zero span is visited (its far tails underflow to 0).
void convolve_axis(const std::vector<double>& kernel, std::size_t centre, std::size_t n, std::size_t stride,
                   std::size_t lines, std::size_t next, const std::vector<double>& in, std::vector<double>& out) {
  std::ptrdiff_t lo = 0, hi = std::ptrdiff_t(kernel.size()) - 1;
  while (lo < hi && kernel[std::size_t(lo)] == 0) ++lo;
  while (hi > lo && kernel[std::size_t(hi)] == 0) --hi;
  const auto c0 = std::ptrdiff_t(centre);
  for (std::size_t line = 0; line < lines; ++line)
    for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(n); ++i) {
      // j = i + centre − k for k in [lo, hi], clipped to the image.
      const std::ptrdiff_t j_first = std::max<std::ptrdiff_t>(0, i + c0 - hi);
      const std::ptrdiff_t j_last = std::min<std::ptrdiff_t>(std::ptrdiff_t(n) - 1, i + c0 - lo);
      double sum = 0;
      for (std::ptrdiff_t j = j_first; j <= j_last; ++j)
        sum += kernel[std::size_t(i - j + c0)] * in[line * next + std::size_t(j) * stride];
      out[line * next + std::size_t(i) * stride] = sum;
    }
}

}  // namespace

void ResolutionConvolution::apply(std::size_t rows, std::size_t cols, std::vector<double>& image) const {
  if (empty()) return;
  std::vector<double> along_rows(rows * cols, 0.0);
  convolve_axis(kernel_x, centre_x, cols, 1, rows, cols, image, along_rows);
  convolve_axis(kernel_y, centre_y, rows, cols, cols, 1, along_rows, image);
}

}  // namespace nanoscatter::gisaxs
