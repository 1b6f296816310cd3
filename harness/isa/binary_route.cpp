#include "harness/isa/binary_route.h"

#include <cstdio>
#include <map>
#include <string>

#include "harness/isa/binary_patch.h"
#include "harness/routes/all_routes.h"
#include "harness/routes/storage.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/reach.h"

namespace gcnprobe::isa {
namespace {

class BinaryRoute : public routes::Route {
 public:
  explicit BinaryRoute(vk::Context& ctx) : ctx_(ctx), builder_(ctx) {
    VkPhysicalDeviceMemoryProperties memory{};
    vkGetPhysicalDeviceMemoryProperties(ctx.physicalDevice(), &memory);
    canRun_ = memory.memoryTypeCount > 0;
  }

  std::string_view name() const override { return "binary"; }
  bool handles(const routes::DeviceCase& c) const override { return c.binaryPatch; }

  std::string unsupportedReason(const routes::DeviceCase& c) const override {
    if (std::string d = builder_.deviceProblem(); !d.empty()) return "binary route: " + d;
    if (std::string f = formProblem(c); !f.empty()) return "binary route: " + f;
    const BinaryBuild* built = nullptr;
    try {
      built = &buildFor(c);
    } catch (const std::exception& e) {
      return "binary route: " + std::string(e.what());
    }
    const BinaryBuild& b = *built;
    if (!b.built) return b.reason;
    if (!canRun_)
      return "binary route: " + ctx_.info().name +
             " has no memory types (a compile-only device): the patched pipeline was built "
             "and proven (" +
             b.proof + ") but cannot run here";
    return "";
  }

  std::string batchKey(const routes::DeviceCase& c) const override {
    // Never throws: a case that cannot be built has a key of its own, and run() refuses it
    // with the reason.
    try {
      const BinaryBuild& b = buildFor(c);
      char key[32];
      std::snprintf(key, sizeof key, "%08x%08x", b.words[0], b.words[1]);
      return key;
    } catch (const std::exception& e) {
      return std::string("unbuildable: ") + e.what();
    }
  }

  std::vector<routes::DeviceResult> run(std::span<const routes::DeviceCase* const> cases) override {
    if (cases.empty()) return {};
    const routes::DeviceCase& first = *cases.front();
    if (std::string why = unsupportedReason(first); !why.empty()) throw gcn::Error(why);
    const BinaryBuild& b = buildFor(first);
    const gcn::OpcodeInfo& op = *first.inst.op;
    // The registers the instruction writes: a load's (D16 packing and TFE included), an
    // atomic's pre-op value with GLC (the lane shaders' count); none for stores and cache
    // operations.
    const bool load = op.kind == gcn::OpKind::LoadFormat || op.kind == gcn::OpKind::Load;
    const unsigned words = load ? gcn::vdataRegs(op, *ctx_.info().chip, first.inst.tfe)
                                : (op.kind == gcn::OpKind::Atomic && first.inst.glc
                                       ? routes::detail::laneShaderWords(first)
                                       : 0);
    return routes::detail::runLaneShader(ctx_, *b.pipeline, cases, VK_FORMAT_UNDEFINED, words);
  }

  // The proven pipelines stay: at most one per opcode, built (and proven) when each case's
  // support was queried before any batch ran; dropping them would only build them again.
  void releasePipelines() override {}

