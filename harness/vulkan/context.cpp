#include "harness/vulkan/context.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "harness/gcn_detect.h"
#include "harness/vulkan/loader.h"
#include "harness/vulkan/pipeline_cache.h"
#include "reference/error.h"
#include "reference/text.h"

namespace gcnprobe::vk {

struct Context::Messenger {
  std::atomic<uint32_t> errors{0};
  std::mutex mutex;
  std::vector<std::string> messages;
};

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool hasExtension(const std::vector<VkExtensionProperties>& exts, const char* name) {
  return std::any_of(exts.begin(), exts.end(), [&](const VkExtensionProperties& e) {
    return std::strcmp(e.extensionName, name) == 0;
  });
}

std::vector<VkExtensionProperties> deviceExtensions(VkPhysicalDevice pd) {
  uint32_t n = 0;
  check(vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr),
        "vkEnumerateDeviceExtensionProperties");
  std::vector<VkExtensionProperties> exts(n);
  check(vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data()),
        "vkEnumerateDeviceExtensionProperties");
  exts.resize(n);
  return exts;
}

// `apiVersion` (optional) receives the version the instance was created for.
VkInstance createInstance(bool validation, bool* debugUtils, uint32_t* apiVersion = nullptr) {
  loadVulkan();
  uint32_t loaderVersion = VK_API_VERSION_1_0;
  if (vkEnumerateInstanceVersion != nullptr) vkEnumerateInstanceVersion(&loaderVersion);
  if (loaderVersion < VK_API_VERSION_1_1) {
    throw gcn::Error("the Vulkan loader is older than 1.1: install libvulkan1 >= 1.1");
  }
  auto app = make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "gcnprobe";
  app.apiVersion = std::min<uint32_t>(loaderVersion, VK_API_VERSION_1_3);
  if (apiVersion != nullptr) *apiVersion = app.apiVersion;
  std::vector<const char*> layers, exts;
  *debugUtils = false;
  if (validation) {
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, nullptr);
    std::vector<VkLayerProperties> props(n);
    vkEnumerateInstanceLayerProperties(&n, props.data());
    bool found = std::any_of(props.begin(), props.end(), [](const VkLayerProperties& l) {
      return std::strcmp(l.layerName, kValidationLayer) == 0;
    });
    if (!found) {
      throw gcn::Error(std::string("validation requested but ") + kValidationLayer +
                       " is not installed (Debian: vulkan-validationlayers)");
    }
    layers.push_back(kValidationLayer);
    exts.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    *debugUtils = true;
  }
  auto ci = make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  // With validation: the core checks plus synchronization validation (hazards between the
  // harness's copies, dispatches and host reads).
  const VkValidationFeatureEnableEXT enables[] = {
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  auto vf = make<VkValidationFeaturesEXT>(VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT);
  vf.enabledValidationFeatureCount = 1;
  vf.pEnabledValidationFeatures = enables;
  if (validation) ci.pNext = &vf;
  ci.pApplicationInfo = &app;
  ci.enabledLayerCount = static_cast<uint32_t>(layers.size());
  ci.ppEnabledLayerNames = layers.data();
  ci.enabledExtensionCount = static_cast<uint32_t>(exts.size());
  ci.ppEnabledExtensionNames = exts.data();
  VkInstance instance = VK_NULL_HANDLE;
  const VkResult created = vkCreateInstance(&ci, nullptr, &instance);
  // The loader found no driver at all: the machine's fault, not the input's.
  if (created == VK_ERROR_INCOMPATIBLE_DRIVER)
    throw gcn::InfraError(
        "no Vulkan device: the loader found no driver (vkCreateInstance: "
        "VK_ERROR_INCOMPATIBLE_DRIVER); install mesa-vulkan-drivers, or check --driver and "
        "VK_ICD_FILENAMES");
  check(created, "vkCreateInstance");
  volkLoadInstance(instance);
  return instance;
}

