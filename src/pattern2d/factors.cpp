// Per-pixel scattering factors (factors.hpp).
#include "pattern2d/factors.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/omp_errors.hpp"

namespace nanoscatter::pattern2d {

namespace {

// One species' bare factor as a function of |q|: the general call, or a
// cheaper exact form where the radiation allows (scattering_factor looks the
// species up by name on every call, ~0.5 µs).
class SpeciesFactor {
 public:
  SpeciesFactor(Radiation radiation, const Species& species, const FactorOptions& bare)
      : radiation_(radiation), species_(species), bare_(bare) {
    if (radiation == Radiation::neutron) {
      constant_ = scattering_factor(radiation, species, 0.0, bare);  // b does not depend on |q|
    } else if (radiation == Radiation::xray) {
      wk_ = waasmaier_kirfel_coefficients(species.element, species.charge);
      // f = f0(|q|) + f' + i f'': the anomalous part does not depend on |q|.
      constant_ = scattering_factor(radiation, species, 0.0, bare) - xray_f0(species.element, species.charge, 0.0);
    }
  }

  std::complex<double> operator()(double q) const {
    switch (radiation_) {
      case Radiation::neutron: return constant_;
      case Radiation::xray: {
        // Waasmaier & Kirfel (1995): f0(s) = Σ a_i exp(−b_i s²) + c, s = |q|/4π.
        const double s = q / (4 * std::numbers::pi);
        double f0 = wk_.c;
        for (int i = 0; i < 5; ++i) f0 += wk_.a[i] * std::exp(-wk_.b[i] * s * s);
        return f0 + constant_;
      }
      case Radiation::electron: break;
    }
    return scattering_factor(radiation_, species_, q, bare_);
  }

 private:
  Radiation radiation_;
  Species species_;
  FactorOptions bare_;
  WaasmaierKirfelCoefficients wk_;
  std::complex<double> constant_ = 0;
};

}  // namespace

PixelFactors pixel_factors(const std::vector<Species>& species, const DetectorGrid& grid, Radiation radiation,
                           const FactorOptions& options, double scale) {
  const std::size_t np = grid.q.size(), ns = species.size();
  FactorOptions bare = options;
  bare.debye_waller = false;
  double q_largest = 0;
#pragma omp parallel for reduction(max : q_largest)
  for (std::size_t p = 0; p < np; ++p) q_largest = std::max(q_largest, grid.q_magnitude(p));
  std::vector<SpeciesFactor> factor;
  for (const Species& s : species) {
    scattering_factor(radiation, s, q_largest, bare);  // fails here for unusable species or |q|
    factor.emplace_back(radiation, s, bare);
  }
  PixelFactors out;
  out.f.assign(ns * np, 0.0);
  out.t.assign(ns * np, 1.0);
  OmpErrors errors;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t r = 0; r < grid.rows; ++r) {
    errors.capture([&] {
      for (std::size_t c = 0; c < grid.cols; ++c) {
        const std::size_t p = r * grid.cols + c;
        for (std::size_t s = 0; s < ns; ++s) {
          if (grid.polar && c > 0) {  // same ring as the previous pixel
            out.f[s * np + p] = out.f[s * np + p - 1];
            out.t[s * np + p] = out.t[s * np + p - 1];
            continue;
          }
          const double qm = grid.polar ? grid.row_axis[r] : grid.q_magnitude(p);
          out.f[s * np + p] = scale * factor[s](qm);
          if (options.debye_waller) out.t[s * np + p] = debye_waller(species[s].b_iso, qm);
        }
      }
    });
  }
  errors.rethrow();
  return out;
}

}  // namespace nanoscatter::pattern2d
