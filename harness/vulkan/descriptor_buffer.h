// VK_EXT_descriptor_buffer for one pipeline's set 0: the descriptors live in a buffer the
// application writes, so a route can put its own words there. On RADV a texel-buffer or
// storage-buffer descriptor is 16 bytes and *is* the V# (Mesa src/amd/vulkan/
// radv_descriptor_set.c, radv_GetDescriptorEXT), which is how the raw V# route
// (harness/routes/raw.h) hands an arbitrary V# to the hardware.
#pragma once

#include <volk.h>

#include <array>
#include <cstdint>
#include <vector>

#include "harness/vulkan/buffer.h"
#include "harness/vulkan/context.h"
#include "harness/vulkan/pipeline.h"

namespace gcnprobe::vk {

// `regions` copies of the set-0 layout of `pipeline` (which must use a descriptor-buffer
// layout) in one host-visible buffer; region r is selected before the dispatch that uses it.
// Throws gcn::Error when the device lacks VK_EXT_descriptor_buffer or bufferDeviceAddress.
class DescriptorBuffer {
 public:
  DescriptorBuffer(Context& ctx, const PipelineObjects& pipeline, uint32_t regions);

  // 16 bytes given by the caller at `binding` of region r (a V# on RADV). Throws when the
  // device's descriptor for that binding's type is not 16 bytes.
  void writeWords(uint32_t region, uint32_t binding, const std::array<uint32_t, 4>& words);
  // The driver's own storage-buffer descriptor (vkGetDescriptorEXT) of [address, +range).
  void writeStorageBuffer(uint32_t region, uint32_t binding, VkDeviceAddress address,
                          VkDeviceSize range);
  // The driver's own uniform or storage texel-buffer descriptor (the binding's type) of
  // [address, +range) viewed as `format`.
  void writeTexelBuffer(uint32_t region, uint32_t binding, VkDeviceAddress address,
                        VkDeviceSize range, VkFormat format);

  // vkCmdBindDescriptorBuffersEXT of this buffer (index 0).
  void bind(VkCommandBuffer cmd) const;
  // vkCmdSetDescriptorBufferOffsetsEXT: set 0 of the pipeline reads region r.
  void select(VkCommandBuffer cmd, uint32_t region) const;

 private:
  std::size_t bindingIndex(uint32_t binding) const;
  std::size_t descriptorSize(VkDescriptorType type) const;
  Context& ctx_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  std::vector<Binding> bindings_;
  std::vector<VkDeviceSize> offsets_;  // per entry of bindings_
  VkDeviceSize regionBytes_ = 0;
  VkPhysicalDeviceDescriptorBufferPropertiesEXT props_{};
  HostBuffer buffer_;
};

}  // namespace gcnprobe::vk
