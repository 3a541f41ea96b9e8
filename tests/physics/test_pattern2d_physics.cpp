// pattern2d against closed forms and independent references: a single atom,
// the Laue interference function of a simple-cubic crystal (Bragg peaks at
// the (h,k) positions with N² f²), rotation about the beam, Friedel's law,
// float32 vs an independent float64 evaluation, and the orientation average
// against the Debye engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/constants.hpp"
#include "nanoscatter/debye.hpp"
#include "nanoscatter/pattern2d.hpp"
#include "pattern2d/phase_sums.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

Pattern2DGeometry polar(double wavelength, double qmax, int nq, int nphi, bool curvature) {
  Pattern2DGeometry g;
  g.wavelength = wavelength;
  g.detector = PolarDetector{qmax, nq, nphi};
  g.curvature = curvature;
  return g;
}

Pattern2DOptions cpu(Precision precision, Radiation radiation = Radiation::xray) {
  Pattern2DOptions o;
  o.compute.precision = precision;
  o.radiation = radiation;
  o.compute.device = Device::cpu;
  return o;
}

Structure one_atom(const std::string& element, Vec3 position, double occupancy = 1, double b_iso = 0) {
  Structure s;
  s.atoms.push_back({element, 0, position, occupancy, b_iso});
  return s;
}

// n × n × n simple-cubic block of one element, lattice constant a, corner at `origin`.
Structure simple_cubic(const std::string& element, double a, int n, Vec3 origin) {
  Structure s;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < n; ++l) s.atoms.push_back({element, 0, origin + a * Vec3{double(i), double(j), double(l)}});
  return s;
}

Structure fcc_sphere(const std::string& element, double a, double radius) {
  LatticeOptions lattice;
  lattice.type = LatticeType::fcc;
  lattice.a = a;
  lattice.elements = {element};
  return cut_crystal(make_lattice(lattice), Sphere{radius});
}

Structure coo_sphere(double radius) {
  LatticeOptions lattice;
  lattice.type = LatticeType::rocksalt;
  lattice.a = 4.26;
  lattice.elements = {"Co", "O"};
  return cut_crystal(make_lattice(lattice), Sphere{radius});
}

// Laue interference function |Σ_{m<n} e^{i u m}|² = sin²(n u/2)/sin²(u/2).
double laue(double u, int n) {
  const double s = std::sin(0.5 * u);
  if (std::abs(s) < 1e-9) return double(n) * n;  // at a reciprocal-lattice point (relative error < 1e-17 n²)
  const double t = std::sin(0.5 * n * u);
  return t * t / (s * s);
}

}  // namespace

// (a) One atom: |A|² = |f(|q|)|² at every pixel, whatever its position and
// the orientation. Tolerances: float64 1e-12 (rounding); float32 2e-6
// (|e^{iφ}|² = c² + s² with the float32 polynomial sincos, ≤ 2.5e-7 each).
TEST(Pattern2DPhysics, SingleAtomGivesFormFactorSquared) {
  for (const Precision precision : {Precision::float64, Precision::float32}) {
    const double tol = precision == Precision::float64 ? 1e-12 : 2e-6;
    auto g = polar(1.1, 7.5, 40, 36, true);
    g.orientation = rotation_zyz_degrees(17, 41, -73);
    const auto r = Pattern2DPlan(one_atom("Au", {3.0, -2.0, 5.0}), cpu(precision)).execute(g);
    for (std::size_t p = 0; p < r.intensity.size(); ++p) {
      const double f = xray_f0("Au", 0, r.grid.q_magnitude(p));
      ASSERT_NEAR(r.intensity[p], f * f, tol * f * f) << "pixel " << p;
    }
  }
}

