#include "harness/repro/reproduction.h"

#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "harness/cases/suite.h"
#include "harness/judge/expect.h"
#include "harness/routes/atomic.h"
#include "harness/routes/storage.h"
#include "harness/vulkan/buffer.h"
#include "reference/error.h"
#include "reference/resource.h"
#include "shaders/embedded.h"

namespace gcnprobe::repro {
namespace {

constexpr uint64_t kGuardBytes = 256 + routes::detail::kMaxOverrun;  // as runLaneShader binds it

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

// The shader variant that runs the case in gcnprobe, and whether its OFFSET is specialization
// constant 0; "" with `why` when the case's route has no reproduction (yet).
std::string variantOf(const run::Case& c, std::string& why) {
  const routes::DeviceCase& d = c.device;
  if (d.rawVsharp || d.binaryPatch || d.ownProgram) {
    why = d.ownProgram    ? "gcnprobe's own program is GCN machine code: no SPIR-V expresses it"
          : d.binaryPatch ? "the binary route patches GCN machine code into a pipeline: no SPIR-V "
                            "expresses it"
                          : "a raw V# reaches the shader through VK_EXT_descriptor_buffer, which "
                            "Amber does not drive";
    return "";
  }
  if (d.inst.op == nullptr) {
    why = "no instruction";
    return "";
  }
  if (d.inst.op->kind == gcn::OpKind::Atomic) {
    if (d.binding != routes::Binding::StorageBuffer) {
      why = "texel-buffer atomics are not exported yet (imageAtomic on a storage texel view)";
      return "";
    }
    return routes::atomicVariant(d);
  }
  if (d.binding == routes::Binding::StorageBuffer) {
    const std::string v = routes::storageVariant(d);
    if (v.empty()) why = "no storage-route shader variant for this instruction";
    return v;
  }
  why = std::string("the ") + std::string(routes::bindingName(d.binding)) +
        " route is not exported yet (texel views and vertex fetch need Amber's format "
        "buffers)";
  return "";
}

// Lane l's words of Out, as the reference expects them: one exact outcome, or why not.
struct LaneExpectation {
  std::vector<uint32_t> words;
  std::string unchecked;  // "" when `words` is what the lane must return
};
LaneExpectation laneExpectation(const run::Expected& e, unsigned lane, unsigned words,
                                const run::Tolerance& tol) {
  const run::LaneSet& set = e.lanes[lane];
  LaneExpectation out;
  if (set.count == 0 || words == 0) return out;
  if (set.alternatives.size() != 1) {
    out.unchecked = std::to_string(set.alternatives.size()) + " acceptable outcomes (";
    for (std::size_t k = 0; k < set.alternatives.size(); ++k)
      out.unchecked += (k ? ", " : "") + e.rules[set.alternatives[k].rule];
    out.unchecked += ")";
    return out;
  }
  const run::LaneAlternative& a = set.alternatives.front();
  if (a.kind != run::AcceptKind::Values) {
    out.unchecked = a.kind == run::AcceptKind::Any
                        ? "any value (" + e.rules[a.rule] + ")"
                        : "a serial order of the atomics (" + e.rules[a.rule] + ")";
    return out;
  }
  for (unsigned k = 0; k < words; ++k) {
    if (!a.vdata[k]) {
      out.words.clear();
      out.unchecked = "component " + std::to_string(k) + " may be any value";
      return out;
    }
    out.words.push_back(*a.vdata[k]);
  }
  if (tol.id != run::ToleranceId::Exact) {
    out.words.clear();
    out.unchecked = "the case's tolerance " + std::string(tol.name) + " (Amber compares exactly)";
  }
  return out;
}

}  // namespace

std::string spirvAssembly(std::span<const uint32_t> spirv) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_1);
  std::string message;
  tools.SetMessageConsumer(
      [&message](spv_message_level_t, const char*, const spv_position_t& p, const char* m) {
        message += "word " + std::to_string(p.index) + ": " + m;
      });
  std::string text;
  if (!tools.Disassemble(
          spirv.data(), spirv.size(), &text,
          SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_NO_HEADER))
    throw gcn::Error("SPIR-V does not disassemble: " + message);
  return text;
}

std::string spirvValidationProblem(std::span<const uint32_t> spirv) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_1);
  std::string message;
  tools.SetMessageConsumer(
      [&message](spv_message_level_t, const char*, const spv_position_t&, const char* m) {
        message += (message.empty() ? "" : "; ") + std::string(m);
      });
  if (tools.Validate(spirv.data(), spirv.size())) return "";
  return message.empty() ? "invalid SPIR-V" : message;
}

