// Fit outputs: HDF5 (images, parameter table, correlation, history, run
// record) and the data / fit / residual figure (fit_file.hpp).
#include <cmath>

#include "nanoscatter/fit_file.hpp"
#include "nanoscatter/io_figure.hpp"
#include "nanoscatter/io_hdf5.hpp"

namespace nanoscatter::fit {

namespace {
std::string joined_lines(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : "\n") + n;
  return out;
}
}  // namespace

void write_fit_hdf5(const std::filesystem::path& path, const FitRun& run, const RunRecord& record) {
  const FitResult& r = run.result;
  H5Writer h5(path);
  const std::vector<std::size_t> dims{r.rows, r.cols};
  h5.write("/data", run.data.values.data(), dims);
  h5.write("/model", r.model.data(), dims);
  h5.write("/residual", r.residual.data(), dims);
  h5.write("/normalised_residual", r.normalised_residual.data(), dims);
  h5.write("/mask", run.data.use.data(), dims);
  h5.set_attribute("/mask", "meaning", "1 = used in the fit (not masked); model orientation, row 0 the lowest row");
  h5.set_attribute("/data", "region", std::vector<double>{double(run.region.row0), double(run.region.rows),
                                                          double(run.region.col0), double(run.region.cols)});
  h5.set_attribute("/data", "region_meaning", "row0, rows, col0, cols of the detector (row 0 the lowest row)");
  if (!run.data.sigma.empty()) h5.write("/sigma", run.data.sigma.data(), dims);
  if (!run.pixels.horizontal.empty()) {
    h5.write("/axes/" + run.pixels.horizontal_name, run.pixels.horizontal.data(), {run.pixels.horizontal.size()});
    h5.set_attribute("/axes/" + run.pixels.horizontal_name, "unit", run.pixels.horizontal_unit);
    h5.write("/axes/" + run.pixels.vertical_name, run.pixels.vertical.data(), {run.pixels.vertical.size()});
    h5.set_attribute("/axes/" + run.pixels.vertical_name, "unit", run.pixels.vertical_unit);
  }

  const std::size_t k = r.parameters.size();
  std::vector<std::string> names;
  std::vector<double> value, sigma, lo, hi;
  std::vector<std::uint8_t> fixed, tied, linear;
  for (const auto& p : r.parameters) {
    names.push_back(p.name), value.push_back(p.value), sigma.push_back(p.sigma), lo.push_back(p.min),
        hi.push_back(p.max), fixed.push_back(p.fixed), tied.push_back(p.tied), linear.push_back(p.linear);
  }
  h5.write("/parameters/value", value.data(), {k});
  h5.write("/parameters/sigma", sigma.data(), {k});
  h5.write("/parameters/min", lo.data(), {k});
  h5.write("/parameters/max", hi.data(), {k});
  h5.write("/parameters/fixed", fixed.data(), {k});
  h5.write("/parameters/tied", tied.data(), {k});
  h5.write("/parameters/closed_form", linear.data(), {k});
  h5.set_attribute("/parameters", "names", joined_lines(names));
  h5.set_attribute("/parameters", "sigma_convention", "sqrt(diag((J^T W J)^-1)) * sqrt(chi2_red) (lmfit, BornAgain)");
  const std::size_t q = r.correlation_names.size();
  if (q) {
    h5.write("/correlation", r.correlation.data(), {q, q});
    h5.set_attribute("/correlation", "names", joined_lines(r.correlation_names));
  }
  const std::size_t iterations = r.history_chi2.size();
  if (iterations) {
    h5.write("/history/chi2", r.history_chi2.data(), {iterations});
    std::vector<double> flat;
    for (const auto& row : r.history_parameters) flat.insert(flat.end(), row.begin(), row.end());
    const std::size_t given = r.history_parameters.front().size();
    h5.write("/history/parameters", flat.data(), {iterations, given});
    std::vector<std::string> given_names(names.begin(), names.begin() + long(std::min(given, names.size())));
    h5.set_attribute("/history/parameters", "names", joined_lines(given_names));
  }
  h5.set_attribute("/", "chi2", r.chi2);
  h5.set_attribute("/", "chi2_reduced", r.chi2_reduced);
  h5.set_attribute("/", "degrees_of_freedom", std::int64_t(r.degrees_of_freedom));
  h5.set_attribute("/", "iterations", r.iterations);
  h5.set_attribute("/", "evaluations", r.evaluations);
  h5.set_attribute("/", "seconds", r.seconds);
  h5.set_attribute("/", "converged", int(r.converged));
  h5.set_attribute("/", "message", r.message);
  const auto header = record.header_lines("nanoscatter fit");
  for (std::size_t i = 0; i < header.size(); ++i) h5.set_attribute("/", "header_" + std::to_string(i), header[i]);
  h5.commit();
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
  auto label = [](const std::string& name, const std::string& unit) {
    const std::string shown = name == "phi_f" ? "φ_f" : name == "alpha_f" ? "α_f" : name;
    return unit.empty() ? shown : shown + " (" + (unit == "deg" ? "°" : unit == "1/nm" ? "nm⁻¹" : unit) + ")";
  };
  auto extent = [](const std::vector<double>& edges, const std::vector<double>& centres, double& lo, double& hi) {
    if (edges.size() >= 2) lo = edges.front(), hi = edges.back();
    else if (centres.size() >= 2) {
      const double half = (centres[1] - centres[0]) / 2;
      lo = centres.front() - half, hi = centres.back() + half;
    } else lo = 0, hi = 1;
  };
  ImagePanel data;
  data.rows = r.rows, data.cols = r.cols;
  extent(g.horizontal_edges, g.horizontal, data.x_min, data.x_max);
  extent(g.vertical_edges, g.vertical, data.y_min, data.y_max);
  data.x_label = label(g.horizontal_name, g.horizontal_unit);
  data.y_label = label(g.vertical_name, g.vertical_unit);
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
