// The texel suite on the default device (lavapipe here) under the portable profile: zero
// failures, and every case whose format the device supports as a texel buffer passes.
#include <gtest/gtest.h>

#include <cstdlib>

#include "harness/formats.h"
#include "harness/routes/texel.h"
#include "harness/run/runner.h"
#include "harness/run/suite.h"
#include "harness/vulkan/context.h"

namespace gcnprobe::run {
namespace {

TEST(TexelSuite, PortableProfilePassesEverySupportedFormat) {
  setenv("XDG_RUNTIME_DIR", "/tmp", 0);
  auto ctx = vk::Context::open("");
  RunOptions o;
  o.profile = resolveProfile("portable", std::nullopt);
  o.rules.robustBufferAccess2 = ctx->features().robustBufferAccess2;
  const std::vector<Case> cases = buildCases("texel", "", o.profile.chip);

  // Lower bound derived from the format table and the device's format features alone:
  // every uniform-texel load case of a format with UNIFORM_TEXEL_BUFFER support, other
  // than sRGB (decoded by Vulkan, not by the V#) and 64-bit texels, must pass. Per format
  // the suite loads {1, components, 4} components (suite.cpp).
  size_t mustPass = 0;
  for (const BufferFormat& f : allBufferFormats()) {
    if (!f.texel || f.dfmt == gcn::Dfmt::Invalid) continue;
    const std::string name(f.name);
    if (name.find("SRGB") != std::string::npos || name.find("R64") != std::string::npos) continue;
    if ((ctx->formatProperties(f.vk).bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT) ==
        0)
      continue;
    const unsigned n = gcn::dfmtInfo(f.dfmt).components;
    mustPass += n == 1 || n == 4 ? 2 : 3;
  }
  ASSERT_GT(mustPass, 40u);  // PLATFORM.md: lavapipe has 87 uniform-texel formats

  std::vector<std::unique_ptr<routes::Route>> routes;
  routes.push_back(routes::makeTexelRoute(*ctx));
  std::vector<std::string> failures;
  size_t uniformPassed = 0;
  const Summary s = runCases(cases, routes, o, [&](const CaseResult& r) {
    if (r.verdict == Verdict::Fail || r.verdict == Verdict::Error)
      failures.push_back(r.name + ": " + r.reason);
    if (r.verdict == Verdict::Unsupported) {
      EXPECT_FALSE(r.reason.empty()) << r.name;
    }
    if (r.verdict == Verdict::Pass && r.binding == "uniform-texel") ++uniformPassed;
  });
  for (const std::string& f : failures)
    ADD_FAILURE() << f;
  EXPECT_EQ(s.count(Verdict::Fail), 0u);
  EXPECT_EQ(s.count(Verdict::Error), 0u);
  EXPECT_GE(uniformPassed, mustPass);
  EXPECT_GT(s.count(Verdict::Pass), mustPass);  // plus the storage-texel stores
  std::printf("texel suite: %s\n", s.line().c_str());
}

}  // namespace
}  // namespace gcnprobe::run
