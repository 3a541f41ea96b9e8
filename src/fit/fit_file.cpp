// Reading fit files (fit_file.hpp, docs/fitting.md).
#include "nanoscatter/fit_file.hpp"

#include <cmath>
#include <optional>

#include "nanoscatter/config.hpp"
#include "nanoscatter/debye.hpp"
#include "nanoscatter/units.hpp"

namespace nanoscatter::fit {

namespace {

// Reads [model] key with `read` when the key is there; an error of the
// reader that names no file line is put at the key.
template <class Read>
void read_model_key(const ConfigTable& model, const char* key, Read&& read) {
  if (!model.has(key)) return;
  try {
    read();
  } catch (const Error& e) {
    if (!e.where().file.empty() && e.where().line) throw;
    fail_at(model.where(key), e.reason());
  }
}


std::string relative_to(const std::filesystem::path& base, const std::string& path) {
  if (path.empty()) return path;
  // "file.h5:/dataset": only the file part is a path.
  const std::size_t colon = path.find(":/");
  const std::string file = colon == std::string::npos ? path : path.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : path.substr(colon);
  const std::filesystem::path p(file);
  return (p.is_absolute() || base.empty() ? p : base / p).string() + rest;
}

// What a range's numbers measure: r (Å) and 2θ (degrees) may also be
// strings with their unit (units.hpp), pixels and mm detector ranges not.
enum class RangeUnit { plain, angstrom, degree };

RangeSpec range_of(const ConfigTable& t, std::initializer_list<const char*> keys, const char* axis,
                   RangeUnit unit = RangeUnit::plain) {
  RangeSpec r;
  for (const char* key : keys) {
    if (!t.has(key)) continue;
    if (!r.key.empty()) fail_at(t.where(key), "give one of ", r.key, " and ", key, " for the ", axis, " range");
    const std::vector<double> v =
        unit == RangeUnit::angstrom ? t.get_array_of_lengths(key, units::Length::angstrom, units::Length::angstrom)
        : unit == RangeUnit::degree ? t.get_array_of_angles(key, units::Angle::deg, units::Angle::deg)
                                    : t.get_array_of_doubles(key);
    if (v.size() != 2 || !(v[0] < v[1]))
      fail_at(t.where(key), "expected [first, last] with first < last");
    r = {key, v[0], v[1], t.where(key)};
  }
  return r;
}

// Lengths in Å and angles in degrees, or strings with their unit; a
// missing key is the fallback (none: required).
double angstrom_or(const ConfigTable& t, const char* key, std::optional<double> fallback) {
  if (!fallback) return t.get_length(key, units::Length::angstrom, units::Length::angstrom);
  return t.get_length_or(key, *fallback, units::Length::angstrom, units::Length::angstrom);
}
double degrees_or(const ConfigTable& t, const char* key, double fallback) {
  return t.get_angle_or(key, fallback, units::Angle::deg, units::Angle::deg);
}

// The pair histograms' Δr of a pdf or powder model: the Debye engine's
// check (validate_bin_width), and for a fit at most 0.01 Å, the bound fit
// files have had since they began (a fit keeps its histograms fine).
double read_bin_width(const ConfigTable& model, double fallback) {
  const double width = angstrom_or(model, "bin_width", fallback);
  try {
    validate_bin_width(width);
  } catch (const Error& e) {
    fail_at(model.where("bin_width"), e.reason());
  }
  if (!(width <= 0.01)) fail_at(model.where("bin_width"), "must be at most 0.01 Å in a fit, got ", width);
  return width;
}

// Keys not given keep the engine's defaults in `o`.
ObjectiveOptions read_objective(const ConfigTable& t, ObjectiveOptions o) {
  t.check_keys({"kind", "scale", "background", "reweight_iterations"});
  // Option errors (fail_option) are rethrown at the key's line.
  auto at = [&](const char* key, auto&& read) {
    try {
      read();
    } catch (const Error& e) {
      fail_at(t.where(key), e.reason());
    }
  };
  at("kind", [&] { o.kind = parse_objective_kind(t.get_string_or("kind", to_string(o.kind))); });
  at("scale", [&] { o.scale = parse_linear_mode(t.get_string_or("scale", to_string(o.scale)), "scale"); });
  at("background", [&] { o.background = parse_linear_mode(t.get_string_or("background", to_string(o.background)), "background"); });
  o.reweight_iterations = int(t.get_int_or("reweight_iterations", o.reweight_iterations));
  try {
    o.validate();
  } catch (const Error& e) {
    fail_at(t.where(e.where().field), e.reason());
  }
  return o;
}

MinimizerOptions read_minimizer(const ConfigTable& t) {
  t.check_keys({"name", "max_evaluations", "max_iterations", "function_tolerance", "parameter_tolerance",
                "gradient_tolerance", "difference", "step", "polish"});
  MinimizerOptions o;
  o.name = t.get_string_or("name", o.name);
  o.max_evaluations = int(t.get_int_or("max_evaluations", o.max_evaluations));
  o.max_iterations = int(t.get_int_or("max_iterations", o.max_iterations));
  o.function_tolerance = t.get_double_or("function_tolerance", o.function_tolerance);
  o.parameter_tolerance = t.get_double_or("parameter_tolerance", o.parameter_tolerance);
  o.gradient_tolerance = t.get_double_or("gradient_tolerance", o.gradient_tolerance);
  o.step = t.get_double_or("step", o.step);
  o.polish = t.get_bool_or("polish", o.polish);
  const std::string difference = t.get_string_or("difference", "forward");
  if (difference == "central") o.difference = DifferenceScheme::central;
  else if (difference != "forward") fail_at(t.where("difference"), "unknown scheme '", difference, "' (forward, central)");
  try {
    o.validate();
  } catch (const Error& e) {
    fail_at(t.where(e.where().field), e.reason());
  }
  return o;
}

// [model] engine = "pdf"; a fit without [objective] takes chi2 with the
// closed-form scale and no background (PDFgui's fit of G(r)).
void read_pdf_model(const ConfigTable& model, const std::filesystem::path& base, FitDescription& d) {
  model.check_keys({"engine", "structure", "r", "qmax", "qmin", "radiation", "envelope", "number_density",
                    "termination_step", "termination_extension", "bin_width"});
  d.structure = relative_to(base, model.get_string("structure"));
  d.structure_where = model.where("structure");
  const RangeSpec r = range_of(model, {"r"}, "r", RangeUnit::angstrom);
  if (r.key.empty()) fail_at(model.where(), "missing r = [first, last] (Å), the fitted range");
  if (!(r.first > 0)) fail_at(r.where, "the fitted r range must start above 0 Å, got ", r.first);
  d.r_first = r.first, d.r_last = r.last, d.r_where = r.where;
  const auto at = [&](const char* key, auto&& read) { read_model_key(model, key, read); };
  at("radiation", [&] { d.radiation = parse_radiation(model.get_string("radiation")); });
  at("envelope", [&] { d.pdf.envelope = parse_pdf_envelope(model.get_string("envelope")); });
  d.qmax_given = model.has("qmax");
  d.pdf.qmax = model.get_double_or("qmax", 0);
  d.pdf.qmin = model.get_double_or("qmin", 0);
  d.pdf.number_density = model.get_double_or("number_density", d.pdf.number_density);
  d.pdf.termination_step = model.get_double_or("termination_step", d.pdf.termination_step);
  d.pdf.termination_extension = model.get_double_or("termination_extension", d.pdf.termination_extension);
  d.bin_width = read_bin_width(model, d.bin_width);
  try {
    d.pdf.validate();
  } catch (const Error& e) {
    const std::string key = e.where().field == "pdf_qmax" ? "qmax" : e.where().field == "pdf_qmin" ? "qmin" : e.where().field;
    fail_at(model.has(key) ? model.where(key) : model.where(), e.reason());
  }
  d.objective.kind = ObjectiveKind::chi2;
  d.objective.background = LinearMode::none;
}

// size = { r_min, r_max, count, distribution } of [model] or a [[phase]]: a
// log-normal (or Gaussian) ensemble of spheres cut from the (periodic) structure at r_max
// (run_powder_fit).
std::optional<SizeDistributionOptions> read_size(const ConfigTable& t) {
  if (!t.has("size")) return std::nullopt;
  const ConfigTable size = t.get_table("size");
  size.check_keys({"r_min", "r_max", "count", "distribution"});
  SizeDistributionOptions o;
  read_model_key(size, "distribution", [&] { o.distribution = parse_size_distribution(size.get_string("distribution")); });
  o.r_min = angstrom_or(size, "r_min", std::nullopt), o.r_max = angstrom_or(size, "r_max", std::nullopt);
  const std::int64_t count = size.get_int_or("count", std::int64_t(o.count));
  if (count < 2 || count > 1000) fail_at(size.where("count"), "must be in [2, 1000] radii, got ", count);
  o.count = std::size_t(count);
  try {
    o.validate();
  } catch (const Error& e) {
    fail_at(size.has(e.where().field) ? size.where(e.where().field) : size.where(), e.reason());
  }
  return o;
}

// [[phase]] of a powder fit: a mixture instead of [model]'s one structure.
void read_powder_phases(const ConfigTable& root, const ConfigTable& model, const std::filesystem::path& base,
                        FitDescription& d) {
  if (!root.has("phase")) {
    if (!model.has("structure")) fail_at(model.where(), "missing structure (or [[phase]] tables, each with one)");
    return;
  }
  for (const char* key : {"structure", "size"})
    if (model.has(key)) fail_at(model.where(key), "with [[phase]] tables, give ", key, " in each phase, not in [model]");
  for (const ConfigTable& t : root.get_array_of_tables("phase")) {
    t.check_keys({"structure", "size"});
    if (!t.has("structure")) fail_at(t.where(), "a [[phase]] needs a structure (a structure file)");
    FitDescription::PowderPhase phase{relative_to(base, t.get_string("structure")), t.where("structure"), {}};
    phase.powder.self_debye_waller = d.powder.self_debye_waller;
    phase.powder.size = read_size(t);
    d.phases.push_back(std::move(phase));
  }
}

// [model] engine = "powder"; a fit without [objective] takes chi2 with σ
// from the data (.xye) or σ² = max(y, 1), the closed-form scale and no
// constant background (the Chebyshev terms are model paths).
void read_powder_model(const ConfigTable& root, const ConfigTable& model, const std::filesystem::path& base,
                       FitDescription& d) {
  model.check_keys({"engine", "structure", "two_theta", "radiation", "wavelength", "wavelength2", "ratio",
                    "polarisation", "monochromator_two_theta", "polarisation_fraction", "fine_step", "reach", "margin",
                    "background_terms", "self_debye_waller", "bin_width", "size", "profile"});
  if (model.has("structure")) {
    d.structure = relative_to(base, model.get_string("structure"));
    d.structure_where = model.where("structure");
  }
  const RangeSpec t = range_of(model, {"two_theta"}, "2θ", RangeUnit::degree);
  if (t.key.empty()) fail_at(model.where(), "missing two_theta = [first, last] (degrees), the fitted range");
  if (!(t.first > 0 && t.last < 180)) fail_at(t.where, "the fitted 2θ range must lie in (0, 180) degrees");
  d.two_theta_first = t.first, d.two_theta_last = t.last, d.two_theta_where = t.where;
  const auto at = [&](const char* key, auto&& read) { read_model_key(model, key, read); };
  // radiation = "cu_ka": the Cu Kα doublet; "xray" | "neutron" | "electron": one wavelength.
  std::string radiation = model.get_string_or("radiation", "xray");
  if (radiation == "cu_ka" || radiation == "cu_ka1") {
    d.radiation = Radiation::xray;
    d.instrument.wavelength = 1.540562;
    d.instrument.wavelength2 = radiation == "cu_ka" ? 1.544390 : 0.0;
    d.instrument.ratio = 0.5;
    d.wavelength_given = true;
  } else {
    at("radiation", [&] { d.radiation = parse_radiation(radiation); });
    d.instrument.wavelength2 = 0;
  }
  if (model.has("wavelength")) {
    d.instrument.wavelength = units::wavelength(model.get_quantity_text("wavelength"), units::Length::angstrom,
                                                units::Length::angstrom, model.where("wavelength"));
    d.wavelength_given = true;
  }
  if (model.has("wavelength2"))
    d.instrument.wavelength2 = units::wavelength(model.get_quantity_text("wavelength2"), units::Length::angstrom,
                                                 units::Length::angstrom, model.where("wavelength2"));
  d.instrument.ratio = model.get_double_or("ratio", d.instrument.ratio);
  at("polarisation", [&] { d.instrument.polarisation = parse_polarisation(model.get_string("polarisation")); });
  d.instrument.monochromator_two_theta = degrees_or(model, "monochromator_two_theta", d.instrument.monochromator_two_theta);
  d.instrument.polarisation_fraction = model.get_double_or("polarisation_fraction", d.instrument.polarisation_fraction);
  d.instrument.fine_step = degrees_or(model, "fine_step", d.instrument.fine_step);
  d.instrument.reach = model.get_double_or("reach", d.instrument.reach);
  d.instrument.margin = degrees_or(model, "margin", d.instrument.margin);
  d.powder.self_debye_waller = model.get_bool_or("self_debye_waller", false);
  d.powder.size = read_size(model);
  at("profile", [&] { d.profile = parse_powder_profile(model.get_string("profile")); });
  const std::int64_t terms = model.get_int_or("background_terms", 0);
  if (terms < 0 || terms > 30) fail_at(model.where("background_terms"), "must be in [0, 30], got ", terms);
  d.background_terms = std::size_t(terms);
  d.bin_width = read_bin_width(model, d.bin_width);
  try {
    d.instrument.validate();
  } catch (const Error& e) {
    const std::string key = e.where().field;
    fail_at(model.has(key) ? model.where(key) : model.where(), e.reason());
  }
  read_powder_phases(root, model, base, d);
  d.objective.kind = ObjectiveKind::chi2;
  d.objective.background = LinearMode::none;
}

FitDescription read_description(const ConfigTable& root, const std::filesystem::path& base) {
  root.check_keys({"data", "model", "region", "mask", "parameter", "objective", "minimizer", "output", "phase"});
  FitDescription d;
  d.source = root.file();
  d.base = base;
  if (!root.has("data")) fail_at(root.where(), "missing [data]");
  const ConfigTable data = root.get_table("data");
  data.check_keys({"file", "frame", "orientation", "sigma"});
  d.data_file = relative_to(base, data.get_string("file"));
  d.data_where = data.where("file");
  const std::int64_t frame = data.get_int_or("frame", 0);
  if (frame < 0) fail_at(data.where("frame"), "must be ≥ 0, got ", frame);
  d.frame = std::size_t(frame);
  const std::string orientation = data.get_string_or("orientation", "top");
  d.orientation_where = data.where("orientation");
  if (orientation != "top" && orientation != "bottom")
    fail_at(d.orientation_where, "expected \"top\" (row 0 is the top row, as detectors store images) or \"bottom\", got '",
            orientation, "'");
  d.top_row_first = orientation == "top";
  d.sigma = data.get_string_or("sigma", "poisson");
  d.sigma_where = data.where("sigma");
  if (d.sigma != "poisson") d.sigma = relative_to(base, d.sigma);

  if (!root.has("model")) fail_at(root.where(), "missing [model]");
  const ConfigTable model = root.get_table("model");
  d.engine = model.get_string_or("engine", "gisaxs");
  d.model_where = model.where();
  if (d.engine == "gisaxs") {
    model.check_keys({"engine", "sample"});
    d.sample = relative_to(base, model.get_string("sample"));
    d.sample_where = model.where("sample");
  } else if (d.engine == "pdf") {
    read_pdf_model(model, base, d);
  } else if (d.engine == "powder") {
    read_powder_model(root, model, base, d);
  } else {
    fail_at(model.where("engine"), "unknown engine '", d.engine, "' (gisaxs, pdf, powder)");
  }
  if (d.engine != "powder" && root.has("phase"))
    fail_at(root.get_array_of_tables("phase").front().where(), "[[phase]] tables belong to powder fits (engine = \"powder\")");

  if (root.has("region")) {
    const ConfigTable region = root.get_table("region");
    region.check_keys({"rows", "cols", "x_mm", "y_mm", "horizontal", "vertical"});
    d.horizontal = range_of(region, {"cols", "x_mm", "horizontal"}, "horizontal");
    d.vertical = range_of(region, {"rows", "y_mm", "vertical"}, "vertical");
    d.region_where = region.where();
  }
  if (root.has("mask")) {
    const ConfigTable mask = root.get_table("mask");
    mask.check_keys({"file", "meaning", "negative", "saturation", "origin", "shape"});
    d.mask_file = relative_to(base, mask.get_string_or("file", ""));
    d.mask_negative = mask.get_bool_or("negative", false);
    d.mask_where = mask.where();
    const auto option = [&](const char* key, auto parse) {
      try {
        return parse(mask.get_string(key));
      } catch (const Error& e) {
        if (!e.where().file.empty()) throw;
        fail_at(mask.where(key), e.reason());
      }
    };
    if (mask.has("meaning")) d.mask_meaning = option("meaning", parse_mask_file_meaning);
    if (mask.has("origin")) d.mask_origin = option("origin", parse_mask_origin);
    if (mask.has("saturation")) {
      d.mask_saturation = mask.get_double("saturation");
      if (!std::isfinite(*d.mask_saturation)) fail_at(mask.where("saturation"), "must be a finite number");
    }
    if (mask.has("shape")) d.mask_shapes = mask_shapes_from_config(mask, "shape");
  }
  if (root.has("parameter")) {
    for (const ConfigTable& t : root.get_array_of_tables("parameter")) {
      t.check_keys({"path", "start", "min", "max", "fixed", "tie"});
      Parameter p;
      p.name = t.get_string("path");
      p.tie = t.get_string_or("tie", "");
      p.start = p.tie.empty() ? t.get_double("start") : t.get_double_or("start", 0);
      p.min = t.get_double_or("min", -unbounded);
      p.max = t.get_double_or("max", unbounded);
      p.fixed = t.get_bool_or("fixed", false);
      p.where = t.where("path");
      p.bounds_where = t.has("min") ? t.where("min") : t.has("max") ? t.where("max") : t.where("start");
      p.tie_where = t.has("tie") ? t.where("tie") : t.where("path");
      d.parameters.push_back(p);
    }
  }
  if (root.has("objective")) d.objective = read_objective(root.get_table("objective"), d.objective);
  if (root.has("minimizer")) d.minimizer = read_minimizer(root.get_table("minimizer"));
  if (root.has("output")) {
    const ConfigTable out = root.get_table("output");
    out.check_keys({"file", "png", "quiet"});
    d.output = relative_to(base, out.get_string_or("file", ""));
    d.png = relative_to(base, out.get_string_or("png", ""));
    d.minimizer.quiet = out.get_bool_or("quiet", false);
  }
  return d;
}

}  // namespace

FitDescription read_fit_file(const std::filesystem::path& path) {
  return read_description(load_config(path), path.parent_path());
}

FitDescription parse_fit_description(std::string_view text, const std::string& source_name,
                                     const std::filesystem::path& base) {
  return read_description(parse_config(text, source_name), base);
}

}  // namespace nanoscatter::fit
