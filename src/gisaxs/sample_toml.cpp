// Reading a sample file (schema in docs/gisaxs.md). Syntax, types, unknown
// keys and names (shape, material, layer, type) are checked here as they are
// read; value ranges are checked once by validate_sample(), whose field names
// ("layout[0].particle[1].radius") this reader maps back to the file's lines.
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "nanoscatter/config.hpp"
#include "nanoscatter/constants.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"
#include "nanoscatter/resource_guard.hpp"
#include "nanoscatter/scattering_factors.hpp"
#include "nanoscatter/units.hpp"
#include "nanoscatter/whole_number.hpp"

namespace nanoscatter::gisaxs {

namespace {

using units::Angle;
using units::Length;
// A lower bound of what each detector pixel costs: its intensity and one
// complex amplitude, in float64 (the engine keeps more per pixel).
constexpr double kMinBytesPerPixel = sizeof(double) + 2 * sizeof(double);

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Throws for the first key of `t` (in file order) not in `allowed`, naming it.
void check_keys(const ConfigTable& t, const std::vector<std::string>& allowed) {
  for (const std::string& key : t.keys()) {
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == key;
    if (ok) continue;
    // TOML files the keys after a [table] header into that table, a trap
    // for layout keys written below the particles.
    const bool misplaced = key == "density" || key == "mixture" || key == "position_variance";
    fail_at(t.where(key), "unknown key '", key, "'; allowed: ", join(allowed),
            misplaced ? " (layout keys belong before the first [table] header, or in a [[layout]] block)" : "");
  }
}

// A key whose value is one table or an array of tables.
std::vector<ConfigTable> tables_of(const ConfigTable& t, const std::string& key) {
  try {
    return {t.get_table(key)};
  } catch (const Error&) {
    return t.get_array_of_tables(key);
  }
}

// Lengths are nm and angles degrees when bare (docs/gisaxs.md); a string
// names its unit, "50 angstrom", "3.5 mrad" (units.hpp). Angles come back
// in radians, the engine's unit.
double nm(const ConfigTable& t, std::string_view key) { return t.get_length(key, Length::nm, Length::nm); }
double nm_or(const ConfigTable& t, std::string_view key, double fallback) {
  return t.get_length_or(key, fallback, Length::nm, Length::nm);
}
double radians(const ConfigTable& t, std::string_view key) { return t.get_angle(key, Angle::rad, Angle::deg); }
double radians_or(const ConfigTable& t, std::string_view key, double fallback) {
  return t.get_angle_or(key, fallback, Angle::rad, Angle::deg);
}

// What a distribution's sigma, min and max measure.
enum class Measure { length, angle };

Mat3 rotation_about(const std::string& axis, double angle, const Where& where) {
  const double c = std::cos(angle), s = std::sin(angle);
  Mat3 m;
  if (axis == "x")
    m.row = {Vec3{1, 0, 0}, Vec3{0, c, -s}, Vec3{0, s, c}};
  else if (axis == "y")
    m.row = {Vec3{c, 0, s}, Vec3{0, 1, 0}, Vec3{-s, 0, c}};
  else if (axis == "z")
    m.row = {Vec3{c, -s, 0}, Vec3{s, c, 0}, Vec3{0, 0, 1}};
  else
    fail_at(where, "unknown rotation axis '", axis, "' (x, y, z)");
  return m;
}

class SampleReader {
 public:
  Sample read(const ConfigTable& root) {
    check_keys(root, {"beam", "detector", "material", "layer", "particle", "interference", "density", "mixture",
                      "position_variance", "layout"});
    sample_.source = root.file();
    read_beam(root.get_table("beam"));
    read_materials(root);
    read_layers(root);
    read_detector(root.get_table("detector"));
    if (root.has("layout")) {
      for (const char* key : {"particle", "interference", "density", "mixture", "position_variance"})
        if (root.has(key))
          fail_at(root.where(key), "give particles either at the top level or in [[layout]] blocks, not both");
      const auto layouts = root.get_array_of_tables("layout");
      for (std::size_t l = 0; l < layouts.size(); ++l) read_layout(layouts[l], l);
    } else {
      if (!root.has("particle")) fail_at({root.file(), 0, "particle"}, "the sample has no [[particle]]");
      read_layout(root, 0);
    }
    try {
      validate_sample(sample_);
    } catch (const Error& e) {
      throw Error(locate(e.where().field), e.reason());
    }
    sample_.validated = true;
    return sample_;
  }

 private:
  // A key read under its old name: a warning for the front ends to show.
  void renamed(const Where& where, const std::string& new_name) {
    sample_.warnings.push_back(format_error(where, "deprecated, use " + new_name));
  }

