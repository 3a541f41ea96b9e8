#include "gisaxs/plan_state.hpp"

#include "gisaxs/particle_components.hpp"
#include "gisaxs/size_distribution.hpp"

namespace nanoscatter::gisaxs {

namespace {

bool is_identity(const Mat3& m) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (m.row[i][j] != (i == j ? 1.0 : 0.0)) return false;
  return true;
}

}  // namespace

// Every combination of the sampled α_i, φ_i and λ, weights multiplied.
std::vector<BeamState> beam_states(const Sample& sample) {
  struct Point {
    Beam beam;
    double weight;
  };
  std::vector<Point> points{{sample.beam, 1.0}};
  auto spread = [&](const std::optional<SampledDistribution>& d, double Beam::*value) {
    if (!d) return;
    std::vector<Point> next;
    for (const Point& p : points)
      for (const DistributionPoint& s : sample_distribution(*d, sample.beam.*value)) {
        Point q = p;
        q.beam.*value = s.value;
        q.weight *= s.weight;
        next.push_back(q);
      }
    points = std::move(next);
  };
  spread(sample.beam.alpha_i_divergence, &Beam::alpha_i);
  spread(sample.beam.phi_i_divergence, &Beam::phi_i);
  spread(sample.beam.wavelength_spread, &Beam::wavelength);
  std::vector<BeamState> states;
  for (const Point& p : points) {
    const bool nominal = p.beam.alpha_i == sample.beam.alpha_i && p.beam.phi_i == sample.beam.phi_i &&
                         p.beam.wavelength == sample.beam.wavelength;
    states.emplace_back(p.beam, p.weight, nominal, sample.layers);
  }
  return states;
}

std::vector<LayoutPlan> layout_plans(const Sample& sample) {
  std::vector<LayoutPlan> plans;
  for (const Layout& layout : sample.layouts) {
    LayoutPlan plan;
    plan.density = layout.density;
    plan.mixture = layout.mixture;
    if (layout.mixture != MixtureApproximation::ssca)
      plan.interference = make_interference(layout.interference, layout.position_variance);
    double total = 0;
    for (const ParticleSpec& p : layout.particles) {
      const Complex host = sample.layers[p.layer].material.n2_minus_1();
      const Complex body = p.material.n2_minus_1();
      for (const SampledShape& s : sample_shapes(p)) {
        ParticleKind kind;
        kind.layer = p.layer;
        kind.depth = p.depth;
        kind.rotated = !is_identity(p.rotation);
        kind.to_particle = transpose(p.rotation);
        kind.weight = p.abundance * s.weight;
        kind.shape = p.shape;
        kind.parameters = s.parameters;
        total += kind.weight;
        bool first = true;
        for (const ShapeComponent& c : particle_components(p, s.parameters)) {
          Component comp;
          comp.form_factor = c.form_factor;
          comp.mesh = std::dynamic_pointer_cast<const MeshFormFactor>(c.form_factor);
          if (comp.mesh) comp.table = std::make_shared<std::vector<Complex>>();
          comp.contrast = c.role == ComponentRole::body ? body - host : p.core_material->n2_minus_1() - body;
          comp.offset = c.offset;
          comp.has_offset = c.offset.x != 0 || c.offset.y != 0 || c.offset.z != 0;
          if (first) {  // the outer body (the shell of a core–shell particle)
            const Extent e = c.form_factor->extent();
            kind.radial_extension = 0.5 * (e.hi.x - e.lo.x);
            first = false;
          }
          kind.components.push_back(std::move(comp));
        }
        plan.kinds.push_back(std::move(kind));
      }
    }
    for (ParticleKind& k : plan.kinds) k.weight /= total;
    if (layout.mixture == MixtureApproximation::ssca) {
      SscaCoupling ssca;
      ssca.paracrystal = std::get<RadialParacrystal>(layout.interference);
      ssca.position_variance = layout.position_variance;
      for (const ParticleKind& k : plan.kinds) ssca.mean_radius += k.weight * k.radial_extension;
      plan.ssca = ssca;
    }
    plans.push_back(std::move(plan));
  }
  return plans;
}

}  // namespace nanoscatter::gisaxs
