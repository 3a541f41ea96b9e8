// Fit files' lengths (Å) and angles (degrees) may carry their unit
// (docs/conventions.md): the same description with bare numbers and with
// unit strings reads into the same numbers.
#include <gtest/gtest.h>

#include <string>

#include "nanoscatter/error.hpp"
#include "nanoscatter/fit_file.hpp"

using namespace nanoscatter;

namespace {

const std::string kData = "[data]\nfile = \"d.xye\"\n[model]\nstructure = \"c.cif\"\n";

TEST(FitFileUnits, PowderModelKeys) {
  const auto bare = fit::parse_fit_description(
      kData + "engine = \"powder\"\ntwo_theta = [20.0, 80.0]\nradiation = \"xray\"\nwavelength = 1.5406\n"
              "wavelength2 = 1.5444\nmonochromator_two_theta = 26.57\nfine_step = 0.005\nbin_width = 0.001\n"
              "size = { r_min = 5.0, r_max = 20.0 }\n",
      "bare.toml", "");
  const auto with_units = fit::parse_fit_description(
      kData + "engine = \"powder\"\ntwo_theta = [\"20 deg\", \"80°\"]\nradiation = \"xray\"\n"
              "wavelength = \"0.15406 nm\"\nwavelength2 = \"1.5444 Å\"\nmonochromator_two_theta = \"26.57 deg\"\n"
              "fine_step = \"0.005 deg\"\nbin_width = \"0.0001 nm\"\nsize = { r_min = \"0.5 nm\", r_max = \"2 nm\" }\n",
      "units.toml", "");
  EXPECT_EQ(bare.two_theta_first, with_units.two_theta_first);
  EXPECT_EQ(bare.two_theta_last, with_units.two_theta_last);
  EXPECT_EQ(bare.instrument.wavelength, with_units.instrument.wavelength);
  EXPECT_EQ(bare.instrument.wavelength2, with_units.instrument.wavelength2);
  EXPECT_EQ(bare.instrument.monochromator_two_theta, with_units.instrument.monochromator_two_theta);
  EXPECT_EQ(bare.instrument.fine_step, with_units.instrument.fine_step);
  EXPECT_EQ(bare.bin_width, with_units.bin_width);
  EXPECT_EQ(bare.powder.size->r_min, with_units.powder.size->r_min);
  EXPECT_EQ(bare.powder.size->r_max, with_units.powder.size->r_max);
}

TEST(FitFileUnits, PdfRangeAndErrors) {
  const auto bare = fit::parse_fit_description(kData + "engine = \"pdf\"\nr = [1.5, 20.0]\n", "bare.toml", "");
  const auto with_units =
      fit::parse_fit_description(kData + "engine = \"pdf\"\nr = [\"0.15 nm\", \"2 nm\"]\n", "units.toml", "");
  EXPECT_EQ(bare.r_first, with_units.r_first);
  EXPECT_EQ(bare.r_last, with_units.r_last);
  try {
    fit::parse_fit_description(kData + "engine = \"pdf\"\nr = [\"1.5 A\", 20.0]\n", "bad.toml", "");
    FAIL() << "'A' was accepted";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "bad.toml:6: model.r[0]: 'A' in '1.5 A' is not a unit here (A is the ampere): write Å or angstrom");
  }
}

}  // namespace

// bin_width: the Debye engine's check (validate_bin_width) and the fits'
// 0.01 Å bound, at the key's line, for both models that take it.
TEST(FitFileUnits, BinWidthChecks) {
  const std::string pdf = kData + "engine = \"pdf\"\nr = [1.5, 20.0]\n";
  const std::string powder = kData + "engine = \"powder\"\ntwo_theta = [20.0, 80.0]\nwavelength = 1.5406\n";
  for (const std::string& model : {pdf, powder}) {
    auto message = [&](const std::string& value) -> std::string {
      try {
        fit::parse_fit_description(model + "bin_width = " + value + "\n", "f.toml", "");
      } catch (const Error& e) {
        return e.what();
      }
      return "";
    };
    const std::string line = model == pdf ? "7" : "8";
    EXPECT_EQ(message("-1.0"), "f.toml:" + line + ": model.bin_width: must be a finite value > 0 Å, got -1");
    EXPECT_EQ(message("0.0"), "f.toml:" + line + ": model.bin_width: must be a finite value > 0 Å, got 0");
    EXPECT_EQ(message("0.02"), "f.toml:" + line + ": model.bin_width: must be at most 0.01 Å in a fit, got 0.02");
    EXPECT_EQ(message("0.005"), "");
  }
}
