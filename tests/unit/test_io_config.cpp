// TOML configuration: typed getters, and errors that name file, line and key.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>

#include "nanoscatter/config.hpp"
#include "nanoscatter/error.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

// Line numbers matter in the tests below: keep this text as it is.
const char* const sample_toml = R"(# GISAXS sample (line 1)
title = "Au spheres on Si"
wavelength = 0.1        # nm
beam_count = 3
verbose = true
angles = [0.1, 0.2,
          0.3]

[particle]
material = "Au"

[particle.shape]
radiuss = 5.0
height = 10

[[layer]]
name = "vacuum"
thickness = 0.0

[[layer]]
name = "Si"
thickness = 5
roughness = { sigma = 0.3 }
)";

using test::error_of;

int error_line(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.where().line;
  }
  return -1;
}

}  // namespace

TEST(IoConfig, ValidFileParses) {
  test::TempDir dir("io_config_valid");
  std::ofstream(dir / "sample.toml") << sample_toml;
  const ConfigTable root = load_config(dir / "sample.toml");
  EXPECT_EQ(root.file(), (dir / "sample.toml").string());
  EXPECT_EQ(root.get_string("title"), "Au spheres on Si");
  EXPECT_EQ(root.get_double("wavelength"), 0.1);
  EXPECT_EQ(root.get_int("beam_count"), 3);
  EXPECT_EQ(root.get_double("beam_count"), 3.0);  // integers are numbers too
  EXPECT_TRUE(root.get_bool("verbose"));
  EXPECT_EQ(root.get_array_of_doubles("angles"), (std::vector<double>{0.1, 0.2, 0.3}));
  EXPECT_EQ(root.get_double_or("energy", 8.04), 8.04);
  EXPECT_EQ(root.get_int_or("beam_count", 7), 3);
  EXPECT_EQ(root.get_string_or("mode", "dwba"), "dwba");
  EXPECT_FALSE(root.get_bool_or("quiet", false));
  EXPECT_TRUE(root.has("particle"));
  EXPECT_FALSE(root.has("absent"));
  EXPECT_EQ(root.keys(), (std::vector<std::string>{"title", "wavelength", "beam_count", "verbose",
                                                   "angles", "particle", "layer"}));

  const ConfigTable particle = root.get_table("particle");
  EXPECT_EQ(particle.path(), "particle");
  EXPECT_EQ(particle.where().line, 9);
  EXPECT_EQ(particle.get_string("material"), "Au");
  const ConfigTable shape = particle.get_table("shape");
  EXPECT_EQ(shape.path(), "particle.shape");
  EXPECT_EQ(shape.get_double("height"), 10.0);
  EXPECT_EQ(shape.where("height").line, 14);
  EXPECT_EQ(shape.where("height").field, "particle.shape.height");

  const auto layers = root.get_array_of_tables("layer");
  ASSERT_EQ(layers.size(), 2u);
  EXPECT_EQ(layers[0].path(), "layer[0]");
  EXPECT_EQ(layers[1].get_string("name"), "Si");
  EXPECT_EQ(layers[1].get_double("thickness"), 5.0);
  EXPECT_EQ(layers[1].get_table("roughness").get_double("sigma"), 0.3);
  EXPECT_EQ(layers[1].where("thickness").line, 22);
  layers[1].check_keys({"name", "thickness", "roughness"});  // all known: no throw
}

TEST(IoConfig, UnknownKeyNamesFileLineAndTable) {
  test::TempDir dir("io_config_unknown");
  const auto path = dir / "sample.toml";
  std::ofstream(path) << sample_toml;
  const ConfigTable shape = load_config(path).get_table("particle").get_table("shape");
  EXPECT_EQ(error_of([&] { shape.check_keys({"radius", "height"}); }),
            path.string() + ":13: particle.shape: unknown key 'radiuss'; allowed: radius, height");
  // The first unknown key in file order is reported (toml++ sorts by name).
  const ConfigTable root = load_config(path);
  EXPECT_EQ(error_line([&] { root.check_keys({"title", "particle", "layer"}); }), 3);  // wavelength
}

TEST(IoConfig, SyntaxErrorNamesFileAndLine) {
  const std::string text = "a = 1\nb = 2\nc = = 3\n";
  try {
    parse_config(text, "broken.toml");
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().file, "broken.toml");
    EXPECT_EQ(e.where().line, 3);
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("broken.toml:3: syntax error at column ", 0), 0u) << msg;
  }
  // A duplicate key is a TOML error too, reported where it repeats.
  EXPECT_EQ(error_line([] { parse_config("x = 1\n\nx = 2\n", "dup.toml"); }), 3);
  // An unterminated table header.
  EXPECT_EQ(error_line([] { parse_config("[ok]\nv = 1\n[broken\n", "h.toml"); }), 3);
}

