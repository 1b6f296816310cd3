// The Vulkan device: which devices exist, which one gcnprobe picks, and one opened
// instance + device + queue with the robustness features the probes need.
// Device order: an AMD GCN GPU first, then another GPU, then a CPU device (lavapipe).
#pragma once

#include <volk.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "reference/error.h"
#include "reference/gen.h"

namespace gcnprobe::vk {

struct DeviceInfo {
  uint32_t index = 0;  // position in vkEnumeratePhysicalDevices
  std::string name;    // deviceName
  uint32_t vendorId = 0, deviceId = 0;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  std::string driverName, driverInfo;  // VkPhysicalDeviceDriverProperties ("" if absent)
  uint32_t apiVersion = 0;
  std::optional<gcn::Chip> chip;  // AMD GCN (gfx6-9) devices, incl. the RADV null device
  // An RDNA device, known by its RADV name (`chip` stays empty: it is not GCN). Only the parts
  // that model RDNA (isa, the binary builder, the V# self-check) read it.
  std::optional<gcn::Chip> rdnaChip;
  // The chip the reference models for the device: `chip`, else `rdnaChip`.
  const std::optional<gcn::Chip>& modelledChip() const { return chip ? chip : rdnaChip; }
  bool isSoftware = false;               // CPU device (lavapipe)
  bool hasExecutableProperties = false;  // VK_KHR_pipeline_executable_properties
  bool hasRobustness2 = false;           // VK_EXT_robustness2
  bool hasImageAtomicInt64 = false;      // VK_EXT_shader_image_atomic_int64
  bool hasMaintenance5 = false;          // VK_KHR_maintenance5 (A8_UNORM_KHR, A1B5G5R5_..._KHR)
  bool hasDescriptorBuffer = false;      // VK_EXT_descriptor_buffer
};

// "cpu", "integrated-gpu", "discrete-gpu", "virtual-gpu", "other".
std::string deviceTypeName(VkPhysicalDeviceType type);

// Every physical device, through a temporary instance. Throws gcn::Error when Vulkan has
// no loader or no device.
std::vector<DeviceInfo> listDevices();

// The device `selector` names among `devices`: "" = best (AMD GCN GPU, then other GPU, then
// CPU, then anything); a decimal index ("1"); or a case-insensitive substring of the name.
// Throws gcn::Error listing the devices when none matches.
const DeviceInfo& selectDevice(const std::vector<DeviceInfo>& devices, const std::string& selector);

// What Context enabled (false = absent on the device).
struct Features {
  bool robustBufferAccess = false;
  bool robustBufferAccess2 = false;  // VK_EXT_robustness2
  bool robustImageAccess2 = false;   // VK_EXT_robustness2
  bool nullDescriptor = false;       // VK_EXT_robustness2
  bool storageBuffer8BitAccess = false;
  bool storageBuffer16BitAccess = false;
  bool shaderInt8 = false;
  bool shaderInt16 = false;
  bool shaderInt64 = false;
  bool shaderBufferInt64Atomics = false;
  bool vertexPipelineStoresAndAtomics = false;
  bool shaderStorageImageReadWithoutFormat = false;
  bool shaderStorageImageWriteWithoutFormat = false;
  bool shaderStorageImageExtendedFormats = false;  // r8, rg16, rgb10_a2, ... image formats
  bool pipelineExecutableInfo = false;             // VK_KHR_pipeline_executable_properties
  // VK_EXT_descriptor_buffer, only when open() was asked for it (the V# self-check and the
  // raw V# route): the driver's own descriptor words through vkGetDescriptorEXT, and
  // descriptors the application writes.
  bool descriptorBuffer = false;
  // Vulkan 1.2 bufferDeviceAddress, enabled with descriptorBuffer: the raw V# route's BASE.
  bool bufferDeviceAddress = false;
  // Vulkan 1.2 bufferDeviceAddressCaptureReplay, enabled with bufferDeviceAddress: the raw V#
  // route's far regions (a buffer at a chosen device address, vk::HostBuffer).
  bool bufferDeviceAddressCaptureReplay = false;
  // VK_EXT_shader_image_atomic_int64: the only way SPIR-V gets a 64-bit image type
  // (Int64ImageEXT), so R64_UINT/SINT texel views need it.
  bool shaderImageInt64Atomics = false;
};

class PipelineCacheFile;

// Instance + device + one queue with compute (and graphics when the family has it).
// Non-copyable, non-movable: hold it in the unique_ptr open() returns.
class Context {
 public:
  // validation = true enables VK_LAYER_KHRONOS_validation (core and synchronization
  // validation) and a debug messenger that keeps every warning and error
  // (validationMessages()), counts the errors (validationErrors()) and prints both to stderr.
  // descriptorBuffer = true enables VK_EXT_descriptor_buffer where the device has it
  // (features().descriptorBuffer says whether it did).
  static std::unique_ptr<Context> open(const std::string& selector, bool validation = false,
                                       bool descriptorBuffer = false);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const DeviceInfo& info() const { return info_; }
  // The Vulkan version the device's functionality may be used at: the lower of the device's
  // version (info().apiVersion) and the one the instance was created for (min(loader, 1.3)).
  uint32_t apiVersion() const { return std::min(info_.apiVersion, instanceApiVersion_); }
  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physicalDevice() const { return physical_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queueFamily() const { return queueFamily_; }
  const Features& features() const { return features_; }
  const VkPhysicalDeviceLimits& limits() const { return limits_; }
  // Query before every case: support differs per device and per format.
  VkFormatProperties formatProperties(VkFormat f) const;
  // Throws gcn::Error when no memory type has `flags` among `typeBits`.
  uint32_t findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags flags) const;
  // Whether the device has any memory type: RADV's null device (compile-only) has none, and
  // builds pipelines it cannot run.
  bool canExecute() const { return memory_.memoryTypeCount > 0; }
  // Validation messages of severity error seen so far (0 when validation is off).
  uint32_t validationErrors() const;
  // The text of the validation warnings and errors seen so far.
  std::vector<std::string> validationMessages() const;

