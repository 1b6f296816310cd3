// The case's data format as the comparison sees it (from the V# the instruction reads), and
// the sRGB EOTF that sRGB view components go through. Shared by the expectation (expect.h),
// which builds acceptance sets from it, and the differ (diff.h), which compares under it.
#pragma once

#include <array>
#include <cstdint>

#include "harness/routes/route.h"
#include "reference/format.h"
#include "reference/policy.h"
#include "reference/resource.h"

namespace gcnprobe::judge {

struct FormatView {
  gcn::Gen gen = gcn::Gen::Gfx9;
  gcn::Dfmt dfmt = gcn::Dfmt::Invalid;
  gcn::Nfmt nfmt = gcn::Nfmt::Unorm;
  gcn::RegType reg = gcn::RegType::Float;
  std::array<gcn::DstSel, 4> dstSel{gcn::DstSel::X, gcn::DstSel::Y, gcn::DstSel::Z, gcn::DstSel::W};
  uint32_t stride = 0;         // element size in bytes for mapping offsets to elements
  std::array<bool, 4> srgb{};  // components decoded through the sRGB EOTF (Tolerance::srgbAbs)
  // The chip's default policies (Policies::defaults(chip): Stoney's alpha2 differs from GFX8's),
  // for texts that convert a field the way the reference does.
  gcn::Policies policies = gcn::Policies::defaults(gcn::Gen::Gfx9);
};
// Reads the V# the instruction uses (s[inst.srsrc .. +3]) with the chip's layout.
FormatView formatViewOf(const gcn::Chip& chip, const routes::DeviceCase& c);

// The Vulkan sRGB EOTF (Khronos Data Format Specification, "sRGB EOTF"; Vulkan spec, texel
// input "Format Conversion") of a float register holding the UNORM value, exact in double
// and rounded once to float.
uint32_t srgbToLinearBits(uint32_t unormBits);

}  // namespace gcnprobe::judge
