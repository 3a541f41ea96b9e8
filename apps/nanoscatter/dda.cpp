// `nanoscatter dda`: light scattering by an arbitrary particle in the discrete
// dipole approximation, with ADDA's command-line semantics and output files
// (CrossSec-X/Y, mueller, log) in --output. Flags that set a field of the
// library's options are bound to it; the checks are DdaOptions::validate's
// and DdaOutput::validate's.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "unit_options.hpp"
#include "memory_size.hpp"
#include "nanoscatter/dda.hpp"
#include "nanoscatter/dda_output.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::cli {
namespace {

// The rest are the CLI's own: strings the library parses, flags that set a
// field by their negation or together, the output and the device request.
struct DdaCliOptions {
  DdaOptions engine;
  DdaOutput output;
  std::vector<std::string> shape;
  std::string shape_file;
  std::string pol = "ldr", iter = "qmr", sym = "auto";
  bool store_int_field = false, store_dip_pol = false, no_vol_cor = false, prognosis = false, quiet = false;
  std::string device = "auto", precision = "auto";
  int ranks_per_gpu = 1;
  // Lengths in one unit (ADDA's), or each with its own: read together.
  LengthOption size{"--size", std::nullopt}, eq_rad{"--eq-rad", std::nullopt},
      wavelength{"--wavelength", std::nullopt, true};
};

void print_prognosis(const DdaSetup& setup, const DdaOptions& o) {
  const DdaMemoryEstimate mem = estimate_dda_memory(setup, o);
  const auto& b = setup.geometry.box;
  std::printf("box: %dx%dx%d\ndipoles: %zu\nFFT grid: %dx%dx%d\ndipole size: %.10g\n", b[0], b[1], b[2],
              setup.geometry.size(), setup.fft_grid[0], setup.fft_grid[1], setup.fft_grid[2], setup.dipole_size);
  std::printf("memory (%s, %s): interaction %.1f MB, FFT buffers %.1f MB, vectors %.1f MB, total %.1f MB\n",
              to_string(o.compute.device), to_string(o.compute.resolved_precision()), mem.interaction_bytes / 1048576.0,
              mem.fft_bytes / 1048576.0, mem.vector_bytes / 1048576.0, mem.total() / 1048576.0);
}

void run(const DdaCliOptions& c, const RunContext& context) {
  DdaOptions o = c.engine;
  const auto lengths = resolve_same_unit({&c.size, &c.eq_rad, &c.wavelength});
  o.size = lengths[0];
  o.eq_rad = lengths[1];
  if (lengths[2]) o.lambda = *lengths[2];
  o.shape = parse_dda_shape_spec(c.shape, c.shape_file);
  o.polarizability = parse_dda_polarizability(c.pol);
  o.solver = parse_dda_solver(c.iter);
  o.use_symmetry = parse_dda_symmetry(c.sym);
  o.store_fields = c.store_int_field || c.store_dip_pol;
  o.volume_correction = !c.no_vol_cor;
  o.compute.precision = parse_precision(c.precision);
  const parallel::Communicator& comm = context.comm;
  o.compute.quiet = c.quiet || !comm.root();  // one iteration log: rank 0's
  const DeviceRequest device = parse_device(c.device);
  // Every option before any work or notice (the plan validates again).
  o.validate();
  if (!c.prognosis) c.output.validate();
  o.compute.device = select_rank_device(device, c.ranks_per_gpu, context);
  if (c.prognosis) {
    const DdaSetup setup = make_dda_setup(o);
    if (comm.root()) print_prognosis(setup, o);
    return;
  }
  DdaPlan plan(o);
  const DdaResult r = plan.execute(comm);
  if (!comm.root()) return;
  write_dda(c.output, plan, r, RunRecord{"dda", context.command_line, {}});
  if (!c.quiet)
    std::fprintf(stderr, "dda: %zu dipoles (box %dx%dx%d), x = %.6g, Qext = %.10g, Qabs = %.10g, %d iterations, %.3f s → %s\n",
                 r.dipoles, r.box[0], r.box[1], r.box[2], r.ka_eq, r.runs[0].qext, r.runs[0].qabs,
                 r.runs[0].iterations, r.seconds_total, c.output.output_dir.c_str());
  // Non-convergence is loud even with --quiet: a warning line per
  // polarisation when accepted, otherwise one error line (exit status 1)
  // after the flagged partial results are written.
  std::string failures;
  for (const auto& run : r.runs) {
    if (run.converged || run.from_symmetry) continue;
    if (o.accept_unconverged)
      std::fprintf(stderr, "nanoscatter: warning: dda: %s\n", run.failure.c_str());
    failures += run.failure + "; ";
  }
  if (!failures.empty() && !o.accept_unconverged)
    fail(failures, "partial results flagged NOT CONVERGED in ", c.output.output_dir,
         " (--accept-unconverged accepts them with exit status 0)");
}

}  // namespace

