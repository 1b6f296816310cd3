#include "harness/routes/storage.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "harness/vulkan/buffer.h"
#include "reference/error.h"
#include "shaders/embedded.h"

namespace gcnprobe::routes {
namespace {

constexpr uint32_t kUnwritten = 0xdeadbeefu;  // Out before the dispatch

const vk::Binding kSsboBindings[] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                     {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                     {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};
const vk::Binding kTexelBindings[] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER},
                                      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                      {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};

bool isTyped(const gcn::OpcodeInfo* op) {
  return op != nullptr && op->encoding == gcn::Encoding::Mubuf &&
         (op->kind == gcn::OpKind::Load || op->kind == gcn::OpKind::Store);
}

// Element size the shader indexes with: the DTYPE of storage_access.comp, or an atomic's own
// (uint or uint64_t in atomic_ssbo.comp).
uint32_t shaderElementBytes(const gcn::OpcodeInfo& op) {
  return op.kind == gcn::OpKind::Atomic ? op.memBytes : std::min<uint32_t>(op.memBytes, 4);
}

class StorageRoute final : public Route {
 public:
  explicit StorageRoute(vk::Context& ctx) : ctx_(ctx) {}

  std::string_view name() const override { return "storage"; }

  bool handles(const DeviceCase& c) const override {
    return !c.rawVsharp && !c.binaryPatch && !c.ownProgram && c.binding == Binding::StorageBuffer &&
           isTyped(c.inst.op);
  }

  std::string unsupportedReason(const DeviceCase& c) const override {
    if (std::string far = farMemoryProblem(c, name()); !far.empty()) return far;
    const gcn::Instruction& in = c.inst;
    if (!isTyped(in.op)) return "the storage route realises only BUFFER_LOAD/STORE_<type>";
    const gcn::OpcodeInfo& op = *in.op;
    if (op.d16 || op.ldsData || in.lds || in.tfe)
      return "D16, LDS and TFE forms have no SSBO expression in GLSL";
    if (!in.offen || in.idxen || in.addr64 || in.soffset != 128)
      return "an SSBO access is OFFEN with SOFFSET 0 (no IDXEN, ADDR64)";
    if (std::string why = lane::ssboIndexingProblem(c); !why.empty()) return why;
    const RawBufferFields v = rawBufferFields(c);
    if (v.stride != 0 || v.swizzle || v.addTid)
      return "RADV's SSBO V# has STRIDE 0, no swizzle and no ADD_TID";
    if (v.base != c.memory.base) return "the V# base is not the memory image's base";
    if (c.memory.bytes.empty() || c.memory.bytes.size() % 4 != 0 || v.numRecords % 4 != 0)
      return "memory and NUM_RECORDS must be whole dwords (RADV rounds the range up to 4)";
    if (v.numRecords > c.memory.bytes.size() + lane::kMaxOverrun)
      return "NUM_RECORDS runs more than " + std::to_string(lane::kMaxOverrun) +
             " bytes past the memory image";
    const vk::Features& f = ctx_.features();
    if (op.memBytes == 1 && !(f.storageBuffer8BitAccess && f.shaderInt8))
      return "device lacks storageBuffer8BitAccess + shaderInt8 (uint8_t/int8_t SSBO access)";
    if (op.memBytes == 2 && !(f.storageBuffer16BitAccess && f.shaderInt16))
      return "device lacks storageBuffer16BitAccess + shaderInt16 (uint16_t/int16_t SSBO access)";
    if (v.numRecords > ctx_.limits().maxStorageBufferRange)
      return "range exceeds maxStorageBufferRange";
    return "";
  }

  std::string batchKey(const DeviceCase& c) const override {
    return storageVariant(c) + "@" + std::to_string(c.inst.offset);
  }

  PipelineIsa pipelineIsa(const DeviceCase& c) override {
    if (storageVariant(c).empty()) throw gcn::Error("not a storage-buffer case");
    // The case's SSBO is binding 0 (shaders/storage_access.comp); bindings 1/2 are lane I/O.
    PipelineIsa isa = routePipelineShape(name(), c);
    isa.executables =
        vk::captureIsa(ctx_, pipelineFor(storageVariant(c), c.inst.offset).pipeline());
    return isa;
  }

