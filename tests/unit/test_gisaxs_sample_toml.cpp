// Reading gisaxs sample files: values and units, named and inline materials
// (xraylib for formulas), and one-line errors naming file:line and key.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "nanoscatter/constants.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/scattering_factors.hpp"

namespace nanoscatter::gisaxs {
namespace {

TEST(GisaxsSampleToml, BenchmarkFile) {
  const Sample s = read_sample(std::string(NS_TEST_DATA_DIR) + "/gisaxs/benchmark_cylinders.toml");
  EXPECT_EQ(s.beam.wavelength, 0.1);
  EXPECT_NEAR(s.beam.alpha_i, 0.2 * kDegree, 1e-17);
  const auto& d = std::get<AngularDetector>(s.detector);
  ASSERT_EQ(d.phi_edges.size(), 201u);
  ASSERT_EQ(d.alpha_edges.size(), 201u);
  EXPECT_NEAR(d.phi_edges.front(), -2 * kDegree, 1e-17);
  EXPECT_NEAR(d.alpha_edges.back(), 3 * kDegree, 1e-17);
  ASSERT_EQ(s.layers.size(), 2u);
  EXPECT_EQ(s.layers[0].material.delta, 0.0);
  EXPECT_EQ(s.layers[1].material.delta, 6e-6);
  EXPECT_EQ(s.layers[1].material.beta, 2e-8);
  ASSERT_EQ(s.layouts.size(), 1u);
  const Layout& l = s.layouts[0];
  EXPECT_EQ(l.density, 0.01);
  ASSERT_EQ(l.particles.size(), 1u);
  EXPECT_EQ(l.particles[0].shape, "cylinder");
  EXPECT_EQ(l.particles[0].parameters, (std::vector<double>{5.0, 5.0}));
  EXPECT_EQ(l.particles[0].material.delta, 6e-4);
  EXPECT_EQ(l.particles[0].layer, 0u);
  EXPECT_TRUE(std::holds_alternative<NoInterference>(l.interference));
}

const char* kHead = R"(density = 0.01
[beam]
energy = 12.0
alpha_i = 0.3
[detector]
type = "qgrid"
q_y = { min = -1, max = 1, bins = 4 }
q_z = { min = 0.1, max = 1, bins = 3 }
[material.si]
formula = "Si"
density = 2.33
[[layer]]
name = "air"
[[layer]]
name = "film"
material = { formula = "SiO2", density = 2.2 }
thickness = 20
roughness = 0.3
[[layer]]
material = "si"
)";

TEST(GisaxsSampleToml, FormulaMaterialsEnergyAndDetectorKinds) {
  const Sample s = parse_sample(std::string(kHead) + R"([[particle]]
shape = "pyramid"
base_edge = 10
height = 3
alpha = 54.7
layer = "film"
depth = 5
material = "si"
distribution = [{ parameter = "base_edge", type = "lognormal", scale = 0.1, samples = 7 },
                { parameter = "alpha", type = "gaussian", sigma = 2, samples = 3, sigma_factor = 1.5 }]
rotation = { axis = "z", angle = 45 }
)",
                                "s.toml");
  const double wavelength = kHcKeVAngstrom / 12.0 / 10;  // hc/E in nm
  EXPECT_NEAR(s.beam.wavelength, wavelength, 1e-16);
  const RefractiveIndex si = xray_refractive_index("Si", 2.33, 12.0), silica = xray_refractive_index("SiO2", 2.2, 12.0);
  EXPECT_NEAR(s.layers[2].material.delta, si.delta, 1e-12 * si.delta);
  EXPECT_NEAR(s.layers[1].material.beta, silica.beta, 1e-12 * silica.beta);
  EXPECT_EQ(s.layers[1].thickness, 20.0);
  EXPECT_EQ(s.layers[1].roughness, 0.3);
  const auto& q = std::get<QGridDetector>(s.detector);
  EXPECT_EQ(q.qy_edges.size(), 5u);
  const ParticleSpec& p = s.layouts[0].particles[0];
  EXPECT_EQ(p.layer, 1u);
  EXPECT_NEAR(p.parameters[2], 54.7 * kDegree, 1e-16);
  ASSERT_EQ(p.distributions.size(), 2u);
  EXPECT_EQ(p.distributions[0].kind, DistributionKind::lognormal);
  EXPECT_EQ(p.distributions[1].parameter, 2u);
  EXPECT_NEAR(p.distributions[1].width, 2 * kDegree, 1e-17);  // angles in degrees in files
  EXPECT_NEAR(p.rotation.row[0].x, std::cos(45 * kDegree), 1e-16);
  EXPECT_NEAR(p.rotation.row[1].x, std::sin(45 * kDegree), 1e-16);
}