std::vector<VkPhysicalDevice> physicalDevices(VkInstance instance) {
  uint32_t n = 0;
  check(vkEnumeratePhysicalDevices(instance, &n, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> pds(n);
  check(vkEnumeratePhysicalDevices(instance, &n, pds.data()), "vkEnumeratePhysicalDevices");
  pds.resize(n);
  if (pds.empty()) {
    throw gcn::InfraError(
        "no Vulkan device: install mesa-vulkan-drivers (lavapipe) or check VK_ICD_FILENAMES");
  }
  return pds;
}

// Only plain property queries: the RADV null winsys lacks some (vulkaninfo crashes there,
// docs/platform.md), so no memory-budget or surface queries here.
DeviceInfo describe(VkPhysicalDevice pd, uint32_t index) {
  VkPhysicalDeviceProperties props{};
  vkGetPhysicalDeviceProperties(pd, &props);
  DeviceInfo info;
  info.index = index;
  info.name = props.deviceName;
  info.vendorId = props.vendorID;
  info.deviceId = props.deviceID;
  info.type = props.deviceType;
  info.apiVersion = props.apiVersion;
  auto exts = deviceExtensions(pd);
  info.hasExecutableProperties =
      hasExtension(exts, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  info.hasRobustness2 = hasExtension(exts, VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
  info.hasImageAtomicInt64 = hasExtension(exts, VK_EXT_SHADER_IMAGE_ATOMIC_INT64_EXTENSION_NAME);
  info.hasMaintenance5 = hasExtension(exts, "VK_KHR_maintenance5");
  info.hasDescriptorBuffer = hasExtension(exts, "VK_EXT_descriptor_buffer");
  if (props.apiVersion >= VK_API_VERSION_1_2 ||
      hasExtension(exts, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME)) {
    auto driver =
        make<VkPhysicalDeviceDriverProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES);
    auto p2 = make<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    p2.pNext = &driver;
    vkGetPhysicalDeviceProperties2(pd, &p2);
    info.driverName = driver.driverName;
    info.driverInfo = driver.driverInfo;
  }
  info.chip = detectChip(info.vendorId, info.deviceId, info.name);
  if (!info.chip) info.rdnaChip = rdnaChipFromDeviceName(info.name);
  info.isSoftware = info.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
  return info;
}

// Lower rank = better: AMD GCN GPU, other GPU, CPU, anything else.
int rank(const DeviceInfo& d) {
  bool gpu = d.type == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ||
             d.type == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ||
             d.type == VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU;
  if (d.chip && gpu) return 0;
  if (d.chip) return 1;  // the RADV null device reports type OTHER: still GCN
  if (gpu) return 2;
  if (d.isSoftware) return 3;
  return 4;
}

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                         VkDebugUtilsMessageTypeFlagsEXT /*types*/,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data,
                                         void* user) {
  auto* m = static_cast<Context::Messenger*>(user);
  const bool error = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  // Warnings count as messages too (the gate fails on any), errors also as errors.
  if (error || (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)) {
    if (error) m->errors.fetch_add(1);
    std::lock_guard<std::mutex> lock(m->mutex);
    m->messages.emplace_back(data->pMessage != nullptr ? data->pMessage : "");
    std::fprintf(stderr, "vulkan validation %s: %s\n", error ? "error" : "warning", data->pMessage);
  }
  return VK_FALSE;
}

}  // namespace

std::string resultName(VkResult r) {
  switch (r) {
#define NAME(x) \
  case x:       \
    return #x;
    NAME(VK_SUCCESS)
    NAME(VK_NOT_READY)
    NAME(VK_TIMEOUT)
    NAME(VK_INCOMPLETE)
    NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
    NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    NAME(VK_ERROR_INITIALIZATION_FAILED)
    NAME(VK_ERROR_DEVICE_LOST)
    NAME(VK_ERROR_MEMORY_MAP_FAILED)
    NAME(VK_ERROR_LAYER_NOT_PRESENT)
    NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
    NAME(VK_ERROR_FEATURE_NOT_PRESENT)
    NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
    NAME(VK_ERROR_TOO_MANY_OBJECTS)
    NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
    NAME(VK_ERROR_UNKNOWN)
#undef NAME
    default:
      return "VkResult(" + std::to_string(static_cast<int>(r)) + ")";
  }
}

void check(VkResult r, const char* what) {
  if (r == VK_ERROR_DEVICE_LOST) throw DeviceLost(std::string(what) + " failed: " + resultName(r));
  if (r != VK_SUCCESS) throw gcn::Error(std::string(what) + " failed: " + resultName(r));
}

std::string deviceTypeName(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "cpu";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual-gpu";
    default:
      return "other";
  }
}