// With occupancy w and a Debye–Waller factor the expected intensity of one
// atom is w |f0|² (its self term is not damped: it does not move relative to
// itself; pattern2d.hpp). Neutrons: |b|² with a complex b (natural boron,
// b = 5.30 − 0.213i fm); electrons: γ² f_e² with γ of a 200 keV beam.
// Tolerance 1e-12 (float64 rounding).
TEST(Pattern2DPhysics, SingleAtomOccupancyDebyeWallerAndRadiations) {
  auto g = polar(1.0, 6.0, 25, 12, true);
  {
    const auto r = Pattern2DPlan(one_atom("Fe", {1, 2, 3}, 0.6, 2.0), cpu(Precision::float64)).execute(g);
    for (std::size_t p = 0; p < r.intensity.size(); ++p) {
      const double f = xray_f0("Fe", 0, r.grid.q_magnitude(p));
      ASSERT_NEAR(r.intensity[p], 0.6 * f * f, 1e-12 * f * f);
    }
  }
  {
    const auto r = Pattern2DPlan(one_atom("B", {-4, 0, 1}), cpu(Precision::float64, Radiation::neutron)).execute(g);
    const double b2 = std::norm(neutron_b_coherent("B"));
    ASSERT_GT(std::abs(neutron_b_coherent("B").imag()), 0.1);  // the case needs a complex b
    for (double i : r.intensity) ASSERT_NEAR(i, b2, 1e-12 * b2);
  }
  {
    const auto ge = polar(0.0250793, 6.0, 25, 12, true);  // 200 keV electrons
    const auto r = Pattern2DPlan(one_atom("Si", {0.5, 0.5, 0}), cpu(Precision::float64, Radiation::electron)).execute(ge);
    EXPECT_NEAR(r.electron_gamma, 1 + 200 / 510.99895, 2e-6);
    for (std::size_t p = 0; p < r.intensity.size(); ++p) {
      const double f = r.electron_gamma * electron_f("Si", 0, r.grid.q_magnitude(p));
      ASSERT_NEAR(r.intensity[p], f * f, 1e-12 * f * f);
    }
  }
}

// Flat detector (factors evaluated per pixel): one atom gives |f(|q|)|² from
// scattering_factor itself, for anomalous X-rays (complex f) and electrons.
// Tolerance 1e-12 (float64 rounding).
TEST(Pattern2DPhysics, SingleAtomOnAFlatDetector) {
  Pattern2DGeometry g;
  g.wavelength = 1.6;
  g.detector = FlatDetector{50.0, 1.5, 21, 17, std::array<double, 2>{7.0, 9.5}};
  g.orientation = rotation_zyz_degrees(30, 60, 90);
  for (const Radiation radiation : {Radiation::xray, Radiation::electron}) {
    Pattern2DOptions o = cpu(Precision::float64, radiation);
    o.relativistic_electrons = false;
    if (radiation == Radiation::xray) o.factors.energy_kev = photon_energy_kev(g.wavelength);
    const Structure atom = one_atom("Co", {2, 1, -3}, 1.0, 0.5);
    const auto r = Pattern2DPlan(atom, o).execute(g);
    for (std::size_t p = 0; p < r.intensity.size(); ++p) {
      const double f2 = std::norm(scattering_factor(radiation, {"Co", 0, 0.0}, r.grid.q_magnitude(p), o.factors));
      ASSERT_NEAR(r.intensity[p], f2, 1e-12 * f2) << to_string(radiation) << " pixel " << p;
    }
  }
}

// (b) Simple-cubic crystal, a = 4 Å, 6×6×6 atoms, [001] along the beam, no
// curvature. Rings at multiples of (2π/a)/4 and 5° azimuths put pixels
// exactly on G = (2π/a)(h, k, 0) for (h,k) = (±1,0), (0,±1), (±2,0), (0,±2);
// a second grid with ring spacing |G_11|/4 puts pixels on (±1,±1) and
// (±2,±2) at φ = 45° + n·90°. At each the intensity is N² f(|G|)², and the
// whole pattern is the closed form f² Π_c L(q_c a) (Laue function L).
// Tolerances: float64 1e-9 relative where I > 1e-6 max I (rounding of
// phases up to |q|·35 Å ~ 100 rad); float32 1e-5 where I > 1e-3 max I (the
// issue's GPU criterion; per-atom phases ~1e-6 rad).
TEST(Pattern2DPhysics, SimpleCubicBraggPeaksAtReciprocalLatticePoints) {
  const double a = 4.0, g1 = 2 * kPi / a;
  const int n = 6;
  const double n_atoms = double(n) * n * n;
  const Structure crystal = simple_cubic("Cu", a, n, {1.5, -2.0, 0.25});
  for (const Precision precision : {Precision::float64, Precision::float32}) {
    const bool dual = precision == Precision::float64;
    const Pattern2DPlan plan(crystal, cpu(precision));
    struct Peak {
      int ring, column;
    };
    struct Grid {
      double dq;
      std::vector<Peak> peaks;
    };
    // 72 azimuths: column 18 is 90°, column 9 is 45°.
    const Grid grids[] = {{g1 / 4, {{4, 0}, {4, 18}, {4, 36}, {4, 54}, {8, 0}, {8, 18}, {8, 36}, {8, 54}}},
                          {std::sqrt(2.0) * g1 / 4, {{4, 9}, {4, 27}, {4, 45}, {4, 63}, {8, 9}, {8, 27}}}};
    for (const Grid& grid : grids) {
      const auto r = plan.execute(polar(1.0, 8 * grid.dq, 9, 72, false));
      std::vector<double> closed(r.intensity.size());
      for (std::size_t p = 0; p < closed.size(); ++p) {
        const Vec3 q = r.grid.q[p];
        const double f = xray_f0("Cu", 0, norm(q));
        closed[p] = f * f * laue(q.x * a, n) * laue(q.y * a, n) * laue(q.z * a, n);
      }
      const double err = test::max_rel_error(r.intensity, closed, dual ? 1e-6 : 1e-3);
      EXPECT_LE(err, dual ? 1e-9 : 1e-5) << to_string(precision);
      for (const Peak& pk : grid.peaks) {
        const std::size_t p = std::size_t(pk.ring) * 72 + std::size_t(pk.column);
        const double f = xray_f0("Cu", 0, pk.ring * grid.dq);
        EXPECT_NEAR(r.intensity[p], n_atoms * n_atoms * f * f, (dual ? 1e-10 : 1e-5) * n_atoms * n_atoms * f * f)
            << "ring " << pk.ring << " column " << pk.column;
      }
      std::printf("[ measured ] %s, ring step %.4f: max rel error vs Laue closed form %.3g\n",
                  to_string(precision), grid.dq, err);
    }
  }
}

