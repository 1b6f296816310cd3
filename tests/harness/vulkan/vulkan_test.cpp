// The Vulkan core on the devices this machine has: lavapipe (executes) and, when Mesa's RADV
// ICD is installed, RADV's null device (compiles with ACO, cannot execute; docs/platform.md).
// Validation is on wherever work is recorded: any validation error fails the test.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "harness/vulkan/buffer.h"
#include "harness/vulkan/context.h"
#include "harness/vulkan/driver.h"
#include "harness/vulkan/pipeline.h"
#include "reference/error.h"
#include "shaders/embedded.h"

namespace vulkan_test {

using namespace gcnprobe::vk;

// RADV of the driver under test (GCNPROBE_DRIVER: the system's Mesa or a driver folder).
bool haveRadv() {
  try {
    radvManifest();
    return true;
  } catch (const gcn::Error&) {
    return false;
  }
}

// Runs a shell command, returns its stdout and sets *status.
std::string capture(const std::string& cmd, int* status) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) {
    *status = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0)
    out.append(buf, n);
  *status = pclose(p);
  return out;
}

DeviceInfo fake(uint32_t index, const char* name, VkPhysicalDeviceType type, bool gcn) {
  DeviceInfo d;
  d.index = index;
  d.name = name;
  d.type = type;
  if (gcn) d.chip = gcn::parseChip("polaris10");
  d.isSoftware = type == VK_PHYSICAL_DEVICE_TYPE_CPU;
  return d;
}

TEST(VulkanDevices, LavapipeIsListedAsSoftware) {
  auto devices = listDevices();
  ASSERT_FALSE(devices.empty());
  bool found = false;
  for (const auto& d : devices) {
    // docs/platform.md: lavapipe reports "llvmpipe (LLVM 15.0.6, 256 bits)", vendor 0x10005.
    if (d.name.find("llvmpipe") != std::string::npos) {
      found = true;
      EXPECT_TRUE(d.isSoftware);
      EXPECT_EQ(d.vendorId, 0x10005u);
      EXPECT_FALSE(d.chip.has_value());
      EXPECT_FALSE(d.hasExecutableProperties);  // docs/platform.md
    }
  }
  EXPECT_TRUE(found) << "lavapipe (mesa-vulkan-drivers) not among the devices";
}

TEST(VulkanDevices, SelectionOrderAndSelectors) {
  std::vector<DeviceInfo> devs = {
      fake(0, "llvmpipe (LLVM 15.0.6, 256 bits)", VK_PHYSICAL_DEVICE_TYPE_CPU, false),
      fake(1, "NVIDIA GeForce GTX 1080", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, false),
      fake(2, "AMD Radeon RX 580 Series (RADV POLARIS10)", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU,
           true),
  };
  EXPECT_EQ(selectDevice(devs, "").index, 2u);  // AMD GCN GPU first
  devs.pop_back();
  EXPECT_EQ(selectDevice(devs, "").index, 1u);  // then another GPU
  devs.pop_back();
  EXPECT_EQ(selectDevice(devs, "").index, 0u);  // then the CPU device
  devs = {fake(0, "llvmpipe (LLVM 15.0.6, 256 bits)", VK_PHYSICAL_DEVICE_TYPE_CPU, false),
          fake(1, "NVIDIA GeForce GTX 1080", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, false)};
  EXPECT_EQ(selectDevice(devs, "0").index, 0u);
  EXPECT_EQ(selectDevice(devs, "LLVMPIPE").index, 0u);  // case-insensitive substring
  EXPECT_EQ(selectDevice(devs, "geforce").index, 1u);
  try {
    selectDevice(devs, "7");
    FAIL() << "index 7 accepted";
  } catch (const gcn::InfraError& e) {
    EXPECT_NE(std::string(e.what()).find("llvmpipe"), std::string::npos) << e.what();
  }
  // A device that is not there is infrastructure (exit 3: CI retries it), not bad input.
  EXPECT_THROW(selectDevice(devs, "radeon"), gcn::InfraError);
}

TEST(VulkanContext, OpensWithRobustBufferAccess) {
  auto ctx = Context::open("", true);
  EXPECT_TRUE(ctx->features().robustBufferAccess);
  if (ctx->info().hasRobustness2) {
    EXPECT_TRUE(ctx->features().robustBufferAccess2);
  }
  EXPECT_NE(ctx->device(), VK_NULL_HANDLE);
  EXPECT_NE(ctx->queue(), VK_NULL_HANDLE);
  // R8G8B8A8_UNORM must be a uniform texel buffer format on every device (Vulkan spec,
  // "Required Format Support"): proves the query reaches the driver.
  EXPECT_TRUE(ctx->formatProperties(VK_FORMAT_R8G8B8A8_UNORM).bufferFeatures &
              VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT);
  EXPECT_THROW(ctx->findMemoryType(0, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT), gcn::Error);
  EXPECT_EQ(ctx->validationErrors(), 0u);
}

