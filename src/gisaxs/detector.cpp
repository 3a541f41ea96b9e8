// Pixel geometry of the three detector kinds: the outgoing direction (α_f,
// φ_f) at each pixel centre, its solid angle ΔΩ, and q = k_i − k_f.
#include <cmath>

#include "nanoscatter/constants.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"

namespace nanoscatter::gisaxs {

namespace {

std::vector<double> centres(const std::vector<double>& edges, double scale = 1.0) {
  std::vector<double> c;
  for (std::size_t i = 0; i + 1 < edges.size(); ++i) c.push_back(0.5 * (edges[i] + edges[i + 1]) * scale);
  return c;
}
std::vector<double> scaled(const std::vector<double>& v, double scale) {
  std::vector<double> out;
  for (double x : v) out.push_back(x * scale);
  return out;
}

void resize(PixelGrid& g, std::size_t rows, std::size_t cols) {
  g.rows = rows;
  g.cols = cols;
  const std::size_t n = rows * cols;
  g.alpha_f.assign(n, 0);
  g.phi_f.assign(n, 0);
  g.solid_angle.assign(n, 0);
  g.qx.assign(n, 0);
  g.qy.assign(n, 0);
  g.qz.assign(n, 0);
  g.reachable.assign(n, 1);
}

// q = k_i − k_f for the outgoing direction (α_f, φ_f).
void set_direction(PixelGrid& g, std::size_t p, const Beam& beam, double alpha_f, double phi_f) {
  const double k = 2 * kPi / beam.wavelength;
  g.alpha_f[p] = alpha_f;
  g.phi_f[p] = phi_f;
  g.qx[p] = k * (std::cos(beam.alpha_i) * std::cos(beam.phi_i) - std::cos(alpha_f) * std::cos(phi_f));
  g.qy[p] = k * (-std::cos(beam.alpha_i) * std::sin(beam.phi_i) + std::cos(alpha_f) * std::sin(phi_f));
  g.qz[p] = k * (-std::sin(beam.alpha_i) - std::sin(alpha_f));
}

PixelGrid angular(const AngularDetector& d, const Beam& beam) {
  PixelGrid g;
  resize(g, d.alpha_edges.size() - 1, d.phi_edges.size() - 1);
  for (std::size_t r = 0; r < g.rows; ++r) {
    const double a0 = d.alpha_edges[r], a1 = d.alpha_edges[r + 1];
    for (std::size_t c = 0; c < g.cols; ++c) {
      const double f0 = d.phi_edges[c], f1 = d.phi_edges[c + 1];
      const std::size_t p = r * g.cols + c;
      set_direction(g, p, beam, 0.5 * (a0 + a1), 0.5 * (f0 + f1));
      // ∫ cos α dα dφ over the bin (BornAgain's SphericalPixel).
      g.solid_angle[p] = std::abs((f1 - f0) * (std::sin(a1) - std::sin(a0)));
    }
  }
  g.horizontal_name = "phi_f";
  g.vertical_name = "alpha_f";
  g.horizontal_unit = g.vertical_unit = "deg";
  g.horizontal = centres(d.phi_edges, 1 / kDegree);
  g.vertical = centres(d.alpha_edges, 1 / kDegree);
  g.horizontal_edges = scaled(d.phi_edges, 1 / kDegree);
  g.vertical_edges = scaled(d.alpha_edges, 1 / kDegree);
  return g;
}

PixelGrid qgrid(const QGridDetector& d, const Beam& beam) {
  PixelGrid g;
  resize(g, d.qz_edges.size() - 1, d.qy_edges.size() - 1);
  const double k = 2 * kPi / beam.wavelength;
  for (std::size_t r = 0; r < g.rows; ++r) {
    const double qz0 = d.qz_edges[r], qz1 = d.qz_edges[r + 1];
    const double qz = 0.5 * (qz0 + qz1);
    for (std::size_t c = 0; c < g.cols; ++c) {
      const double qy0 = d.qy_edges[c], qy1 = d.qy_edges[c + 1];
      const double qy = 0.5 * (qy0 + qy1);
      const std::size_t p = r * g.cols + c;
      // q_z = k (sin α_f + sin α_i), q_y = k (cos α_f sin φ_f − cos α_i sin φ_i).
      const double sin_a = qz / k - std::sin(beam.alpha_i);
      const double cos_a = std::sqrt(std::max(0.0, 1 - sin_a * sin_a));
      const double sin_f = cos_a > 0 ? (qy / k + std::cos(beam.alpha_i) * std::sin(beam.phi_i)) / cos_a : 2.0;
      if (std::abs(sin_a) >= 1 || std::abs(sin_f) >= 1) {
        g.reachable[p] = 0;
        continue;
      }
      const double alpha_f = std::asin(sin_a), phi_f = std::asin(sin_f);
      set_direction(g, p, beam, alpha_f, phi_f);
      // dq_y dq_z = k² cos²α_f cos φ_f dφ dα and dΩ = cos α_f dφ dα.
      g.solid_angle[p] = std::abs((qy1 - qy0) * (qz1 - qz0)) / (k * k * cos_a * std::cos(phi_f));
    }
  }
  g.horizontal_name = "q_y";
  g.vertical_name = "q_z";
  g.horizontal_unit = g.vertical_unit = "1/nm";
  g.horizontal = centres(d.qy_edges);
  g.vertical = centres(d.qz_edges);
  g.horizontal_edges = d.qy_edges;
  g.vertical_edges = d.qz_edges;
  return g;
}

PixelGrid flat(const FlatDetector& d, const Beam& beam) {
  PixelGrid g;
  // The image: the region's pixels, or the whole detector.
  const bool region = d.region_columns > 0;
  const std::size_t x0 = region ? d.region_x0 : 0, y0 = region ? d.region_y0 : 0;
  const std::size_t cols = region ? d.region_columns : d.columns, rows = region ? d.region_rows : d.rows;
  resize(g, rows, cols);
  // Unit vectors: along the direct beam, horizontal (towards +φ_f) and up.
  const Vec3 beam_dir{std::cos(beam.alpha_i) * std::cos(beam.phi_i), -std::cos(beam.alpha_i) * std::sin(beam.phi_i),
                      -std::sin(beam.alpha_i)};
  Vec3 u = cross(beam_dir, Vec3{0, 0, 1});
  u = u / norm(u);
  const Vec3 v = cross(u, beam_dir);
  for (std::size_t r = 0; r < rows; ++r) {
    const double y = (double(y0 + r) + 0.5 - d.beam_y) * d.pixel_height;
    for (std::size_t c = 0; c < cols; ++c) {
      const double x = (double(x0 + c) + 0.5 - d.beam_x) * d.pixel_width;
      const Vec3 pos = d.distance * beam_dir + x * u + y * v;
      const double dist = norm(pos);
      const std::size_t p = r * cols + c;
      set_direction(g, p, beam, std::asin(pos.z / dist), std::atan2(-pos.y, pos.x));
      // Pixel area projected on the sphere: A cos θ / r² with cos θ = L / r.
      g.solid_angle[p] = d.pixel_width * d.pixel_height * d.distance / (dist * dist * dist);
    }
  }
  g.horizontal_name = "x";
  g.vertical_name = "y";
  g.horizontal_unit = g.vertical_unit = "mm";
  for (std::size_t c = 0; c <= cols; ++c) g.horizontal_edges.push_back((double(x0 + c) - d.beam_x) * d.pixel_width);
  for (std::size_t r = 0; r <= rows; ++r) g.vertical_edges.push_back((double(y0 + r) - d.beam_y) * d.pixel_height);
  g.horizontal = centres(g.horizontal_edges);
  g.vertical = centres(g.vertical_edges);
  return g;
}

}  // namespace

PixelGrid make_pixel_grid(const Detector& detector, const Beam& beam) {
  if (!(beam.wavelength > 0)) fail_at({"", 0, "beam.wavelength"}, "must be positive");
  if (const auto* a = std::get_if<AngularDetector>(&detector)) {
    if (a->phi_edges.size() < 2 || a->alpha_edges.size() < 2)
      fail_at({"", 0, "detector"}, "empty detector: each axis needs at least one bin");
    return angular(*a, beam);
  }
  if (const auto* q = std::get_if<QGridDetector>(&detector)) {
    if (q->qy_edges.size() < 2 || q->qz_edges.size() < 2)
      fail_at({"", 0, "detector"}, "empty detector: each axis needs at least one bin");
    return qgrid(*q, beam);
  }
  const auto& f = std::get<FlatDetector>(detector);
  if (f.rows == 0 || f.columns == 0) fail_at({"", 0, "detector"}, "empty detector: no pixels");
  return flat(f, beam);
}

}  // namespace nanoscatter::gisaxs