// (b, with curvature) At λ = 0.02 Å the Ewald sphere is nearly flat: the
// pixel at (|G_10|, 0°) sees q_z = −|q|²/2k ≈ −3.9e-3 Å⁻¹, which lowers the
// peak by the Laue factor along z (< 1e-3 for 6 cells), and the whole
// pattern still follows the closed form evaluated at the true q. Tolerance
// as above (float64).
TEST(Pattern2DPhysics, SimpleCubicWithEwaldCurvature) {
  const double a = 4.0, g1 = 2 * kPi / a;
  const int n = 6;
  const Structure crystal = simple_cubic("Cu", a, n, {0, 0, 0});
  const auto r = Pattern2DPlan(crystal, cpu(Precision::float64)).execute(polar(0.02, 2 * g1, 9, 72, true));
  std::vector<double> closed(r.intensity.size());
  for (std::size_t p = 0; p < closed.size(); ++p) {
    const Vec3 q = r.grid.q[p];
    const double f = xray_f0("Cu", 0, norm(q));
    closed[p] = f * f * laue(q.x * a, n) * laue(q.y * a, n) * laue(q.z * a, n);
  }
  EXPECT_LE(test::max_rel_error(r.intensity, closed, 1e-6), 1e-9);
  const double f = xray_f0("Cu", 0, g1), peak = 216.0 * 216.0 * f * f;
  EXPECT_LT(r.intensity[4 * 72], peak);
  EXPECT_GT(r.intensity[4 * 72], (1 - 1e-3) * peak);
}

// (c) Rotating the sample by m·Δφ about the beam rotates the polar pattern
// by m columns (Ewald curvature on: the rotation commutes with it). A flat
// square detector centred on the beam turns by 90° for a 90° rotation:
// pixel (ix, iy) → (n−1−iy, ix). Tolerance 1e-9 relative where I > 1e-6
// max I: the two runs differ only in rounding of q (phases ≲ 1e2 rad).
TEST(Pattern2DPhysics, RotationAboutTheBeamRotatesThePattern) {
  const Structure particle = fcc_sphere("Au", 4.078, 11.0);
  const Mat3 tilt = rotation_zyz_degrees(0, 23, 11);
  const Pattern2DPlan plan(particle, cpu(Precision::float64));
  const int nphi = 60, m = 7;  // 6° steps, 42°
  auto g = polar(0.9, 5.0, 30, nphi, true);
  g.orientation = tilt;
  const auto base = plan.execute(g);
  g.orientation = rotation_zyz_degrees(360.0 * m / nphi, 0, 0) * tilt;
  const auto turned = plan.execute(g);
  std::vector<double> shifted(base.intensity.size());
  for (std::size_t i = 0; i < 30; ++i)
    for (int j = 0; j < nphi; ++j)
      shifted[i * nphi + std::size_t((j + m) % nphi)] = base.intensity[i * nphi + std::size_t(j)];
  const double err = test::max_rel_error(turned.intensity, shifted, 1e-6);
  EXPECT_LE(err, 1e-9);
  std::printf("[ measured ] polar rotation by %d columns: max rel error %.3g\n", m, err);

  Pattern2DGeometry flat;
  flat.wavelength = 1.2;
  flat.detector = FlatDetector{80.0, 2.0, 24, 24, std::nullopt};
  flat.orientation = tilt;
  const auto f0 = plan.execute(flat);
  flat.orientation = rotation_zyz_degrees(90, 0, 0) * tilt;
  const auto f90 = plan.execute(flat);
  std::vector<double> rotated(f0.intensity.size());
  for (std::size_t iy = 0; iy < 24; ++iy)
    for (std::size_t ix = 0; ix < 24; ++ix) rotated[ix * 24 + (23 - iy)] = f0.intensity[iy * 24 + ix];
  EXPECT_LE(test::max_rel_error(f90.intensity, rotated, 1e-6), 1e-9);
}