std::vector<DeviceInfo> listDevices() {
  bool debugUtils = false;
  VkInstance instance = createInstance(false, &debugUtils);
  std::vector<DeviceInfo> out;
  try {
    auto pds = physicalDevices(instance);
    for (uint32_t i = 0; i < pds.size(); ++i)
      out.push_back(describe(pds[i], i));
  } catch (...) {
    vkDestroyInstance(instance, nullptr);
    throw;
  }
  vkDestroyInstance(instance, nullptr);
  return out;
}

const DeviceInfo& selectDevice(const std::vector<DeviceInfo>& devices,
                               const std::string& selector) {
  if (devices.empty()) throw gcn::Error("no Vulkan device to select from");
  if (selector.empty()) {
    return *std::min_element(devices.begin(), devices.end(),
                             [](const DeviceInfo& a, const DeviceInfo& b) {
                               return rank(a) < rank(b);  // stable: first of equal rank
                             });
  }
  bool numeric = std::all_of(selector.begin(), selector.end(),
                             [](unsigned char c) { return std::isdigit(c) != 0; });
  if (numeric && selector.size() < 6) {
    uint32_t index = static_cast<uint32_t>(std::stoul(selector));
    for (const DeviceInfo& d : devices) {
      if (d.index == index) return d;
    }
  } else {
    std::string needle = gcn::asciiLower(selector);
    for (const DeviceInfo& d : devices) {
      if (gcn::asciiLower(d.name).find(needle) != std::string::npos) return d;
    }
  }
  std::string list;
  for (const DeviceInfo& d : devices) {
    list += "\n  " + std::to_string(d.index) + ": " + d.name;
  }
  // Infrastructure, not bad input (exit 3): on a CI runner this is a GPU that went missing
  // (a container without /dev/dri), which a retry may fix; a silent fallback would pass.
  throw gcn::InfraError("--device '" + selector +
                        "' matches no device (give an index or part of a name); devices:" + list);
}

namespace {

// A debug messenger that keeps every warning and error in `state` (onMessage's user data).
VkDebugUtilsMessengerEXT createMessenger(VkInstance instance, void* state) {
  auto mi = make<VkDebugUtilsMessengerCreateInfoEXT>(
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
  mi.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                   VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                   VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  mi.pfnUserCallback = onMessage;
  mi.pUserData = state;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  check(vkCreateDebugUtilsMessengerEXT(instance, &mi, nullptr, &messenger),
        "vkCreateDebugUtilsMessengerEXT");
  return messenger;
}

// One queue family with compute, preferring one that also has graphics (vertex routes).
uint32_t computeQueueFamily(VkPhysicalDevice physical, const std::string& deviceName) {
  uint32_t nq = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &nq, nullptr);
  std::vector<VkQueueFamilyProperties> families(nq);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &nq, families.data());
  int best = -1;
  for (uint32_t i = 0; i < nq; ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
    if (best < 0 || (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) {
      if (best < 0 || !(families[best].queueFlags & VK_QUEUE_GRAPHICS_BIT))
        best = static_cast<int>(i);
    }
  }
  if (best < 0) throw gcn::Error(deviceName + " has no compute queue");
  return static_cast<uint32_t>(best);
}

// The feature structures the device is asked about and created with, linked through pNext
// (which is why the chain is neither copied nor moved): query() asks what exists, keepUsed()
// turns off everything the probes do not use, so that results do not depend on unrelated
// driver features.
struct FeatureChain {
  FeatureChain() = default;
  FeatureChain(const FeatureChain&) = delete;
  FeatureChain& operator=(const FeatureChain&) = delete;

