#include "gisaxs/analytic_tables.hpp"

#include <limits>

#include "gisaxs/formfactors/checks.hpp"
#include "gisaxs/special_functions.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::gisaxs {

namespace {

using analytic::Shape;

// The catalogue names of analytic::Shape.
struct ShapeName {
  const char* name;
  Shape shape;
};
constexpr ShapeName kShapes[] = {{"sphere", Shape::sphere},   {"spheroid", Shape::spheroid},
                                 {"cylinder", Shape::cylinder}, {"box", Shape::box},
                                 {"truncated_sphere", Shape::truncated_sphere}, {"cone", Shape::cone}};

const ShapeName* find_analytic(const std::string& name) {
  for (const ShapeName& s : kShapes)
    if (name == s.name) return &s;
  return nullptr;
}

analytic::Field field(const LayerField& f) {
  return {{f.kz.real(), f.kz.imag()}, {f.t.real(), f.t.imag()}, {f.r.real(), f.r.imag()}};
}

analytic::ShapeParams shape_params(const ParticleKind& kind) {
  analytic::ShapeParams s;
  s.shape = find_analytic(kind.shape)->shape;
  for (std::size_t i = 0; i < kind.parameters.size() && i < 3; ++i) s.p[i] = kind.parameters[i];
  s.volume = kind.components.front().form_factor->volume();
  const double* p = s.p;
  if (s.shape == Shape::truncated_sphere) {  // (R, H, ΔH): r² = R² − (z − (H − R))²
    s.z_top = p[1] - p[2];
    s.r_max = p[0];
    s.revolution[0] = p[0];
    s.revolution[1] = p[1] - p[0];
  } else if (s.shape == Shape::cone) {  // (R, H, α): r = R − z cot α
    s.z_top = p[1];
    s.r_max = p[0];
    s.revolution[0] = p[0];
    s.revolution[1] = detail::cotangent(p[2]);
  }
  return s;
}

analytic::Profile profile(ProfileKind kind) {
  switch (kind) {
    case ProfileKind::gauss: return analytic::Profile::gauss;
    case ProfileKind::cauchy: return analytic::Profile::cauchy;
    case ProfileKind::voigt: return analytic::Profile::voigt;
  }
  return analytic::Profile::gauss;
}

}  // namespace

std::string analytic_unsupported(const std::vector<LayoutPlan>& layouts, const std::vector<BeamState>& beams) {
  if (beams.size() != 1) return "beam divergence or wavelength spread";
  for (const LayoutPlan& layout : layouts)
    for (const ParticleKind& kind : layout.kinds) {
      if (!find_analytic(kind.shape)) return "shape '" + kind.shape + "'";
      if (kind.rotated) return "rotated particles";
      if (kind.components.size() != 1 || kind.components.front().has_offset)
        return "particles of several components";
    }
  return "";
}

AnalyticGeometry make_analytic_geometry(const PixelGrid& pixels, const BeamState& beam, Approximation approximation,
                                        double background) {
  AnalyticGeometry g;
  const std::size_t n = pixels.size();
  g.qx = pixels.qx;
  g.qy = pixels.qy;
  g.qz = pixels.qz;
  g.reachable = pixels.reachable;
  g.scale.resize(n);
  for (std::size_t p = 0; p < n; ++p) g.scale[p] = pixels.solid_angle[p] * beam.normalisation;
  g.dwba = approximation == Approximation::dwba;
  g.amplitude_prefactor = beam.amplitude_prefactor;
  g.background = background;
  g.layers = static_cast<std::int32_t>(beam.multilayer.size());
  for (const LayerField& f : beam.incident) g.incident.push_back(field(f));
  // One row of outgoing fields per run of reachable pixels of equal α_f
  // (a detector row of an angular or q grid; single pixels of a flat one).
  g.field_row.assign(n, 0);
  if (g.dwba) {
    std::vector<LayerField> fields(beam.multilayer.size());
    double last_alpha = std::numeric_limits<double>::quiet_NaN();
    std::uint32_t rows = 0;
    for (std::size_t p = 0; p < n; ++p) {
      if (!pixels.reachable[p]) continue;
      if (pixels.alpha_f[p] != last_alpha || rows == 0) {
        if (rows == std::numeric_limits<std::uint32_t>::max()) fail("analytic GPU tables: too many detector rows");
        beam.multilayer.fields(pixels.alpha_f[p], fields.data());
        for (const LayerField& f : fields) g.outgoing.push_back(field(f));
        last_alpha = pixels.alpha_f[p];
        ++rows;
      }
      g.field_row[p] = rows - 1;
    }
  }
  if (g.outgoing.empty()) g.outgoing.resize(std::size_t(g.layers));  // never read; keeps the buffer non-empty
  g.chebyshev = bessel_j1c_chebyshev();
  std::vector<double> weights;
  for (int i = 0; i < analytic::kGaussOrderCount; ++i) {
    const GaussRule& rule = gauss_legendre(analytic::gauss_order(i));
    g.gauss.insert(g.gauss.end(), rule.nodes.begin(), rule.nodes.end());
    weights.insert(weights.end(), rule.weights.begin(), rule.weights.end());
  }
  g.gauss.insert(g.gauss.end(), weights.begin(), weights.end());
  return g;
}

