// The diff on synthetic device results (no Vulkan): corrupted values, guard writes,
// classification. Each actual result starts from the reference's own prediction and is
// then deliberately changed; the golden expectation is the change we made.
#include <gtest/gtest.h>

#include <bit>
#include <string>

#include "harness/cases/suite.h"
#include "harness/judge/diff.h"
#include "harness/judge/expect.h"
#include "reference/error.h"
#include "tests/harness/support.h"

namespace gcnprobe::judge {
namespace diff_test {

using gcnprobe::test_support::findTexelCase;
const gcn::Chip& chip() {
  return gcnprobe::test_support::gfx9Chip();
}

Profile gfx9() {
  return resolveProfile("gfx9", std::nullopt);
}

routes::DeviceResult perfect(const Case& c, const Expected& e) {
  return gcnprobe::test_support::perfectResult(c, e);
}

constexpr const char* kLoad = "texel.uniform.r8g8b8a8_unorm.load_format_xyzw";

// The portable profile varies the points Vulkan leaves open by instruction kind: a format
// load its two load points (norm, oob-one: 4 alternatives), a format store its three store
// points (int-store, norm-store, float-store-round: 8), a typed store none. Each point is read
// by one kind of conversion only (reference/convert.cpp), so varying it elsewhere would only
// repeat the primary prediction.
TEST(Expect, PortableVariesThePointsOfTheCasesKindOnly) {
  const Profile portable = resolveProfile("portable", std::nullopt);
  const auto labels = [&](const Case& c) {
    std::string all;
    for (const Alternative& a : buildExpected(c, portable, {}).alternatives)
      all += a.label + "\n";
    return all;
  };
  const auto count = [](const std::string& text, const std::string& word) {
    std::size_t n = 0;
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1))
      ++n;
    return n;
  };
  const std::string load = labels(findTexelCase("texel.storage.r8g8b8a8_unorm.load_format_xyzw"));
  EXPECT_EQ(count(load, "\n"), 4u) << load;
  EXPECT_GT(count(load, "norm="), 0u) << load;
  EXPECT_GT(count(load, "oob-one="), 0u) << load;
  EXPECT_EQ(count(load, "store"), 0u) << load;
  const std::string store = labels(findTexelCase("texel.storage.r8g8b8a8_unorm.store_format_xyzw"));
  EXPECT_EQ(count(store, "\n"), 8u) << store;
  for (const char* point : {"int-store=", "norm-store=", "float-store-round="})
    EXPECT_GT(count(store, point), 0u) << point << "\n" << store;
  EXPECT_EQ(count(store, "oob-one="), 0u) << store;
  auto typed = cases::buildCases("storage", "storage.store_dword.offset0", chip());
  ASSERT_EQ(typed.size(), 1u);
  EXPECT_EQ(count(labels(typed[0]), "\n"), 1u);
}

TEST(Diff, PerfectResultPasses) {
  const Case c = findTexelCase(kLoad);
  const Expected e = buildExpected(c, gfx9(), {});
  const auto d =
      diffCase(c.device, formatViewOf(chip(), c.device), e, perfect(c, e), findTolerance("exact"));
  EXPECT_TRUE(d.pass) << d.summary;
}

TEST(Diff, CorruptedComponentFailsNamingLaneAndComponent) {
  const Case c = findTexelCase(kLoad);
  const Expected e = buildExpected(c, gfx9(), {});
  auto actual = perfect(c, e);
  actual.vdata[5][1] ^= 0x00400000u;  // flip one mantissa bit of lane 5, Y
  const auto d =
      diffCase(c.device, formatViewOf(chip(), c.device), e, actual, findTolerance("exact"));
  ASSERT_FALSE(d.pass);
  int mismatches = 0;
  for (const results::ComponentDiff& x : d.diffs) {
    if (x.match) continue;
    ++mismatches;
    EXPECT_EQ(x.lane, 5);
    EXPECT_EQ(x.component, 1u);
    EXPECT_EQ(x.element, 5);      // lane 5 reads element 5 (suite.cpp loadIndices)
    EXPECT_EQ(x.byteOffset, 20);  // 5 * 4-byte stride
    EXPECT_FALSE(x.memoryField);
  }
  EXPECT_EQ(mismatches, 1);
  EXPECT_NE(d.summary.find("lane 5 component y"), std::string::npos) << d.summary;
}

TEST(Diff, StrayGuardWriteFailsEvenWhenValuesMatch) {
  const Case c = findTexelCase(kLoad);
  const Expected e = buildExpected(c, gfx9(), {});
  auto actual = perfect(c, e);
  actual.changedGuardBytes = {-1};  // the byte just before the payload
  const auto d = diffCase(c.device, formatViewOf(chip(), c.device), e, actual,
                          findTolerance("portable-texel"));
  EXPECT_FALSE(d.pass);
  EXPECT_NE(d.summary.find("guard"), std::string::npos) << d.summary;
}

TEST(Diff, ChannelSwapIsClassified) {
  const Case c = findTexelCase(kLoad);
  const Expected e = buildExpected(c, gfx9(), {});
  auto actual = perfect(c, e);
  // Lane 0 reads element 0: edge codes X=0, Y=0 (pattern.cpp: row 0 is code 0 for all); use
  // a lane whose X and Y differ.
  unsigned lane = 64;
  for (unsigned l = 0; l < 48 && lane == 64; ++l)
    if (actual.vdata[l][0] != actual.vdata[l][2]) lane = l;
  ASSERT_LT(lane, 64u);
  std::swap(actual.vdata[lane][0], actual.vdata[lane][2]);
  const auto d =
      diffCase(c.device, formatViewOf(chip(), c.device), e, actual, findTolerance("exact"));
  ASSERT_FALSE(d.pass);
  bool sawX = false;
  for (const results::ComponentDiff& x : d.diffs) {
    if (!x.match && x.component == 0) {
      EXPECT_EQ(x.classification, "channel-swap(z)");
      sawX = true;
    }
  }
  EXPECT_TRUE(sawX);
}