  VkPhysicalDeviceFeatures2 f2 =
      make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  VkPhysicalDeviceVulkan11Features f11 =
      make<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  VkPhysicalDeviceVulkan12Features f12 =
      make<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  VkPhysicalDeviceRobustness2FeaturesEXT r2 = make<VkPhysicalDeviceRobustness2FeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT);
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pe =
      make<VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
  VkPhysicalDeviceShaderImageAtomicInt64FeaturesEXT i64 =
      make<VkPhysicalDeviceShaderImageAtomicInt64FeaturesEXT>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_IMAGE_ATOMIC_INT64_FEATURES_EXT);
  VkPhysicalDeviceDescriptorBufferFeaturesEXT db =
      make<VkPhysicalDeviceDescriptorBufferFeaturesEXT>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT);
  bool v12 = false;
  bool wantDb = false;  // descriptor buffers asked for and present

  void query(VkPhysicalDevice physical, const DeviceInfo& info, bool descriptorBuffer) {
    v12 = info.apiVersion >= VK_API_VERSION_1_2;
    wantDb = descriptorBuffer && info.hasDescriptorBuffer;
    void** tail = &f2.pNext;
    auto append = [&](auto& s) {
      *tail = &s;
      tail = &s.pNext;
    };
    if (v12) {
      append(f11);
      append(f12);
    }
    if (info.hasRobustness2) append(r2);
    if (info.hasExecutableProperties) append(pe);
    if (info.hasImageAtomicInt64) append(i64);
    if (wantDb) append(db);
    vkGetPhysicalDeviceFeatures2(physical, &f2);
  }

  // Keeps the features the probes use, records them in `on` and returns the extensions to
  // enable.
  std::vector<const char*> keepUsed(const DeviceInfo& info, Features& on) {
    keepCore(on);
    if (v12) keepVulkan12(on);
    std::vector<const char*> exts;
    if (info.hasRobustness2) {
      // robustBufferAccess2 requires robustBufferAccess (VUID-...-robustBufferAccess2-04000).
      if (!f2.features.robustBufferAccess) {
        r2.robustBufferAccess2 = VK_FALSE;
        r2.robustImageAccess2 = VK_FALSE;
      }
      on.robustBufferAccess2 = r2.robustBufferAccess2;
      on.robustImageAccess2 = r2.robustImageAccess2;
      on.nullDescriptor = r2.nullDescriptor;
      exts.push_back(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
    }
    if (info.hasExecutableProperties) {
      on.pipelineExecutableInfo = pe.pipelineExecutableInfo;
      exts.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    }
    if (info.hasImageAtomicInt64) {
      // The 64-bit image variants declare Int64 too (shaderInt64, core above).
      i64.shaderImageInt64Atomics = i64.shaderImageInt64Atomics && f2.features.shaderInt64;
      i64.sparseImageInt64Atomics = VK_FALSE;
      on.shaderImageInt64Atomics = i64.shaderImageInt64Atomics;
      exts.push_back(VK_EXT_SHADER_IMAGE_ATOMIC_INT64_EXTENSION_NAME);
    }
    if (wantDb) {
      db.descriptorBufferCaptureReplay = VK_FALSE;
      db.descriptorBufferImageLayoutIgnored = VK_FALSE;
      db.descriptorBufferPushDescriptors = VK_FALSE;
      on.descriptorBuffer = db.descriptorBuffer;
      if (db.descriptorBuffer) exts.push_back("VK_EXT_descriptor_buffer");
    }
    return exts;
  }

 private:
  // The core features the probes use, each with where `Features` records it: the one list.
  // Formatted imageLoad variants of the texel route declare StorageImageExtendedFormats.
  struct CoreFeature {
    VkBool32 VkPhysicalDeviceFeatures::*vk;
    bool Features::*on;
  };
  static constexpr CoreFeature kCoreFeatures[] = {
      {&VkPhysicalDeviceFeatures::robustBufferAccess, &Features::robustBufferAccess},
      {&VkPhysicalDeviceFeatures::shaderInt16, &Features::shaderInt16},
      {&VkPhysicalDeviceFeatures::shaderInt64, &Features::shaderInt64},
      {&VkPhysicalDeviceFeatures::vertexPipelineStoresAndAtomics,
       &Features::vertexPipelineStoresAndAtomics},
      {&VkPhysicalDeviceFeatures::shaderStorageImageReadWithoutFormat,
       &Features::shaderStorageImageReadWithoutFormat},
      {&VkPhysicalDeviceFeatures::shaderStorageImageWriteWithoutFormat,
       &Features::shaderStorageImageWriteWithoutFormat},
      {&VkPhysicalDeviceFeatures::shaderStorageImageExtendedFormats,
       &Features::shaderStorageImageExtendedFormats},
  };

  void keepCore(Features& on) {
    VkPhysicalDeviceFeatures core{};
    for (const CoreFeature& f : kCoreFeatures) {
      core.*f.vk = f2.features.*f.vk;
      on.*f.on = core.*f.vk != VK_FALSE;
    }
    f2.features = core;
  }

  void keepVulkan12(Features& on) {
    auto k11 = make<VkPhysicalDeviceVulkan11Features>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
    k11.storageBuffer16BitAccess = f11.storageBuffer16BitAccess;
    k11.pNext = f11.pNext;
    f11 = k11;
    auto k12 = make<VkPhysicalDeviceVulkan12Features>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
    k12.storageBuffer8BitAccess = f12.storageBuffer8BitAccess;
    k12.shaderInt8 = f12.shaderInt8;
    k12.shaderBufferInt64Atomics = f12.shaderBufferInt64Atomics;
    // The raw V# route puts a buffer's device address in the V# it writes into a descriptor
    // buffer: only with descriptor buffers asked for.
    k12.bufferDeviceAddress = wantDb ? f12.bufferDeviceAddress : VK_FALSE;
    k12.bufferDeviceAddressCaptureReplay =
        k12.bufferDeviceAddress ? f12.bufferDeviceAddressCaptureReplay : VK_FALSE;
    k12.pNext = f12.pNext;
    f12 = k12;
    on.storageBuffer16BitAccess = f11.storageBuffer16BitAccess;
    on.storageBuffer8BitAccess = f12.storageBuffer8BitAccess;
    on.shaderInt8 = f12.shaderInt8;
    on.shaderBufferInt64Atomics = f12.shaderBufferInt64Atomics;
    on.bufferDeviceAddress = f12.bufferDeviceAddress;
    on.bufferDeviceAddressCaptureReplay = f12.bufferDeviceAddressCaptureReplay;
  }
};

