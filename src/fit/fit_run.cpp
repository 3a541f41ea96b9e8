// Data loading, region and mask, and the run of a fit description
// (fit_file.hpp).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "nanoscatter/fit_file.hpp"
#include "nanoscatter/gisaxs_sample_document.hpp"
#include "nanoscatter/detector_image.hpp"
#include "nanoscatter/mask.hpp"
#include "nanoscatter/fit_pdf.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/fit_powder.hpp"
#include "nanoscatter/pattern1d.hpp"
#include "nanoscatter/structure_io.hpp"
#include "nanoscatter/whole_number.hpp"

namespace nanoscatter::fit {

namespace {

DetectorImage read_at(const std::string& spec, std::size_t frame, const Where& where) {
  try {
    DetectorReadOptions options;
    options.frame = frame;
    return read_detector_image(spec, options);
  } catch (const Error& e) {
    fail_at(where, e.what());
  }
}

// The value masks ([mask] negative, saturation) and shapes, in the data
// file's orientation (rows reversed first when the file's row 0 is the
// lowest, since shapes count from the image's top or the detector's
// lower-left corner); pixel sizes from a flat detector for shapes in mm.
void apply_mask_options(const FitDescription& d, const gisaxs::Sample& sample, LoadedData& data) {
  DetectorMask mask = full_mask(data.rows, data.cols);
  const auto row = [&](std::size_t r) { return d.top_row_first ? r : data.rows - 1 - r; };
  for (std::size_t r = 0; r < data.rows; ++r)
    for (std::size_t c = 0; c < data.cols; ++c) {
      const std::size_t p = row(r) * data.cols + c;
      const double v = data.values[p];
      const bool masked = (!data.masked.empty() && data.masked[p]) || (d.mask_negative && v < 0) ||
                          (d.mask_saturation && v >= *d.mask_saturation) || std::isinf(v);
      mask.use[r * data.cols + c] = !masked;
    }
  MaskGeometry geometry;
  geometry.origin = d.mask_origin;
  if (const auto* flat = std::get_if<gisaxs::FlatDetector>(&sample.detector))
    geometry.pixel_size_x_mm = flat->pixel_width, geometry.pixel_size_y_mm = flat->pixel_height;
  try {
    apply(mask, d.mask_shapes, geometry);
  } catch (const Error& e) {
    if (!e.where().file.empty()) throw;
    fail_at(d.mask_where, e.reason());
  }
  data.masked.assign(data.rows * data.cols, 0);
  for (std::size_t r = 0; r < data.rows; ++r)
    for (std::size_t c = 0; c < data.cols; ++c) data.masked[row(r) * data.cols + c] = !mask.use[r * data.cols + c];
}

// Values must be numbers; shapes of σ and mask must match the data.
void check_data(const FitDescription& d, const LoadedData& data) {
  const std::size_t n = data.rows * data.cols;
  if (data.values.size() != n) fail_at(d.data_where, "the data hold ", data.values.size(), " values, not ", n);
  for (std::size_t p = 0; p < n; ++p)
    if (std::isnan(data.values[p]))
      fail_at(d.data_where, "NaN at row ", p / data.cols, ", column ", p % data.cols,
              " (mask it instead: [mask] file)");
  if (!data.sigma.empty() && data.sigma.size() != n)
    fail_at(d.sigma_where, "sigma holds ", data.sigma.size(), " values, the data ", n);
  if (!data.masked.empty() && data.masked.size() != n)
    fail_at(d.mask_where, "the mask holds ", data.masked.size(), " values, the data ", n);
}

// Half-open index range [first, end) of the pixel centres inside [lo, hi].
std::pair<std::size_t, std::size_t> centres_inside(const std::vector<double>& centres, double lo, double hi,
                                                   const Where& where) {
  std::size_t first = centres.size(), end = 0;
  for (std::size_t i = 0; i < centres.size(); ++i)
    if (centres[i] >= lo && centres[i] <= hi) first = std::min(first, i), end = std::max(end, i + 1);
  if (first >= end)
    fail_at(where, "no pixel centre lies in [", lo, ", ", hi, "] (the axis spans ", centres.front(), " to ",
            centres.back(), ")");
  return {first, end};
}

// A range of the region in the model's orientation (row 0 = lowest).
std::pair<std::size_t, std::size_t> model_range(const FitDescription& d, const RangeSpec& r, bool vertical,
                                                const gisaxs::Sample& sample, std::size_t pixels) {
  if (r.key.empty()) return {0, pixels};
  if (r.key == "rows" || r.key == "cols") {
    const auto whole_pixel = [&](double v) { return whole_number(v, 0, std::int64_t(pixels)); };
    if (!whole_pixel(r.first) || !whole_pixel(r.last))
      fail_at(r.where, "expected whole pixel numbers [first, end) within [0, ", pixels, "], got [", r.first, ", ",
              r.last, "]");
    auto first = std::size_t(r.first), end = std::size_t(r.last);
    // Pixel rows count as the data file stores them.
    if (vertical && d.top_row_first) return {pixels - end, pixels - first};
    return {first, end};
  }
  if (r.key == "x_mm" || r.key == "y_mm") {
    const auto* flat = std::get_if<gisaxs::FlatDetector>(&sample.detector);
    if (!flat) fail_at(r.where, r.key, " needs a flat detector (use horizontal/vertical in the axis units)");
    const double size = vertical ? flat->pixel_height : flat->pixel_width;
    const double beam = vertical ? flat->beam_y : flat->beam_x;
    std::vector<double> mm(pixels);
    for (std::size_t i = 0; i < pixels; ++i) mm[i] = (double(i) + 0.5 - beam) * size;
    return centres_inside(mm, r.first, r.last, r.where);
  }
  // The model's axis units (degrees for angles, as in the sample file).
  const gisaxs::PixelGrid grid = gisaxs::make_pixel_grid(sample.detector, sample.beam);
  const std::vector<double>& centres = vertical ? grid.vertical : grid.horizontal;
  return centres_inside(centres, r.first, r.last, r.where);
}

// What a fit of one curve (PDF, powder) reads before its model: the
// image-only keys refused, the structure and the data file read, errors at
// the fit file's keys.
struct LineFitKind {
  const char* name;        // "PDF", "powder"
  const char* range;       // the [model] key of the fitted range
  const char* sigma_from;  // where σ comes from
  PatternAxis axis;
};

struct LineFitInputs {
  std::vector<Structure> structures;  // one per structure file asked for
  Pattern1D pattern;
};

struct StructureFile {
  std::string path;
  Where where;
};

LineFitInputs load_line_fit(const FitDescription& d, const LineFitKind& kind, const std::vector<StructureFile>& files) {
  const std::string a = std::string("a ") + kind.name + " fit ";
  if (d.sigma != "poisson") fail_at(d.sigma_where, a, "takes σ from ", kind.sigma_from);
  if (d.region_where.line) fail_at(d.region_where, a, "takes its range from [model] ", kind.range);
  if (d.mask_where.line) fail_at(d.mask_where, a, "has no mask (choose the range with [model] ", kind.range, ")");
  std::vector<StructureFile> inputs = files;
  inputs.push_back({d.data_file, d.data_where});
  for (const auto& [path, where] : inputs)
    if (!std::filesystem::exists(path)) fail_at(where, "no such file: ", path);
  // Errors of the readers that name no file line are put at the key.
  const auto at_key = [](const Where& where, auto&& read) {
    try {
      return read();
    } catch (const Error& e) {
      if (!e.where().file.empty()) throw;
      fail_at(where, e.what());
    }
  };
  LineFitInputs in;
  // Not a structured binding: clang 14 (the sanitizer build) cannot capture one.
  for (const StructureFile& f : files) in.structures.push_back(at_key(f.where, [&] { return read_structure(f.path); }));
  in.pattern = at_key(d.data_where, [&] {
    PatternReadOptions o;
    o.axis = kind.axis;
    return read_pattern(d.data_file, o);
  });
  return in;
}

// The Debye engine of a line fit (pdf, powder): the fit's radiation and
// histogram Δr on the device of the run, without its own progress bar.
DebyeOptions line_fit_debye(const FitDescription& d, const gisaxs::GisaxsOptions& engine) {
  DebyeOptions debye;
  debye.radiation = d.radiation;
  debye.bin_width = d.bin_width;
  debye.compute = engine.compute;
  debye.compute.quiet = true;
  return debye;
}

// A line fit's data as one row of points x (the horizontal axis `name`,
// `unit`), the points with use[i] counted.
FitRun line_fit_run(const char* name, const char* unit, const std::vector<double>& x, const std::vector<double>& y,
                    const std::vector<double>& sigma, std::vector<std::uint8_t> use) {
  FitRun run;
  run.region = PixelRect{0, 1, 0, x.size()};
  run.pixels.rows = 1, run.pixels.cols = x.size();
  run.pixels.horizontal_name = name, run.pixels.horizontal_unit = unit, run.pixels.horizontal = x;
  run.pixels.vertical_name = "row", run.pixels.vertical = {0.0};
  FitData& fd = run.data;
  fd.rows = 1, fd.cols = x.size(), fd.values = y, fd.sigma = sigma, fd.use = std::move(use);
  return run;
}

// R_w = sqrt(Σ w (y − model)² / Σ w y²), w = 1/σ², over the points used
// (PDFgui's Rw; R_wp of a powder pattern).
double weighted_r(const FitData& fd, const std::vector<double>& model) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < fd.values.size(); ++i) {
    if (!fd.use[i]) continue;
    const double w = 1 / (fd.sigma[i] * fd.sigma[i]), y = fd.values[i];
    num += w * (y - model[i]) * (y - model[i]);
    den += w * y * y;
  }
  return std::sqrt(num / den);
}

