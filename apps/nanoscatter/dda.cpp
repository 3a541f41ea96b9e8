// `nanoscatter dda`: light scattering by an arbitrary particle in the discrete
// dipole approximation, with ADDA's command-line semantics and output files
// (CrossSec-X/Y, mueller, log) in --output-dir.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "nanoscatter/dda.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/stopwatch.hpp"

namespace nanoscatter::cli {
namespace {

struct DdaCliOptions {
  std::vector<std::string> shape{"sphere"};
  std::string shape_file;
  std::vector<int> grid;
  double size = 0, eq_rad = 0, dpl = 0, lambda = 6.283185307179586;
  std::vector<double> m;
  std::string pol = "ldr", iter = "qmr", sym = "auto";
  double eps = 1e-5;
  int maxiter = 0, ntheta = 0, grid_phi = 0, threads = 0;
  bool mueller = false, csca = false, asym = false, store_int_field = false, store_dip_pol = false;
  bool no_vol_cor = false, prognosis = false, quiet = false;
  std::string save_geom;
  std::string output_dir;
  std::string device = "auto", precision = "double";
  int ranks_per_gpu = 1;
};

double parse_number(const std::string& token, const char* option) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(token, &used);
  } catch (const std::exception&) {
    fail_at({"", 0, option}, "not a number '", token, "'");
  }
  if (used != token.size()) fail_at({"", 0, option}, "not a number '", token, "'");
  return v;
}

DdaOptions to_options(const CLI::App& sub, const DdaCliOptions& c) {
  DdaOptions o;
  if (!c.shape_file.empty()) {
    if (sub.count("--shape")) fail_at({"", 0, "--shape-file"}, "give either --shape or --shape-file");
    o.shape.kind = DdaShapeKind::file;
    o.shape.file = c.shape_file;
  } else {
    o.shape.kind = parse_dda_shape(c.shape.at(0));
    if (o.shape.kind == DdaShapeKind::file) {
      if (c.shape.size() != 2) fail_at({"", 0, "--shape"}, "'read' takes one file name");
      o.shape.file = c.shape[1];
    } else {
      for (std::size_t i = 1; i < c.shape.size(); ++i) o.shape.params.push_back(parse_number(c.shape[i], "--shape"));
    }
  }
  if (sub.count("--grid")) {
    if (c.grid.size() != 1 && c.grid.size() != 3)
      fail_at({"", 0, "--grid"}, "expected 1 or 3 values, got ", c.grid.size());
    for (int v : c.grid)
      if (v < 1) fail_at({"", 0, "--grid"}, "must be ≥ 1, got ", v);
    o.grid = c.grid[0];
    if (c.grid.size() == 3) o.grid_yz = {c.grid[1], c.grid[2]};
  }
  if (sub.count("--size") && !(c.size > 0)) fail_at({"", 0, "--size"}, "must be > 0, got ", c.size);
  if (sub.count("--eq-rad") && !(c.eq_rad > 0)) fail_at({"", 0, "--eq-rad"}, "must be > 0, got ", c.eq_rad);
  if (sub.count("--dpl") && !(c.dpl > 0)) fail_at({"", 0, "--dpl"}, "must be > 0, got ", c.dpl);
  o.size = c.size;
  o.eq_rad = c.eq_rad;
  o.dpl = c.dpl;
  o.lambda = c.lambda;
  if (!c.m.empty()) {
    if (c.m.size() % 2) fail_at({"", 0, "--m"}, "expected pairs 're im'");
    o.m.clear();
    for (std::size_t i = 0; i < c.m.size(); i += 2) o.m.emplace_back(c.m[i], c.m[i + 1]);
  }
  o.polarizability = parse_dda_polarizability(c.pol);
  o.solver = parse_dda_solver(c.iter);
  if (c.sym != "auto" && c.sym != "no") fail_at({"", 0, "--sym"}, "expected auto or no, got '", c.sym, "'");
  o.use_symmetry = c.sym == "auto";
  o.eps = c.eps;
  if (sub.count("--maxiter") && c.maxiter < 1) fail_at({"", 0, "--maxiter"}, "must be ≥ 1, got ", c.maxiter);
  o.maxiter = c.maxiter;
  o.mueller = c.mueller;
  o.ntheta = c.ntheta;
  o.grid_nphi = c.grid_phi;
  o.csca = c.csca || c.asym;
  o.asym = c.asym;
  o.store_fields = c.store_int_field || c.store_dip_pol;
  o.volume_correction = !c.no_vol_cor;
  o.threads = c.threads;
  o.precision = parse_precision(c.precision);
  o.quiet = c.quiet;
  return o;
}

