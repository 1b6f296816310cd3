#include "harness/isa/binary_route.h"

#include <array>
#include <cstdio>
#include <map>
#include <optional>
#include <string>

#include "harness/isa/binary_patch.h"
#include "harness/routes/raw.h"
#include "harness/routes/storage.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/reach.h"

namespace gcnprobe::isa {
namespace {

// BUFFER_STORE_LDS_DWORD in the LDS template: no VADDR, SOFFSET 0, and every LDS dword an
// active lane reads ((M0 & 0xffff) + 4 * lane, the reference's address) inside the case's
// LDS image, which fits the template's LDS. The reference leaves a read outside its image
// unclaimed; the template's LDS there would hold zeros or the image's neighbours.
std::string ldsProblem(const routes::DeviceCase& c) {
  const gcn::Instruction& in = c.inst;
  if (in.offen || in.idxen || in.addr64 || in.soffset != 128)
    return "the LDS template addresses with SOFFSET 0 and no VADDR";
  if (c.lds.size() > kLdsTemplateBytes)
    return "the LDS image is " + std::to_string(c.lds.size()) + " bytes; the LDS template has " +
           std::to_string(kLdsTemplateBytes);
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    const uint64_t at = (c.state.m0 & 0xffffu) + 4ull * l;
    if (((c.state.exec >> l) & 1) && at + 4 > c.lds.size())
      return "lane " + std::to_string(l) + " reads LDS bytes " + std::to_string(at) + ".." +
             std::to_string(at + 3) + " (M0 & 0xffff + 4 * lane), outside the case's " +
             std::to_string(c.lds.size()) + "-byte LDS image";
  }
  return "";
}

}  // namespace

bool isDriverSsboVsharp(const gcn::Chip& chip, const routes::DeviceCase& c) {
  const routes::RawBufferFields v = routes::rawBufferFields(c);
  return v.numRecords != 0 && v.numRecords % 4 == 0 &&
         v.numRecords <= c.memory.bytes.size() + routes::lane::kMaxOverrun &&
         gcn::vsharpWords(c.state, c.inst.srsrc) ==
             gcn::encodeVSharp(
                 chip.gen, routes::makeStorageBufferVSharp(chip.gen, c.memory.base, v.numRecords));
}

namespace {

routes::Binding templateBinding(std::string_view variant) {
  return isTexelTemplate(variant) ? routes::Binding::StorageTexel : routes::Binding::StorageBuffer;
}

}  // namespace

routes::Binding binaryTemplateBinding(const gcn::Chip& chip, const gcn::OpcodeInfo& op,
                                      bool idxen) {
  return templateBinding(templateVariant(chip, op, idxen));
}

std::string laneLayoutConfinementProblem(const gcn::Chip& chip, const routes::DeviceCase& c) {
  const gcn::Instruction& in = c.inst;
  if (c.rawVsharp) {
    // Confinement as on the raw route: a harness buffer covers every byte any lane may touch
    // (reference/reach.h) and guard bytes around it; a reach over the bound is refused.
    try {
      (void)routes::placeRawCase(chip, c, routes::kRawGuard);
    } catch (const gcn::Error& e) {
      return e.what();
    }
  } else {
    if (!c.memory.far.empty())
      return "far memory regions are put on a device only with a raw V# (through a descriptor "
             "buffer), not with the driver's SSBO descriptor";
    // Confinement (docs/confinement.md): every byte any lane may touch, under every option of
    // the addressing points, inside the buffer and the guard band behind it that the lane
    // shader's runner owns and checks.
    const gcn::Reach reach = gcn::computeReach(chip, in, c.state);
    if (const std::optional<gcn::ByteRange> span = reach.span()) {
      const uint64_t low = c.memory.base;
      const uint64_t high = c.memory.base + c.memory.bytes.size() + routes::lane::kMaxOverrun;
      if (span->begin < low || span->end > high)
        return "lanes may touch bytes " + std::to_string(span->begin - std::min(span->begin, low)) +
               ".." + std::to_string(span->end - low) +
               " from the buffer's start, outside the buffer and its " +
               std::to_string(routes::lane::kMaxOverrun) + "-byte guard band";
    }
    if (!isDriverSsboVsharp(chip, c))
      return "the V# is not the one RADV writes for the case's buffer bound as an SSBO (base the "
             "memory's, NUM_RECORDS a multiple of 4 ending at most " +
             std::to_string(routes::lane::kMaxOverrun) +
             " bytes past it); any other V# goes through a descriptor buffer (a raw V# case)";
  }
  return "";
}

