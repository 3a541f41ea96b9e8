// Writers of gisaxs images: HDF5 (image, axes, per-pixel geometry, metadata),
// text in BornAgain's layout (rows = φ_f bins, columns = α_f bins) and a
// log-scale figure with α_f upwards. Each goes through a temporary file, so a
// failed run leaves nothing behind.
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/constants.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs_output.hpp"
#include "nanoscatter/io_nexus.hpp"

namespace nanoscatter::gisaxs {

namespace {

std::vector<double> in_degrees(const std::vector<double>& radians) {
  std::vector<double> d;
  d.reserve(radians.size());
  for (double r : radians) d.push_back(r / kDegree);
  return d;
}

const char* kIntensityMeaning =
    "I = rho_s |(pi/lambda^2)(n_p^2 - n_layer^2) F_DWBA|^2 dOmega / sin(alpha_i) x beam intensity, "
    "at the pixel centre (BornAgain's normalisation)";

std::string describe_detector(const PixelGrid& g) {
  std::ostringstream os;
  os << "detector: " << g.cols << " x " << g.rows << " pixels, " << g.horizontal_name << " [" << g.horizontal_unit
     << "] from " << g.horizontal.front() << " to " << g.horizontal.back() << ", " << g.vertical_name << " ["
     << g.vertical_unit << "] from " << g.vertical.front() << " to " << g.vertical.back() << " (pixel centres)";
  return os.str();
}

void write_hdf5(const std::string& path, const GisaxsResult& r, const RunRecord& record,
                const std::vector<std::string>& header) {
  const PixelGrid& g = r.pixels;
  nexus::Writer nx(path, record, header);
  H5Writer& h5 = nx.h5();
  nx.field("data/intensity", r.intensity.data(), {r.rows, r.cols}, {"", "I (per unit beam intensity)"});
  const std::string intensity = nexus::Writer::in_entry("data/intensity");
  h5.set_attribute(intensity, "normalisation", "per unit beam intensity (dimensionless)");
  h5.set_attribute(intensity, "definition", kIntensityMeaning);
  h5.set_attribute(intensity, "rows", g.vertical_name + " (row 0 lowest)");
  h5.set_attribute(intensity, "columns", g.horizontal_name + " (column 0 lowest)");
  for (const auto& [name, unit, centres, edges] :
       {std::tuple{g.horizontal_name, g.horizontal_unit, &g.horizontal, &g.horizontal_edges},
        std::tuple{g.vertical_name, g.vertical_unit, &g.vertical, &g.vertical_edges}}) {
    nx.field("data/" + name, centres->data(), {centres->size()}, {unit, name + " (" + unit + ")"});
    nx.field("data/" + name + "_edges", edges->data(), {edges->size()}, {unit, name + " pixel edges (" + unit + ")"});
    nx.alias("/axes/" + name, "data/" + name);
    nx.alias("/axes/" + name + "_edges", "data/" + name + "_edges");
  }
  nx.data_group({.name = "data",
                 .signal = "intensity",
                 .axes = {g.vertical_name, g.horizontal_name},
                 .orientation = "row index: " + g.vertical_name +
                                ", increasing upwards (row 0 the lowest, drawn at the bottom); column index: " +
                                g.horizontal_name + ", increasing to the right"});
  nx.alias("/intensity", "data/intensity");
  const std::vector<std::size_t> dims{r.rows, r.cols};
  const auto alpha = in_degrees(g.alpha_f), phi = in_degrees(g.phi_f);
  nx.field("pixels/alpha_f", alpha.data(), dims, {"deg", "alpha_f (deg)"});
  nx.field("pixels/phi_f", phi.data(), dims, {"deg", "phi_f (deg)"});
  nx.field("pixels/solid_angle", g.solid_angle.data(), dims, {"sr", "solid angle (sr)"});
  for (const auto& [name, data] : {std::pair{"qx", &g.qx}, std::pair{"qy", &g.qy}, std::pair{"qz", &g.qz}}) {
    nx.field(std::string("pixels/") + name, data->data(), dims, {"1/nm", std::string(name) + " (1/nm)"});
    h5.set_attribute(nexus::Writer::in_entry(std::string("pixels/") + name), "definition",
                     "q = k_i - k_f in the ambient");
  }
  nx.field("pixels/reachable", g.reachable.data(), dims, {"", "1 = reachable by the scattered beam"});
  h5.set_attribute(nexus::Writer::in_entry("pixels"), "NX_class", "NXcollection");
  nx.alias("/pixels", "pixels");
  h5.set_attribute("/", "particle_kinds", std::int64_t(r.particle_kinds));
  h5.set_attribute("/", "seconds", r.seconds);
  nx.commit();
}

void write_text(const std::string& path, const GisaxsResult& r, const std::vector<std::string>& header) {
  const PixelGrid& g = r.pixels;
  AtomicOutput out(path);
  {
    std::ofstream f(out.temp_path());
    if (!f) fail_at({path, 0, "output", true}, "cannot write the file");
    for (const std::string& line : header) f << "# " << line << "\n";
    f << "# " << kIntensityMeaning << "\n";
    f << "# layout: one row per " << g.horizontal_name << " bin (" << r.cols << "), one column per "
      << g.vertical_name << " bin (" << r.rows << "), as BornAgain writes intensity maps\n";
    auto axis_line = [&](const char* what, const std::string& name, const std::string& unit,
                         const std::vector<double>& values) {
      f << "# " << name << " " << what << " [" << unit << "]:";
      char buf[32];
      for (double x : values) {
        std::snprintf(buf, sizeof buf, " %.17g", x);
        f << buf;
      }
      f << "\n";
    };
    axis_line("centres", g.horizontal_name, g.horizontal_unit, g.horizontal);
    axis_line("centres", g.vertical_name, g.vertical_unit, g.vertical);
    if (!g.horizontal_edges.empty()) axis_line("edges", g.horizontal_name, g.horizontal_unit, g.horizontal_edges);
    if (!g.vertical_edges.empty()) axis_line("edges", g.vertical_name, g.vertical_unit, g.vertical_edges);
    char buf[32];
    for (std::size_t c = 0; c < r.cols; ++c) {
      for (std::size_t row = 0; row < r.rows; ++row) {
        std::snprintf(buf, sizeof buf, "% .16e", r.intensity[row * r.cols + c]);
        f << (row ? "  " : "") << buf;
      }
      f << "\n";
    }
    f.flush();
    if (!f) fail_at({path, 0, "output", true}, "write error");
  }
  out.commit();
}

// The sample file's name from the record's "sample: <path>" line
// (gisaxs_run_lines), for the figure's title; "" where there is none.
std::string sample_name(const RunRecord& record) {
  const std::string prefix = "sample: ";
  for (const std::string& line : record.lines)
    if (line.rfind(prefix, 0) == 0) return std::filesystem::path(line.substr(prefix.size())).filename().string();
  return "";
}

std::string axis_label(const std::string& name, const std::string& unit) {
  const std::string shown = name == "phi_f" ? "φ_f" : name == "alpha_f" ? "α_f" : name;
  const std::string u = unit == "deg" ? "°" : unit == "1/nm" ? "nm⁻¹" : unit;
  return u.empty() ? shown : shown + " (" + u + ")";
}

// [lo, hi] of an axis: its bin edges, else the outer centres ± half a pixel.
void axis_extent(const std::vector<double>& edges, const std::vector<double>& centres, double& lo, double& hi) {
  if (edges.size() >= 2) lo = edges.front(), hi = edges.back();
  else if (centres.size() >= 2) {
    const double half = (centres[1] - centres[0]) / 2;
    lo = centres.front() - half, hi = centres.back() + half;
  } else if (centres.size() == 1) lo = centres[0] - 0.5, hi = centres[0] + 0.5;
  else lo = 0, hi = 1;
}

void write_png(const std::string& path, const GisaxsResult& r, const RunRecord& record,
               const std::vector<std::string>& header, Approximation approximation) {
  ImagePanel panel = detector_panel(r.pixels, r.intensity);
  const std::string sample = sample_name(record);
  panel.title = (sample.empty() ? "" : sample + ": ") + "GISAXS, " +
                (approximation == Approximation::dwba ? "DWBA" : "Born approximation");
  panel.colour_label = "I / I₀";
  FigureOptions figure = quick_look_figure();
  figure.text = png_header_entries(header);
  write_figure_png(path, {panel}, figure);
}

}  // namespace

OutputFormat checked_image_output(const std::string& path, const std::string& option) {
  return checked_output_path(path, option, {OutputFormat::hdf5, OutputFormat::text, OutputFormat::png}, "gisaxs");
}

std::vector<std::string> gisaxs_run_lines(const Sample& sample, const GisaxsResult& result) {
  std::vector<std::string> lines{"sample: " + sample.source};
  std::ostringstream os;
  os.precision(10);
  os << "beam: wavelength " << sample.beam.wavelength << " nm, alpha_i " << sample.beam.alpha_i / kDegree
     << " deg, phi_i " << sample.beam.phi_i / kDegree << " deg, intensity " << sample.beam.intensity;
  lines.push_back(os.str());
  lines.push_back(describe_detector(result.pixels));
  os.str("");
  os << "layers: " << sample.layers.size() << ", particle kinds: " << result.particle_kinds << ", time: "
     << result.seconds << " s";
  lines.push_back(os.str());
  return lines;
}

void write_gisaxs(const std::string& path, const GisaxsResult& result, const RunRecord& record,
                  Approximation approximation) {
  const OutputFormat format = checked_image_output(path, "output");
  const std::vector<std::string> header =
      record.header_lines(std::string("nanoscatter gisaxs: ") + (approximation == Approximation::dwba
                                                                     ? "distorted-wave Born approximation"
                                                                     : "Born approximation"));
  if (format == OutputFormat::hdf5) write_hdf5(path, result, record, header);
  else if (format == OutputFormat::text) write_text(path, result, header);
  else write_png(path, result, record, header, approximation);
}

ImagePanel detector_panel(const PixelGrid& g, std::vector<double> values) {
  ImagePanel panel;
  panel.rows = g.rows, panel.cols = g.cols;
  panel.values = std::move(values);
  axis_extent(g.horizontal_edges, g.horizontal, panel.x_min, panel.x_max);
  axis_extent(g.vertical_edges, g.vertical, panel.y_min, panel.y_max);
  panel.x_label = axis_label(g.horizontal_name, g.horizontal_unit);
  panel.y_label = axis_label(g.vertical_name, g.vertical_unit);
  return panel;
}

}  // namespace nanoscatter::gisaxs
