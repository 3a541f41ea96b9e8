// Fit outputs: HDF5 (images, parameter table, correlation, history, run
// record) and the data / fit / residual figure (fit_file.hpp).
#include <cmath>

#include "nanoscatter/fit_file.hpp"
#include "nanoscatter/gisaxs_output.hpp"
#include "nanoscatter/io_figure.hpp"
#include "nanoscatter/io_nexus.hpp"

namespace nanoscatter::fit {

namespace {
std::string joined_lines(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : "\n") + n;
  return out;
}

// The line fits name their axis for figures ("2θ" in "°", "r" in "Å"); in
// HDF5 names and units are spelled as docs/nexus.md says.
std::pair<std::string, std::string> nexus_axis(const std::string& name, const std::string& unit) {
  if (name == "2θ") return {"two_theta", "deg"};
  return {name, unit == "Å" ? "angstrom" : unit};
}

}  // namespace

void write_fit_hdf5(const std::filesystem::path& path, const FitRun& run, const RunRecord& record) {
  const FitResult& r = run.result;
  const auto header = record.header_lines("nanoscatter fit");
  nexus::Writer nx(path, record, header);
  H5Writer& h5 = nx.h5();
  const auto in_entry = nexus::Writer::in_entry;
  // A line fit (PDF, powder) is one row: a curve of the horizontal axis.
  const bool curve = r.rows == 1;
  const std::vector<std::size_t> dims = curve ? std::vector<std::size_t>{r.cols} : std::vector<std::size_t>{r.rows, r.cols};
  const auto [h_name, h_unit] = nexus_axis(run.pixels.horizontal_name, run.pixels.horizontal_unit);
  const auto [v_name, v_unit] = nexus_axis(run.pixels.vertical_name, run.pixels.vertical_unit);
  nx.field("data/data", run.data.values.data(), dims, {"", "data"});
  nx.field("data/model", r.model.data(), dims, {"", "fitted model"});
  nx.field("data/residual", r.residual.data(), dims, {"", "residual"});
  nx.field("data/normalised_residual", r.normalised_residual.data(), dims, {"", "normalised residual"});
  nx.field("data/mask", run.data.use.data(), dims, {"", "1 = used in the fit"});
  h5.set_attribute(in_entry("data/mask"), "meaning",
                   "1 = used in the fit (not masked); model orientation, row 0 the lowest row");
  h5.set_attribute(in_entry("data/data"), "region",
                   std::vector<double>{double(run.region.row0), double(run.region.rows), double(run.region.col0),
                                       double(run.region.cols)});
  h5.set_attribute(in_entry("data/data"), "region_meaning",
                   "row0, rows, col0, cols of the detector (row 0 the lowest row)");
  if (!run.data.sigma.empty()) {
    nx.field("data/sigma", run.data.sigma.data(), dims, {"", "sigma of the data"});
    nx.alias("/sigma", "data/sigma");
  }
  for (const char* name : {"data", "model", "residual", "normalised_residual", "mask"})
    nx.alias(std::string("/") + name, std::string("data/") + name);
  if (!run.pixels.horizontal.empty()) {
    nx.field("data/" + h_name, run.pixels.horizontal.data(), {run.pixels.horizontal.size()},
             {h_unit, h_unit.empty() ? h_name : h_name + " (" + h_unit + ")"});
    nx.alias("/axes/" + h_name, "data/" + h_name);
    if (!curve) {
      nx.field("data/" + v_name, run.pixels.vertical.data(), {run.pixels.vertical.size()},
               {v_unit, v_unit.empty() ? v_name : v_name + " (" + v_unit + ")"});
      nx.alias("/axes/" + v_name, "data/" + v_name);
    }
    nx.data_group({.name = "data",
                   .signal = "data",
                   .axes = curve ? std::vector<std::string>{h_name} : std::vector<std::string>{v_name, h_name},
                   .auxiliary_signals = {"model"},
                   .orientation = curve ? "" : "row index: " + v_name + ", increasing upwards (row 0 the lowest, at "
                                               "the bottom); column index: " + h_name + ", increasing to the right"});
  } else {
    nx.data_group({.name = "data",
                   .signal = "data",
                   .axes = std::vector<std::string>(dims.size(), "."),
                   .auxiliary_signals = {"model"}});
  }

  const std::size_t k = r.parameters.size();
  std::vector<std::string> names;
  std::vector<double> value, sigma, lo, hi;
  std::vector<std::uint8_t> fixed, tied, linear;
  for (const auto& p : r.parameters) {
    names.push_back(p.name), value.push_back(p.value), sigma.push_back(p.sigma), lo.push_back(p.min),
        hi.push_back(p.max), fixed.push_back(p.fixed), tied.push_back(p.tied), linear.push_back(p.linear);
  }
  nx.field("parameters/value", value.data(), {k}, {});
  nx.field("parameters/sigma", sigma.data(), {k}, {});
  nx.field("parameters/min", lo.data(), {k}, {});
  nx.field("parameters/max", hi.data(), {k}, {});
  nx.field("parameters/fixed", fixed.data(), {k}, {});
  nx.field("parameters/tied", tied.data(), {k}, {});
  nx.field("parameters/closed_form", linear.data(), {k}, {});
  const std::string parameters = in_entry("parameters");
  h5.set_attribute(parameters, "NX_class", "NXparameters");
  h5.set_attribute(parameters, "names", joined_lines(names));
  h5.set_attribute(parameters, "sigma_convention", "sqrt(diag((J^T W J)^-1)) * sqrt(chi2_red) (lmfit, BornAgain)");
  nx.alias("/parameters", "parameters");
  const std::size_t q = r.correlation_names.size();
  if (q) {
    nx.field("correlation", r.correlation.data(), {q, q}, {"", "parameter correlation"});
    h5.set_attribute(in_entry("correlation"), "names", joined_lines(r.correlation_names));
    nx.alias("/correlation", "correlation");
  }
  const std::size_t iterations = r.history_chi2.size();
  if (iterations) {
    nx.field("history/chi2", r.history_chi2.data(), {iterations}, {"", "chi2"});
    std::vector<double> flat;
    for (const auto& row : r.history_parameters) flat.insert(flat.end(), row.begin(), row.end());
    const std::size_t given = r.history_parameters.front().size();
    nx.field("history/parameters", flat.data(), {iterations, given}, {});
    std::vector<std::string> given_names(names.begin(), names.begin() + long(std::min(given, names.size())));
    h5.set_attribute(in_entry("history/parameters"), "names", joined_lines(given_names));
    h5.set_attribute(in_entry("history"), "NX_class", "NXcollection");
    nx.alias("/history", "history");
  }
  h5.set_attribute("/", "chi2", r.chi2);
  h5.set_attribute("/", "chi2_reduced", r.chi2_reduced);
  h5.set_attribute("/", "degrees_of_freedom", std::int64_t(r.degrees_of_freedom));
  h5.set_attribute("/", "iterations", r.iterations);
  h5.set_attribute("/", "evaluations", r.evaluations);
  h5.set_attribute("/", "seconds", r.seconds);
  h5.set_attribute("/", "converged", int(r.converged));
  h5.set_attribute("/", "message", r.message);
  nx.commit();
}

