#include "harness/vulkan/descriptor_buffer.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "reference/error.h"

namespace gcnprobe::vk {

DescriptorBuffer::DescriptorBuffer(Context& ctx, const PipelineObjects& pipeline, uint32_t regions)
    : ctx_(ctx), layout_(pipeline.layout()), bindings_(pipeline.bindings()) {
  if (!ctx.features().descriptorBuffer || !ctx.features().bufferDeviceAddress)
    throw gcn::Error(
        ctx.info().name +
        ": a descriptor buffer needs VK_EXT_descriptor_buffer and bufferDeviceAddress");
  if (!pipeline.usesDescriptorBuffer())
    throw gcn::Error("DescriptorBuffer: the pipeline's set layout is not a descriptor-buffer one");
  if (regions == 0) throw gcn::Error("DescriptorBuffer: no region");
  props_ = make<VkPhysicalDeviceDescriptorBufferPropertiesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT);
  auto p2 = make<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  p2.pNext = &props_;
  vkGetPhysicalDeviceProperties2(ctx.physicalDevice(), &p2);
  props_.pNext = nullptr;
  VkDeviceSize size = 0;
  vkGetDescriptorSetLayoutSizeEXT(ctx.device(), pipeline.setLayout(), &size);
  const VkDeviceSize align = std::max<VkDeviceSize>(props_.descriptorBufferOffsetAlignment, 1);
  regionBytes_ = (size + align - 1) / align * align;
  for (const Binding& b : bindings_) {
    VkDeviceSize offset = 0;
    vkGetDescriptorSetLayoutBindingOffsetEXT(ctx.device(), pipeline.setLayout(), b.binding,
                                             &offset);
    offsets_.push_back(offset);
  }
  buffer_ = HostBuffer(ctx, std::max<VkDeviceSize>(regionBytes_ * regions, 16),
                       VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT |
                           VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
}

std::size_t DescriptorBuffer::bindingIndex(uint32_t binding) const {
  for (std::size_t i = 0; i < bindings_.size(); ++i)
    if (bindings_[i].binding == binding) return i;
  throw gcn::Error("DescriptorBuffer: the layout has no binding " + std::to_string(binding));
}

std::size_t DescriptorBuffer::descriptorSize(VkDescriptorType type) const {
  switch (type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
      return props_.uniformTexelBufferDescriptorSize;
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      return props_.storageTexelBufferDescriptorSize;
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
      return props_.storageBufferDescriptorSize;
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
      return props_.uniformBufferDescriptorSize;
    default:
      throw gcn::Error("DescriptorBuffer: descriptor type " + std::to_string(type) +
                       " is not a buffer type");
  }
}

void DescriptorBuffer::writeWords(uint32_t region, uint32_t binding,
                                  const std::array<uint32_t, 4>& words) {
  const std::size_t i = bindingIndex(binding);
  const std::size_t size = descriptorSize(bindings_[i].type);
  if (size != sizeof words)
    throw gcn::Error(ctx_.info().name + ": a " + std::to_string(bindings_[i].type) +
                     " descriptor is " + std::to_string(size) + " bytes, not the 16 bytes of a V#");
  std::memcpy(buffer_.bytes().data() + region * regionBytes_ + offsets_[i], words.data(),
              sizeof words);
}

void DescriptorBuffer::writeStorageBuffer(uint32_t region, uint32_t binding,
                                          VkDeviceAddress address, VkDeviceSize range) {
  const std::size_t i = bindingIndex(binding);
  if (bindings_[i].type != VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
    throw gcn::Error("DescriptorBuffer: binding " + std::to_string(binding) +
                     " is not a storage buffer");
  auto ai = make<VkDescriptorAddressInfoEXT>(VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT);
  ai.address = address;
  ai.range = range;
  auto gi = make<VkDescriptorGetInfoEXT>(VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT);
  gi.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  gi.data.pStorageBuffer = &ai;
  vkGetDescriptorEXT(ctx_.device(), &gi, props_.storageBufferDescriptorSize,
                     buffer_.bytes().data() + region * regionBytes_ + offsets_[i]);
}

void DescriptorBuffer::writeTexelBuffer(uint32_t region, uint32_t binding, VkDeviceAddress address,
                                        VkDeviceSize range, VkFormat format) {
  const std::size_t i = bindingIndex(binding);
  const VkDescriptorType type = bindings_[i].type;
  if (type != VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER &&
      type != VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER)
    throw gcn::Error("DescriptorBuffer: binding " + std::to_string(binding) +
                     " is not a texel buffer");
  auto ai = make<VkDescriptorAddressInfoEXT>(VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT);
  ai.address = address;
  ai.range = range;
  ai.format = format;
  auto gi = make<VkDescriptorGetInfoEXT>(VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT);
  gi.type = type;
  if (type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER)
    gi.data.pUniformTexelBuffer = &ai;
  else
    gi.data.pStorageTexelBuffer = &ai;
  vkGetDescriptorEXT(ctx_.device(), &gi, descriptorSize(type),
                     buffer_.bytes().data() + region * regionBytes_ + offsets_[i]);
}

void DescriptorBuffer::bind(VkCommandBuffer cmd) const {
  auto bi =
      make<VkDescriptorBufferBindingInfoEXT>(VK_STRUCTURE_TYPE_DESCRIPTOR_BUFFER_BINDING_INFO_EXT);
  bi.address = buffer_.deviceAddress();
  bi.usage = VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT |
             VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  vkCmdBindDescriptorBuffersEXT(cmd, 1, &bi);
}

void DescriptorBuffer::select(VkCommandBuffer cmd, uint32_t region) const {
  const uint32_t index = 0;
  const VkDeviceSize offset = region * regionBytes_;
  vkCmdSetDescriptorBufferOffsetsEXT(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &index,
                                     &offset);
}

}  // namespace gcnprobe::vk
