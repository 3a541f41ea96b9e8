// Host side of the analytic GPU path: the tables the pixel function
// (analytic_pixel.hpp) reads, built from a plan (plan_state.hpp) in two
// parts with different lifetimes:
//   AnalyticGeometry  — per pixel q, ΔΩ·I_beam/sin α_i, and the Parratt
//                       fields of every layer at α_f (one row per run of
//                       pixels of equal α_f), the fields at α_i: fixed for a
//                       detector, beam and layer stack, kept across executes
//                       and across GisaxsPlan::set_layouts;
//   AnalyticParticles — the particle kinds, the layouts' mixture parameters
//                       and S(q∥) per pixel for decoupling and local
//                       monodisperse layouts (computed here on the CPU,
//                       since S does not depend on the particles).
// The CUDA state (analytic_backend.hpp) uploads each part when it changes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gisaxs/analytic_pixel.hpp"
#include "gisaxs/plan_state.hpp"

namespace nanoscatter::gisaxs {

struct AnalyticGeometry {
  std::vector<double> qx, qy, qz, scale;
  std::vector<std::uint8_t> reachable;
  std::vector<std::uint32_t> field_row;
  std::vector<analytic::Field> outgoing, incident;
  std::int32_t layers = 0;
  bool dwba = true;
  double amplitude_prefactor = 0, background = 0;
  std::vector<double> chebyshev, gauss;  // analytic::MathTables
  std::size_t pixels() const { return qx.size(); }
};

struct AnalyticParticles {
  std::vector<analytic::Kind> kinds;
  std::vector<analytic::LayoutTerms> layouts;
  std::vector<double> structure;
};

// Why these layouts or beams cannot take the analytic GPU path, or "" when
// they can: every kind one unrotated body of a shape in analytic::Shape, one
// beam (no divergence or wavelength spread).
std::string analytic_unsupported(const std::vector<LayoutPlan>& layouts, const std::vector<BeamState>& beams);

AnalyticGeometry make_analytic_geometry(const PixelGrid& pixels, const BeamState& beam, Approximation approximation,
                                        double background);
// Layouts that analytic_unsupported accepts.
AnalyticParticles make_analytic_particles(const std::vector<LayoutPlan>& layouts, const PixelGrid& pixels);

// Bytes the device keeps for these tables (and one float64 output per pixel).
std::size_t analytic_device_bytes(const AnalyticGeometry& geometry, const AnalyticParticles& particles);

// Device bytes a batch of particle tables needs beyond the resident
// geometry (analytic_images_batch_cuda): the tables, a view and an image each.
std::size_t analytic_batch_bytes(std::size_t pixels, const std::vector<AnalyticParticles>& sets);

// A view with host pointers: the CPU runs of the pixel function (tests).
analytic::PixelView host_view(const AnalyticGeometry& geometry, const AnalyticParticles& particles);

// The geometry part of a PixelView: the arrays from `arrays` (the host
// vectors of AnalyticGeometry, or their device copies, which have members
// of the same names), the scalars from the geometry. One place for both
// the host view (CPU tests) and the device view (analytic_cuda.cu).
template <class Arrays>
void set_geometry_view(analytic::PixelView& v, const AnalyticGeometry& g, const Arrays& arrays) {
  v.pixels = g.pixels();
  v.qx = arrays.qx.data();
  v.qy = arrays.qy.data();
  v.qz = arrays.qz.data();
  v.scale = arrays.scale.data();
  v.reachable = arrays.reachable.data();
  v.field_row = arrays.field_row.data();
  v.outgoing = arrays.outgoing.data();
  v.incident = arrays.incident.data();
  v.layers = g.layers;
  v.dwba = g.dwba;
  v.amplitude_prefactor = g.amplitude_prefactor;
  v.background = g.background;
  v.tables = {arrays.chebyshev.data(), arrays.gauss.data()};
}

}  // namespace nanoscatter::gisaxs