Reproduction reproduce(const run::Case& c, const run::Profile& profile) {
  if (!c.broken.empty()) throw gcn::Error(c.name + ": " + c.broken);
  Reproduction r;
  r.name = c.name;
  r.profile = profile.name;
  const routes::DeviceCase& d = c.device;
  r.route = d.ownProgram                                                     ? "program"
            : d.binaryPatch                                                  ? "binary"
            : d.rawVsharp                                                    ? "raw"
            : d.inst.op != nullptr && d.inst.op->kind == gcn::OpKind::Atomic ? "atomic"
            : d.binding == routes::Binding::StorageBuffer                    ? "storage"
            : d.binding == routes::Binding::VertexAttribute                  ? "vertex"
                                                                             : "texel";
  r.instruction = run::caseInstructionText(profile.chip.gen, c);
  r.variant = variantOf(c, r.notExpressed);
  if (r.variant.empty()) return r;
  const gcn::OpcodeInfo& op = *d.inst.op;
  const routes::RawBufferFields v = routes::rawBufferFields(d);
  r.vsharp = gcn::formatVSharp(
      profile.chip.gen,
      gcn::decodeVSharp(profile.chip.gen, gcn::vsharpWords(d.state, d.inst.srsrc)));

  // The shader, as gcnprobe compiles it.
  r.glsl = shaders::glslOf(r.variant);
  const std::span<const uint32_t> spv = shaders::get(r.variant);
  r.spirv.assign(spv.begin(), spv.end());
  r.spirvAsm = spirvAssembly(r.spirv);
  r.specOffset = d.inst.offset;

  // What the device must offer, as gcnprobe's device has it (harness/vulkan/context.cpp).
  r.deviceFeatures.push_back("robustBufferAccess");
  if (op.kind != gcn::OpKind::Atomic && op.memBytes == 1) {
    r.deviceFeatures.push_back("Storage8BitFeatures.storageBuffer8BitAccess");
    r.deviceFeatures.push_back("Float16Int8Features.shaderInt8");
  }
  if (op.kind != gcn::OpKind::Atomic && op.memBytes == 2) {
    r.deviceFeatures.push_back("Storage16BitFeatures.storageBuffer16BitAccess");
    r.deviceFeatures.push_back("shaderInt16");
  }
  if (op.wide) {
    r.notExpressed =
        "64-bit atomics need shaderBufferInt64Atomics (VkPhysicalDeviceShaderAtomicInt64Features), "
        "which Amber cannot require";
    return r;
  }

  // The expected outcome, as `gcnprobe run` builds it under the profile.
  const run::Expected e = run::buildExpected(c, profile, run::DeviceRules{});
  const run::Tolerance& tol = run::tolerance(profile.portable ? c.tolerance : c.gcnTolerance);

  // data: front guard, the memory image, back guard; the descriptor's range is NUM_RECORDS.
  ReproBuffer data;
  data.name = "data";
  data.binding = 0;
  data.bytes.assign(kGuardBytes, vk::GuardedRegions::kGuardPattern);
  data.bytes.insert(data.bytes.end(), d.memory.bytes.begin(), d.memory.bytes.end());
  data.bytes.insert(data.bytes.end(), kGuardBytes, vk::GuardedRegions::kGuardPattern);
  data.offset = kGuardBytes;
  data.range = v.numRecords;
  data.expected.assign(data.bytes.size(), std::nullopt);
  for (uint64_t k = 0; k < kGuardBytes; ++k) {
    data.expected[k] = vk::GuardedRegions::kGuardPattern;
    data.expected[data.bytes.size() - 1 - k] = vk::GuardedRegions::kGuardPattern;
  }
  const std::vector<uint8_t>& image = e.primaryMemory();
  const bool oneImage =
      e.memory.images.empty() && e.memory.ranges.empty() && e.memory.anyFields.empty();
  if (oneImage && image.size() == d.memory.bytes.size()) {
    for (std::size_t k = 0; k < image.size(); ++k)
      data.expected[kGuardBytes + k] = image[k];
  } else {
    r.unchecked.push_back("the buffer's bytes: " + std::to_string(e.memory.images.size() + 1) +
                          " whole-buffer outcomes, " + std::to_string(e.memory.ranges.size()) +
                          " ranges and " + std::to_string(e.memory.anyFields.size()) +
                          " open fields are acceptable (only the guard bands are checked)");
  }

  // lane_in and lane_out, as fillLaneShaderIo writes them.
  ReproBuffer in{"lane_in", 1, std::vector<uint8_t>(routes::detail::kLaneInBytes), 0, 0, {}, 4};
  ReproBuffer out{"lane_out", 2, std::vector<uint8_t>(routes::detail::kLaneOutBytes), 0, 0, {}, 4};
  routes::detail::fillLaneShaderIo(d, in.bytes, out.bytes);
  data.elementBytes = 1;
  out.expected.assign(out.bytes.size(), std::nullopt);
  const unsigned words = routes::detail::laneShaderWords(d);
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    if (((d.state.exec >> l) & 1u) == 0) continue;
    ++r.activeLanes;
    const uint32_t addr = d.state.vgpr(d.inst.vaddr)[l];
    std::string note = "lane " + std::to_string(l) + ": VADDR " + hex32(addr);
    const LaneExpectation le = laneExpectation(e, l, words, tol);
    if (!le.unchecked.empty()) {
      r.unchecked.push_back("lane " + std::to_string(l) + ": " + le.unchecked);
      note += ", not checked: " + le.unchecked;
    } else {
      if (words > 0) ++r.checkedLanes;
      for (unsigned k = 0; k < le.words.size(); ++k) {
        for (unsigned b = 0; b < 4; ++b)
          out.expected[(l * 4 + k) * 4 + b] = static_cast<uint8_t>(le.words[k] >> (8 * b));
        note += (k == 0 ? ", returns " : " ") + hex32(le.words[k]);
      }
    }
    r.laneNotes.push_back(note);
  }
  r.buffers.push_back(std::move(data));
  r.buffers.push_back(std::move(in));
  r.buffers.push_back(std::move(out));
  return r;
}

}  // namespace gcnprobe::repro