  // Records where the value that validate_sample calls `field` was written.
  void note(const std::string& field, const Where& where) { where_[field] = where; }
  // The recorded place of a field, or of its nearest recorded parent.
  Where locate(std::string field) const {
    while (!field.empty()) {
      if (auto it = where_.find(field); it != where_.end()) return it->second;
      const auto cut = field.find_last_of(".[");
      if (cut == std::string::npos) break;
      field.erase(cut);
    }
    return {sample_.source, 0, field};
  }

  double energy_kev() const { return kHcKeVAngstrom / (10 * sample_.beam.wavelength); }  // λ in nm

  void read_beam(const ConfigTable& t) {
    check_keys(t, {"wavelength", "energy", "alpha_i", "phi_i", "intensity", "alpha_i_divergence",
                   "phi_i_divergence", "wavelength_spread"});
    Beam& b = sample_.beam;
    if (t.has("wavelength") == t.has("energy"))
      fail_at(t.where(), "give exactly one of wavelength (nm) and energy (keV)");
    // wavelength: nm when bare, or "0.154 nm", "1.54 angstrom", "8.04 keV";
    // energy: keV when bare, or "8040 eV" (units.hpp).
    if (t.has("wavelength")) {
      b.wavelength = units::wavelength(t.get_quantity_text("wavelength"), Length::nm, Length::nm, t.where("wavelength"));
      note("beam.wavelength", t.where("wavelength"));
    } else {
      const double e = units::energy_kev(t.get_quantity_text("energy"), t.where("energy"));
      if (!(e > 0)) fail_at(t.where("energy"), "must be a positive photon energy in keV, got ", e);
      b.wavelength = units::wavelength_of_energy(e, Length::nm);
      note("beam.wavelength", t.where("energy"));
    }
    if (!(b.wavelength > 0)) fail_at(locate("beam.wavelength"), "must be positive, got ", b.wavelength);
    b.alpha_i = radians(t, "alpha_i");
    note("beam.alpha_i", t.where("alpha_i"));
    b.phi_i = radians_or(t, "phi_i", 0.0);
    note("beam.phi_i", t.where("phi_i"));
    b.intensity = t.get_double_or("intensity", 1.0);
    note("beam.intensity", t.where("intensity"));
    if (t.has("alpha_i_divergence"))
      b.alpha_i_divergence = distribution(t.get_table("alpha_i_divergence"), "beam.alpha_i_divergence", Measure::angle);
    if (t.has("phi_i_divergence"))
      b.phi_i_divergence = distribution(t.get_table("phi_i_divergence"), "beam.phi_i_divergence", Measure::angle);
    if (t.has("wavelength_spread"))
      b.wavelength_spread = distribution(t.get_table("wavelength_spread"), "beam.wavelength_spread", Measure::length);
  }

  // { type = "gaussian", sigma, samples, sigma_factor, min, max } or
  // { type = "lognormal", scale, ... }; sigma, min and max measure what the
  // distributed value does (nm, or degrees, when bare), scale is dimensionless.
  SampledDistribution distribution(const ConfigTable& dt, const std::string& df, Measure measure) {
    note(df, dt.where());
    auto value = [&](const char* key) { return measure == Measure::length ? nm(dt, key) : radians(dt, key); };
    SampledDistribution s;
    const std::string type = dt.get_string("type");
    if (type == "gaussian") {
      s.kind = DistributionKind::gaussian;
      if (dt.has("scale")) fail_at(dt.where("scale"), "scale belongs to lognormal; a gaussian takes sigma");
      s.width = value("sigma");
      note(df + ".sigma", dt.where("sigma"));
    } else if (type == "lognormal") {
      s.kind = DistributionKind::lognormal;
      if (dt.has("sigma")) fail_at(dt.where("sigma"), "a lognormal takes scale (the σ of ln x), not sigma");
      s.width = dt.get_double("scale");
      note(df + ".scale", dt.where("scale"));
    } else {
      fail_at(dt.where("type"), "unknown distribution '", type, "' (gaussian, lognormal)");
    }
    const std::int64_t samples = dt.get_int_or("samples", 11);
    if (samples < 1 || samples > 10000) fail_at(dt.where("samples"), "must lie in [1, 10000], got ", samples);
    s.samples = static_cast<int>(samples);
    note(df + ".samples", dt.where("samples"));
    s.sigma_factor = dt.get_double_or("sigma_factor", 2.0);
    note(df + ".sigma_factor", dt.where("sigma_factor"));
    for (const char* key : {"min", "max"}) {
      if (!dt.has(key)) continue;
      (key[1] == 'i' ? s.min : s.max) = value(key);
      note(df + "." + key, dt.where(key));
    }
    return s;
  }

