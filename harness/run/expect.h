// Expected outcomes of a case: gcn::execute() under the profile's chip, widened under the
// portable profile into acceptance sets (each disputed policy both ways where Vulkan leaves
// the behaviour open; the Vulkan out-of-bounds rules per lane).
#pragma once

#include "harness/run/case.h"
#include "harness/run/diff.h"
#include "harness/run/profile.h"

namespace gcnprobe::run {

struct DeviceRules {
  bool robustBufferAccess2 = false;  // VK_EXT_robustness2 enabled on the device
};

// Throws gcn::Error when the case's instruction is invalid on the profile's chip.
Expected buildExpected(const Case& c, const Profile& profile, const DeviceRules& rules);

}  // namespace gcnprobe::run
