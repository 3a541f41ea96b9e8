// `nanoscatter debye`: orientation-averaged powder pattern I(Q) of an atom
// list from the Debye equation, optional partials and PDF. Parses, checks
// every option before any work, calls the library, writes the results.
#include <chrono>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "unit_options.hpp"
#include "memory_size.hpp"
#include "nanoscatter/debye.hpp"
#include "nanoscatter/debye_normalize.hpp"
#include "nanoscatter/debye_output.hpp"
#include "nanoscatter/debye_pdf.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/pattern1d.hpp"
#include "nanoscatter/structure_io.hpp"

namespace nanoscatter::cli {
namespace {

// Flags that set a field of the library's options are bound to it; the rest
// are the CLI's own (strings the library parses, the Q grid, file names).
struct DebyeCliOptions {
  CommonOptions common;
  DebyeOptions engine;
  PdfOptions pdf_grid;
  std::string structure;
  std::string radiation = "xray";
  double qmin = 0, qmax = 0;
  int qpoints = 0;
  double two_theta_min = 0, two_theta_max = 0, wavelength = 0;
  std::string q_file, q_file_axis;
  std::string method = "exact";
  std::string histogram_mode = "precise";
  std::string pdf;
  double energy = 0;
  bool anomalous = false;
  std::string normalize = "none";
  bool no_debye_waller = false;
  double counts = 0;  // .xye output
  std::uint64_t noise_seed = 0;
};

bool given(const CLI::App& sub, const char* option) { return sub.count(option) > 0; }

// The Q list of a measured pattern (pattern1d.hpp): its x column, in Q, from
// 2θ with the file's wavelength or --wavelength, or from d.
std::vector<double> q_list(const CLI::App& sub, const DebyeCliOptions& o) {
  for (const char* grid : {"--qmin", "--qmax", "--qpoints", "--two-theta-min", "--two-theta-max"})
    if (given(sub, grid)) fail_at({"", 0, grid}, "give either --q-file or a Q grid (--qmin/--qmax/--qpoints, 2θ)");
  PatternReadOptions read;
  if (given(sub, "--q-file-axis")) {
    try {
      read.axis = parse_pattern_axis(o.q_file_axis);
    } catch (const Error& e) {
      fail_at({"", 0, "--q-file-axis"}, e.reason());
    }
  }
  if (given(sub, "--wavelength")) read.wavelength = o.wavelength;
  return read_q_points(o.q_file, read);
}

std::vector<double> q_grid(const CLI::App& sub, const DebyeCliOptions& o) {
  if (given(sub, "--q-file")) return q_list(sub, o);
  if (given(sub, "--q-file-axis")) fail_at({"", 0, "--q-file-axis"}, "applies to --q-file only");
  // The flags given, as QGridOptions' fields; make_q_grid checks them.
  QGridOptions grid;
  const auto map = [&](const char* flag, auto& field, auto value) {
    if (given(sub, flag)) field = value;
  };
  map("--qmin", grid.qmin, o.qmin);
  map("--qmax", grid.qmax, o.qmax);
  map("--qpoints", grid.qpoints, o.qpoints);
  map("--two-theta-min", grid.two_theta_min, o.two_theta_min);
  map("--two-theta-max", grid.two_theta_max, o.two_theta_max);
  map("--wavelength", grid.wavelength, o.wavelength);
  return make_q_grid(grid);
}

void run(const CLI::App& sub, const DebyeCliOptions& o, const RunContext& context) {
  // Every option first, so that bad input costs no work and leaves no file
  // (the checks are the library's: DebyeOptions::validate, which the plan
  // calls again).
  DebyeOptions options = o.engine;
  options.radiation = parse_radiation(o.radiation);
  options.method = parse_debye_method(o.method);
  options.histogram_mode = parse_histogram_mode(o.histogram_mode);
  const DebyeNormalization norm = parse_debye_normalization(o.normalize);
  const std::vector<double> q = q_grid(sub, o);
  const std::optional<double> wavelength = given(sub, "--wavelength") ? std::optional(o.wavelength) : std::nullopt;
  if (!o.anomalous && given(sub, "--energy")) warn_renamed("--energy without --anomalous", "--anomalous --energy");
  options.factors.energy_kev = anomalous_energy_kev(
      o.anomalous, given(sub, "--energy") ? std::optional(o.energy) : std::nullopt, wavelength);
  options.factors.debye_waller = !o.no_debye_waller;
  options.compute.precision = parse_precision(o.common.precision);
  const parallel::Communicator& comm = context.comm;
  options.compute.quiet = o.common.quiet || !comm.root();  // one progress bar: rank 0's
  options.share = comm.share();
  options.validate();
  checked_debye_output(o.common.output, "output");
  if (given(sub, "--noise-seed") && !given(sub, "--counts")) fail_at({"", 0, "--noise-seed"}, "needs --counts");
  std::optional<DebyeCounts> xye_counts;
  if (given(sub, "--counts")) xye_counts = DebyeCounts{o.counts, std::nullopt};
  if (given(sub, "--noise-seed")) xye_counts->noise_seed = o.noise_seed;
  check_debye_counts(o.common.output, wavelength, xye_counts, norm);
  if (!o.pdf.empty()) {
    checked_debye_output(o.pdf, "pdf");
    o.pdf_grid.validate();
  }
  const DeviceRequest device = parse_device(o.common.device);

  const Structure structure = read_structure(o.structure);
  if (structure.atoms.empty()) fail_at({o.structure, 0, "structure"}, "the structure has no atoms");
  // After every check of the input, so that bad input gets exactly one line.
  options.compute.device = select_rank_device(device, o.common.ranks_per_gpu, context);
  DebyeResult result;
  std::optional<DebyePlan> plan;
  const auto start = std::chrono::steady_clock::now();
  try {
    plan.emplace(structure, options);
    result = plan->execute(q);
  } catch (const Error& e) {
    // Problems with the atoms (none, bad occupancy) belong to the file.
    if (e.where().field == "structure" || e.where().field.rfind("atom ", 0) == 0)
      rethrow_with(e, {o.structure, 0, ""});
    throw;
  }
  // Under mpirun each rank holds its blocks' part: the parts are added in
  // rank order (float64), and rank 0 alone goes on to write.
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  parallel::report_load(comm, "debye", seconds, result.pairs, o.common.quiet, options.compute.device);
  result.reduce(comm);
  // The PDF's histograms (the plan's own in histogram mode): every rank its
  // pair blocks, added up on rank 0 in rank order; the rest is cheap (the
  // other ranks' PDFs, of their parts only, are dropped).
  std::optional<PdfResult> pdf;
  if (!o.pdf.empty()) {
    HistogramCombiner combine;
    if (comm.distributed()) combine = [&comm](std::span<double> v) { comm.sum_in_rank_order(v); };
    pdf = pair_distribution(*plan, o.pdf_grid, combine);
  }
  if (!comm.root()) return;
  result.seconds = seconds;
  options.share = WorkShare{};
  normalize_debye_result(result, structure, options, norm);

  const RunRecord record{"debye", context.command_line,
                         debye_run_lines(o.structure, structure, options, norm, result.seconds)};
  write_debye(o.common.output, result, record, options.radiation, norm, wavelength, xye_counts);
  if (pdf) write_pdf(o.pdf, *pdf, record);
  if (!o.common.quiet)
    std::fprintf(stderr, "debye: %zu atoms, %zu Q points, %.3f s → %s\n", result.atom_count,
                 q.size(), result.seconds, o.common.output.c_str());
}

}  // namespace

void add_debye_command(CLI::App& app, const RunContext& context) {
  auto* sub = app.add_subcommand("debye", "orientation-averaged powder pattern I(Q) (Debye equation)");
  auto options = std::make_shared<DebyeCliOptions>();
  DebyeCliOptions& o = *options;
  sub->add_option("structure", o.structure, "atoms: .xyz, .extxyz, .pdb, .cif")->required();
  add_common_options(*sub, o.common, /*with_precision=*/true,
                     ".dat/.txt/.csv text, .h5 HDF5, .png plot of I(Q), .xye counts on 2θ (--counts)");
  sub->add_option("--radiation", o.radiation, "xray|neutron|electron")->capture_default_str();
  sub->add_option("--qmin", o.qmin, "first Q, Å⁻¹ (≥ 0)")->capture_default_str();
  sub->add_option("--qmax", o.qmax, "last Q, Å⁻¹");
  sub->add_option("--qpoints", o.qpoints, "number of Q points (uniform in Q, or in 2θ)");
  // Å and degrees when bare, or with their unit: --wavelength 0.154nm (unit_options.hpp).
  const QuantityParser angstrom = length_in(units::Length::angstrom), degrees = angle_in(units::Angle::deg);
  add_quantity_option(*sub, "--two-theta-min", o.two_theta_min, degrees, "first 2θ, degrees (instead of --qmin)");
  add_quantity_option(*sub, "--two-theta-max", o.two_theta_max, degrees, "last 2θ, degrees (instead of --qmax)");
  add_quantity_option(*sub, "--wavelength", o.wavelength, wavelength_in(units::Length::angstrom), "wavelength for the 2θ grid, Å (or 0.154nm, 8.04keV)");
  sub->add_option("--q-file", o.q_file,
                  "the Q points: the x column of a pattern file (.xy .dat .txt .xye .chi .fxye), "
                  "in Q, or in 2θ with the file's or --wavelength's λ (instead of a grid)");
  sub->add_option("--q-file-axis", o.q_file_axis, "axis of a --q-file that does not say: two_theta (default), q or d");
  sub->add_option("--method", o.method, "exact|histogram")->capture_default_str();
  add_quantity_option(*sub, "--bin-width", o.engine.bin_width, angstrom, "histogram bin width Δr, Å")
      ->default_str(detail::concat(o.engine.bin_width));
  sub->add_option("--histogram-mode", o.histogram_mode,
                  "precise|fast: the histogram's bins, the same function on the CPU and a GPU; fast is within "
                  "1e-4 of precise and faster on a GPU (docs/debye.md)")
      ->capture_default_str();
  sub->add_flag("--partials", o.engine.partials, "one more column per species pair (sums to the total)");
  sub->add_option("--pdf", o.pdf, "also write R(r) and G(r) to this file (.dat/.txt/.csv, .h5, or .png: a plot of G(r))");
  add_quantity_option(*sub, "--pdf-dr", o.pdf_grid.dr, angstrom, "r step of the PDF, Å")->default_str(detail::concat(o.pdf_grid.dr));
  add_quantity_option(*sub, "--pdf-rmax", o.pdf_grid.r_max, angstrom, "last r of the PDF, Å (0: the largest distance)");
  sub->add_flag("--anomalous", o.anomalous, "X-rays: add f', f'' (xraylib) at the energy --energy, or hc/λ of --wavelength");
  add_quantity_option(*sub, "--energy", o.energy, energy_in_kev(), "X-ray photon energy, keV (or 8040eV), for --anomalous");
  sub->add_option("--normalize", o.normalize, "none|per-atom|sq|fq")->capture_default_str();
  sub->add_flag("--no-debye-waller", o.no_debye_waller, "ignore the atoms' B factors");
  sub->add_option("--counts", o.counts, ".xye output: counts at the pattern's maximum (σ = √counts)");
  sub->add_option("--noise-seed", o.noise_seed, ".xye output: draw Poisson noise with this seed");
  add_compute_options(*sub, o.engine.compute);
  sub->callback([sub, options, context] { run(*sub, *options, context); });
}

}  // namespace nanoscatter::cli
