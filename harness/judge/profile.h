// Profiles: which model the expected values come from. gfx6..gfx9: the reference for that
// generation predicts exactly (the default on an AMD GCN device: its own generation).
// portable: only what the Vulkan spec guarantees (the default on any other device):
// expected values are computed for a representative GCN generation and widened by
// acceptance sets (disputed policies, Vulkan out-of-bounds rules) and the case's named
// tolerance.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "reference/gen.h"

namespace gcnprobe::judge {

struct Profile {
  std::string name;  // "gfx6".."gfx9" or "portable"
  bool portable = false;
  gcn::Chip chip;  // the chip whose reference predicts (portable: kPortableGen's)
};

// The generation the portable profile computes with: GFX9 keeps NUM_RECORDS of texel
// buffers in elements like GFX6/7 (docs/gcn-facts.md) and is the newest GCN generation.
inline constexpr gcn::Gen kPortableGen = gcn::Gen::Gfx9;

// `text`: "" (default for the device), "portable", or a generation ("gfx8"). deviceChip
// is the device's chip when it is an AMD GCN device: it is used as the predicting chip
// when its generation is the profile's. Throws gcn::Error for an unknown name.
Profile resolveProfile(std::string_view text, const std::optional<gcn::Chip>& deviceChip);

}  // namespace gcnprobe::judge
