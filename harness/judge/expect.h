// Expected outcomes of a case as acceptance sets (acceptance.h): gcn::execute() under the
// profile's chip, widened under the portable profile (each disputed policy both ways where
// Vulkan leaves the behaviour open; the Vulkan out-of-bounds rules per lane; open fields).
// Every rule becomes labelled alternatives of the sets here; the differ (diff.h) only tests
// values against the sets.
#pragma once

#include "harness/judge/acceptance.h"
#include "harness/judge/case.h"
#include "harness/judge/format_view.h"
#include "harness/judge/profile.h"

namespace gcnprobe::judge {

struct DeviceRules {
  bool robustBufferAccess2 = false;  // VK_EXT_robustness2 enabled on the device
};

// One load of a case's read: the view channel it fetches (0 for a single-instruction case)
// and the instruction.
struct ViewLoad {
  unsigned channel = 0;
  gcn::Instruction inst;
};
// The loads a case's read executes: its instruction alone, or for a composed view one
// BUFFER_LOAD_FORMAT_X with OFFSET + channel * loadBytes per channel its read components
// select, in channel order. Throws gcn::Error when a DST_SEL names a channel the view lacks.
std::vector<ViewLoad> viewLoads(const Case& c);

// formatViewOf for the case, with a composed view's component mapping and sRGB components.
FormatView caseFormatView(const gcn::Chip& chip, const Case& c);

// Throws gcn::Error when the case's instruction is invalid on the profile's chip.
Expected buildExpected(const Case& c, const Profile& profile, const DeviceRules& rules);

}  // namespace gcnprobe::judge
