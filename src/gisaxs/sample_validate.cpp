// Checks of a Sample, each failure an Error whose field names the value in
// the sample file's terms ("layer[1].thickness", "layout[0].particle[2].radius");
// the file reader maps these names to lines (sample_toml.cpp).
#include <cmath>
#include <string>

#include "gisaxs/particle_components.hpp"
#include "gisaxs/size_distribution.hpp"
#include "nanoscatter/constants.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"

namespace nanoscatter::gisaxs {

namespace {

void positive(double v, const std::string& field, const char* unit) {
  if (!(v > 0) || !std::isfinite(v)) fail_at({"", 0, field}, "must be positive and finite (", unit, "), got ", v);
}
void non_negative(double v, const std::string& field, const char* unit) {
  if (!(v >= 0) || !std::isfinite(v)) fail_at({"", 0, field}, "must be ≥ 0 and finite (", unit, "), got ", v);
}

void check_material(const Material& m, const std::string& field) {
  if (!std::isfinite(m.delta)) fail_at({"", 0, field + ".delta"}, "must be finite, got ", m.delta);
  if (!(m.beta >= 0) || !std::isfinite(m.beta))
    fail_at({"", 0, field + ".beta"}, "must be ≥ 0 (absorption) and finite, got ", m.beta);
}

void check_edges(const std::vector<double>& edges, const std::string& field, double lo, double hi,
                 const char* unit, double scale) {
  if (edges.size() < 2) fail_at({"", 0, field}, "empty detector axis: at least one bin is needed");
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (!std::isfinite(edges[i]) || edges[i] < lo || edges[i] > hi)
      fail_at({"", 0, field}, "values must lie in [", lo * scale, ", ", hi * scale, "] ", unit, ", got ",
              edges[i] * scale);
    if (i > 0 && !(edges[i] > edges[i - 1]))
      fail_at({"", 0, field}, "bin edges must increase (", edges[i - 1] * scale, " then ", edges[i] * scale, ")");
  }
}

// A sampled distribution: width, samples, factor, limits that leave a range;
// `nominal` is the value it spreads (its sampled values must be > 0 where
// `positive_values`).
// Messages show values × `shown` (1/kDegree for angles: the file's degrees).
void check_distribution(const SampledDistribution& s, double nominal, const std::string& df, const char* unit,
                        bool positive_values, double shown = 1.0) {
  const bool gaussian = s.kind == DistributionKind::gaussian;
  non_negative(s.width, df + (gaussian ? ".sigma" : ".scale"), gaussian ? unit : "dimensionless");
  if (s.samples < 1) fail_at({"", 0, df + ".samples"}, "must be ≥ 1, got ", s.samples);
  positive(s.sigma_factor, df + ".sigma_factor", "dimensionless");
  if (s.min && !std::isfinite(*s.min)) fail_at({"", 0, df + ".min"}, "must be finite");
  if (s.max && !std::isfinite(*s.max)) fail_at({"", 0, df + ".max"}, "must be finite");
  if (s.min && s.max && !(*s.min < *s.max))
    fail_at({"", 0, df + ".max"}, "must exceed min (", *s.min * shown, "), got ", *s.max * shown);
  if (!gaussian && !(nominal > 0))
    fail_at({"", 0, df}, "a lognormal spreads a positive median, got ", nominal);
  if (s.samples <= 1 || s.width == 0) return;
  const double lo = gaussian ? nominal - s.sigma_factor * s.width : nominal * std::exp(-s.sigma_factor * s.width);
  const double hi = gaussian ? nominal + s.sigma_factor * s.width : nominal * std::exp(s.sigma_factor * s.width);
  if ((s.min && *s.min > hi) || (s.max && *s.max < lo))
    fail_at({"", 0, df + (s.min && *s.min > hi ? ".min" : ".max")}, "leaves nothing of the sampled range [",
            lo * shown, ", ", hi * shown, "]");
  if (positive_values && std::max(lo, s.min.value_or(lo)) <= 0)
    fail_at({"", 0, df + (s.min ? ".min" : ".sigma")}, "the sampled range reaches ",
            std::max(lo, s.min.value_or(lo)) * shown, " ≤ 0: narrow sigma or sigma_factor");
}

void check_detector(const Detector& detector) {
  if (const auto* a = std::get_if<AngularDetector>(&detector)) {
    check_edges(a->phi_edges, "detector.phi_f", -kPi / 2, kPi / 2, "°", 1 / kDegree);
    check_edges(a->alpha_edges, "detector.alpha_f", -kPi / 2, kPi / 2, "°", 1 / kDegree);
  } else if (const auto* q = std::get_if<QGridDetector>(&detector)) {
    check_edges(q->qy_edges, "detector.q_y", -1e300, 1e300, "1/nm", 1);
    check_edges(q->qz_edges, "detector.q_z", -1e300, 1e300, "1/nm", 1);
  } else {
    const auto& f = std::get<FlatDetector>(detector);
    positive(f.distance, "detector.distance", "mm");
    positive(f.pixel_width, "detector.pixel_size", "mm");
    positive(f.pixel_height, "detector.pixel_size", "mm");
    if (f.columns == 0 || f.rows == 0) fail_at({"", 0, "detector.pixels"}, "empty detector: no pixels");
    if (!std::isfinite(f.beam_x) || !std::isfinite(f.beam_y))
      fail_at({"", 0, "detector.direct_beam"}, "must be finite");
    if (f.region_columns > 0 &&
        (f.region_x0 + f.region_columns > f.columns || f.region_rows == 0 || f.region_y0 + f.region_rows > f.rows))
      fail_at({"", 0, "detector.region"}, "must lie on the detector (", f.columns, " × ", f.rows, " pixels)");
  }
}

void check_profile(double width, double eta, ProfileKind kind, const std::string& field) {
  positive(width, field, "nm");
  if (kind == ProfileKind::voigt && !(eta >= 0 && eta <= 1))
    fail_at({"", 0, field}, "voigt eta must lie in [0, 1], got ", eta);
}

void check_lattice(const Lattice2DGeometry& l, const std::string& field) {
  positive(l.length_1, field + ".length_1", "nm");
  positive(l.length_2, field + ".length_2", "nm");
  if (!(l.angle > 0 && l.angle < kPi))
    fail_at({"", 0, field + ".angle"}, "must lie in (0°, 180°), got ", l.angle / kDegree, "°");
  if (!std::isfinite(l.xi)) fail_at({"", 0, field + ".xi"}, "must be finite");
}

struct InterferenceChecker {
  std::string f;  // "layout[0].interference"
  void operator()(const NoInterference&) const {}
  void operator()(const RadialParacrystal& s) const {
    positive(s.peak_distance, f + ".peak_distance", "nm");
    non_negative(s.size_spacing_coupling, f + ".size_spacing_coupling", "dimensionless");
    non_negative(s.damping_length, f + ".damping_length", "nm");
    non_negative(s.domain_size, f + ".domain_size", "nm");
    check_profile(s.pdf.omega, s.pdf.eta, s.pdf.kind, f + ".pdf.omega");
  }
  void operator()(const Paracrystal1D& s) const {
    positive(s.peak_distance, f + ".peak_distance", "nm");
    non_negative(s.damping_length, f + ".damping_length", "nm");
    non_negative(s.domain_size, f + ".domain_size", "nm");
    check_profile(s.pdf.omega, s.pdf.eta, s.pdf.kind, f + ".pdf.omega");
  }
  void operator()(const Paracrystal2D& s) const {
    check_lattice(s.lattice, f + ".lattice");
    non_negative(s.damping_length, f + ".damping_length", "nm");
    non_negative(s.domain_size_1, f + ".domain_sizes", "nm");
    non_negative(s.domain_size_2, f + ".domain_sizes", "nm");
    check_profile(s.pdf_1.omega_x, s.pdf_1.eta, s.pdf_1.kind, f + ".pdf_1.omega_x");
    check_profile(s.pdf_1.omega_y, s.pdf_1.eta, s.pdf_1.kind, f + ".pdf_1.omega_y");
    check_profile(s.pdf_2.omega_x, s.pdf_2.eta, s.pdf_2.kind, f + ".pdf_2.omega_x");
    check_profile(s.pdf_2.omega_y, s.pdf_2.eta, s.pdf_2.kind, f + ".pdf_2.omega_y");
  }
  void operator()(const Lattice1D& s) const {
    positive(s.length, f + ".length", "nm");
    check_profile(s.decay.length, s.decay.eta, s.decay.kind, f + ".decay.length");
  }
  void operator()(const Lattice2D& s) const {
    check_lattice(s.lattice, f + ".lattice");
    check_profile(s.decay.length_x, s.decay.eta, s.decay.kind, f + ".decay.length_x");
    check_profile(s.decay.length_y, s.decay.eta, s.decay.kind, f + ".decay.length_y");
  }
};

void check_particle(const ParticleSpec& p, const std::string& f, const std::vector<Layer>& layers) {
  const bool mesh = p.shape == "mesh";
  const ShapeInfo* shape = find_shape(p.shape);
  if (!shape && !mesh) fail_at({"", 0, f + ".shape"}, "unknown shape '", p.shape, "' (", shape_names(), ", mesh)");
  if (mesh && !p.mesh) fail_at({"", 0, f + ".file"}, "a mesh particle needs its mesh");
  if (mesh && !p.distributions.empty())
    fail_at({"", 0, f + ".distribution[0].parameter"}, "mesh particles take no size distribution");
  const std::size_t n_parameters = mesh ? 0 : shape->parameters.size();
  const bool has_core = !mesh && shape->has_core;
  if (p.parameters.size() != n_parameters)
    fail_at({"", 0, f}, "shape ", p.shape, " takes ", n_parameters, " parameters, got ", p.parameters.size());
  check_material(p.material, f + ".material");
  if (has_core && !p.core_material)
    fail_at({"", 0, f + ".core_material"}, "shape ", p.shape, " needs a core_material");
  if (!has_core && p.core_material)
    fail_at({"", 0, f + ".core_material"}, "shape ", p.shape, " has no core");
  if (p.core_material) check_material(*p.core_material, f + ".core_material");
  positive(p.abundance, f + ".abundance", "relative");
  if (p.layer >= layers.size())
    fail_at({"", 0, f + ".layer"}, "layer ", p.layer, " does not exist (the sample has ", layers.size(),
            " layers, numbered from 0)");
  if (!std::isfinite(p.depth)) fail_at({"", 0, f + ".depth"}, "must be finite");
  if (p.layer == 0 && p.depth > 0)
    fail_at({"", 0, f + ".depth"}, "a particle in the ambient (layer 0) sits on or above the first interface: ",
            "depth must be ≤ 0, got ", p.depth);
  if (p.layer > 0 && p.depth < 0)
    fail_at({"", 0, f + ".depth"}, "must be ≥ 0 (below the top of layer ", p.layer, "), got ", p.depth);
  if (p.layer > 0 && p.layer + 1 < layers.size() && p.depth > layers[p.layer].thickness)
    fail_at({"", 0, f + ".depth"}, "lies below layer ", p.layer, " (thickness ", layers[p.layer].thickness,
            " nm), got ", p.depth);
  for (std::size_t d = 0; d < p.distributions.size(); ++d) {
    const SizeDistribution& s = p.distributions[d];
    const std::string df = f + ".distribution[" + std::to_string(d) + "]";
    if (s.parameter >= p.parameters.size()) fail_at({"", 0, df + ".parameter"}, "no such parameter");
    check_distribution(s, p.parameters[s.parameter], df, "the parameter's unit", true);
  }
  // Build every sampled shape so that range errors of the factories surface
  // here, named after this particle.
  bool identity = true;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) identity = identity && p.rotation.row[i][j] == (i == j ? 1.0 : 0.0);
  for (const SampledShape& s : sample_shapes(p)) {
    std::vector<ShapeComponent> components;
    try {
      components = particle_components(p, s.parameters);
    } catch (const Error& e) {
      fail_at({"", 0, f + "." + e.where().field}, e.reason());
    }
    // The DWBA of one layer needs the particle inside it. Checked for
    // unrotated particles, whose vertical extent is exact; a rotated one is
    // assumed to stay inside.
    const double height = components.front().form_factor->extent().hi.z;
    if (identity && p.layer > 0 && p.depth < height * (1 - 1e-12))
      fail_at({"", 0, f + ".depth"}, "the particle (height ", height, " nm) would cross the top of layer ",
              p.layer, ": depth must be ≥ ", height, " nm, got ", p.depth);
  }
}

}  // namespace

