// The integer inline constants of the scalar operand encoding (reference/opcodes.h), the one
// home of their codes: AMD GCN3 ISA "Scalar ALU operands" lists 128 = 0, 129..192 = 1..64,
// 193..208 = -1..-16 (LLVM SIDefines.h INLINE_INTEGER_C_MIN 128, _POSITIVE_MAX 192, _MAX 208).
#include <gtest/gtest.h>

#include <set>

#include "reference/opcodes.h"

namespace inline_constant_test {

TEST(InlineConstant, TheIsaTable) {
  EXPECT_EQ(gcn::integerInlineValue(128), 0);
  EXPECT_EQ(gcn::integerInlineValue(129), 1);
  EXPECT_EQ(gcn::integerInlineValue(192), 64);
  EXPECT_EQ(gcn::integerInlineValue(193), -1);
  EXPECT_EQ(gcn::integerInlineValue(208), -16);
  for (unsigned code : {0u, 101u, 124u, 127u, 209u, 240u, 248u, 255u, 1000u})
    EXPECT_FALSE(gcn::integerInlineValue(code).has_value()) << code;
  EXPECT_EQ(gcn::integerInlineCode(0), 128);
  EXPECT_EQ(gcn::integerInlineCode(64), 192);
  EXPECT_EQ(gcn::integerInlineCode(-1), 193);
  EXPECT_EQ(gcn::integerInlineCode(-16), 208);
  for (int64_t v : {int64_t{65}, int64_t{-17}, int64_t{1000}, int64_t{-1000}, int64_t{1} << 40})
    EXPECT_FALSE(gcn::integerInlineCode(v).has_value()) << v;
}

// Every code names one value and back, and every value of 0..64, -1..-16 has one code.
TEST(InlineConstant, CodesAndValuesAreOneToOne) {
  std::set<int32_t> values;
  for (unsigned code = 0; code < 256; ++code)
    if (const auto v = gcn::integerInlineValue(code)) {
      EXPECT_TRUE(values.insert(*v).second) << code;
      EXPECT_EQ(gcn::integerInlineCode(*v), code);
    }
  EXPECT_EQ(values.size(), 81u);
  for (int32_t v = -16; v <= 64; ++v)
    EXPECT_TRUE(values.count(v)) << v;
}

}  // namespace inline_constant_test
