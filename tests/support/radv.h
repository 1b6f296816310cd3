// Tests that need RADV (the null device of a GCN family) skip where the chosen driver has none.
#pragma once

#include <optional>
#include <string>

#include "harness/vulkan/driver.h"
#include "reference/error.h"

namespace gcnprobe::test_support {

// Why RADV cannot be used with the chosen driver (vk::radvManifest's message), or nullopt.
inline std::optional<std::string> radvMissing() {
  try {
    vk::radvManifest();
    return std::nullopt;
  } catch (const gcn::Error& e) {
    return std::string(e.what());
  }
}

}  // namespace gcnprobe::test_support