AnalyticParticles make_analytic_particles(const std::vector<LayoutPlan>& layouts, const PixelGrid& pixels) {
  AnalyticParticles a;
  const std::size_t n = pixels.size();
  for (const LayoutPlan& layout : layouts) {
    analytic::LayoutTerms terms;
    terms.first_kind = static_cast<std::int32_t>(a.kinds.size());
    terms.kind_count = static_cast<std::int32_t>(layout.kinds.size());
    terms.density = layout.density;
    terms.mixture = layout.mixture == MixtureApproximation::decoupling         ? analytic::Mixture::decoupling
                    : layout.mixture == MixtureApproximation::local_monodisperse ? analytic::Mixture::local_monodisperse
                                                                                 : analytic::Mixture::ssca;
    if (layout.ssca) {
      const RadialParacrystal& pc = layout.ssca->paracrystal;
      terms.coupling = pc.size_spacing_coupling;
      terms.peak_distance = pc.peak_distance;
      terms.damping = pc.damping_length > 0 ? std::exp(-pc.peak_distance / pc.damping_length) : 1.0;
      terms.position_variance = layout.ssca->position_variance;
      terms.profile = profile(pc.pdf.kind);
      terms.omega = pc.pdf.omega;
      terms.eta = pc.pdf.eta;
    } else if (layout.interference) {
      terms.structure_offset = static_cast<std::int64_t>(a.structure.size());
      a.structure.resize(a.structure.size() + n);
      layout.interference->evaluate(pixels.qx, pixels.qy,
                                    std::span<double>(a.structure.data() + terms.structure_offset, n));
    }
    for (const ParticleKind& kind : layout.kinds) {
      analytic::Kind k;
      k.shape = shape_params(kind);
      k.layer = static_cast<std::int32_t>(kind.layer);
      k.depth = kind.depth;
      k.weight = kind.weight;
      const Complex c = kind.components.front().contrast;
      k.contrast = {c.real(), c.imag()};
      if (layout.ssca) k.ssca_offset = kind.radial_extension - layout.ssca->mean_radius;
      a.kinds.push_back(k);
    }
    a.layouts.push_back(terms);
  }
  return a;
}

std::size_t analytic_device_bytes(const AnalyticGeometry& g, const AnalyticParticles& a) {
  const std::size_t n = g.pixels();
  return n * (5 * sizeof(double) + sizeof(std::uint8_t) + sizeof(std::uint32_t)) +
         (g.outgoing.size() + g.incident.size()) * sizeof(analytic::Field) +
         (g.chebyshev.size() + g.gauss.size() + a.structure.size()) * sizeof(double) +
         a.kinds.size() * sizeof(analytic::Kind) + a.layouts.size() * sizeof(analytic::LayoutTerms);
}

std::size_t analytic_batch_bytes(std::size_t pixels, const std::vector<AnalyticParticles>& sets) {
  std::size_t bytes = 0;
  for (const AnalyticParticles& a : sets)
    bytes += pixels * sizeof(double) + a.structure.size() * sizeof(double) + a.kinds.size() * sizeof(analytic::Kind) +
             a.layouts.size() * sizeof(analytic::LayoutTerms) + sizeof(analytic::PixelView);
  return bytes;
}

analytic::PixelView host_view(const AnalyticGeometry& g, const AnalyticParticles& a) {
  analytic::PixelView v;
  set_geometry_view(v, g, g);
  v.kinds = a.kinds.data();
  v.layouts = a.layouts.data();
  v.layout_count = static_cast<std::int32_t>(a.layouts.size());
  v.structure = a.structure.data();
  return v;
}

}  // namespace nanoscatter::gisaxs
