#include "harness/control/control_route.h"

#include <array>
#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

#include "harness/control/program_build.h"
#include "harness/isa/binary_route.h"
#include "harness/routes/all_routes.h"
#include "harness/routes/raw.h"
#include "harness/routes/storage.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/reach.h"

namespace gcnprobe::control {
namespace {

// The value the case's SOFFSET register holds (an SGPR or M0); 0 for an inline constant.
uint32_t soffsetValueOf(const gcn::Chip& chip, const routes::DeviceCase& c) {
  const unsigned s = c.inst.soffset;
  if (s == gcn::m0SgprCode(chip.gen)) return c.state.m0;
  if (s < c.state.sgpr.size()) return c.state.sgpr[s];
  return 0;
}

class ProgramRoute : public routes::Route {
 public:
  explicit ProgramRoute(vk::Context& ctx) : ctx_(ctx), builder_(ctx) {}

  std::string_view name() const override { return "program"; }
  bool handles(const routes::DeviceCase& c) const override { return c.ownProgram; }

  std::string unsupportedReason(const routes::DeviceCase& c) const override {
    if (std::string d = builder_.deviceProblem(); !d.empty()) return "own program: " + d;
    if (std::string f = programFormProblem(*builder_.chip(), c); !f.empty())
      return "own program: " + f;
    if (c.rawVsharp) {
      if (!rawProblem_) rawProblem_ = routes::lane::rawDeviceProblem(ctx_);
      if (!rawProblem_->empty()) return "own program: raw V#: " + *rawProblem_;
      if (std::string d = routes::lane::descriptorBufferProblem(ctx_, "own program"); !d.empty())
        return d;
    }
    const ProgramBuild& b = buildFor(c);
    if (!b.built) return b.reason;
    if (!ctx_.canExecute())
      return "own program: " + ctx_.info().name +
             " has no memory types (a compile-only device): the program was built and proven (" +
             b.proof + ") but cannot run here";
    return "";
  }

  std::string batchKey(const routes::DeviceCase& c) const override {
    const gcn::Chip* chip = builder_.chip() ? &*builder_.chip() : nullptr;
    if (chip == nullptr) return "no chip";
    try {
      const auto w = gcn::encode(chip->gen, c.inst);
      char key[64];
      std::snprintf(key, sizeof key, "%08x%08x s%08x%s", w[0], w[1], soffsetValueOf(*chip, c),
                    c.rawVsharp ? " raw" : "");
      return key;
    } catch (const std::exception& e) {
      return std::string("unbuildable: ") + e.what();
    }
  }

  std::vector<routes::DeviceResult> run(std::span<const routes::DeviceCase* const> cases) override {
    if (cases.empty()) return {};
    const routes::DeviceCase& first = *cases.front();
    if (std::string why = unsupportedReason(first); !why.empty()) throw gcn::Error(why);
    const ProgramBuild& b = buildFor(first);
    return routes::lane::runPatchedLaneShader(ctx_, *builder_.chip(), *b.pipeline, cases);
  }

  routes::PipelineIsa pipelineIsa(const routes::DeviceCase& c) override {
    routes::PipelineIsa shape = routes::routePipelineShape("program", c);
    if (c.inst.soffset < 128) shape.soffsetValue = soffsetValueOf(*builder_.chip(), c);
    const ProgramBuild& b = buildFor(c);
    if (!b.built) throw gcn::Error(b.reason);
    shape.executables = b.executables;
    return shape;
  }

  // A raw V# needs VK_EXT_descriptor_buffer to reach the pipeline at all (RADV has it from
  // Mesa 23): without it, nothing can be built, so `isa` reports the case unsupported.
  std::string unbuildableReason(const routes::DeviceCase& c) const override {
    return c.rawVsharp ? routes::lane::descriptorBufferProblem(ctx_, "own program") : "";
  }

  // The proven pipelines stay: one per instruction and SOFFSET value.
  void releasePipelines() override {}

 private:
  const ProgramBuild& buildFor(const routes::DeviceCase& c) const {
    const gcn::Chip& chip = *builder_.chip();
    const uint32_t soffset = soffsetValueOf(chip, c);
    const auto w = gcn::encode(chip.gen, c.inst);
    const Key key{w[0], w[1], soffset, c.rawVsharp ? 1u : 0u};
    auto it = builds_.find(key);
    if (it == builds_.end())
      it = builds_.emplace(key, builder_.build(c.inst, soffset, c.rawVsharp)).first;
    return it->second;
  }

  using Key = std::array<uint32_t, 4>;  // the instruction's words, SOFFSET's value, raw V#

  vk::Context& ctx_;
  mutable ProgramBuilder builder_;
  mutable std::map<Key, ProgramBuild> builds_;
  mutable std::optional<std::string> rawProblem_;
};

}  // namespace

std::string programFormProblem(const gcn::Chip& chip, const routes::DeviceCase& c) {
  const gcn::Instruction& in = c.inst;
  if (in.op == nullptr) return "no instruction";
  if (!gcn::existsOn(*in.op, chip.gen))
    return std::string(in.op->mnemonic) + " does not exist on " +
           std::string(gcn::genName(chip.gen));
  if (std::string p = programProblem(chip, in); !p.empty()) return p;
  if (c.binding != routes::Binding::StorageBuffer)
    return "the program's buffer is an SSBO (binding storage-buffer)";
  return isa::laneLayoutConfinementProblem(chip, c);
}

std::unique_ptr<routes::Route> makeProgramRoute(vk::Context& ctx) {
  return std::make_unique<ProgramRoute>(ctx);
}

std::vector<std::unique_ptr<routes::Route>> makeRunRoutes(vk::Context& ctx) {
  std::vector<std::unique_ptr<routes::Route>> out = routes::makeAllRoutes(ctx);
  out.push_back(isa::makeBinaryRoute(ctx));
  out.push_back(makeProgramRoute(ctx));
  return out;
}

}  // namespace gcnprobe::control