void validate_sample(const Sample& sample) {
  const Beam& b = sample.beam;
  positive(b.wavelength, "beam.wavelength", "nm");
  if (!(b.alpha_i > 0 && b.alpha_i < kPi / 2))
    fail_at({"", 0, "beam.alpha_i"}, "the grazing angle must lie in (0°, 90°), got ", b.alpha_i / kDegree, "°");
  if (!std::isfinite(b.phi_i) || std::abs(b.phi_i) >= kPi / 2)
    fail_at({"", 0, "beam.phi_i"}, "must lie in (−90°, 90°), got ", b.phi_i / kDegree, "°");
  positive(b.intensity, "beam.intensity", "relative");
  if (b.alpha_i_divergence) {
    check_distribution(*b.alpha_i_divergence, b.alpha_i, "beam.alpha_i_divergence", "rad", true, 1 / kDegree);
    for (const DistributionPoint& a : sample_distribution(*b.alpha_i_divergence, b.alpha_i))
      if (!(a.value < kPi / 2))
        fail_at({"", 0, "beam.alpha_i_divergence"}, "sampled α_i ", a.value / kDegree, "° must stay below 90°");
  }
  if (b.phi_i_divergence) {
    check_distribution(*b.phi_i_divergence, b.phi_i, "beam.phi_i_divergence", "rad", false, 1 / kDegree);
    for (const DistributionPoint& a : sample_distribution(*b.phi_i_divergence, b.phi_i))
      if (!(std::abs(a.value) < kPi / 2))
        fail_at({"", 0, "beam.phi_i_divergence"}, "sampled φ_i ", a.value / kDegree, "° must lie in (−90°, 90°)");
  }
  if (b.wavelength_spread) check_distribution(*b.wavelength_spread, b.wavelength, "beam.wavelength_spread", "nm", true);
  check_detector(sample.detector);
  if (sample.resolution) {
    positive(sample.resolution->sigma_x, "detector.resolution.sigma_x", "the detector's unit");
    positive(sample.resolution->sigma_y, "detector.resolution.sigma_y", "the detector's unit");
  }
  non_negative(sample.background, "detector.background", "intensity per pixel");

  if (sample.layers.empty()) fail_at({"", 0, "layer"}, "the sample needs at least one layer (the ambient)");
  const std::size_t n = sample.layers.size();
  for (std::size_t j = 0; j < n; ++j) {
    const Layer& l = sample.layers[j];
    const std::string f = "layer[" + std::to_string(j) + "]";
    check_material(l.material, f + ".material");
    if (j == 0 || j + 1 == n) {
      if (l.thickness != 0)
        fail_at({"", 0, f + ".thickness"}, j == 0 ? "the ambient" : "the substrate",
                " is semi-infinite: give no thickness");
    } else {
      positive(l.thickness, f + ".thickness", "nm");
    }
    if (j == 0 && l.roughness != 0) fail_at({"", 0, f + ".roughness"}, "the ambient has no top interface");
    non_negative(l.roughness, f + ".roughness", "nm");
  }

  if (sample.layouts.empty()) fail_at({"", 0, "particle"}, "the sample has no particles");
  for (std::size_t l = 0; l < sample.layouts.size(); ++l) {
    const Layout& layout = sample.layouts[l];
    const std::string f = "layout[" + std::to_string(l) + "]";
    if (layout.particles.empty()) fail_at({"", 0, f + ".particle"}, "the layout has no particles");
    positive(layout.density, f + ".density", "particles/nm²");
    non_negative(layout.position_variance, f + ".position_variance", "nm²");
    std::visit(InterferenceChecker{f + ".interference"}, layout.interference);
    const auto* radial = std::get_if<RadialParacrystal>(&layout.interference);
    if (layout.mixture == MixtureApproximation::ssca && !radial)
      fail_at({"", 0, f + ".mixture"}, "the SSCA needs a radial_paracrystal interference function");
    // BornAgain switches to the SSCA by itself where κ > 0; here the layout says so.
    if (radial && radial->size_spacing_coupling > 0 && layout.mixture != MixtureApproximation::ssca)
      fail_at({"", 0, f + ".interference.size_spacing_coupling"},
              "takes effect with mixture = \"ssca\" only (BornAgain uses the SSCA wherever κ > 0): set the mixture");
    for (std::size_t p = 0; p < layout.particles.size(); ++p)
      check_particle(layout.particles[p], f + ".particle[" + std::to_string(p) + "]", sample.layers);
  }
}

}  // namespace nanoscatter::gisaxs