// Under mpirun the polarisations are solved on different ranks (i-th of
// plan.polarizations() on rank i mod size); rank 0 collects the solutions.
std::vector<DdaSolution> gather_solutions(const parallel::Communicator& comm, std::vector<DdaSolution> mine) {
  if (!comm.distributed()) return mine;
  parallel::ByteWriter w;
  auto put_string = [&w](const std::string& s) { w.put_vector(std::vector<char>(s.begin(), s.end())); };
  w.put<std::uint64_t>(mine.size());
  for (const DdaSolution& s : mine) {
    w.put(s.run.name);
    w.put(s.run.iterations);
    w.put(s.run.converged);
    w.put(s.run.residual);
    w.put_vector(s.run.residual_history);
    w.put(s.run.residual_checks);
    w.put(s.run.restarts);
    put_string(s.run.initial_field);
    w.put_vector(s.polarization);
    put_string(s.warning);
    w.put(s.seconds_iterations);
    w.put(s.matvecs);
  }
  const std::vector<std::string> parts = comm.gather(w.bytes());
  std::vector<DdaSolution> all;
  for (const std::string& part : parts) {
    parallel::ByteReader r(part);
    auto get_string = [&r] {
      const auto v = r.get_vector<char>();
      return std::string(v.begin(), v.end());
    };
    const auto count = r.get<std::uint64_t>();
    for (std::uint64_t i = 0; i < count; ++i) {
      DdaSolution s;
      s.run.name = r.get<char>();
      s.run.iterations = r.get<int>();
      s.run.converged = r.get<bool>();
      s.run.residual = r.get<double>();
      s.run.residual_history = r.get_vector<double>();
      s.run.residual_checks = r.get<int>();
      s.run.restarts = r.get<int>();
      s.run.initial_field = get_string();
      s.polarization = r.get_vector<std::complex<double>>();
      s.warning = get_string();
      s.seconds_iterations = r.get<double>();
      s.matvecs = r.get<int>();
      all.push_back(std::move(s));
    }
  }
  return all;
}

void run(const CLI::App& sub, const DdaCliOptions& c, const RunContext& context) {
  DdaOptions o = to_options(sub, c);
  const parallel::Communicator& comm = context.comm;
  o.quiet = c.quiet || !comm.root();  // one iteration log: rank 0's
  const DeviceRequest device = parse_device(c.device);
  if (!c.prognosis && c.output_dir.empty()) fail_at({"", 0, "--output-dir"}, "required");
  const std::filesystem::path dir = c.output_dir;
  if (!dir.empty() && std::filesystem::exists(dir) && !std::filesystem::is_directory(dir))
    fail_at({dir.string(), 0, "--output-dir"}, "exists and is not a directory");
  if (!c.save_geom.empty()) {
    const auto parent = std::filesystem::path(c.save_geom).parent_path();
    if (!parent.empty() && !std::filesystem::is_directory(parent))
      fail_at({c.save_geom, 0, "--save-geom"}, "directory '", parent.string(), "' does not exist");
  }
  o.device = select_rank_device(device, c.quiet, c.ranks_per_gpu, context);
  const DdaSetup setup = make_dda_setup(o);
  if (c.prognosis) {
    if (!comm.root()) return;
    const DdaMemoryEstimate mem = estimate_dda_memory(setup, o);
    const auto& b = setup.geometry.box;
    std::printf("box: %dx%dx%d\ndipoles: %zu\nFFT grid: %dx%dx%d\ndipole size: %.10g\n", b[0], b[1], b[2],
                setup.geometry.size(), setup.fft_grid[0], setup.fft_grid[1], setup.fft_grid[2],
                setup.dipole_size);
    std::printf("memory (%s, %s): interaction %.1f MB, FFT buffers %.1f MB, vectors %.1f MB, total %.1f MB\n",
                to_string(o.device), to_string(o.precision), mem.interaction_bytes / 1048576.0,
                mem.fft_bytes / 1048576.0, mem.vector_bytes / 1048576.0, mem.total() / 1048576.0);
    return;
  }
  DdaPlan plan(o);
  const Stopwatch start;
  const std::string polarizations = plan.polarizations();
  std::vector<DdaSolution> mine;
  for (std::size_t i = 0; i < polarizations.size(); ++i)
    if (comm.share().owns(i)) mine.push_back(plan.solve(polarizations[i]));
  const double seconds = start.seconds();
  const double solved = double(mine.size());
  std::vector<DdaSolution> solutions = gather_solutions(comm, std::move(mine));
  parallel::report_load(comm, "dda", seconds, solved, c.quiet, o.device);
  if (!comm.root()) return;
  const DdaResult r = plan.finish(std::move(solutions), start.seconds());
  std::filesystem::create_directories(dir);
  if (!c.save_geom.empty()) {
    const std::string name = o.shape.kind == DdaShapeKind::file ? "read" : to_string(o.shape.kind);
    write_adda_shape_file(std::filesystem::path(c.save_geom).is_absolute() || c.save_geom.find('/') != std::string::npos
                              ? std::filesystem::path(c.save_geom)
                              : dir / c.save_geom,
                          plan.setup().geometry, name);
  }
  write_adda_outputs(dir, r, o, context.command_line);
  if (!c.quiet)
    std::fprintf(stderr, "dda: %zu dipoles (box %dx%dx%d), x = %.6g, Qext = %.10g, Qabs = %.10g, %d iterations, %.3f s → %s\n",
                 r.dipoles, r.box[0], r.box[1], r.box[2], r.ka_eq, r.runs[0].qext, r.runs[0].qabs,
                 r.runs[0].iterations, r.seconds_total, dir.c_str());
  if (!r.converged) {
    const auto& bad = r.runs[0].converged ? r.runs[1] : r.runs[0];
    fail_at({"", 0, "--maxiter"}, "the iterative solver did not converge for ", bad.name,
            " polarization (relative residual ", bad.residual, " after ", bad.iterations,
            " iterations, --eps ", o.eps, "); partial results flagged in ", (dir / "CrossSec-").string(), bad.name);
  }
}

}  // namespace