std::string binaryFormProblem(const gcn::Chip& chip, const routes::DeviceCase& c) {
  const gcn::Instruction& in = c.inst;
  if (in.op == nullptr) return "no instruction";
  const gcn::OpcodeInfo& op = *in.op;
  if (!gcn::existsOn(op, chip.gen))
    return std::string(op.mnemonic) + " does not exist on " + std::string(gcn::genName(chip.gen));
  const std::string variant = templateVariant(chip, op, in.idxen);
  const bool texel = templateBinding(variant) == routes::Binding::StorageTexel;
  if (c.binding != templateBinding(variant))
    return texel ? "the IDXEN templates' buffer is a storage texel buffer (binding storage-texel)"
                 : "the OFFEN templates' buffer is an SSBO (binding storage-buffer)";
  if (texel && !c.rawVsharp)
    return "the IDXEN templates take the V# from a descriptor buffer: the case needs a raw V#";
  if (in.idxen && op.kind == gcn::OpKind::Atomic)
    return "no template hosts an IDXEN atomic (the atomic template is an SSBO's, OFFEN)";
  // A D16 load that writes half registers runs in the atomic template, whose registers hold
  // the case's VDATA before the instruction (In.data), so the halves it keeps are known; that
  // template returns two registers.
  if (writesHalfRegisters(chip, op) && in.idxen)
    return "a D16 load that writes half registers runs in the atomic template, which addresses "
           "with OFFEN, not IDXEN";
  if (writesHalfRegisters(chip, op) && gcn::vdataRegs(op, chip, in.tfe) > kAtomicTemplateReturned)
    return "a D16 load that writes half of each of its " +
           std::to_string(gcn::vdataRegs(op, chip, in.tfe)) +
           " registers (keeping or clearing the other half) needs them preset, and the "
           "template that presets its registers (the atomic one) returns " +
           std::to_string(kAtomicTemplateReturned);
  if (in.lds && !op.ldsData)
    return "a load with the LDS bit writes LDS, which no template reads back";
  if (op.kind == gcn::OpKind::Cache) return "";
  if (op.ldsData) {
    if (std::string l = ldsProblem(c); !l.empty()) return l;
  } else if ((in.offen && in.idxen) || in.addr64 || in.soffset != 128) {
    return "the templates address with one VADDR register, OFFEN (SSBO templates) or IDXEN "
           "(texel templates) or none, and SOFFSET 0";
  }
  // The LDS store's LDS address may add OFFSET (the GCN3 manual's LDS_ADDR formula; CLRX's
  // does not), so the LDS image check above would not bound it.
  if (op.ldsData && in.offset != 0) return "the LDS template hosts the LDS store with OFFSET 0";
  if (std::string p = laneLayoutConfinementProblem(chip, c); !p.empty()) return p;
  // The template turns In.addr into VADDR by addressing its own access: only multiples of
  // its size arrive unchanged.
  const unsigned size = variant == kAtomicTemplateVariant ? 8u : 16u;  // its access
  const gcn::LaneWords& vaddr = c.state.vgpr(in.vaddr);
  for (unsigned l = 0; l < gcn::kWaveSize && in.offen; ++l)
    if (((c.state.exec >> l) & 1) && vaddr[l] % size != 0)
      return "lane " + std::to_string(l) + "'s VADDR " + std::to_string(vaddr[l]) +
             " is not a multiple of " + std::to_string(size) +
             " (the template's access size, from which it computes VADDR)";
  return "";
}

