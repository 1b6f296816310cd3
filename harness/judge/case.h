// A case is plain data (as an Amber script is): an intended GCN instruction, the wave state it
// runs on (V#, per-lane VGPRs, EXEC), the initial memory, the route parameters, and the
// named tolerance the case asks for. Expected values come from gcn::execute(), actual
// values from a route; the diff (diff.h) compares them. What a case ends as (its verdict and
// record) is results/record.h: it needs no device.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/judge/tolerance.h"
#include "harness/routes/route.h"
#include "reference/resource.h"
#include "results/record.h"

namespace gcnprobe::judge {

// A Vulkan texel view read that no single GCN instruction performs (formats.h: 3 channels
// of 8/16 bits, sRGB). Composed (channels > 1): the view has `channels` channels of
// loadBytes each; channel k is read by the case's instruction with OFFSET + k * loadBytes
// (its register X), and view component j is channel dstSel[j] (DstSel::X..W = channel
// 0..3) or the constant dstSel[j] (Zero / One); only the channels the read components select
// are loaded (expect.h viewLoads). srgb: the Vulkan sRGB EOTF then applies to the view
// components R, G, B that come from memory (expect.cpp).
struct ViewCompose {
  unsigned channels = 1;
  unsigned loadBytes = 0;
  std::array<gcn::DstSel, 4> dstSel{gcn::DstSel::X, gcn::DstSel::Y, gcn::DstSel::Z, gcn::DstSel::W};
  bool srgb = false;
};

struct Case {
  std::string name;   // unique, dot-separated: "texel.uniform.r8g8b8a8_unorm.load_format_xyzw"
  std::string suite;  // "texel"
  ToleranceId tolerance = ToleranceId::Exact;     // under the portable profile (tolerance.h)
  ToleranceId gcnTolerance = ToleranceId::Exact;  // under a GCN profile
  routes::DeviceCase device;
  // Realisations to run in place of `device` where their route can, first first (a probe's
  // `route = program, storage`: gcnprobe's own program on a GCN device, the storage route
  // elsewhere). `device` is the one every other device runs, and what `list` and `export`
  // show; run::withRunnableRoute picks per device.
  std::vector<routes::DeviceCase> preferred;
  std::optional<ViewCompose> view;  // set for composed / sRGB view reads
  // Set when the case could not be built (a malformed probe file in the disputed suite): the
  // runner reports it as an `error` record with this message and runs the others.
  std::string broken;
};

}  // namespace gcnprobe::judge
