// pattern2d options: Pattern2DOptions::validate and make_pattern2d_geometry
// are the only checks of what the CLI and Python pass in; their messages
// name the field (Where::option), which each front end prints as its flag
// or keyword.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/pattern2d.hpp"
#include "nanoscatter/pattern2d_output.hpp"

using namespace nanoscatter;

namespace {

// "field: reason" of the Error `f` throws, with Where::option checked.
std::string option_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_TRUE(e.where().option) << e.what();
    return e.what();
  }
  return "";
}

Pattern2DGeometryOptions polar() {
  Pattern2DGeometryOptions g;
  g.wavelength = 1.0;
  g.qmax = 4.0;
  g.nq = 8;
  g.nphi = 12;
  return g;
}

Pattern2DGeometryOptions flat() {
  Pattern2DGeometryOptions g;
  g.wavelength = 1.0;
  g.flat = true;
  g.distance = 100.0;
  g.pixel_size = 0.5;
  g.nx = 4;
  g.ny = 3;
  return g;
}

std::string geometry_error(const Pattern2DGeometryOptions& g) {
  return option_error([&] { make_pattern2d_geometry(g); });
}

}  // namespace

TEST(Pattern2DOptions, ValidateNamesTheField) {
  Pattern2DOptions o;
  EXPECT_EQ(option_error([&] { o.validate(); }), "");
  o.compute.threads = -1;
  EXPECT_EQ(option_error([&] { o.validate(); }), "threads: must be ≥ 0 (0: all cores), got -1");
  o.compute.threads = 0;
  o.anomalous = true;
  o.radiation = Radiation::neutron;
  EXPECT_EQ(option_error([&] { o.validate(); }), "anomalous: only used with X-rays (radiation xray)");
  o.radiation = Radiation::xray;
  EXPECT_EQ(option_error([&] { o.validate(); }), "");
  o.factors.energy_kev = 8.0;  // a second energy besides the wavelength's
  EXPECT_EQ(option_error([&] { o.validate(); }).rfind("anomalous: ", 0), 0u);
}

TEST(Pattern2DOptions, GeometryFromGivenValues) {
  Pattern2DGeometryOptions o = polar();
  o.euler_zyz = {10, 20, 30};
  o.beam = {0, 1, 1};
  o.no_curvature = true;
  const Pattern2DGeometry g = make_pattern2d_geometry(o);
  EXPECT_EQ(g.wavelength, 1.0);
  EXPECT_FALSE(g.curvature);
  EXPECT_EQ(g.beam_direction.y, 1.0);
  const Mat3 r = rotation_zyz_degrees(10, 20, 30);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(g.orientation.row[i][j], r.row[i][j]);
  const auto& d = std::get<PolarDetector>(g.detector);
  EXPECT_EQ(d.qmax, 4.0);
  EXPECT_EQ(d.nq, 8);
  EXPECT_EQ(d.nphi, 12);

  Pattern2DGeometryOptions f = flat();
  f.rotation = {0, -1, 0, 1, 0, 0, 0, 0, 1};
  f.direct_beam = {2, 1};  // from the corner: pixel (1.5, 0.5) counted from pixel (0, 0)'s centre
  const Pattern2DGeometry h = make_pattern2d_geometry(f);
  EXPECT_EQ(h.orientation.row[0][1], -1.0);
  const auto& fd = std::get<FlatDetector>(h.detector);
  EXPECT_EQ(fd.nx, 4);
  ASSERT_TRUE(fd.beam_center.has_value());
  EXPECT_EQ((*fd.beam_center)[0], 1.5);
}

TEST(Pattern2DOptions, GeometryRulesNameTheField) {
  auto g = polar();
  g.wavelength.reset();
  EXPECT_EQ(geometry_error(g), "wavelength: required (Å)");
  g = polar();
  g.nphi.reset();
  EXPECT_EQ(geometry_error(g), "nphi: required for the polar detector (or set flat for a flat detector)");
  g = polar();
  g.pixel_size = 1.0;
  EXPECT_EQ(geometry_error(g), "pixel_size: only used with a flat detector");
  g = polar();
  g.direct_beam = {1, 2};
  EXPECT_EQ(geometry_error(g), "direct_beam: only used with a flat detector");
  g = flat();
  g.nq = 8;
  EXPECT_EQ(geometry_error(g), "nq: not used with a flat detector");
  g = flat();
  g.ny.reset();
  EXPECT_EQ(geometry_error(g), "ny: required with a flat detector");
  g = polar();
  g.euler_zyz = {1, 2, 3};
  g.rotation = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  EXPECT_EQ(geometry_error(g),
            "rotation: the orientation is given twice (Euler angles and a rotation matrix); give one");
  g = polar();
  g.euler_zyz = {1, 2};
  EXPECT_EQ(geometry_error(g), "euler_zyz: expected 3 values (α β γ, degrees), got 2");
  g = flat();
  g.direct_beam = {1, 2, 3};
  EXPECT_EQ(geometry_error(g), "direct_beam: expected 2 values (x y, pixels from the lower-left corner), got 3");
  // The values themselves: validate_geometry's messages.
  g = polar();
  g.nq = 0;
  EXPECT_EQ(geometry_error(g), "nq: must be at least 1, got 0");
}

TEST(Pattern2DOptions, OutputsAreCheckedBeforeAnyWork) {
  Pattern2DOptions o;
  EXPECT_EQ(option_error([&] { check_pattern2d_outputs("img.h5", "", o); }), "");
  EXPECT_EQ(option_error([&] { check_pattern2d_outputs("", "", o); }), "");  // nothing to write
  EXPECT_EQ(option_error([&] { check_pattern2d_outputs("img.xyz", "", o); }),
            "img.xyz: output: pattern2d writes HDF5 (.h5, .hdf5), text (.dat, .txt, .csv) or a picture (.png)");
  EXPECT_EQ(option_error([&] { check_pattern2d_outputs("img.h5", "look.dat", o); }),
            "look.dat: png: expects a png file name");
  EXPECT_EQ(option_error([&] { check_pattern2d_outputs("img.png", "", o); }), "");
  o.amplitude = true;
  EXPECT_EQ(option_error([&] { check_pattern2d_outputs("img.png", "", o); }),
            "img.png: amplitude: a .png output cannot hold the amplitude; use .h5 or text");
}
