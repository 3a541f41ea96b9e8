// The unit parser (units.hpp): every spelling it accepts, each conversion
// exact where the decimal shift allows, and every refusal one line that
// names the field.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "nanoscatter/config.hpp"
#include "nanoscatter/constants.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/units.hpp"

namespace nanoscatter::units {
namespace {

const Where kAt{"sample.toml", 7, "layer[1].thickness"};

double nm(const std::string& text) { return length(text, Length::nm, Length::nm, kAt); }
double angstrom(const std::string& text) { return length(text, Length::angstrom, Length::angstrom, kAt); }

// The message of the Error `text` raises; "" when it is accepted.
template <class F>
std::string refusal(F&& parse) {
  try {
    parse();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Units, LengthSpellings) {
  for (const char* text : {"5 nm", "5nm", "5  nm ", " 5 nm", "50 \u00c5", "50\u00c5", "50 \u212b", "50 angstrom",
                           "0.005 um", "0.005 \u00b5m", "0.005 \u03bcm", "5e-6 mm", "5e-7 cm", "5e-9 m", "5"})
    EXPECT_DOUBLE_EQ(nm(text), 5.0) << text;
  EXPECT_EQ(angstrom("2 nm"), 20.0);
  EXPECT_EQ(angstrom("20"), 20.0);  // a bare number is in the bare unit
  EXPECT_EQ(length("2", Length::angstrom, Length::nm, kAt), 20.0);
  EXPECT_EQ(length("1 mm", Length::mm, Length::mm, kAt), 1.0);
  EXPECT_EQ(length("75 um", Length::mm, Length::mm, kAt), 0.075);
  EXPECT_EQ(length("0.5 um", Length::nm, Length::nm, kAt), 500.0);
  EXPECT_EQ(length("-3 nm", Length::nm, Length::nm, kAt), -3.0);
}

TEST(Units, ConversionsAreOneExactDecimalShift) {
  // "x Å" in nm must equal the bare number x/10 written in nm: the nearest
  // double to the written value, as the TOML reader would give it.
  for (const char* digits : {"0.1", "1.54", "2.35", "17.3", "123.456", "0.07"}) {
    const double x = std::stod(digits);
    EXPECT_EQ(nm(std::string(digits) + " angstrom"), x / 10) << digits;
    EXPECT_EQ(angstrom(std::string(digits) + " nm"), x * 10) << digits;
  }
}

TEST(Units, Angles) {
  EXPECT_EQ(angle("0.2 deg", Angle::deg, Angle::deg, kAt), 0.2);
  EXPECT_EQ(angle("0.2\u00b0", Angle::deg, Angle::deg, kAt), 0.2);
  EXPECT_EQ(angle("0.2", Angle::deg, Angle::deg, kAt), 0.2);
  EXPECT_EQ(angle("0.01 rad", Angle::rad, Angle::deg, kAt), 0.01);
  EXPECT_DOUBLE_EQ(angle("3.5 mrad", Angle::deg, Angle::deg, kAt), 3.5e-3 / kDegree);
  EXPECT_DOUBLE_EQ(angle("35 urad", Angle::rad, Angle::deg, kAt), 35e-6);
  EXPECT_DOUBLE_EQ(angle("35 \u00b5rad", Angle::rad, Angle::deg, kAt), 35e-6);
  EXPECT_DOUBLE_EQ(angle("90", Angle::rad, Angle::deg, kAt), kPi / 2);
}

TEST(Units, WavelengthsAndEnergies) {
  EXPECT_EQ(wavelength("1.54 angstrom", Length::angstrom, Length::angstrom, kAt), 1.54);
  EXPECT_EQ(wavelength("0.154 nm", Length::nm, Length::angstrom, kAt), 0.154);
  EXPECT_DOUBLE_EQ(wavelength("12.398419843320026 keV", Length::angstrom, Length::angstrom, kAt), 1.0);
  EXPECT_DOUBLE_EQ(wavelength("8000 eV", Length::nm, Length::nm, kAt), kHcKeVAngstrom / 8 / 10);
  EXPECT_EQ(energy_kev("12 keV", kAt), 12.0);
  EXPECT_EQ(energy_kev("12000 eV", kAt), 12.0);
  EXPECT_EQ(energy_kev("12", kAt), 12.0);
}

TEST(Units, SameUnitLengthsForLightScattering) {
  const Where w{"", 0, "--wavelength"}, s{"", 0, "--size"};
  const auto with = same_unit_lengths({{"0.5um", w, true}, {"1 um", s}});
  EXPECT_EQ(with, (std::vector<double>{500.0, 1000.0}));
  const auto bare = same_unit_lengths({{"0.5", w, true}, {"1", s}});
  EXPECT_EQ(bare, (std::vector<double>{0.5, 1.0}));
  const std::string mixed = refusal([&] { same_unit_lengths({{"0.5 um", w, true}, {"1000", s}}); });
  EXPECT_EQ(mixed, "--size: '1000' has no unit while --wavelength has one ('0.5 um'): give units to all lengths or to none");
}

TEST(Units, EveryRefusalIsOneLineNamingTheField) {
  const std::string prefix = "sample.toml:7: layer[1].thickness: ";
  struct Case {
    std::string text, message;
  };
  const Case cases[] = {
      {"5 nmm", "unknown unit 'nmm' in '5 nmm'; give a length (Å, angstrom, nm, um, µm, mm, cm, m)"},
      {"50 A", "'A' in '50 A' is not a unit here (A is the ampere): write Å or angstrom"},
      {"5 NM", "unknown unit 'NM' in '5 NM'; give a length (Å, angstrom, nm, um, µm, mm, cm, m)"},
      {"0.2 deg", "'0.2 deg' is an angle; give a length (Å, angstrom, nm, um, µm, mm, cm, m)"},
      {"12 keV", "'12 keV' is an energy; give a length (Å, angstrom, nm, um, µm, mm, cm, m)"},
      {"nan nm", "must be a finite number, got 'nan nm'"},
      {"inf", "must be a finite number, got 'inf'"},
      {"1e999 nm", "must be a finite number, got '1e999 nm'"},
      {"nm", "expected a number with an optional unit (\"5 nm\"), got 'nm'"},
      {"", "expected a number with an optional unit (\"5 nm\"), got ''"},
      {"-2 nm", "must not be negative, got '-2 nm'"},
  };
  for (const Case& c : cases) {
    const std::string got =
        refusal([&] { length(c.text, Length::nm, Length::nm, kAt, Sign::non_negative); });
    EXPECT_EQ(got, prefix + c.message) << c.text;
    EXPECT_EQ(got.find('\n'), std::string::npos);
  }
  EXPECT_EQ(refusal([] { angle("3 nm", Angle::deg, Angle::deg, kAt); }),
            prefix + "'3 nm' is a length; give an angle (deg, °, rad, mrad, urad, µrad)");
  EXPECT_EQ(refusal([] { angle("3 grad", Angle::deg, Angle::deg, kAt); }),
            prefix + "unknown unit 'grad' in '3 grad'; give an angle (deg, °, rad, mrad, urad, µrad)");
  // Ranges are the engines' to check (validate()), but hc/E needs E > 0.
  EXPECT_EQ(wavelength("0 nm", Length::nm, Length::nm, kAt), 0.0);
  EXPECT_EQ(refusal([] { wavelength("0 eV", Length::nm, Length::nm, kAt); }),
            prefix + "must be a positive photon energy, got '0 eV'");
  EXPECT_EQ(refusal([] { wavelength("-1 keV", Length::nm, Length::nm, kAt); }),
            prefix + "must be a positive photon energy, got '-1 keV'");
  EXPECT_EQ(refusal([] { wavelength("1 deg", Length::nm, Length::nm, kAt); }),
            prefix + "'1 deg' is an angle; give a length or a photon energy (Å, angstrom, nm, um, µm, mm, cm, m; keV, eV)");
  EXPECT_EQ(refusal([] { energy_kev("1 nm", {"", 0, "--energy"}); }),
            "--energy: '1 nm' is a length; give a photon energy (keV, eV)");
}

TEST(Units, ConfigTableKeysAndArrays) {
  // A number is bare; a string must name its unit; arrays may mix the two.
  const ConfigTable t = parse_config("a = 5\nb = \"50 angstrom\"\nc = [1, \"20 Å\", 3e-6]\nd = \"5\"\n"
                                     "e = { x = 1 }\nf = \"0.2 deg\"\ng = [\"1 um\", 2]\n",
                                     "t.toml");
  EXPECT_EQ(t.get_length("a", Length::nm, Length::nm), 5.0);
  EXPECT_EQ(t.get_length("b", Length::nm, Length::nm), 5.0);
  EXPECT_EQ(t.get_length_or("missing", 7.0, Length::nm, Length::nm), 7.0);
  EXPECT_EQ(t.get_array_of_lengths("c", Length::nm, Length::nm), (std::vector<double>{1.0, 2.0, 3e-6}));
  EXPECT_EQ(t.get_angle("f", Angle::deg, Angle::deg), 0.2);
  EXPECT_TRUE(t.is_array("c"));
  EXPECT_FALSE(t.is_array("a"));
  EXPECT_EQ(refusal([&] { t.get_length("d", Length::nm, Length::nm); }),
            "t.toml:4: d: a string needs its unit (\"5 nm\", \"0.2 deg\"); write a bare number without quotes; got '5'");
  EXPECT_EQ(refusal([&] { t.get_length("e", Length::nm, Length::nm); }),
            "t.toml:5: e: expected a number or a string with its unit (\"5 nm\"), found a table");
  EXPECT_EQ(refusal([&] { t.get_array_of_angles("g", Angle::deg, Angle::deg); }),
            "t.toml:7: g[0]: '1 um' is a length; give an angle (deg, °, rad, mrad, urad, µrad)");
}

}  // namespace
}  // namespace nanoscatter::units
