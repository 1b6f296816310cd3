// UTF-8 well-formedness (RFC 3629, section 4 table of well-formed byte sequences); each
// sequence below is written out by hand from that table.
#include <gtest/gtest.h>

#include "reference/text.h"

namespace gcn {
namespace utf8_test {

constexpr std::size_t npos = std::string_view::npos;

TEST(Utf8, WellFormedTextHasNoBadByte) {
  EXPECT_EQ(firstInvalidUtf8(""), npos);
  EXPECT_EQ(firstInvalidUtf8("plain ascii = 1"), npos);
  EXPECT_EQ(firstInvalidUtf8("caf\xc3\xa9"), npos);       // U+00E9
  EXPECT_EQ(firstInvalidUtf8("\xe2\x82\xac"), npos);      // U+20AC
  EXPECT_EQ(firstInvalidUtf8("\xef\xbb\xbf"), npos);      // U+FEFF
  EXPECT_EQ(firstInvalidUtf8("\xf0\x9f\x98\x80"), npos);  // U+1F600
  EXPECT_EQ(firstInvalidUtf8("\xf4\x8f\xbf\xbf"), npos);  // U+10FFFF, the last one
  EXPECT_EQ(firstInvalidUtf8("\xed\x9f\xbf"), npos);      // U+D7FF, just below surrogates
}

TEST(Utf8, IllFormedTextNamesTheFirstBadByte) {
  EXPECT_EQ(firstInvalidUtf8("caf\xe9"), 3u);           // Latin-1 e-acute
  EXPECT_EQ(firstInvalidUtf8("ab\x80"), 2u);            // lone continuation byte
  EXPECT_EQ(firstInvalidUtf8("\xc0\xaf"), 0u);          // overlong '/'
  EXPECT_EQ(firstInvalidUtf8("\xc1\xbf"), 0u);          // overlong
  EXPECT_EQ(firstInvalidUtf8("\xe0\x80\xaf"), 0u);      // overlong 3-byte
  EXPECT_EQ(firstInvalidUtf8("\xed\xa0\x80"), 0u);      // U+D800, a surrogate
  EXPECT_EQ(firstInvalidUtf8("\xf0\x80\x80\xaf"), 0u);  // overlong 4-byte
  EXPECT_EQ(firstInvalidUtf8("\xf4\x90\x80\x80"), 0u);  // U+110000
  EXPECT_EQ(firstInvalidUtf8("\xf5\x80\x80\x80"), 0u);  // no such lead byte
  EXPECT_EQ(firstInvalidUtf8("x\xff"), 1u);
  EXPECT_EQ(firstInvalidUtf8("ok \xc3"), 3u);    // truncated at the end
  EXPECT_EQ(firstInvalidUtf8("\xe2\x82z"), 0u);  // truncated in the middle
}

}  // namespace utf8_test
using namespace utf8_test;  // NOLINT(google-build-using-namespace)
}  // namespace gcn

TEST(Text, TrimSpaceRemovesAsciiWhiteSpaceAtBothEndsOnly) {
  EXPECT_EQ(gcn::trimSpace(" \t\r\n\v\fa b\t \r"), "a b");
  EXPECT_EQ(gcn::trimSpace("abc"), "abc");
  EXPECT_EQ(gcn::trimSpace(" \t\r\n"), "");
  EXPECT_EQ(gcn::trimSpace(""), "");
  EXPECT_EQ(gcn::trimSpace("\xc2\xa0x\xc2\xa0"), "\xc2\xa0x\xc2\xa0");  // U+00A0 is not ASCII
}