  // Keeps pipelines in a VkPipelineCache loaded from and saved to `file` (when the context
  // ends) (harness/vulkan/pipeline_cache.h); an empty path does nothing. Returns why an
  // existing file was not used ("" when it was or there was none). Pipelines created with ISA
  // capture never go through it: a cached pipeline may come without its ISA.
  std::string keepPipelineCache(const std::filesystem::path& file);
  // The cache of keepPipelineCache, else VK_NULL_HANDLE.
  VkPipelineCache pipelineCache() const;
  // Writes that cache to its file now (it is also written when the context ends); throws
  // gcn::Error naming the file when it cannot.
  void savePipelineCache();
  // Called after a pipeline is created through pipelineCache(): PipelineCacheFile::keep.
  void keepPipelineCacheEntries();

  struct Messenger;  // implementation detail (debug-messenger state)

 private:
  Context() = default;
  DeviceInfo info_;
  VkInstance instance_ = VK_NULL_HANDLE;
  uint32_t instanceApiVersion_ = 0;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  std::unique_ptr<Messenger> messengerState_;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queueFamily_ = 0;
  Features features_;
  VkPhysicalDeviceLimits limits_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  std::unique_ptr<PipelineCacheFile> pipelineCache_;  // destroyed (and saved) before the device
};

// A Vulkan struct with its sType set and every other member zero (aggregate init with only
// sType trips -Wmissing-field-initializers).
template <class T>
T make(VkStructureType type) {
  T t{};
  t.sType = type;
  return t;
}

// VK_ERROR_DEVICE_LOST: the device is gone, and every later call on it fails too. The runner
// re-creates the device (or, in a child process, ends so that the parent can isolate the
// case); an infrastructure failure when it cannot.
class DeviceLost : public gcn::InfraError {
 public:
  using gcn::InfraError::InfraError;
};

// Throws gcn::Error naming `what` and the VkResult when r is not VK_SUCCESS (DeviceLost for
// VK_ERROR_DEVICE_LOST).
void check(VkResult r, const char* what);
// "VK_ERROR_OUT_OF_DEVICE_MEMORY", ...
std::string resultName(VkResult r);

}  // namespace gcnprobe::vk
