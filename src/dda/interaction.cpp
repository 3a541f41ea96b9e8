// Point-dipole interaction tensor and its FFT on the padded grid (ADDA
// interaction.c InterTerm_poi and fft.c InitDmatrix).
#include <fftw3.h>
#include <omp.h>

#include <cmath>

#include "core/fftw_lock.hpp"
#include "dda/physics.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::dda {

int smooth_fft_size(int n) {
  for (int c = n + (n % 2);; c += 2) {
    int y = c;
    for (int p : {2, 3, 5, 7})
      while (y % p == 0) y /= p;
    if (y == 1) return c;
  }
}

std::array<int, 3> fft_grid_for(const std::array<int, 3>& box) {
  return {smooth_fft_size(2 * box[0]), smooth_fft_size(2 * box[1]), smooth_fft_size(2 * box[2])};
}

std::array<cplx, 6> green_tensor(double k, double rx, double ry, double rz) {
  const double r = std::sqrt(rx * rx + ry * ry + rz * rz);
  const double q[3] = {rx / r, ry / r, rz / r};
  const double kr = k * r, kr2 = kr * kr;
  const cplx expval = std::polar(1.0 / (r * r * r), kr);  // e^{ikr}/r³
  const cplx diag(kr2 - 1, kr);
  const cplx outer(3 - kr2, -3 * kr);
  const double qq[6] = {q[0] * q[0], q[0] * q[1], q[0] * q[2], q[1] * q[1], q[1] * q[2], q[2] * q[2]};
  std::array<cplx, 6> g;
  for (int c = 0; c < 6; ++c) {
    const bool is_diag = c == 0 || c == 3 || c == 5;
    g[c] = expval * ((is_diag ? diag : cplx(0)) + outer * qq[c]);
  }
  return g;
}

namespace {

// In-place unnormalised forward 3D FFT of a gx × gy × gz array (x fastest),
// as OpenMP-parallel passes of batched 1D/2D FFTW plans.
void fft3d_forward(cplx* data, int gx, int gy, int gz, int nt) {
  auto* d = reinterpret_cast<fftw_complex*>(data);
  const int n2[2] = {gy, gx};
  const int nz[1] = {gz};
  fftw_plan slab = nullptr, zl = nullptr;
  with_fftw_planner([&] {
    slab = fftw_plan_many_dft(2, n2, 1, d, nullptr, 1, gx * gy, d, nullptr, 1, gx * gy, FFTW_FORWARD,
                              FFTW_ESTIMATE | FFTW_UNALIGNED);
    zl = fftw_plan_many_dft(1, nz, gx, d, nullptr, gx * gy, 1, d, nullptr, gx * gy, 1, FFTW_FORWARD,
                            FFTW_ESTIMATE | FFTW_UNALIGNED);
  });
  if (!slab || !zl) fail("FFTW planning failed for the interaction grid");
#pragma omp parallel for schedule(static) num_threads(nt)
  for (int z = 0; z < gz; ++z) {
    fftw_complex* p = d + static_cast<std::size_t>(z) * gx * gy;
    fftw_execute_dft(slab, p, p);
  }
#pragma omp parallel for schedule(static) num_threads(nt)
  for (int y = 0; y < gy; ++y) {
    fftw_complex* p = d + static_cast<std::size_t>(y) * gx;
    fftw_execute_dft(zl, p, p);
  }
  with_fftw_planner([&] {
    fftw_destroy_plan(slab);
    fftw_destroy_plan(zl);
  });
}

}  // namespace

InteractionFft interaction_fft(const std::array<int, 3>& box, const std::array<int, 3>& grid,
                               double k, double d, int threads) {
  const int nt = threads > 0 ? threads : omp_get_max_threads();
  const int gx = grid[0], gy = grid[1], gz = grid[2];
  InteractionFft out;
  out.grid = grid;
  out.dsize_y = gy / 2 + 1;
  out.dsize_z = gz / 2 + 1;
  const std::size_t ngrid = static_cast<std::size_t>(gx) * gy * gz;
  out.data.assign(static_cast<std::size_t>(gx) * out.dsize_y * out.dsize_z * 6, cplx(0));
  // displacement (in dipoles) stored at grid index i: i < box, or i − g for i > g − box
  auto disp = [](int i, int b, int g) -> int {
    if (i < b) return i;
    if (i > g - b) return i - g;
    return INT32_MIN;
  };
  std::vector<cplx> work(ngrid);
  const double scale = -1.0 / static_cast<double>(ngrid);
  for (int c = 0; c < 6; ++c) {
#pragma omp parallel for schedule(static) num_threads(nt)
    for (int z = 0; z < gz; ++z) {
      const int dz = disp(z, box[2], gz);
      for (int y = 0; y < gy; ++y) {
        const int dy = disp(y, box[1], gy);
        cplx* row = work.data() + (static_cast<std::size_t>(z) * gy + y) * gx;
        for (int x = 0; x < gx; ++x) {
          const int dx = disp(x, box[0], gx);
          if (dx == INT32_MIN || dy == INT32_MIN || dz == INT32_MIN || (dx == 0 && dy == 0 && dz == 0))
            row[x] = 0;
          else
            row[x] = green_tensor(k, dx * d, dy * d, dz * d)[c];
        }
      }
    }
    fft3d_forward(work.data(), gx, gy, gz, nt);
#pragma omp parallel for schedule(static) num_threads(nt)
    for (int x = 0; x < gx; ++x)
      for (int z = 0; z < out.dsize_z; ++z)
        for (int y = 0; y < out.dsize_y; ++y)
          out.data[((static_cast<std::size_t>(x) * out.dsize_z + z) * out.dsize_y + y) * 6 + c] =
              scale * work[(static_cast<std::size_t>(z) * gy + y) * gx + x];
  }
  return out;
}

}  // namespace nanoscatter::dda
