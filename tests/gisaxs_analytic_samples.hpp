// Drawn GISAXS samples for the analytic GPU path's property tests (the CPU
// emulation in tests/unit/test_gisaxs_analytic_pixels.cpp and the CUDA run
// in tests/gpu/test_gisaxs_analytic_gpu.cpp): every shape of
// analytic::Shape with a Gaussian or log-normal size distribution (1–20
// samples), one or two particle kinds per layout and one or two layouts,
// decoupling, local monodisperse or SSCA, no interference, a radial
// paracrystal (finite or infinite domain) or a 2D lattice, particles in the
// ambient, a film or the substrate, 0–2 rough films, DWBA or Born, and an
// angular (partly below the horizon), q-grid (some pixels unreachable) or
// flat detector of up to 40 × 40 pixels. A draw that validate_sample rejects
// is drawn again.
#pragma once
#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "property_seed.hpp"

namespace nanoscatter::test {

struct DrawnGisaxs {
  gisaxs::Sample sample;
  gisaxs::Approximation approximation = gisaxs::Approximation::dwba;
  std::string what;  // a one-line description for failure messages
};

namespace drawn_gisaxs {

inline double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
inline int pick(std::mt19937_64& rng, int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
inline double degrees(double d) { return d * std::numbers::pi / 180; }

inline std::vector<double> edges(double lo, double hi, int bins) {
  std::vector<double> e(bins + 1);
  for (int i = 0; i <= bins; ++i) e[i] = lo + (hi - lo) * i / bins;
  return e;
}

inline gisaxs::ParticleSpec particle(std::mt19937_64& rng, std::string& what) {
  static const char* kShapes[] = {"sphere", "spheroid", "cylinder", "box", "truncated_sphere", "cone"};
  gisaxs::ParticleSpec p;
  p.shape = kShapes[pick(rng, 6)];
  const double r = uniform(rng, 1, 12);
  if (p.shape == "sphere") p.parameters = {r};
  if (p.shape == "spheroid") p.parameters = {r, uniform(rng, 0.5, 3) * r};
  if (p.shape == "cylinder") p.parameters = {r, uniform(rng, 0.3, 3) * r};
  if (p.shape == "box") p.parameters = {2 * r, uniform(rng, 0.5, 2) * 2 * r, uniform(rng, 0.3, 2) * r};
  if (p.shape == "truncated_sphere") p.parameters = {r, uniform(rng, 0.3, 1.5) * r, 0.0};
  if (p.shape == "cone") {
    const double alpha = degrees(uniform(rng, 40, 90));
    p.parameters = {r, uniform(rng, 0.2, 0.9) * r * std::tan(std::min(alpha, degrees(80))), alpha};
  }
  if (p.shape == "truncated_sphere" && pick(rng, 2)) p.parameters[2] = uniform(rng, 0, 0.5) * p.parameters[1];
  p.material = {"particle", uniform(rng, 1e-6, 5e-5), uniform(rng, 0, 3e-6)};
  p.abundance = uniform(rng, 0.2, 1);
  if (pick(rng, 4) != 0) {  // a size distribution on the radius (or length)
    gisaxs::SizeDistribution d;
    d.parameter = 0;
    d.kind = pick(rng, 2) ? gisaxs::DistributionKind::lognormal : gisaxs::DistributionKind::gaussian;
    // Narrow enough that truncated spheres and cones stay valid (R ≥ 0.8 R₀).
    d.width = d.kind == gisaxs::DistributionKind::lognormal ? uniform(rng, 0.02, 0.1) : uniform(rng, 0.02, 0.1) * r;
    d.samples = 1 + pick(rng, 20);
    p.distributions.push_back(d);
  }
  what += p.shape + "(" + std::to_string(p.parameters[0]) + ")" +
          (p.distributions.empty() ? "" : "×" + std::to_string(p.distributions[0].samples));
  return p;
}

inline gisaxs::RadialParacrystal radial(std::mt19937_64& rng) {
  gisaxs::RadialParacrystal pc;
  pc.peak_distance = uniform(rng, 15, 40);
  pc.damping_length = pick(rng, 2) ? 0.0 : uniform(rng, 100, 1e6);
  pc.domain_size = pick(rng, 2) ? 0.0 : uniform(rng, 200, 20000);
  pc.pdf.kind = static_cast<gisaxs::ProfileKind>(pick(rng, 3));
  pc.pdf.omega = uniform(rng, 1, 10);
  pc.pdf.eta = uniform(rng, 0, 1);
  return pc;
}

inline DrawnGisaxs draw_once(std::mt19937_64& rng) {
  using namespace gisaxs;
  DrawnGisaxs d;
  Sample& s = d.sample;
  s.beam.wavelength = uniform(rng, 0.05, 0.2);
  s.beam.alpha_i = degrees(uniform(rng, 0.1, 0.6));
  s.beam.intensity = uniform(rng, 0.5, 2);
  s.background = pick(rng, 2) ? 0.0 : uniform(rng, 0, 1e-3);
  // Layers: ambient, 0–2 films, substrate.
  s.layers.push_back({"ambient", {}, 0, 0});
  const int films = pick(rng, 3);
  for (int f = 0; f < films; ++f)
    s.layers.push_back({"film" + std::to_string(f), {"film", uniform(rng, 1e-6, 2e-5), uniform(rng, 0, 1e-6)},
                        uniform(rng, 30, 60), pick(rng, 2) ? 0.0 : uniform(rng, 0.2, 2)});
  s.layers.push_back({"substrate", {"substrate", uniform(rng, 3e-6, 8e-6), uniform(rng, 0, 2e-7)}, 0,
                      pick(rng, 2) ? 0.0 : uniform(rng, 0.2, 1)});
  d.what = std::to_string(s.layers.size()) + " layers";
  // Detector.
  const int cols = 4 + pick(rng, 37), rows = 4 + pick(rng, 37);
  switch (pick(rng, 3)) {
    case 0: {
      AngularDetector a;
      a.phi_edges = edges(degrees(-uniform(rng, 0.5, 3)), degrees(uniform(rng, 0.5, 3)), cols);
      a.alpha_edges = edges(degrees(pick(rng, 3) ? 0.0 : -uniform(rng, 0.05, 0.3)), degrees(uniform(rng, 0.8, 3)), rows);
      s.detector = a;
      d.what += ", angular";
      break;
    }
    case 1: {
      QGridDetector q;
      q.qy_edges = edges(-uniform(rng, 0.3, 2), uniform(rng, 0.3, 2), cols);
      q.qz_edges = edges(pick(rng, 2) ? 0.0 : uniform(rng, 0, 0.2), uniform(rng, 0.5, 3), rows);
      s.detector = q;
      d.what += ", q grid";
      break;
    }
    default: {
      FlatDetector f;
      f.distance = uniform(rng, 1000, 3000);
      f.pixel_width = f.pixel_height = uniform(rng, 0.1, 0.3);
      f.columns = std::size_t(cols) * 4;
      f.rows = std::size_t(rows) * 4;
      f.beam_x = uniform(rng, 0.3, 0.7) * double(f.columns);
      f.beam_y = uniform(rng, 0.05, 0.3) * double(f.rows);
      f.region_x0 = std::size_t(pick(rng, int(f.columns - cols)));
      f.region_y0 = std::size_t(pick(rng, int(f.rows - rows)));
      f.region_columns = std::size_t(cols);
      f.region_rows = std::size_t(rows);
      s.detector = f;
      d.what += ", flat";
      break;
    }
  }
  d.what += " " + std::to_string(cols) + "×" + std::to_string(rows);
  d.approximation = pick(rng, 5) ? Approximation::dwba : Approximation::born;
  d.what += d.approximation == Approximation::dwba ? ", dwba" : ", born";
  // Layouts.
  const int layouts = 1 + pick(rng, 2);
  for (int l = 0; l < layouts; ++l) {
    Layout layout;
    layout.density = uniform(rng, 1e-4, 1e-2);
    layout.mixture = static_cast<MixtureApproximation>(pick(rng, 3));
    if (layout.mixture == MixtureApproximation::ssca) {
      RadialParacrystal pc = radial(rng);
      pc.size_spacing_coupling = uniform(rng, 0, 20);
      layout.interference = pc;
      d.what += ", ssca";
    } else {
      switch (pick(rng, 3)) {
        case 0: d.what += ", no interference"; break;
        case 1: layout.interference = radial(rng); d.what += ", radial paracrystal"; break;
        default: {
          Lattice2D lattice;
          lattice.lattice.length_1 = lattice.lattice.length_2 = uniform(rng, 15, 40);
          lattice.lattice.angle = degrees(pick(rng, 2) ? 90 : 120);
          lattice.decay.length_x = lattice.decay.length_y = uniform(rng, 100, 1000);
          layout.interference = lattice;
          d.what += ", 2D lattice";
        }
      }
      d.what += layout.mixture == MixtureApproximation::decoupling ? " (decoupling)" : " (local monodisperse)";
    }
    if (pick(rng, 3) == 0) layout.position_variance = uniform(rng, 0, 4);
    const int particles = 1 + pick(rng, 2);
    const std::size_t layer = pick(rng, 3) == 0 ? s.layers.size() - 1 - std::size_t(pick(rng, films + 1)) : 0;
    for (int p = 0; p < particles; ++p) {
      d.what += ", ";
      ParticleSpec spec = particle(rng, d.what);
      spec.layer = layer;
      // In the ambient: on the first interface or lifted; below: inside the
      // layer, deep enough for the tallest sampled shape (validate checks).
      spec.depth = layer == 0 ? (pick(rng, 2) ? 0.0 : -uniform(rng, 0, 5)) : uniform(rng, 28, 30);
      layout.particles.push_back(spec);
    }
    s.layouts.push_back(layout);
  }
  return d;
}

}  // namespace drawn_gisaxs

// A valid drawn sample (validate_sample passed).
inline DrawnGisaxs draw_gisaxs(std::mt19937_64& rng) {
  for (int attempt = 0;; ++attempt) {
    DrawnGisaxs d = drawn_gisaxs::draw_once(rng);
    try {
      gisaxs::validate_sample(d.sample);
      d.sample.validated = true;
      return d;
    } catch (const Error&) {
      if (attempt > 200) throw;
    }
  }
}

// body(k, seed, rng, drawn) for `cases` drawn samples, each case's seed
// printed on failure (NS_PROPERTY_CASE) and its description traced; `rng`
// goes on from the draw, for what the body draws besides.
template <class Body>
void for_each_drawn_gisaxs(int cases, Body body) {
  for (int k = 0; k < cases; ++k) {
    const std::uint64_t seed = case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    const DrawnGisaxs d = draw_gisaxs(rng);
    SCOPED_TRACE(d.what);
    body(k, seed, rng, d);
  }
}

}  // namespace nanoscatter::test