namespace {

std::string short_number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

// A fit of one row (a PDF, a powder pattern): data and fit against the
// axis, and their difference drawn below the curves (offset so that it
// clears them), as PDFgui and Rietveld programs show it.
void write_line_fit_png(const std::filesystem::path& path, const FitRun& run) {
  const FitResult& r = run.result;
  const gisaxs::PixelGrid& g = run.pixels;
  LineSeries data{"data", {}, {}, {0, 0, 0}}, fit{"fit", {}, {}, {200, 30, 30}},
      difference{"difference", {}, {}, {30, 130, 60}};
  double lo = 0, spread = 0;
  for (std::size_t i = 0; i < r.cols; ++i) {
    if (!run.data.use[i]) continue;
    lo = std::min({lo, run.data.values[i], r.model[i]});
    spread = std::max(spread, std::abs(run.data.values[i] - r.model[i]));
  }
  const double offset = lo - 1.2 * spread;  // the difference curve's zero line
  for (std::size_t i = 0; i < r.cols; ++i) {
    if (!run.data.use[i]) continue;
    const double x = g.horizontal[i];
    data.x.push_back(x), data.y.push_back(run.data.values[i]);
    fit.x.push_back(x), fit.y.push_back(r.model[i]);
    difference.x.push_back(x), difference.y.push_back(run.data.values[i] - r.model[i] + offset);
  }
  LinePanel panel;
  panel.x_label = g.horizontal_name + (g.horizontal_unit.empty() ? "" : " (" + g.horizontal_unit + ")");
  panel.y_label = g.horizontal_name == "r" ? "G (Å⁻²)" : "intensity";
  panel.title = std::string(std::isfinite(run.rw) ? run.rw_name + " = " + short_number(run.rw) + ", " : "") +
                "χ²_red = " + short_number(r.chi2_reduced) + (r.converged ? "" : ", NOT converged") +
                "; difference offset by " + short_number(offset);
  panel.series = {data, fit, difference};
  FigureOptions options;
  options.panel_width = 900, options.panel_height = 480;
  write_figure_png(path, {panel}, options);
}

}  // namespace

void write_fit_png(const std::filesystem::path& path, const FitRun& run) {
  const FitResult& r = run.result;
  const gisaxs::PixelGrid& g = run.pixels;
  if (r.rows == 1 && g.horizontal.size() == r.cols) return write_line_fit_png(path, run);
  ImagePanel data = gisaxs::detector_panel(g, {});
  data.rows = r.rows, data.cols = r.cols;
  data.colour_label = "counts";
  ImagePanel fit = data, residual = data;
  data.title = "data";
  data.values = run.data.values;
  for (std::size_t p = 0; p < data.values.size(); ++p)
    if (!run.data.use[p]) data.values[p] = std::nan("");
  fit.title = "fit (χ²_red = " + short_number(r.chi2_reduced) + (r.converged ? ")" : ", NOT converged)");
  fit.values = r.model;
  // Data and fit on one colour scale.
  double hi = 0;
  for (std::size_t p = 0; p < data.values.size(); ++p)
    if (std::isfinite(data.values[p])) hi = std::max({hi, data.values[p], fit.values[p]});
  if (hi > 0) data.vmax = fit.vmax = hi, data.vmin = fit.vmin = hi / 1e6;
  residual.title = "normalised residual";
  residual.values = r.normalised_residual;
  residual.scale = ColourScale::diverging;
  residual.colour_label = "σ";
  write_figure_png(path, {data, fit, residual});
}

}  // namespace nanoscatter::fit
