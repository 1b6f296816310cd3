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

// One host-visible, coherent buffer holding several payloads (a batch of cases: one
// allocation instead of one per case), each with guard bands of (at least) `guardBytes` on
// both sides of its own, filled with kGuardPattern. Every payload starts at an offset aligned
// to the device's minTexelBufferOffsetAlignment, minStorageBufferOffsetAlignment and
// minUniformBufferOffsetAlignment (so a front guard may be larger than asked); no two regions
// share a guard byte, so a stray write is reported for the payload it belongs to.
class GuardedRegions {
 public:
  static constexpr uint8_t kGuardPattern = 0xA5;

  // One region per entry of `payloadBytes`; each must be at least one byte.
  GuardedRegions(Context& ctx, std::span<const VkDeviceSize> payloadBytes, VkBufferUsageFlags usage,
                 VkDeviceSize guardBytes = 256);

  std::size_t size() const { return regions_.size(); }
  VkBuffer buffer() const { return storage_.buffer(); }
  // Region `i`'s payload; gcn::Error when out of range.
  std::span<uint8_t> payload(std::size_t i);
  std::span<const uint8_t> payload(std::size_t i) const;
  VkDeviceSize payloadOffset(std::size_t i) const { return at(i).payload; }
  VkDeviceSize payloadSize(std::size_t i) const { return at(i).bytes; }
  // Refills every guard band with kGuardPattern (payloads are left alone).
  void resetGuards();
  // Byte offsets (relative to region i's payload start, negative = before it) of every byte
  // of region i's guard bands that no longer holds kGuardPattern, ascending.
  std::vector<int64_t> changedGuardBytes(std::size_t i) const;

 private:
  struct Region {
    VkDeviceSize begin = 0;    // first byte of the front guard
    VkDeviceSize payload = 0;  // first byte of the payload
    VkDeviceSize bytes = 0;    // payload bytes
    VkDeviceSize end = 0;      // one past the back guard
  };
  const Region& at(std::size_t i) const;
  HostBuffer storage_;
  std::vector<Region> regions_;
};

// A GuardedRegions of one payload.
class GuardedBuffer {
 public:
  static constexpr uint8_t kGuardPattern = GuardedRegions::kGuardPattern;

  GuardedBuffer(Context& ctx, VkDeviceSize payloadBytes, VkBufferUsageFlags usage,
                VkDeviceSize guardBytes = 256)
      : regions_(ctx, std::span<const VkDeviceSize>(&payloadBytes, 1), usage, guardBytes) {}

  std::span<uint8_t> payload() { return regions_.payload(0); }
  std::span<const uint8_t> payload() const { return regions_.payload(0); }
  VkBuffer buffer() const { return regions_.buffer(); }
  VkDeviceSize payloadOffset() const { return regions_.payloadOffset(0); }
  VkDeviceSize payloadSize() const { return regions_.payloadSize(0); }
  void resetGuards() { regions_.resetGuards(); }
  std::vector<int64_t> changedGuardBytes() const { return regions_.changedGuardBytes(0); }

 private:
  GuardedRegions regions_;
};

}  // namespace gcnprobe::vk
