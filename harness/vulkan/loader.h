// Loading Vulkan through volk: once per process, with a clear error when no loader exists.
#pragma once

namespace gcnprobe::vk {

// Initialises volk (idempotent). Throws gcn::Error when libvulkan cannot be loaded.
void loadVulkan();

}  // namespace gcnprobe::vk