namespace {

class BinaryRoute : public routes::Route {
 public:
  explicit BinaryRoute(vk::Context& ctx) : ctx_(ctx), builder_(ctx) {}

  std::string_view name() const override { return "binary"; }
  bool handles(const routes::DeviceCase& c) const override {
    return c.binaryPatch && !c.ownProgram;
  }

  std::string unsupportedReason(const routes::DeviceCase& c) const override {
    if (std::string d = builder_.deviceProblem(); !d.empty()) return "binary route: " + d;
    // An RDNA device: the builder proves RDNA pipelines on RADV's null device (`isa`), but a
    // GPU that runs cases runs them for the GCN reference, whose words are no RDNA code.
    if (!ctx_.info().chip && ctx_.canExecute())
      return "binary route: " + ctx_.info().name +
             " is not a GCN device: binary cases run on GCN GPUs (RDNA pipelines are only built "
             "and proven, by `gcnprobe isa` on RADV's null device)";
    if (std::string f = binaryFormProblem(*builder_.chip(), c); !f.empty())
      return "binary route: " + f;
    // What the template's shader needs of the device.
    const vk::Features& f = ctx_.features();
    const std::string variant = templateVariant(*builder_.chip(), *c.inst.op, c.inst.idxen);
    if (variant == kTexelLoadTemplateVariant && !f.shaderStorageImageReadWithoutFormat)
      return "binary route: the IDXEN load template reads a storage image without format: the "
             "device lacks shaderStorageImageReadWithoutFormat";
    if (variant == kTexelStoreTemplateVariant && !f.shaderStorageImageWriteWithoutFormat)
      return "binary route: the IDXEN store template writes a storage image without format: the "
             "device lacks shaderStorageImageWriteWithoutFormat";
    if (variant == kAtomicTemplateVariant && !(f.shaderInt64 && f.shaderBufferInt64Atomics))
      return "binary route: the atomic template is a 64-bit SSBO atomic: the device lacks "
             "shaderInt64 + shaderBufferInt64Atomics";
    if (c.rawVsharp) {
      // The V# goes through a descriptor buffer, as on the raw route.
      if (!rawProblem_) rawProblem_ = routes::lane::rawDeviceProblem(ctx_);
      if (!rawProblem_->empty()) return "binary route: raw V#: " + *rawProblem_;
      if (!ctx_.features().descriptorBuffer)
        return "binary route: raw V#: " + ctx_.info().name +
               " has no VK_EXT_descriptor_buffer, which carries a raw V# to the template";
    }
    const BinaryBuild* built = nullptr;
    try {
      built = &buildFor(c);
    } catch (const std::exception& e) {
      return "binary route: " + std::string(e.what());
    }
    const BinaryBuild& b = *built;
    if (!b.built) return b.reason;
    if (!ctx_.canExecute())
      return "binary route: " + ctx_.info().name +
             " has no memory types (a compile-only device): the patched pipeline was built "
             "and proven (" +
             b.proof + ") but cannot run here";
    return "";
  }

  std::string batchKey(const routes::DeviceCase& c) const override {
    // Never throws: a case that cannot be built gets a key of the unbuilt (run() refuses it
    // with the reason; the runner never batches an unsupported case).
    try {
      const BinaryBuild& b = buildFor(c);
      char key[48];
      std::snprintf(key, sizeof key, "%08x%08x", b.words[0], b.words[1]);
      std::string k = key;
      if (c.rawVsharp) k += " raw";
      if (b.m0Setup) {
        std::snprintf(key, sizeof key, " m0 %08x", (*b.m0Setup)[1]);
        k += key;
      }
      return k;
    } catch (const std::exception& e) {
      return std::string("unbuildable: ") + e.what();
    }
  }