  // Named materials: [material.NAME] with delta/beta or formula/density.
  void read_materials(const ConfigTable& root) {
    if (!root.has("material")) return;
    const ConfigTable all = root.get_table("material");
    for (const std::string& name : all.keys()) {
      named_[name] = all.get_table(name);
    }
  }

  // A material value: a name, or an inline table; `field` is the validator's
  // name for it ("layer[1].material").
  Material material(const ConfigTable& owner, const std::string& key, const std::string& field) {
    note(field, owner.where(key));
    ConfigTable t;
    std::string name;
    bool is_name = true;
    try {
      name = owner.get_string(key);
    } catch (const Error&) {
      is_name = false;
    }
    if (is_name) {
      auto it = named_.find(name);
      if (it == named_.end()) {
        if (name == "vacuum") return Material{"vacuum", 0, 0};
        std::vector<std::string> known;
        for (const auto& [n, table] : named_) known.push_back(n);
        fail_at(owner.where(key), "unknown material '", name, "'",
                known.empty() ? " (define it in a [material." + name + "] table)"
                              : " (defined: " + join(known) + ")");
      }
      t = it->second;
    } else {
      t = owner.get_table(key);
      name = field;
    }
    check_keys(t, {"delta", "beta", "formula", "density"});
    Material m;
    m.name = name;
    if (t.has("formula")) {
      for (const char* k : {"delta", "beta"})
        if (t.has(k)) fail_at(t.where(k), "give either delta/beta or formula/density, not both");
      const std::string formula = t.get_string("formula");
      const double density = t.get_double("density");
      if (!(density > 0)) fail_at(t.where("density"), "must be a positive density in g/cm³, got ", density);
      try {
        const RefractiveIndex n = xray_refractive_index(formula, density, energy_kev());
        m.delta = n.delta;
        m.beta = n.beta;
      } catch (const Error& e) {
        fail_at(t.where("formula"), e.reason());
      }
      note(field + ".delta", t.where("formula"));
      note(field + ".beta", t.where("formula"));
    } else {
      if (t.has("density")) fail_at(t.where("density"), "density goes with formula (xraylib); give delta and beta");
      m.delta = t.get_double("delta");
      m.beta = t.get_double_or("beta", 0.0);
      note(field + ".delta", t.where("delta"));
      note(field + ".beta", t.where("beta"));
    }
    return m;
  }

  void read_layers(const ConfigTable& root) {
    const auto layers = root.get_array_of_tables("layer");
    note("layer", root.where("layer"));
    for (std::size_t j = 0; j < layers.size(); ++j) {
      const ConfigTable& t = layers[j];
      const std::string f = "layer[" + std::to_string(j) + "]";
      check_keys(t, {"name", "material", "thickness", "roughness"});
      Layer l;
      l.name = t.get_string_or("name", "");
      if (t.has("material"))
        l.material = material(t, "material", f + ".material");
      else if (j == 0)
        l.material = Material{"vacuum", 0, 0};
      else
        fail_at({t.file(), t.where().line, f + ".material"}, "missing required key");
      l.thickness = nm_or(t, "thickness", 0.0);
      note(f + ".thickness", t.where("thickness"));
      l.roughness = nm_or(t, "roughness", 0.0);
      note(f + ".roughness", t.where("roughness"));
      if (!l.name.empty()) {
        for (std::size_t k = 0; k < sample_.layers.size(); ++k)
          if (sample_.layers[k].name == l.name)
            fail_at(t.where("name"), "layer name '", l.name, "' is already used by layer ", k);
      }
      sample_.layers.push_back(l);
    }
    if (layers.empty()) fail_at(root.where("layer"), "the sample needs at least one [[layer]] (the ambient)");
  }

  // Bins { min, max, bins } or explicit edges under `key`_edges: angles
  // (degrees when bare, radians inside), or q (nm⁻¹, numbers only). Angles
  // are spaced in degrees and turned into radians last, as before units.
  std::vector<double> axis(const ConfigTable& t, const std::string& key, bool angles, const std::string& field) {
    const double scale = angles ? kDegree : 1.0;
    const std::string edges_key = key + "_edges";
    if (t.has(key) == t.has(edges_key))
      fail_at(t.has(key) ? t.where(edges_key) : t.where(), "give exactly one of ", key, " = {min, max, bins} and ",
              edges_key, " = [...]");
    std::vector<double> edges;
    if (t.has(edges_key)) {
      note(field, t.where(edges_key));
      const auto written = angles ? t.get_array_of_angles(edges_key, Angle::deg, Angle::deg) : t.get_array_of_doubles(edges_key);
      for (double e : written) edges.push_back(e * scale);
      if (edges.size() < 2) fail_at(t.where(edges_key), "empty detector axis: give at least two edges");
      return edges;
    }
    note(field, t.where(key));
    const ConfigTable a = t.get_table(key);
    check_keys(a, {"min", "max", "bins"});
    const double lo = angles ? a.get_angle("min", Angle::deg, Angle::deg) : a.get_double("min");
    const double hi = angles ? a.get_angle("max", Angle::deg, Angle::deg) : a.get_double("max");
    const std::int64_t bins = a.get_int("bins");
    if (bins < 1) fail_at(a.where("bins"), "empty detector axis: bins must be ≥ 1, got ", bins);
    if (bins > 100000) fail_at(a.where("bins"), "at most 100000 bins per axis, got ", bins);
    if (!(hi > lo)) fail_at(a.where("max"), "must exceed min (", lo, "), got ", hi);
    for (std::int64_t i = 0; i <= bins; ++i) edges.push_back((lo + (hi - lo) * double(i) / double(bins)) * scale);
    return edges;
  }

