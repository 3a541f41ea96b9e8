// DdaPlan: builds the dipole set, polarizabilities and the interaction FFT
// once, then solves for the incident polarisations (one when the particle has
// ADDA's 90° rotation symmetry about z) and computes the observables.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>

#include "dda/backends.hpp"
#include "dda/iterative.hpp"
#include "dda/observables.hpp"
#include "dda/physics.hpp"
#include "dda/share.hpp"
#include "nanoscatter/constants.hpp"
#include "nanoscatter/dda.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/stopwatch.hpp"

namespace nanoscatter {

DdaSolver parse_dda_solver(const std::string& name) {
  if (name == "qmr" || name == "qmr_cs" || name == "qmr-cs") return DdaSolver::qmr_cs;
  if (name == "bicg" || name == "bicg_cs" || name == "bicg-cs") return DdaSolver::bicg_cs;
  if (name == "bicgstab") return DdaSolver::bicgstab;
  if (name == "cgnr") return DdaSolver::cgnr;
  fail_option("iter", "unknown iterative solver '", name, "' (expected qmr, bicg, bicgstab or cgnr)");
}

const char* to_string(DdaSolver s) {
  switch (s) {
    case DdaSolver::qmr_cs: return "QMR (complex symmetric)";
    case DdaSolver::bicg_cs: return "Bi-CG (complex symmetric)";
    case DdaSolver::bicgstab: return "Bi-CGStab";
    case DdaSolver::cgnr: return "CGNR";
  }
  return "?";
}

namespace {

using dda::cplx;
using dda::CVec3;
using dda::Vec3d;

// R: rotation by −90° about z mapping e_y onto e_x (so a Y solution rotated by
// R is the X solution of a particle invariant under R): R(x,y,z) = (y,−x,z).
Vec3d rot_inv(const Vec3d& v) { return {-v[1], v[0], v[2]}; }
CVec3 rot(const CVec3& v) { return {v[1], -v[0], v[2]}; }

}  // namespace

struct DdaPlan::Impl {
  DdaOptions o;
  DdaSetup setup;
  double k = 1, d = 1;
  std::vector<std::array<std::uint16_t, 3>> solver_pos;
  std::vector<std::uint8_t> solver_mat;
  std::vector<cplx> alpha;       // per domain
  std::unique_ptr<dda::InteractionFft> interaction;
  std::unique_ptr<dda::SolverBackend> backend;
  double init_seconds = 0;

  explicit Impl(DdaOptions opt) : o(std::move(opt)) {
    const Stopwatch t0;
    setup = make_dda_setup(o);
    k = 2 * kPi / o.lambda;
    d = setup.dipole_size;
    const DdaGeometry& g = setup.geometry;
    for (std::size_t i = 0; i < g.size(); ++i)
      if (o.m[g.material[i]] != cplx(1, 0)) {
        solver_pos.push_back(g.position[i]);
        solver_mat.push_back(g.material[i]);
      }
    if (solver_pos.empty())
      fail_option("m", "refractive index 1 for all dipoles: the particle does not scatter");
    // Incidence along z with x or y polarisation: ADDA's LDR term S = Σ prop_i² e_i² = 0.
    for (const auto& m : o.m) alpha.push_back(dda::polarizability(o.polarizability, m, k, d, 0.0));
    dda::MatrixSpec spec;
    spec.box = g.box;
    spec.grid = setup.fft_grid;
    spec.position = solver_pos;
    spec.threads = o.compute.threads;
    spec.k = k;
    spec.d = d;
    for (std::uint8_t m : solver_mat) spec.s.push_back(std::sqrt(alpha[m]));
    spec.max_device_bytes = o.compute.max_device_memory;
    // b, x, r, the true residual t and the method's own vectors (iterative.cpp), plus 2 for time_matvec
    spec.solver_vectors = 4 + ((o.solver == DdaSolver::qmr_cs || o.solver == DdaSolver::bicgstab) ? 5 : 2) + 2;
    if (o.compute.device == Device::gpu) {
#if NANOSCATTER_HAVE_CUDA
      backend = dda::make_cuda_backend(spec, o.compute.precision);
#else
      require_gpu();  // throws: this build has no CUDA
#endif
    } else {
      interaction = std::make_unique<dda::InteractionFft>(
          dda::interaction_fft(g.box, setup.fft_grid, k, d, o.compute.threads));
      spec.interaction = interaction.get();
      backend = dda::make_cpu_backend(spec, o.compute.precision);
    }
    init_seconds = t0.seconds();
  }

