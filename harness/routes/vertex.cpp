#include "harness/routes/vertex.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

#include "harness/routes/storage.h"
#include "harness/vulkan/buffer.h"
#include "harness/vulkan/graphics_pipeline.h"
#include "reference/address.h"
#include "reference/error.h"
#include "reference/format.h"
#include "shaders/embedded.h"

namespace gcnprobe::routes {
namespace {

// The loads ACO emits for 1..4 components, resolved when the program starts (a misspelt name
// stops every binary at once, tests included, instead of failing a case at run time).
const std::array<const gcn::OpcodeInfo*, 4> kDwordLoads = gcn::requireOpcodes<4>(
    {"buffer_load_dword", "buffer_load_dwordx2", "buffer_load_dwordx3", "buffer_load_dwordx4"});
const std::array<const gcn::OpcodeInfo*, 4> kTypedLoads =
    gcn::requireOpcodes<4>({"tbuffer_load_format_x", "tbuffer_load_format_xy",
                            "tbuffer_load_format_xyz", "tbuffer_load_format_xyzw"});

constexpr size_t kInWords = kVertexInWords;
constexpr size_t kOutWords = kVertexOutWords;

const vk::Binding kBindings[] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                 {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};

// STRIDE is in the part of the V# every GCN generation shares, so the route reads it without
// knowing the chip.
uint32_t strideOf(const DeviceCase& c) {
  return rawBufferFields(c).stride;
}

// Vertices whose attribute lies wholly inside the binding: the Vulkan in-bounds rule for
// vertex input under robustBufferAccess2 (VK_EXT_robustness2: "offset of the attribute ...
// plus the size of the attribute is greater than the byte size of the memory range bound
// to the vertex buffer binding"), which RADV's NUM_RECORDS encodes (vertexNumRecords).
uint64_t verticesInRange(uint64_t bytes, uint32_t stride, uint32_t attribEnd) {
  if (bytes < attribEnd || stride == 0) return 0;
  return (bytes - attribEnd) / stride + 1;
}

class VertexRoute final : public Route {
 public:
  explicit VertexRoute(vk::Context& ctx) : ctx_(ctx) {}

  std::string_view name() const override { return "vertex"; }

  bool handles(const DeviceCase& c) const override {
    return !c.rawVsharp && !c.binaryPatch && !c.ownProgram && c.binding == Binding::VertexAttribute;
  }

  std::string unsupportedReason(const DeviceCase& c) const override {
    if (std::string far = farMemoryProblem(c, name()); !far.empty()) return far;
    const gcn::Instruction& in = c.inst;
    if (in.op == nullptr) return "no instruction";
    const vk::BufferFormat* f = vk::findBufferFormat(c.format);
    if (f == nullptr) return "format is not in the buffer format table";
    std::string why;
    const gcn::OpcodeInfo* want = vertexFetchOpcode(*f, &why);
    if (want == nullptr) return std::string(f->name) + ": " + why;
    if (in.op != want)
      return "a vertex fetch of " + std::string(f->name) + " is " + std::string(want->mnemonic) +
             ", not " + std::string(in.op->mnemonic);
    // RDNA (an RDNA null device or GPU, known by its RADV name): the pair's unified FORMAT.
    const vk::DeviceInfo& info = ctx_.info();
    const std::optional<gcn::Chip>& rdna = info.rdnaChip;
    if (in.op->encoding == gcn::Encoding::Mtbuf && rdna) {
      const gcn::UnifiedFormat* u = gcn::findUnifiedFormat(rdna->gen, f->dfmt, f->nfmt);
      if (u == nullptr || in.format != u->code)
        return "the instruction's FORMAT is not the " + std::string(gcn::genName(rdna->gen)) +
               " code of " + std::string(f->name);
    } else if (in.op->encoding == gcn::Encoding::Mtbuf &&
               (in.dfmt != f->dfmt || in.nfmt != f->nfmt)) {
      return "the instruction's DFMT/NFMT are not those of " + std::string(f->name);
    }
    if (!in.idxen || in.offen || in.addr64 || in.soffset != 128 || in.tfe || in.lds || in.glc ||
        in.slc)
      return "a vertex fetch is IDXEN with the attribute offset in OFFSET and SOFFSET 0 (no "
             "OFFEN, ADDR64, TFE, LDS, GLC, SLC)";
    if (!ctx_.features().vertexPipelineStoresAndAtomics)
      return "device lacks vertexPipelineStoresAndAtomics (the vertex shader stores its fetch)";
    if ((ctx_.formatProperties(c.format).bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT) == 0)
      return std::string(f->name) + " lacks VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT on this device";
    const uint32_t stride = strideOf(c);
    if (stride == 0) return "V# STRIDE 0: a vertex binding here has a non-zero stride";
    if (stride > ctx_.limits().maxVertexInputBindingStride)
      return "STRIDE exceeds maxVertexInputBindingStride";
    if (in.offset > ctx_.limits().maxVertexInputAttributeOffset)
      return "OFFSET exceeds maxVertexInputAttributeOffset";
    // ACO folds an attribute offset above the stride into the index (attrib_index_offset);
    // the case's instruction would then not be the fetch.
    if (in.offset > stride) return "OFFSET above STRIDE: ACO moves it into the vertex index";
    if (c.memory.bytes.empty()) return "empty vertex buffer";
    const uint64_t inRange = verticesInRange(c.memory.bytes.size(), stride, in.offset + f->stride);
    for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
      if (((c.state.exec >> l) & 1u) == 0) continue;
      const uint32_t index = c.state.vgpr(in.vaddr)[l];
      if (index > ctx_.limits().maxDrawIndexedIndexValue)
        return "lane " + std::to_string(l) + "'s index exceeds maxDrawIndexedIndexValue";
      // Vulkan: without robustBufferAccess, fetching outside the binding is undefined
      // (VUID-vkCmdDrawIndexed-None-02721).
      if (index >= inRange && !ctx_.features().robustBufferAccess)
        return "out-of-range vertex fetch needs robustBufferAccess";
    }
    return "";
  }

