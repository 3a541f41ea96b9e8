// Random pattern2d cases for the property tests (CPU: tests/physics/
// test_pattern2d_property.cpp; CUDA: tests/gpu/test_pattern2d_property_gpu.cpp),
// and the independent float64 intensity they are checked against.
//
// A case is drawn from a seed (tests/property_seed.hpp): a crystal of any
// named lattice (sc, bcc, fcc, hcp, diamond, rocksalt, zincblende, wurtzite,
// perovskite) cut to a sphere, cube, octahedron or cylinder of a drawn atom
// count, or random atoms in a ball; perfect, displaced (σ ≤ 0.1 Å), with 5 %
// vacancies, or with partial occupancy and Debye–Waller B; placed at the
// origin or up to 500 Å away; X-ray (with or without anomalous terms),
// neutron or electron; λ log-uniform (0.02–0.05 Å for electrons, 0.3–2.5 Å
// otherwise); a zone axis [uvw] along the beam (crystals, half the cases:
// the orientation with the most Bragg spots on the detector, where
// deterministic float32 rounding errors of identical phase differences
// could add up coherently) or a uniformly random orientation; a polar or a
// flat detector over a drawn |q| range up to min(2k, 25 Å⁻¹), with or
// without Ewald curvature, along +z or a random beam direction.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/pattern2d.hpp"
#include "nanoscatter/scattering_factors.hpp"
#include "pattern2d/phase_sums.hpp"

#include "property_seed.hpp"

namespace nanoscatter::pattern2d_test {

using nanoscatter::test::random_rotation;

struct DrawLimits {
  double min_atoms = 200, max_atoms = 20000;  // target atom count, drawn log-uniformly
  double min_pixels = 400, max_pixels = 40000;
  double max_work = 1e7;                      // atoms × pixels at most (the reference's cost)
};

struct DrawnCase {
  Structure structure;
  Pattern2DGeometry geometry;
  Pattern2DOptions options;  // radiation and factors; device and precision set by the test
  std::string what;          // one line describing the draw
};

namespace detail {

inline double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
inline double log_uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::exp(uniform(rng, std::log(lo), std::log(hi)));
}
inline int uniform_int(std::mt19937_64& rng, int lo, int hi) {  // [lo, hi]
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}
template <class T>
const T& pick(std::mt19937_64& rng, const std::vector<T>& v) {
  return v[std::size_t(uniform_int(rng, 0, int(v.size()) - 1))];
}

// Uniformly random proper rotation (unit quaternion from four Gaussians).
inline Mat3 rotation_about_z(double angle) {
  Mat3 r;
  const double c = std::cos(angle), s = std::sin(angle);
  r.row[0] = {c, -s, 0};
  r.row[1] = {s, c, 0};
  r.row[2] = {0, 0, 1};
  return r;
}

struct LatticeDraw {
  LatticeType type;
  std::vector<std::vector<std::string>> elements;  // choices of species lists
  double a_lo, a_hi;
};

inline const std::vector<LatticeDraw>& lattices() {
  static const std::vector<LatticeDraw> l = {
      {LatticeType::sc, {{"Cu"}, {"Fe"}}, 2.5, 4.0},
      {LatticeType::bcc, {{"Fe"}, {"W"}, {"Na"}}, 2.8, 4.3},
      {LatticeType::fcc, {{"Au"}, {"Cu"}, {"Ag"}, {"Pt"}, {"Al"}, {"Ni"}}, 3.5, 4.2},
      {LatticeType::hcp, {{"Mg"}, {"Co"}, {"Ti"}}, 2.5, 3.3},
      {LatticeType::diamond, {{"Si"}, {"C"}, {"Ge"}}, 3.5, 5.7},
      {LatticeType::rocksalt, {{"Na", "Cl"}, {"Co", "O"}, {"Mg", "O"}, {"Pb", "S"}}, 4.0, 6.0},
      {LatticeType::zincblende, {{"Zn", "S"}, {"Ga", "As"}, {"Cd", "Se"}}, 5.4, 6.1},
      {LatticeType::wurtzite, {{"Zn", "O"}, {"Ga", "N"}, {"Cd", "S"}}, 3.1, 4.2},
      {LatticeType::perovskite, {{"Sr", "Ti", "O"}, {"Ba", "Ti", "O"}, {"Ca", "Ti", "O"}}, 3.8, 4.1},
  };
  return l;
}

}  // namespace detail

