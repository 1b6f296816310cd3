// Loading Vulkan through volk: once per process, with a clear error when no loader exists.
#pragma once

namespace gcnprobe::vk {

// Applies the process's driver choice (driver.h), then initialises volk (idempotent).
// Throws gcn::Error when libvulkan cannot be loaded or the driver choice is bad.
void loadVulkan();

}  // namespace gcnprobe::vk
