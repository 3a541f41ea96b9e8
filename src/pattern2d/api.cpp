// Pattern2DPlan: species factorisation of the kinematic amplitude and
// dispatch of the phase-sum kernels (fast CPU, CUDA) over chunks of pixels.
//
// With species s (element, charge, B), bare factor f_s(|q|) and
// Debye–Waller factor T_s(|q|) = exp(−B_s s²), s = |q|/4π:
//   A(q) = Σ_s f_s T_s S_s(q),        S_s(q) = Σ_{j∈s} w_j exp(i q·r_j),
//   I(q) = |A(q)|² + Σ_s |f_s|² (Σ_{j∈s} w_j − T_s² Σ_{j∈s} w_j²).
// The second term is E|A|² − |E A|² for independent occupations n_j ∈ {0,1}
// (E n_j = E n_j² = w_j) and independent Gaussian displacements
// (E exp(iq·u_j) = T_j): the pair terms j ≠ k of E|A|² factorise into
// w_j w_k T_j T_k, the self terms are |f_j|² w_j exactly. It is the same
// expected intensity as the Debye engine's (see src/debye/api.cpp).
#include <algorithm>
#include <cmath>
#include <span>

#include "nanoscatter/error.hpp"
#include "nanoscatter/pattern2d.hpp"
#include "nanoscatter/progress.hpp"
#include "nanoscatter/stopwatch.hpp"
#include "pattern2d/factors.hpp"
#include "pattern2d/phase_sums.hpp"