void add_dda_command(CLI::App& app, const RunContext& context) {
  auto* sub = app.add_subcommand("dda", "light scattering by a particle: discrete dipole approximation (ADDA semantics)");
  auto options = std::make_shared<DdaCliOptions>();
  DdaCliOptions& o = *options;
  DdaOptions& e = o.engine;
  sub->add_option("--shape", o.shape,
                  "sphere (default) | ellipsoid y/x z/x | cylinder h/d | box [y/x z/x] | coated d_in/d [x/d y/d z/d] | "
                  "capsule h/d | read FILE")
      ->expected(1, 5);
  sub->add_option("--shape-file", o.shape_file, "ADDA shape file ('x y z' or 'Nmat=n' + 'x y z dom')");
  sub->add_option("--grid", e.grid, "dipoles along x [and y z] (default 16, or from --size and --dpl)")->expected(1, 3);
  add_length_text_option(*sub, o.size, "particle size along x (diameter): the unit of --wavelength, or 1um");
  add_length_text_option(*sub, o.eq_rad, "volume-equivalent radius: the unit of --wavelength, or 0.5um");
  sub->add_option("--dpl", e.dpl, "dipoles per wavelength (default 10|m|)");
  add_length_text_option(*sub, o.wavelength, "wavelength: any unit, that of --size (default 2π); or 0.5um, all in nm")
      ->default_str(detail::concat(e.lambda));
  add_renamed_alias(*sub, "--lambda", "--wavelength", o.wavelength.text);
  sub->add_option("--m", e.m, "refractive index 're im' of a domain; repeat for each domain (default 1.5 0)")
      ->expected(2)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("--pol", o.pol, "polarizability: ldr|cm|rr")->capture_default_str();
  sub->add_option("--iter", o.iter, "iterative solver: qmr|bicg|bicgstab|cgnr")->capture_default_str();
  sub->add_option("--eps", e.eps, "relative residual to reach")->capture_default_str();
  sub->add_option("--maxiter", e.maxiter, "iteration limit (default 3·box volume)");
  sub->add_flag("--accept-unconverged", e.accept_unconverged,
                "a polarization that does not converge is a warning (exit status 0), not an error");
  sub->add_option("--sym", o.sym, "auto|no: use the particle's symmetry to solve one polarization")->capture_default_str();
  sub->add_flag("--mueller", e.mueller, "Mueller matrix in the yz scattering plane (file mueller)");
  sub->add_option("--ntheta", e.ntheta, "θ points over 0..180° (default from the box volume, as ADDA)");
  sub->add_option("--grid-phi", e.grid_phi, "also a (θ, φ) grid with this many φ points (file mueller_scatgrid)");
  sub->add_flag("--csca", e.csca, "Csca and Qsca by integration over all directions");
  sub->add_flag("--asym", e.asym, "asymmetry vector g by integration (implies --csca)");
  sub->add_flag("--store-int-field", o.store_int_field, "write internal fields (IntField-X/Y)");
  sub->add_flag("--store-dip-pol", o.store_dip_pol, "write dipole polarizations (DipPol-X/Y)");
  sub->add_option("--save-geom", o.output.save_geom, "write the dipole set as an ADDA shape file");
  sub->add_flag("--no-vol-cor", o.no_vol_cor, "no volume correction of the dipole size");
  sub->add_flag("--prognosis", o.prognosis, "print the grid and memory estimate, solve nothing");
  add_output_folder_option(*sub, o.output.output_dir, "folder for CrossSec-X/Y, mueller, log");
  sub->add_option("--device", o.device, "auto|cpu|gpu")->capture_default_str();
  sub->add_option("--precision", o.precision,
                  "auto (double) | double (float64) | single (float32 FFT products in a float64 iteration, converged on the "
                  "float64 residual)")->capture_default_str();
  add_compute_options(*sub, e.compute);
  sub->add_flag("--quiet,-q", o.quiet, "no iteration log or summary on stderr");
  add_ranks_per_gpu_option(*sub, o.ranks_per_gpu);
  sub->callback([options, context] { run(*options, context); });
}

}  // namespace nanoscatter::cli
