#include "harness/vsharp_selfcheck.h"

#include <cstdio>
#include <optional>

#include "harness/formats.h"
#include "harness/gcn_detect.h"
#include "harness/routes/route.h"
#include "harness/routes/storage.h"
#include "harness/vulkan/buffer.h"
#include "reference/error.h"
#include "reference/resource.h"
#include "reference/text.h"

namespace gcnprobe::routes {
namespace {

// Bits [bit, bit + width) of the 128-bit V# (word 0 holds bits 0-31).
uint64_t bitsOf(const std::array<uint32_t, 4>& w, unsigned bit, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) {
    const unsigned b = bit + i;
    v |= static_cast<uint64_t>((w[b / 32] >> (b % 32)) & 1u) << i;
  }
  return v;
}

// A descriptor nothing reads could hold any address, but Vulkan requires a real one (the
// validation layer's VUID-VkDescriptorAddressInfoEXT-None-08044): a device with memory gets a
// buffer of its own; the null device (no memory types) a made-up 256-byte aligned address
// (minTexelBufferOffsetAlignment is at most 256), which RADV only encodes.
constexpr VkDeviceAddress kMadeUpBase = 0x100000;
constexpr uint32_t kElements = 256;
constexpr VkDeviceSize kBufferBytes = kElements * 16;  // the widest texel is 16 bytes

// The buffer whose address the descriptors describe, when the device can make one.
std::optional<vk::HostBuffer> addressedBuffer(vk::Context& ctx) {
  if (!ctx.features().bufferDeviceAddress) return std::nullopt;
  try {
    vk::HostBuffer b(
        ctx, kBufferBytes,
        VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT |
            VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
    if (b.deviceAddress() % 256 != 0) return std::nullopt;
    return b;
  } catch (const std::exception&) {
    return std::nullopt;  // no memory (the null device): the made-up address
  }
}

}  // namespace

std::vector<std::string> vsharpDifferences(gcn::Gen gen, const std::array<uint32_t, 4>& driver,
                                           const std::array<uint32_t, 4>& predicted) {
  std::vector<std::string> out;
  std::array<uint32_t, 4> covered{};
  for (const gcn::VSharpField& f : gcn::vsharpFields()) {
    if (!gcn::vsharpFieldExists(gen, f)) continue;
    for (unsigned i = 0; i < f.width; ++i)
      covered[(f.bit + i) / 32] |= 1u << ((f.bit + i) % 32);
    const uint64_t d = bitsOf(driver, f.bit, f.width), p = bitsOf(predicted, f.bit, f.width);
    if (d != p)
      out.push_back(std::string(f.name) + " (" + std::string(f.reg) + "): driver " +
                    gcn::hexNumber(d) + ", table " + gcn::hexNumber(p));
  }
  for (unsigned w = 0; w < 4; ++w) {
    const uint32_t diff = (driver[w] ^ predicted[w]) & ~covered[w];
    if (diff != 0)
      out.push_back("reserved bits of word " + std::to_string(w) + " (mask " +
                    gcn::hexNumber(diff) + "): driver " + gcn::hexNumber(driver[w] & diff) +
                    ", table " + gcn::hexNumber(predicted[w] & diff));
  }
  return out;
}

gcn::Chip selfCheckChip(const vk::DeviceInfo& info) {
  if (const std::optional<gcn::Chip>& chip = info.modelledChip()) return *chip;
  throw gcn::Error(info.name +
                   " is neither a GCN device nor an RDNA chip RADV names: its descriptors are not "
                   "V#s gcnprobe models");
}

std::vector<VSharpCheck> checkDriverVSharps(vk::Context& ctx) {
  const vk::DeviceInfo& info = ctx.info();
  const gcn::Chip chip = selfCheckChip(info);
  if (!ctx.features().descriptorBuffer)
    throw gcn::Error(info.name + " (" + info.driverName + " " + info.driverInfo +
                     ") has no VK_EXT_descriptor_buffer: the driver's descriptor words cannot "
                     "be read (RADV has it since Mesa 23)");
  auto dbp = vk::make<VkPhysicalDeviceDescriptorBufferPropertiesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT);
  auto p2 = vk::make<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  p2.pNext = &dbp;
  vkGetPhysicalDeviceProperties2(ctx.physicalDevice(), &p2);
  struct Kind {
    VkDescriptorType type;
    size_t size;
    VkFormatFeatureFlags feature;
    routes::Binding binding;
  };
  const Kind kinds[] = {
      {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, dbp.uniformTexelBufferDescriptorSize,
       VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT, routes::Binding::UniformTexel},
      {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, dbp.storageTexelBufferDescriptorSize,
       VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT, routes::Binding::StorageTexel},
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, dbp.storageBufferDescriptorSize, 0,
       routes::Binding::StorageBuffer}};
  for (const Kind& k : kinds)
    if (k.size != 16)
      throw gcn::Error(info.driverName + " " + info.driverInfo + ": a " +
                       std::string(routes::bindingName(k.binding)) + " descriptor is " +
                       std::to_string(k.size) + " bytes, not the 16 of a bare V#");
  const std::optional<vk::HostBuffer> buffer = addressedBuffer(ctx);
  const VkDeviceAddress base = buffer ? buffer->deviceAddress() : kMadeUpBase;
  std::vector<VSharpCheck> out;
  // The SSBO descriptor: RADV's raw buffer V# (routes/storage.h makeStorageBufferVSharp).
  {
    auto addr = vk::make<VkDescriptorAddressInfoEXT>(VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT);
    addr.address = base;
    addr.range = kBufferBytes;
    auto gi = vk::make<VkDescriptorGetInfoEXT>(VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT);
    gi.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    gi.data.pStorageBuffer = &addr;
    VSharpCheck c;
    c.format = "(raw buffer)";
    c.binding = std::string(routes::bindingName(routes::Binding::StorageBuffer));
    vkGetDescriptorEXT(ctx.device(), &gi, sizeof c.driver, c.driver.data());
    c.predicted = gcn::encodeVSharp(
        chip.gen,
        routes::makeStorageBufferVSharp(chip.gen, base, static_cast<uint32_t>(kBufferBytes)));
    c.differences = vsharpDifferences(chip.gen, c.driver, c.predicted);
    out.push_back(std::move(c));
  }
  for (const vk::BufferFormat& f : vk::allBufferFormats()) {
    if (f.dfmt == gcn::Dfmt::Invalid) continue;  // no V# to compare
    const VkFormatFeatureFlags features = ctx.formatProperties(f.vk).bufferFeatures;
    for (const Kind& k : kinds) {
      if (k.feature == 0 || (features & k.feature) == 0) continue;
      auto addr =
          vk::make<VkDescriptorAddressInfoEXT>(VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT);
      addr.address = base;
      addr.range = static_cast<VkDeviceSize>(kElements) * f.stride;
      addr.format = f.vk;
      auto gi = vk::make<VkDescriptorGetInfoEXT>(VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT);
      gi.type = k.type;
      if (k.type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER)
        gi.data.pUniformTexelBuffer = &addr;
      else
        gi.data.pStorageTexelBuffer = &addr;
      VSharpCheck c;
      c.format = std::string(f.name);
      c.binding = std::string(routes::bindingName(k.binding));
      vkGetDescriptorEXT(ctx.device(), &gi, sizeof c.driver, c.driver.data());
      c.predicted =
          gcn::encodeVSharp(chip.gen, vk::makeTexelBufferVSharp(chip, base, kElements, f.vk));
      c.differences = vsharpDifferences(chip.gen, c.driver, c.predicted);
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace gcnprobe::routes