void add_dda_command(CLI::App& app, const RunContext& context) {
  auto* sub = app.add_subcommand("dda", "light scattering by a particle: discrete dipole approximation (ADDA semantics)");
  auto options = std::make_shared<DdaCliOptions>();
  DdaCliOptions& o = *options;
  sub->add_option("--shape", o.shape,
                  "sphere | ellipsoid y/x z/x | cylinder h/d | box [y/x z/x] | coated d_in/d [x/d y/d z/d] | "
                  "capsule h/d | read FILE")
      ->expected(1, 5);
  sub->add_option("--shape-file", o.shape_file, "ADDA shape file ('x y z' or 'Nmat=n' + 'x y z dom')");
  sub->add_option("--grid", o.grid, "dipoles along x [and y z] (default 16, or from --size and --dpl)")->expected(1, 3);
  sub->add_option("--size", o.size, "particle size along x (diameter)");
  sub->add_option("--eq-rad", o.eq_rad, "volume-equivalent radius");
  sub->add_option("--dpl", o.dpl, "dipoles per wavelength (default 10|m|)");
  sub->add_option("--lambda", o.lambda, "wavelength (same unit as --size)")->capture_default_str();
  sub->add_option("--m", o.m, "refractive index 're im' of a domain; repeat for each domain (default 1.5 0)")
      ->expected(2)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("--pol", o.pol, "polarizability: ldr|cm|rr")->capture_default_str();
  sub->add_option("--iter", o.iter, "iterative solver: qmr|bicg|bicgstab|cgnr")->capture_default_str();
  sub->add_option("--eps", o.eps, "relative residual to reach")->capture_default_str();
  sub->add_option("--maxiter", o.maxiter, "iteration limit (default 3·box volume)");
  sub->add_option("--sym", o.sym, "auto|no: use the particle's symmetry to solve one polarization")->capture_default_str();
  sub->add_flag("--mueller", o.mueller, "Mueller matrix in the yz scattering plane (file mueller)");
  sub->add_option("--ntheta", o.ntheta, "θ points over 0..180° (default from the box volume, as ADDA)");
  sub->add_option("--grid-phi", o.grid_phi, "also a (θ, φ) grid with this many φ points (file mueller_scatgrid)");
  sub->add_flag("--csca", o.csca, "Csca and Qsca by integration over all directions");
  sub->add_flag("--asym", o.asym, "asymmetry vector g by integration (implies --csca)");
  sub->add_flag("--store-int-field", o.store_int_field, "write internal fields (IntField-X/Y)");
  sub->add_flag("--store-dip-pol", o.store_dip_pol, "write dipole polarizations (DipPol-X/Y)");
  sub->add_option("--save-geom", o.save_geom, "write the dipole set as an ADDA shape file");
  sub->add_flag("--no-vol-cor", o.no_vol_cor, "no volume correction of the dipole size");
  sub->add_flag("--prognosis", o.prognosis, "print the grid and memory estimate, solve nothing");
  sub->add_option("--output-dir", o.output_dir, "directory for CrossSec-X/Y, mueller, log");
  sub->add_option("--device", o.device, "auto|cpu|gpu")->capture_default_str();
  sub->add_option("--precision", o.precision,
                  "double (float64) | single (float32 FFT products in a float64 iteration, converged on the "
                  "float64 residual)")->capture_default_str();
  sub->add_option("--threads", o.threads, "CPU threads (0: all)")->capture_default_str();
  sub->add_flag("--quiet,-q", o.quiet, "no iteration log or summary on stderr");
  add_ranks_per_gpu_option(*sub, o.ranks_per_gpu);
  sub->callback([sub, options, context] { run(*sub, *options, context); });
}

}  // namespace nanoscatter::cli
