// What ADDA decides before solving (make_particle.c InitShape/MakeParticle,
// param.c): the grid from --grid, --size/--eq-rad and --dpl; the dipole size
// with the volume correction (the dipoles' total volume equals the particle's
// exact volume when that is known analytically); the default θ grid and
// iteration limit.
#include <algorithm>
#include <climits>
#include <cmath>
#include <omp.h>

#include "dda/backends.hpp"
#include "dda/physics.hpp"
#include "nanoscatter/constants.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/resource_guard.hpp"

namespace nanoscatter {

namespace {

constexpr int kDefaultGrid = 16;      // ADDA DEF_GRID (jagged = 1)
constexpr int kMinAutoGrid = 16;      // ADDA MIN_AUTO_GRID: smallest grid set from the default dpl

// Particle volume / (size along x)³, as ADDA's volume_ratio (0: unknown).
double shape_volume_ratio(const DdaShape& s) {
  const auto p = [&](std::size_t i) { return i < s.params.size() ? s.params[i] : 1.0; };
  switch (s.kind) {
    case DdaShapeKind::sphere:
    case DdaShapeKind::coated: return kPi / 6;
    case DdaShapeKind::ellipsoid: return kPi / 6 * p(0) * p(1);
    case DdaShapeKind::cylinder: return kPi / 4 * p(0);
    case DdaShapeKind::box: return s.params.size() == 2 ? p(0) * p(1) : 1.0;
    case DdaShapeKind::capsule: return kPi / 4 * p(0) + kPi / 6;
    case DdaShapeKind::file: return 0;
  }
  return 0;
}

// The solve's memory (estimate_dda_memory) against the device's free
// memory or the host's available memory.
void require_solve_memory(const DdaSetup& s, const DdaOptions& o, const Where& at) {
  const double needed = static_cast<double>(estimate_dda_memory(s, o).total());
  const std::string what =
      detail::concat("the solve on the FFT grid ", s.fft_grid[0], "×", s.fft_grid[1], "×", s.fft_grid[2]);
  if (o.compute.device == Device::gpu)
    require_device_memory(at, what, needed);
  else
    require_host_memory(at, what, needed);
}

}  // namespace

DdaSetup make_dda_setup(const DdaOptions& o) {
  o.validate();
  DdaSetup s;
  double max_m2 = 0;
  for (const auto& m : o.m) max_m2 = std::max(max_m2, std::norm(m));
  const double dpl_default = 10 * std::sqrt(max_m2);  // ADDA: 10 |m|max dipoles per wavelength
  double size_x = o.size.value_or(0);  // 0: from the dipoles below
  const bool file = o.shape.kind == DdaShapeKind::file;
  const double vr = shape_volume_ratio(o.shape);
  if (o.eq_rad && vr > 0) size_x = std::cbrt(4 * kPi / 3 / vr) * *o.eq_rad;
  if (file) {
    s.geometry = read_adda_shape_file(o.shape.file);
    if (!o.grid.empty() && o.grid[0] != s.geometry.box[0])
      fail_at({o.shape.file.string(), 0, "grid", true}, "the shape file sets the grid (", s.geometry.box[0],
              " along x); --grid ", o.grid[0], " differs");
  } else {
    int grid = o.grid.empty() ? 0 : o.grid[0];
    if (grid == 0) {
      if (size_x > 0) {
        const double dpl = o.dpl.value_or(dpl_default);
        const double need = std::ceil(size_x * dpl / o.lambda);
        if (need > 65535) fail_option("grid", "the derived grid (", need, ") is too large");
        grid = static_cast<int>(need);
        if (!o.dpl) grid = std::max(grid, kMinAutoGrid);
      } else {
        grid = kDefaultGrid;
      }
    }
    const std::array<int, 2> grid_yz = o.grid.size() == 3 ? std::array<int, 2>{o.grid[1], o.grid[2]}
                                                          : std::array<int, 2>{0, 0};
    // The solve's arrays on the FFT grid depend on the box alone: checked
    // against the device's (or host's) memory before the scan makes the
    // dipoles, which takes minutes for a box that cannot be solved anyway.
    const auto check_box = [&](const std::array<int, 3>& box) {
      DdaSetup bound;  // no dipoles: the FFT grid's share of the estimate, a lower bound
      bound.geometry.box = box;
      bound.fft_grid = dda::fft_grid_for(box);
      require_solve_memory(bound, o, {"", 0, "grid", true});
    };
    s.geometry = make_dda_shape(o.shape, grid, grid_yz, check_box);
  }
  const DdaGeometry& g = s.geometry;
  if (g.materials > static_cast<int>(o.m.size()))
    fail_at({file ? o.shape.file.string() : "", 0, "m", true}, "only ", o.m.size(),
            " refractive indices are given; the shape has ", g.materials, " domains");
  const double n = static_cast<double>(g.size());
  if (n == 0) fail_option("shape", "all dipoles of the scatterer are void");
  const bool volcor = o.volume_correction && vr > 0;
  double dpl = 0;
  if (size_x <= 0) {
    if (o.eq_rad)  // shape file: the dipoles' volume gives the equivalent radius
      dpl = o.lambda * std::cbrt(3 * n / (4 * kPi)) / *o.eq_rad;
    else
      dpl = o.dpl.value_or(dpl_default);
    size_x = volcor ? o.lambda * std::cbrt(n / vr) / dpl : o.lambda * g.box[0] / dpl;
  } else {
    dpl = volcor ? o.lambda * std::cbrt(n / vr) / size_x : o.lambda * g.box[0] / size_x;
  }
  s.dpl = dpl;
  s.dipole_size = o.lambda / dpl;
  s.size_x = size_x;
  s.a_eq = std::cbrt(3 * n / (4 * kPi)) * s.dipole_size;
  s.fft_grid = dda::fft_grid_for(g.box);
  // Everything the solve allocates, before the plan allocates it. The grid
  // comes from --grid or from the extent of a shape file's dipoles.
  require_solve_memory(s, o, file ? Where{o.shape.file.string(), 0, "shape_file", true} : Where{"", 0, "grid", true});
  const double box_volume = static_cast<double>(g.box[0]) * g.box[1] * g.box[2];
  s.maxiter = o.maxiter ? *o.maxiter : static_cast<int>(std::min<double>(INT_MAX, 3 * box_volume));
  // ADDA's heuristic for the number of θ points over 0..180°
  s.ntheta = o.ntheta > 0 ? o.ntheta
                          : box_volume < 1000 ? 91 : box_volume < 10000 ? 181 : box_volume < 100000 ? 361 : 721;
  return s;
}

DdaMemoryEstimate estimate_dda_memory(const DdaSetup& s, const DdaOptions& o) {
  // Vectors and the FFT work arrays are complex double in either precision
  // (single = float32 FFTs in the double arrays' memory); single adds the
  // float32 copy of the interaction FFT.
  const bool single = o.compute.precision == Precision::float32;
  const std::size_t cbytes = 16;
  const auto& b = s.geometry.box;
  const auto& gr = s.fft_grid;
  std::size_t solver = 0;
  for (std::size_t i = 0; i < s.geometry.size(); ++i)
    if (o.m[s.geometry.material[i]] != std::complex<double>(1, 0)) ++solver;
  DdaMemoryEstimate e;
  const std::size_t dsize = static_cast<std::size_t>(gr[0]) * (gr[1] / 2 + 1) * (gr[2] / 2 + 1) * 6;
  e.interaction_bytes = dsize * (single ? 16 + 8 : 16);
  // vectors: b, x, r, the true residual t and the method's own (QMR-CS 5, Bi-CGSTAB 5, BiCG-CS 2, CGNR 2)
  int nvec = 4;
  switch (o.solver) {
    case DdaSolver::qmr_cs:
    case DdaSolver::bicgstab: nvec += 5; break;
    case DdaSolver::bicg_cs:
    case DdaSolver::cgnr: nvec += 2; break;
  }
  e.vector_bytes = static_cast<std::size_t>(nvec) * 3 * solver * cbytes;
#if NANOSCATTER_HAVE_CUDA
  if (o.compute.device == Device::gpu) {
    const std::size_t total = dda::cuda_memory_bytes(b, gr, solver, nvec, o.compute.precision);
    e.fft_bytes = total - e.interaction_bytes - e.vector_bytes;
    return e;
  }
#endif
  const std::size_t threads = o.compute.threads > 0 ? o.compute.threads : omp_get_max_threads();
  e.fft_bytes = (3ull * gr[0] * b[1] * b[2] + 3ull * gr[1] * gr[2] * threads) * cbytes;
  return e;
}

}  // namespace nanoscatter
