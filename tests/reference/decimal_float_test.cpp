// Decimal text to binary32 at the edges of the range. Expected bits follow from IEEE 754
// round to nearest even: FLT_MAX = (2 - 2^-23) * 2^127 = 3.40282346...e38; a value overflows
// to Inf when it is at or above the midpoint to 2^128, (2 - 2^-24) * 2^127 =
// 3.4028235677973366...e38; the smallest denormal is 2^-149 = 1.40129846...e-45 and a value
// rounds to zero below half of it, 2^-150 = 7.00649232...e-46.
#include <gtest/gtest.h>

#include "reference/float_bits.h"

namespace gcn::fbits {
namespace decimal_float_test {

uint32_t bitsOf(std::string_view text) {
  const std::optional<float> f = parseDecimalFloat(text);
  EXPECT_TRUE(f.has_value()) << text;
  return f ? floatToBits(*f) : 0xdeadbeefu;
}

TEST(DecimalFloat, UnderflowRoundsToSignedZero) {
  EXPECT_EQ(bitsOf("1e-50"), 0x00000000u);
  EXPECT_EQ(bitsOf("-1e-50"), 0x80000000u);
  EXPECT_EQ(bitsOf("7e-46"), 0x00000000u);    // below 2^-150
  EXPECT_EQ(bitsOf("7.1e-46"), 0x00000001u);  // above 2^-150: the smallest denormal
  EXPECT_EQ(bitsOf("1e-45"), 0x00000001u);
  EXPECT_EQ(bitsOf("-1.4e-45"), 0x80000001u);
}

TEST(DecimalFloat, OnlyValuesRoundingPastFltMaxOverflow) {
  EXPECT_EQ(bitsOf("3.4028235e38"), 0x7f7fffffu);           // FLT_MAX's shortest text
  EXPECT_EQ(bitsOf("3.40282356e38"), 0x7f7fffffu);          // below the midpoint
  EXPECT_EQ(bitsOf("3.4028235677973366e38"), 0x7f7fffffu);  // just below the midpoint
  EXPECT_EQ(bitsOf("-3.4028235677973366e38"), 0xff7fffffu);
  EXPECT_EQ(bitsOf("3.4028235677973367e38"), 0x7f800000u);  // just above: rounds to 2^128
  EXPECT_EQ(bitsOf("3.4028236e38"), 0x7f800000u);           // above the midpoint
  EXPECT_EQ(bitsOf("1e39"), 0x7f800000u);
  EXPECT_EQ(bitsOf("-1e39"), 0xff800000u);
  EXPECT_EQ(bitsOf("1e400"), 0x7f800000u);
}

TEST(DecimalFloat, OrdinaryValuesAndSpecials) {
  EXPECT_EQ(bitsOf("1.5"), 0x3fc00000u);
  EXPECT_EQ(bitsOf("-0.25"), 0xbe800000u);
  EXPECT_EQ(bitsOf("inf"), 0x7f800000u);
  EXPECT_EQ(bitsOf("-inf"), 0xff800000u);
  EXPECT_EQ(bitsOf("nan") & 0x7fc00000u, 0x7fc00000u);
}

TEST(DecimalFloat, MalformedTextIsNoNumber) {
  for (std::string_view bad : {"", "abc", "1e", "1.5x", "+1", "--1", " 1", "1e39z"})
    EXPECT_FALSE(parseDecimalFloat(bad).has_value()) << bad;
}

}  // namespace decimal_float_test
}  // namespace gcn::fbits