  std::vector<routes::DeviceResult> run(std::span<const routes::DeviceCase* const> cases) override {
    if (cases.empty()) return {};
    const routes::DeviceCase& first = *cases.front();
    if (std::string why = unsupportedReason(first); !why.empty()) throw gcn::Error(why);
    const BinaryBuild& b = buildFor(first);
    // The registers the instruction writes (a load's, an atomic's pre-op value with GLC) come
    // back from Out; the template's other VDATA registers are not compared.
    return routes::lane::runPatchedLaneShader(ctx_, *builder_.chip(), *b.pipeline, cases);
  }

  // The patched pipeline's listing, proven as any route's: the template's data path around the
  // case's instruction, read back as patched.
  routes::PipelineIsa pipelineIsa(const routes::DeviceCase& c) override {
    if (std::string d = builder_.deviceProblem(); !d.empty())
      throw gcn::Error("binary route: " + d);
    const BinaryBuild& b = buildFor(c);
    if (!b.built) throw gcn::Error(b.reason);
    routes::PipelineIsa shape = routes::routePipelineShape(c.rawVsharp ? "raw" : "storage", c);
    shape.dataPath =
        templateDataPath(templateVariant(*builder_.chip(), *c.inst.op, c.inst.idxen), b.templ);
    shape.offsetFixed = true;
    shape.executables = b.executables;
    return shape;
  }

  // A raw V# needs VK_EXT_descriptor_buffer to reach the pipeline at all (RADV has it from
  // Mesa 23): without it, nothing can be built, so `isa` reports the case unsupported.
  std::string unbuildableReason(const routes::DeviceCase& c) const override {
    return c.rawVsharp ? routes::lane::descriptorBufferProblem(ctx_, "binary route") : "";
  }

  // The proven pipelines stay: at most one per opcode, built (and proven) when each case's
  // support was queried before any batch ran; dropping them would only build them again.
  void releasePipelines() override {}

 private:
  // The case's instruction on the template's registers (VDATA, VADDR, SRSRC): the device runs
  // that; the case's own registers map onto them one to one through In and Out.
  const BinaryBuild& buildFor(const routes::DeviceCase& c) const {
    const gcn::Instruction templ =
        builder_.templateInstruction(*c.inst.op, c.inst.idxen, c.rawVsharp);
    gcn::Instruction intended = c.inst;
    if (c.inst.op->kind != gcn::OpKind::Cache) {
      if (!c.inst.op->ldsData) intended.vdata = templ.vdata;  // the LDS store has none
      // Without OFFEN or IDXEN no VADDR is read and the field stays the case's (the encoder
      // wants 0 there, 'off').
      if (c.inst.offen || c.inst.idxen) intended.vaddr = templ.vaddr;
      intended.srsrc = templ.srsrc;
      // SOFFSET stays the case's (the inline 0, binaryFormProblem): patchProblem refuses a
      // template whose SOFFSET is another.
    }
    const auto words = gcn::encode(builder_.chip()->gen, intended);
    // M0 is patched into the LDS template too: part of what was built.
    const uint32_t m0 = c.inst.op->ldsData ? c.state.m0 : 0;
    const BuildKey key{words[0], words[1], m0, c.rawVsharp ? 1u : 0u};
    auto it = builds_.find(key);
    if (it == builds_.end())
      it = builds_.emplace(key, builder_.build(intended, std::nullopt, m0, c.rawVsharp)).first;
    return it->second;
  }

  using BuildKey = std::array<uint32_t, 4>;  // the patched words, M0, descriptor buffer

  vk::Context& ctx_;
  // Built on first use, from unsupportedReason (queried before every case) as from run().
  mutable BinaryBuilder builder_;
  mutable std::map<BuildKey, BinaryBuild> builds_;
  mutable std::optional<std::string> rawProblem_;  // routes::lane::rawDeviceProblem, once
};

}  // namespace

std::unique_ptr<routes::Route> makeBinaryRoute(vk::Context& ctx) {
  return std::make_unique<BinaryRoute>(ctx);
}

}  // namespace gcnprobe::isa
