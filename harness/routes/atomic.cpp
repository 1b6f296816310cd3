#include "harness/routes/atomic.h"

#include <map>

#include "harness/routes/storage.h"
#include "harness/vulkan/pipeline.h"
#include "reference/error.h"
#include "shaders/embedded.h"

namespace gcnprobe::routes {

bool atomicRoutable(gcn::AtomicOp a) {
  switch (a) {
    case gcn::AtomicOp::Swap:
    case gcn::AtomicOp::Cmpswap:
    case gcn::AtomicOp::Add:
    case gcn::AtomicOp::Sub:
    case gcn::AtomicOp::Smin:
    case gcn::AtomicOp::Umin:
    case gcn::AtomicOp::Smax:
    case gcn::AtomicOp::Umax:
    case gcn::AtomicOp::And:
    case gcn::AtomicOp::Or:
    case gcn::AtomicOp::Xor:
      return true;
    default:
      return false;
  }
}

namespace {

bool isAtomic(const DeviceCase& c) {
  return c.inst.op != nullptr && c.inst.op->kind == gcn::OpKind::Atomic &&
         (c.binding == Binding::StorageBuffer || c.binding == Binding::StorageTexel);
}

class AtomicRoute final : public Route {
 public:
  explicit AtomicRoute(vk::Context& ctx) : ctx_(ctx) {}

  std::string_view name() const override { return "atomic"; }

  bool handles(const DeviceCase& c) const override {
    return !c.rawVsharp && !c.binaryPatch && !c.ownProgram && isAtomic(c);
  }

  std::string unsupportedReason(const DeviceCase& c) const override {
    if (std::string far = farMemoryProblem(c, name()); !far.empty()) return far;
    if (!isAtomic(c)) return "the atomic route realises only BUFFER_ATOMIC_*";
    const gcn::Instruction& in = c.inst;
    const gcn::OpcodeInfo& op = *in.op;
    if (!atomicRoutable(op.atomic))
      return std::string(op.mnemonic) + " has no GLSL atomic that reaches it";
    if (!in.glc)
      return "the shader uses the returned value, so the driver emits GLC: cases need glc";
    if (in.lds || in.tfe || in.addr64 || in.soffset != 128)
      return "an atomic through Vulkan has no LDS, TFE, ADDR64 or SOFFSET";
    if (c.memory.bytes.empty() || c.memory.bytes.size() % 4 != 0)
      return "memory must be whole dwords";
    const RawBufferFields v = rawBufferFields(c);
    if (v.base != c.memory.base) return "the V# base is not the memory image's base";
    if (v.swizzle || v.addTid) return "RADV's V# has no swizzle and no ADD_TID";
    const vk::Features& f = ctx_.features();
    if (op.wide && !(f.shaderInt64 && f.shaderBufferInt64Atomics))
      return "device lacks shaderInt64 + shaderBufferInt64Atomics (64-bit SSBO atomics)";
    if (c.binding == Binding::StorageBuffer) {
      if (!in.offen || in.idxen) return "an SSBO atomic is OFFEN (no IDXEN)";
      if (v.stride != 0) return "RADV's SSBO V# has STRIDE 0";
      if (std::string p = lane::ssboIndexingProblem(c); !p.empty()) return p;
      if (v.numRecords % 4 != 0 || v.numRecords > c.memory.bytes.size() + lane::kMaxOverrun)
        return "NUM_RECORDS must be whole dwords and end near the memory image";
      return "";
    }
    // Storage texel buffer: imageAtomic* on an R32 view.
    if (op.wide) return "texel-buffer atomics are 32-bit (R32_UINT / R32_SINT views)";
    if (!in.idxen || in.offen || in.offset != 0)
      return "a texel-buffer atomic is IDXEN with OFFSET 0";
    const VkFormat want = atomicTexelFormat(op.atomic);
    if (c.format != want)
      return std::string("this operation runs on ") +
             (want == VK_FORMAT_R32_SINT ? "VK_FORMAT_R32_SINT" : "VK_FORMAT_R32_UINT");
    if ((ctx_.formatProperties(c.format).bufferFeatures &
         VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT) == 0)
      return "format lacks VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT on this device";
    if (c.memory.bytes.size() / 4 > ctx_.limits().maxTexelBufferElements)
      return "view exceeds maxTexelBufferElements";
    return "";
  }

  std::string batchKey(const DeviceCase& c) const override {
    return atomicVariant(c) + "@" + std::to_string(c.inst.offset);
  }

  PipelineIsa pipelineIsa(const DeviceCase& c) override {
    if (atomicVariant(c).empty()) throw gcn::Error("not an atomic case");
    // The case's SSBO / texel buffer is binding 0 (shaders/atomic_*.comp); 1/2 are lane I/O.
    PipelineIsa isa = routePipelineShape(name(), c);
    isa.executables = vk::captureIsa(ctx_, pipelineFor(c).pipeline());
    return isa;
  }

  std::vector<DeviceResult> run(std::span<const DeviceCase* const> cases) override {
    if (cases.empty()) return {};
    const DeviceCase& first = *cases.front();
    const bool texel = first.binding == Binding::StorageTexel;
    return lane::runLaneShader(ctx_, pipelineFor(first), cases,
                               texel ? first.format : VK_FORMAT_UNDEFINED,
                               lane::laneShaderWords(first));
  }

  void releasePipelines() override { pipelines_.clear(); }

 private:
  vk::ComputePipeline& pipelineFor(const DeviceCase& c) {
    const bool texel = c.binding == Binding::StorageTexel;
    const std::string variant = atomicVariant(c);
    const std::string key = variant + "@" + std::to_string(c.inst.offset);
    auto it = pipelines_.find(key);
    if (it != pipelines_.end()) return *it->second;
    const std::span<const uint32_t> spirv = shaderVariant(variant);
    const uint32_t spec[] = {c.inst.offset};
    // ISA captured wherever the device can, for the runner's ISA check (harness/isa).
    auto p = std::make_unique<vk::ComputePipeline>(
        ctx_, spirv, lane::laneShaderBindings(texel), 0, ctx_.features().pipelineExecutableInfo,
        texel ? std::span<const uint32_t>() : std::span<const uint32_t>(spec));
    return *pipelines_.emplace(key, std::move(p)).first->second;
  }

  vk::Context& ctx_;
  std::map<std::string, std::unique_ptr<vk::ComputePipeline>> pipelines_;
};

}  // namespace

VkFormat atomicTexelFormat(gcn::AtomicOp op) {
  return op == gcn::AtomicOp::Smin || op == gcn::AtomicOp::Smax ? VK_FORMAT_R32_SINT
                                                                : VK_FORMAT_R32_UINT;
}

std::string atomicVariant(const DeviceCase& c) {
  if (!isAtomic(c) || !atomicRoutable(c.inst.op->atomic)) return "";
  std::string m(c.inst.op->mnemonic);
  if (m.rfind("buffer_atomic_", 0) == 0) m = m.substr(14);
  const bool texel = c.binding == Binding::StorageTexel;
  return std::string(texel ? "atomic_texel_" : "atomic_ssbo_") + m;
}

std::unique_ptr<Route> makeAtomicRoute(vk::Context& ctx) {
  return std::make_unique<AtomicRoute>(ctx);
}

}  // namespace gcnprobe::routes
