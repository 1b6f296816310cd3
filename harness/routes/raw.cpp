#include "harness/routes/raw.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <tuple>

#include "harness/routes/atomic.h"
#include "harness/routes/storage.h"
#include "harness/routes/texel.h"
#include "harness/vsharp_selfcheck.h"
#include "harness/vulkan/buffer.h"
#include "harness/vulkan/descriptor_buffer.h"
#include "harness/vulkan/pipeline.h"
#include "reference/error.h"
#include "reference/reach.h"
#include "reference/resource.h"
#include "reference/text.h"

namespace gcnprobe::routes {
namespace {

constexpr uint8_t kGuardPattern = vk::GuardedBuffer::kGuardPattern;
// The alignment of the origin (kRawGuard bytes before what a case may reach): the rebased
// BASE keeps the case's address modulo 256 (alignment rules see the low bits).
constexpr uint64_t kOriginAlign = 256;

// Binding 0's descriptor type for the shader construct of the case.
VkDescriptorType caseDescriptorType(Binding b) {
  switch (b) {
    case Binding::UniformTexel:
      return VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    case Binding::StorageTexel:
      return VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
    default:
      return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  }
}

// The SOFFSET value the case's instruction reads (its SGPR in the wave state).
uint32_t soffsetValue(const DeviceCase& c) {
  return gcn::addressInputs(c.inst, c.state).soffset;
}

}  // namespace

bool rawSoffsetForm(const gcn::Instruction& in) {
  return in.op != nullptr && in.op->kind == gcn::OpKind::Load && in.soffset < 104 && !in.offen &&
         !in.idxen && hasShaderVariant("storage_soffset_" + std::string(in.op->mnemonic).substr(7));
}

std::string rawFormProblem(const DeviceCase& c) {
  const gcn::Instruction& in = c.inst;
  if (in.op == nullptr) return "no instruction";
  const gcn::OpcodeInfo& op = *in.op;
  if (op.encoding != gcn::Encoding::Mubuf)
    return "TBUFFER_* comes only from vertex fetch, which has no raw V# form";
  if (op.kind == gcn::OpKind::Cache)
    return std::string(op.mnemonic) + " has no data access: no lane shader emits it";
  if (op.d16 || op.ldsData || in.lds || in.tfe || in.addr64)
    return "D16, LDS, TFE and ADDR64 forms come from no lane shader";
  const bool soffset = rawSoffsetForm(in);
  if (in.soffset != 128 && !soffset)
    return "SOFFSET other than the inline constant 0: an SGPR SOFFSET comes only from the "
           "SOFFSET form, buffer_load_dword/_dwordx2/_dwordx4 through an SSBO with neither "
           "OFFEN nor IDXEN";
  const bool atomic = op.kind == gcn::OpKind::Atomic;
  if (atomic != in.glc || in.slc)
    return atomic ? "the atomic shaders use the returned value: the instruction needs glc"
                  : "GLC/SLC on a load or store: the lane shaders have no coherent access";
  const bool texelForm = c.binding == Binding::UniformTexel || c.binding == Binding::StorageTexel;
  if (texelForm && (!in.idxen || in.offen || in.offset != 0))
    return "a texel-buffer access is IDXEN with OFFSET 0 and no OFFEN";
  if (soffset) {
    if (c.binding != Binding::StorageBuffer) return "the SOFFSET form is an SSBO access";
    if (in.offset % 4 != 0 || soffsetValue(c) % 4 != 0)
      return "the SOFFSET form indexes dwords: OFFSET and the SOFFSET value must be multiples "
             "of 4";
    return "";
  }
  if (!texelForm && (!in.offen || in.idxen))
    return "an SSBO access is OFFEN without IDXEN (or the SOFFSET form: SGPR SOFFSET, no "
           "VADDR)";
  if (c.binding == Binding::StorageBuffer) return lane::ssboIndexingProblem(c);
  return "";
}

namespace {

// The lane shader of the raw case's form, with a descriptor-buffer layout: binding 0 the
// case's buffer, 1 In, 2 Out. The SSBO shaders take the instruction OFFSET as specialisation
// constant 0; the SOFFSET form takes the SOFFSET value and a 0 as push constants
// (shaders/storage_access.comp).
std::unique_ptr<vk::ComputePipeline> makeRawPipeline(vk::Context& ctx, const DeviceCase& c) {
  const std::string variant = rawVariant(c);
  if (variant.empty()) throw gcn::Error("raw V# route: no lane shader for the case");
  const std::vector<vk::Binding> bindings = {{0, caseDescriptorType(c.binding)},
                                             {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                             {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};
  const uint32_t spec[] = {c.inst.offset};
  const bool ssbo = c.binding == Binding::StorageBuffer;
  return std::make_unique<vk::ComputePipeline>(
      ctx, shaderVariant(variant), bindings, rawSoffsetForm(c.inst) ? 8u : 0u,
      ctx.features().pipelineExecutableInfo,
      ssbo ? std::span<const uint32_t>(spec) : std::span<const uint32_t>(), true);
}

// What the raw route pushes: the SOFFSET form's SOFFSET value and a 0.
std::vector<uint32_t> rawPushConstants(const DeviceCase& c) {
  return rawSoffsetForm(c.inst) ? std::vector<uint32_t>{soffsetValue(c), 0}
                                : std::vector<uint32_t>{};
}

class RawRoute final : public Route {
 public:
  explicit RawRoute(vk::Context& ctx) : ctx_(ctx) {}

  std::string_view name() const override { return "raw"; }

  bool handles(const DeviceCase& c) const override {
    return c.rawVsharp && !c.binaryPatch && !c.ownProgram;
  }

  // Without VK_EXT_descriptor_buffer (RADV before Mesa 23) no raw V# pipeline can be built:
  // `isa` reports the case unsupported.
  std::string unbuildableReason(const DeviceCase& /*c*/) const override {
    return lane::descriptorBufferProblem(ctx_, "raw V# route");
  }

  std::string unsupportedReason(const DeviceCase& c) const override {
    if (const std::string& d = deviceProblem(); !d.empty()) return "raw V# route: " + d;
    if (std::string f = rawFormProblem(c); !f.empty()) return "raw V# route: " + f;
    const std::string variant = rawVariant(c);
    if (variant.empty() || !hasShaderVariant(variant))
      return "raw V# route: no lane shader has the form of " + std::string(c.inst.op->mnemonic) +
             " on binding " + std::string(bindingName(c.binding));
    const vk::Features& f = ctx_.features();
    if (c.inst.op->memBytes == 1 && c.binding == Binding::StorageBuffer &&
        !(f.storageBuffer8BitAccess && f.shaderInt8))
      return "raw V# route: device lacks storageBuffer8BitAccess + shaderInt8";
    if (c.inst.op->memBytes == 2 && c.binding == Binding::StorageBuffer &&
        !(f.storageBuffer16BitAccess && f.shaderInt16))
      return "raw V# route: device lacks storageBuffer16BitAccess + shaderInt16";
    if (c.inst.op->wide && !f.shaderBufferInt64Atomics)
      return "raw V# route: device lacks shaderBufferInt64Atomics";
    // texel_store.comp's image has no format qualifier, as in the texel route.
    if (c.inst.op->kind == gcn::OpKind::StoreFormat && !f.shaderStorageImageWriteWithoutFormat)
      return "raw V# route: device lacks shaderStorageImageWriteWithoutFormat (imageStore "
             "without format)";
    try {
      (void)placeRawCase(*ctx_.info().chip, c, kRawGuard);  // deviceProblem: a GCN device
    } catch (const gcn::Error& e) {
      return std::string("raw V# route: ") + e.what();
    }
    return "";
  }

  std::string batchKey(const DeviceCase& c) const override {
    return "raw/" + rawVariant(c) + "@" + std::to_string(c.inst.offset);
  }

  PipelineIsa pipelineIsa(const DeviceCase& c) override {
    // The V# is binding 0 of set 0 (shaders/texel_*.comp, storage_access.comp, atomic_*.comp),
    // read from the descriptor buffer at that binding's offset; 1/2 are lane I/O.
    PipelineIsa isa = routePipelineShape(name(), c);
    isa.executables = vk::captureIsa(ctx_, pipelineFor(c).pipeline());
    return isa;
  }

  std::vector<DeviceResult> run(std::span<const DeviceCase* const> cases) override;

  void releasePipelines() override { pipelines_.clear(); }

 private:
  // Why no raw case can run on this device ("" when they can), found once.
  const std::string& deviceProblem() const {
    if (!deviceProblem_) deviceProblem_ = lane::rawDeviceProblem(ctx_);
    return *deviceProblem_;
  }

  vk::ComputePipeline& pipelineFor(const DeviceCase& c) {
    const std::string key = batchKey(c);
    auto it = pipelines_.find(key);
    if (it != pipelines_.end()) return *it->second;
    return *pipelines_.emplace(key, makeRawPipeline(ctx_, c)).first->second;
  }

  vk::Context& ctx_;
  mutable std::optional<std::string> deviceProblem_;
  std::map<std::string, std::unique_ptr<vk::ComputePipeline>> pipelines_;
};

std::vector<DeviceResult> RawRoute::run(std::span<const DeviceCase* const> cases) {
  if (cases.empty()) return {};
  const vk::ComputePipeline& pipeline = pipelineFor(*cases.front());
  return lane::runRawLaneShader(
      ctx_, pipeline, cases, [](const DeviceCase& c) { return lane::laneShaderWords(c); },
      rawPushConstants);
}

}  // namespace

std::vector<DeviceResult> runRawPathWithDriverDescriptors(
    vk::Context& ctx, const gcn::Chip& chip, std::span<const DeviceCase* const> cases) {
  if (!ctx.features().descriptorBuffer || !ctx.features().bufferDeviceAddress)
    throw gcn::Error(ctx.info().name +
                     " has no VK_EXT_descriptor_buffer with bufferDeviceAddress enabled");
  // Binding 0: the driver's descriptor of the case's memory image inside the guard-banded
  // buffer, as the driver-built route binds it (an SSBO of NUM_RECORDS bytes; a texel view of
  // the image in the case's format).
  const lane::CaseDescriptorWriter driverDescriptor = [&chip](vk::DescriptorBuffer& descriptors,
                                                              uint32_t region, const DeviceCase& c,
                                                              const RawPlacement& place,
                                                              VkDeviceAddress bufferAddress) {
    const VkDeviceAddress image = bufferAddress + (c.memory.base - place.origin);
    if (c.binding == Binding::StorageBuffer) {
      const gcn::VSharp v = gcn::decodeVSharp(chip.gen, gcn::vsharpWords(c.state, c.inst.srsrc));
      descriptors.writeStorageBuffer(region, 0, image, v.numRecords);
    } else {
      descriptors.writeTexelBuffer(region, 0, image, c.memory.bytes.size(), c.format);
    }
  };
  std::vector<DeviceResult> results(cases.size());
  // One pipeline per lane-shader form, as the raw route batches.
  std::map<std::string, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < cases.size(); ++i)
    groups[rawVariant(*cases[i]) + "@" + std::to_string(cases[i]->inst.offset)].push_back(i);
  for (const auto& [key, members] : groups) {
    std::vector<const DeviceCase*> some;
    for (std::size_t i : members)
      some.push_back(cases[i]);
    const std::unique_ptr<vk::ComputePipeline> pipeline = makeRawPipeline(ctx, *some.front());
    std::vector<DeviceResult> got = lane::runRawLaneShader(
        ctx, chip, driverDescriptor, *pipeline, some,
        [](const DeviceCase& c) { return lane::laneShaderWords(c); }, rawPushConstants);
    for (std::size_t k = 0; k < members.size(); ++k)
      results[members[k]] = std::move(got[k]);
  }
  return results;
}

std::string rawVariant(const DeviceCase& c) {
  if (c.inst.op == nullptr) return "";
  DeviceCase shape = c;
  shape.rawVsharp = false;
  switch (c.inst.op->kind) {
    case gcn::OpKind::LoadFormat:
    case gcn::OpKind::StoreFormat:
      return texelVariant(shape, true);
    case gcn::OpKind::Load:
      if (rawSoffsetForm(c.inst))
        return "storage_soffset_" + std::string(c.inst.op->mnemonic).substr(7);
      return storageVariant(shape);
    case gcn::OpKind::Store:
      return storageVariant(shape);
    case gcn::OpKind::Atomic:
      return atomicVariant(shape);
    case gcn::OpKind::Cache:
      break;
  }
  return "";
}

namespace {

// One buffer of a placement: the bytes it must hold (an image or far region, and the reach
// bytes near it), before guard bands.
struct Cluster {
  uint64_t low = 0, high = 0;  // [low, high) case addresses
  uint64_t imageBytes = 0;     // the region's own bytes (the bound is the reach limit plus these)
  bool reached = false;        // a reach range lies in it
};

// Grows `k` to hold [b, e).
void widen(Cluster& k, uint64_t b, uint64_t e) {
  k.low = std::min(k.low, b);
  k.high = std::max(k.high, e);
}

// Bytes between [b, e) and a cluster's region [low, high) (0 when they overlap).
uint64_t gapTo(const Cluster& k, uint64_t b, uint64_t e) {
  if (e <= k.low) return k.low - e;
  if (b >= k.high) return b - k.high;
  return 0;
}

// The cluster a reach range [b, e) belongs to: the region (image or far) nearest to it, the image
// on a tie; a far region only within kMaxReachSpanBytes (else the image, whose bound then
// refuses the range).
std::size_t clusterOf(const std::vector<Cluster>& k, uint64_t b, uint64_t e) {
  std::size_t best = 0;
  uint64_t bestGap = gapTo(k[0], b, e);
  for (std::size_t i = 1; i < k.size(); ++i) {
    const uint64_t gap = gapTo(k[i], b, e);
    if (gap < bestGap && gap <= gcn::kMaxReachSpanBytes) {
      best = i;
      bestGap = gap;
    }
  }
  return best;
}

// A far buffer's distance from the first buffer is a multiple of this, so that when the first is
// page-aligned (any allocation is) the far one's address is too: a driver maps memory only at
// page- (often 64 KiB-) aligned addresses.
constexpr uint64_t kFarDistanceAlign = 64ull << 10;

// A placed buffer: every byte the guard pattern but `image`, which starts at byte `at`.
void fillGuarded(std::span<uint8_t> buffer, uint64_t at, std::span<const uint8_t> image) {
  std::fill(buffer.begin(), buffer.end(), kGuardPattern);
  std::memcpy(buffer.data() + at, image.data(), image.size());
}

// The `size` bytes at `at` of a placed buffer back; every other byte that left the guard pattern
// goes to `changed` as its offset plus `shift` (offsets from the image's first byte, as
// GuardedBuffer reports them).
std::vector<uint8_t> readGuarded(std::span<const uint8_t> buffer, uint64_t at, uint64_t size,
                                 int64_t shift, std::vector<int64_t>& changed) {
  for (uint64_t b = 0; b < buffer.size(); ++b)
    if ((b < at || b >= at + size) && buffer[b] != kGuardPattern)
      changed.push_back(static_cast<int64_t>(b) + shift);
  return {buffer.begin() + static_cast<std::ptrdiff_t>(at),
          buffer.begin() + static_cast<std::ptrdiff_t>(at + size)};
}

// [origin, origin + bytes) for the image's cluster: guard bytes on both sides, origin aligned
// down to kOriginAlign.
std::pair<uint64_t, uint64_t> guarded(const Cluster& k, uint64_t guard) {
  const uint64_t origin = (k.low > guard ? k.low - guard : 0) / kOriginAlign * kOriginAlign;
  return {origin, k.high + guard - origin};
}

}  // namespace

RawPlacement placeRawCase(const gcn::Chip& chip, const DeviceCase& c, uint64_t guard) {
  const gcn::Reach reach = gcn::computeReach(chip, c.inst, c.state);
  if (c.memory.far.empty())
    if (const std::string problem = gcn::reachBoundProblem(reach); !problem.empty())
      throw gcn::Error(problem);
  std::vector<Cluster> k;
  k.push_back({c.memory.base, c.memory.base + c.memory.bytes.size(), c.memory.bytes.size(), true});
  for (const gcn::MemoryRegion& r : c.memory.far)
    k.push_back({r.base, r.base + r.bytes.size(), r.bytes.size(), false});
  // Regions first as they are, so that a range is given to the region nearest to it, not to one
  // another range has already stretched.
  std::vector<std::size_t> owner;
  for (const gcn::ByteRange& r : reach.ranges)
    owner.push_back(clusterOf(k, r.begin, r.end));
  for (std::size_t i = 0; i < reach.ranges.size(); ++i) {
    widen(k[owner[i]], reach.ranges[i].begin, reach.ranges[i].end);
    k[owner[i]].reached = true;
  }
  for (std::size_t i = 0; i < k.size(); ++i) {
    const uint64_t limit = gcn::kMaxReachSpanBytes + k[i].imageBytes;
    if (k[i].high - k[i].low > limit)
      throw gcn::Error((i == 0 ? std::string("the reach and the memory image together span ")
                               : "the reach and the far region at " +
                                     gcn::hexNumber(c.memory.far[i - 1].base) + " together span ") +
                       std::to_string(k[i].high - k[i].low) + " bytes, over the limit of " +
                       std::to_string(limit));
  }
  RawPlacement p;
  std::tie(p.origin, p.bytes) = guarded(k[0], guard);
  // Far regions no lane reaches stay off the device (nothing can change them).
  std::vector<std::pair<uint64_t, uint64_t>> taken{{p.origin, p.bytes}};
  for (std::size_t i = 1; i < k.size(); ++i) {
    if (!k[i].reached) continue;
    // The serial-order judge of atomics (harness/judge/atomic_order.h) reads the image only.
    if (c.inst.op != nullptr && c.inst.op->kind == gcn::OpKind::Atomic)
      throw gcn::Error("the atomic reaches the far region at " +
                       gcn::hexNumber(c.memory.far[i - 1].base) +
                       ", which the judge of atomic orders does not read: put it in the image");
    RawPlacement::Far f;
    f.region = i - 1;
    // The distance from the first buffer's origin, aligned down (signed: a far region may lie
    // below the image).
    const uint64_t low = k[i].low > guard ? k[i].low - guard : 0;
    const int64_t delta = static_cast<int64_t>(low - p.origin);
    const int64_t a = static_cast<int64_t>(kFarDistanceAlign);
    const int64_t aligned = (delta >= 0 ? delta / a : -((-delta + a - 1) / a)) * a;
    f.origin = p.origin + static_cast<uint64_t>(aligned);
    f.bytes = k[i].high + guard - f.origin;
    for (const auto& [o, n] : taken)
      if (f.origin < o + n && o < f.origin + f.bytes)
        throw gcn::Error("the far region at " + gcn::hexNumber(c.memory.far[f.region].base) +
                         " and its reach come within " + std::to_string(guard) +
                         " guard bytes of another buffer of the case: make them one region");
    taken.emplace_back(f.origin, f.bytes);
    p.far.push_back(f);
  }
  return p;
}

std::array<uint32_t, 4> rebasedVSharp(gcn::Gen gen, const DeviceCase& c, uint64_t origin,
                                      uint64_t address) {
  gcn::VSharp v = gcn::decodeVSharp(gen, gcn::vsharpWords(c.state, c.inst.srsrc));
  v.base = address + (v.base - origin);
  if (v.base >> 48 != 0) throw gcn::Error("raw V# route: the rebased BASE does not fit in 48 bits");
  return gcn::encodeVSharp(gen, v);
}

namespace lane {

unsigned returnedRegs(const gcn::Chip& chip, const gcn::Instruction& inst) {
  if (inst.op == nullptr) return 0;
  const gcn::OpcodeInfo& op = *inst.op;
  switch (op.kind) {
    case gcn::OpKind::Load:
    case gcn::OpKind::LoadFormat:
      return gcn::vdataRegs(op, chip, inst.tfe);
    case gcn::OpKind::Atomic:
      return inst.glc ? (op.wide ? 2u : 1u) : 0u;
    default:
      return 0;
  }
}

std::vector<DeviceResult> runPatchedLaneShader(vk::Context& ctx, const gcn::Chip& chip,
                                               const vk::PipelineObjects& pipeline,
                                               std::span<const DeviceCase* const> cases) {
  if (cases.empty()) return {};
  const unsigned words = returnedRegs(chip, cases.front()->inst);
  if (cases.front()->rawVsharp)
    return runRawLaneShader(ctx, pipeline, cases, [words](const DeviceCase&) { return words; });
  return runLaneShader(ctx, pipeline, cases, VK_FORMAT_UNDEFINED, words);
}

std::string descriptorBufferProblem(vk::Context& ctx, std::string_view route) {
  if (ctx.features().descriptorBuffer) return "";
  return std::string(route) + ": raw V#: " + ctx.info().name + " (" + ctx.info().driverName + " " +
         ctx.info().driverInfo + ") has no VK_EXT_descriptor_buffer, which carries it";
}

std::string rawDeviceProblem(vk::Context& ctx) {
  // The self-check also reads RDNA descriptors; the raw route places GCN V#s only (the words
  // of the self-check's refusal of a device that is neither, as before RDNA was modelled).
  if (!ctx.info().chip)
    return ctx.info().name + " is not a GCN device: its descriptors are not V#s";
  std::string why;
  try {
    const std::vector<VSharpCheck> checks = checkDriverVSharps(ctx);
    std::size_t differ = 0;
    for (const VSharpCheck& k : checks)
      if (!k.differences.empty()) {
        if (why.empty())
          why = "the driver's " + k.binding + " descriptor of " + k.format +
                " is not gcnprobe's V# (" + k.differences.front() + ")";
        ++differ;
      }
    if (differ > 0)
      why += "; " + std::to_string(differ) + " of " + std::to_string(checks.size()) +
             " descriptors differ, so the driver's descriptors are not known to be V#s";
    else if (checks.empty())
      why =
          "the driver supports no texel-buffer format of the table: the V# self-check "
          "proves nothing";
  } catch (const gcn::Error& e) {
    why = e.what();
  }
  if (why.empty() && !ctx.features().bufferDeviceAddress)
    why = ctx.info().name +
          " has no bufferDeviceAddress: the V#'s BASE cannot be a harness "
          "buffer's address";
  return why;
}

// One dispatch per case, each with its own data buffer (reach + guards), lane I/O buffers and
// descriptor-buffer region; one submission for the batch.
CaseDescriptorWriter rebasedVSharpWriter(const gcn::Chip& chip) {
  return [&chip](vk::DescriptorBuffer& descriptors, uint32_t region, const DeviceCase& c,
                 const RawPlacement& place, VkDeviceAddress bufferAddress) {
    descriptors.writeWords(region, 0, rebasedVSharp(chip.gen, c, place.origin, bufferAddress));
  };
}

std::vector<DeviceResult> runRawLaneShader(
    vk::Context& ctx, const vk::PipelineObjects& pipeline, std::span<const DeviceCase* const> cases,
    const std::function<unsigned(const DeviceCase&)>& vdataWords,
    const std::function<std::vector<uint32_t>(const DeviceCase&)>& pushConstants) {
  if (!ctx.info().chip)
    throw gcn::Error("raw V# route: " + ctx.info().name + " is not a GCN device");
  const gcn::Chip& chip = *ctx.info().chip;
  return runRawLaneShader(ctx, chip, rebasedVSharpWriter(chip), pipeline, cases, vdataWords,
                          pushConstants);
}

std::vector<DeviceResult> runRawLaneShader(
    vk::Context& ctx, const gcn::Chip& chip, const CaseDescriptorWriter& writeCase,
    const vk::PipelineObjects& pipeline, std::span<const DeviceCase* const> cases,
    const std::function<unsigned(const DeviceCase&)>& vdataWords,
    const std::function<std::vector<uint32_t>(const DeviceCase&)>& pushConstants) {
  std::vector<DeviceResult> results(cases.size());
  if (cases.empty()) return results;
  vk::DescriptorBuffer descriptors(ctx, pipeline, static_cast<uint32_t>(cases.size()));
  constexpr VkBufferUsageFlags kUsage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  struct PerCase {
    RawPlacement place;
    std::unique_ptr<vk::HostBuffer> data, in, out;
    std::vector<std::unique_ptr<vk::HostBuffer>> far;  // one per place.far
    std::vector<uint32_t> push;
  };
  std::vector<PerCase> per(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const DeviceCase& c = *cases[i];
    PerCase& p = per[i];
    p.place = placeRawCase(chip, c, kRawGuard);
    p.data = std::make_unique<vk::HostBuffer>(ctx, p.place.bytes, kUsage);
    fillGuarded(p.data->bytes(), c.memory.base - p.place.origin, c.memory.bytes);
    const VkDeviceAddress at = p.data->deviceAddress();
    if (at % kOriginAlign != 0)
      throw gcn::Error("raw V# route: the driver placed a buffer at " + std::to_string(at) +
                       ", not a multiple of " + std::to_string(kOriginAlign));
    // Far regions: a buffer each, at the same distance from the first as in the case.
    try {
      for (const RawPlacement::Far& f : p.place.far) {
        // Modulo 2^64: a far region below the image has a negative distance.
        const uint64_t want = at + (f.origin - p.place.origin);
        const bool below = f.origin < p.place.origin;
        if ((below && p.place.origin - f.origin > at) || (!below && want < at) || want >> 48 != 0)
          throw gcn::Error("its device address (" + gcn::hexNumber(at) + " + the case's distance " +
                           "from the first buffer) is outside the 48-bit address space");
        p.far.push_back(std::make_unique<vk::HostBuffer>(ctx, f.bytes, kUsage, want));
        const gcn::MemoryRegion& r = c.memory.far[f.region];
        fillGuarded(p.far.back()->bytes(), r.base - f.origin, r.bytes);
      }
    } catch (const gcn::Error& e) {
      results[i].unsupported = "raw V# route: the far region at " +
                               gcn::hexNumber(c.memory.far[p.place.far[p.far.size()].region].base) +
                               " cannot be placed: " + e.what();
      p.far.clear();
      continue;
    }
    writeCase(descriptors, static_cast<uint32_t>(i), c, p.place, at);

    // The lane shaders' In (binding 1) and Out (binding 2), as the other routes fill them.
    p.in = std::make_unique<vk::HostBuffer>(ctx, kLaneInBytes, kUsage);
    p.out = std::make_unique<vk::HostBuffer>(ctx, kLaneOutBytes, kUsage);
    fillLaneShaderIo(c, p.in->bytes(), p.out->bytes());
    descriptors.writeStorageBuffer(static_cast<uint32_t>(i), 1, p.in->deviceAddress(),
                                   kLaneInBytes);
    descriptors.writeStorageBuffer(static_cast<uint32_t>(i), 2, p.out->deviceAddress(),
                                   kLaneOutBytes);
    if (pushConstants) p.push = pushConstants(c);
  }

  vk::submitAndWait(ctx, [&](VkCommandBuffer cmd) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline());
    descriptors.bind(cmd);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      if (!results[i].unsupported.empty()) continue;  // a far region it could not place
      descriptors.select(cmd, static_cast<uint32_t>(i));
      if (!per[i].push.empty())
        vkCmdPushConstants(cmd, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                           static_cast<uint32_t>(4 * per[i].push.size()), per[i].push.data());
      vkCmdDispatch(cmd, 1, 1, 1);
    }
    vk::recordHostReadBarrier(cmd);
  });

  for (std::size_t i = 0; i < cases.size(); ++i) {
    const DeviceCase& c = *cases[i];
    const PerCase& p = per[i];
    DeviceResult& r = results[i];
    if (!r.unsupported.empty()) continue;
    readLaneShaderOut(p.out->bytes(), vdataWords(c), r);
    // The memory image and each far region back, and every byte of their buffers that left
    // the pattern.
    const uint64_t first = c.memory.base - p.place.origin;
    r.memory = readGuarded(p.data->bytes(), first, c.memory.bytes.size(),
                           -static_cast<int64_t>(first), r.changedGuardBytes);
    for (std::size_t k = 0; k < p.far.size(); ++k) {
      const RawPlacement::Far& f = p.place.far[k];
      const gcn::MemoryRegion& region = c.memory.far[f.region];
      r.far.push_back(
          {region.base,
           readGuarded(p.far[k]->bytes(), region.base - f.origin, region.bytes.size(),
                       static_cast<int64_t>(f.origin - c.memory.base), r.changedGuardBytes)});
    }
  }
  return results;
}

}  // namespace lane

std::unique_ptr<Route> makeRawRoute(vk::Context& ctx) {
  return std::make_unique<RawRoute>(ctx);
}

}  // namespace gcnprobe::routes
