// number_from_text: the one reading of a number written as text (structure
// files, text tables, 1D patterns).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/number_text.hpp"

using nanoscatter::number_from_text;

TEST(NumberText, ReadsWholeTokens) {
  EXPECT_EQ(number_from_text("1e-3").value, 1e-3);
  EXPECT_EQ(number_from_text("+2.5").value, 2.5);
  EXPECT_EQ(number_from_text("-4").value, -4.0);
  EXPECT_TRUE(std::isnan(*number_from_text("nan").value));
  EXPECT_EQ(number_from_text("-inf").value, -std::numeric_limits<double>::infinity());
  for (const char* bad : {"", "+", "+-1", "++1", "1.5x", " 1", "1 ", "abc"}) {
    EXPECT_FALSE(number_from_text(bad).value) << "'" << bad << "'";
    EXPECT_FALSE(number_from_text(bad).out_of_range) << "'" << bad << "'";
  }
}

TEST(NumberText, UnderflowRoundsOverflowIsRefused) {
  EXPECT_EQ(number_from_text("1e-400").value, 0.0);
  EXPECT_EQ(number_from_text("4e-320").value, 4e-320);  // a subnormal, correctly rounded
  for (const char* huge : {"1e999", "-1e999", "+1e999"}) {
    EXPECT_FALSE(number_from_text(huge).value) << huge;
    EXPECT_TRUE(number_from_text(huge).out_of_range) << huge;
  }
}