// A beam along b with the sample turned by the same beam frame gives the
// pattern of a +z beam: q_sample = (R_b R)ᵀ R_b q_det = Rᵀ q_det.
// Tolerance 1e-10 (rounding of the two rotations).
TEST(Pattern2DPhysics, BeamDirectionAndSampleTurnTogether) {
  const Structure particle = coo_sphere(8.0);
  const Pattern2DPlan plan(particle, cpu(Precision::float64));
  auto g = polar(1.0, 4.0, 12, 20, true);
  g.orientation = rotation_zyz_degrees(5, 50, 80);
  const auto along_z = plan.execute(g);
  const Vec3 beam{0.2, -0.9, 0.4};
  g.beam_direction = beam;
  g.orientation = beam_frame(beam) * g.orientation;
  const auto tilted = plan.execute(g);
  EXPECT_LE(test::max_rel_error(tilted.intensity, along_z.intensity, 1e-8), 1e-10);
}

// Friedel's law I(q) = I(−q) for real f, in the small-angle limit where −q
// is a pixel (φ + 180°). Tolerances: float64 1e-9, float32 1e-5 (the two
// pixels' q differ by rounding of cos φ and of the float32 conversion)
// where I > 1e-3 max I.
TEST(Pattern2DPhysics, FriedelSymmetryWithoutCurvature) {
  Structure particle = coo_sphere(10.0);
  for (std::size_t i = 0; i < particle.atoms.size(); i += 3) particle.atoms[i].position.x += 0.13;  // no inversion centre
  for (const Precision precision : {Precision::float64, Precision::float32}) {
    auto g = polar(1.0, 6.0, 40, 48, false);
    g.orientation = rotation_zyz_degrees(12, 34, 56);
    const auto r = Pattern2DPlan(particle, cpu(precision)).execute(g);
    std::vector<double> opposite(r.intensity.size());
    for (std::size_t i = 0; i < 40; ++i)
      for (std::size_t j = 0; j < 48; ++j) opposite[i * 48 + j] = r.intensity[i * 48 + (j + 24) % 48];
    const double err = test::max_rel_error(opposite, r.intensity, 1e-3);
    EXPECT_LE(err, precision == Precision::float64 ? 1e-9 : 1e-5);
    std::printf("[ measured ] Friedel %s: max rel error %.3g\n", to_string(precision), err);
  }
}

