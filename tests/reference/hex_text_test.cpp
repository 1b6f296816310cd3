// The one home of hex text (reference/text.h): words, numbers with a minimum width, bytes as
// stored, a little-endian element as a number. Expected strings are written out by hand, and
// every 16-bit value is compared with what std::snprintf makes of it with "0x%04x".
#include <gtest/gtest.h>

#include <vector>

#include <cstdint>
#include <cstdio>
#include <string>

#include "reference/text.h"

namespace hex_text_test {

TEST(HexText, Words) {
  EXPECT_EQ(gcn::hexWord(0), "0x00000000");
  EXPECT_EQ(gcn::hexWord(0x1f), "0x0000001f");
  EXPECT_EQ(gcn::hexWord(0xdeadbeefu), "0xdeadbeef");
}

// As RADV's listings print instruction words ("; e0042000 80020201").
TEST(HexText, WordLists) {
  EXPECT_EQ(gcn::hexWordList(std::vector<uint32_t>{0xe0042000u, 0x80020201u}), "e0042000 80020201");
  EXPECT_EQ(gcn::hexWordList(std::vector<uint32_t>{0x1fu}), "0000001f");
  EXPECT_EQ(gcn::hexWordList(std::vector<uint32_t>{}), "");
}

TEST(HexText, NumbersWithAMinimumWidth) {
  EXPECT_EQ(gcn::hexNumber(0), "0x0");
  EXPECT_EQ(gcn::hexNumber(0x1f), "0x1f");
  EXPECT_EQ(gcn::hexNumber(0x1f, 4), "0x001f");
  EXPECT_EQ(gcn::hexNumber(0x12345, 4), "0x12345");  // wider than the minimum: all digits
  EXPECT_EQ(gcn::hexNumber(UINT64_MAX), "0xffffffffffffffff");
  for (uint32_t v = 0; v <= 0xffff; ++v) {
    char want[16];
    std::snprintf(want, sizeof want, "0x%04x", v);
    ASSERT_EQ(gcn::hexNumber(v, 4), want) << v;
  }
}

TEST(HexText, BytesAndElements) {
  const uint8_t bytes[] = {0x0a, 0x1b, 0xff, 0x00};
  EXPECT_EQ(gcn::hexDigits(bytes), "0a1bff00");
  EXPECT_EQ(gcn::hexDigits({}), "");
  EXPECT_EQ(gcn::hexElement(bytes), "0x00ff1b0a");
  const uint8_t two[] = {0x34, 0x12};
  EXPECT_EQ(gcn::hexElement(two), "0x1234");
}

}  // namespace hex_text_test
