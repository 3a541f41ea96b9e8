// whole_number: the one test of counts and indices read from input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "nanoscatter/whole_number.hpp"

using nanoscatter::whole_number;

TEST(WholeNumber, FromNumbers) {
  EXPECT_EQ(whole_number(12.0), 12);
  EXPECT_EQ(whole_number(-3.0), -3);
  EXPECT_EQ(whole_number(0.0, 0, 5), 0);
  EXPECT_EQ(whole_number(5.0, 0, 5), 5);
  EXPECT_FALSE(whole_number(6.0, 0, 5));
  EXPECT_FALSE(whole_number(-1.0, 0, 5));
  EXPECT_FALSE(whole_number(2.5));
  EXPECT_FALSE(whole_number(std::nan("")));
  EXPECT_FALSE(whole_number(std::numeric_limits<double>::infinity()));
  // 2^63 is whole but beyond int64 (double(INT64_MAX) rounds up to it).
  EXPECT_FALSE(whole_number(9223372036854775808.0));
  EXPECT_EQ(whole_number(-9223372036854775808.0), std::numeric_limits<std::int64_t>::min());
}

TEST(WholeNumber, FromText) {
  EXPECT_EQ(whole_number("12"), 12);
  EXPECT_EQ(whole_number("+12"), 12);
  EXPECT_EQ(whole_number("-12"), -12);
  EXPECT_EQ(whole_number("99", 0, 99), 99);
  EXPECT_FALSE(whole_number("100", 0, 99));
  for (const char* bad : {"", "+", "-", "12.0", "1e3", " 12", "12 ", "12x", "+-3", "0x10", "99999999999999999999"})
    EXPECT_FALSE(whole_number(bad)) << "'" << bad << "'";
}
