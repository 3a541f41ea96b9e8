// 1D patterns (pattern1d.hpp): round trips of the writer through every
// reader, headers of PDFgui/PDFgetX .gr, pyFAI and Fit2D .chi and GSAS
// .fxye files the test writes, random grids (property test), and bad inputs
// with one-line errors naming file:line and field. Real PDFs are read when
// NS_REAL_DATA_DIR names the folder holding pdf_ni/ and pdf_c60/.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numbers>
#include <random>

#include "nanoscatter/error.hpp"
#include "nanoscatter/pattern1d.hpp"
#include "property_seed.hpp"
#include "test_util.hpp"

namespace nanoscatter {
namespace {

namespace fs = std::filesystem;

fs::path temp_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::temp_directory_path() /
                       ("ns_pattern1d_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

fs::path write_file(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

using test::error_of;

void expect_error(const std::function<void()>& f, const std::string& contains) {
  const std::string e = error_of(f);
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  EXPECT_NE(e.find(contains), std::string::npos) << "expected '" << contains << "' in: " << e;
}

Pattern1D sample(PatternAxis axis, bool sigma) {
  Pattern1D p;
  p.axis = axis;
  for (int i = 0; i < 50; ++i) {
    p.x.push_back(5.0 + 0.37 * i + 1e-13 * i * i);
    p.y.push_back(std::sin(0.1 * i) * 1e3 + 1.0 / 3.0);
    if (sigma) p.sigma.push_back(0.5 + 0.01 * i);
  }
  p.wavelength = 1.5406;
  p.metadata["Qmax"] = "24.5";
  return p;
}

TEST(Pattern1D, RoundTripEveryWrittenFormat) {
  const fs::path dir = temp_dir();
  for (const char* ext : {".xy", ".xye", ".dat", ".txt"}) {
    for (PatternAxis axis : {PatternAxis::two_theta, PatternAxis::q, PatternAxis::d}) {
      SCOPED_TRACE(std::string(ext) + " " + pattern_axis_name(axis));
      const Pattern1D p = sample(axis, true);
      const fs::path f = dir / (std::string("p") + ext);
      write_pattern(f, p, {PatternColumns::native, {"written by the test"}});
      const Pattern1D r = read_pattern(f);
      EXPECT_EQ(r.axis, axis);
      EXPECT_EQ(r.x, p.x);
      EXPECT_EQ(r.y, p.y);
      EXPECT_EQ(r.sigma, p.sigma);
      ASSERT_TRUE(r.wavelength);
      EXPECT_EQ(*r.wavelength, 1.5406);
      EXPECT_EQ(r.metadata.at("Qmax"), "24.5");
    }
  }
  // Without σ (not .xye).
  const Pattern1D p = sample(PatternAxis::q, false);
  write_pattern(dir / "n.xy", p);
  const Pattern1D r = read_pattern(dir / "n.xy");
  EXPECT_TRUE(r.sigma.empty());
  EXPECT_EQ(r.y, p.y);
  expect_error([&] { write_pattern(dir / "n.xye", p); }, "n.xye: sigma: .xye needs σ");
  Pattern1D m = p;
  m.metadata["axis"] = "d";
  expect_error([&] { write_pattern(dir / "m.xy", m); }, "m.xy: metadata: key 'axis' is the writer's own");
  // Column names say the axis: the engines' text output ("# Q I") and 2θ.
  EXPECT_EQ(read_pattern(write_file(dir / "e.dat", "# debye\n# units: Q [1/Å], I [e²]\n# Q I\n1 2\n")).axis,
            PatternAxis::q);
  EXPECT_EQ(read_pattern(write_file(dir / "t.xy", "# 2theta I\n1 2\n")).axis, PatternAxis::two_theta);
  EXPECT_EQ(read_pattern(write_file(dir / "x.xy", "# x y\n1 2\n")).axis, PatternAxis::two_theta);
  EXPECT_EQ(read_pattern(dir / "x.xy", {PatternFormat::automatic, PatternAxis::q, {}, 10}).axis, PatternAxis::q);
  // A 'columns =' header naming one column let one-value rows reach the
  // x, y read (heap overflow found by fuzz_pattern_xy in CI's fresh clone).
  expect_error([&] { read_pattern(write_file(dir / "c.xy", "# q\n#columns = 51q\n 0.4\n")); },
               "c.xy:2: columns: names 1 column(s); a pattern has at least x and y");
  fs::remove_all(dir);
}

TEST(Pattern1D, WritesQAndTwoThetaColumns) {
  const fs::path dir = temp_dir();
  const Pattern1D p = sample(PatternAxis::two_theta, true);
  write_pattern(dir / "q.xye", p, {PatternColumns::q, {}});
  const Pattern1D q = read_pattern(dir / "q.xye");
  EXPECT_EQ(q.axis, PatternAxis::q);
  for (std::size_t i = 0; i < p.x.size(); ++i)
    EXPECT_NEAR(q.x[i], 4 * std::numbers::pi * std::sin(p.x[i] * std::numbers::pi / 360) / 1.5406, 1e-13);
  write_pattern(dir / "both.xye", p, {PatternColumns::both, {}});
  const Pattern1D b = read_pattern(dir / "both.xye");
  EXPECT_EQ(b.axis, PatternAxis::two_theta);
  EXPECT_EQ(b.x, p.x);
  EXPECT_EQ(b.sigma, p.sigma);
  // Back from Q to 2θ and to d (reversed, still increasing).
  const Pattern1D t = convert_pattern(q, PatternAxis::two_theta);
  for (std::size_t i = 0; i < p.x.size(); ++i) EXPECT_NEAR(t.x[i], p.x[i], 1e-11);
  const Pattern1D d = convert_pattern(q, PatternAxis::d);
  EXPECT_NEAR(d.x.front(), 2 * std::numbers::pi / q.x.back(), 1e-14);
  EXPECT_EQ(d.y.front(), q.y.back());
  fs::remove_all(dir);
}

TEST(Pattern1D, Conversions) {
  EXPECT_NEAR(q_from_two_theta(90, 1.0), 4 * std::numbers::pi * std::sqrt(0.5), 1e-14);
  EXPECT_NEAR(two_theta_from_q(q_from_two_theta(37.5, 0.7), 0.7), 37.5, 1e-12);
  EXPECT_NEAR(d_from_q(q_from_d(2.5)), 2.5, 1e-15);
  expect_error([] { two_theta_from_q(20, 1.0); }, "wavelength: Q = 20");
  Pattern1D p = sample(PatternAxis::two_theta, false);
  p.source = "p.xy";
  p.wavelength.reset();
  expect_error([&] { convert_pattern(p, PatternAxis::q); }, "p.xy: wavelength: converting two_theta to q needs");
  p.axis = PatternAxis::r;
  expect_error([&] { convert_pattern(p, PatternAxis::q); }, "p.xy: axis: cannot convert");
}

TEST(Pattern1D, PdfGuiGrHeader) {
  const fs::path dir = temp_dir();
  const fs::path f = write_file(dir / "ni.gr",
                                "History written: Mon Apr 30 2007\n"
                                "produced by the test\n"
                                "##### PDFgui\n"
                                "[DEFAULT]\n"
                                "qmax = 26.0\n"
                                "qdamp=0.0432 qbroad=0.011\n"
                                "stype=N\n"
                                "bank 1 145.0 2.59 37.0\n"  // numbers in the header are not data
                                "#### start data\n"
                                "#S 1\n"
                                "#L r($\\AA$)  G($\\AA^{-2}$)  dr($\\AA$)  dG($\\AA^{-2}$)\n"
                                "  0.01  0.1  -2.0  0.001\n"
                                "  0.02  0.3  -2.1  0.002\n"
                                "  0.03 -0.2   0.0  0.004\n");
  const Pattern1D p = read_pattern(f);
  EXPECT_EQ(p.axis, PatternAxis::r);
  EXPECT_EQ(p.x, (std::vector<double>{0.01, 0.02, 0.03}));
  EXPECT_EQ(p.y, (std::vector<double>{0.1, 0.3, -0.2}));
  EXPECT_EQ(p.sigma, (std::vector<double>{0.001, 0.002, 0.004}));  // dG, not dr
  EXPECT_EQ(p.metadata.at("Qmax"), "26.0");
  EXPECT_EQ(p.metadata.at("Qdamp"), "0.0432");
  EXPECT_EQ(p.metadata.at("Qbroad"), "0.011");
  EXPECT_EQ(p.metadata.at("stype"), "N");
  // Plain files: two and three columns (r G dG).
  const Pattern1D two = read_pattern(write_file(dir / "two.gr", "1 2\n2 3\n"));
  EXPECT_TRUE(two.sigma.empty());
  const Pattern1D three = read_pattern(write_file(dir / "three.gr", "# r G dG\n1 2 0.5\n2 3 0.25\n"));
  EXPECT_EQ(three.sigma, (std::vector<double>{0.5, 0.25}));
  expect_error([&] { read_pattern(write_file(dir / "s.gr", "stype=E\n#### start data\n1 2\n")); },
               "s.gr:1: stype: expected X or N");
  expect_error([&] { read_pattern(write_file(dir / "q.gr", "qmax=big\n#### start data\n1 2\n")); },
               "q.gr:1: Qmax: not a finite number");
  fs::remove_all(dir);
}

// PDFgetX2's long header (its Get_XPDF settings, ~120 lines in real files):
// keys that contain qmin/qmax (smoothqmin, optqmax, interpolateqmin_isa),
// sample rows of numbers and free text before "start data" are header; Qmin
// and Qmax come from the "## S(q)" line, the wavelength from lambda=, stype
// X from "Get_XPDF"; columns r G dr dG with negative dr.
TEST(Pattern1D, PdfGetX2LongHeader) {
  const fs::path dir = temp_dir();
  const fs::path f = write_file(dir / "x2.gr",
                                "History written:       Wed Jul 01 00:37:52 2025\n"
                                "####### Get_XPDF #######\n"
                                "##### General_Setting\n"
                                "quiet=0    debug=0    autosave_isa=1    savefilenamebase=sample.chi\n"
                                "det#  used  xcol detcol deterrcol xmin  xmax\n"
                                "  0    1    0    1    3    0.00000    35.0000\n"
                                "## X-Ray   radiationtype=3\n"
                                "           (0: Ag K_alpha, 1:Cu K_alpha, 2:Mo K_alpha, 3:Customize)\n"
                                "lambda=0.126514    energy=98.0010    polartype=2\n"
                                "#L symbol valence fractions z\n"
                                "  Ni    0.00   1.000000    28\n"
                                "smoothdata_isa=0    smoothfunctype=0    smoothqmin=12.0000\n"
                                "interpolateqmin_isa=0    qmininterpolationtype=0\n"
                                "## S(q)  qmin=1.000000    qmax=40.000000    qgrid=0.000000\n"
                                "optqmin=20.0000    optqmax=35.0000\n"
                                "##### start data\n"
                                "#F sample.chi.gr\n"
                                "#S 1    G(r)\n"
                                "#L r    G(r)    d_r    d_Gr\n"
                                "   1.000000e-02    -7.7e-02    -1.38e-02     3.13e-02\n"
                                "   2.000000e-02    -1.6e-01    -2.76e-02     6.05e-02\n");
  const Pattern1D p = read_pattern(f);
  EXPECT_EQ(p.x, (std::vector<double>{0.01, 0.02}));
  EXPECT_EQ(p.sigma, (std::vector<double>{3.13e-02, 6.05e-02}));
  EXPECT_EQ(p.metadata.at("Qmax"), "40.000000");
  EXPECT_EQ(p.metadata.at("Qmin"), "1.000000");
  EXPECT_EQ(p.metadata.at("stype"), "X");
  ASSERT_TRUE(p.wavelength);
  EXPECT_DOUBLE_EQ(*p.wavelength, 0.126514);
  fs::remove_all(dir);
}

TEST(Pattern1D, PyFaiAndFit2dChi) {
  const fs::path dir = temp_dir();
  const Pattern1D q = read_pattern(write_file(dir / "q.chi",
                                              "# == pyFAI calibration ==\n"
                                              "# Distance Sample to Detector: 0.2 m\n"
                                              "# Wavelength: 1.0332e-10 m\n"
                                              "# --> q.chi\n"
                                              "#       q_nm^-1             I \n"
                                              "  1.0  10\n  2.0  20\n  3.0  15\n"));
  EXPECT_EQ(q.axis, PatternAxis::q);
  EXPECT_NEAR(q.x[0], 0.1, 1e-15);
  EXPECT_NEAR(q.x[2], 0.3, 1e-15);
  ASSERT_TRUE(q.wavelength);
  EXPECT_NEAR(*q.wavelength, 1.0332, 1e-12);
  const Pattern1D t = read_pattern(write_file(dir / "t.chi",
                                              "# pyFAI\n#       2th_deg             I     sigma\n"
                                              "  1.0  10 1\n  2.0  20 2\n"));
  EXPECT_EQ(t.axis, PatternAxis::two_theta);
  EXPECT_EQ(t.sigma, (std::vector<double>{1, 2}));
  const Pattern1D a = read_pattern(write_file(dir / "a.chi", "#   q_A^-1   I\n 0.5 1\n 0.6 2\n"));
  EXPECT_EQ(a.axis, PatternAxis::q);
  EXPECT_EQ(a.x[0], 0.5);
  const Pattern1D f = read_pattern(write_file(dir / "f.chi",
                                              "sample title\n2-Theta Angle (Degrees)\nIntensity\n       3\n"
                                              " 1.0 5\n 1.5 6\n 2.0 7\n"));
  EXPECT_EQ(f.axis, PatternAxis::two_theta);
  EXPECT_EQ(f.x.size(), 3u);
  expect_error([&] { read_pattern(write_file(dir / "g.chi", "title\n2-Theta Angle (Degrees)\nIntensity\n 4\n1 5\n2 6\n")); },
               "g.chi:4: points: Fit2D header says 4 points, the file has 2");
  expect_error([&] { read_pattern(write_file(dir / "r.chi", "#  r_mm  I\n1 2\n")); }, "r.chi:1: unit: unsupported");
  expect_error([&] { read_pattern(dir / "q.chi", {PatternFormat::automatic, PatternAxis::two_theta, {}, 1000}); },
               "q.chi:5: axis: the file's axis is q, not two_theta");
  fs::remove_all(dir);
}

TEST(Pattern1D, GsasFxyeConsBank) {
  const fs::path dir = temp_dir();
  const fs::path f = write_file(dir / "s.fxye",
                                "Sample title from GSAS\n"
                                "Instrument parameter file:inst.prm\n"
                                "BANK 1 4 4 CONS 1000.0 5.0 0 0 FXYE\n"
                                "  1000.0  120.5  11.0\n"
                                "  1005.0  130.0  11.4\n"
                                "  1010.0  125.0  11.2\n"
                                "  1015.0  140.0  11.8\n"
                                "BANK 2 2 2 CONS 2000.0 5.0 0 0 FXYE\n"
                                "  2000.0  1.0  1.0\n  2005.0  1.0  1.0\n");
  const Pattern1D p = read_pattern(f, {PatternFormat::automatic, {}, 1.5406, 1000});
  EXPECT_EQ(p.axis, PatternAxis::two_theta);
  EXPECT_EQ(p.x, (std::vector<double>{10.0, 10.05, 10.1, 10.15}));
  EXPECT_EQ(p.sigma.size(), 4u);
  EXPECT_EQ(p.metadata.at("bank"), "1");
  EXPECT_EQ(*p.wavelength, 1.5406);
  expect_error([&] { read_pattern(write_file(dir / "t.fxye", "t\nBANK 1 4 4 RALF 1 2 3 4 FXYE\n1 2 3\n")); },
               "t.fxye:2: BANK: binning 'RALF' is not supported");
  expect_error([&] { read_pattern(write_file(dir / "n.fxye", "t\nBANK 1 3 3 CONS 1000 5 0 0 FXYE\n1000 1 1\n")); },
               "n.fxye:2: nchan: the BANK line says 3 channels, the bank has 1");
  expect_error([&] { read_pattern(write_file(dir / "h.fxye", "t\nBANK 1 1000000000 3 CONS 1000 5 0 0 FXYE\n")); },
               "h.fxye:2: nchan: 1e+09 channels is more than the reader's limit");
  fs::remove_all(dir);
}

TEST(Pattern1D, BadInputs) {
  const fs::path dir = temp_dir();
  auto bad = [&](const char* name, const std::string& text, const std::string& message) {
    SCOPED_TRACE(name);
    write_file(dir / name, text);
    expect_error([&] { read_pattern(dir / name); }, message);
  };
  bad("dup.xy", "1 2\n2 3\n2 4\n", "dup.xy:3: x: duplicate x 2 (as on line 2)");
  bad("dec.xy", "# h\n1 2\n3 3\n2 4\n", "dec.xy:4: x: x not increasing: 2 after 3 on line 3");
  bad("neg.xye", "1 2 0.1\n2 3 -0.1\n", "neg.xye:2: sigma: negative σ: -0.1");
  bad("nan.xy", "1 2\n2 nan\n", "nan.xy:2: y: not a finite number: nan");
  bad("inf.xy", "1 2\ninf 3\n", "inf.xy:2: x: not a finite number: inf");
  bad("empty.xy", "# only a header\n\n", "empty.xy:2: no data rows");
  bad("cols.xye", "1 2\n", "cols.xye:1: columns: row has 2 values; .xye has three");
  bad("cols.xy", "1 2 3 4\n", "cols.xy:1: columns: row has 4 values; expected two or three");
  bad("ragged.xy", "1 2 3\n2 3\n", "ragged.xy:2: columns: row has 2 values, the first row had 3");
  bad("word.xy", "1 2\n2 abc\n", "word.xy:2: column 2: not a number: 'abc'");
  bad("cols.gr", "1 2 3 4 5\n", "cols.gr:1: columns: row has 5 values; .gr has two to four");
  bad("axis.xy", "# axis = k\n1 2\n", "axis.xy:1: axis: unknown axis 'k'");
  write_file(dir / "named.dat", "# units: Q [1/Å], I [e²]\n# Q I\n1 2\n");
  expect_error([&] { read_pattern(dir / "named.dat", {PatternFormat::automatic, PatternAxis::d, {}, 10}); },
               "named.dat:2: axis: the file's axis is q, not d");
  expect_error([&] { read_pattern(dir / "p.cif"); }, "p.cif: format: unknown extension '.cif'");
  expect_error([&] { read_pattern(dir / "missing.xy"); }, "missing.xy: cannot open file");
  write_file(dir / "many.xy", "1 1\n2 2\n3 3\n4 4\n");
  expect_error([&] { read_pattern(dir / "many.xy", {PatternFormat::automatic, {}, {}, 3}); },
               "many.xy:4: rows: more than 3 data rows");
  fs::remove_all(dir);
}

// Random grids, values and magnitudes: the writer's 17 digits read back bit for bit.
TEST(Pattern1D, PropertyRoundTripRandom) {
  const fs::path dir = temp_dir();
  const int cases = test::property_cases(20);
  for (int k = 0; k < cases; ++k) {
    const std::uint64_t seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    const int n = 1 + int(u(rng) * 500);
    const double scale = std::pow(10.0, -8 + 16 * u(rng));
    Pattern1D p;
    p.axis = static_cast<PatternAxis>(int(u(rng) * 4) % 4);
    double x = (u(rng) - 0.5) * scale;
    for (int i = 0; i < n; ++i) {
      x = std::nextafter(x + u(rng) * scale * 1e-3, INFINITY);
      p.x.push_back(x);
      p.y.push_back((u(rng) - 0.3) * std::pow(10.0, -30 + 60 * u(rng)));
      p.sigma.push_back(u(rng) * std::pow(10.0, -20 + 40 * u(rng)));
    }
    if (u(rng) < 0.5) p.wavelength = 0.1 + u(rng);
    const fs::path f = dir / (u(rng) < 0.5 ? "r.xye" : "r.dat");
    write_pattern(f, p);
    const Pattern1D r = read_pattern(f);
    ASSERT_EQ(r.axis, p.axis);
    ASSERT_EQ(r.x, p.x);
    ASSERT_EQ(r.y, p.y);
    ASSERT_EQ(r.sigma, p.sigma);
    ASSERT_EQ(r.wavelength, p.wavelength);
  }
  fs::remove_all(dir);
}

// 2θ → Q → 2θ and Q → d → Q for random wavelengths and angles, against
// Bragg's law λ = 2 d sin θ.
TEST(Pattern1D, PropertyConversionsRandom) {
  const int cases = test::property_cases(200);
  for (int k = 0; k < cases; ++k) {
    const std::uint64_t seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    const double lambda = 0.05 + 3 * u(rng);
    const double tth = 1e-3 + 179 * u(rng);
    const double q = q_from_two_theta(tth, lambda);
    EXPECT_NEAR(two_theta_from_q(q, lambda), tth, 1e-10 * std::max(1.0, tth));
    const double d = d_from_q(q);
    EXPECT_NEAR(2 * d * std::sin(tth * std::numbers::pi / 360), lambda, 1e-13 * lambda);
    EXPECT_NEAR(q_from_d(d), q, 1e-14 * q);
  }
}

// Real PDFs (not in the repository): NS_REAL_DATA_DIR names the folder
// holding pdf_ni/ and pdf_c60/; skipped without it.
TEST(Pattern1D, RealPdfFiles) {
  const char* root = std::getenv("NS_REAL_DATA_DIR");
  if (!root || !fs::exists(fs::path(root) / "pdf_ni" / "Ni-xray.gr"))
    GTEST_SKIP() << "set NS_REAL_DATA_DIR to the folder with pdf_ni/ and pdf_c60/ to run this";
  const Pattern1D x = read_pattern(fs::path(root) / "pdf_ni" / "Ni-xray.gr");
  EXPECT_EQ(x.axis, PatternAxis::r);
  EXPECT_EQ(x.x.size(), 2000u);
  EXPECT_EQ(x.x.front(), 0.01);
  EXPECT_EQ(x.x.back(), 20.0);
  EXPECT_EQ(x.sigma.size(), 2000u);
  EXPECT_EQ(std::stod(x.metadata.at("Qmax")), 40.0);
  EXPECT_EQ(std::stod(x.metadata.at("Qmin")), 1.0);
  EXPECT_EQ(x.metadata.at("stype"), "X");
  ASSERT_TRUE(x.wavelength);
  EXPECT_EQ(*x.wavelength, 0.126514);
  const Pattern1D n = read_pattern(fs::path(root) / "pdf_ni" / "Ni-neutron.gr");
  EXPECT_EQ(n.x.size(), 2000u);
  EXPECT_EQ(std::stod(n.metadata.at("Qmax")), 27.0);
  EXPECT_EQ(n.metadata.at("stype"), "N");
  const Pattern1D c = read_pattern(fs::path(root) / "pdf_c60" / "C60.gr");
  EXPECT_EQ(c.x.size(), 1999u);
  EXPECT_EQ(c.sigma.size(), 1999u);
  EXPECT_TRUE(c.metadata.empty());
}

}  // namespace
}  // namespace nanoscatter
