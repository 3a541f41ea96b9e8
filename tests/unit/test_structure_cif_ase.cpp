// read_cif against an independent implementation: ASE (python3-ase, via
// tools/ase_expand_cif.py) reads the same CIF files, expands the symmetry
// operations itself, and we compare species and fractional positions.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "nanoscatter/structure_io.hpp"
#include "structure/symmetry.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

struct SiteRecord {
  std::string element;
  Vec3 fractional;
};

bool ase_available() {
  return test::run_command(std::string(NS_SYSTEM_PYTHON) + " -c 'import ase.io'").exit_code == 0;
}

struct AseResult {
  Vec3 lattice[3];  // a, b, c in Cartesian Å
  std::vector<SiteRecord> sites;
};

AseResult ase_expand(const std::string& cif) {
  const std::string script = std::string(NS_TEST_DATA_DIR) + "/../../tools/ase_expand_cif.py";
  // Warnings go to stderr, which run_command merges: keep only stdout.
  const auto result =
      test::run_command(std::string(NS_SYSTEM_PYTHON) + " -W ignore " + script + " " + cif + " 2>/dev/null");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  AseResult out;
  std::istringstream in(result.output);
  std::string word;
  in >> word;
  EXPECT_EQ(word, "cell") << result.output;
  for (auto& v : out.lattice) in >> v.x >> v.y >> v.z;
  SiteRecord s;
  while (in >> s.element >> s.fractional.x >> s.fractional.y >> s.fractional.z) out.sites.push_back(s);
  return out;
}

void compare_with_ase(const std::string& cif) {
  const AseResult ase = ase_expand(cif);
  const auto& reference = ase.sites;
  ASSERT_FALSE(reference.empty()) << cif;
  const Structure s = read_cif(cif);
  ASSERT_EQ(s.atoms.size(), reference.size()) << cif;

  std::vector<SiteRecord> ours;
  for (const Atom& atom : s.atoms) ours.push_back({atom.element, s.cell->to_fractional(atom.position)});
  // Species: equal multisets.
  auto species = [](std::vector<SiteRecord> v) {
    std::vector<std::string> e;
    for (const auto& r : v) e.push_back(r.element);
    std::sort(e.begin(), e.end());
    return e;
  };
  EXPECT_EQ(species(ours), species(reference)) << cif;
  // Positions: one-to-one matching with the periodic wrap. 1e-6 fractional:
  // ASE prints 12 decimals and both sides round a few O(1) products, while
  // distinct atoms are ≥ 0.05 apart in these cells, so the match is unique.
  std::vector<bool> used(ours.size(), false);
  for (const auto& ref : reference) {
    bool found = false;
    for (std::size_t i = 0; i < ours.size() && !found; ++i)
      if (!used[i] && ours[i].element == ref.element && periodic_distance(ours[i].fractional, ref.fractional) <= 1e-6) {
        used[i] = true;
        found = true;
      }
    EXPECT_TRUE(found) << cif << ": ASE has " << ref.element << " at " << ref.fractional.x << " "
                       << ref.fractional.y << " " << ref.fractional.z << " and read_cif has no match";
  }
  // ASE orients cells as we do (a along x, b in the xy plane), so the
  // Cartesian lattice vectors must agree too; 1e-9 Å covers ASE's 12 printed
  // decimals and the rounding of cos/sin of the angles.
  const Mat3 ours_lattice = s.cell->lattice_vectors();
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(ours_lattice.column(j)[k], ase.lattice[j][k], 1e-9) << cif;
}

}  // namespace

class StructureCifAse : public ::testing::TestWithParam<std::string> {};

TEST_P(StructureCifAse, ExpansionMatchesAse) {
  if (!ase_available()) GTEST_SKIP() << NS_SYSTEM_PYTHON << " has no ASE (python3-ase)";
  compare_with_ase(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Files, StructureCifAse,
    ::testing::Values(std::string(NS_TEST_DATA_DIR "/mgo_rocksalt.cif"), std::string(NS_TEST_DATA_DIR "/zno_wurtzite.cif"),
                      std::string(NS_TEST_DATA_DIR "/zro2_monoclinic.cif"),
                      std::string(NS_TEST_DATA_DIR "/triclinic_p-1.cif"),
                      std::string(NS_TEST_DATA_DIR "/debye-xansons-nacl/NaCl.cif")),
    [](const ::testing::TestParamInfo<std::string>& info) {
      const std::string name = std::filesystem::path(info.param).stem().string();
      std::string clean;
      for (char ch : name) clean += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
      return clean;
    });