inline DrawnCase draw_case(std::mt19937_64& rng, const DrawLimits& limits) {
  using namespace detail;
  DrawnCase c;
  std::ostringstream what;
  const double target_atoms = log_uniform(rng, limits.min_atoms, limits.max_atoms);
  const bool random_atoms = uniform(rng, 0, 1) < 0.12;
  Vec3 zone_axis{0, 0, 1};  // Cartesian, sample frame
  bool zone = false;
  if (random_atoms) {
    // Amorphous: random positions in a ball at ~0.06 atoms/Å³, 1–3 species.
    std::vector<std::string> pool = {"Si", "O", "Fe", "Au", "C", "N"};
    std::shuffle(pool.begin(), pool.end(), rng);
    const int species = uniform_int(rng, 1, 3);
    const double radius = std::cbrt(3 * target_atoms / (4 * std::numbers::pi * 0.06));
    std::normal_distribution<double> n(0, 1);
    for (std::size_t i = 0; i < std::size_t(target_atoms); ++i) {
      Vec3 r;
      do r = Vec3{uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)};
      while (dot(r, r) > 1);
      c.structure.atoms.push_back({pool[i % std::size_t(species)], 0, radius * r});
    }
    what << "random atoms (" << species << " species) in a ball R = " << radius << " Å";
  } else {
    const LatticeDraw& l = pick(rng, lattices());
    LatticeOptions lo;
    lo.type = l.type;
    lo.a = uniform(rng, l.a_lo, l.a_hi);
    lo.elements = pick(rng, l.elements);
    const UnitCellSpec cell = make_lattice(lo);
    const double density = double(cell.basis.size()) / cell.cell.volume();  // atoms/Å³
    const double volume = target_atoms / density;
    Shape shape;
    const int s = uniform_int(rng, 0, 3);
    if (s == 0) shape = Sphere{std::cbrt(3 * volume / (4 * std::numbers::pi))};
    else if (s == 1) shape = Cube{std::cbrt(volume)};
    else if (s == 2) shape = Octahedron{std::cbrt(3 * volume / 4)};
    else {
      const double aspect = uniform(rng, 0.5, 2);  // height / diameter
      const double r = std::cbrt(volume / (2 * std::numbers::pi * aspect));
      shape = Cylinder{r, 2 * r * aspect};
    }
    c.structure = cut_crystal(cell, shape);
    what << cell.name << " a = " << lo.a << " Å, " << describe_shape(shape);
    // Zone axes [uvw] in lattice coordinates.
    if (uniform(rng, 0, 1) < 0.5) {
      const std::vector<Vec3> axes = {{0, 0, 1}, {1, 1, 0}, {1, 1, 1}, {0, 1, 2}, {1, 1, 2}, {1, 0, 0}};
      const Vec3 uvw = pick(rng, axes);
      zone_axis = cell.cell.lattice_vectors() * uvw;
      zone = true;
      what << ", zone axis [" << uvw.x << uvw.y << uvw.z << "]";
    }
  }
  // Defects.
  const int defect = uniform_int(rng, 0, 3);
  if (defect == 1) {
    const double sigma = uniform(rng, 0.005, 0.1);
    c.structure = displace_atoms(c.structure, {sigma, rng()});
    what << ", displaced σ = " << sigma << " Å";
  } else if (defect == 2) {
    c.structure = add_vacancies(c.structure, {0.05, rng(), {}});
    what << ", 5% vacancies";
  } else if (defect == 3) {
    // Partial occupancy and B on the last species (occupational and thermal disorder).
    const std::string last = c.structure.atoms.back().element;
    const double w = uniform(rng, 0.3, 1), b = uniform(rng, 0, 2);
    for (auto& atom : c.structure.atoms)
      if (atom.element == last) atom.occupancy = w, atom.b_iso = b;
    what << ", " << last << " occupancy " << w << " B = " << b << " Å²";
  }
  if (uniform(rng, 0, 1) < 0.3) {
    const Vec3 shift{uniform(rng, -500, 500), uniform(rng, -500, 500), uniform(rng, -500, 500)};
    for (auto& atom : c.structure.atoms) atom.position += shift;
    what << ", shifted by (" << shift.x << ", " << shift.y << ", " << shift.z << ") Å";
  }
  what << "; " << c.structure.atoms.size() << " atoms";

  // Radiation and wavelength.
  const int radiation = uniform_int(rng, 0, 3);
  Pattern2DGeometry& g = c.geometry;
  if (radiation == 3) {
    c.options.radiation = Radiation::electron;
    g.wavelength = log_uniform(rng, 0.02, 0.05);
    what << "; electrons";
  } else {
    c.options.radiation = radiation == 2 ? Radiation::neutron : Radiation::xray;
    g.wavelength = log_uniform(rng, 0.3, 2.5);
    what << (radiation == 2 ? "; neutrons" : "; X-rays");
    if (radiation == 1) {
      c.options.factors.energy_kev = photon_energy_kev(g.wavelength);
      what << " (anomalous)";
    }
  }
  what << " λ = " << g.wavelength << " Å";
  const double k = 2 * std::numbers::pi / g.wavelength;
  const double q_top = log_uniform(rng, 0.5, std::min(0.99 * 2 * k, 25.0));

  // Beam and orientation.
  if (uniform(rng, 0, 1) < 0.25) {
    std::normal_distribution<double> n(0, 1);
    g.beam_direction = Vec3{n(rng), n(rng), n(rng)};
    what << ", beam (" << g.beam_direction.x << ", " << g.beam_direction.y << ", " << g.beam_direction.z << ")";
  }
  const Mat3 to_lab = beam_frame(g.beam_direction);
  if (zone) {
    // The zone axis onto the beam, then a random turn about the beam.
    const Mat3 axis_to_z = transpose(beam_frame(zone_axis));
    g.orientation = to_lab * rotation_about_z(uniform(rng, 0, 2 * std::numbers::pi)) * axis_to_z;
  } else {
    g.orientation = random_rotation(rng);
  }
  g.curvature = uniform(rng, 0, 1) < 0.8;
  if (!g.curvature) what << ", no curvature";

  // Detector: pixel count bounded by the work limit.
  const double atoms = double(c.structure.atoms.size());
  const double max_pixels = std::max(limits.min_pixels, std::min(limits.max_pixels, limits.max_work / atoms));
  const double pixels = log_uniform(rng, limits.min_pixels, std::max(limits.min_pixels * 1.01, max_pixels));
  if (uniform(rng, 0, 1) < 0.5) {
    const double aspect = log_uniform(rng, 0.25, 4);  // nphi / nq
    const int nq = std::max(2, int(std::sqrt(pixels / aspect)));
    const int nphi = std::max(4, int(pixels / nq));
    g.detector = PolarDetector{q_top, nq, nphi};
    what << "; polar " << nq << " × " << nphi << ", |q| ≤ " << q_top << " Å⁻¹";
  } else {
    const double aspect = log_uniform(rng, 0.5, 2);
    const int nx = std::max(2, int(std::sqrt(pixels * aspect))), ny = std::max(2, int(pixels / nx));
    // The far corner of the detector (from a centre drawn anywhere on it, or
    // off it) reaches q_top: 2θ = 2 asin(q/2k) < 90°.
    const double distance = log_uniform(rng, 50, 2000);
    const std::array<double, 2> centre{uniform(rng, -0.2, 1.2) * (nx - 1), uniform(rng, -0.2, 1.2) * (ny - 1)};
    const double far_x = std::max(centre[0], nx - 1 - centre[0]), far_y = std::max(centre[1], ny - 1 - centre[1]);
    const double two_theta = std::min(2 * std::asin(q_top / (2 * k)), 80 * std::numbers::pi / 180);
    const double pixel = distance * std::tan(two_theta) / std::hypot(far_x, far_y);
    g.detector = FlatDetector{distance, pixel, nx, ny, centre};
    what << "; flat " << nx << " × " << ny << ", distance " << distance << ", pixel " << pixel << ", centre ("
         << centre[0] << ", " << centre[1] << ")";
  }
  c.what = what.str();
  return c;
}

