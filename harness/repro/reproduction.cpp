#include "harness/repro/reproduction.h"

#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "harness/cases/suite.h"
#include "harness/formats.h"
#include "harness/judge/expect.h"
#include "harness/routes/atomic.h"
#include "harness/routes/storage.h"
#include "harness/routes/texel.h"
#include "harness/routes/vertex.h"
#include "harness/vulkan/buffer.h"
#include "reference/error.h"
#include "reference/format.h"
#include "reference/resource.h"
#include "reference/text.h"
#include "shaders/embedded.h"

namespace gcnprobe::repro {
namespace {

constexpr uint64_t kGuardBytes = routes::lane::kLaneGuardBytes;  // as runLaneShader binds it

// The shader variant that runs the case in gcnprobe; "" with `why` when no SPIR-V expresses the
// case's route (GCN machine code, a raw V# through a descriptor buffer).
std::string variantOf(const judge::Case& c, std::string& why) {
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
    const std::string v = routes::atomicVariant(d);
    if (v.empty()) why = "no atomic-route shader variant for this case";
    return v;
  }
  if (d.binding == routes::Binding::StorageBuffer) {
    const std::string v = routes::storageVariant(d);
    if (v.empty()) why = "no storage-route shader variant for this instruction";
    return v;
  }
  if (d.binding == routes::Binding::UniformTexel || d.binding == routes::Binding::StorageTexel) {
    // A storage load: the variant with the view's format qualifier where the format has one
    // (no device feature needed), else imageLoad without format.
    const std::string formatted = routes::texelVariant(d, false);
    if (routes::hasShaderVariant(formatted)) return formatted;
    return routes::texelVariant(d, true);
  }
  if (d.binding == routes::Binding::VertexAttribute) {
    const std::string v = routes::vertexVariant(d);
    if (v.empty()) why = "no vertex-route shader variant for this case";
    return v;
  }
  why = "no route of gcnprobe's that Amber can express runs this binding";
  return "";
}

// Amber's name of a format (the VkFormat name without its prefix), or why Amber cannot name it:
// only Vulkan 1.0 core names are known to its parser, and E5B9G9R9_UFLOAT_PACK32 crashes it
// (measured, Amber fc02f9ba).
std::string amberFormatName(const vk::BufferFormat& f, std::string& why) {
  std::string name(f.name);
  if (name.rfind("VK_FORMAT_", 0) == 0) name = name.substr(10);
  if (static_cast<int64_t>(f.vk) >= 1000000000) {
    why = std::string(f.name) +
          " is not a Vulkan 1.0 core format: Amber's parser knows no extension format names";
    return "";
  }
  if (name == "E5B9G9R9_UFLOAT_PACK32") {
    why = name + ": Amber's format parser crashes on it";
    return "";
  }
  return name;
}

// How a texel view's elements are listed in the script: the buffer is declared with the view's
// format (Amber makes the view in its buffer's format), whose DATA Amber stores as given
// (src/buffer.cc WriteValueFromComponent): integers per component for UNORM, SNORM, USCALED,
// SSCALED, UINT, SINT and sRGB, one integer per element for a _PACK16/_PACK32 format. That
// carries every code of those; "" when the format is one, else why not. Measured with Amber
// fc02f9ba on lavapipe: a 3-component format's DATA is laid out with a padding component (a
// view then reads other bytes), E5B9G9R9_UFLOAT_PACK32 crashes its parser, and only Vulkan 1.0
// core format names are known to it.
std::string texelLayout(const vk::BufferFormat& f, ReproBuffer& b) {
  std::string why;
  const std::string name = amberFormatName(f, why);
  if (name.empty()) return why;
  if (name.rfind("R64", 0) == 0)
    return std::string(f.name) +
           ": a 64-bit texel view's shader needs Int64ImageEXT, whose feature "
           "(shaderImageInt64Atomics, VkPhysicalDeviceShaderImageAtomicInt64FeaturesEXT) Amber "
           "cannot require";
  b.dataType = name;
  if (name.ends_with("_PACK16") || name.ends_with("_PACK32")) {
    b.componentBytes = b.elementBytes = f.stride;  // one integer per element, floats too
    b.componentsSigned = false;
    return "";
  }
  if (name.find("FLOAT") != std::string::npos)
    return std::string(f.name) +
           " holds floats: Amber reads float buffer data as decimal numbers, which do not carry "
           "every code (NaN payloads, -0, denormals through a float16 conversion)";
  // Components: the channel letters of the name's first part (R8G8B8A8, B8G8R8, R64, ...).
  const std::string channels = name.substr(0, name.find('_'));
  unsigned count = 0;
  for (char ch : channels)
    count += ch == 'R' || ch == 'G' || ch == 'B' || ch == 'A' ? 1 : 0;
  if (count == 3)
    return std::string(f.name) +
           " has 3 components: Amber lays out such a buffer's DATA with a padding component, "
           "so the view would read other bytes";
  if (count == 0 || f.stride % count != 0 || f.stride / count > 8)
    return std::string(f.name) + ": no component layout Amber lists";
  b.componentBytes = f.stride / count;
  b.elementBytes = f.stride;
  b.componentsSigned = name.find("SNORM") != std::string::npos ||
                       name.find("SSCALED") != std::string::npos ||
                       name.find("SINT") != std::string::npos;
  return "";
}

// Lane l's words of Out, as the reference expects them: one exact outcome, or why not.
struct LaneExpectation {
  std::vector<uint32_t> words;
  std::array<double, 4> tolerance{};  // per register: an absolute bound on its float value
  std::array<bool, 4> skip{};         // per register: left unchecked (`partial` says why)
  std::string partial;
  std::string unchecked;  // why nothing of the lane is checked; "" when some of it is
};
LaneExpectation laneExpectation(const judge::Expected& e, unsigned lane, unsigned words,
                                const judge::Tolerance& tol, const judge::FormatView& fv) {
  const judge::LaneSet& set = e.lanes[lane];
  LaneExpectation out;
  if (set.count == 0 || words == 0) return out;
  if (set.alternatives.size() != 1) {
    // The rules that allow them, each once, the first three named.
    std::vector<std::string> rules;
    for (const judge::LaneAlternative& a : set.alternatives)
      if (std::find(rules.begin(), rules.end(), e.rules[a.rule]) == rules.end())
        rules.push_back(e.rules[a.rule]);
    out.unchecked = std::to_string(set.alternatives.size()) + " acceptable outcomes (";
    for (std::size_t k = 0; k < rules.size() && k < 3; ++k)
      out.unchecked += (k ? "; " : "") + rules[k];
    if (rules.size() > 3)
      out.unchecked += "; and " + std::to_string(rules.size() - 3) + " more rules";
    out.unchecked += ")";
    return out;
  }
  const judge::LaneAlternative& a = set.alternatives.front();
  if (a.kind != judge::AcceptKind::Values) {
    out.unchecked = a.kind == judge::AcceptKind::Any
                        ? "any value (" + e.rules[a.rule] + ")"
                        : "a serial order of the atomics (" + e.rules[a.rule] + ")";
    return out;
  }
  // Component by component: a value any outcome may take, or one under a tolerance Amber cannot
  // state, is left out (`skip`, with the reason); the others are checked.
  for (unsigned k = 0; k < words; ++k) {
    out.words.push_back(a.vdata[k].value_or(0));
    if (!a.vdata[k]) {
      out.skip[k] = true;
      out.partial += (out.partial.empty() ? "" : "; ") + std::string("component ") +
                     std::to_string(k) + " may be any value";
    }
  }
  // Tolerances apply to float registers only (acceptance.h registerMatches). An sRGB-decoded
  // component is checked within its absolute bound (Amber's FuzzyEqual: |actual - expected| <=
  // the bound; gcnprobe also accepts it within the bound, componentMatches), lane_out then read
  // as floats; a component under float ulps or NaN/denormal allowances is left out.
  if (tol.id != judge::ToleranceId::Exact && fv.reg == gcn::RegType::Float) {
    const bool ulps = tol.normLoadUlps > 0 || tol.anyNanPayload || tol.denormFlush;
    for (unsigned k = 0; k < words && k < 4; ++k) {
      if (out.skip[k]) continue;
      const bool finite = std::isfinite(std::bit_cast<float>(out.words[k]));
      if (fv.srgb[k] && tol.srgbAbs > 0 && finite) {
        out.tolerance[k] = tol.srgbAbs;
      } else if (ulps) {
        out.skip[k] = true;
        out.partial += (out.partial.empty() ? "" : "; ") + std::string("component ") +
                       std::to_string(k) + " under the case's tolerance " + std::string(tol.name) +
                       " (float ulps, which Amber's bounds cannot state)";
      }
    }
  }
  bool any = false;
  for (unsigned k = 0; k < words && k < 4; ++k)
    any = any || !out.skip[k];
  if (!any) {
    out.unchecked = out.partial;
    out.words.clear();
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
  if (!tools.Disassemble(spirv.data(), spirv.size(), &text,
                         SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES |
                             SPV_BINARY_TO_TEXT_OPTION_INDENT |
                             SPV_BINARY_TO_TEXT_OPTION_NO_HEADER))
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

namespace {

// What the device must offer for the case's shader, as gcnprobe's device has it
// (harness/vulkan/context.cpp): Amber's DEVICE_FEATURE names.
std::vector<std::string> deviceFeaturesOf(const routes::DeviceCase& d, const std::string& variant) {
  const gcn::OpcodeInfo& op = *d.inst.op;
  std::vector<std::string> f{"robustBufferAccess"};
  const bool texel =
      d.binding == routes::Binding::UniformTexel || d.binding == routes::Binding::StorageTexel;
  const bool typed = d.binding == routes::Binding::StorageBuffer && op.kind != gcn::OpKind::Atomic;
  if (typed && op.memBytes == 1) {
    f.push_back("Storage8BitFeatures.storageBuffer8BitAccess");
    f.push_back("Float16Int8Features.shaderInt8");
  }
  if (typed && op.memBytes == 2) {
    f.push_back("Storage16BitFeatures.storageBuffer16BitAccess");
    f.push_back("shaderInt16");
  }
  if (texel && op.kind == gcn::OpKind::StoreFormat)
    f.push_back("shaderStorageImageWriteWithoutFormat");
  if (texel && op.kind == gcn::OpKind::LoadFormat && d.binding == routes::Binding::StorageTexel &&
      variant.find("formatted") == std::string::npos)
    f.push_back("shaderStorageImageReadWithoutFormat");
  if (d.binding == routes::Binding::VertexAttribute) f.push_back("vertexPipelineStoresAndAtomics");
  return f;
}

// The data buffer of a lane-shader case (binding 0): for an SSBO the memory image between guard
// bands, the descriptor's range NUM_RECORDS (as runLaneShader binds it); for a texel view the
// image alone in the view's format (Amber's view is its whole buffer), so the view has the
// element count gcnprobe's has. The expected bytes where one image is acceptable and exact.
// false with r.notExpressed set when Amber cannot list the view's format.
bool addDataBuffer(Reproduction& r, const routes::DeviceCase& d, const judge::Expected& e,
                   const judge::Tolerance& tol) {
  const gcn::OpcodeInfo& op = *d.inst.op;
  const bool texel =
      d.binding == routes::Binding::UniformTexel || d.binding == routes::Binding::StorageTexel;
  ReproBuffer data;
  data.name = "data";
  data.binding = 0;
  const uint64_t guard = texel ? 0 : kGuardBytes;
  if (texel) {
    const vk::BufferFormat* f = vk::findBufferFormat(d.format);
    if (f == nullptr) {
      r.notExpressed = "the view's format is not in the format table";
      return false;
    }
    if (std::string why = texelLayout(*f, data); !why.empty()) {
      r.notExpressed = why;
      return false;
    }
    const bool uniform = d.binding == routes::Binding::UniformTexel;
    data.bindAs = uniform ? "uniform_texel_buffer" : "storage_texel_buffer";
    r.requirements.push_back(std::string(f->name) +
                             (uniform ? " with VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT"
                              : op.kind == gcn::OpKind::Atomic
                                  ? " with VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT"
                                  : " with VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT") +
                             " in bufferFeatures (Amber does not check format features; gcnprobe "
                             "reports the case unsupported without it)");
    r.unchecked.push_back(
        "guard bands: an Amber texel view covers its whole buffer, so the data has none (a "
        "write outside the view is not seen)");
  }
  data.bytes.assign(guard, vk::GuardedRegions::kGuardPattern);
  data.bytes.insert(data.bytes.end(), d.memory.bytes.begin(), d.memory.bytes.end());
  data.bytes.insert(data.bytes.end(), guard, vk::GuardedRegions::kGuardPattern);
  data.offset = guard;
  data.range = texel ? 0 : routes::rawBufferFields(d).numRecords;
  data.expected.assign(data.bytes.size(), std::nullopt);
  for (uint64_t k = 0; k < guard; ++k) {
    data.expected[k] = vk::GuardedRegions::kGuardPattern;
    data.expected[data.bytes.size() - 1 - k] = vk::GuardedRegions::kGuardPattern;
  }
  const std::vector<uint8_t>& image = e.primaryMemory();
  const bool oneImage =
      e.memory.images.empty() && e.memory.ranges.empty() && e.memory.anyFields.empty();
  const bool writes = op.kind == gcn::OpKind::Store || op.kind == gcn::OpKind::StoreFormat ||
                      op.kind == gcn::OpKind::Atomic;
  if (writes && tol.id != judge::ToleranceId::Exact) {
    r.unchecked.push_back("the buffer's bytes: compared under the case's tolerance " +
                          std::string(tol.name) + " (Amber compares exactly)");
  } else if (oneImage && image.size() == d.memory.bytes.size()) {
    for (std::size_t k = 0; k < image.size(); ++k)
      data.expected[guard + k] = image[k];
  } else {
    const auto count = [](std::size_t n, const char* what) {
      return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
    };
    r.unchecked.push_back(
        "the buffer's bytes: " + count(e.memory.images.size() + 1, "whole-buffer outcome") + ", " +
        count(e.memory.ranges.size(), "range") + " and " +
        count(e.memory.anyFields.size(), "open field") + " are acceptable" +
        (texel ? "" : " (only the guard bands are checked)"));
  }
  r.buffers.push_back(std::move(data));
  return true;
}

// Out's expected words: lane l's register k goes to word 4*l + slot[k]. The notes and the
// unchecked list per active lane.
void expectLanes(Reproduction& r, const routes::DeviceCase& d, const judge::Expected& e,
                 const judge::Tolerance& tol, const judge::FormatView& fv, unsigned words,
                 const std::array<unsigned, 4>& slot, ReproBuffer& out) {
  out.expected.assign(out.bytes.size(), std::nullopt);
  out.tolerance.assign(out.bytes.size() / 4, 0.0);
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    if (((d.state.exec >> l) & 1u) == 0) continue;
    ++r.activeLanes;
    const uint32_t addr = d.state.vgpr(d.inst.vaddr)[l];
    std::string note = "lane " + std::to_string(l) + ": VADDR " + gcn::hexWord(addr);
    const LaneExpectation le = laneExpectation(e, l, words, tol, fv);
    if (!le.unchecked.empty()) {
      r.unchecked.push_back("lane " + std::to_string(l) + ": " + le.unchecked);
      note += ", not checked: " + le.unchecked;
    } else {
      if (words > 0 && le.partial.empty()) ++r.checkedLanes;
      if (!le.partial.empty()) {
        r.unchecked.push_back("lane " + std::to_string(l) + ": " + le.partial);
        note += ", partly checked (" + le.partial + ")";
      }
      for (unsigned k = 0; k < le.words.size(); ++k) {
        note += (k == 0 ? ", returns " : " ");
        if (k < 4 && le.skip[k]) {
          note += "(any)";
          continue;
        }
        for (unsigned b = 0; b < 4; ++b)
          out.expected[(l * 4 + slot[k]) * 4 + b] = static_cast<uint8_t>(le.words[k] >> (8 * b));
        note += gcn::hexWord(le.words[k]);
        if (k < 4 && le.tolerance[k] > 0) {
          out.tolerance[l * 4 + slot[k]] = le.tolerance[k];
          out.floats = true;
          char bound[32];
          std::snprintf(bound, sizeof bound, "%.9g", le.tolerance[k]);
          note += std::string(" (within ") + bound + ")";
        }
      }
    }
    r.laneNotes.push_back(note);
  }
  if (!out.floats) return;
  out.dataType = "float";
  // Read as floats, a checked word must be a finite float (Amber reads no NaN or infinity).
  for (std::size_t w = 0; w < out.bytes.size() / 4; ++w) {
    if (!out.expected[w * 4]) continue;
    uint32_t bits = 0;
    for (unsigned b = 0; b < 4; ++b)
      bits |= static_cast<uint32_t>(*out.expected[w * 4 + b]) << (8 * b);
    if (std::isfinite(std::bit_cast<float>(bits))) continue;
    for (unsigned b = 0; b < 4; ++b)
      out.expected[w * 4 + b].reset();
    r.unchecked.push_back("lane_out word " + std::to_string(w) + ": " + gcn::hexWord(bits) +
                          " is no finite float, which a float buffer cannot list");
  }
}

ReproBuffer wordBuffer(const std::string& name, unsigned binding, std::size_t bytes) {
  ReproBuffer b;
  b.name = name;
  b.binding = binding;
  b.bytes.resize(bytes);
  b.dataType = "uint32";
  b.componentBytes = b.elementBytes = 4;
  return b;
}

// A lane-shader case (storage, atomic, texel): data, lane_in and lane_out as runLaneShader
// binds them, one dispatch.
void addLaneShaderBuffers(Reproduction& r, const routes::DeviceCase& d, const judge::Expected& e,
                          const judge::Tolerance& tol, const judge::FormatView& fv) {
  if (!addDataBuffer(r, d, e, tol)) return;
  ReproBuffer in = wordBuffer("lane_in", 1, routes::lane::kLaneInBytes);
  ReproBuffer out = wordBuffer("lane_out", 2, routes::lane::kLaneOutBytes);
  routes::lane::fillLaneShaderIo(d, in.bytes, out.bytes);
  expectLanes(r, d, e, tol, fv, routes::lane::laneShaderWords(d), {0, 1, 2, 3}, out);
  r.buffers.push_back(std::move(in));
  r.buffers.push_back(std::move(out));
}

// A vertex case, as the vertex route draws it: the memory image as the vertex buffer (bound
// whole), the attribute in the case's format at the instruction's OFFSET and the V#'s STRIDE,
// an indexed point list of the active lanes' indices, lane_in {idx[64], enabled[64]} at
// binding 0, lane_out at binding 1, where the shader writes the attribute's four components: the
// register k of the instruction is the component j whose DST_SEL (the format's swizzle) is k.
void addVertexInput(Reproduction& r, const routes::DeviceCase& d, const judge::Expected& e,
                    const judge::Tolerance& tol, const judge::FormatView& fv) {
  const vk::BufferFormat* f = vk::findBufferFormat(d.format);
  if (f == nullptr) {
    r.notExpressed = "the attribute's format is not in the format table";
    return;
  }
  Reproduction::VertexInput v;
  v.format = amberFormatName(*f, r.notExpressed);
  if (v.format.empty()) return;
  v.vertices = d.memory.bytes;
  v.offset = d.inst.offset;
  v.stride = routes::rawBufferFields(d).stride;
  ReproBuffer in = wordBuffer("lane_in", 0, routes::kVertexInWords * 4);
  ReproBuffer out = wordBuffer("lane_out", 1, routes::kVertexOutWords * 4);
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    const bool active = ((d.state.exec >> l) & 1u) != 0;
    const uint32_t index = d.state.vgpr(d.inst.vaddr)[l];
    const uint32_t enabled = active ? 1 : 0;
    std::memcpy(in.bytes.data() + 4 * l, &index, 4);
    std::memcpy(in.bytes.data() + 4 * (64 + l), &enabled, 4);
    if (active) v.indices.push_back(index);
  }
  for (std::size_t k = 0; k < out.bytes.size(); k += 4) {
    std::memcpy(out.bytes.data() + k, &routes::kUnwrittenVertexWord, 4);
  }
  if (v.indices.empty()) {
    r.notExpressed = "no active lane: nothing is drawn";
    return;
  }
  std::array<unsigned, 4> slot{4, 4, 4, 4};
  for (unsigned j = 0; j < 4; ++j)
    for (unsigned k = 0; k < 4; ++k)
      if (f->dstSel[j] == static_cast<gcn::DstSel>(static_cast<uint8_t>(gcn::DstSel::X) + k))
        slot[k] = j;
  const unsigned words = d.inst.op->components;
  for (unsigned k = 0; k < words; ++k)
    if (slot[k] == 4) {
      r.notExpressed = std::string(f->name) + ": register " + std::to_string(k) +
                       " is no component of the attribute";
      return;
    }
  r.requirements.push_back(
      std::string(f->name) +
      " with VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT in bufferFeatures (Amber does "
      "not check format features; gcnprobe reports the case unsupported "
      "without it)");
  expectLanes(r, d, e, tol, fv, words, slot, out);
  r.vertexInput = std::move(v);
  const std::span<const uint32_t> frag = shaders::get("repro_fragment");
  r.fragmentAsm = spirvAssembly(frag);
  r.buffers.push_back(std::move(in));
  r.buffers.push_back(std::move(out));
}

}  // namespace

Reproduction reproduce(const judge::Case& c, const judge::Profile& profile) {
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
  r.instruction = cases::caseInstructionText(profile.chip.gen, c);
  r.variant = variantOf(c, r.notExpressed);
  if (r.variant.empty()) return r;
  r.vsharp = gcn::formatVSharp(
      profile.chip.gen,
      gcn::decodeVSharp(profile.chip.gen, gcn::vsharpWords(d.state, d.inst.srsrc)));
  if (d.inst.op->wide) {
    r.notExpressed =
        "64-bit atomics need shaderBufferInt64Atomics (VkPhysicalDeviceShaderAtomicInt64Features), "
        "which Amber cannot require";
    return r;
  }

  // The shader, as gcnprobe compiles it; the SSBO shaders (storage, atomic) take OFFSET as
  // specialization constant 0 (texel accesses are IDXEN with OFFSET 0, a vertex attribute's
  // offset is the vertex input's).
  r.glsl = shaders::glslOf(r.variant);
  const std::span<const uint32_t> spv = shaders::get(r.variant);
  r.spirv.assign(spv.begin(), spv.end());
  r.spirvAsm = spirvAssembly(r.spirv);
  if (d.binding == routes::Binding::StorageBuffer) r.specOffset = d.inst.offset;
  r.deviceFeatures = deviceFeaturesOf(d, r.variant);

  // The expected outcome, as `gcnprobe run` builds it under the profile.
  const judge::Expected e = judge::buildExpected(c, profile, judge::DeviceRules{});
  const judge::Tolerance& tol = judge::tolerance(profile.portable ? c.tolerance : c.gcnTolerance);
  const judge::FormatView fv = judge::caseFormatView(profile.chip, c);
  if (r.route == "vertex")
    addVertexInput(r, d, e, tol, fv);
  else
    addLaneShaderBuffers(r, d, e, tol, fv);
  return r;
}

}  // namespace gcnprobe::repro
