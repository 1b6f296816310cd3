// `gcnprobe sweep` on the default device (lavapipe here): every code of a channel reaches the
// device once and is classified against the reference's predictions. R8_UNORM: lavapipe
// multiplies by the float reciprocal, which differs from the correctly rounded quotient on
// 126 of the 256 codes (docs/platform.md, measured independently of this harness), so the
// sweep must find exactly 130 "exact" and 126 "norm=mulrcp" elements and no mismatch.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli.h"

namespace gcnprobe {
namespace sweep_test {

std::map<std::string, uint64_t> classes(const nlohmann::json& format) {
  std::map<std::string, uint64_t> out;
  for (const auto& g : format.at("groups"))
    out[g.at("channel").get<std::string>() + " " + g.at("classification").get<std::string>()] +=
        g.at("elements").get<uint64_t>();
  return out;
}

TEST(Sweep, EveryUnorm8CodeIsClassifiedAsTheDriverRoundsIt) {
  const auto r = test_support::runGcnprobe(
      "sweep --json --format VK_FORMAT_R8_UNORM --format VK_FORMAT_R16G16_UINT",
      test_support::Stderr::Discard);
  ASSERT_EQ(r.exit, 0) << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc.at("formats").size(), 2u);
  const auto& r8 = doc.at("formats")[0];
  EXPECT_EQ(r8.at("skipped"), "");
  EXPECT_EQ(r8.at("elements"), 256u);
  const auto c = classes(r8);
  if (doc.at("driver").get<std::string>().find("llvmpipe") != std::string::npos ||
      doc.at("device").get<std::string>().find("llvmpipe") != std::string::npos) {
    EXPECT_EQ(c.at("R exact"), 130u);
    EXPECT_EQ(c.at("R norm=mulrcp"), 126u);
  }
  EXPECT_EQ(c.count("R mismatch"), 0u);
  // Integer channels: every one of 2 x 65536 codes exact.
  const auto& u16 = doc.at("formats")[1];
  EXPECT_EQ(u16.at("elements"), 2u * 65536u);
  const auto c16 = classes(u16);
  EXPECT_EQ(c16.at("R exact"), 65536u);
  EXPECT_EQ(c16.at("G exact"), 65536u);
  EXPECT_EQ(doc.at("mismatched"), 0u);
}

// Past one pass over every code the plan starts again (other fields drawn afresh), in chunks
// that need not divide it: R8_UNORM twice over in chunks of 100 is 2 x (130 + 126); 300000
// elements of R16G16_UINT are R's 65536 codes, G's 65536, again, then 37856 more of R.
TEST(Sweep, RepeatedPlansInUnevenChunksCountEveryElementOnce) {
  const auto r = test_support::runGcnprobe(
      "sweep --json --format VK_FORMAT_R8_UNORM --format VK_FORMAT_R16G16_UINT --elements 300000 "
      "--chunk 4096",
      test_support::Stderr::Discard);
  ASSERT_EQ(r.exit, 0) << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  const auto& u16 = doc.at("formats")[1];
  EXPECT_EQ(u16.at("elements"), 300000u);
  const auto c16 = classes(u16);
  EXPECT_EQ(c16.at("R exact"), 2u * 65536u + 37856u);
  EXPECT_EQ(c16.at("G exact"), 2u * 65536u);

  const auto r8 = test_support::runGcnprobe(
      "sweep --json --format VK_FORMAT_R8_UNORM --elements 512 --chunk 100",
      test_support::Stderr::Discard);
  ASSERT_EQ(r8.exit, 0) << r8.out;
  const auto doc8 = nlohmann::json::parse(r8.out);
  const auto c8 = classes(doc8.at("formats")[0]);
  EXPECT_EQ(doc8.at("elements"), 512u);
  if (doc8.at("device").get<std::string>().find("llvmpipe") != std::string::npos) {
    EXPECT_EQ(c8.at("R exact"), 260u);
    EXPECT_EQ(c8.at("R norm=mulrcp"), 252u);
  }
  EXPECT_EQ(c8.count("R mismatch"), 0u);
}

TEST(Sweep, AChunkOutsideTheDispatchLimitIsRefused) {
  const auto r = test_support::runGcnprobe("sweep --format VK_FORMAT_R8_UNORM --chunk 10");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("--chunk"), std::string::npos) << r.out;
}

TEST(Sweep, FormatsWithoutASingleLoadModelAreSkippedWithTheReason) {
  const auto r = test_support::runGcnprobe(
      "sweep --json --format VK_FORMAT_R8G8B8A8_SRGB --format VK_FORMAT_R64_UINT",
      test_support::Stderr::Discard);
  ASSERT_EQ(r.exit, 0) << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_NE(doc.at("formats")[0].at("skipped").get<std::string>().find("sRGB"), std::string::npos);
  EXPECT_NE(doc.at("formats")[1].at("skipped").get<std::string>().find("texel model wide"),
            std::string::npos);
  EXPECT_EQ(doc.at("elements"), 0u);
}