// The intensity of `pixels` (indices into grid, all when empty) from the
// textbook float64 sums (phase_sums_reference: absolute positions, libm sin
// and cos) and the factors evaluated here per pixel through
// scattering_factor and debye_waller:
//   I = |Σ_s f_s T_s S_s|² + Σ_s |f_s|² (Σ w − T_s² Σ w²).
inline std::vector<double> reference_intensity(const DrawnCase& c, const DetectorGrid& grid,
                                               std::span<const std::size_t> pixels, double electron_gamma) {
  std::vector<std::size_t> all;
  if (pixels.empty()) {
    all.resize(grid.q.size());
    for (std::size_t p = 0; p < all.size(); ++p) all[p] = p;
    pixels = all;
  }
  const auto species = pattern2d::group_species(c.structure);
  const Mat3 to_sample = transpose(c.geometry.orientation);
  std::vector<Vec3> q(pixels.size());
  for (std::size_t i = 0; i < pixels.size(); ++i) q[i] = to_sample * grid.q[pixels[i]];
  const std::size_t ns = species.species.size(), np = q.size();
  std::vector<std::complex<double>> sums(ns * np);
  pattern2d::phase_sums_reference(species.atoms, q, sums);
  FactorOptions bare = c.options.factors;
  bare.debye_waller = false;
  const double scale = c.options.radiation == Radiation::electron ? electron_gamma : 1.0;
  std::vector<double> w1(ns, 0), w2(ns, 0);
  for (std::size_t s = 0; s < ns; ++s)
    for (double w : species.atoms[s].w) w1[s] += w, w2[s] += w * w;
  std::vector<double> out(np);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < np; ++i) {
    const double qm = grid.q_magnitude(pixels[i]);
    std::complex<double> a = 0;
    double self = 0;
    for (std::size_t s = 0; s < ns; ++s) {
      const auto f = scale * scattering_factor(c.options.radiation, species.species[s], qm, bare);
      const double t = c.options.factors.debye_waller ? debye_waller(species.species[s].b_iso, qm) : 1.0;
      a += f * t * sums[s * np + i];
      self += std::norm(f) * (w1[s] - t * t * w2[s]);
    }
    out[i] = std::norm(a) + self;
  }
  return out;
}