  std::vector<DeviceResult> run(std::span<const DeviceCase* const> cases) override {
    if (cases.empty()) return {};
    const DeviceCase& first = *cases.front();
    return lane::runLaneShader(ctx_, pipelineFor(storageVariant(first), first.inst.offset), cases,
                               VK_FORMAT_UNDEFINED, lane::laneShaderWords(first));
  }

  void releasePipelines() override { pipelines_.clear(); }

 private:
  vk::ComputePipeline& pipelineFor(const std::string& variant, uint32_t offset) {
    const std::string key = variant + "@" + std::to_string(offset);
    auto it = pipelines_.find(key);
    if (it != pipelines_.end()) return *it->second;
    const std::span<const uint32_t> spirv = shaderVariant(variant);
    const uint32_t spec[] = {offset};
    // ISA captured wherever the device can: the runner's ISA check (harness/isa) proves
    // ACO's instruction and that the specialised offset lands in OFFSET.
    auto p = std::make_unique<vk::ComputePipeline>(ctx_, spirv, lane::laneShaderBindings(false), 0,
                                                   ctx_.features().pipelineExecutableInfo, spec);
    return *pipelines_.emplace(key, std::move(p)).first->second;
  }

  vk::Context& ctx_;
  std::map<std::string, std::unique_ptr<vk::ComputePipeline>> pipelines_;
};

}  // namespace

gcn::VSharp makeStorageBufferVSharp(uint64_t base, uint32_t rangeBytes) {
  gcn::VSharp v;
  v.base = base;
  v.stride = 0;
  v.numRecords = (rangeBytes + 3u) & ~3u;
  v.dstSel = {gcn::DstSel::X, gcn::DstSel::Y, gcn::DstSel::Z, gcn::DstSel::W};
  v.dataFormat = gcn::Dfmt::F32;
  v.numFormat = gcn::Nfmt::Float;
  return v;
}

gcn::VSharp makeStorageBufferVSharp(gcn::Gen gen, uint64_t base, uint32_t rangeBytes) {
  gcn::VSharp v = makeStorageBufferVSharp(base, rangeBytes);
  if (gcn::isGcn(gen)) return v;
  v.dataFormat = gcn::Dfmt::Invalid;
  v.numFormat = gcn::Nfmt::Unorm;
  v.format = gcn::findUnifiedFormat(gen, gcn::Dfmt::F32, gcn::Nfmt::Float)->code;
  v.oobSelect = 3;
  v.resourceLevel = gen != gcn::Gen::Gfx11;
  return v;
}

std::string storageVariant(const DeviceCase& c) {
  if (c.binding != Binding::StorageBuffer || !isTyped(c.inst.op)) return "";
  std::string m(c.inst.op->mnemonic);
  if (m.rfind("buffer_", 0) == 0) m = m.substr(7);
  return "storage_" + m;
}

RawBufferFields rawBufferFields(const DeviceCase& c) {
  const auto& s = c.state.sgpr;
  const unsigned r = c.inst.srsrc;
  if (r + 3u >= s.size()) throw gcn::Error("srsrc: s[" + std::to_string(r) + ":+3] out of range");
  const gcn::VSharp v = gcn::decodeVSharpSharedFields({s[r], s[r + 1], s[r + 2], s[r + 3]});
  RawBufferFields f;
  f.base = v.base;
  f.stride = v.stride;
  f.swizzle = v.swizzleEnable;
  f.numRecords = v.numRecords;
  f.addTid = v.addTidEnable;
  return f;
}

namespace lane {

std::span<const vk::Binding> laneShaderBindings(bool texel) {
  return texel ? std::span<const vk::Binding>(kTexelBindings)
               : std::span<const vk::Binding>(kSsboBindings);
}

std::string ssboIndexingProblem(const DeviceCase& c) {
  const gcn::Instruction& in = c.inst;
  const uint32_t es = shaderElementBytes(*in.op);
  if (in.offset % es != 0)
    return "OFFSET " + std::to_string(in.offset) + " is not a multiple of the " +
           std::to_string(es) + "-byte element the shader indexes";
  for (unsigned l = 0; l < gcn::kWaveSize; ++l)
    if (((c.state.exec >> l) & 1) && c.state.vgpr(in.vaddr)[l] % es != 0)
      return "lane " + std::to_string(l) + ": byte offset " +
             std::to_string(c.state.vgpr(in.vaddr)[l]) + " is not a multiple of " +
             std::to_string(es) + " (GLSL indexes whole elements)";
  return "";
}

unsigned laneShaderWords(const DeviceCase& c) {
  const gcn::OpcodeInfo& op = *c.inst.op;
  switch (op.kind) {
    case gcn::OpKind::LoadFormat:
      return std::clamp<unsigned>(componentsRead(c), 1, 4);
    case gcn::OpKind::Load:
      return std::max<unsigned>(1, op.memBytes / 4);
    case gcn::OpKind::Atomic:
      return op.wide ? 2 : 1;
    default:
      return 0;
  }
}

void fillLaneShaderIo(const DeviceCase& c, std::span<uint8_t> in, std::span<uint8_t> out) {
  if (in.size() < kLaneInBytes || out.size() < kLaneOutBytes)
    throw gcn::Error("lane shader I/O buffers are too small");
  std::vector<uint32_t> words(kLaneInBytes / 4, 0);
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    words[l] = c.state.vgpr(c.inst.vaddr)[l];
    words[64 + l] = (c.state.exec >> l) & 1u;
    for (unsigned k = 0; k < 4 && c.inst.vdata + k < gcn::kVgprCount; ++k)
      words[128 + l * 4 + k] = c.state.vgpr(c.inst.vdata + k)[l];
  }
  // An LDS form has no VDATA to pass (BUFFER_STORE_LDS_DWORD reads LDS, a load with the LDS
  // bit writes it): data[] carries the LDS image instead, the binary route's LDS template
  // copies it to LDS (byte 4j = data[j]).
  const bool ldsForm = c.inst.lds || (c.inst.op != nullptr && c.inst.op->ldsData);
  if (ldsForm || !c.lds.empty()) {
    if (c.lds.size() > 256 * 4)
      throw gcn::Error("an LDS image of " + std::to_string(c.lds.size()) +
                       " bytes does not fit the lane shader's 1024-byte data array");
    std::fill(words.begin() + 128, words.end(), 0u);
    std::memcpy(words.data() + 128, c.lds.data(), c.lds.size());
  }
  std::memcpy(in.data(), words.data(), kLaneInBytes);
  const std::vector<uint32_t> marker(kLaneOutBytes / 4, kUnwritten);
  std::memcpy(out.data(), marker.data(), kLaneOutBytes);
}

void readLaneShaderOut(std::span<const uint8_t> out, unsigned words, DeviceResult& r) {
  if (out.size() < kLaneOutBytes) throw gcn::Error("lane shader Out buffer is too small");
  std::vector<uint32_t> v(kLaneOutBytes / 4);
  std::memcpy(v.data(), out.data(), kLaneOutBytes);
  r.vdataCount = static_cast<uint8_t>(words);
  for (unsigned l = 0; l < gcn::kWaveSize; ++l)
    for (unsigned k = 0; k < words && k < 4; ++k)
      r.vdata[l][k] = v[l * 4 + k];
}

namespace {

// One submission's worth of a batch: every case's memory in a buffer of its own with guard
// bands, all in one allocation (vk::GuardedRegions), the lane I/O of all cases in one In and
// one Out buffer at aligned strides, and one descriptor pool with a set per case.
void runLaneChunk(vk::Context& ctx, const vk::PipelineObjects& pipeline,
                  std::span<const DeviceCase* const> cases, VkFormat texelFormat,
                  unsigned vdataWords, bool uniformTexel, std::span<DeviceResult> results) {
  const bool texel = texelFormat != VK_FORMAT_UNDEFINED;
  const VkBufferUsageFlags usage = !texel         ? VK_BUFFER_USAGE_STORAGE_BUFFER_BIT
                                   : uniformTexel ? VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT
                                                  : VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT;
  const auto n = static_cast<uint32_t>(cases.size());
  std::vector<VkDeviceSize> sizes;
  sizes.reserve(n);
  for (const DeviceCase* c : cases)
    sizes.push_back(c->memory.bytes.size());
  vk::GuardedRegions data(ctx, sizes, usage, kLaneGuardBytes);
  const VkDeviceSize align =
      std::max<VkDeviceSize>(ctx.limits().minStorageBufferOffsetAlignment, 16);
  const VkDeviceSize inStride = (kLaneInBytes + align - 1) / align * align;
  const VkDeviceSize outStride = (kLaneOutBytes + align - 1) / align * align;
  vk::HostBuffer in(ctx, inStride * n, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  vk::HostBuffer out(ctx, outStride * n, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  vk::DescriptorSets sets(ctx, pipeline, n);
  std::vector<vk::BufferView> views;
  if (texel) views.reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    const DeviceCase& c = *cases[i];
    std::memcpy(data.payload(i).data(), c.memory.bytes.data(), c.memory.bytes.size());
    fillLaneShaderIo(c, in.bytes().subspan(i * inStride, kLaneInBytes),
                     out.bytes().subspan(i * outStride, kLaneOutBytes));
    if (texel) {
      // Each case's own view format: a batch shares a shader, not a format.
      views.emplace_back(ctx, data.buffer(i),
                         c.format != VK_FORMAT_UNDEFINED ? c.format : texelFormat,
                         data.payloadOffset(i), data.payloadSize(i));
      sets.writeTexelBuffer(i, 0, views.back().view());
    } else {
      // The descriptor range is what the V# says (NUM_RECORDS bytes): a V# that overruns
      // the memory image reaches into the guard band, where the write is caught.
      sets.writeBuffer(i, 0, data.buffer(i), data.payloadOffset(i), rawBufferFields(c).numRecords);
    }
    sets.writeBuffer(i, 1, in.buffer(), i * inStride, kLaneInBytes);
    sets.writeBuffer(i, 2, out.buffer(), i * outStride, kLaneOutBytes);
  }

  vk::submitAndWait(ctx, [&](VkCommandBuffer cmd) {
    for (uint32_t i = 0; i < n; ++i)
      vk::recordDispatch(cmd, pipeline, sets.set(i), 1);
    vk::recordHostReadBarrier(cmd);
  });

  for (uint32_t i = 0; i < n; ++i) {
    DeviceResult& r = results[i];
    readLaneShaderOut(out.bytes().subspan(i * outStride, kLaneOutBytes), vdataWords, r);
    const auto payload = data.payload(i);
    r.memory.assign(payload.begin(), payload.end());
    r.changedGuardBytes = data.changedGuardBytes(i);
  }
}

}  // namespace

std::vector<DeviceResult> runLaneShader(vk::Context& ctx, const vk::PipelineObjects& pipeline,
                                        std::span<const DeviceCase* const> cases,
                                        VkFormat texelFormat, unsigned vdataWords,
                                        bool uniformTexel) {
  std::vector<DeviceResult> results(cases.size());
  // Submissions of at most kLaneChunkCases cases and about kLaneChunkBytes of case memory, so
  // a batch of any size runs in bounded memory (a case larger than that is a chunk of its own).
  std::size_t first = 0;
  while (first < cases.size()) {
    std::size_t last = first;
    std::size_t bytes = 0;
    while (last < cases.size() && last - first < kLaneChunkCases &&
           (last == first || bytes + cases[last]->memory.bytes.size() <= kLaneChunkBytes))
      bytes += cases[last++]->memory.bytes.size();
    runLaneChunk(ctx, pipeline, cases.subspan(first, last - first), texelFormat, vdataWords,
                 uniformTexel, std::span<DeviceResult>(results).subspan(first, last - first));
    first = last;
  }
  return results;
}

}  // namespace lane

std::unique_ptr<Route> makeStorageRoute(vk::Context& ctx) {
  return std::make_unique<StorageRoute>(ctx);
}

}  // namespace gcnprobe::routes
