#include "gisaxs/sample_frame.hpp"

#include <optional>

namespace nanoscatter::gisaxs {

namespace {

bool same(const SampledDistribution& a, const SampledDistribution& b) {
  return a.kind == b.kind && a.width == b.width && a.samples == b.samples && a.sigma_factor == b.sigma_factor &&
         a.min == b.min && a.max == b.max;
}

bool same(const std::optional<SampledDistribution>& a, const std::optional<SampledDistribution>& b) {
  return a.has_value() == b.has_value() && (!a || same(*a, *b));
}

bool same_detector(const Detector& a, const Detector& b) {
  if (a.index() != b.index()) return false;
  if (const auto* x = std::get_if<AngularDetector>(&a)) {
    const auto& y = std::get<AngularDetector>(b);
    return x->phi_edges == y.phi_edges && x->alpha_edges == y.alpha_edges;
  }
  if (const auto* x = std::get_if<QGridDetector>(&a)) {
    const auto& y = std::get<QGridDetector>(b);
    return x->qy_edges == y.qy_edges && x->qz_edges == y.qz_edges;
  }
  const auto &x = std::get<FlatDetector>(a), &y = std::get<FlatDetector>(b);
  return x.distance == y.distance && x.pixel_width == y.pixel_width && x.pixel_height == y.pixel_height &&
         x.columns == y.columns && x.rows == y.rows && x.beam_x == y.beam_x && x.beam_y == y.beam_y &&
         x.region_x0 == y.region_x0 && x.region_y0 == y.region_y0 && x.region_columns == y.region_columns &&
         x.region_rows == y.region_rows;
}

}  // namespace

std::string frame_difference(const Sample& a, const Sample& b) {
  const Beam &p = a.beam, &q = b.beam;
  if (p.wavelength != q.wavelength) return "beam.wavelength";
  if (p.alpha_i != q.alpha_i) return "beam.alpha_i";
  if (p.phi_i != q.phi_i) return "beam.phi_i";
  if (p.intensity != q.intensity) return "beam.intensity";
  if (!same(p.alpha_i_divergence, q.alpha_i_divergence)) return "beam.alpha_i_divergence";
  if (!same(p.phi_i_divergence, q.phi_i_divergence)) return "beam.phi_i_divergence";
  if (!same(p.wavelength_spread, q.wavelength_spread)) return "beam.wavelength_spread";
  if (!same_detector(a.detector, b.detector)) return "detector";
  if (a.resolution.has_value() != b.resolution.has_value() ||
      (a.resolution && (a.resolution->sigma_x != b.resolution->sigma_x || a.resolution->sigma_y != b.resolution->sigma_y)))
    return "resolution";
  if (a.background != b.background) return "background";
  if (a.layers.size() != b.layers.size()) return "layer";
  for (std::size_t l = 0; l < a.layers.size(); ++l) {
    const Layer &x = a.layers[l], &y = b.layers[l];
    const std::string at = "layer[" + std::to_string(l) + "]";
    if (x.material.delta != y.material.delta || x.material.beta != y.material.beta) return at + ".material";
    if (x.thickness != y.thickness) return at + ".thickness";
    if (x.roughness != y.roughness) return at + ".roughness";
  }
  return "";
}

}  // namespace nanoscatter::gisaxs