// Errors of a fast image against the reference on the reference's pixels:
// the largest relative error where I_ref > floor·max I_ref (max over
// `max_of`, the whole image's intensities, when given), and the norm-wise
// ‖I − I_ref‖₂/‖I_ref‖₂.
struct ImageErrors {
  double max_rel = 0;     // where I_ref > floor · max I
  double norm = 0;        // norm-wise over the compared pixels
  std::size_t worst = 0;  // pixel index of max_rel
  std::size_t counted = 0;
};
inline ImageErrors image_errors(const std::vector<double>& fast, const std::vector<double>& reference,
                                std::span<const std::size_t> pixels, double floor, double image_max = 0) {
  ImageErrors e;
  double ref_max = image_max;
  for (double r : reference) ref_max = std::max(ref_max, r);
  double num = 0, den = 0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    const std::size_t p = pixels.empty() ? i : pixels[i];
    const double d = fast[p] - reference[i];
    if (!std::isfinite(fast[p])) {
      e.max_rel = INFINITY;
      e.worst = p;
      continue;
    }
    num += d * d, den += reference[i] * reference[i];
    if (reference[i] <= floor * ref_max) continue;
    ++e.counted;
    const double r = std::abs(d) / reference[i];
    if (r > e.max_rel) e.max_rel = r, e.worst = p;
  }
  e.norm = den > 0 ? std::sqrt(num / den) : 0;
  return e;
}

}  // namespace nanoscatter::pattern2d_test