VkDevice createDevice(VkPhysicalDevice physical, uint32_t queueFamily, FeatureChain& features,
                      const std::vector<const char*>& exts) {
  float priority = 1.0f;
  auto qi = make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  qi.queueFamilyIndex = queueFamily;
  qi.queueCount = 1;
  qi.pQueuePriorities = &priority;
  auto di = make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  di.pNext = &features.f2;
  di.queueCreateInfoCount = 1;
  di.pQueueCreateInfos = &qi;
  di.enabledExtensionCount = static_cast<uint32_t>(exts.size());
  di.ppEnabledExtensionNames = exts.data();
  VkDevice device = VK_NULL_HANDLE;
  check(vkCreateDevice(physical, &di, nullptr, &device), "vkCreateDevice");
  return device;
}

}  // namespace

std::unique_ptr<Context> Context::open(const std::string& selector, bool validation,
                                       bool descriptorBuffer) {
  std::unique_ptr<Context> ctx(new Context());
  bool debugUtils = false;
  ctx->instance_ = createInstance(validation, &debugUtils, &ctx->instanceApiVersion_);
  if (debugUtils) {
    ctx->messengerState_ = std::make_unique<Messenger>();
    ctx->messenger_ = createMessenger(ctx->instance_, ctx->messengerState_.get());
  }
  auto pds = physicalDevices(ctx->instance_);
  std::vector<DeviceInfo> infos;
  for (uint32_t i = 0; i < pds.size(); ++i)
    infos.push_back(describe(pds[i], i));
  ctx->info_ = selectDevice(infos, selector);
  ctx->physical_ = pds[ctx->info_.index];
  VkPhysicalDeviceProperties props{};
  vkGetPhysicalDeviceProperties(ctx->physical_, &props);
  ctx->limits_ = props.limits;
  vkGetPhysicalDeviceMemoryProperties(ctx->physical_, &ctx->memory_);
  ctx->queueFamily_ = computeQueueFamily(ctx->physical_, ctx->info_.name);

  // Features: ask what exists, enable what the probes use.
  FeatureChain features;
  features.query(ctx->physical_, ctx->info_, descriptorBuffer);
  const std::vector<const char*> exts = features.keepUsed(ctx->info_, ctx->features_);
  ctx->device_ = createDevice(ctx->physical_, ctx->queueFamily_, features, exts);
  vkGetDeviceQueue(ctx->device_, ctx->queueFamily_, 0, &ctx->queue_);
  return ctx;
}