std::string objective_line(const FitDescription& d) {
  return std::string("objective: ") + to_string(d.objective.kind) + ", scale " + to_string(d.objective.scale) +
         ", background " + to_string(d.objective.background) + "; minimizer: " + d.minimizer.name;
}

// A PDF fit: G(r) from a .gr (or any pattern1d.hpp file on an r axis), the
// points of [model] r, the structure's PdfModel (fit_pdf.hpp).
FitRun run_pdf_fit(const FitDescription& d, const gisaxs::GisaxsOptions& engine) {
  auto [structures, pattern] =
      load_line_fit(d, {"PDF", "r", "the data file's dG column", PatternAxis::r}, {{d.structure, d.structure_where}});
  const Structure& structure = structures.front();
  PdfModelOptions pdf = d.pdf;
  // Qmax from the data's header unless the fit file gives it; the header's
  // Qmin is not applied (reductions extrapolate F(Q) below it, and PDFfit2
  // terminates at Qmax only).
  if (!d.qmax_given)
    if (const auto it = pattern.metadata.find("Qmax"); it != pattern.metadata.end()) pdf.qmax = std::stod(it->second);
  try {
    pdf.validate();
  } catch (const Error& e) {
    fail_at(d.model_where, e.reason(), " (qmax ", pdf.qmax, " Å⁻¹", d.qmax_given ? "" : " from the data's header", ")");
  }
  std::vector<double> r, g, sigma;
  bool unit_weights = pattern.sigma.empty();
  for (std::size_t i = 0; i < pattern.x.size(); ++i)
    if (pattern.x[i] >= d.r_first && pattern.x[i] <= d.r_last) {
      r.push_back(pattern.x[i]), g.push_back(pattern.y[i]);
      if (!pattern.sigma.empty()) {
        sigma.push_back(pattern.sigma[i]);
        unit_weights = unit_weights || !(pattern.sigma[i] > 0);
      }
    }
  if (r.size() < 2) fail_at(d.r_where, "fewer than 2 points of ", d.data_file, " lie in [", d.r_first, ", ", d.r_last, "] Å");
  if (unit_weights) sigma.assign(r.size(), 1.0);

  fit::PdfFitModel model(PdfModel(structure, line_fit_debye(d, engine), pdf), r);
  if (pdf.envelope == PdfEnvelope::bulk && d.r_last > model.model().sphere_radius())
    fail_at(d.r_where, "the bulk envelope holds for r up to the particle's radius R = ", model.model().sphere_radius(),
            " Å (docs/debye.md, \"PDF model\"), the range ends at ", d.r_last, " Å: build a larger particle");

  FitRun run = line_fit_run("r", "Å", r, g, sigma, std::vector<std::uint8_t>(r.size(), 1));
  run.result = run_fit(model, d.parameters, run.data, d.objective, d.minimizer);
  run.rw = weighted_r(run.data, run.result.model);
  std::ostringstream os;
  os << "fit: " << d.source << ", model pdf " << d.structure << " (" << structure.atoms.size() << " atoms, "
     << to_string(d.radiation) << ", envelope " << to_string(pdf.envelope) << ", qmax " << pdf.qmax << ", qmin "
     << pdf.qmin << "), data " << d.data_file;
  run.run_lines.push_back(os.str());
  os.str("");
  os << "r: [" << r.front() << ", " << r.back() << "] A, " << r.size() << " points, "
     << (unit_weights ? "unit weights (the data have no sigma > 0 for every point)" : "sigma from the data");
  run.run_lines.push_back(os.str());
  os.str("");
  os << "Rw = " << run.rw;
  run.run_lines.push_back(os.str());
  run.run_lines.push_back(objective_line(d));
  return run;
}

