// The gisaxs engine as a whole: the four DWBA terms against the issue's
// formula for a particle on a substrate, limits and invariances (no
// contrast below → Born, axial symmetry, linearity), composite particles,
// mixtures, size distributions (BornAgain's sampling), and detector geometry.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "gisaxs/multilayer.hpp"
#include "gisaxs/size_distribution.hpp"
#include "gisaxs/special_functions.hpp"
#include "nanoscatter/constants.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"

namespace nanoscatter::gisaxs {
namespace {

// A sample file: fixed beam and a small angular detector, the given layers,
// particles and extra layout keys.
std::string sample_text(const std::string& particles, const std::string& substrate = "{ delta = 6e-6, beta = 2e-8 }",
                        const std::string& layout_keys = "density = 0.01", const std::string& detector = "") {
  std::ostringstream os;
  os << layout_keys << "\n[beam]\nwavelength = 0.1\nalpha_i = 0.2\n";
  os << (detector.empty() ? "[detector]\nphi_f = { min = -1.0, max = 1.5, bins = 23 }\nalpha_f = { min = 0.0, max = 2.0, bins = 19 }\n"
                          : detector);
  os << "[[layer]]\n[[layer]]\nmaterial = " << substrate << "\n" << particles;
  return os.str();
}

GisaxsResult run(const std::string& text, Approximation a = Approximation::dwba) {
  GisaxsOptions options;
  options.approximation = a;
  return GisaxsPlan(parse_sample(text, "test.toml"), options).execute();
}

double max_rel_diff(const GisaxsResult& a, const GisaxsResult& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.intensity.size(); ++i) {
    if (a.intensity[i] == 0 && b.intensity[i] == 0) continue;
    worst = std::max(worst, std::abs(a.intensity[i] - b.intensity[i]) / std::abs(b.intensity[i]));
  }
  return worst;
}

const std::string kCylinder =
    "[[particle]]\nshape = \"cylinder\"\nradius = 5\nheight = 5\nmaterial = { delta = 6e-4, beta = 2e-8 }\n";

TEST(GisaxsDwba, FourTermsOfTheIssueFormula) {
  // F_DWBA = F(q∥, −a−b) + r_i F(q∥, a−b) + r_f F(q∥, −a+b) + r_i r_f F(q∥, a+b),
  // a = k sin α_i, b = k sin α_f, r the substrate's Fresnel coefficient, and
  // I = ρ |(π/λ²)(n_p² − 1) F_DWBA|² ΔΩ / sin α_i, evaluated here by hand for
  // a sphere on a substrate at every pixel. Below the horizon the formula is
  // continued with b = k sin α_f < 0 and r_f = r(|α_f|), as BornAgain does.
  // 1e-13: the same double formulas.
  const std::string sphere = "[[particle]]\nshape = \"sphere\"\nradius = 4\nmaterial = { delta = 6e-4, beta = 2e-8 }\n";
  const std::string det = "[detector]\nphi_f = { min = -1.0, max = 1.5, bins = 23 }\nalpha_f = { min = -0.5, max = 2.0, bins = 21 }\n";
  const GisaxsResult r = run(sample_text(sphere, "{ delta = 6e-6, beta = 2e-8 }", "density = 0.01", det));
  const double lambda = 0.1, k = 2 * kPi / lambda, ai = 0.2 * kDegree;
  auto fresnel = [&](double alpha) {
    const Complex n2m1 = Complex(-6e-6, 2e-8) * Complex(2 - 6e-6, 2e-8);
    const Complex kz0 = k * std::sin(alpha), kz1 = k * std::sqrt(n2m1 + std::sin(alpha) * std::sin(alpha));
    return (kz0 - kz1) / (kz0 + kz1);
  };
  auto sphere_ff = [&](double qx, double qy, Complex qz) {
    const double radius = 4;
    const Complex q = std::sqrt(qx * qx + qy * qy + qz * qz);
    return 4.0 / 3 * kPi * radius * radius * radius * sphere_amplitude(q * radius) *
           std::exp(Complex(0, 1) * qz * radius);
  };
  const Complex contrast = kPi / (lambda * lambda) * Complex(-6e-4, 2e-8) * Complex(2 - 6e-4, 2e-8);
  const PixelGrid& g = r.pixels;
  for (std::size_t p = 0; p < g.size(); ++p) {
    const double af = g.alpha_f[p], pf = g.phi_f[p];
    const double qx = k * (std::cos(ai) - std::cos(af) * std::cos(pf)), qy = k * std::cos(af) * std::sin(pf);
    const double a = k * std::sin(ai), b = k * std::sin(af);
    const Complex ri = fresnel(ai), rf = fresnel(std::abs(af));
    const Complex f = sphere_ff(qx, qy, -a - b) + ri * sphere_ff(qx, qy, a - b) + rf * sphere_ff(qx, qy, -a + b) +
                      ri * rf * sphere_ff(qx, qy, a + b);
    const double expected = 0.01 * std::norm(contrast * f) * g.solid_angle[p] / std::sin(ai);
    EXPECT_NEAR(r.intensity[p], expected, 1e-13 * expected) << p;
  }
}

TEST(GisaxsDwba, NoReflectionBelowMeansBorn) {
  // A "substrate" of vacuum reflects nothing: the DWBA is then the Born
  // approximation (only k_z = k|sin α| vs k sin α rounding differs).
  const GisaxsResult dwba = run(sample_text(kCylinder, "\"vacuum\""));
  const GisaxsResult born = run(sample_text(kCylinder, "\"vacuum\""), Approximation::born);
  EXPECT_LT(max_rel_diff(dwba, born), 1e-13);
  // With a real substrate the two differ (the test has power).
  EXPECT_GT(max_rel_diff(run(sample_text(kCylinder)), born), 0.1);
}

TEST(GisaxsDwba, AxialSymmetryAndRotations) {
  // A cylinder turned about its axis scatters the same (1e-13, rounding of
  // the rotated q); a box turned by 90° is the box with length and width
  // swapped; Euler (α, 0, 0) is a turn by α about z.
  const GisaxsResult plain = run(sample_text(kCylinder));
  EXPECT_LT(max_rel_diff(run(sample_text(kCylinder + "rotation = { axis = \"z\", angle = 37 }\n")), plain), 1e-13);
  const std::string box = "[[particle]]\nshape = \"box\"\nlength = 8\nwidth = 3\nheight = 4\nmaterial = { delta = 6e-4, beta = 0 }\n";
  const std::string swapped = "[[particle]]\nshape = \"box\"\nlength = 3\nwidth = 8\nheight = 4\nmaterial = { delta = 6e-4, beta = 0 }\n";
  const GisaxsResult turned = run(sample_text(box + "rotation = { axis = \"z\", angle = 90 }\n"));
  EXPECT_LT(max_rel_diff(turned, run(sample_text(swapped))), 1e-12);
  EXPECT_LT(max_rel_diff(run(sample_text(box + "rotation = { euler_zxz = [90, 0, 0] }\n")), turned), 1e-14);
  // Two rotations compose in order: z by 30° then z by 60° is z by 90°.
  EXPECT_LT(max_rel_diff(run(sample_text(box + "rotation = [{ axis = \"z\", angle = 30 }, { axis = \"z\", angle = 60 }]\n")),
                         turned),
            1e-12);
}

TEST(GisaxsDwba, TiltedParticleEqualsItsRotatedShape) {
  // A box turned by 90° about x (its old height now along −y) is a box with
  // width and height swapped, but the turn is about its old bottom centre:
  // it now spans z ∈ [−W/2, W/2] (lifted back by depth = −W/2) and
  // y ∈ [−H, 0], a shift by −H/2 that only multiplies all four DWBA terms
  // by the same phase exp(−i q_y H/2).
  const std::string mat = "material = { delta = 6e-4, beta = 2e-8 }\n";
  const std::string tilted = "[[particle]]\nshape = \"box\"\nlength = 8\nwidth = 3\nheight = 4\n" + mat +
                             "rotation = { axis = \"x\", angle = 90 }\ndepth = -1.5\n";
  const std::string upright = "[[particle]]\nshape = \"box\"\nlength = 8\nwidth = 4\nheight = 3\n" + mat;
  EXPECT_LT(max_rel_diff(run(sample_text(tilted)), run(sample_text(upright))), 1e-12);
}

TEST(GisaxsDwba, AzimuthOfTheBeamShiftsTheImage) {
  // φ is measured alike for k_i and k_f (k_i = k(cos α_i cos φ_i,
  // −cos α_i sin φ_i, −sin α_i), BornAgain's convention; φ_f = φ_i is
  // forward). For an axially symmetric particle the image seen from φ_i is
  // the φ_i = 0 image on a detector turned by φ_i. 1e-12: rounding of the
  // shifted angles.
  const std::string det = "[detector]\nphi_f = { min = -1.0, max = 1.5, bins = 23 }\nalpha_f = { min = 0.0, max = 2.0, bins = 19 }\n";
  const std::string shifted = "[detector]\nphi_f = { min = -0.3, max = 2.2, bins = 23 }\nalpha_f = { min = 0.0, max = 2.0, bins = 19 }\n";
  std::string turned = sample_text(kCylinder, "{ delta = 6e-6, beta = 2e-8 }", "density = 0.01", shifted);
  turned.replace(turned.find("alpha_i = 0.2"), 13, "alpha_i = 0.2\nphi_i = 0.7");
  EXPECT_LT(max_rel_diff(run(turned), run(sample_text(kCylinder, "{ delta = 6e-6, beta = 2e-8 }", "density = 0.01", det))),
            1e-12);
}

TEST(GisaxsDwba, LinearInBeamIntensityAndDensity) {
  const GisaxsResult base = run(sample_text(kCylinder));
  std::string text = sample_text(kCylinder, "{ delta = 6e-6, beta = 2e-8 }", "density = 0.03");
  text.replace(text.find("alpha_i = 0.2"), 13, "alpha_i = 0.2\nintensity = 2.5");
  const GisaxsResult scaled = run(text);
  for (std::size_t i = 0; i < base.intensity.size(); ++i)
    EXPECT_NEAR(scaled.intensity[i], 7.5 * base.intensity[i], 1e-14 * scaled.intensity[i]);
}

TEST(GisaxsDwba, CoreShellLimits) {
  // Shell of the ambient's index → the bare core, lifted by the shell
  // thickness; core of the shell's index → a homogeneous sphere of the outer
  // radius. 1e-12: different components and phases, same integral.
  const std::string gold = "{ delta = 4.6e-5, beta = 4.8e-6 }", silica = "{ delta = 7e-6, beta = 1e-8 }";
  auto core_shell = [&](const std::string& core, const std::string& shell) {
    return "[[particle]]\nshape = \"core_shell_sphere\"\ncore_radius = 4\nshell_thickness = 1.5\ncore_material = " + core +
           "\nmaterial = " + shell + "\n";
  };
  const std::string bare_core =
      "[[particle]]\nshape = \"sphere\"\nradius = 4\ndepth = -1.5\nmaterial = " + gold + "\n";
  EXPECT_LT(max_rel_diff(run(sample_text(core_shell(gold, "\"vacuum\""))), run(sample_text(bare_core))), 1e-12);
  const std::string whole = "[[particle]]\nshape = \"sphere\"\nradius = 5.5\nmaterial = " + silica + "\n";
  EXPECT_LT(max_rel_diff(run(sample_text(core_shell(silica, silica))), run(sample_text(whole))), 1e-12);
}

TEST(GisaxsDwba, MixturesAndApproximations) {
  const std::string sphere = "[[particle]]\nshape = \"sphere\"\nradius = 3\nmaterial = { delta = 6e-4, beta = 2e-8 }\n";
  const GisaxsResult one = run(sample_text(kCylinder));
  // The same particle listed twice (abundances 1 and 3) is one kind.
  EXPECT_LT(max_rel_diff(run(sample_text(kCylinder + "abundance = 1\n" + kCylinder + "abundance = 3\n")), one), 1e-14);
  // Without interference (S = 1) the two mixture approximations agree ...
  const std::string both = kCylinder + "abundance = 2\n" + sphere;
  const GisaxsResult da = run(sample_text(both));
  const GisaxsResult lma = run(sample_text(both, "{ delta = 6e-6, beta = 2e-8 }", "density = 0.01\nmixture = \"lma\""));
  EXPECT_LT(max_rel_diff(lma, da), 1e-14);
  // ... and are the abundance-weighted sums of the single-kind images.
  const GisaxsResult cyl = run(sample_text(kCylinder)), sph = run(sample_text(sphere));
  for (std::size_t i = 0; i < da.intensity.size(); ++i)
    EXPECT_NEAR(da.intensity[i], (2 * cyl.intensity[i] + sph.intensity[i]) / 3, 1e-13 * da.intensity[i]);
  // With interference, one kind: decoupling and LMA coincide (|ΣwF|² = Σw|F|²);
  // two kinds: they differ.
  const std::string para = "[interference]\ntype = \"radial_paracrystal\"\npeak_distance = 20\npdf = { type = \"gauss\", omega = 3 }\n";
  const std::string lma_keys = "density = 0.01\nmixture = \"lma\"";
  EXPECT_LT(max_rel_diff(run(sample_text(kCylinder + para, "{ delta = 6e-6, beta = 2e-8 }", lma_keys)),
                         run(sample_text(kCylinder + para))),
            1e-13);
  EXPECT_GT(max_rel_diff(run(sample_text(both + para, "{ delta = 6e-6, beta = 2e-8 }", lma_keys)), run(sample_text(both + para))),
            1e-3);
}

TEST(GisaxsDwba, SizeDistributionsSampleAsBornAgain) {
  // BornAgain 1.19.0: ParameterDistribution(DistributionGaussian(5, 0.5), 5,
  // sigma_factor 2) and DistributionLogNormal(5, 0.1) → these values and weights.
  const auto g = sample_distribution({DistributionKind::gaussian, 0.5, 5, 2.0}, 5.0);
  const double gv[] = {4.0, 4.5, 5.0, 5.5, 6.0};
  const double gw[] = {0.054488684549642945, 0.24420134200323335, 0.40261994689424746, 0.24420134200323335,
                       0.054488684549642945};
  const auto l = sample_distribution({DistributionKind::lognormal, 0.1, 5, 2.0}, 5.0);
  const double lv[] = {4.093653765389909, 4.596993771742644, 5.100333778095379, 5.603673784448114, 6.107013790800849};
  const double lw[] = {0.06699452171034077, 0.30968300030229673, 0.3895552737565163, 0.18885943335383504,
                       0.04490777087701118};
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(g[i].value, gv[i], 1e-15 * gv[i]);
    EXPECT_NEAR(g[i].weight, gw[i], 1e-14 * gw[i]);
    EXPECT_NEAR(l[i].value, lv[i], 1e-15 * lv[i]);
    EXPECT_NEAR(l[i].weight, lw[i], 1e-14 * lw[i]);
  }
  // The image of a distributed radius is the weighted sum of fixed-radius
  // images (decoupling, no interference).
  const GisaxsResult dist = run(sample_text(
      kCylinder + "distribution = { parameter = \"radius\", type = \"gaussian\", sigma = 0.5, samples = 5, sigma_factor = 2 }\n"));
  EXPECT_EQ(dist.particle_kinds, 5u);
  std::vector<double> sum(dist.intensity.size(), 0.0);
  for (int i = 0; i < 5; ++i) {
    std::string c = kCylinder;
    c.replace(c.find("radius = 5"), 10, "radius = " + std::to_string(gv[i]));
    const GisaxsResult r = run(sample_text(c));
    for (std::size_t p = 0; p < sum.size(); ++p) sum[p] += gw[i] * r.intensity[p];
  }
  for (std::size_t p = 0; p < sum.size(); ++p) EXPECT_NEAR(dist.intensity[p], sum[p], 1e-12 * sum[p]);
}