TEST(IoConfig, WrongTypeAndMissingKeyNameTheKey) {
  const std::string text =
      "[particle]\n"
      "radius = \"big\"\n"
      "count = 2.5\n"
      "flag = 1\n"
      "name = 3\n"
      "values = [1.0,\n"
      "  \"two\", 3.0]\n"
      "bad = nan\n"
      "sub = 4\n";
  const ConfigTable p = parse_config(text, "s.toml").get_table("particle");
  EXPECT_EQ(error_of([&] { p.get_double("radius"); }),
            "s.toml:2: particle.radius: expected a number, found a string");
  EXPECT_EQ(error_of([&] { p.get_double_or("radius", 1.0); }),
            "s.toml:2: particle.radius: expected a number, found a string");
  EXPECT_EQ(error_of([&] { p.get_int("count"); }),
            "s.toml:3: particle.count: expected an integer, found a floating-point number");
  EXPECT_EQ(error_of([&] { p.get_bool("flag"); }),
            "s.toml:4: particle.flag: expected true or false, found an integer");
  EXPECT_EQ(error_of([&] { p.get_string("name"); }),
            "s.toml:5: particle.name: expected a string, found an integer");
  EXPECT_EQ(error_of([&] { p.get_array_of_doubles("values"); }),
            "s.toml:7: particle.values[1]: expected a number, found a string");
  EXPECT_EQ(error_of([&] { p.get_double("bad"); }),
            "s.toml:8: particle.bad: expected a finite number, found nan");
  EXPECT_EQ(error_of([&] { p.get_table("sub"); }),
            "s.toml:9: particle.sub: expected a table, found an integer");
  EXPECT_EQ(error_of([&] { p.get_array_of_tables("sub"); }),
            "s.toml:9: particle.sub: expected an array of tables ([[sub]]), found an integer");
  // Missing keys: the table's header line and the full key.
  EXPECT_EQ(error_of([&] { p.get_double("height"); }), "s.toml:1: particle.height: missing required key");
  const ConfigTable root = parse_config(text, "s.toml");
  EXPECT_EQ(error_of([&] { root.get_string("title"); }), "s.toml: title: missing required key");
  // where() lets callers report their own range checks at the value.
  EXPECT_EQ(error_of([&] { fail_at(p.where("flag"), "must be > 1"); }), "s.toml:4: particle.flag: must be > 1");
}

TEST(IoConfig, ArrayOfTablesElementsAreNamed) {
  const ConfigTable root = parse_config("layers = [ { d = 1 }, 5 ]\n", "a.toml");
  EXPECT_EQ(error_of([&] { root.get_array_of_tables("layers"); }),
            "a.toml:1: layers[1]: expected a table, found an integer");
  const ConfigTable ok = parse_config("layers = [ { d = 1 }, { d = 2.5 } ]\n", "a.toml");
  const auto layers = ok.get_array_of_tables("layers");
  ASSERT_EQ(layers.size(), 2u);
  EXPECT_EQ(layers[1].get_double("d"), 2.5);
  EXPECT_EQ(error_of([&] { layers[1].check_keys({"thickness"}); }),
            "a.toml:1: layers[1]: unknown key 'd'; allowed: thickness");
  EXPECT_EQ(parse_config("s = [\"Au\", \"Pd\"]\n", "b.toml").get_array_of_strings("s"),
            (std::vector<std::string>{"Au", "Pd"}));
}

TEST(IoConfig, MissingFileIsAnError) {
  EXPECT_EQ(error_of([] { load_config("/nonexistent-dir/sample.toml"); }),
            "/nonexistent-dir/sample.toml: cannot open configuration file");
}

TEST(IoConfig, ViewsOutliveTheirParents) {
  // A nested view keeps the parsed document alive after the root is gone.
  ConfigTable inner = [] { return parse_config("[a.b]\nx = 4\n", "n.toml").get_table("a"); }().get_table("b");
  EXPECT_EQ(inner.get_int("x"), 4);
  EXPECT_EQ(inner.path(), "a.b");
}

TEST(IoConfig, EmptyViewIsAnErrorNotACrash) {
  const ConfigTable empty;
  EXPECT_THROW(empty.get_double("x"), Error);
  EXPECT_THROW(empty.has("x"), Error);
  EXPECT_EQ(empty.file(), "");
}