// A powder fit: y(2θ) from any pattern1d.hpp file on a 2θ axis (σ from
// .xye/.fxye, else σ² = max(y, 1)), the points of [model] two_theta, the
// structure's PowderModel and the instrument (fit_powder.hpp).
FitRun run_powder_fit(const FitDescription& d, const gisaxs::GisaxsOptions& engine) {
  // The phases: [[phase]] tables, else [model]'s structure.
  std::vector<FitDescription::PowderPhase> phases = d.phases;
  if (phases.empty()) phases.push_back({d.structure, d.structure_where, d.powder});
  std::vector<StructureFile> files;
  for (const auto& phase : phases) files.push_back({phase.structure, phase.structure_where});
  auto [structures, pattern] = load_line_fit(
      d, {"powder", "two_theta", "the data file (.xye), else σ² = max(y, 1)", PatternAxis::two_theta}, files);
  // A size distribution: the structure is a crystal (a cell, periodic),
  // cut here to the grid's largest sphere about the lattice origin.
  for (std::size_t k = 0; k < phases.size(); ++k) {
    if (!phases[k].powder.size) continue;
    try {
      structures[k] = cut_crystal(unit_cell_from_structure(structures[k]), Sphere{phases[k].powder.size->r_max});
    } catch (const Error& e) {
      if (!e.where().file.empty() && e.where().line) throw;
      fail_at(phases[k].structure_where, d.phases.empty() ? "with [model] size, " : "with the phase's size, ", e.reason());
    }
  }
  PowderInstrument instrument = d.instrument;
  if (!d.wavelength_given) {
    if (!pattern.wavelength)
      fail_at(d.data_where, d.data_file, " is on a 2θ axis without a wavelength: give [model] wavelength (Å) or radiation = \"cu_ka\"");
    instrument.wavelength = *pattern.wavelength;
  }
  std::vector<double> x, y, sigma;
  for (std::size_t i = 0; i < pattern.x.size(); ++i)
    if (pattern.x[i] >= d.two_theta_first && pattern.x[i] <= d.two_theta_last) {
      x.push_back(pattern.x[i]), y.push_back(pattern.y[i]);
      sigma.push_back(pattern.sigma.empty() ? std::sqrt(std::max(pattern.y[i], 1.0)) : pattern.sigma[i]);
    }
  if (x.size() < 2)
    fail_at(d.two_theta_where, "fewer than 2 points of ", d.data_file, " lie in [", d.two_theta_first, ", ",
            d.two_theta_last, "] degrees");

  const DebyeOptions debye = line_fit_debye(d, engine);
  std::vector<PowderPattern> patterns;
  for (std::size_t k = 0; k < phases.size(); ++k)
    patterns.emplace_back(PowderModel(structures[k], debye, phases[k].powder), instrument, x);
  fit::PowderFitModel model = d.phases.empty()
                                  ? fit::PowderFitModel(std::move(patterns.front()), d.background_terms, d.profile)
                                  : fit::PowderFitModel(std::move(patterns), d.background_terms, d.profile);

  std::vector<std::uint8_t> use(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) use[i] = sigma[i] > 0;
  FitRun run = line_fit_run("2θ", "°", x, y, sigma, std::move(use));
  run.rw_name = "R_wp";
  run.result = run_fit(model, d.parameters, run.data, d.objective, d.minimizer);
  run.rw = weighted_r(run.data, run.result.model);
  std::ostringstream os;
  os.precision(8);
  os << "fit: " << d.source << ", model powder";
  for (std::size_t k = 0; k < phases.size(); ++k) {
    os << (k ? "; " : " ") << phases[k].structure << " (" << structures[k].atoms.size() << " atoms";
    if (const auto& size = phases[k].powder.size)
      os << ", " << to_string(size->distribution) << " spheres on " << size->count << " radii " << size->r_min << " to " << size->r_max << " A";
    os << ")";
  }
  os << ", " << to_string(d.radiation) << ", wavelength " << instrument.wavelength;
  if (instrument.wavelength2 > 0) os << " + " << instrument.wavelength2 << " (ratio " << instrument.ratio << ")";
  os << " A, profile " << to_string(d.profile) << ", polarisation " << to_string(instrument.polarisation) << ", "
     << d.background_terms
     << " background terms), data " << d.data_file;
  run.run_lines.push_back(os.str());
  os.str("");
  os << "two_theta: [" << x.front() << ", " << x.back() << "] deg, " << x.size() << " points, "
     << (pattern.sigma.empty() ? "sigma^2 = max(y, 1)" : "sigma from the data");
  run.run_lines.push_back(os.str());
  os.str("");
  os << "R_wp = " << run.rw << ", chi2_red = " << run.result.chi2_reduced;
  run.run_lines.push_back(os.str());
  run.run_lines.push_back(objective_line(d));
  return run;
}

}  // namespace