  // One pipeline per (shader, format, stride, offset): a batch is the cases of one pipeline,
  // so the runner releases each pipeline before building the next (a batch per shader held
  // every format's pipeline at once: lavapipe's peak resident memory grew by ~0.4 MB each).
  std::string batchKey(const DeviceCase& c) const override {
    return vertexVariant(c) + "/" + std::to_string(static_cast<int>(c.format)) + "/" +
           std::to_string(strideOf(c)) + "/" + std::to_string(c.inst.offset);
  }

  // ACO puts the attribute offset in OFFSET while it is at most the stride and below 4096
  // (unsupportedReason keeps cases there), so the ISA check may compare OFFSET.
  std::string unbuildableReason(const DeviceCase& c) const override {
    if ((ctx_.formatProperties(c.format).bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT) == 0)
      return vk::vkFormatName(c.format) +
             " lacks VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT on this device: a pipeline with it as "
             "vertex input would be invalid usage";
    return "";
  }

  PipelineIsa pipelineIsa(const DeviceCase& c) override {
    if (const std::string why = unbuildableReason(c); !why.empty()) throw gcn::Error(why);
    if (vertexVariant(c).empty()) throw gcn::Error("not a vertex case");
    if (!pass_) pass_ = std::make_unique<vk::EmptyRenderPass>(ctx_);
    const std::optional<gcn::Chip>& rdna = ctx_.info().rdnaChip;
    PipelineIsa isa = routePipelineShape(name(), c, rdna ? rdna->name : std::string_view());
    isa.executables = vk::captureIsa(ctx_, pipelineFor(c).pipeline());
    return isa;
  }

  std::vector<DeviceResult> run(std::span<const DeviceCase* const> cases) override {
    std::vector<DeviceResult> results(cases.size());
    if (cases.empty()) return results;
    if (!pass_) pass_ = std::make_unique<vk::EmptyRenderPass>(ctx_);
    std::vector<Draw> draws;
    draws.reserve(cases.size());
    for (const DeviceCase* c : cases)
      draws.push_back(prepareDraw(*c));
    vk::submitAndWait(ctx_, [&](VkCommandBuffer cmd) {
      pass_->begin(cmd);
      for (const Draw& d : draws)
        recordDraw(cmd, d);
      vk::EmptyRenderPass::end(cmd);
      vk::recordVertexToHostBarrier(cmd);
    });
    for (size_t i = 0; i < cases.size(); ++i)
      results[i] = resultOf(*cases[i], draws[i]);
    return results;
  }

  void releasePipelines() override { pipelines_.clear(); }

 private:
  // One case's draw: its pipeline, buffers and descriptor set, and how many vertices (its
  // active lanes) it draws.
  struct Draw {
    vk::GraphicsPipeline* pipeline = nullptr;
    std::unique_ptr<vk::HostBuffer> vertices, indices, in, out;
    std::unique_ptr<vk::StorageDescriptorSets> set;
    uint32_t draws = 0;
  };

