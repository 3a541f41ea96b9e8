// `nanoscatter debye`: orientation-averaged powder pattern I(Q) of an atom
// list from the Debye equation, optional partials and PDF. Parses, checks
// every option before any work, calls the library, writes the results.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "nanoscatter/debye.hpp"
#include "nanoscatter/debye_normalize.hpp"
#include "nanoscatter/debye_pdf.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/io_hdf5.hpp"
#include "nanoscatter/io_png.hpp"
#include "nanoscatter/io_text.hpp"
#include "nanoscatter/output_format.hpp"
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
  std::string method = "exact";
  std::string pdf;
  double energy = 0;
  std::string normalize = "none";
  bool no_debye_waller = false;
};

bool given(const CLI::App& sub, const char* option) { return sub.count(option) > 0; }

std::vector<double> q_grid(const CLI::App& sub, const DebyeCliOptions& o) {
  const bool angles = given(sub, "--two-theta-min") || given(sub, "--two-theta-max") ||
                      given(sub, "--wavelength");
  if (!given(sub, "--qpoints")) fail_at({"", 0, "--qpoints"}, "required: the number of Q points");
  if (angles) {
    for (const char* q : {"--qmin", "--qmax"})
      if (given(sub, q))
        fail_at({"", 0, q}, "give either --qmin/--qmax or --two-theta-min/--two-theta-max/--wavelength");
    for (const char* a : {"--two-theta-min", "--two-theta-max", "--wavelength"})
      if (!given(sub, a)) fail_at({"", 0, a}, "required with a 2θ grid");
    return two_theta_q_grid(o.two_theta_min, o.two_theta_max, o.qpoints, o.wavelength);
  }
  if (!given(sub, "--qmax"))
    fail_at({"", 0, "--qmax"},
            "required (or give --two-theta-min/--two-theta-max/--wavelength for a 2θ grid)");
  return uniform_q_grid(o.qmin, o.qmax, o.qpoints);
}

// Text, HDF5 or a PNG plot; the directory must exist (checked before the work).
OutputFormat checked_output(const std::string& path, const char* option) {
  constexpr const char* formats = "debye writes text (.dat, .txt, .csv), HDF5 (.h5, .hdf5) or a plot (.png)";
  OutputFormat format;
  try {
    format = output_format_from_path(path);
  } catch (const Error& e) {
    const std::string reason = e.reason();  // "unknown extension '.x'; use ..." (all writers' list)
    fail_at({path, 0, option}, reason.substr(0, reason.find(';')), "; ", formats);
  }
  if (format == OutputFormat::xyz) fail_at({path, 0, option}, formats);
  const auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty() && !std::filesystem::is_directory(dir))
    fail_at({path, 0, option}, "directory '", dir.string(), "' does not exist");
  return format;
}

std::string intensity_unit(Radiation r, DebyeNormalization n) {
  if (n == DebyeNormalization::sq) return "";
  if (n == DebyeNormalization::fq) return "1/Å";
  const std::string base = r == Radiation::xray ? "e²" : (r == Radiation::neutron ? "fm²" : "Å²");
  return n == DebyeNormalization::per_atom ? base + "/atom" : base;
}

std::string intensity_column(DebyeNormalization n) {
  switch (n) {
    case DebyeNormalization::none: return "I";
    case DebyeNormalization::per_atom: return "I_per_atom";
    case DebyeNormalization::sq: return "S";
    case DebyeNormalization::fq: return "F";
  }
  return "I";
}

struct RunInfo {
  std::vector<std::string> lines;  // header lines, also HDF5 attributes
};

