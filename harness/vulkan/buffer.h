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
  // The same at device address `at` (with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT): its memory
  // is allocated with VkMemoryOpaqueCaptureAddressAllocateInfo{at}, which RADV takes as the
  // address to map it at (src/amd/vulkan/radv_device_memory.c). A replay address no capture
  // returned is outside what Vulkan defines, as the raw V#s written next to it are; so the
  // address the buffer got is read back and compared. gcn::Error when the device lacks
  // bufferDeviceAddressCaptureReplay, the driver refuses the address, or places it elsewhere.
  HostBuffer(Context& ctx, VkDeviceSize bytes, VkBufferUsageFlags usage, VkDeviceAddress at);
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

// Several payloads in one host-visible, coherent allocation (a batch of cases: one allocation
// instead of one per case), each in a VkBuffer of its own that also holds its guard bands of
// (at least) `guardBytes` on both sides, filled with kGuardPattern. A buffer of its own per
// region matters under plain robustBufferAccess, where an out-of-bounds store may modify
// anything bound to the buffer: it stays inside its own region, so a stray write is reported
// for the payload it belongs to and no other. Every payload starts at an offset in its buffer
// aligned to the device's minTexelBufferOffsetAlignment, minStorageBufferOffsetAlignment and
// minUniformBufferOffsetAlignment (so a front guard may be larger than asked). Non-copyable.
class GuardedRegions {
 public:
  static constexpr uint8_t kGuardPattern = 0xA5;

  // One region per entry of `payloadBytes`; each must be at least one byte.
  GuardedRegions(Context& ctx, std::span<const VkDeviceSize> payloadBytes, VkBufferUsageFlags usage,
                 VkDeviceSize guardBytes = 256);
  ~GuardedRegions();
  GuardedRegions(const GuardedRegions&) = delete;
  GuardedRegions& operator=(const GuardedRegions&) = delete;

  std::size_t size() const { return regions_.size(); }
  // Region `i`'s buffer (its guards and payload); gcn::Error when out of range.
  VkBuffer buffer(std::size_t i) const { return at(i).buffer; }
  // Region `i`'s payload; gcn::Error when out of range.
  std::span<uint8_t> payload(std::size_t i);
  std::span<const uint8_t> payload(std::size_t i) const;
  // Where the payload starts in buffer(i).
  VkDeviceSize payloadOffset(std::size_t i) const { return at(i).payload - at(i).begin; }
  VkDeviceSize payloadSize(std::size_t i) const { return at(i).bytes; }
  // Refills every guard band with kGuardPattern (payloads are left alone).
  void resetGuards();
  // Byte offsets (relative to region i's payload start, negative = before it) of every byte
  // of region i's guard bands that no longer holds kGuardPattern, ascending.
  std::vector<int64_t> changedGuardBytes(std::size_t i) const;

 private:
  struct Region {
    VkBuffer buffer = VK_NULL_HANDLE;
    // Offsets in the allocation:
    VkDeviceSize begin = 0;    // first byte of the front guard (where the buffer is bound)
    VkDeviceSize payload = 0;  // first byte of the payload
    VkDeviceSize bytes = 0;    // payload bytes
    VkDeviceSize end = 0;      // one past the back guard
  };
  const Region& at(std::size_t i) const;
  void release();
  VkDevice device_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  uint8_t* mapped_ = nullptr;
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
  VkBuffer buffer() const { return regions_.buffer(0); }
  VkDeviceSize payloadOffset() const { return regions_.payloadOffset(0); }
  VkDeviceSize payloadSize() const { return regions_.payloadSize(0); }
  void resetGuards() { regions_.resetGuards(); }
  std::vector<int64_t> changedGuardBytes() const { return regions_.changedGuardBytes(0); }

 private:
  GuardedRegions regions_;
};

}  // namespace gcnprobe::vk