std::string Context::keepPipelineCache(const std::filesystem::path& file) {
  pipelineCache_.reset();
  if (file.empty()) return "";
  pipelineCache_ = std::make_unique<PipelineCacheFile>(*this, file);
  return pipelineCache_->note();
}

VkPipelineCache Context::pipelineCache() const {
  return pipelineCache_ ? pipelineCache_->handle() : VK_NULL_HANDLE;
}

void Context::keepPipelineCacheEntries() {
  if (pipelineCache_) pipelineCache_->keep();
}

void Context::savePipelineCache() {
  if (pipelineCache_) pipelineCache_->save();
}

Context::~Context() {
  pipelineCache_.reset();
  if (device_ != VK_NULL_HANDLE) {
    // No vkDeviceWaitIdle: submitAndWait waits for every submission, and the RADV null
    // device (which cannot execute) crashes in it (measured, Mesa 22.3.6).
    vkDestroyDevice(device_, nullptr);
  }
  if (messenger_ != VK_NULL_HANDLE) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
  if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

VkFormatProperties Context::formatProperties(VkFormat f) const {
  VkFormatProperties p{};
  // A VkFormat from an extension's range (value 1000000000 + (extension number - 1) * 1000 +
  // n) is a valid value only where the device has it (Vulkan spec, "Extending Physical Device
  // Core Functionality"): through core 1.1 (157, YCbCr conversion), core 1.3 (67 ASTC HDR,
  // 331 2-plane 444 YCbCr, 341 4444 formats) or VK_KHR_maintenance5 (471: A1B5G5R5 and A8).
  // Others (PVRTC, NV optical flow) are never queried: they read as unsupported. Debian 12's
  // validation layer (1.3.239) predates maintenance5's formats and reports them as invalid even
  // on a device that has them, so under validation those are not queried either.
  if (static_cast<int64_t>(f) >= 1000000000) {
    const int64_t ext = (static_cast<int64_t>(f) - 1000000000) / 1000 + 1;
    const uint32_t api = info_.apiVersion;
    const bool valid = (ext == 157 && api >= VK_API_VERSION_1_1) ||
                       ((ext == 67 || ext == 331 || ext == 341) && api >= VK_API_VERSION_1_3) ||
                       (ext == 471 && info_.hasMaintenance5 && !messengerState_);
    if (!valid) return p;
  }
  vkGetPhysicalDeviceFormatProperties(physical_, f, &p);
  return p;
}

uint32_t Context::findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags flags) const {
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    if ((typeBits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & flags) == flags) return i;
  }
  throw gcn::Error(info_.name + " has no memory type with flags " + std::to_string(flags) +
                   " among type bits " + std::to_string(typeBits));
}

uint32_t Context::validationErrors() const {
  return messengerState_ ? messengerState_->errors.load() : 0;
}

std::vector<std::string> Context::validationMessages() const {
  if (!messengerState_) return {};
  std::lock_guard<std::mutex> lock(messengerState_->mutex);
  return messengerState_->messages;
}

}  // namespace gcnprobe::vk