RunInfo describe(const DebyeCliOptions& o, const RunContext& context, const Structure& structure,
                 const DebyeOptions& options, DebyeNormalization norm, double seconds) {
  RunInfo info;
  std::ostringstream os;
  info.lines.push_back("nanoscatter debye: I(Q) = Σ_i Σ_j f_i f_j* sin(Q r_ij)/(Q r_ij), self terms "
                       "included; Debye–Waller damps pair terms only");
  info.lines.push_back("command: " + context.command_line);
  info.lines.push_back("version: nanoscatter " + context.version);
  info.lines.push_back("structure: " + o.structure +
                       (structure.title.empty() ? "" : " (" + structure.title + ")"));
  info.lines.push_back("atoms: " + std::to_string(structure.atoms.size()));
  os << "radiation: " << to_string(options.radiation);
  if (options.factors.energy_kev) os << ", anomalous f', f'' at " << *options.factors.energy_kev << " keV";
  os << (options.factors.debye_waller ? ", Debye–Waller on" : ", Debye–Waller off");
  info.lines.push_back(os.str());
  os.str("");
  os << "method: " << (options.method == DebyeMethod::exact ? "exact" : "histogram");
  if (options.method == DebyeMethod::histogram)
    os << " (bin width " << options.bin_width << " Å, second-order Taylor correction)";
  os << ", precision " << to_string(options.compute.precision) << ", device " << to_string(options.compute.device);
  info.lines.push_back(os.str());
  info.lines.push_back(std::string("normalization: ") + to_string(norm));
  os.str("");
  os << "time: " << seconds << " s";
  info.lines.push_back(os.str());
  return info;
}

// The header lines as PNG tEXt entries (nanoscatter:header_0, ...).
std::vector<std::pair<std::string, std::string>> png_header(const std::vector<std::string>& lines) {
  std::vector<std::pair<std::string, std::string>> text;
  for (std::size_t i = 0; i < lines.size(); ++i) text.emplace_back("nanoscatter:header_" + std::to_string(i), lines[i]);
  return text;
}

void write_pattern(const std::string& path, OutputFormat format, const RunInfo& info,
                   const DebyeResult& result, const std::string& column, const std::string& unit) {
  if (format == OutputFormat::png) {
    // A quick look: I(Q) on a log scale (S(Q) and F(Q), which cross zero or
    // hover around 1, on a linear one), the partials in colour.
    std::vector<PlotSeries> series{{column, result.intensity, plot_colours()[0]}};
    for (std::size_t p = 0; p < result.partials.size(); ++p)
      series.push_back({result.partial_names[p], result.partials[p], plot_colours()[1 + p % 9]});
    PlotOptions plot;
    plot.log_y = column == "I" || column == "I_per_atom";
    plot.x_label = "Q (1/Å)";
    plot.y_label = unit.empty() ? column : column + " (" + unit + ")";
    plot.text = png_header(info.lines);
    write_png_plot(path, result.q, series, plot);
    return;
  }
  if (format == OutputFormat::text) {
    TextTable t;
    t.header_lines = info.lines;
    t.column_names = {"Q", column};
    t.column_units = {"1/Å", unit};
    t.columns = {result.q, result.intensity};
    for (std::size_t p = 0; p < result.partials.size(); ++p) {
      t.column_names.push_back(result.partial_names[p]);
      t.column_units.push_back(unit);
      t.columns.push_back(result.partials[p]);
    }
    write_text_table(path, t);
    return;
  }
  H5Writer h5(path);
  h5.write("/q", result.q.data(), {result.q.size()});
  h5.set_attribute("/q", "units", "1/Å");
  h5.write("/intensity", result.intensity.data(), {result.intensity.size()});
  h5.set_attribute("/intensity", "units", unit);
  h5.set_attribute("/intensity", "quantity", column);
  for (std::size_t p = 0; p < result.partials.size(); ++p) {
    const std::string name = "/partials/" + result.partial_names[p];
    h5.write(name, result.partials[p].data(), {result.partials[p].size()});
    h5.set_attribute(name, "units", unit);
  }
  for (std::size_t i = 0; i < info.lines.size(); ++i)
    h5.set_attribute("/", "header_" + std::to_string(i), info.lines[i]);
  h5.set_attribute("/", "atom_count", std::int64_t(result.atom_count));
  h5.commit();
}

