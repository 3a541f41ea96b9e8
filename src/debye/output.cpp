#include "nanoscatter/debye_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <utility>

#include "nanoscatter/io_figure.hpp"
#include "nanoscatter/io_nexus.hpp"
#include "nanoscatter/io_png.hpp"
#include "nanoscatter/pattern1d.hpp"
#include "nanoscatter/run_record.hpp"
#include "nanoscatter/io_text.hpp"

namespace nanoscatter {
namespace {

constexpr const char* kTitle =
    "nanoscatter debye: I(Q) = Σ_i Σ_j f_i f_j* sin(Q r_ij)/(Q r_ij), self terms included; Debye–Waller damps "
    "pair terms only";

std::string intensity_unit(Radiation r, DebyeNormalization n) {
  if (n == DebyeNormalization::sq) return "";
  if (n == DebyeNormalization::fq) return "1/Å";
  const std::string base = r == Radiation::xray ? "e²" : (r == Radiation::neutron ? "fm²" : "Å²");
  return n == DebyeNormalization::per_atom ? base + "/atom" : base;
}

// The same units in the HDF5 file's spelling (docs/nexus.md).
std::string nexus_intensity_unit(Radiation r, DebyeNormalization n) {
  if (n == DebyeNormalization::sq) return "";
  if (n == DebyeNormalization::fq) return "1/angstrom";
  const std::string base = r == Radiation::xray ? "electron^2" : (r == Radiation::neutron ? "fm^2" : "angstrom^2");
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

// The y axis of an I(Q) figure: the quantity and its unit.
std::string intensity_label(DebyeNormalization n, const std::string& unit) {
  const std::string name = n == DebyeNormalization::per_atom ? "I/N"
                           : n == DebyeNormalization::sq     ? "S(Q)"
                           : n == DebyeNormalization::fq     ? "F(Q)"
                                                             : "I(Q)";
  return unit.empty() ? name : name + " (" + unit + ")";
}


// The .xye file: 2θ, the intensity as counts (DebyeCounts), σ.
void write_counts(const std::string& path, const DebyeResult& result, const std::vector<double>& two_theta,
                  double wavelength, const DebyeCounts& counts, std::vector<std::string> lines) {
  const double largest = *std::max_element(result.intensity.begin(), result.intensity.end());
  if (!(largest > 0)) fail_option("counts", "the pattern has no positive intensity to scale to counts");
  Pattern1D pattern;
  pattern.axis = PatternAxis::two_theta;
  pattern.wavelength = wavelength;
  pattern.x = two_theta;
  std::mt19937_64 rng(counts.noise_seed.value_or(0));
  for (const double i : result.intensity) {
    const double mean = std::max(i, 0.0) * counts.peak / largest;
    const double y = counts.noise_seed ? double(std::poisson_distribution<std::int64_t>(mean)(rng)) : mean;
    pattern.y.push_back(y);
    pattern.sigma.push_back(std::sqrt(std::max(y, 1.0)));
  }
  std::ostringstream os;
  os << "counts: I scaled to " << counts.peak << " at its maximum, sigma = sqrt(max(counts, 1))";
  if (counts.noise_seed) os << ", Poisson noise of seed " << *counts.noise_seed;
  lines.push_back(os.str());
  PatternWriteOptions options;
  options.header_lines = std::move(lines);
  write_pattern(path, pattern, options);
}

// I(Q) and G(r) as PNG: one line panel, the file's header lines as its text.
void write_line_plot(const std::string& path, const LinePanel& panel, const std::vector<std::string>& lines) {
  FigureOptions figure = line_figure();
  figure.text = png_header_entries(lines);
  write_figure_png(path, {panel}, figure);
}

}  // namespace

OutputFormat checked_debye_output(const std::string& path, const std::string& option) {
  // .xye holds a powder pattern (I as counts on 2θ), not a PDF.
  if (option == "pdf") return checked_output_path(path, option, {OutputFormat::text, OutputFormat::hdf5, OutputFormat::png}, "debye");
  return checked_output_path(path, option, {OutputFormat::text, OutputFormat::hdf5, OutputFormat::png, OutputFormat::xye},
                             "debye");
}

void check_debye_counts(const std::string& path, std::optional<double> wavelength,
                        const std::optional<DebyeCounts>& counts, DebyeNormalization normalization) {
  const bool xye = output_format_from_path(path) == OutputFormat::xye;
  if (!xye) {
    if (counts) fail_option("counts", "applies to .xye output only (", path, " is not one)");
    return;
  }
  if (!wavelength) fail_option("wavelength", "required for .xye output: its x column is 2θ (degrees)");
  if (!counts)
    fail_option("counts", "required for .xye output: a simulated pattern has no σ; give the counts at its maximum "
                "(σ = √counts, Poisson)");
  if (!(counts->peak > 0) || !std::isfinite(counts->peak))
    fail_option("counts", "must be a finite number of counts > 0, got ", counts->peak);
  if (normalization == DebyeNormalization::sq || normalization == DebyeNormalization::fq)
    fail_option("normalize", "an .xye file holds counts of an intensity: none or per-atom, not ", to_string(normalization));
}

void write_debye(const std::string& path, const DebyeResult& result, const RunRecord& record, Radiation radiation,
                 DebyeNormalization normalization, std::optional<double> wavelength,
                 const std::optional<DebyeCounts>& counts) {
  const OutputFormat format = checked_debye_output(path, "output");
  check_debye_counts(path, wavelength, counts, normalization);
  std::vector<double> two_theta;
  if (wavelength)
    for (const double q : result.q) two_theta.push_back(two_theta_from_q(q, *wavelength));
  const std::string column = intensity_column(normalization), unit = intensity_unit(radiation, normalization);
  const std::vector<std::string> lines = record.header_lines(kTitle);
  if (format == OutputFormat::xye) return write_counts(path, result, two_theta, *wavelength, *counts, lines);
  if (format == OutputFormat::png) {
    // A quick look: I(Q) on a log scale (S(Q) and F(Q), which cross zero or
    // hover around 1, on a linear one), the partials in colour.
    LinePanel panel;
    panel.series.push_back({"total", result.q, result.intensity, plot_colours()[0]});
    for (std::size_t p = 0; p < result.partials.size(); ++p)
      panel.series.push_back({result.partial_names[p], result.q, result.partials[p], plot_colours()[1 + p % 9]});
    panel.log_y = normalization == DebyeNormalization::none || normalization == DebyeNormalization::per_atom;
    panel.x_label = "Q (Å⁻¹)";
    panel.y_label = intensity_label(normalization, unit);
    panel.title = "debye: " + std::to_string(result.atom_count) + " atoms, " + display_name(radiation);
    write_line_plot(path, panel, lines);
    return;
  }
  if (format == OutputFormat::text) {
    TextTable t;
    t.header_lines = lines;
    t.column_names = {"Q", column};
    t.column_units = {"1/Å", unit};
    t.columns = {result.q, result.intensity};
    for (std::size_t p = 0; p < result.partials.size(); ++p) {
      t.column_names.push_back(result.partial_names[p]);
      t.column_units.push_back(unit);
      t.columns.push_back(result.partials[p]);
    }
    if (wavelength) {  // last, so that Q and I keep their columns
      t.column_names.push_back("two_theta");
      t.column_units.push_back("deg");
      t.columns.push_back(two_theta);
    }
    write_text_table(path, t);
    return;
  }
  nexus::Writer nx(path, record, lines);
  const std::string nx_unit = nexus_intensity_unit(radiation, normalization);
  nx.field("data/q", result.q.data(), {result.q.size()}, {"1/angstrom", "Q (1/angstrom)"});
  nx.field("data/intensity", result.intensity.data(), {result.intensity.size()},
           {nx_unit, nx_unit.empty() ? column : column + " (" + nx_unit + ")"});
  nx.h5().set_attribute(nexus::Writer::in_entry("data/intensity"), "quantity", column);
  nx.alias("/q", "data/q");
  nx.alias("/intensity", "data/intensity");
  if (wavelength) {  // a second axis of the same dimension (NeXus @two_theta_indices)
    nx.field("data/two_theta", two_theta.data(), {two_theta.size()}, {"deg", "2θ (deg)"});
    nx.h5().set_attribute(nexus::Writer::in_entry("data/two_theta"), "wavelength_angstrom", *wavelength);
    nx.h5().set_attribute(nexus::Writer::in_entry("data"), "two_theta_indices", std::int64_t(0));
    nx.alias("/two_theta", "data/two_theta");
  }
  for (std::size_t p = 0; p < result.partials.size(); ++p) {
    const std::string& name = result.partial_names[p];
    nx.field("data/" + name, result.partials[p].data(), {result.partials[p].size()}, {nx_unit, name});
    nx.alias("/partials/" + name, "data/" + name);
  }
  nx.data_group({.name = "data", .signal = "intensity", .axes = {"q"}, .auxiliary_signals = result.partial_names});
  nx.h5().set_attribute("/", "atom_count", std::int64_t(result.atom_count));
  nx.commit();
}

void write_pdf(const std::string& path, const PdfResult& pdf, const RunRecord& record) {
  const OutputFormat format = checked_debye_output(path, "pdf");
  std::vector<std::string> lines = record.header_lines(kTitle);
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
    LinePanel panel;  // G(r), linear
    panel.series.push_back({"G(r)", pdf.r, pdf.g, plot_colours()[0]});
    panel.x_label = "r (Å)";
    panel.y_label = "G(r) (Å⁻²)";
    std::ostringstream title;
    title.precision(4);
    title << "PDF: N = " << pdf.atoms << " atoms, ρ₀ = " << pdf.number_density << " Å⁻³";
    panel.title = title.str();
    write_line_plot(path, panel, lines);
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
  nexus::Writer nx(path, record, lines);
  nx.field("data/r", pdf.r.data(), {pdf.r.size()}, {"angstrom", "r (angstrom)"});
  nx.field("data/G", pdf.g.data(), {pdf.g.size()}, {"1/angstrom^2", "G(r) (1/angstrom^2)"});
  nx.field("data/R", pdf.rdf.data(), {pdf.rdf.size()}, {"1/angstrom", "R(r) (1/angstrom)"});
  nx.data_group({.name = "data", .signal = "G", .axes = {"r"}});
  for (const char* name : {"r", "R", "G"}) nx.alias(std::string("/") + name, std::string("data/") + name);
  nx.h5().set_attribute("/", "number_density", pdf.number_density);
  nx.h5().set_attribute("/", "sphere_radius", pdf.sphere_radius);
  nx.commit();
}

// The run's description lines (after the title, command and version).
std::vector<std::string> debye_run_lines(const std::string& structure_name, const Structure& structure,
                                         const DebyeOptions& options, DebyeNormalization norm, double seconds) {
  std::vector<std::string> lines;
  std::ostringstream os;
  lines.push_back("structure: " + structure_name + (structure.title.empty() ? "" : " (" + structure.title + ")"));
  lines.push_back("atoms: " + std::to_string(structure.atoms.size()));
  os << "radiation: " << to_string(options.radiation);
  if (options.factors.energy_kev) os << ", anomalous f', f'' at " << *options.factors.energy_kev << " keV";
  // Debye–Waller damping is stated only where it acts: the switch is on by
  // default, and with every B = 0 it changes nothing.
  const bool some_b = structure.has_b_factors();
  if (options.factors.debye_waller && some_b) os << ", Debye–Waller on (B from the structure)";
  else if (some_b) os << ", Debye–Waller off";
  lines.push_back(os.str());
  os.str("");
  os << "method: " << (options.method == DebyeMethod::exact ? "exact" : "histogram");
  if (options.method == DebyeMethod::histogram)
    os << " (bin width " << options.bin_width << " Å, second-order Taylor correction"
       << ", " << to_string(options.histogram_mode)
       << ")";
  os << ", precision " << to_string(options.resolved_precision()) << ", device " << to_string(options.compute.device);
  lines.push_back(os.str());
  lines.push_back(std::string("normalization: ") + to_string(norm));
  os.str("");
  os << "time: " << seconds << " s";
  lines.push_back(os.str());
  return lines;
}

}  // namespace nanoscatter