  Draw prepareDraw(const DeviceCase& c) {
    Draw p;
    p.pipeline = &pipelineFor(c);
    // The vertex buffer is a VkBuffer of exactly the memory image, bound whole: the robust
    // vertex-input rules are relative to the bound range, and lavapipe (Mesa 22.3.6) was
    // measured fetching an out-of-range vertex from the rest of the VkBuffer (a GuardedBuffer's
    // guard band) although vkCmdBindVertexBuffers2's pSizes ended the binding at the payload.
    // A fetch cannot write, so no guard band is lost.
    p.vertices = std::make_unique<vk::HostBuffer>(ctx_, c.memory.bytes.size(),
                                                  VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    std::memcpy(p.vertices->bytes().data(), c.memory.bytes.data(), c.memory.bytes.size());
    std::vector<uint32_t> in(kInWords, 0), drawn;
    for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
      const bool active = ((c.state.exec >> l) & 1u) != 0;
      in[l] = c.state.vgpr(c.inst.vaddr)[l];
      in[64 + l] = active ? 1u : 0u;
      if (active) drawn.push_back(in[l]);
    }
    p.draws = static_cast<uint32_t>(drawn.size());
    p.indices = std::make_unique<vk::HostBuffer>(ctx_, std::max<size_t>(4, drawn.size() * 4),
                                                 VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
    std::memcpy(p.indices->bytes().data(), drawn.data(), drawn.size() * 4);
    p.in = std::make_unique<vk::HostBuffer>(ctx_, kInWords * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::memcpy(p.in->bytes().data(), in.data(), kInWords * 4);
    p.out =
        std::make_unique<vk::HostBuffer>(ctx_, kOutWords * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::fill_n(reinterpret_cast<uint32_t*>(p.out->bytes().data()), kOutWords,
                kUnwrittenVertexWord);
    p.set = std::make_unique<vk::StorageDescriptorSets>(ctx_, *p.pipeline, 1);
    p.set->writeStorageBuffer(0, 0, p.in->buffer());
    p.set->writeStorageBuffer(0, 1, p.out->buffer());
    return p;
  }

  static void recordDraw(VkCommandBuffer cmd, const Draw& p) {
    if (p.draws == 0) return;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p.pipeline->pipeline());
    const VkDescriptorSet set = p.set->set(0);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p.pipeline->layout(), 0, 1, &set,
                            0, nullptr);
    const VkBuffer vb = p.vertices->buffer();
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &offset);
    vkCmdBindIndexBuffer(cmd, p.indices->buffer(), 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cmd, p.draws, 1, 0, 0, 0);
  }

  // The vertex shader sees the registers after the format's swizzle (ACO swaps BGRA formats
  // after the load, "post_shuffle"; formats.h's DST_SEL is that swizzle): register k is the
  // shader component j with dstSel[j] = X + k.
  static DeviceResult resultOf(const DeviceCase& c, const Draw& p) {
    const vk::BufferFormat& f = *vk::findBufferFormat(c.format);
    DeviceResult r;
    r.vdataCount = c.inst.op->components;
    std::vector<uint32_t> out(kOutWords);
    std::memcpy(out.data(), p.out->bytes().data(), kOutWords * 4);
    for (unsigned k = 0; k < r.vdataCount; ++k) {
      unsigned from = 4;
      for (unsigned j = 0; j < 4; ++j)
        if (f.dstSel[j] == static_cast<gcn::DstSel>(static_cast<uint8_t>(gcn::DstSel::X) + k))
          from = j;
      for (unsigned l = 0; l < gcn::kWaveSize; ++l)
        r.vdata[l][k] = from < 4 ? out[l * 4 + from] : kUnwrittenVertexWord;
    }
    const auto payload = p.vertices->bytes();
    r.memory.assign(payload.begin(), payload.end());
    return r;
  }

  vk::GraphicsPipeline& pipelineFor(const DeviceCase& c) {
    const std::string variant = vertexVariant(c);
    const auto key = std::make_tuple(variant, static_cast<int>(c.format), strideOf(c),
                                     static_cast<uint32_t>(c.inst.offset));
    auto it = pipelines_.find(key);
    if (it != pipelines_.end()) return *it->second;
    const std::span<const uint32_t> spirv = shaderVariant(variant);
    const vk::VertexInput input{strideOf(c), c.format, c.inst.offset};
    // Capture ACO's ISA wherever the device can (RADV), for pipelineIsa.
    auto p = std::make_unique<vk::GraphicsPipeline>(ctx_, spirv, kBindings, input, *pass_,
                                                    ctx_.features().pipelineExecutableInfo);
    return *pipelines_.emplace(key, std::move(p)).first->second;
  }

