// BuildOptions: the checks of `nanoscatter build` and nanoscatter.build()
// name the option at fault (the CLI prints it as its flag, Python as its
// keyword), and a source in memory builds what its file builds.
#include <gtest/gtest.h>

#include <string>

#include "nanoscatter/build_options.hpp"
#include "nanoscatter/error.hpp"

using namespace nanoscatter;

namespace {

BuildOptions gold_sphere() {
  BuildOptions o;
  o.lattice = "fcc";
  o.a = 4.078;
  o.elements = {"Au"};
  o.shape = "sphere";
  o.radius = 8;
  return o;
}

// The option an error names, "" when it names none.
std::string option_at_fault(const BuildOptions& o) {
  try {
    build_structure(o);
  } catch (const Error& e) {
    return e.where().option ? e.where().field : "";
  }
  return "(none)";
}

}  // namespace

TEST(BuildOptions, EachBadValueNamesItsOption) {
  auto with = [](auto change) {
    BuildOptions o = gold_sphere();
    change(o);
    return option_at_fault(o);
  };
  EXPECT_EQ(with([](BuildOptions&) {}), "(none)");
  EXPECT_EQ(with([](BuildOptions& o) { o.input = std::string("x.xyz"); }), "lattice");  // two sources
  EXPECT_EQ(with([](BuildOptions& o) { o.lattice = "fcx"; }), "lattice");
  EXPECT_EQ(with([](BuildOptions& o) { o.a.reset(); }), "a");
  EXPECT_EQ(with([](BuildOptions& o) { o.a = -1; }), "a");
  EXPECT_EQ(with([](BuildOptions& o) { o.elements = {"Au", "Pd"}; }), "elements");
  EXPECT_EQ(with([](BuildOptions& o) { o.shape.clear(); }), "shape");  // a crystal needs a cut
  EXPECT_EQ(with([](BuildOptions& o) { o.shape = "blob"; }), "shape");
  EXPECT_EQ(with([](BuildOptions& o) { o.edge = 3; }), "edge");
  EXPECT_EQ(with([](BuildOptions& o) { o.radius = -2; }), "radius");
  EXPECT_EQ(with([](BuildOptions& o) { o.planes = std::vector<Plane>{}; }), "planes");  // with a shape
  EXPECT_EQ(with([](BuildOptions& o) { o.vacancy_elements = {"Au"}; }), "vacancy_elements");
  EXPECT_EQ(with([](BuildOptions& o) { o.vacancies = 1.5; }), "vacancies");    // add_vacancies' "fraction"
  EXPECT_EQ(with([](BuildOptions& o) { o.displace = -0.1; }), "displace");     // displace_atoms' "rms"
  EXPECT_EQ(with([](BuildOptions& o) { o.b_factor = {{"Pd", 0.5}}; }), "b_factor");
  EXPECT_EQ(with([](BuildOptions& o) {
              Placement tilted;
              tilted.rotation.row[0][0] = 2;  // not a rotation
              o.placements = std::vector<Placement>{tilted};
            }),
            "placements");  // make_ensemble's "rotation"
}

TEST(BuildOptions, ValidateNeedsNoFile) {
  BuildOptions o;
  o.input = std::string("no/such/file.xyz");
  o.a = 4;
  try {
    o.validate();
    FAIL() << "a without a lattice passed";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().field, "a");
    EXPECT_EQ(e.reason(), "only used with --lattice");
  }
}

TEST(BuildOptions, StructureInMemoryCropsAsItsFileWould) {
  const Structure cube = [] {
    BuildOptions o = gold_sphere();
    o.shape = "cube";
    o.radius.reset();
    o.edge = 14;
    return build_structure(o);
  }();
  BuildOptions crop;
  crop.input = cube;
  crop.shape = "sphere";
  crop.radius = 5;
  BuildOptions direct = gold_sphere();
  direct.radius = 5;
  EXPECT_EQ(build_structure(crop).atoms.size(), build_structure(direct).atoms.size());
}