void write_pdf(const std::string& path, OutputFormat format, const RunInfo& info,
               const PdfResult& pdf) {
  std::vector<std::string> lines = info.lines;
  std::ostringstream os;
  os << "PDF: R(r) = (1/N) Σ_{i≠j} w_i w_j Re(f_i f_j*)/|<f>|² δ(r − r_ij) at Q = 0; "
        "G(r) = R(r)/r − 4π r ρ0 γ0(r), γ0 of a sphere";
  lines.push_back(os.str());
  os.str("");
  os << "N = " << pdf.atoms << ", R_g = " << pdf.radius_of_gyration
     << " Å, sphere radius R = sqrt(5/3) R_g = " << pdf.sphere_radius
     << " Å, rho0 = N/(4πR³/3) = " << pdf.number_density << " 1/Å³";
  lines.push_back(os.str());
  if (format == OutputFormat::png) {
    PlotOptions plot;  // G(r), linear
    plot.log_y = false;
    plot.x_label = "r (Å)";
    plot.y_label = "G (1/Å²)";
    plot.text = png_header(lines);
    write_png_plot(path, pdf.r, {{"G", pdf.g, plot_colours()[0]}}, plot);
    return;
  }
  if (format == OutputFormat::text) {
    TextTable t;
    t.header_lines = lines;
    t.column_names = {"r", "R", "G"};
    t.column_units = {"Å", "1/Å", "1/Å²"};
    t.columns = {pdf.r, pdf.rdf, pdf.g};
    write_text_table(path, t);
    return;
  }
  H5Writer h5(path);
  h5.write("/r", pdf.r.data(), {pdf.r.size()});
  h5.set_attribute("/r", "units", "Å");
  h5.write("/R", pdf.rdf.data(), {pdf.rdf.size()});
  h5.set_attribute("/R", "units", "1/Å");
  h5.write("/G", pdf.g.data(), {pdf.g.size()});
  h5.set_attribute("/G", "units", "1/Å²");
  for (std::size_t i = 0; i < lines.size(); ++i)
    h5.set_attribute("/", "header_" + std::to_string(i), lines[i]);
  h5.set_attribute("/", "number_density", pdf.number_density);
  h5.set_attribute("/", "sphere_radius", pdf.sphere_radius);
  h5.commit();
}