namespace nanoscatter {

using pattern2d::AtomGroups;

namespace {

// Atom·pixel products per kernel call (the unit of progress): ~1 s of work
// on a 16-core CPU (~4.3e8 per second and core in float32, measured by
// bench/pattern2d_bench.cpp) and ~0.15 s on a GPU (~1.4e12 per second on one
// H200). Calls are cut along pixels only, so every call sees all atoms and
// the atoms' packing is paid once per call.
constexpr double kWorkPerCallCpu = 5e9;
constexpr double kWorkPerCallGpu = 2e11;
// Never fewer pixels per call than this: per-call costs (packing the atoms,
// uploading them) must stay small next to the sums.
constexpr std::size_t kMinPixelsPerCall = 4096;

void run_phase_sums(const Pattern2DOptions& o, std::span<const AtomGroups> groups, std::span<const Vec3> q,
                    std::span<std::complex<double>> out) {
  // Without CUDA, validate() has refused the GPU already (require_gpu).
  if (o.compute.device == Device::gpu) {
#if NANOSCATTER_HAVE_CUDA
    pattern2d::CudaPattern2DOptions c;
    c.precision = o.compute.precision;
    c.max_device_memory = o.compute.max_device_memory;
    pattern2d::phase_sums_cuda(groups, q, out, c);
    return;
#endif
  }
  pattern2d::phase_sums_cpu(groups, q, out, o.compute.precision, o.compute.threads);
}

}  // namespace

void Pattern2DOptions::validate() const {
  if (anomalous && radiation != Radiation::xray) fail_option("anomalous", "only used with X-rays (radiation xray)");
  // One energy: the wavelength's. A second one given here would be ignored.
  if (anomalous && factors.energy_kev)
    fail_option("anomalous", "takes the energy from the wavelength; factors.energy_kev must be unset");
  compute.validate();
  validate_work_share(share);
}

void Pattern2DResult::reduce(const parallel::Communicator& comm) {
  if (!comm.distributed()) return;
  // std::complex<double> is an array of two doubles ([complex.numbers]).
  const std::span<double> amplitude_parts(reinterpret_cast<double*>(amplitude.data()), 2 * amplitude.size());
  comm.merge_disjoint(intensity);
  comm.merge_disjoint(amplitude_parts);
  comm.broadcast(intensity);
  comm.broadcast(amplitude_parts);
}

struct Pattern2DPlan::Impl {
  Pattern2DOptions options;
  // The atoms' bounding-box centre, subtracted from every position before
  // grouping: each phase q·(r − r0) then carries a float64 rounding of
  // ~1e-16·|q|·(particle radius) instead of ~1e-16·|q|·|r|, which for a
  // particle 500 Å off the origin at |q| = 25 Å⁻¹ (~1e4 rad) was 1e-12 rad per
  // atom and 1e-10 relative in faint pixels. r − r0 is rounded relative to
  // itself, so the shift adds no error of the size of |r|. A(q) gets the
  // phase exp(i q·r0) back; |A|² does not depend on it.
  Vec3 origin;
  std::vector<Species> species;
  std::vector<AtomGroups> groups;
  std::vector<double> weight_sum, weight_square_sum;  // Σ w, Σ w² per species
  std::size_t atom_count = 0;
};

Pattern2DPlan::Pattern2DPlan(const Structure& structure, Pattern2DOptions options)
    : impl_(std::make_unique<Impl>()) {
  options.validate();
  auto grouped = pattern2d::group_species(structure);
  {
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi = -lo;
    for (const auto& list : grouped.atoms)
      for (std::size_t j = 0; j < list.size(); ++j) {
        const Vec3 r{list.x[j], list.y[j], list.z[j]};
        for (int d = 0; d < 3; ++d) lo[d] = std::min(lo[d], r[d]), hi[d] = std::max(hi[d], r[d]);
      }
    if (lo.x <= hi.x) impl_->origin = 0.5 * (lo + hi);
    for (auto& list : grouped.atoms)
      for (std::size_t j = 0; j < list.size(); ++j) {
        list.x[j] -= impl_->origin.x;
        list.y[j] -= impl_->origin.y;
        list.z[j] -= impl_->origin.z;
      }
  }
  impl_->options = options;
  impl_->species = grouped.species;
  impl_->atom_count = grouped.atom_count;
  for (const auto& list : grouped.atoms) {
    impl_->groups.push_back(pattern2d::make_atom_groups(list));
    double w1 = 0, w2 = 0;
    for (double w : list.w) w1 += w, w2 += w * w;
    impl_->weight_sum.push_back(w1);
    impl_->weight_square_sum.push_back(w2);
  }
}

Pattern2DPlan::~Pattern2DPlan() = default;
Pattern2DPlan::Pattern2DPlan(Pattern2DPlan&&) noexcept = default;
Pattern2DPlan& Pattern2DPlan::operator=(Pattern2DPlan&&) noexcept = default;

Pattern2DResult Pattern2DPlan::execute(const Pattern2DGeometry& geometry) const {
  const Stopwatch start;
  const Pattern2DOptions& o = impl_->options;
  Pattern2DResult result;
  result.grid = make_detector_grid(geometry);
  result.atom_count = impl_->atom_count;
  const DetectorGrid& grid = result.grid;
  const std::size_t np = grid.q.size(), ns = impl_->species.size();

  // Evaluate the factors first: an unusable species fails before the sums.
  if (o.radiation == Radiation::electron && o.relativistic_electrons)
    result.electron_gamma = electron_lorentz_factor(geometry.wavelength);
  FactorOptions factor_options = o.factors;
  if (o.anomalous) factor_options.energy_kev = photon_energy_kev(geometry.wavelength);
  result.energy_kev = factor_options.energy_kev;
  const auto factors =
      pattern2d::pixel_factors(impl_->species, grid, o.radiation, factor_options, result.electron_gamma);

  // The sample is rotated actively: atoms at R r, so q·(R r) = (Rᵀ q)·r.
  const Mat3 to_sample = transpose(geometry.orientation);
  std::vector<Vec3> q_sample(np);
#pragma omp parallel for schedule(static)
  for (std::size_t p = 0; p < np; ++p) q_sample[p] = to_sample * grid.q[p];

  const double atoms = double(std::max<std::size_t>(1, impl_->atom_count));
  const double per_call = o.compute.device == Device::gpu ? kWorkPerCallGpu : kWorkPerCallCpu;
  const std::size_t chunk = std::max(kMinPixelsPerCall, std::size_t(per_call / atoms));
  // This part's pixels [first, last) (all of them without a work share).
  // Plain variables, not a structured binding: clang 14 (the fuzz and
  // sanitizer build) cannot use a binding inside an OpenMP loop.
  const std::pair<std::size_t, std::size_t> share = o.share.range(np);
  const std::size_t first = share.first, last = share.second;
  std::vector<std::complex<double>> sums(ns * np, 0.0);
  {
    Progress progress("pattern2d: amplitudes", std::uint64_t(atoms * double(last - first)), {.quiet = o.compute.quiet});
    std::vector<std::complex<double>> part;
    for (std::size_t p0 = first; p0 < last; p0 += chunk) {
      const std::size_t n = std::min(chunk, last - p0);
      const auto q_part = std::span<const Vec3>(q_sample).subspan(p0, n);
      if (n == np) {
        run_phase_sums(o, impl_->groups, q_part, sums);  // one call: no staging copy
      } else {
        part.assign(ns * n, 0.0);
        run_phase_sums(o, impl_->groups, q_part, part);
        for (std::size_t s = 0; s < ns; ++s)
          std::copy(part.begin() + std::ptrdiff_t(s * n), part.begin() + std::ptrdiff_t((s + 1) * n),
                    sums.begin() + std::ptrdiff_t(s * np + p0));
      }
      progress.advance(std::uint64_t(atoms * double(n)));
    }
  }

  result.intensity.assign(np, 0.0);
  if (o.amplitude) result.amplitude.assign(np, 0.0);
#pragma omp parallel for schedule(static)
  for (std::size_t p = first; p < last; ++p) {
    std::complex<double> a = 0;
    double self = 0;
    for (std::size_t s = 0; s < ns; ++s) {
      const std::complex<double> f = factors.f[s * np + p];
      const double t = factors.t[s * np + p];
      a += f * t * sums[s * np + p];
      self += std::norm(f) * (impl_->weight_sum[s] - t * t * impl_->weight_square_sum[s]);
    }
    result.intensity[p] = std::norm(a) + self;
    if (o.amplitude) result.amplitude[p] = a * std::polar(1.0, dot(q_sample[p], impl_->origin));
  }
  result.seconds = start.seconds();
  return result;
}

}  // namespace nanoscatter