  // The pixel count comes from the file: it must fit memory before any
  // image, q table or amplitude array is made for it.
  void check_detector_memory(const ConfigTable& t) const {
    double pixels = 0;
    if (const auto* d = std::get_if<AngularDetector>(&sample_.detector))
      pixels = double(d->phi_edges.size() - 1) * double(d->alpha_edges.size() - 1);
    else if (const auto* d = std::get_if<QGridDetector>(&sample_.detector))
      pixels = double(d->qy_edges.size() - 1) * double(d->qz_edges.size() - 1);
    else if (const auto* d = std::get_if<FlatDetector>(&sample_.detector))
      pixels = d->region_columns ? double(d->region_columns) * double(d->region_rows) : double(d->columns) * double(d->rows);
    require_host_memory(t.where(), nanoscatter::detail::concat(std::size_t(pixels), " detector pixels"), pixels * kMinBytesPerPixel);
  }

  void read_detector(const ConfigTable& t) {
    const std::string type = t.get_string_or("type", "angular");
    note("detector", t.where());
    if (type == "angular") {
      check_keys(t, {"type", "phi_f", "alpha_f", "phi_f_edges", "alpha_f_edges", "resolution", "background"});
      AngularDetector d;
      d.phi_edges = axis(t, "phi_f", true, "detector.phi_f");
      d.alpha_edges = axis(t, "alpha_f", true, "detector.alpha_f");
      sample_.detector = d;
    } else if (type == "qgrid") {
      check_keys(t, {"type", "q_y", "q_z", "q_y_edges", "q_z_edges", "resolution", "background"});
      QGridDetector d;
      d.qy_edges = axis(t, "q_y", false, "detector.q_y");
      d.qz_edges = axis(t, "q_z", false, "detector.q_z");
      sample_.detector = d;
    } else if (type == "flat") {
      check_keys(t, {"type", "distance", "pixel_size", "pixels", "direct_beam", "region", "resolution", "background"});
      FlatDetector d;
      // mm when bare; "1.5 m", "75 um" (units.hpp).
      d.distance = t.get_length("distance", Length::mm, Length::mm);
      note("detector.distance", t.where("distance"));
      note("detector.pixel_size", t.where("pixel_size"));
      std::vector<double> size = t.is_array("pixel_size") ? t.get_array_of_lengths("pixel_size", Length::mm, Length::mm)
                                                           : std::vector{t.get_length("pixel_size", Length::mm, Length::mm)};
      if (size.size() == 1) size.push_back(size[0]);
      if (size.size() != 2) fail_at(t.where("pixel_size"), "give one size or [width, height] in mm");
      d.pixel_width = size[0];
      d.pixel_height = size[1];
      const auto pixels = t.get_array_of_doubles("pixels");
      note("detector.pixels", t.where("pixels"));
      constexpr std::int64_t kMaxPixels = 100000;  // per side
      const auto columns = pixels.size() == 2 ? whole_number(pixels[0], 0, kMaxPixels) : std::nullopt;
      const auto rows = pixels.size() == 2 ? whole_number(pixels[1], 0, kMaxPixels) : std::nullopt;
      if (!columns || !rows) fail_at(t.where("pixels"), "give [columns, rows] as two whole numbers ≤ 100000");
      d.columns = static_cast<std::size_t>(*columns);
      d.rows = static_cast<std::size_t>(*rows);
      const auto beam = t.get_array_of_doubles("direct_beam");
      note("detector.direct_beam", t.where("direct_beam"));
      if (beam.size() != 2) fail_at(t.where("direct_beam"), "give [x, y] in pixels from the lower-left corner");
      d.beam_x = beam[0];
      d.beam_y = beam[1];
      if (t.has("region")) {
        // [x_first, y_first, x_last, y_last], inclusive pixel indices from the lower-left corner.
        const auto r = t.get_array_of_doubles("region");
        note("detector.region", t.where("region"));
        bool whole = r.size() == 4;
        for (double v : r) whole = whole && whole_number(v, 0, kMaxPixels);
        if (!whole || r[2] < r[0] || r[3] < r[1])
          fail_at(t.where("region"), "give [x_first, y_first, x_last, y_last] as whole pixel numbers, first ≤ last");
        d.region_x0 = static_cast<std::size_t>(r[0]);
        d.region_y0 = static_cast<std::size_t>(r[1]);
        d.region_columns = static_cast<std::size_t>(r[2] - r[0]) + 1;
        d.region_rows = static_cast<std::size_t>(r[3] - r[1]) + 1;
      }
      sample_.detector = d;
    } else {
      fail_at(t.where("type"), "unknown detector type '", type, "' (angular, qgrid, flat)");
    }
    check_detector_memory(t);
    // The resolution's σ in the detector's units: pixels (flat), degrees
    // (angular, stored in rad), 1/nm (q grid).
    if (t.has("resolution")) {
      const ConfigTable r = t.get_table("resolution");
      check_keys(r, {"sigma_x", "sigma_y"});
      auto sigma = [&](const char* key) { return type == "angular" ? radians(r, key) : r.get_double(key); };
      sample_.resolution = DetectorResolution{sigma("sigma_x"), sigma("sigma_y")};
      note("detector.resolution.sigma_x", r.where("sigma_x"));
      note("detector.resolution.sigma_y", r.where("sigma_y"));
    }
    sample_.background = t.get_double_or("background", 0.0);
    note("detector.background", t.where("background"));
  }