TEST(GisaxsDwba, DetectorGeometry) {
  const Beam beam{0.1, 0.3 * kDegree, 0.0, 1.0};
  const double k = 2 * kPi / 0.1;
  // Angular: the solid angles add up to Δφ (sin α_max − sin α_min).
  AngularDetector a;
  for (int i = 0; i <= 10; ++i) a.phi_edges.push_back((-1 + 0.25 * i) * kDegree);
  for (int i = 0; i <= 8; ++i) a.alpha_edges.push_back((0.5 * i) * kDegree);
  const PixelGrid ga = make_pixel_grid(a, beam);
  double total = 0;
  for (double w : ga.solid_angle) total += w;
  EXPECT_NEAR(total, 2.5 * kDegree * std::sin(4 * kDegree), 1e-15);
  // q grid: each pixel's q = k_i − k_f lands on its bin centre
  // (q_y = (k_i − k_f)_y, q_z = −(k_i − k_f)_z).
  QGridDetector q;
  for (int i = 0; i <= 6; ++i) q.qy_edges.push_back(-0.6 + 0.2 * i);
  for (int i = 0; i <= 5; ++i) q.qz_edges.push_back(0.1 + 0.3 * i);
  const PixelGrid gq = make_pixel_grid(q, beam);
  for (std::size_t r = 0; r < gq.rows; ++r)
    for (std::size_t c = 0; c < gq.cols; ++c) {
      const std::size_t p = r * gq.cols + c;
      ASSERT_TRUE(gq.reachable[p]);
      EXPECT_NEAR(gq.qy[p], gq.horizontal[c], 1e-13);
      EXPECT_NEAR(-gq.qz[p], gq.vertical[r], 1e-13);
    }
  // A q_z beyond 2k cannot be reached.
  const PixelGrid far = make_pixel_grid(QGridDetector{{-0.1, 0.1}, {2.1 * k, 2.2 * k}}, beam);
  EXPECT_FALSE(far.reachable[0]);
  // Flat: a pixel centred on the direct beam looks along k_i (α_f = −α_i,
  // φ_f = 0); a small detector spans the solid angle area/distance².
  FlatDetector f{2000.0, 0.1, 0.1, 21, 21, 10.5, 10.5};
  const PixelGrid gf = make_pixel_grid(f, beam);
  const std::size_t centre = 10 * 21 + 10;
  EXPECT_NEAR(gf.alpha_f[centre], -0.3 * kDegree, 1e-15);
  EXPECT_NEAR(gf.phi_f[centre], 0.0, 1e-15);
  double flat_total = 0;
  for (double w : gf.solid_angle) flat_total += w;
  // 2.1 mm square at 2 m: Ω = 4 atan(a b / (2 L sqrt(4L² + a² + b²))) with
  // a = b = 2.1 (a rectangle centred on the normal); the centre-point rule
  // is good to ~1e-8 of it here.
  const double side = 2.1, l = 2000;
  const double exact = 4 * std::atan(side * side / (2 * l * std::sqrt(4 * l * l + 2 * side * side)));
  EXPECT_NEAR(flat_total, exact, 1e-8 * exact);
  // Columns to the right have φ_f > 0, rows upwards larger α_f.
  EXPECT_GT(gf.phi_f[centre + 1], 0.0);
  EXPECT_GT(gf.alpha_f[centre + 21], gf.alpha_f[centre]);
}

TEST(GisaxsDwba, GpuIsAClearErrorUntilItExists) {
  GisaxsOptions options;
  options.compute.device = Device::gpu;
  try {
    GisaxsPlan(parse_sample(sample_text(kCylinder), "test.toml"), options);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().field, "device");
  }
}

TEST(GisaxsDwba, BlocksAndThreadsDoNotChangeTheImage) {
  const Sample s = parse_sample(sample_text(kCylinder + "[[particle]]\nshape = \"icosahedron\"\nedge = 4\nmaterial = \"vacuum\"\n"),
                                "test.toml");
  GisaxsOptions a, b;
  a.block_pixels = 7;
  a.compute.threads = 1;
  b.block_pixels = 4096;
  const GisaxsResult ra = GisaxsPlan(s, a).execute(), rb = GisaxsPlan(s, b).execute();
  EXPECT_EQ(ra.intensity, rb.intensity);
  // compute_pixels on a sub-range gives the same numbers.
  const GisaxsPlan plan(s, b);
  std::vector<double> part(50);
  plan.compute_pixels(100, 50, part.data());
  for (int i = 0; i < 50; ++i) EXPECT_EQ(part[i], rb.intensity[100 + i]);
}

}  // namespace
}  // namespace nanoscatter::gisaxs