TEST(GisaxsSampleToml, LatticesFixTheDensity) {
  const Sample s = parse_sample(R"([beam]
wavelength = 0.1
alpha_i = 0.2
[detector]
type = "flat"
distance = 1000
pixel_size = 0.172
pixels = [40, 30]
direct_beam = [20, 2]
[[layer]]
[[layer]]
material = { delta = 6e-6, beta = 2e-8 }
[[particle]]
shape = "cylinder"
radius = 3
height = 3
material = { delta = 6e-4 }
[interference]
type = "lattice_2d"
lattice = { type = "hexagonal", length = 20 }
decay = { type = "cauchy", length_x = 300, length_y = 300 }
)",
                                "s.toml");
  EXPECT_NEAR(s.layouts[0].density, 1 / (400 * std::sin(120 * kDegree)), 1e-17);
  const auto& f = std::get<FlatDetector>(s.detector);
  EXPECT_EQ(f.columns, 40u);
  EXPECT_EQ(f.rows, 30u);
  EXPECT_EQ(f.pixel_height, 0.172);
}

// The message of the Error a sample text raises ("" if none).
std::string error_of(const std::string& text) {
  try {
    parse_sample(text, "s.toml");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const char* kBase = R"(density = 0.01
[beam]
wavelength = 0.1
alpha_i = 0.2
[detector]
phi_f = { min = -1, max = 1, bins = 10 }
alpha_f = { min = 0, max = 2, bins = 10 }
[[layer]]
[[layer]]
material = { delta = 6e-6, beta = 2e-8 }
[[particle]]
shape = "cylinder"
radius = 5
height = 5
material = { delta = 6e-4, beta = 2e-8 }
)";

// kBase with one line replaced (1-based line number) or appended (line 0).
std::string with_line(int line, const std::string& replacement) {
  std::string text = kBase;
  if (line == 0) return text + replacement + "\n";
  std::size_t pos = 0;
  for (int i = 1; i < line; ++i) pos = text.find('\n', pos) + 1;
  const std::size_t end = text.find('\n', pos);
  return text.substr(0, pos) + replacement + text.substr(end);
}

TEST(GisaxsSampleToml, ErrorsNameFileLineAndKey) {
  EXPECT_EQ(error_of(kBase), "");
  EXPECT_EQ(error_of(with_line(12, "shape = \"blob\"")),
            "s.toml:12: particle[0].shape: unknown shape 'blob' (sphere, truncated_sphere, spheroid, cylinder, box, "
            "prism3, prism6, pyramid, cone, tetrahedron, icosahedron, core_shell_sphere, mesh)");
  EXPECT_EQ(error_of(with_line(13, "radiuss = 5")),
            "s.toml:13: particle[0].radiuss: unknown key 'radiuss'; allowed: shape, material, abundance, layer, depth, "
            "rotation, distribution, radius, height");
  EXPECT_EQ(error_of(with_line(13, "radius = -5")),
            "s.toml:13: particle[0].radius: must be a positive length in nm, got -5");
  EXPECT_EQ(error_of(with_line(4, "alpha_i = 0")),
            "s.toml:4: beam.alpha_i: the grazing angle must lie in (0°, 90°), got 0°");
  EXPECT_EQ(error_of(with_line(4, "alpha_i = -0.1")),
            "s.toml:4: beam.alpha_i: the grazing angle must lie in (0°, 90°), got -0.1°");
  EXPECT_EQ(error_of(with_line(6, "phi_f = { min = -1, max = 1, bins = 0 }")),
            "s.toml:6: detector.phi_f.bins: empty detector axis: bins must be ≥ 1, got 0");
  EXPECT_EQ(error_of(with_line(0, "layer = 2")),
            "s.toml:16: particle[0].layer: layer 2 does not exist (the sample has 2 layers, numbered from 0)");
  EXPECT_EQ(error_of(with_line(0, "layer = \"film\"")),
            "s.toml:16: particle[0].layer: layer 'film' does not exist (no layer has a name)");
  // A missing top-level key has no line of its own.
  EXPECT_EQ(error_of(with_line(1, "")), "s.toml: density: missing required key: the particles' surface density (nm⁻²)");
  EXPECT_EQ(error_of(with_line(0, "density = 0.1")),
            "s.toml:16: particle[0].density: unknown key 'density'; allowed: shape, material, abundance, layer, depth, "
            "rotation, distribution, radius, height (layout keys belong before the first [table] header, or in a "
            "[[layout]] block)");
  EXPECT_EQ(error_of(with_line(10, "material = \"glass\"")),
            "s.toml:10: layer[1].material: unknown material 'glass' (define it in a [material.glass] table)");
  EXPECT_EQ(error_of(with_line(0, "depth = 3")),
            "s.toml:16: particle[0].depth: a particle in the ambient (layer 0) sits on or above the first interface: "
            "depth must be ≤ 0, got 3");
  EXPECT_EQ(error_of(with_line(10, "material = { delta = 6e-6, beta = 2e-8 }\nthickness = 5")),
            "s.toml:11: layer[1].thickness: the substrate is semi-infinite: give no thickness");
  EXPECT_EQ(error_of(with_line(10, "material = { delta = 6e-6, beta = -1e-9 }")),
            "s.toml:10: layer[1].material.beta: must be ≥ 0 (absorption) and finite, got -1e-09");
  EXPECT_EQ(error_of(with_line(0, "distribution = { parameter = \"radius\", type = \"gaussian\", sigma = 3, samples = 5 }")),
            "s.toml:16: particle[0].distribution.sigma: the sampled range reaches -1 ≤ 0: narrow sigma or sigma_factor");
  EXPECT_EQ(error_of(with_line(0, "rotation = { axis = \"w\", angle = 3 }")),
            "s.toml:16: particle[0].rotation.axis: unknown rotation axis 'w' (x, y, z)");
  EXPECT_EQ(error_of(with_line(0, "[interference]\ntype = \"lattice_2d\"\nlattice = { type = \"square\", length = 10 }\n"
                                  "decay = { type = \"gauss\", length_x = 100, length_y = 100 }")),
            "s.toml:1: density: the 2D lattice fixes the density (1/cell area = 0.01 nm⁻²); remove this key");
  EXPECT_EQ(error_of(with_line(0, "[interference]\ntype = \"radial_paracrystal\"\npeak_distance = 0\npdf = { type = \"gauss\", omega = 1 }")),
            "s.toml:18: interference.peak_distance: must be positive and finite (nm), got 0");
  EXPECT_EQ(error_of(with_line(2, "[beem]")), "s.toml:2: beem: unknown key 'beem'; allowed: beam, detector, material, "
                                              "layer, particle, interference, density, mixture, position_variance, layout");
  // A string needs its unit (docs/conventions.md).
  EXPECT_EQ(error_of(with_line(3, "wavelength = \"0.1\"")),
            "s.toml:3: beam.wavelength: a string needs its unit (\"5 nm\", \"0.2 deg\"); write a bare number without "
            "quotes; got '0.1'");
  EXPECT_EQ(error_of(with_line(12, "shape = \"cone\"\nalpha = 95")),
            "s.toml:13: particle[0].alpha: must lie in (0°, 90°], got 95°");
}

TEST(GisaxsSampleToml, SyntaxErrorsNameTheLine) {
  const std::string e = error_of(with_line(3, "wavelength = = 0.1"));
  EXPECT_EQ(e.rfind("s.toml:3: syntax error", 0), 0u) << e;
}

}  // namespace
}  // namespace nanoscatter::gisaxs