  std::size_t layer_index(const ConfigTable& t, const std::string& field) {
    if (!t.has("layer")) return 0;
    note(field, t.where("layer"));
    std::string name;
    try {
      name = t.get_string("layer");
    } catch (const Error&) {
      const std::int64_t i = t.get_int("layer");
      if (i < 0 || static_cast<std::size_t>(i) >= sample_.layers.size())
        fail_at(t.where("layer"), "layer ", i, " does not exist (the sample has ", sample_.layers.size(),
                " layers, numbered from 0)");
      return static_cast<std::size_t>(i);
    }
    std::vector<std::string> names;
    for (std::size_t j = 0; j < sample_.layers.size(); ++j) {
      if (sample_.layers[j].name == name) return j;
      if (!sample_.layers[j].name.empty()) names.push_back(sample_.layers[j].name);
    }
    fail_at(t.where("layer"), "layer '", name, "' does not exist",
            names.empty() ? " (no layer has a name)" : " (layers: " + join(names) + ")");
  }

  Mat3 rotation(const ConfigTable& t) {
    Mat3 total;
    for (const ConfigTable& r : tables_of(t, "rotation")) {
      check_keys(r, {"axis", "angle", "euler_zxz", "euler"});
      Mat3 m;
      // "euler" is the old name of "euler_zxz" (the convention in the name,
      // as pattern2d's --euler-zyz; docs/conventions.md).
      if (r.has("euler")) {
        if (r.has("euler_zxz")) fail_at(r.where("euler"), "give euler_zxz alone (euler is its old name)");
        renamed(r.where("euler"), "euler_zxz");
      }
      const char* euler = r.has("euler") ? "euler" : "euler_zxz";
      if (r.has(euler)) {
        if (r.has("axis") || r.has("angle")) fail_at(r.where(euler), "give either euler_zxz or axis/angle");
        const auto e = r.get_array_of_angles(euler, Angle::rad, Angle::deg);
        if (e.size() != 3) fail_at(r.where(euler), "give three angles [alpha, beta, gamma] in degrees");
        // BornAgain's RotationEuler: Rz(α) Rx(β) Rz(γ).
        m = rotation_about("z", e[0], r.where()) * rotation_about("x", e[1], r.where()) *
            rotation_about("z", e[2], r.where());
      } else {
        const std::string axis = r.get_string("axis");
        m = rotation_about(axis, radians(r, "angle"), r.where("axis"));
      }
      total = m * total;  // later rotations act after earlier ones
    }
    return total;
  }