 private:
  // What the templates cannot host, before anything is built.
  std::string formProblem(const routes::DeviceCase& c) const {
    const gcn::Instruction& in = c.inst;
    if (in.op == nullptr) return "no instruction";
    const gcn::OpcodeInfo& op = *in.op;
    if (c.rawVsharp)
      return "a raw V# needs the raw route's descriptor buffer, which the binary templates do "
             "not use yet";
    if (c.binding != routes::Binding::StorageBuffer)
      return "the templates' buffer is an SSBO (binding storage-buffer)";
    // A D16 load that fills whole registers (packed D16, an even number of halves) is
    // hosted; one that writes half a register keeps the other half, which the template does
    // not preset (and unpacked D16 leaves the upper halves to the hardware).
    if (op.d16 && (op.kind == gcn::OpKind::Load || op.kind == gcn::OpKind::LoadFormat) &&
        (!ctx_.info().chip->d16Packed || op.d16Hi || op.components % 2 != 0))
      return "a D16 load that writes half a register keeps the other half, which the template "
             "does not preset";
    if (in.lds || op.ldsData) return "LDS forms need M0 and an LDS allocation";
    if (op.kind == gcn::OpKind::Cache) return "";
    if (!in.offen || in.idxen || in.addr64 || in.soffset != 128)
      return "the templates address with OFFEN and one VADDR register, SOFFSET 0";
    const gcn::Chip& chip = *ctx_.info().chip;
    // Confinement (docs/confinement.md): every byte any lane may touch, under every option of
    // the addressing points, inside the buffer and the guard band behind it that the lane
    // shader's runner owns and checks.
    const gcn::Reach reach = gcn::computeReach(chip, in, c.state);
    if (const std::optional<gcn::ByteRange> span = reach.span()) {
      const uint64_t low = c.memory.base;
      const uint64_t high = c.memory.base + c.memory.bytes.size() + routes::detail::kMaxOverrun;
      if (span->begin < low || span->end > high)
        return "lanes may touch bytes " + std::to_string(span->begin - std::min(span->begin, low)) +
               ".." + std::to_string(span->end - low) +
               " from the buffer's start, outside the buffer and its " +
               std::to_string(routes::detail::kMaxOverrun) + "-byte guard band";
    }
    // The V# RADV writes for the case's buffer as an SSBO (routes/storage.h).
    const auto want = gcn::encodeVSharp(
        chip.gen, routes::makeStorageBufferVSharp(c.memory.base,
                                                  static_cast<uint32_t>(c.memory.bytes.size())));
    if (gcn::vsharpWords(c.state, in.srsrc) != want)
      return "the V# is not the one RADV writes for the case's buffer as an SSBO";
    // The template turns In.addr into VADDR by addressing its own access: only multiples of
    // its size arrive unchanged.
    const unsigned size =
        op.kind == gcn::OpKind::Atomic ? 8u : 16u;  // cmpswap_x2; load/store dwordx4
    const gcn::LaneWords& vaddr = c.state.vgpr(in.vaddr);
    for (unsigned l = 0; l < gcn::kWaveSize; ++l)
      if (((c.state.exec >> l) & 1) && vaddr[l] % size != 0)
        return "lane " + std::to_string(l) + "'s VADDR " + std::to_string(vaddr[l]) +
               " is not a multiple of " + std::to_string(size) +
               " (the template's access size, from which it computes VADDR)";
    return "";
  }

  // The case's instruction on the template's registers (VDATA, VADDR, SRSRC): the device runs
  // that; the case's own registers map onto them one to one through In and Out.
  const BinaryBuild& buildFor(const routes::DeviceCase& c) const {
    const gcn::Instruction templ = builder_.templateInstruction(*c.inst.op);
    gcn::Instruction intended = c.inst;
    if (c.inst.op->kind != gcn::OpKind::Cache) {
      intended.vdata = templ.vdata;
      intended.vaddr = templ.vaddr;
      intended.srsrc = templ.srsrc;
      intended.soffset = templ.soffset;
    }
    const auto words = gcn::encode(ctx_.info().chip->gen, intended);
    const uint64_t key = (uint64_t{words[0]} << 32) | words[1];
    auto it = builds_.find(key);
    if (it == builds_.end()) it = builds_.emplace(key, builder_.build(intended)).first;
    return it->second;
  }

  vk::Context& ctx_;
  bool canRun_ = false;
  // Built on first use, from unsupportedReason (queried before every case) as from run().
  mutable BinaryBuilder builder_;
  mutable std::map<uint64_t, BinaryBuild> builds_;
};

}  // namespace

std::unique_ptr<routes::Route> makeBinaryRoute(vk::Context& ctx) {
  return std::make_unique<BinaryRoute>(ctx);
}

std::vector<std::unique_ptr<routes::Route>> makeRunRoutes(vk::Context& ctx) {
  std::vector<std::unique_ptr<routes::Route>> out = routes::makeAllRoutes(ctx);
  out.push_back(makeBinaryRoute(ctx));
  return out;
}

}  // namespace gcnprobe::isa