TEST(Diff, OneUlpFailsExactButPassesNorm1Ulp) {
  const Case c = findTexelCase(kLoad);
  const Expected e = buildExpected(c, gfx9(), {});
  auto actual = perfect(c, e);
  // Lane 1, element 1: X holds edge code 1 (pattern.cpp), 1/255 = 0x3b808081 correctly
  // rounded; one ulp up is 0x3b808082.
  ASSERT_EQ(actual.vdata[1][0], 0x3b808081u);
  actual.vdata[1][0] = 0x3b808082u;
  const auto fv = formatViewOf(chip(), c.device);
  const auto exact = diffCase(c.device, fv, e, actual, findTolerance("exact"));
  ASSERT_FALSE(exact.pass);
  for (const results::ComponentDiff& x : exact.diffs) {
    if (!x.match) {
      EXPECT_EQ(x.classification, "1-ulp");
    }
  }
  EXPECT_TRUE(diffCase(c.device, fv, e, actual, findTolerance("norm-1ulp")).pass);
}

TEST(Diff, CorruptedStoreFieldFailsNamingElement) {
  const Case c = findTexelCase("texel.storage.r8g8b8a8_uint.store_format_xyzw");
  const Expected e = buildExpected(c, gfx9(), {});
  auto actual = perfect(c, e);
  actual.memory[4 * 10 + 2] ^= 1;  // element 10, field Z (byte 2 of 8_8_8_8)
  const auto d =
      diffCase(c.device, formatViewOf(chip(), c.device), e, actual, findTolerance("exact"));
  ASSERT_FALSE(d.pass);
  int mismatches = 0;
  for (const results::ComponentDiff& x : d.diffs) {
    if (x.match) continue;
    ++mismatches;
    EXPECT_TRUE(x.memoryField);
    EXPECT_EQ(x.element, 10);
    EXPECT_EQ(x.component, 2u);
    EXPECT_EQ(x.lane, 37);  // stores: lane l writes element 47 - l (suite.cpp)
    EXPECT_EQ(x.classification, "1-lsb");
  }
  EXPECT_EQ(mismatches, 1);
}

TEST(Classify, RegisterClasses) {
  const std::optional<uint32_t> v[4] = {0x3f800000u, 0x40000000u, 0u, 0x3f800000u};
  // 1.0f = 0x3f800000; the next float up is 0x3f800001.
  EXPECT_EQ(classifyRegister(gcn::RegType::Float, 0x3f800000u, 0x3f800001u, 0, v), "1-ulp");
  // actual X holds the expected Y (2.0f).
  EXPECT_EQ(classifyRegister(gcn::RegType::Float, 0x3f800000u, 0x40000000u, 0, v),
            "channel-swap(y)");
  EXPECT_EQ(classifyRegister(gcn::RegType::Float, 0x7fc00000u, 0x7fc00001u, 0, v), "nan-payload");
  EXPECT_EQ(classifyRegister(gcn::RegType::Float, 0x00000001u, 0u, 2, v), "denorm-flush");
  EXPECT_EQ(classifyRegister(gcn::RegType::Uint, 5u, 6u, 0, v), "1-lsb");
  EXPECT_EQ(classifyRegister(gcn::RegType::Float, 0x3e800000u, 0xbe800000u, 0, v), "sign");
  EXPECT_EQ(classifyRegister(gcn::RegType::Uint, 77u, 0u, 0, v), "zero-vs-stale");
}

TEST(Tolerance, UnknownNameIsAnError) {
  EXPECT_THROW(findTolerance("loose"), gcn::Error);
}

TEST(Suite, UnknownSuiteIsAnError) {
  EXPECT_THROW(cases::buildCases("nosuch", "", chip()), gcn::Error);
}

// Far regions the route read back (the raw V# placement) are compared byte for byte with the
// outcomes' far regions: unchanged passes; one changed byte fails naming the region, the
// count and the byte; a region no outcome has fails too.
TEST(Diff, FarRegionsAreComparedByteForByte) {
  const std::vector<Case> cases = cases::disputedSuite(
      chip(), [](const std::string& name) { return name == "disputed.index-product"; });
  ASSERT_EQ(cases.size(), 1u);
  const Case& c = cases[0];
  ASSERT_EQ(c.device.memory.far.size(), 1u);
  const Expected e = buildExpected(c, gfx9(), {});
  const FormatView fv = formatViewOf(chip(), c.device);
  routes::DeviceResult actual = perfect(c, e);
  actual.far = c.device.memory.far;  // a load leaves it as it was
  EXPECT_TRUE(diffCase(c.device, fv, e, actual, findTolerance("exact")).pass);
  actual.far[0].bytes[5] ^= 0x40;
  const auto d = diffCase(c.device, fv, e, actual, findTolerance("exact"));
  EXPECT_FALSE(d.pass);
  EXPECT_NE(d.summary.find("far region at 0x100001000: 1 bytes differ from every outcome, the "
                           "first at +5"),
            std::string::npos)
      << d.summary;
  actual.far[0].bytes[5] ^= 0x40;
  actual.far[0].base += 0x1000;
  EXPECT_NE(
      diffCase(c.device, fv, e, actual, findTolerance("exact")).summary.find("no outcome has it"),
      std::string::npos);
}

}  // namespace diff_test
}  // namespace gcnprobe::judge