  void read_distributions(const ConfigTable& t, const ShapeInfo& shape, ParticleSpec& p, const std::string& f) {
    const auto tables = tables_of(t, "distribution");
    for (std::size_t d = 0; d < tables.size(); ++d) {
      const ConfigTable& dt = tables[d];
      const std::string df = f + ".distribution[" + std::to_string(d) + "]";
      note(df, dt.where());
      check_keys(dt, {"parameter", "type", "sigma", "scale", "samples", "sigma_factor", "min", "max"});
      const std::string parameter = dt.get_string("parameter");
      std::vector<std::string> names;
      std::optional<std::size_t> index;
      for (std::size_t i = 0; i < shape.parameters.size(); ++i) {
        names.push_back(shape.parameters[i].name);
        if (shape.parameters[i].name == parameter) index = i;
      }
      if (!index)
        fail_at(dt.where("parameter"), "shape ", shape.name, " has no parameter '", parameter, "' (", join(names), ")");
      const bool angle = shape.parameters[*index].kind == ParameterKind::angle;
      SizeDistribution s;
      static_cast<SampledDistribution&>(s) = distribution(dt, df, angle ? Measure::angle : Measure::length);
      s.parameter = *index;
      p.distributions.push_back(s);
    }
  }

  ParticleSpec read_particle(const ConfigTable& t, const std::string& f) {
    note(f, t.where());
    const std::string shape_name = t.get_string("shape");
    note(f + ".shape", t.where("shape"));
    if (shape_name == "mesh") return read_mesh_particle(t, f);
    const ShapeInfo* shape = find_shape(shape_name);
    if (!shape) fail_at(t.where("shape"), "unknown shape '", shape_name, "' (", shape_names(), ", mesh)");
    std::vector<std::string> allowed{"shape", "material", "abundance", "layer", "depth", "rotation", "distribution"};
    if (shape->has_core) allowed.push_back("core_material");
    for (const ShapeParameter& sp : shape->parameters) allowed.push_back(sp.name);
    check_keys(t, allowed);
    ParticleSpec p;
    p.shape = shape_name;
    for (const ShapeParameter& sp : shape->parameters) {
      double v = 0;
      if (sp.kind == ParameterKind::angle)
        v = sp.required ? radians(t, sp.name) : radians_or(t, sp.name, sp.fallback * kDegree);
      else
        v = sp.required ? nm(t, sp.name) : nm_or(t, sp.name, sp.fallback);
      p.parameters.push_back(v);
      note(f + "." + sp.name, t.where(sp.name));
    }
    read_common(t, f, p);
    if (shape->has_core) {
      if (!t.has("core_material")) fail_at({t.file(), t.where().line, f + ".core_material"}, "missing required key");
      p.core_material = material(t, "core_material", f + ".core_material");
    }
    if (t.has("distribution")) read_distributions(t, *shape, p, f);
    return p;
  }

  // Material, abundance, layer, depth and rotation: the keys of every shape.
  void read_common(const ConfigTable& t, const std::string& f, ParticleSpec& p) {
    p.material = material(t, "material", f + ".material");
    p.abundance = t.get_double_or("abundance", 1.0);
    note(f + ".abundance", t.where("abundance"));
    p.layer = layer_index(t, f + ".layer");
    p.depth = nm_or(t, "depth", 0.0);
    note(f + ".depth", t.where("depth"));
    if (t.has("rotation")) p.rotation = rotation(t);
  }

  // shape = "mesh": file (STL or OBJ, relative to the sample file), scale
  // (nm per file unit: 0.1, or "1 angstrom" for a file in Å), origin
  // ("bottom_centre" or "file"), offset [x, y, z] nm.
  ParticleSpec read_mesh_particle(const ConfigTable& t, const std::string& f) {
    check_keys(t, {"shape", "file", "scale", "origin", "offset", "material", "abundance", "layer", "depth",
                   "rotation"});
    ParticleSpec p;
    p.shape = "mesh";
    read_common(t, f, p);
    MeshPlacement placement;
    placement.scale = nm_or(t, "scale", 1.0);
    note(f + ".scale", t.where("scale"));
    if (!(placement.scale > 0) || !std::isfinite(placement.scale))
      fail_at(t.where("scale"), "must be a positive factor (nm per file unit), got ", placement.scale);
    if (t.has("origin")) {
      const std::string origin = t.get_string("origin");
      if (origin == "file")
        placement.origin = MeshOrigin::file;
      else if (origin != "bottom_centre")
        fail_at(t.where("origin"), "unknown origin '", origin, "' (bottom_centre, file)");
    }
    if (t.has("offset")) {
      const auto o = t.get_array_of_lengths("offset", Length::nm, Length::nm);
      if (o.size() != 3) fail_at(t.where("offset"), "give [x, y, z] in nm");
      placement.offset = {o[0], o[1], o[2]};
      if (!is_finite(placement.offset)) fail_at(t.where("offset"), "must be finite");
    }
    std::filesystem::path file = t.get_string("file");
    note(f + ".file", t.where("file"));
    if (file.is_relative()) file = std::filesystem::path(t.file()).parent_path() / file;
    if (!std::filesystem::is_regular_file(file))
      fail_at(t.where("file"), "mesh file '", file.string(), "' does not exist");
    // Mesh errors name the mesh file and the triangle.
    p.mesh = std::make_shared<MeshFormFactor>(place_mesh(read_mesh(file), placement));
    return p;
  }

