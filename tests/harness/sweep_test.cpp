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
namespace {

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

TEST(Sweep, AnUnknownFormatIsAnErrorNamingIt) {
  const auto r = test_support::runGcnprobe("sweep --format VK_FORMAT_NOPE");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("VK_FORMAT_NOPE"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gcnprobe
