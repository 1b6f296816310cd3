#include "harness/run/coverage.h"

#include "harness/formats.h"
#include "harness/routes/route.h"

namespace gcnprobe::run {

std::vector<FormatGap> texelCoverageGaps(
    std::span<const results::CaseResult> results,
    const std::function<VkFormatFeatureFlags(VkFormat)>& bufferFeatures) {
  struct BindingBit {
    routes::Binding binding;
    VkFormatFeatureFlags bit;
  };
  constexpr BindingBit kBindings[] = {
      {routes::Binding::UniformTexel, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
      {routes::Binding::StorageTexel, VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT}};
  std::vector<FormatGap> gaps;
  for (const vk::BufferFormat& f : vk::allBufferFormats()) {
    const VkFormatFeatureFlags features = bufferFeatures(f.vk);
    for (const BindingBit& b : kBindings) {
      if ((features & b.bit) == 0) continue;
      const std::string binding(routes::bindingName(b.binding));
      const results::CaseResult* failed = nullptr;
      const results::CaseResult* unsupported = nullptr;
      bool passed = false;
      for (const results::CaseResult& r : results) {
        if (r.suite != "texel" || r.format != f.name || r.binding != binding) continue;
        if (r.verdict == results::Verdict::Pass) {
          passed = true;
          break;
        }
        if (r.verdict == results::Verdict::Unsupported) {
          if (unsupported == nullptr) unsupported = &r;
        } else if (failed == nullptr) {
          failed = &r;
        }
      }
      if (passed) continue;
      FormatGap g{std::string(f.name), binding, ""};
      if (failed != nullptr)
        g.reason = std::string(verdictName(failed->verdict)) + " (" + failed->name +
                   "): " + failed->reason;
      else if (unsupported != nullptr)
        g.reason = "unsupported: " + unsupported->reason;
      else
        g.reason = "no case: texel model " + std::string(texelModelName(texelModel(f))) +
                   (f.note.empty() ? "" : " (" + std::string(f.note) + ")");
      gaps.push_back(std::move(g));
    }
  }
  // Formats the device supports for buffers that the table has no row for: listed, never
  // silently untested (a newer driver's formats show up here first).
  constexpr BindingBit kAnyBinding[] = {
      kBindings[0],
      kBindings[1],
      {routes::Binding::VertexAttribute, VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT}};
  for (const vk::NamedVkFormat& n : vk::allVkFormats()) {
    if (vk::findBufferFormat(n.vk) != nullptr) continue;
    const VkFormatFeatureFlags features = bufferFeatures(n.vk);
    for (const BindingBit& b : kAnyBinding)
      if (features & b.bit)
        gaps.push_back({std::string(n.name), std::string(routes::bindingName(b.binding)),
                        "not modelled: gcnprobe's format table (harness/formats.h) has no row "
                        "for it, so there is no V# and no case"});
  }
  return gaps;
}

std::string gapText(const FormatGap& g) {
  return g.format + " " + g.binding + ": " + g.reason;
}

}  // namespace gcnprobe::run