  Distribution1D profile_1d(const ConfigTable& owner, const std::string& key, const std::string& f) {
    const ConfigTable t = owner.get_table(key);
    check_keys(t, {"type", "omega", "eta"});
    Distribution1D d;
    d.kind = profile_kind(t);
    d.omega = nm(t, "omega");
    note(f + ".omega", t.where("omega"));
    d.eta = t.get_double_or("eta", 0.5);
    return d;
  }

  Distribution2D profile_2d(const ConfigTable& owner, const std::string& key, const std::string& f) {
    const ConfigTable t = owner.get_table(key);
    check_keys(t, {"type", "omega_x", "omega_y", "gamma", "eta"});
    Distribution2D d;
    d.kind = profile_kind(t);
    d.omega_x = nm(t, "omega_x");
    d.omega_y = nm(t, "omega_y");
    d.gamma = radians_or(t, "gamma", 0.0);
    d.eta = t.get_double_or("eta", 0.5);
    note(f + ".omega_x", t.where("omega_x"));
    note(f + ".omega_y", t.where("omega_y"));
    return d;
  }

  ProfileKind profile_kind(const ConfigTable& t) {
    const std::string type = t.get_string("type");
    if (type == "gauss") return ProfileKind::gauss;
    if (type == "cauchy") return ProfileKind::cauchy;
    if (type == "voigt") return ProfileKind::voigt;
    fail_at(t.where("type"), "unknown profile '", type, "' (gauss, cauchy, voigt)");
  }

  Lattice2DGeometry lattice(const ConfigTable& owner, const std::string& f) {
    const ConfigTable t = owner.get_table("lattice");
    note(f, t.where());
    Lattice2DGeometry l;
    const std::string type = t.get_string_or("type", "general");
    if (type == "square" || type == "hexagonal") {
      check_keys(t, {"type", "length", "xi"});
      l.length_1 = l.length_2 = nm(t, "length");
      l.angle = (type == "square" ? 90.0 : 120.0) * kDegree;
      note(f + ".length_1", t.where("length"));
      note(f + ".length_2", t.where("length"));
    } else if (type == "general") {
      check_keys(t, {"type", "length_1", "length_2", "angle", "xi"});
      l.length_1 = nm(t, "length_1");
      l.length_2 = nm(t, "length_2");
      l.angle = radians(t, "angle");
      note(f + ".length_1", t.where("length_1"));
      note(f + ".length_2", t.where("length_2"));
      note(f + ".angle", t.where("angle"));
    } else {
      fail_at(t.where("type"), "unknown lattice '", type, "' (square, hexagonal, general)");
    }
    l.xi = radians_or(t, "xi", 0.0);
    return l;
  }