  // b = S E_inc for the unit plane wave e_pol exp(ik z) at the solver dipoles.
  std::vector<cplx> rhs(const Vec3d& e) const {
    std::vector<cplx> b(3 * solver_pos.size());
    const auto& box = setup.geometry.box;
#pragma omp parallel for schedule(static)
    for (std::size_t j = 0; j < solver_pos.size(); ++j) {
      const double z = (solver_pos[j][2] - 0.5 * (box[2] - 1)) * d;
      const cplx s = std::sqrt(alpha[solver_mat[j]]) * std::polar(1.0, k * z);
      for (int a = 0; a < 3; ++a) b[3 * j + a] = s * e[a];
    }
    return b;
  }
};

DdaPlan::DdaPlan(DdaOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
DdaPlan::~DdaPlan() = default;
DdaPlan::DdaPlan(DdaPlan&&) noexcept = default;
DdaPlan& DdaPlan::operator=(DdaPlan&&) noexcept = default;
const DdaSetup& DdaPlan::setup() const { return impl_->setup; }
const DdaOptions& DdaPlan::options() const { return impl_->o; }

double DdaPlan::time_matvec(int repeats) {
  auto& be = *impl_->backend;
  const int a = be.create(), b = be.create();
  std::mt19937_64 rng(7);
  std::normal_distribution<double> nd;
  std::vector<cplx> v(be.length());
  for (auto& x : v) x = cplx(nd(rng), nd(rng));
  be.upload(a, v);
  be.matvec(a, b, false);  // warm-up (plans, caches)
  be.norm2(b);             // waits for the device
  const Stopwatch t0;
  for (int i = 0; i < repeats; ++i) be.matvec(i % 2 ? b : a, i % 2 ? a : b, false);
  be.norm2(a);
  const double t = t0.seconds() / repeats;
  be.release(a);
  be.release(b);
  return t;
}

std::string DdaPlan::polarizations() const {
  return impl_->o.use_symmetry && impl_->setup.geometry.sym_r ? "Y" : "YX";
}

DdaSolution DdaPlan::solve(char pol) {
  if (pol != 'Y' && pol != 'X') fail("DdaPlan::solve: polarization '", pol, "' (expected Y or X)");
  Impl& I = *impl_;
  const DdaOptions& o = I.o;
  auto& be = *I.backend;
  const int b = be.create(), x = be.create();
  const int mv0 = be.matvec_count();
  DdaSolution sol;
  DdaPolarizationResult& run = sol.run;
  run.name = pol;
  be.upload(b, I.rhs(pol == 'Y' ? Vec3d{0, 1, 0} : Vec3d{1, 0, 0}));
  dda::SolveControl ctl;
  ctl.eps = o.eps;
  ctl.maxiter = I.setup.maxiter;
  if (!o.compute.quiet) {
    ctl.on_iteration = [](int it, double r) { std::fprintf(stderr, "RE_%03d = %.10E\n", it, r); };
    ctl.on_check = [](int it, double t, double drift, bool restart) {
      std::fprintf(stderr, "true residual at %d: %.4E (drift %.2E)%s\n", it, t, drift, restart ? ", restart" : "");
    };
  }
  const dda::SolveReport rep = dda::solve(o.solver, be, b, x, ctl);
  run.iterations = rep.iterations;
  run.converged = rep.converged;
  run.residual = rep.residual;
  run.residual_history = rep.history;
  run.residual_checks = rep.residual_checks;
  run.restarts = rep.restarts;
  run.initial_field = rep.initial_field;
  sol.seconds_iterations = rep.seconds;
  if (!rep.converged) {
    char residuals[64];
    std::snprintf(residuals, sizeof residuals, "relative residual %.3e (eps %.3g)", rep.residual, o.eps);
    run.failure = std::string(1, pol) + " polarization: " + to_string(o.solver) + " did not converge after " +
                  std::to_string(rep.iterations) + " iterations, " + residuals + ": " + rep.failure;
    sol.warning = "WARNING: " + run.failure;
  }
  else if (rep.float64_fallback)
    sol.warning = "NOTE: " + std::string(1, pol) +
                  " polarization: a float32-product refinement cycle failed; finished with float64 products";
  std::vector<cplx> xv = be.download(x);
  sol.polarization.resize(xv.size());
#pragma omp parallel for schedule(static)
  for (std::size_t j = 0; j < I.solver_pos.size(); ++j) {
    const cplx sj = std::sqrt(I.alpha[I.solver_mat[j]]);
    for (int a = 0; a < 3; ++a) sol.polarization[3 * j + a] = sj * xv[3 * j + a];
  }
  be.release(b);
  be.release(x);
  sol.matvecs = be.matvec_count() - mv0;
  return sol;
}

DdaResult DdaPlan::execute() { return execute(parallel::Communicator()); }

DdaResult DdaPlan::execute(const parallel::Communicator& comm) {
  const Stopwatch t_start;
  const std::string wanted = polarizations();
  std::vector<DdaSolution> mine;
  for (std::size_t i = 0; i < wanted.size(); ++i)
    if (comm.share().owns(i)) mine.push_back(solve(wanted[i]));
  const double seconds = t_start.seconds();
  const double solved = double(mine.size());
  std::vector<DdaSolution> solutions = dda::all_solutions(comm, std::move(mine));
  parallel::report_load(comm, "dda", seconds, solved, impl_->o.compute.quiet, impl_->o.compute.device);
  return finish(std::move(solutions), t_start.seconds());
}

DdaResult DdaPlan::finish(std::vector<DdaSolution> solutions, double seconds_solve) {
  Impl& I = *impl_;
  const Stopwatch t_start;
  const DdaOptions& o = I.o;
  const DdaSetup& s = I.setup;
  const DdaGeometry& g = s.geometry;
  DdaResult res;
  res.box = g.box;
  res.fft_grid = s.fft_grid;
  res.dipoles = g.size();
  res.solver_dipoles = I.solver_pos.size();
  res.dipole_size = I.d;
  res.dpl = s.dpl;
  res.a_eq = s.a_eq;
  res.size_x = s.size_x;
  res.ka_eq = I.k * s.a_eq;
  res.lambda = o.lambda;
  res.polarizability = I.alpha;
  res.description = g.description;
  res.memory = estimate_dda_memory(s, o);
  res.seconds_init = I.init_seconds;
  const double area = kPi * s.a_eq * s.a_eq;
  const bool symmetric = o.use_symmetry && g.sym_r;
  // The solutions, Y first: P for Y and (unless derived by symmetry) X.
  const std::string wanted = polarizations();
  if (solutions.size() != wanted.size())
    fail("DdaPlan::finish: ", solutions.size(), " solutions for polarizations ", wanted);
  std::sort(solutions.begin(), solutions.end(),
            [](const DdaSolution& a, const DdaSolution& b) { return a.run.name == 'Y' && b.run.name != 'Y'; });
  for (std::size_t i = 0; i < wanted.size(); ++i)
    if (solutions[i].run.name != wanted[i]) fail("DdaPlan::finish: no solution for polarization ", wanted[i]);
  std::vector<cplx> p_y, p_x;
  const Vec3d e_y{0, 1, 0}, e_x{1, 0, 0};
  for (DdaSolution& sol : solutions) {
    if (sol.polarization.size() != 3 * I.solver_pos.size())
      fail("DdaPlan::finish: polarization ", sol.run.name, " has ", sol.polarization.size(), " values, expected ",
           3 * I.solver_pos.size());
    res.seconds_iterations += sol.seconds_iterations;
    res.matvecs += sol.matvecs;
    if (!sol.warning.empty()) res.log.push_back(sol.warning);
    (sol.run.name == 'Y' ? p_y : p_x) = std::move(sol.polarization);
    res.runs.push_back(std::move(sol.run));
  }
  if (symmetric) {
    DdaPolarizationResult run = res.runs.front();
    run.name = 'X';
    run.from_symmetry = true;
    run.polarization.clear();
    run.internal_field.clear();
    res.runs.push_back(run);
  }
  res.seconds_solve = seconds_solve;
  res.seconds_per_matvec = res.matvecs ? res.seconds_iterations / res.matvecs : 0;

  // far-field amplitudes for either polarisation
  dda::DipoleSet set_y{g.box, I.d, &I.solver_pos, &p_y};
  dda::DipoleSet set_x{g.box, I.d, &I.solver_pos, &p_x};
  auto amplitude = [&](char pol, const std::vector<Vec3d>& dirs) -> std::vector<CVec3> {
    if (pol == 'Y') return dda::far_field(set_y, I.k, dirs);
    if (!symmetric) return dda::far_field(set_x, I.k, dirs);
    std::vector<Vec3d> back(dirs.size());
    for (std::size_t i = 0; i < dirs.size(); ++i) back[i] = rot_inv(dirs[i]);
    auto f = dda::far_field(set_y, I.k, back);
    for (auto& v : f) v = rot(v);
    return f;
  };
  double r_max = 0;
  for (int a = 0; a < 3; ++a) r_max += 0.25 * g.box[a] * g.box[a] * I.d * I.d;
  r_max = std::sqrt(r_max);
  for (auto& run : res.runs) {
    const Vec3d e = run.name == 'Y' ? e_y : e_x;
    if (run.from_symmetry) {  // the rotation maps the Y problem onto the X one
      run.cext = res.runs.front().cext;
      run.cabs = res.runs.front().cabs;
    } else {
      const auto f = amplitude(run.name, {Vec3d{0, 0, 1}});
      run.cext = dda::extinction_cross_section(f[0], e, I.k);
      run.cabs = dda::absorption_cross_section(run.name == 'Y' ? p_y : p_x, I.solver_mat, I.alpha, I.k);
    }
    run.csca = run.cext - run.cabs;
    run.qext = run.cext / area;
    run.qabs = run.cabs / area;
    run.qsca = run.csca / area;
    if (o.csca || o.asym) {
      const auto in = dda::integrate_far_field(
          [&](const std::vector<Vec3d>& dirs) { return amplitude(run.name, dirs); }, I.k, r_max);
      run.integrated = true;
      run.csca_int = in.csca;
      run.qsca_int = in.csca / area;
      run.g = in.g;
    }
    if (o.store_fields && !run.from_symmetry) {
      run.polarization = run.name == 'Y' ? p_y : p_x;
      run.internal_field.resize(run.polarization.size());
      const double vol = I.d * I.d * I.d;
      for (std::size_t j = 0; j < I.solver_pos.size(); ++j) {
        const cplx m = o.m[I.solver_mat[j]];
        const cplx chi_inv = 4 * kPi / (vol * (m * m - 1.0));  // E = P/(V χ), χ = (m²−1)/4π
        for (int a = 0; a < 3; ++a) run.internal_field[3 * j + a] = chi_inv * run.polarization[3 * j + a];
      }
    }
    res.converged = res.converged && run.converged;
  }
  if (o.store_fields)
    for (std::size_t j = 0; j < I.solver_pos.size(); ++j)
      res.dipole_coords.push_back(dda::dipole_coordinate(set_y, j));

  // Mueller matrix in the yz plane (ADDA's default plane: par = Y, per = X).
  if (o.mueller) {
    const double dtheta = 180.0 / (s.ntheta - 1);
    // ADDA TestExtendThetaRange: the plane through e_y needs 0..360° unless
    // the particle maps e_y onto −e_y (mirror y or the 90° rotation).
    const int nth = (o.use_symmetry && (g.sym_y || g.sym_r)) ? s.ntheta : 2 * (s.ntheta - 1);
    std::vector<Vec3d> dirs(nth);
    for (int i = 0; i < nth; ++i) {
      const double th = i * dtheta * kPi / 180;
      dirs[i] = {0, std::sin(th), std::cos(th)};
    }
    const auto fx = amplitude('X', dirs), fy = amplitude('Y', dirs);
    for (int i = 0; i < nth; ++i) {
      const double th = i * dtheta * kPi / 180;
      const Vec3d per{1, 0, 0}, par{0, std::cos(th), -std::sin(th)};
      auto dotv = [](const CVec3& f, const Vec3d& v) { return f[0] * v[0] + f[1] * v[1] + f[2] * v[2]; };
      DdaMuellerRow row;
      row.theta = i * dtheta;
      row.phi = 90;
      row.s = dda::mueller_from_amplitudes(dotv(fx[i], per), dotv(fy[i], par), dotv(fx[i], par),
                                           dotv(fy[i], per));
      res.mueller.push_back(row);
    }
  }
  // (θ, φ) grid, ADDA's scat_grid with SetScatPlane and the rotation from
  // the per/par basis to the X/Y incident polarisations.
  if (o.grid_phi > 0) {
    const int nth = s.ntheta;
    const double dtheta = 180.0 / (nth - 1);
    std::vector<Vec3d> dirs, pers;
    std::vector<std::pair<double, double>> ang;
    for (int i = 0; i < nth; ++i)
      for (int j = 0; j < o.grid_phi; ++j) {
        const double th = i * dtheta * kPi / 180, ph = 360.0 * j / o.grid_phi * kPi / 180;
        const double ct = std::cos(th), st = std::sin(th), cp = std::cos(ph), sp = std::sin(ph);
        const Vec3d n{st * cp, st * sp, ct};
        Vec3d per;
        if (std::abs(st) < 1e-15) {
          per = {sp, -cp, 0};  // θ = 0, 180°: the plane is set by φ (ADDA SetScatPlane)
        } else {  // per = n × prop / |n × prop|
          per = {n[1], -n[0], 0};
          const double nn = std::sqrt(per[0] * per[0] + per[1] * per[1]);
          per = {per[0] / nn, per[1] / nn, 0};
        }
        dirs.push_back(n);
        pers.push_back(per);
        ang.push_back({i * dtheta, 360.0 * j / o.grid_phi});
      }
    const auto fx = amplitude('X', dirs), fy = amplitude('Y', dirs);
    auto dotv = [](const CVec3& f, const Vec3d& v) { return f[0] * v[0] + f[1] * v[1] + f[2] * v[2]; };
    for (std::size_t i = 0; i < dirs.size(); ++i) {
      const Vec3d& n = dirs[i];
      const Vec3d& per = pers[i];
      const Vec3d par{n[1] * per[2] - n[2] * per[1], n[2] * per[0] - n[0] * per[2], n[0] * per[1] - n[1] * per[0]};
      const double co = -per[1], si = per[0];  // −per·e_y, per·e_x
      const cplx xper = dotv(fx[i], per), xpar = dotv(fx[i], par);
      const cplx yper = dotv(fy[i], per), ypar = dotv(fy[i], par);
      DdaMuellerRow row;
      row.theta = ang[i].first;
      row.phi = ang[i].second;
      row.s = dda::mueller_from_amplitudes(si * xper - co * yper, co * xpar + si * ypar, si * xpar - co * ypar,
                                           co * xper + si * yper);
      res.mueller_grid.push_back(row);
    }
  }
  res.seconds_total = res.seconds_init + seconds_solve + t_start.seconds();
  return res;
}

}  // namespace nanoscatter
