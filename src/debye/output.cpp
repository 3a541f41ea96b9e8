#include "nanoscatter/debye_output.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <utility>

#include "nanoscatter/io_hdf5.hpp"
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

std::string intensity_column(DebyeNormalization n) {
  switch (n) {
    case DebyeNormalization::none: return "I";
    case DebyeNormalization::per_atom: return "I_per_atom";
    case DebyeNormalization::sq: return "S";
    case DebyeNormalization::fq: return "F";
  }
  return "I";
}


}  // namespace

OutputFormat checked_debye_output(const std::string& path, const std::string& option) {
  return checked_output_path(path, option, {OutputFormat::text, OutputFormat::hdf5, OutputFormat::png}, "debye");
}

void write_debye(const std::string& path, const DebyeResult& result, const RunRecord& record, Radiation radiation,
                 DebyeNormalization normalization, std::optional<double> wavelength) {
  const OutputFormat format = checked_debye_output(path, "output");
  std::vector<double> two_theta;
  if (wavelength)
    for (const double q : result.q) two_theta.push_back(two_theta_from_q(q, *wavelength));
  const std::string column = intensity_column(normalization), unit = intensity_unit(radiation, normalization);
  const std::vector<std::string> lines = record.header_lines(kTitle);
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
    plot.text = png_header_entries(lines);
    write_png_plot(path, result.q, series, plot);
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
  H5Writer h5(path);
  h5.write("/q", result.q.data(), {result.q.size()});
  h5.set_attribute("/q", "units", "1/Å");
  if (wavelength) {
    h5.write("/two_theta", two_theta.data(), {two_theta.size()});
    h5.set_attribute("/two_theta", "units", "deg");
    h5.set_attribute("/two_theta", "wavelength_angstrom", *wavelength);
  }
  h5.write("/intensity", result.intensity.data(), {result.intensity.size()});
  h5.set_attribute("/intensity", "units", unit);
  h5.set_attribute("/intensity", "quantity", column);
  for (std::size_t p = 0; p < result.partials.size(); ++p) {
    const std::string name = "/partials/" + result.partial_names[p];
    h5.write(name, result.partials[p].data(), {result.partials[p].size()});
    h5.set_attribute(name, "units", unit);
  }
  for (std::size_t i = 0; i < lines.size(); ++i)
    h5.set_attribute("/", "header_" + std::to_string(i), lines[i]);
  h5.set_attribute("/", "atom_count", std::int64_t(result.atom_count));
  h5.commit();
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
    PlotOptions plot;  // G(r), linear
    plot.log_y = false;
    plot.x_label = "r (Å)";
    plot.y_label = "G (1/Å²)";
    plot.text = png_header_entries(lines);
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
  const bool some_b = std::any_of(structure.atoms.begin(), structure.atoms.end(),
                                  [](const Atom& a) { return a.b_iso != 0; });
  if (options.factors.debye_waller && some_b) os << ", Debye–Waller on (B from the structure)";
  else if (some_b) os << ", Debye–Waller off";
  lines.push_back(os.str());
  os.str("");
  os << "method: " << (options.method == DebyeMethod::exact ? "exact" : "histogram");
  if (options.method == DebyeMethod::histogram)
    os << " (bin width " << options.bin_width << " Å, second-order Taylor correction)";
  os << ", precision " << to_string(options.compute.precision) << ", device " << to_string(options.compute.device);
  lines.push_back(os.str());
  lines.push_back(std::string("normalization: ") + to_string(norm));
  os.str("");
  os << "time: " << seconds << " s";
  lines.push_back(os.str());
  return lines;
}

}  // namespace nanoscatter
