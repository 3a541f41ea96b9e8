// Writing pattern2d results: HDF5 (everything), text (one row per pixel) and
// a log-scale figure (pattern2d_output.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <utility>

#include "nanoscatter/error.hpp"
#include "nanoscatter/io_figure.hpp"
#include "nanoscatter/io_nexus.hpp"
#include "nanoscatter/run_record.hpp"
#include "nanoscatter/io_text.hpp"
#include "nanoscatter/output_format.hpp"
#include "nanoscatter/pattern2d_output.hpp"

namespace nanoscatter {

namespace {

constexpr const char* kTitle =
    "nanoscatter pattern2d: I = |A|^2 + sum_j |f_j|^2 (w_j - w_j^2 T_j^2); q in the lab frame";

// What pattern2d writes to `--output` (HDF5 first: it holds everything).
OutputFormat checked_output(const std::string& path, const std::string& option) {
  return checked_output_path(path, option, {OutputFormat::hdf5, OutputFormat::text, OutputFormat::png}, "pattern2d");
}

const char* intensity_unit(Radiation r) {
  switch (r) {
    case Radiation::xray: return "electron^2";
    case Radiation::neutron: return "fm^2";
    case Radiation::electron: return "angstrom^2";
  }
  return "";
}

// One-line description of the run's geometry.
std::string describe(const Pattern2DResult& result, const Pattern2DGeometry& g, const Pattern2DOptions& o) {
  std::ostringstream os;
  os.precision(17);
  os << "pattern2d: " << result.atom_count << " atoms, " << to_string(o.radiation) << ", wavelength "
     << g.wavelength << " angstrom, beam (" << g.beam_direction.x << ", " << g.beam_direction.y << ", "
     << g.beam_direction.z << "), " << (g.curvature ? "Ewald sphere" : "no curvature") << ", "
     << (result.grid.polar ? "polar" : "flat") << " detector " << result.grid.rows << "x" << result.grid.cols;
  return os.str();
}


std::vector<double> orientation_values(const Mat3& m) {
  std::vector<double> v;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) v.push_back(m.row[i][j]);
  return v;
}

void check_sizes(const Pattern2DResult& r) {
  const std::size_t n = r.grid.rows * r.grid.cols;
  if (r.intensity.size() != n || r.grid.q.size() != n || (!r.amplitude.empty() && r.amplitude.size() != n))
    fail("pattern2d output: result arrays do not match the detector size");
}

// Which index runs along which axis, and which way is up (docs/nexus.md).
std::string orientation(const DetectorGrid& grid) {
  if (grid.polar)
    return "row index: q (ring, increasing from row 0); column index: phi (azimuth, increasing from 0 deg); "
           "drawn with row 0 at the bottom";
  return "row index: detector y, increasing upwards (row 0 at the bottom); column index: detector x, increasing "
         "to the right";
}

void write_hdf5(const std::string& path, const Pattern2DResult& result, const RunRecord& record,
                const Pattern2DGeometry& g, const Pattern2DOptions& o) {
  const auto& grid = result.grid;
  nexus::Writer nx(path, record, record.header_lines(kTitle));
  nx.field("data/intensity", result.intensity.data(), {grid.rows, grid.cols},
           {intensity_unit(o.radiation), std::string("I (") + intensity_unit(o.radiation) + ")"});
  H5Writer& h5 = nx.h5();
  const std::string intensity = nexus::Writer::in_entry("data/intensity");
  h5.set_attribute(intensity, "definition",
                   "I = |A|^2 + sum_j |f_j|^2 (w_j - w_j^2 T_j^2); rows: " + grid.row_name +
                       ", columns: " + grid.col_name);
  nx.field("data/" + grid.row_name, grid.row_axis.data(), {grid.rows},
           {grid.row_unit, grid.row_name + " (" + grid.row_unit + ")"});
  nx.field("data/" + grid.col_name, grid.col_axis.data(), {grid.cols},
           {grid.col_unit, grid.col_name + " (" + grid.col_unit + ")"});
  nx.data_group(
      {.name = "data", .signal = "intensity", .axes = {grid.row_name, grid.col_name}, .orientation = orientation(grid)});
  nx.alias("/intensity", "data/intensity");
  nx.alias("/axes/" + grid.row_name, "data/" + grid.row_name);
  nx.alias("/axes/" + grid.col_name, "data/" + grid.col_name);

  std::vector<double> q(3 * grid.q.size());
  for (std::size_t p = 0; p < grid.q.size(); ++p) {
    q[3 * p] = grid.q[p].x;
    q[3 * p + 1] = grid.q[p].y;
    q[3 * p + 2] = grid.q[p].z;
  }
  nx.field("pixels/q", q.data(), {grid.rows, grid.cols, 3}, {"1/angstrom", "q vector (qx, qy, qz) per pixel"});
  h5.set_attribute(nexus::Writer::in_entry("pixels"), "NX_class", "NXcollection");
  h5.set_attribute(nexus::Writer::in_entry("pixels/q"), "frame",
                   "lab (beam along beam_direction; sample rotated by orientation)");
  nx.alias("/q", "pixels/q");
  if (!result.amplitude.empty()) {
    nx.field("data/amplitude", result.amplitude.data(), {grid.rows, grid.cols}, {});
    h5.set_attribute(nexus::Writer::in_entry("data/amplitude"), "definition", "A = sum_j w_j f_j T_j exp(i q.r_j)");
    nx.alias("/amplitude", "data/amplitude");
  }

  h5.set_attribute("/", "engine", record.engine);
  h5.set_attribute("/", "command", record.command);
  h5.set_attribute("/", "version", std::string(library_version()));
  h5.set_attribute("/", "atom_count", std::int64_t(result.atom_count));
  h5.set_attribute("/", "radiation", to_string(o.radiation));
  h5.set_attribute("/", "wavelength_angstrom", g.wavelength);
  h5.set_attribute("/", "beam_direction", std::vector<double>{g.beam_direction.x, g.beam_direction.y,
                                                              g.beam_direction.z});
  h5.set_attribute("/", "orientation", orientation_values(g.orientation));
  h5.set_attribute("/", "curvature", int(g.curvature));
  h5.set_attribute("/", "debye_waller", int(o.factors.debye_waller));
  if (result.energy_kev) h5.set_attribute("/", "anomalous_energy_kev", *result.energy_kev);
  if (o.radiation == Radiation::electron) h5.set_attribute("/", "electron_gamma", result.electron_gamma);
  h5.set_attribute("/", "precision", to_string(o.compute.resolved_precision()));
  h5.set_attribute("/", "device", to_string(o.compute.device));
  h5.set_attribute("/", "seconds", result.seconds);
  if (const auto* polar = std::get_if<PolarDetector>(&g.detector)) {
    h5.set_attribute("/", "detector", "polar");
    h5.set_attribute("/", "qmax", polar->qmax);
    h5.set_attribute("/", "nq", polar->nq);
    h5.set_attribute("/", "nphi", polar->nphi);
  } else {
    const auto& flat = std::get<FlatDetector>(g.detector);
    h5.set_attribute("/", "detector", "flat");
    h5.set_attribute("/", "distance", flat.distance);
    h5.set_attribute("/", "pixel_size", flat.pixel_size);
    h5.set_attribute("/", "nx", flat.nx);
    h5.set_attribute("/", "ny", flat.ny);
    // The direct beam as every detector option places it (docs/conventions.md):
    // pixels from the lower-left corner of pixel (0, 0), i.e. the centre
    // coordinate plus half a pixel.
    constexpr double kHalfPixel = 0.5;
    const double cx = flat.beam_center ? (*flat.beam_center)[0] : 0.5 * (flat.nx - 1);
    const double cy = flat.beam_center ? (*flat.beam_center)[1] : 0.5 * (flat.ny - 1);
    h5.set_attribute("/", "direct_beam", std::vector<double>{cx + kHalfPixel, cy + kHalfPixel});
  }
  nx.commit();
}

void write_text(const std::string& path, const Pattern2DResult& result, const RunRecord& record,
                const Pattern2DOptions& o) {
  const auto& grid = result.grid;
  TextTable table;
  table.header_lines = record.header_lines(kTitle);
  const bool amp = !result.amplitude.empty();
  table.column_names = {grid.polar ? "q" : "x", grid.polar ? "phi" : "y", "qx", "qy", "qz", "I"};
  const std::string iu = intensity_unit(o.radiation);
  table.column_units = {grid.polar ? "1/angstrom" : "mm", grid.polar ? "degree" : "mm", "1/angstrom",
                        "1/angstrom", "1/angstrom", iu};
  if (amp) {
    table.column_names.insert(table.column_names.end(), {"A_re", "A_im"});
    const std::string au = o.radiation == Radiation::xray      ? "electron"
                           : o.radiation == Radiation::neutron ? "fm"
                                                               : "angstrom";
    table.column_units.insert(table.column_units.end(), {au, au});
  }
  table.columns.assign(table.column_names.size(), {});
  for (std::size_t r = 0; r < grid.rows; ++r)
    for (std::size_t c = 0; c < grid.cols; ++c) {
      const std::size_t p = r * grid.cols + c;
      table.columns[0].push_back(grid.polar ? grid.row_axis[r] : grid.col_axis[c]);
      table.columns[1].push_back(grid.polar ? grid.col_axis[c] : grid.row_axis[r]);
      table.columns[2].push_back(grid.q[p].x);
      table.columns[3].push_back(grid.q[p].y);
      table.columns[4].push_back(grid.q[p].z);
      table.columns[5].push_back(result.intensity[p]);
      if (amp) {
        table.columns[6].push_back(result.amplitude[p].real());
        table.columns[7].push_back(result.amplitude[p].imag());
      }
    }
  write_text_table(path, table);
}

// The intensity's unit in a figure's label.
const char* intensity_symbol(Radiation r) {
  switch (r) {
    case Radiation::xray: return "e²";
    case Radiation::neutron: return "fm²";
    case Radiation::electron: return "Å²";
  }
  return "";
}

// The polar grid (|q|_i, φ_j) resampled onto a square picture of the
// detector plane, (|q| cos φ, |q| sin φ) over [−qmax, qmax]², one picture
// pixel per about half a ring spacing; NaN (grey) off the detector.
std::vector<double> polar_picture(const DetectorGrid& grid, const std::vector<double>& intensity, std::size_t side) {
  const double qmax = grid.row_axis.back();
  const double half = 0.5 * double(side - 1);
  const double dq = grid.rows > 1 ? qmax / double(grid.rows - 1) : qmax;
  const double dphi = 2 * std::numbers::pi / double(grid.cols);
  std::vector<double> picture(side * side, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t r = 0; r < side; ++r)
    for (std::size_t c = 0; c < side; ++c) {
      const double qx = (double(c) - half) / half * qmax, qy = (double(r) - half) / half * qmax;
      const double qm = std::hypot(qx, qy);
      if (qm > qmax * (1 + 1e-12)) continue;
      double phi = std::atan2(qy, qx);
      if (phi < 0) phi += 2 * std::numbers::pi;
      // Bilinear in (ring, azimuth), azimuth periodic; a single ring is constant in |q|.
      const double fi = grid.rows > 1 ? std::min(qm / dq, double(grid.rows - 1)) : 0.0;
      const std::size_t i0 = std::min(std::size_t(fi), grid.rows - 1), i1 = std::min(i0 + 1, grid.rows - 1);
      const double ti = fi - double(i0);
      const double fj = phi / dphi;
      const std::size_t j0 = std::size_t(fj) % grid.cols, j1 = (j0 + 1) % grid.cols;
      const double tj = fj - std::floor(fj);
      auto at = [&](std::size_t i, std::size_t j) { return intensity[i * grid.cols + j]; };
      picture[r * side + c] = (1 - ti) * ((1 - tj) * at(i0, j0) + tj * at(i0, j1)) +
                              ti * ((1 - tj) * at(i1, j0) + tj * at(i1, j1));
    }
  return picture;
}

void write_png(const std::string& path, const Pattern2DResult& result, const RunRecord& record,
               const Pattern2DGeometry& g, const Pattern2DOptions& o) {
  const auto& grid = result.grid;
  ImagePanel panel;
  std::ostringstream title;
  title << "pattern2d: " << result.atom_count << " atoms, " << display_name(o.radiation) << ", λ = " << g.wavelength
        << " Å" << (g.curvature ? "" : ", no curvature");
  panel.title = title.str();
  panel.colour_label = std::string("I (") + intensity_symbol(o.radiation) + ")";
  panel.equal_aspect = true;
  if (grid.polar) {
    // One picture pixel per about half a ring spacing, within these bounds.
    constexpr std::size_t kMinSide = 65, kMaxSide = 1025;
    const std::size_t side = std::clamp<std::size_t>(2 * grid.rows - 1, kMinSide, kMaxSide);
    const double qmax = grid.row_axis.back();
    panel.values = polar_picture(grid, result.intensity, side);
    panel.rows = panel.cols = side;
    // Picture pixel centres run from −qmax to qmax: the edges lie half a pixel out.
    const double half_pixel = qmax / double(side - 1);
    panel.x_min = panel.y_min = -qmax - half_pixel;
    panel.x_max = panel.y_max = qmax + half_pixel;
    panel.x_label = "|q| cos φ (Å⁻¹)";
    panel.y_label = "|q| sin φ (Å⁻¹)";
  } else {
    const auto& flat = std::get<FlatDetector>(g.detector);
    panel.values = result.intensity;
    panel.rows = grid.rows, panel.cols = grid.cols;
    panel.x_min = grid.col_axis.front() - flat.pixel_size / 2, panel.x_max = grid.col_axis.back() + flat.pixel_size / 2;
    panel.y_min = grid.row_axis.front() - flat.pixel_size / 2, panel.y_max = grid.row_axis.back() + flat.pixel_size / 2;
    panel.x_label = "x (mm)";
    panel.y_label = "y (mm)";
  }
  FigureOptions figure = quick_look_figure();
  figure.text = png_header_entries(record.header_lines(kTitle));
  write_figure_png(path, {panel}, figure);
}

}  // namespace