TEST(VulkanContext, SmokeShaderWritesThreeIPlusOne) {
  auto ctx = Context::open("", true);
  constexpr uint32_t kLanes = 256;  // 4 workgroups of 64 (smoke_fill.comp)
  GuardedBuffer buf(*ctx, kLanes * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  EXPECT_EQ(buf.payloadOffset() % ctx->limits().minStorageBufferOffsetAlignment, 0u);
  const Binding bindings[] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};
  ComputePipeline pipeline(*ctx, gcnprobe::shaders::get("smoke_fill"), bindings);
  DescriptorSet set(*ctx, pipeline);
  set.writeBuffer(0, buf.buffer(), buf.payloadOffset(), buf.payloadSize());
  submitAndWait(*ctx, [&](VkCommandBuffer cmd) {
    recordDispatch(cmd, pipeline, set, kLanes / 64);
    recordHostReadBarrier(cmd);
  });
  auto bytes = buf.payload();
  for (uint32_t i = 0; i < kLanes; ++i) {
    uint32_t v;
    std::memcpy(&v, bytes.data() + i * 4, 4);
    ASSERT_EQ(v, 3 * i + 1) << "lane " << i;
  }
  EXPECT_TRUE(buf.changedGuardBytes().empty());
  EXPECT_EQ(ctx->validationErrors(), 0u);
}

TEST(VulkanContext, GuardBandsReportWritesOutsideThePayload) {
  auto ctx = Context::open("", true);
  GuardedBuffer buf(*ctx, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    256);
  // 4 bytes right after the payload and 4 bytes right before it (vkCmdFillBuffer needs
  // 4-byte aligned offsets; payloadOffset() is at least 16-aligned).
  submitAndWait(*ctx, [&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, buf.buffer(), buf.payloadOffset() + 64, 4, 0x01020304u);
    vkCmdFillBuffer(cmd, buf.buffer(), buf.payloadOffset() - 4, 4, 0);
    vkCmdFillBuffer(cmd, buf.buffer(), buf.payloadOffset(), 64, 0x11111111u);  // in range
    recordHostReadBarrier(cmd);
  });
  std::vector<int64_t> expected = {-4, -3, -2, -1, 64, 65, 66, 67};
  EXPECT_EQ(buf.changedGuardBytes(), expected);
  EXPECT_EQ(buf.payload()[0], 0x11);
  buf.resetGuards();
  EXPECT_TRUE(buf.changedGuardBytes().empty());
  EXPECT_EQ(buf.payload()[63], 0x11);  // resetGuards leaves the payload alone
  EXPECT_EQ(ctx->validationErrors(), 0u);
}

// Several payloads in one allocation: each in a buffer of its own, aligned for any descriptor,
// with guard bands of its own, and a stray write reported for the payload whose guard it hit
// and no other.
TEST(VulkanContext, GuardedRegionsKeepEachPayloadsGuardsApart) {
  auto ctx = Context::open("", true);
  const VkDeviceSize sizes[] = {64, 8, 128};
  constexpr VkDeviceSize kGuard = 100;
  GuardedRegions regions(
      *ctx, sizes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, kGuard);
  ASSERT_EQ(regions.size(), 3u);
  const VkPhysicalDeviceLimits& l = ctx->limits();
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(regions.payloadSize(i), sizes[i]);
    EXPECT_EQ(regions.payloadOffset(i) % l.minStorageBufferOffsetAlignment, 0u) << i;
    EXPECT_EQ(regions.payloadOffset(i) % l.minTexelBufferOffsetAlignment, 0u) << i;
    EXPECT_GE(regions.payloadOffset(i), kGuard) << i;  // a whole front guard
    for (uint8_t b : regions.payload(i))
      ASSERT_EQ(b, 0) << "payloads start as zeros";
    if (i > 0) {  // no two payloads overlap, and each region has its own buffer
      EXPECT_NE(regions.buffer(i), regions.buffer(i - 1));
      EXPECT_GE(regions.payload(i).data(), regions.payload(i - 1).data() + sizes[i - 1] + kGuard)
          << i;
    }
  }
  EXPECT_THROW(regions.payload(3), gcn::Error);
  EXPECT_THROW(regions.buffer(3), gcn::Error);
  submitAndWait(*ctx, [&](VkCommandBuffer cmd) {
    // 4 bytes right behind payload 0, 4 bytes right before payload 2, payload 1 overwritten.
    vkCmdFillBuffer(cmd, regions.buffer(0), regions.payloadOffset(0) + 64, 4, 0x01020304u);
    vkCmdFillBuffer(cmd, regions.buffer(2), regions.payloadOffset(2) - 4, 4, 0);
    vkCmdFillBuffer(cmd, regions.buffer(1), regions.payloadOffset(1), 8, 0x11111111u);
    recordHostReadBarrier(cmd);
  });
  EXPECT_EQ(regions.changedGuardBytes(0), (std::vector<int64_t>{64, 65, 66, 67}));
  EXPECT_TRUE(regions.changedGuardBytes(1).empty());
  EXPECT_EQ(regions.changedGuardBytes(2), (std::vector<int64_t>{-4, -3, -2, -1}));
  EXPECT_EQ(regions.payload(1)[7], 0x11);
  regions.resetGuards();
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_TRUE(regions.changedGuardBytes(i).empty()) << i;
  EXPECT_EQ(regions.payload(1)[0], 0x11);  // resetGuards leaves payloads alone
  const VkDeviceSize none[] = {4, 0};
  EXPECT_THROW(GuardedRegions(*ctx, none, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT), gcn::Error);
  EXPECT_EQ(ctx->validationErrors(), 0u);
}