// An index sweep: a view of 256 R8_UNORM elements (every code once) read at indices 0..511.
// Exactly the first 256 lanes are in range (the view's size, not the harness's word), and
// those classify as the code sweep does: 130 exact and 126 norm=mulrcp on lavapipe. The other
// 256 are out of range, each explained by a prediction (Vulkan lets a robust texel fetch past
// the end return 0 or 1 in W; R8_UNORM's DST_SEL has 1 in W, so either is a policy option).
// Chunks of 64 count the same.
TEST(Sweep, IndexSweepSplitsLanesAtTheViewsEnd) {
  for (const char* chunk : {"", " --chunk 64"}) {
    SCOPED_TRACE(chunk);
    const auto r = test_support::runGcnprobe(
        std::string("sweep --json --format VK_FORMAT_R8_UNORM --format VK_FORMAT_R8G8B8A8_UINT "
                    "--view-elements 256 --indices 0:512") +
            chunk,
        test_support::Stderr::Discard);
    ASSERT_EQ(r.exit, 0) << r.out;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc.at("mismatched"), 0u);
    for (const auto& f : doc.at("formats")) {
      EXPECT_EQ(f.at("elements"), 512u);
      uint64_t in = 0, out = 0;
      for (const auto& g : f.at("groups")) {
        const std::string range = g.at("channel");
        ASSERT_TRUE(range == "in-range" || range == "out-of-range") << range;
        (range == "in-range" ? in : out) += g.at("elements").get<uint64_t>();
      }
      EXPECT_EQ(in, 256u);
      EXPECT_EQ(out, 256u);
    }
    const auto c8 = classes(doc.at("formats")[0]);
    if (doc.at("device").get<std::string>().find("llvmpipe") != std::string::npos) {
      EXPECT_EQ(c8.at("in-range exact"), 130u);
      EXPECT_EQ(c8.at("in-range norm=mulrcp"), 126u);
    }
    // Integers: no rounding to dispute, and no 1 in DST_SEL: out of range is 0 under every
    // option.
    const auto cu = classes(doc.at("formats")[1]);
    EXPECT_EQ(cu.at("in-range exact"), 256u);
    EXPECT_EQ(cu.at("out-of-range exact"), 256u);
  }
}

// Indices across 2^31 (negative as texelFetch's int, so out of range for Vulkan) and up to
// 2^32 - 1. The reference (gfx8 on a device that is not GCN) reads them through RADV's V#:
// STRIDE 4, NUM_RECORDS in bytes (4000 for 1000 elements), and AINDEX * STRIDE truncated to
// 32 bits by default (policy index-product). Index i is then in range when (4 i mod 2^32) <
// 4000, i.e. i mod 2^30 < 1000: in 2^31 - 148 .. 2^31 + 151 that is 2^31 .. 2^31 + 151, 152
// lanes, which lavapipe reads as out of range (zeros), as the 64-bit product says. In
// 2^32 - 296 .. 2^32 - 1, i mod 2^30 >= 2^30 - 296: every lane out of range.
TEST(Sweep, IndexSweepOfHugeIndicesMeetsTheIndexProductPoint) {
  const auto r = test_support::runGcnprobe(
      "sweep --json --format VK_FORMAT_R8G8B8A8_UINT --indices 2147483500:300 "
      "--view-elements 1000",
      test_support::Stderr::Discard);
  ASSERT_EQ(r.exit, 0) << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  if (doc.at("device").get<std::string>().find("llvmpipe") != std::string::npos) {
    EXPECT_EQ(classes(doc.at("formats")[0]),
              (std::map<std::string, uint64_t>{{"in-range index-product=wide64", 152},
                                               {"out-of-range exact", 148}}));
  }
  const auto top = test_support::runGcnprobe(
      "sweep --json --format VK_FORMAT_R8G8B8A8_UINT --indices 4294967000:296 "
      "--view-elements 1000",
      test_support::Stderr::Discard);
  ASSERT_EQ(top.exit, 0) << top.out;
  const auto topDoc = nlohmann::json::parse(top.out);
  if (topDoc.at("device").get<std::string>().find("llvmpipe") != std::string::npos) {
    EXPECT_EQ(classes(topDoc.at("formats")[0]),
              (std::map<std::string, uint64_t>{{"out-of-range exact", 296}}));
  }
  EXPECT_EQ(topDoc.at("mismatched"), 0u);
}

TEST(Sweep, BadIndexRangesAreRefusedNamingTheOption) {
  for (const char* bad : {"--indices 5", "--indices 0:0", "--indices x:5", "--indices 1:4294967296",
                          "--indices 0:10 --view-elements 0"}) {
    SCOPED_TRACE(bad);
    const auto r =
        test_support::runGcnprobe(std::string("sweep --format VK_FORMAT_R8_UNORM ") + bad);
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_NE(r.out.find(std::string(bad).find("view") != std::string::npos ? "--view-elements"
                                                                            : "--indices"),
              std::string::npos)
        << r.out;
  }
  // Over the device's maxTexelBufferElements (lavapipe: 2^27): refused with the limit named,
  // before anything is allocated.
  const auto big = test_support::runGcnprobe(
      "sweep --format VK_FORMAT_R8_UNORM --indices 0:10 --view-elements 4294967295");
  EXPECT_NE(big.exit, 0) << big.out;
  EXPECT_NE(big.out.find("maxTexelBufferElements"), std::string::npos) << big.out;
}

TEST(Sweep, AnUnknownFormatIsAnErrorNamingIt) {
  const auto r = test_support::runGcnprobe("sweep --format VK_FORMAT_NOPE");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("VK_FORMAT_NOPE"), std::string::npos) << r.out;
}

}  // namespace sweep_test
}  // namespace gcnprobe
