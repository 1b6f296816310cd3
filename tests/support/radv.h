// Tests that need RADV (the null device of a GCN family) skip where the chosen driver has none.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

// Makes this process choose RADV's null device of `family` with Mesa's disk cache off, for
// as long as the object lives, then puts the environment back: the driver selection sets
// loader variables in the process (harness/vulkan/driver.cpp), and later tests that start
// gcnprobe must not inherit them. (The driver chosen for a process stays chosen: ctest runs
// each test in a process of its own.)
class ScopedRadvNull {
 public:
  explicit ScopedRadvNull(const char* family) {
    for (const char* name : kTouched)
      if (const char* v = std::getenv(name)) saved_.emplace_back(name, v);
    setenv("GCNPROBE_RADV_NULL", family, 1);
    setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
  }
  ~ScopedRadvNull() {
    for (const char* name : kTouched)
      unsetenv(name);
    for (const auto& [name, value] : saved_)
      setenv(name.c_str(), value.c_str(), 1);
  }
  ScopedRadvNull(const ScopedRadvNull&) = delete;
  ScopedRadvNull& operator=(const ScopedRadvNull&) = delete;

 private:
  static constexpr const char* kTouched[] = {"GCNPROBE_RADV_NULL", "MESA_SHADER_CACHE_DISABLE",
                                             "RADV_FORCE_FAMILY",  "VK_DRIVER_FILES",
                                             "VK_ICD_FILENAMES",   "NODEVICE_SELECT"};
  std::vector<std::pair<std::string, std::string>> saved_;
};

}  // namespace gcnprobe::test_support