  Interference interference(const ConfigTable& t, const std::string& f) {
    note(f, t.where());
    const std::string type = t.get_string("type");
    auto num = [&](const char* key, double fallback) {
      note(f + "." + key, t.where(key));
      return t.get_double_or(key, fallback);
    };
    auto length = [&](const char* key) {
      note(f + "." + key, t.where(key));
      return nm_or(t, key, 0.0);
    };
    auto angle = [&](const char* key) {
      note(f + "." + key, t.where(key));
      return radians_or(t, key, 0.0);
    };
    if (type == "none") {
      check_keys(t, {"type"});
      return NoInterference{};
    }
    if (type == "radial_paracrystal" || type == "paracrystal_1d") {
      const bool radial = type == "radial_paracrystal";
      std::vector<std::string> keys{"type", "peak_distance", "damping_length", "domain_size", "pdf"};
      keys.push_back(radial ? "size_spacing_coupling" : "xi");
      check_keys(t, keys);
      const double d = nm(t, "peak_distance");
      note(f + ".peak_distance", t.where("peak_distance"));
      const Distribution1D pdf = profile_1d(t, "pdf", f + ".pdf");
      if (radial)
        return RadialParacrystal{d, length("damping_length"), length("domain_size"), pdf,
                                 num("size_spacing_coupling", 0)};
      return Paracrystal1D{d, length("damping_length"), length("domain_size"), angle("xi"), pdf};
    }
    if (type == "paracrystal_2d") {
      check_keys(t, {"type", "lattice", "damping_length", "domain_sizes", "pdf_1", "pdf_2"});
      Paracrystal2D s;
      s.lattice = lattice(t, f + ".lattice");
      s.damping_length = length("damping_length");
      if (t.has("domain_sizes")) {
        const auto sizes = t.get_array_of_lengths("domain_sizes", Length::nm, Length::nm);
        if (sizes.size() != 2) fail_at(t.where("domain_sizes"), "give [size_1, size_2] in nm");
        s.domain_size_1 = sizes[0];
        s.domain_size_2 = sizes[1];
        note(f + ".domain_sizes", t.where("domain_sizes"));
      }
      s.pdf_1 = profile_2d(t, "pdf_1", f + ".pdf_1");
      s.pdf_2 = profile_2d(t, "pdf_2", f + ".pdf_2");
      return s;
    }
    if (type == "lattice_1d") {
      check_keys(t, {"type", "length", "xi", "decay"});
      Lattice1D s;
      s.length = nm(t, "length");
      note(f + ".length", t.where("length"));
      s.xi = angle("xi");
      const ConfigTable d = t.get_table("decay");
      check_keys(d, {"type", "length", "eta"});
      s.decay.kind = profile_kind(d);
      s.decay.length = nm(d, "length");
      s.decay.eta = d.get_double_or("eta", 0.5);
      note(f + ".decay.length", d.where("length"));
      return s;
    }
    if (type == "lattice_2d") {
      check_keys(t, {"type", "lattice", "decay"});
      Lattice2D s;
      s.lattice = lattice(t, f + ".lattice");
      const ConfigTable d = t.get_table("decay");
      check_keys(d, {"type", "length_x", "length_y", "gamma", "eta"});
      s.decay.kind = profile_kind(d);
      s.decay.length_x = nm(d, "length_x");
      s.decay.length_y = nm(d, "length_y");
      s.decay.gamma = radians_or(d, "gamma", 0.0);
      s.decay.eta = d.get_double_or("eta", 0.5);
      note(f + ".decay.length_x", d.where("length_x"));
      note(f + ".decay.length_y", d.where("length_y"));
      return s;
    }
    fail_at(t.where("type"), "unknown interference '", type,
            "' (none, radial_paracrystal, paracrystal_1d, paracrystal_2d, lattice_1d, lattice_2d)");
  }

  void read_layout(const ConfigTable& t, std::size_t index) {
    const std::string f = "layout[" + std::to_string(index) + "]";
    if (!t.path().empty()) {  // a [[layout]] block
      check_keys(t, {"particle", "interference", "density", "mixture", "position_variance"});
      note(f, t.where());
    }
    Layout layout;
    const auto particles = t.get_array_of_tables("particle");
    note(f + ".particle", t.where("particle"));
    for (std::size_t p = 0; p < particles.size(); ++p)
      layout.particles.push_back(read_particle(particles[p], f + ".particle[" + std::to_string(p) + "]"));
    if (t.has("interference")) layout.interference = interference(t.get_table("interference"), f + ".interference");
    // 2D lattices and paracrystals fix the density (BornAgain does the same).
    double cell = 0;
    if (const auto* p = std::get_if<Paracrystal2D>(&layout.interference)) cell = p->lattice.cell_area();
    if (const auto* l = std::get_if<Lattice2D>(&layout.interference)) cell = l->lattice.cell_area();
    if (cell > 0) {
      if (t.has("density"))
        fail_at(t.where("density"), "the 2D lattice fixes the density (1/cell area = ", 1 / cell,
                " nm⁻²); remove this key");
      layout.density = 1 / cell;
      note(f + ".density", locate(f + ".interference.lattice"));
    } else {
      if (!t.has("density"))
        fail_at({t.file(), t.where().line, t.path().empty() ? "density" : t.path() + ".density"},
                "missing required key: the particles' surface density (nm⁻²)");
      layout.density = t.get_double("density");
      note(f + ".density", t.where("density"));
    }
    const std::string mixture = t.get_string_or("mixture", "decoupling");
    if (mixture == "decoupling")
      layout.mixture = MixtureApproximation::decoupling;
    else if (mixture == "lma" || mixture == "local_monodisperse")
      layout.mixture = MixtureApproximation::local_monodisperse;
    else if (mixture == "ssca")
      layout.mixture = MixtureApproximation::ssca;
    else
      fail_at(t.where("mixture"), "unknown mixture approximation '", mixture, "' (decoupling, lma, ssca)");
    note(f + ".mixture", t.where("mixture"));
    layout.position_variance = t.get_double_or("position_variance", 0.0);
    note(f + ".position_variance", t.where("position_variance"));
    sample_.layouts.push_back(std::move(layout));
  }

  Sample sample_;
  std::map<std::string, ConfigTable> named_;
  std::map<std::string, Where> where_;
};

}  // namespace

Sample parse_sample(std::string_view text, const std::string& source_name) {
  return SampleReader().read(parse_config(text, source_name));
}

Sample read_sample(const std::filesystem::path& path) { return SampleReader().read(load_config(path)); }

}  // namespace nanoscatter::gisaxs
