// Randomly drawn Debye cases for the property tests (CPU: tests/physics,
// GPU: tests/gpu): a lattice, a shape, a size, a kind of disorder, 1–3
// species, a radiation and a Q grid, drawn from one seed (property_seed.hpp
// prints it on failure). The ranges are issue 20's; the CPU tests in CI
// draw smaller particles and grids so that 20 cases fit CI's two cores.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/debye.hpp"

namespace nanoscatter::test {

struct DebyeCaseLimits {
  int atoms_min = 500, atoms_max = 30000;
  int qpoints_min = 50, qpoints_max = 5000;
  // Uniform Q grids that start in the particle's low-angle fringes: qmin·D
  // in [2, 150] (D the largest pair distance) and qmax up to 4 Å⁻¹ beyond
  // it, where the 1e-3·max I floor takes in deep fringe minima. The second
  // and third species drawn are Ti and Cu.
  bool fringes = false;
};

struct DebyeCase {
  Structure structure;
  std::vector<double> q;
  Radiation radiation = Radiation::xray;
  std::string description;
};

namespace detail {

struct LatticeDraw {
  LatticeType type;
  const char* name;
  std::vector<std::string> elements;
  double atoms_per_volume_a3;  // atoms per a³ (a the lattice constant)
};

inline std::vector<LatticeDraw> lattice_draws() {
  const double wurtzite_cell = std::sqrt(3.0) / 2.0 * std::sqrt(8.0 / 3.0);  // (√3/2)·a²·c / a³, c = a√(8/3)
  return {{LatticeType::fcc, "fcc", {"Au"}, 4.0},
          {LatticeType::bcc, "bcc", {"Fe"}, 2.0},
          {LatticeType::rocksalt, "rocksalt", {"Co", "O"}, 8.0},
          {LatticeType::zincblende, "zincblende", {"Zn", "S"}, 8.0},
          {LatticeType::wurtzite, "wurtzite", {"Zn", "O"}, 4.0 / wurtzite_cell}};
}

}  // namespace detail

// One case from `seed`.
inline DebyeCase draw_debye_case(std::uint64_t seed, const DebyeCaseLimits& limits) {
  std::mt19937_64 rng(seed);
  const auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  const auto pick = [&](int n) { return int(std::uniform_int_distribution<int>(0, n - 1)(rng)); };
  std::ostringstream what;

  const auto lattices = detail::lattice_draws();
  const auto& lat = lattices[pick(int(lattices.size()))];
  LatticeOptions lo;
  lo.type = lat.type;
  lo.a = uniform(3.5, 5.5);
  lo.elements = lat.elements;
  // Target atom count, log-uniform, and the shape's size from the density.
  const double target = std::exp(uniform(std::log(double(limits.atoms_min)), std::log(double(limits.atoms_max))));
  const double volume = target / lat.atoms_per_volume_a3 * lo.a * lo.a * lo.a;
  const int shape = pick(3);
  Shape cut;
  if (shape == 0) {
    cut = Sphere{std::cbrt(3.0 * volume / (4.0 * std::numbers::pi))};
    what << "sphere";
  } else if (shape == 1) {
    cut = Cube{std::cbrt(volume)};
    what << "cube";
  } else {
    cut = Octahedron{std::cbrt(0.75 * volume)};
    what << "octahedron";
  }
  Structure s = cut_crystal(make_lattice(lo), cut);
  what << " " << lat.name << " a=" << lo.a;

  const int disorder = pick(3);
  if (disorder == 1) {
    const double sigma = uniform(0.0, 0.1);
    s = displace_atoms(s, DisplacementOptions{sigma, seed ^ 0x5DEECE66Dull});
    what << " displaced rms=" << sigma;
  } else if (disorder == 2) {
    s = add_vacancies(s, VacancyOptions{0.05, seed ^ 0xB5297A4Dull, {}});
    what << " 5% vacancies";
  } else {
    what << " perfect";
  }
  // 1–3 species: one-species lattices stay one or gain a second and third
  // species by relabelling random atoms; two-species lattices may gain a third.
  const int species = 1 + pick(3);
  const int have = int(lat.elements.size());
  // The fringe family relabels to Ti, whose negative neutron length makes
  // the partials cancel (TiO2, Mn and H compounds do in practice).
  const std::vector<std::string> extra = limits.fringes ? std::vector<std::string>{"Ti", "Cu"}
                                                        : std::vector<std::string>{"Ag", "Cu"};
  for (int add = have; add < species; ++add) {
    const double fraction = uniform(0.05, 0.4);
    for (auto& atom : s.atoms)
      if (uniform(0.0, 1.0) < fraction) atom.element = extra[add - 1];
  }
  what << " species=" << std::max(species, have) << " atoms=" << s.atoms.size();

  DebyeCase c;
  c.radiation = pick(2) == 0 ? Radiation::xray : Radiation::neutron;
  what << (c.radiation == Radiation::xray ? " xray" : " neutron");
  const int nq = int(std::exp(uniform(std::log(double(limits.qpoints_min)), std::log(double(limits.qpoints_max)))));
  if (limits.fringes) {
    Vec3 lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
    for (const auto& atom : s.atoms) {
      lo = Vec3{std::min(lo.x, atom.position.x), std::min(lo.y, atom.position.y), std::min(lo.z, atom.position.z)};
      hi = Vec3{std::max(hi.x, atom.position.x), std::max(hi.y, atom.position.y), std::max(hi.z, atom.position.z)};
    }
    const double d = std::sqrt((hi.x - lo.x) * (hi.x - lo.x) + (hi.y - lo.y) * (hi.y - lo.y) + (hi.z - lo.z) * (hi.z - lo.z));
    const double qmin = std::exp(uniform(std::log(2.0), std::log(150.0))) / d, qmax = qmin + uniform(0.2, 4.0);
    c.q = uniform_q_grid(qmin, qmax, nq);
    what << " Q " << qmin << "-" << qmax << " x " << nq << " (qmin*D " << qmin * d << ")";
  } else if (pick(4) != 0) {
    const double qmin = uniform(0.0, 2.0), qmax = uniform(4.0, 25.0);
    c.q = uniform_q_grid(qmin, qmax, nq);
    what << " Q " << qmin << "-" << qmax << " x " << nq;
  } else {
    const double lambda = uniform(0.2, 1.6);
    const double tt_max = std::min(170.0, 2.0 * std::asin(std::min(1.0, uniform(4.0, 25.0) * lambda / (4.0 * std::numbers::pi))) * 180.0 / std::numbers::pi);
    const double tt_min = uniform(0.0, 0.3 * tt_max);
    c.q = two_theta_q_grid(tt_min, tt_max, nq, lambda);
    what << " 2theta " << tt_min << "-" << tt_max << " deg x " << nq << " lambda=" << lambda;
  }
  c.structure = std::move(s);
  c.description = what.str();
  return c;
}

// I(Q) of a drawn case by one method, precision and device.
inline std::vector<double> debye_intensity(const DebyeCase& c, DebyeMethod method, Precision precision, Device device,
                                           HistogramMode histogram_mode = HistogramMode::precise) {
  DebyeOptions o;
  o.histogram_mode = histogram_mode;
  o.radiation = c.radiation;
  o.method = method;
  o.compute.precision = precision;
  o.compute.device = device;
  return DebyePlan(c.structure, o).execute(c.q).intensity;
}

// max |a − b|/|b| where b > floor·max b (the metric).
inline double max_rel_where_above(const std::vector<double>& a, const std::vector<double>& b, double floor) {
  double mx = 0;
  for (double v : b) mx = std::max(mx, v);
  double worst = 0;
  for (std::size_t k = 0; k < b.size(); ++k)
    if (b[k] > floor * mx) worst = std::max(worst, std::abs(a[k] - b[k]) / b[k]);
  return worst;
}

}  // namespace nanoscatter::test
