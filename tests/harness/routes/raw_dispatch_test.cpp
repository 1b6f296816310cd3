// The raw V# route's dispatch path run where it can run without GCN bytes: on a device with
// VK_EXT_descriptor_buffer and bufferDeviceAddress (lavapipe on Mesa 25), with the driver's own
// descriptors (vkGetDescriptorEXT) in place of gcnprobe's V#s. Descriptor-buffer allocation and
// binding, guard-banded placement, the lane shaders, read-back and the guard check are the raw
// route's own code; the results must be exactly those of the driver's texel, storage and atomic
// routes for the same cases, and no guard byte may change.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/cases/suite.h"
#include "harness/judge/profile.h"
#include "harness/routes/all_routes.h"
#include "harness/routes/raw.h"
#include "harness/vulkan/context.h"

namespace gcnprobe {
namespace raw_dispatch_test {

TEST(RawDispatch, DriverDescriptorsThroughTheRawPathGiveTheDriverRoutesResults) {
  auto ctx = vk::Context::open("", false, /*descriptorBuffer=*/true);
  if (!ctx->features().descriptorBuffer || !ctx->features().bufferDeviceAddress)
    GTEST_SKIP() << ctx->info().name << " (" << ctx->info().driverInfo
                 << "): no VK_EXT_descriptor_buffer with bufferDeviceAddress";
  const judge::Profile profile = judge::resolveProfile("portable", std::nullopt);
  std::vector<judge::Case> cases;
  for (const char* filter : {"storage.*", "atomic.ssbo.*", "texel.uniform.r8g8b8a8_unorm.*",
                             "texel.uniform.r16g16_sfloat.*", "texel.storage.r32_uint.*",
                             "texel.storage.r8g8b8a8_snorm.*", "atomic.texel.*"})
    for (judge::Case& c : cases::buildCases("", filter, profile.chip))
      cases.push_back(std::move(c));
  auto routes = routes::makeAllRoutes(*ctx);
  std::vector<const routes::DeviceCase*> runnable;
  std::vector<routes::DeviceResult> expected;
  for (const judge::Case& c : cases) {
    const routes::RouteChoice choice = routes::chooseRoute(routes, c.device);
    ASSERT_NE(choice.route, nullptr) << c.name << ": " << choice.reason;
    if (!choice.route->unsupportedReason(c.device).empty()) continue;
    // The raw lane shaders cover the forms the raw route accepts.
    if (!routes::rawFormProblem(c.device).empty()) continue;
    const routes::DeviceCase* dc = &c.device;
    expected.push_back(choice.route->run(std::span<const routes::DeviceCase* const>(&dc, 1))[0]);
    runnable.push_back(dc);
  }
  ASSERT_GT(runnable.size(), 60u) << "too few cases ran on the driver routes";
  const std::vector<routes::DeviceResult> got =
      routes::runRawPathWithDriverDescriptors(*ctx, profile.chip, runnable);
  ASSERT_EQ(got.size(), runnable.size());
  std::size_t lanesCompared = 0;
  for (std::size_t i = 0; i < runnable.size(); ++i) {
    const routes::DeviceCase& c = *runnable[i];
    SCOPED_TRACE(cases.empty() ? "" : std::string(c.inst.op->mnemonic));
    EXPECT_TRUE(got[i].unsupported.empty()) << got[i].unsupported;
    EXPECT_TRUE(got[i].changedGuardBytes.empty())
        << got[i].changedGuardBytes.size() << " guard bytes changed";
    EXPECT_EQ(got[i].memory, expected[i].memory) << "case " << i;
    EXPECT_EQ(got[i].vdataCount, expected[i].vdataCount) << "case " << i;
    for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
      if (((c.state.exec >> l) & 1u) == 0) continue;
      for (unsigned k = 0; k < expected[i].vdataCount; ++k) {
        EXPECT_EQ(got[i].vdata[l][k], expected[i].vdata[l][k])
            << "case " << i << " lane " << l << " word " << k;
        ++lanesCompared;
      }
    }
  }
  std::printf("[ raw path ] %zu cases through the raw dispatch path, %zu lane words equal\n",
              runnable.size(), lanesCompared);
}

}  // namespace raw_dispatch_test
}  // namespace gcnprobe