LoadedData load_fit_data(const FitDescription& d) {
  LoadedData out;
  DetectorImage data = read_at(d.data_file, d.frame, d.data_where);
  out.rows = data.rows, out.cols = data.cols, out.values = std::move(data.values);
  if (d.sigma != "poisson") out.sigma = read_at(d.sigma, d.frame, d.sigma_where).values;
  if (!d.mask_file.empty()) {
    const DetectorMask mask = mask_from_image(read_at(d.mask_file, 0, d.mask_where), d.mask_meaning);
    out.masked.resize(mask.use.size());
    for (std::size_t p = 0; p < mask.use.size(); ++p) out.masked[p] = !mask.use[p];
  }
  return out;
}

FitRun run_fit_description(const FitDescription& d, const std::optional<LoadedData>& given,
                           const gisaxs::GisaxsOptions& engine) {
  if (d.engine == "pdf") {
    if (given) fail_at(d.data_where, "a PDF fit reads its data from the file");
    return run_pdf_fit(d, engine);
  }
  if (d.engine == "powder") {
    if (given) fail_at(d.data_where, "a powder fit reads its data from the file");
    return run_powder_fit(d, engine);
  }
  // Options and files first, so bad input costs no model evaluation.
  if (d.objective.kind == ObjectiveKind::chi2 && d.sigma == "poisson" && !(given && !given->sigma.empty()))
    fail_at(d.sigma_where, "the chi2 objective needs sigma = \"file.h5:/dataset\" (or a poisson_* objective)");
  gisaxs::SampleDocument document = [&] {
    try {
      return gisaxs::SampleDocument::read(d.sample);
    } catch (const Error& e) {
      if (!e.where().file.empty()) throw;
      fail_at(d.sample_where, e.what());
    }
  }();
  LoadedData data = given ? *given : load_fit_data(d);
  check_data(d, data);
  const gisaxs::Sample& sample = document.sample();
  const PixelRect whole = detector_rect(sample.detector);
  if (data.rows != whole.rows || data.cols != whole.cols)
    fail_at(d.data_where, "the data are ", data.rows, " × ", data.cols, " pixels (rows × columns), the detector of ",
            d.sample, " has ", whole.rows, " × ", whole.cols);
  apply_mask_options(d, sample, data);

  // The fit file's [region], axis by axis; an axis it leaves out takes the
  // sample's own region (default_region).
  const PixelRect fallback = default_region(sample.detector);
  PixelRect rect;
  std::tie(rect.row0, rect.rows) = d.vertical.key.empty()
                                       ? std::pair{fallback.row0, fallback.row0 + fallback.rows}
                                       : model_range(d, d.vertical, true, sample, whole.rows);
  std::tie(rect.col0, rect.cols) = d.horizontal.key.empty()
                                       ? std::pair{fallback.col0, fallback.col0 + fallback.cols}
                                       : model_range(d, d.horizontal, false, sample, whole.cols);
  rect.rows -= rect.row0, rect.cols -= rect.col0;

  FitRun run;
  run.region = rect;
  FitData& fd = run.data;
  fd.rows = rect.rows, fd.cols = rect.cols;
  const std::size_t n = rect.rows * rect.cols;
  fd.values.resize(n);
  fd.use.resize(n);
  if (!data.sigma.empty()) fd.sigma.resize(n);
  std::size_t used = 0;
  for (std::size_t r = 0; r < rect.rows; ++r) {
    const std::size_t model_row = rect.row0 + r;
    const std::size_t file_row = d.top_row_first ? whole.rows - 1 - model_row : model_row;
    for (std::size_t c = 0; c < rect.cols; ++c) {
      const std::size_t src = file_row * whole.cols + rect.col0 + c, dst = r * rect.cols + c;
      fd.values[dst] = data.values[src];
      if (!data.sigma.empty()) fd.sigma[dst] = data.sigma[src];
      const bool masked = data.masked[src];  // apply_mask_options
      fd.use[dst] = !masked;
      used += !masked;
    }
  }
  if (!used) {
    const Where& w = !d.mask_file.empty() || d.mask_negative || d.mask_saturation || !d.mask_shapes.empty()
                         ? d.mask_where
                     : d.region_where.line ? d.region_where : d.data_where;
    fail_at(w, "every pixel of the region is masked: nothing to fit");
  }

  GisaxsFitModel model(std::move(document), rect, engine);
  run.pixels = model.region_pixels();
  run.result = run_fit(model, d.parameters, fd, d.objective, d.minimizer);
  std::ostringstream os;
  os << "fit: " << d.source << ", model gisaxs " << d.sample << ", data " << d.data_file;
  run.run_lines.push_back(os.str());
  os.str("");
  os << "region: rows [" << rect.row0 << ", " << rect.row0 + rect.rows << ") columns [" << rect.col0 << ", "
     << rect.col0 + rect.cols << ") of " << whole.rows << " x " << whole.cols << " (model orientation, row 0 lowest)";
  run.run_lines.push_back(os.str());
  run.run_lines.push_back(objective_line(d));
  return run;
}

std::string fit_summary(const FitResult& r) {
  std::ostringstream os;
  char line[256];
  std::snprintf(line, sizeof line, "fit: chi2 = %.8g, chi2_red = %.6g, dof = %ld, %d iterations, %d evaluations, %.3f s, %s\n",
                r.chi2, r.chi2_reduced, r.degrees_of_freedom, r.iterations, r.evaluations, r.seconds,
                r.converged ? "converged" : "NOT CONVERGED");
  os << line << "fit: " << r.message << "\n";
  for (const auto& p : r.parameters) {
    const char* kind = p.fixed ? " (fixed)" : p.tied ? " (tied)" : p.linear ? " (closed form)" : "";
    std::snprintf(line, sizeof line, "  %-32s %16.8g +- %-12.4g%s\n", p.name.c_str(), p.value, p.sigma, kind);
    os << line;
  }
  return os.str();
}

}  // namespace nanoscatter::fit