void run(const CLI::App& sub, const DebyeCliOptions& o, const RunContext& context) {
  // Every option first, so that bad input costs no work and leaves no file
  // (the checks are the library's: DebyeOptions::validate, which the plan
  // calls again).
  DebyeOptions options = o.engine;
  options.radiation = parse_radiation(o.radiation);
  options.method = parse_debye_method(o.method);
  const DebyeNormalization norm = parse_debye_normalization(o.normalize);
  const std::vector<double> q = q_grid(sub, o);
  if (given(sub, "--energy")) options.factors.energy_kev = o.energy;
  options.factors.debye_waller = !o.no_debye_waller;
  options.compute.precision = parse_precision(o.common.precision);
  const parallel::Communicator& comm = context.comm;
  options.compute.quiet = o.common.quiet || !comm.root();  // one progress bar: rank 0's
  options.share = comm.share();
  options.validate();
  const OutputFormat out_format = checked_output(o.common.output, "--output");
  OutputFormat pdf_format = OutputFormat::text;
  if (!o.pdf.empty()) {
    pdf_format = checked_output(o.pdf, "--pdf");
    o.pdf_grid.validate();
  }
  const DeviceRequest device = parse_device(o.common.device);

  const Structure structure = read_structure(o.structure);
  if (structure.atoms.empty()) fail_at({o.structure, 0, "structure"}, "the structure has no atoms");
  // After every check of the input, so that bad input gets exactly one line.
  options.compute.device = select_rank_device(device, o.common.quiet, o.common.ranks_per_gpu, context);
  DebyeResult result;
  const auto start = std::chrono::steady_clock::now();
  try {
    result = DebyePlan(structure, options).execute(q);
  } catch (const Error& e) {
    // Problems with the atoms (none, bad occupancy) belong to the file.
    if (e.where().field == "structure" || e.where().field.rfind("atom ", 0) == 0)
      rethrow_with(e, {o.structure, 0, ""});
    throw;
  }
  // Under mpirun each rank holds its blocks' part: rank 0 adds the parts in
  // rank order (float64) and alone goes on.
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  comm.sum_in_rank_order(result.intensity);
  for (auto& partial : result.partials) comm.sum_in_rank_order(partial);
  parallel::report_load(comm, "debye", seconds, result.pairs, o.common.quiet, options.compute.device);
  // The PDF's histograms: every rank its pair blocks, added up on rank 0 in
  // rank order; the rest is cheap (the other ranks' PDFs, of their parts
  // only, are dropped).
  std::optional<PdfResult> pdf;
  if (!o.pdf.empty()) {
    HistogramCombiner combine;
    if (comm.distributed()) combine = [&comm](std::span<double> v) { comm.sum_in_rank_order(v); };
    pdf = pair_distribution(structure, options, o.pdf_grid, combine);
  }
  if (!comm.root()) return;
  result.seconds = seconds;
  options.share = WorkShare{};
  normalize_debye_result(result, structure, options, norm);

  const RunInfo info = describe(o, context, structure, options, norm, result.seconds);
  write_pattern(o.common.output, out_format, info, result, intensity_column(norm),
                intensity_unit(options.radiation, norm));
  if (pdf) write_pdf(o.pdf, pdf_format, info, *pdf);
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
                     ".dat/.txt/.csv text, .h5 HDF5, .png plot of I(Q)");
  sub->add_option("--radiation", o.radiation, "xray|neutron|electron")->capture_default_str();
  sub->add_option("--qmin", o.qmin, "first Q, Å⁻¹ (≥ 0)")->capture_default_str();
  sub->add_option("--qmax", o.qmax, "last Q, Å⁻¹");
  sub->add_option("--qpoints", o.qpoints, "number of Q points (uniform in Q, or in 2θ)");
  sub->add_option("--two-theta-min", o.two_theta_min, "first 2θ, degrees (instead of --qmin)");
  sub->add_option("--two-theta-max", o.two_theta_max, "last 2θ, degrees (instead of --qmax)");
  sub->add_option("--wavelength", o.wavelength, "wavelength for the 2θ grid, Å");
  sub->add_option("--method", o.method, "exact|histogram")->capture_default_str();
  sub->add_option("--bin-width", o.engine.bin_width, "histogram bin width Δr, Å")->capture_default_str();
  sub->add_flag("--partials", o.engine.partials, "one more column per species pair (sums to the total)");
  sub->add_option("--pdf", o.pdf, "also write R(r) and G(r) to this file (.dat/.txt/.csv, .h5, or .png: a plot of G(r))");
  sub->add_option("--pdf-dr", o.pdf_grid.dr, "r step of the PDF, Å")->capture_default_str();
  sub->add_option("--pdf-rmax", o.pdf_grid.r_max, "last r of the PDF, Å (0: the largest distance)");
  sub->add_option("--energy", o.energy, "X-ray photon energy, keV: adds anomalous f', f''");
  sub->add_option("--normalize", o.normalize, "none|per-atom|sq|fq")->capture_default_str();
  sub->add_flag("--no-debye-waller", o.no_debye_waller, "ignore the atoms' B factors");
  sub->add_option("--threads", o.engine.compute.threads, "CPU threads (0: all)")->capture_default_str();
  sub->callback([sub, options, context] { run(*sub, *options, context); });
}

}  // namespace nanoscatter::cli