// Fast CPU paths against an independent float64 evaluation of the whole
// intensity: the textbook phase sums (phase_sums_reference) combined here
// with f0 + f' + i f'' (anomalous X-rays near the Co K edge), occupancy
// and Debye–Waller factors, I = |Σ w f T e^{iqr}|² + Σ |f|²(w − w²T²).
// CoO sphere (~1,000 atoms) off the origin, general orientation, Ewald
// curvature. Tolerances: float64 1e-10 everywhere above 1e-6 max I; float32
// 1e-5 where I > 1e-3 max I (the criterion).
TEST(Pattern2DPhysics, FastPathsMatchIndependentFloat64Evaluation) {
  Structure particle = coo_sphere(13.0);
  for (auto& atom : particle.atoms) {
    atom.position += Vec3{40, -25, 60};
    if (atom.element == "O") atom.occupancy = 0.85, atom.b_iso = 0.9;
    else atom.b_iso = 0.4;
  }
  const double lambda = 1.6;  // 7.749 keV, just above the Co K edge (7.709 keV): f'' ≈ 3.5 e
  Pattern2DOptions options = cpu(Precision::float64);
  options.factors.energy_kev = photon_energy_kev(lambda);
  auto g = polar(lambda, 6.0, 48, 64, true);
  g.orientation = rotation_zyz_degrees(15, 35, 60);

  const auto grid = make_detector_grid(g);
  const auto species = pattern2d::group_species(particle);
  std::vector<Vec3> q_sample;
  for (const Vec3& q : grid.q) q_sample.push_back(transpose(g.orientation) * q);
  std::vector<std::complex<double>> sums(species.species.size() * q_sample.size());
  pattern2d::phase_sums_reference(species.atoms, q_sample, sums);
  std::vector<double> reference(grid.q.size());
  FactorOptions bare = options.factors;
  bare.debye_waller = false;
  for (std::size_t p = 0; p < grid.q.size(); ++p) {
    const double qm = norm(grid.q[p]);
    std::complex<double> a = 0;
    double self = 0;
    for (std::size_t s = 0; s < species.species.size(); ++s) {
      const auto f = scattering_factor(Radiation::xray, species.species[s], qm, bare);
      const double t = debye_waller(species.species[s].b_iso, qm);
      double w1 = 0, w2 = 0;
      for (double w : species.atoms[s].w) w1 += w, w2 += w * w;
      a += f * t * sums[s * q_sample.size() + p];
      self += std::norm(f) * (w1 - t * t * w2);
    }
    reference[p] = std::norm(a) + self;
  }
  for (const Precision precision : {Precision::float64, Precision::float32}) {
    options.compute.precision = precision;
    const auto r = Pattern2DPlan(particle, options).execute(g);
    const bool dual = precision == Precision::float64;
    const double err = test::max_rel_error(r.intensity, reference, dual ? 1e-6 : 1e-3);
    EXPECT_LE(err, dual ? 1e-10 : 1e-5);
    std::printf("[ measured ] CoO %zu atoms, %s vs float64 reference: max rel error %.3g\n",
                particle.atoms.size(), to_string(precision), err);
  }
}

// The orientation average of the 2D pattern is the Debye powder pattern
// (same expected-intensity convention, self terms included). Sample turned
// by Ry(β), β on a uniform periodic grid; the no-curvature ring of radius
// |q| then sweeps directions n = (cos φ cos β, sin φ, −cos φ sin β), a
// sphere with latitude φ, so ⟨I⟩ = Σ |cos φ| I / Σ |cos φ|. 30 atoms of Co
// and O (partial occupancy, B) at random positions. Tolerance 2e-4: the
// trapezoid rule in φ meets the kink of |cos φ| at ±90° (error ~h²/6 =
// 1.3e-5 for 0.5° steps); the β sum is spectrally accurate.
TEST(Pattern2DPhysics, OrientationAverageEqualsDebye) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-6, 6);
  Structure cluster;
  for (int i = 0; i < 30; ++i) {
    const bool cobalt = i % 3 != 0;
    cluster.atoms.push_back({cobalt ? "Co" : "O", 0, Vec3{u(rng), u(rng), u(rng)}, cobalt ? 1.0 : 0.7,
                             cobalt ? 0.3 : 0.8});
  }
  const int nq = 5, nphi = 720, nbeta = 180;
  const double qmax = 4.0;
  const Pattern2DPlan plan(cluster, cpu(Precision::float64));
  std::vector<double> sum(nq, 0.0);
  double weight = 0;
  std::vector<double> cos_weight(nphi);
  for (int j = 0; j < nphi; ++j) cos_weight[j] = std::abs(std::cos(2 * kPi * j / nphi));
  for (int b = 0; b < nbeta; ++b) {
    auto g = polar(1.0, qmax, nq, nphi, false);
    g.orientation = rotation_zyz_degrees(0, 360.0 * b / nbeta, 0);
    const auto r = plan.execute(g);
    for (int i = 0; i < nq; ++i)
      for (int j = 0; j < nphi; ++j) sum[i] += cos_weight[j] * r.intensity[std::size_t(i * nphi + j)];
  }
  for (int j = 0; j < nphi; ++j) weight += cos_weight[j] * nbeta;
  DebyeOptions debye;
  const auto d = DebyePlan(cluster, debye).execute(uniform_q_grid(0, qmax, nq));
  std::vector<double> average(nq);
  for (int i = 0; i < nq; ++i) average[i] = sum[i] / weight;
  const double err = test::max_rel_error(average, d.intensity);
  EXPECT_LE(err, 2e-4);
  std::printf("[ measured ] orientation average vs Debye: max rel error %.3g\n", err);
}
