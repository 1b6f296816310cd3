// Host-visible buffers: one with guard bands that reveal writes outside the payload, one
// plain. Both are host-visible and coherent (no flush/invalidate needed) and stay mapped.
#pragma once

#include <volk.h>

#include <cstdint>
#include <span>
#include <vector>

#include "harness/vulkan/context.h"

namespace gcnprobe::vk {

// A VkBuffer with its own memory, mapped for its whole life. Non-copyable, movable.
class HostBuffer {
 public:
  HostBuffer() = default;
  HostBuffer(Context& ctx, VkDeviceSize bytes, VkBufferUsageFlags usage);
  ~HostBuffer();
  HostBuffer(HostBuffer&& o) noexcept;
  HostBuffer& operator=(HostBuffer&& o) noexcept;
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  VkBuffer buffer() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  std::span<uint8_t> bytes() { return {mapped_, static_cast<size_t>(size_)}; }
  std::span<const uint8_t> bytes() const { return {mapped_, static_cast<size_t>(size_)}; }
  // vkGetBufferDeviceAddress; the buffer must have been created with
  // VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT (its memory is then allocated with
  // VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT), else gcn::Error.
  VkDeviceAddress deviceAddress() const;

 private:
  void release();
  VkBufferUsageFlags usage_ = 0;
  VkDevice device_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  uint8_t* mapped_ = nullptr;
};

// A host-visible, coherent buffer of `payloadBytes` with guard bands of (at least)
// `guardBytes` on both sides filled with kGuardPattern; the payload starts at
// payloadOffset(), aligned to the device's minTexelBufferOffsetAlignment,
// minStorageBufferOffsetAlignment and minUniformBufferOffsetAlignment (so the front
// guard may be larger than asked).
class GuardedBuffer {
 public:
  static constexpr uint8_t kGuardPattern = 0xA5;

  GuardedBuffer(Context& ctx, VkDeviceSize payloadBytes, VkBufferUsageFlags usage,
                VkDeviceSize guardBytes = 256);

  std::span<uint8_t> payload();
  std::span<const uint8_t> payload() const;
  VkBuffer buffer() const { return storage_.buffer(); }
  VkDeviceSize payloadOffset() const { return front_; }
  VkDeviceSize payloadSize() const { return payloadBytes_; }
  // Refills both guard bands with kGuardPattern (the payload is left alone).
  void resetGuards();
  // Byte offsets (relative to payload start, negative = before it) of every guard byte
  // that no longer holds kGuardPattern, ascending.
  std::vector<int64_t> changedGuardBytes() const;

 private:
  HostBuffer storage_;
  VkDeviceSize front_ = 0;
  VkDeviceSize payloadBytes_ = 0;
};

}  // namespace gcnprobe::vk
