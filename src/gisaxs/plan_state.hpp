// What a GisaxsPlan holds after construction (api.cpp builds it): the
// particle kinds of every layout (size distributions sampled, contrasts and
// weights fixed) and the sampled incident beams with their Parratt fields.
// Shared by the CPU pixel loop (api.cpp) and the tables of the analytic GPU
// path (analytic_tables.cpp), so that both read one description.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gisaxs/interference/interference.hpp"
#include "gisaxs/multilayer.hpp"
#include "gisaxs/ssca.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"

namespace nanoscatter::gisaxs {

struct Component {
  std::shared_ptr<const FormFactor> form_factor;
  Complex contrast;  // n_c² − n_host²
  Vec3 offset;
  bool has_offset = false;
  // GPU runs: a mesh's F at every pixel's q (index pixel·terms + term),
  // computed once for the whole detector by the CUDA path (gpu_tables.cpp).
  std::shared_ptr<const MeshFormFactor> mesh;
  std::shared_ptr<std::vector<Complex>> table;
};

struct ParticleKind {
  std::vector<Component> components;
  Mat3 to_particle;  // transpose of the rotation: q in the particle frame
  bool rotated = false;
  std::size_t layer = 0;
  double depth = 0;
  double weight = 0;  // share of the layout's particles
  double radial_extension = 0;  // nm, half the x extent (BornAgain's radialExtension for the SSCA)
  // The catalogue shape and its sampled parameters (lengths nm, angles rad):
  // the GPU path evaluates the analytic shapes from these (analytic_tables.hpp).
  std::string shape;
  std::vector<double> parameters;
};

struct LayoutPlan {
  std::vector<ParticleKind> kinds;
  double density = 0;
  std::unique_ptr<InterferenceFunction> interference;
  MixtureApproximation mixture = MixtureApproximation::decoupling;
  std::optional<SscaCoupling> ssca;
};

// One sampled incident beam: its weight, fields and normalisation.
struct BeamState {
  Beam beam;
  double weight = 1;
  bool nominal = true;  // the sample's own beam: the pixel grid's q apply
  Multilayer multilayer;
  std::vector<LayerField> incident;  // fields at α_i
  double amplitude_prefactor = 0;    // π/λ²
  double normalisation = 0;          // I_beam / sin α_i
  BeamState(const Beam& b, double w, bool is_nominal, const std::vector<Layer>& layers)
      : beam(b), weight(w), nominal(is_nominal), multilayer(layers, b.wavelength) {
    incident = multilayer.fields(beam.alpha_i);
    amplitude_prefactor = std::numbers::pi / (beam.wavelength * beam.wavelength);
    normalisation = beam.intensity / std::sin(beam.alpha_i);
  }
};

// Every combination of the beam's sampled α_i, φ_i and λ, weights multiplied.
std::vector<BeamState> beam_states(const Sample& sample);
// The layouts' particle kinds: size distributions sampled, shapes built,
// contrasts against the host layer, weights normalised per layout.
std::vector<LayoutPlan> layout_plans(const Sample& sample);

}  // namespace nanoscatter::gisaxs
