// Formal charges read from files, on drawn values: the XYZ charge column and
// the CIF oxidation numbers take whole numbers within ±max_formal_charge and
// refuse the rest with an error, never a cast that overflows (fuzz_xyz found
// 1.1e11 reaching int). The rule checked here is the documented one, written
// out again, not the readers' code.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "nanoscatter/error.hpp"
#include "nanoscatter/structure.hpp"
#include "nanoscatter/structure_io.hpp"
#include "property_seed.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

// A charge as a file could hold it: small whole numbers on both sides of the
// limit, whole numbers up to 1e300, or values with a fraction.
double draw_charge(std::mt19937_64& rng) {
  const double sign = std::bernoulli_distribution(0.5)(rng) ? 1 : -1;
  switch (std::uniform_int_distribution<int>(0, 2)(rng)) {
    case 0: return double(std::uniform_int_distribution<int>(-2 * max_formal_charge, 2 * max_formal_charge)(rng));
    case 1: return sign * std::round(std::pow(10.0, std::uniform_real_distribution<double>(2, 300)(rng)));
    default: return sign * (std::uniform_int_distribution<int>(0, 200)(rng) + 0.5 * std::uniform_real_distribution<double>(0.01, 1.99)(rng));
  }
}

std::string text_of(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

bool is_allowed_charge(double v) { return v == std::round(v) && std::abs(v) <= max_formal_charge; }

}  // namespace

TEST(StructureCharges, DrawnValuesAreReadExactlyWhenWholeAndWithinTheLimit) {
  test::TempDir dir("charges");
  const auto xyz = (dir / "c.xyz").string(), cif = (dir / "c.cif").string(), back = (dir / "back.xyz").string();
  const std::string cell =
      "_cell_length_a 4\n_cell_length_b 4\n_cell_length_c 4\n"
      "_cell_angle_alpha 90\n_cell_angle_beta 90\n_cell_angle_gamma 90\n";
  const int cases = test::property_cases(200);
  for (int k = 0; k < cases; ++k) {
    const auto seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    const double v = draw_charge(rng);
    const bool whole = v == std::round(v), allowed = is_allowed_charge(v);
    SCOPED_TRACE("charge " + text_of(v));

    std::ofstream(xyz) << "1\nProperties=species:S:1:pos:R:3:charge:I:1\nMg 0 0 0 " << text_of(v) << "\n";
    if (allowed) {
      const Structure s = read_structure(xyz);
      EXPECT_EQ(s.atoms.at(0).charge, v);
      write_structure(back, s, "");
      EXPECT_EQ(read_structure(back).atoms.at(0).charge, v);
    } else {
      EXPECT_THROW(read_structure(xyz), Error);
    }

    // CIF: a fraction is mixed valence, read as neutral; a whole number
    // beyond the limit is refused.
    std::ofstream(cif) << "data_x\n" << cell << "loop_\n_atom_type_symbol\n_atom_type_oxidation_number\nMg "
                       << text_of(v) << "\nloop_\n_atom_site_type_symbol\n_atom_site_fract_x\n_atom_site_fract_y\n"
                       << "_atom_site_fract_z\nMg 0 0 0\n";
    if (whole && !allowed) {
      EXPECT_THROW(read_structure(cif), Error);
    } else {
      EXPECT_EQ(read_structure(cif).atoms.at(0).charge, whole ? v : 0);
    }
  }
}