  vk::Context& ctx_;
  std::unique_ptr<vk::EmptyRenderPass> pass_;
  std::map<std::tuple<std::string, int, uint32_t, uint32_t>, std::unique_ptr<vk::GraphicsPipeline>>
      pipelines_;
};

}  // namespace

std::string vertexVariant(const DeviceCase& c) {
  if (c.binding != Binding::VertexAttribute) return "";
  const vk::BufferFormat* f = vk::findBufferFormat(c.format);
  return std::string("vertex_fetch_") + (f != nullptr ? shaderNumericType(*f) : 'f');
}

const gcn::OpcodeInfo* vertexFetchOpcode(const vk::BufferFormat& f, std::string* why) {
  const auto fail = [&](std::string_view reason) -> const gcn::OpcodeInfo* {
    if (why != nullptr) *why = std::string(reason);
    return nullptr;
  };
  if (f.name.find("_SRGB") != std::string_view::npos)
    return fail("sRGB formats are not vertex formats (and the buffer path does no sRGB decode)");
  if (f.name.find("R64") != std::string_view::npos)
    return fail("64-bit channels need a 64-bit vertex input (dvec/int64), not in this route");
  if (f.dfmt == gcn::Dfmt::Invalid) return fail(f.note);
  const gcn::DfmtInfo& d = gcn::dfmtInfo(f.dfmt);
  if (d.components == 0 || d.components > 4) return fail("no components");
  const bool dwords = d.bits[0] == 32 && (f.nfmt == gcn::Nfmt::Float || f.nfmt == gcn::Nfmt::Uint ||
                                          f.nfmt == gcn::Nfmt::Sint);
  return (dwords ? kDwordLoads : kTypedLoads)[d.components - 1];
}

uint32_t vertexNumRecords(gcn::Gen gen, uint32_t bytes, uint32_t stride, uint32_t attribEnd) {
  if (stride == 0) throw gcn::Error("vertexNumRecords: stride 0");
  const auto n = static_cast<uint32_t>(verticesInRange(bytes, stride, attribEnd));
  if (n == 0) return 0;
  // A vertex fetch is an IDXEN access of a V# without SWIZZLE_ENABLE; in bytes, the range
  // ends with the last in-range vertex's attribute.
  if (gcn::numRecordsInBytes(gen, stride, /*swizzleEnable=*/false, /*idxen=*/true))
    return (n - 1) * stride + attribEnd;
  return n;
}

gcn::VSharp makeVertexBufferVSharp(gcn::Gen gen, uint64_t base, uint32_t bytes, uint32_t stride,
                                   uint32_t attribOffset, VkFormat format) {
  const vk::BufferFormat* f = vk::findBufferFormat(format);
  if (f == nullptr)
    throw gcn::Error("VkFormat " + std::to_string(static_cast<int>(format)) +
                     " is not in the buffer format table");
  if (stride == 0 || stride > 0x3fff)
    throw gcn::Error("vertex binding stride " + std::to_string(stride) +
                     " does not fit the V#'s 14-bit STRIDE (or is 0)");
  std::string why;
  if (vertexFetchOpcode(*f, &why) == nullptr)
    throw gcn::Error(std::string(f->name) + " has no vertex fetch instruction: " + why);
  gcn::VSharp v;
  v.base = base;
  v.stride = static_cast<uint16_t>(stride);
  if (gcn::isRdna(gen)) {
    // RADV 22.3 and 25 on GFX10+ (radv_write_vertex_descriptors, per-attribute descriptors
    // under robustness): FORMAT 32_UINT with the attribute's format in the fetch instruction,
    // OOB_SELECT 1 (structured: index >= NUM_RECORDS) with a stride, NUM_RECORDS the vertices
    // whose attribute lies inside the binding, RESOURCE_LEVEL 1 where the field exists.
    v.numRecords = static_cast<uint32_t>(verticesInRange(bytes, stride, attribOffset + f->stride));
    v.format = gcn::findUnifiedFormat(gen, gcn::Dfmt::F32, gcn::Nfmt::Uint)->code;
    v.oobSelect = 1;
    v.resourceLevel = gen != gcn::Gen::Gfx11;
    return v;
  }
  v.numRecords = vertexNumRecords(gen, bytes, stride, attribOffset + f->stride);
  v.dataFormat = f->dfmt;
  v.numFormat = f->nfmt;
  return v;
}

std::unique_ptr<Route> makeVertexRoute(vk::Context& ctx) {
  return std::make_unique<VertexRoute>(ctx);
}

}  // namespace gcnprobe::routes
