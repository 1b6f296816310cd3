// What a texel-suite run did not prove: the texel-buffer formats the device supports for
// which no case passed, each with the reason. `gcnprobe run` prints them before its count
// line and writes them to the JSON report ("texel_gaps"), so a user sees the holes in the
// coverage instead of inferring them from the unsupported count.
#pragma once

#include <volk.h>

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "harness/judge/case.h"

namespace gcnprobe::run {

struct FormatGap {
  std::string format;   // "VK_FORMAT_R64_UINT"
  std::string binding;  // "uniform-texel" / "storage-texel"
  std::string reason;   // why no case passed
};

// For every row of harness/formats.h and both texel bindings the device supports
// (bufferFeatures(format) has the binding's feature bit): a gap when no texel-suite result
// for that format and binding passed. The reason is the first failing case's verdict and
// reason, else the first unsupported case's, else "no case" with the format's texel model.
// Then every other VkFormat (allVkFormats) the device supports as a uniform/storage texel or
// vertex buffer: a gap "not modelled", so no supported format is silently untested.
std::vector<FormatGap> texelCoverageGaps(
    std::span<const results::CaseResult> results,
    const std::function<VkFormatFeatureFlags(VkFormat)>& bufferFeatures);

// "VK_FORMAT_R64_UINT uniform-texel: <reason>".
std::string gapText(const FormatGap& g);

}  // namespace gcnprobe::run