// One pool, many sets: each set is its own, and an index past the pool is an error.
TEST(VulkanContext, DescriptorSetsOfOnePoolDispatchIndependently) {
  auto ctx = Context::open("", true);
  const Binding bindings[] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};
  ComputePipeline pipeline(*ctx, gcnprobe::shaders::get("smoke_fill"), bindings);
  const VkDeviceSize sizes[] = {256, 256, 256};
  GuardedRegions regions(*ctx, sizes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  DescriptorSets sets(*ctx, pipeline, 3);
  ASSERT_EQ(sets.size(), 3u);
  for (uint32_t i = 0; i < 3; ++i)
    sets.writeBuffer(i, 0, regions.buffer(i), regions.payloadOffset(i), 256);
  EXPECT_THROW(sets.set(3), gcn::Error);
  EXPECT_THROW(sets.writeBuffer(0, 7, regions.buffer(0), 0, 4), gcn::Error);
  submitAndWait(*ctx, [&](VkCommandBuffer cmd) {
    for (uint32_t i : {0u, 2u})  // set 1 is never dispatched
      recordDispatch(cmd, pipeline, sets.set(i), 1);
    recordHostReadBarrier(cmd);
  });
  for (uint32_t i = 0; i < 3; ++i) {
    uint32_t v = 0;
    std::memcpy(&v, regions.payload(i).data() + 4 * 10, 4);
    EXPECT_EQ(v, i == 1 ? 0u : 31u) << "region " << i;  // smoke_fill: lane 10 writes 3*10+1
    EXPECT_TRUE(regions.changedGuardBytes(i).empty()) << i;
  }
  EXPECT_EQ(ctx->validationErrors(), 0u);
}

// The version device functionality may be used at is the lower of the device's and the one
// the instance was created for (the loader's, at most 1.3).
TEST(VulkanContext, ApiVersionIsTheLowerOfDeviceAndInstance) {
  auto ctx = Context::open("");
  uint32_t loader = VK_API_VERSION_1_0;
  ASSERT_NE(vkEnumerateInstanceVersion, nullptr);
  vkEnumerateInstanceVersion(&loader);
  const uint32_t instance = std::min<uint32_t>(loader, VK_API_VERSION_1_3);
  EXPECT_EQ(ctx->apiVersion(), std::min(instance, ctx->info().apiVersion));
  EXPECT_LE(ctx->apiVersion(), ctx->info().apiVersion);
}

TEST(VulkanContext, CaptureIsaIsEmptyWithoutTheExtension) {
  auto ctx = Context::open("");
  if (ctx->features().pipelineExecutableInfo) GTEST_SKIP() << "device has the extension";
  const Binding bindings[] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};
  ComputePipeline pipeline(*ctx, gcnprobe::shaders::get("smoke_fill"), bindings);
  EXPECT_TRUE(captureIsa(*ctx, pipeline.pipeline()).empty());
  EXPECT_THROW(ComputePipeline(*ctx, gcnprobe::shaders::get("smoke_fill"), bindings, 0, true),
               gcn::Error);
}

// ICD selection is per process: run `gcnprobe _smoke-isa` with the RADV null device.
TEST(VulkanNullDevice, AcoAssemblyHasTheBufferStore) {
  if (!haveRadv()) GTEST_SKIP() << "no RADV ICD";
  for (const char* family : {"tonga", "vega10"}) {
    std::string cmd = std::string("XDG_RUNTIME_DIR=/tmp ") + GCNPROBE_BINARY + " --radv-null " +
                      family + " _smoke-isa 2>/dev/null";
    int status = 0;
    std::string out = capture(cmd, &status);
    ASSERT_EQ(status, 0) << cmd << "\n" << out;
    EXPECT_NE(out.find(std::string("chip: ") + family), std::string::npos) << out;
    size_t asmAt = out.find("=== Assembly");
    size_t irAt = out.find("=== ACO IR");
    ASSERT_NE(asmAt, std::string::npos) << out;
    ASSERT_NE(irAt, std::string::npos) << out;
    // smoke_fill.comp stores one uint per lane to an SSBO: docs/platform.md's table says ACO
    // selects buffer_store_dword for that, with the encoded words after ';' on gfx8+.
    std::string assembly = out.substr(asmAt, irAt - asmAt);
    EXPECT_NE(assembly.find("buffer_store_dword"), std::string::npos) << assembly;
    EXPECT_NE(assembly.find(";"), std::string::npos) << assembly;
    EXPECT_NE(out.substr(irAt).find("buffer_store_dword"), std::string::npos) << out;
  }
}

}  // namespace vulkan_test