void check_pattern2d_outputs(const std::string& output, const std::string& png, const Pattern2DOptions& options) {
  if (!output.empty() && checked_output(output, "output") == OutputFormat::png && options.amplitude)
    fail_at({output, 0, "amplitude", true}, "a .png output cannot hold the amplitude; use .h5 or text");
  if (!png.empty()) checked_output_path(png, "png", {OutputFormat::png}, "pattern2d");
}

std::vector<std::string> pattern2d_run_lines(const std::string& structure_name, const std::string& structure_title,
                                             bool b_factors,
                                             const Pattern2DResult& result, const Pattern2DGeometry& geometry,
                                             const Pattern2DOptions& options) {
  std::vector<std::string> lines;
  lines.push_back("structure: " + structure_name + (structure_title.empty() ? "" : " (" + structure_title + ")"));
  lines.push_back(describe(result, geometry, options));
  std::ostringstream os;
  // As the Debye header: the damping is on by default and changes nothing
  // where every B = 0, so it is named only where some atom has B ≠ 0.
  os << "factors: ";
  if (b_factors) os << (options.factors.debye_waller ? "Debye–Waller on (B from the structure)" : "Debye–Waller off");
  else os << "no Debye–Waller (every B = 0)";
  if (result.energy_kev) os << ", anomalous f', f'' at " << *result.energy_kev << " keV";
  if (options.radiation == Radiation::electron) os << ", electron gamma " << result.electron_gamma;
  os << "; precision " << to_string(options.compute.resolved_precision()) << ", device " << to_string(options.compute.device);
  lines.push_back(os.str());
  os.str("");
  os << "time: " << result.seconds << " s";
  lines.push_back(os.str());
  return lines;
}

void write_pattern2d(const std::string& path, const Pattern2DResult& result, const RunRecord& record,
                     const Pattern2DGeometry& geometry, const Pattern2DOptions& options) {
  const OutputFormat format = checked_output(path, "output");
  check_sizes(result);
  switch (format) {
    case OutputFormat::hdf5: write_hdf5(path, result, record, geometry, options); break;
    case OutputFormat::text: write_text(path, result, record, options); break;
    case OutputFormat::png: write_png(path, result, record, geometry, options); break;
    case OutputFormat::xyz:
    case OutputFormat::xye: break;  // refused by checked_output
  }
}

}  // namespace nanoscatter
