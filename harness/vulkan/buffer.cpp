#include "harness/vulkan/buffer.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "reference/error.h"
#include "reference/text.h"

namespace gcnprobe::vk {

HostBuffer::HostBuffer(Context& ctx, VkDeviceSize bytes, VkBufferUsageFlags usage)
    : HostBuffer(ctx, bytes, usage, VkDeviceAddress{0}) {}

HostBuffer::HostBuffer(Context& ctx, VkDeviceSize bytes, VkBufferUsageFlags usage,
                       VkDeviceAddress at)
    : usage_(usage), device_(ctx.device()), size_(bytes) {
  if (bytes == 0) throw gcn::Error("a buffer needs at least one byte");
  const bool placed = at != 0;
  if (placed && ((usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) == 0 ||
                 !ctx.features().bufferDeviceAddressCaptureReplay))
    throw gcn::Error(ctx.info().name +
                     " lacks bufferDeviceAddressCaptureReplay: no buffer can be put at a chosen "
                     "device address");
  auto bi = make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bi.size = bytes;
  bi.usage = usage;
  bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  auto bufferAt = make<VkBufferOpaqueCaptureAddressCreateInfo>(
      VK_STRUCTURE_TYPE_BUFFER_OPAQUE_CAPTURE_ADDRESS_CREATE_INFO);
  bufferAt.opaqueCaptureAddress = at;
  if (placed) {
    bi.flags = VK_BUFFER_CREATE_DEVICE_ADDRESS_CAPTURE_REPLAY_BIT;
    bi.pNext = &bufferAt;
  }
  check(vkCreateBuffer(device_, &bi, nullptr, &buffer_), "vkCreateBuffer");
  try {
    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(device_, buffer_, &req);
    auto ai = make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    ai.allocationSize = req.size;
    auto flags = make<VkMemoryAllocateFlagsInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    auto memoryAt = make<VkMemoryOpaqueCaptureAddressAllocateInfo>(
        VK_STRUCTURE_TYPE_MEMORY_OPAQUE_CAPTURE_ADDRESS_ALLOCATE_INFO);
    memoryAt.opaqueCaptureAddress = at;
    if (placed) {
      flags.flags |= VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_CAPTURE_REPLAY_BIT;
      flags.pNext = &memoryAt;
    }
    if ((usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) != 0) ai.pNext = &flags;
    ai.memoryTypeIndex =
        ctx.findMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    const std::string allocating =
        placed ? "vkAllocateMemory at device address " + gcn::hexNumber(at) : "vkAllocateMemory";
    check(vkAllocateMemory(device_, &ai, nullptr, &memory_), allocating.c_str());
    check(vkBindBufferMemory(device_, buffer_, memory_, 0), "vkBindBufferMemory");
    if (placed && deviceAddress() != at)
      throw gcn::Error("the driver put a buffer asked for at device address " + gcn::hexNumber(at) +
                       " at " + gcn::hexNumber(deviceAddress()));
    void* p = nullptr;
    check(vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
    mapped_ = static_cast<uint8_t*>(p);
    std::memset(mapped_, 0, static_cast<size_t>(size_));
  } catch (...) {
    release();
    throw;
  }
}

void HostBuffer::release() {
  if (device_ == VK_NULL_HANDLE) return;
  if (mapped_ != nullptr) vkUnmapMemory(device_, memory_);
  if (buffer_ != VK_NULL_HANDLE) vkDestroyBuffer(device_, buffer_, nullptr);
  if (memory_ != VK_NULL_HANDLE) vkFreeMemory(device_, memory_, nullptr);
  mapped_ = nullptr;
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
}

VkDeviceAddress HostBuffer::deviceAddress() const {
  if ((usage_ & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) == 0)
    throw gcn::Error("a buffer without VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT has no address");
  auto ai = make<VkBufferDeviceAddressInfo>(VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
  ai.buffer = buffer_;
  return vkGetBufferDeviceAddress(device_, &ai);
}

HostBuffer::~HostBuffer() {
  release();
}

HostBuffer::HostBuffer(HostBuffer&& o) noexcept
    : usage_(std::exchange(o.usage_, 0)),
      device_(std::exchange(o.device_, VK_NULL_HANDLE)),
      buffer_(std::exchange(o.buffer_, VK_NULL_HANDLE)),
      memory_(std::exchange(o.memory_, VK_NULL_HANDLE)),
      size_(std::exchange(o.size_, 0)),
      mapped_(std::exchange(o.mapped_, nullptr)) {}

HostBuffer& HostBuffer::operator=(HostBuffer&& o) noexcept {
  if (this != &o) {
    release();
    usage_ = std::exchange(o.usage_, 0);
    device_ = std::exchange(o.device_, VK_NULL_HANDLE);
    buffer_ = std::exchange(o.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(o.memory_, VK_NULL_HANDLE);
    size_ = std::exchange(o.size_, 0);
    mapped_ = std::exchange(o.mapped_, nullptr);
  }
  return *this;
}

namespace {
VkDeviceSize roundUp(VkDeviceSize v, VkDeviceSize a) {
  return a == 0 ? v : (v + a - 1) / a * a;
}
}  // namespace

GuardedRegions::GuardedRegions(Context& ctx, std::span<const VkDeviceSize> payloadBytes,
                               VkBufferUsageFlags usage, VkDeviceSize guardBytes)
    : device_(ctx.device()) {
  if (payloadBytes.empty()) throw gcn::Error("guarded regions need at least one payload");
  const VkPhysicalDeviceLimits& l = ctx.limits();
  // Payloads are bound as texel views or storage/uniform descriptors at their offsets: each
  // offset must satisfy every one of these alignments (Vulkan spec, VkBufferViewCreateInfo and
  // VkDescriptorBufferInfo valid usage). All are powers of two, so the largest works.
  const VkDeviceSize align =
      std::max({l.minTexelBufferOffsetAlignment, l.minStorageBufferOffsetAlignment,
                l.minUniformBufferOffsetAlignment, VkDeviceSize{16}});
  const VkDeviceSize front = roundUp(guardBytes, align);  // the front guard of every region
  try {
    uint32_t typeBits = ~0u;
    VkDeviceSize cursor = 0;
    for (VkDeviceSize bytes : payloadBytes) {
      if (bytes == 0) throw gcn::Error("a guarded region needs a payload of at least one byte");
      auto bi = make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
      bi.size = front + bytes + guardBytes;
      bi.usage = usage;
      bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
      Region& r = regions_.emplace_back();  // in the list at once, so release() frees it
      check(vkCreateBuffer(device_, &bi, nullptr, &r.buffer), "vkCreateBuffer");
      VkMemoryRequirements req{};
      vkGetBufferMemoryRequirements(device_, r.buffer, &req);
      typeBits &= req.memoryTypeBits;
      // Where the buffer may be bound (its own alignment) and where its payload then starts.
      r.begin = roundUp(cursor, std::max<VkDeviceSize>(req.alignment, 1));
      r.payload = r.begin + front;
      r.bytes = bytes;
      r.end = r.begin + std::max(req.size, bi.size);
      cursor = r.end;
    }
    auto ai = make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    ai.allocationSize = cursor;
    ai.memoryTypeIndex = ctx.findMemoryType(
        typeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    check(vkAllocateMemory(device_, &ai, nullptr, &memory_), "vkAllocateMemory");
    for (const Region& r : regions_)
      check(vkBindBufferMemory(device_, r.buffer, memory_, r.begin), "vkBindBufferMemory");
    void* p = nullptr;
    check(vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
    mapped_ = static_cast<uint8_t*>(p);
    std::memset(mapped_, 0, static_cast<size_t>(cursor));  // payloads start as zeros
    resetGuards();
  } catch (...) {
    release();
    throw;
  }
}

GuardedRegions::~GuardedRegions() {
  release();
}

void GuardedRegions::release() {
  if (mapped_ != nullptr) vkUnmapMemory(device_, memory_);
  for (const Region& r : regions_)
    if (r.buffer != VK_NULL_HANDLE) vkDestroyBuffer(device_, r.buffer, nullptr);
  if (memory_ != VK_NULL_HANDLE) vkFreeMemory(device_, memory_, nullptr);
  mapped_ = nullptr;
  memory_ = VK_NULL_HANDLE;
  regions_.clear();
}

const GuardedRegions::Region& GuardedRegions::at(std::size_t i) const {
  if (i >= regions_.size())
    throw gcn::Error("guarded region " + std::to_string(i) + " of " +
                     std::to_string(regions_.size()));
  return regions_[i];
}

std::span<uint8_t> GuardedRegions::payload(std::size_t i) {
  const Region& r = at(i);
  return {mapped_ + r.payload, static_cast<size_t>(r.bytes)};
}

std::span<const uint8_t> GuardedRegions::payload(std::size_t i) const {
  const Region& r = at(i);
  return {mapped_ + r.payload, static_cast<size_t>(r.bytes)};
}

void GuardedRegions::resetGuards() {
  uint8_t* all = mapped_;
  for (const Region& r : regions_) {
    std::fill(all + r.begin, all + r.payload, kGuardPattern);
    std::fill(all + r.payload + r.bytes, all + r.end, kGuardPattern);
  }
}

std::vector<int64_t> GuardedRegions::changedGuardBytes(std::size_t i) const {
  const Region& r = at(i);
  const uint8_t* all = mapped_;
  std::vector<int64_t> out;
  const auto scan = [&](VkDeviceSize from, VkDeviceSize to) {
    for (VkDeviceSize k = from; k < to; ++k)
      if (all[k] != kGuardPattern)
        out.push_back(static_cast<int64_t>(k) - static_cast<int64_t>(r.payload));
  };
  scan(r.begin, r.payload);
  scan(r.payload + r.bytes, r.end);
  return out;
}

}  // namespace gcnprobe::vk
