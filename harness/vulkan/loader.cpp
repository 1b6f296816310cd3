#include "harness/vulkan/loader.h"

#include <volk.h>

#include <mutex>

#include "harness/vulkan/driver.h"
#include "reference/error.h"

namespace gcnprobe::vk {

void loadVulkan() {
  static std::once_flag once;
  static VkResult result = VK_SUCCESS;
  applyDriver();  // before the loader reads VK_DRIVER_FILES (throws for a bad driver choice)
  std::call_once(once, [] {
    result = volkInitialize();
    if (result == VK_SUCCESS) noteLoaderVersion(volkGetInstanceVersion());
  });
  if (result != VK_SUCCESS) {
    throw gcn::InfraError(
        "cannot load the Vulkan loader (libvulkan.so.1): install libvulkan1 and "
        "mesa-vulkan-drivers (scripts/setup.sh does)");
  }
}

}  // namespace gcnprobe::vk
