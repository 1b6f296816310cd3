// texelCoverageGaps on synthetic outcomes: which (format, binding) pairs the device supports
// but no case proved, and the reason reported for each.
#include <gtest/gtest.h>

#include "harness/run/coverage.h"

namespace gcnprobe::run {
namespace coverage_test {

results::CaseResult outcome(const std::string& name, const std::string& format,
                            const std::string& binding, results::Verdict v,
                            const std::string& reason = "") {
  results::CaseResult r;
  r.name = name;
  r.suite = "texel";
  r.format = format;
  r.binding = binding;
  r.verdict = v;
  r.reason = reason;
  return r;
}

const FormatGap* find(const std::vector<FormatGap>& gaps, const std::string& format,
                      const std::string& binding) {
  for (const FormatGap& g : gaps)
    if (g.format == format && g.binding == binding) return &g;
  return nullptr;
}

TEST(TexelCoverage, GapsAreSupportedPairsWithoutAPass) {
  // The device: R8_UNORM uniform+storage, R16_UNORM uniform, R64G64_UINT uniform; nothing else.
  const auto features = [](VkFormat f) -> VkFormatFeatureFlags {
    switch (f) {
      case VK_FORMAT_R8_UNORM:
        return VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT |
               VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
      case VK_FORMAT_R16_UNORM:
      case VK_FORMAT_R64G64_UINT:
        return VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT;
      default:
        return 0;
    }
  };
  const std::vector<results::CaseResult> results = {
      outcome("a", "VK_FORMAT_R8_UNORM", "uniform-texel", results::Verdict::Unsupported, "first"),
      outcome("b", "VK_FORMAT_R8_UNORM", "uniform-texel", results::Verdict::Pass),
      outcome("c", "VK_FORMAT_R8_UNORM", "storage-texel", results::Verdict::Unsupported,
              "no qualifier"),
      outcome("d", "VK_FORMAT_R16_UNORM", "uniform-texel", results::Verdict::Unsupported, "later"),
      outcome("e", "VK_FORMAT_R16_UNORM", "uniform-texel", results::Verdict::Fail,
              "lane 3 differs"),
      // A pass on a format the device does not list changes nothing.
      outcome("f", "VK_FORMAT_R32_UINT", "uniform-texel", results::Verdict::Pass),
  };
  const std::vector<FormatGap> gaps = texelCoverageGaps(results, features);
  ASSERT_EQ(gaps.size(), 3u);
  EXPECT_EQ(find(gaps, "VK_FORMAT_R8_UNORM", "uniform-texel"), nullptr);
  const FormatGap* storage = find(gaps, "VK_FORMAT_R8_UNORM", "storage-texel");
  ASSERT_NE(storage, nullptr);
  EXPECT_EQ(storage->reason, "unsupported: no qualifier");
  const FormatGap* r16 = find(gaps, "VK_FORMAT_R16_UNORM", "uniform-texel");
  ASSERT_NE(r16, nullptr);
  EXPECT_EQ(r16->reason, "fail (e): lane 3 differs");  // a failure outranks unsupported
  const FormatGap* wide = find(gaps, "VK_FORMAT_R64G64_UINT", "uniform-texel");
  ASSERT_NE(wide, nullptr);
  EXPECT_EQ(wide->reason.rfind("no case: texel model none", 0), 0u) << wide->reason;
  EXPECT_EQ(gapText(*storage), "VK_FORMAT_R8_UNORM storage-texel: unsupported: no qualifier");
}

TEST(TexelCoverage, OtherSuitesDoNotCount) {
  const auto features = [](VkFormat f) -> VkFormatFeatureFlags {
    return f == VK_FORMAT_R8_UINT ? VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT : 0;
  };
  results::CaseResult r =
      outcome("v", "VK_FORMAT_R8_UINT", "uniform-texel", results::Verdict::Pass);
  r.suite = "vertex";
  const std::vector<FormatGap> gaps =
      texelCoverageGaps(std::vector<results::CaseResult>{r}, features);
  ASSERT_EQ(gaps.size(), 1u);
  EXPECT_EQ(gaps[0].format, "VK_FORMAT_R8_UINT");
}

}  // namespace coverage_test
}  // namespace gcnprobe::run
