#include "harness/control/program_build.h"

#include <algorithm>
#include <cstring>

#include "harness/isa/aco_asm.h"
#include "harness/isa/binary_patch.h"
#include "harness/isa/cached_pipeline.h"
#include "harness/isa/descriptor_trace.h"
#include "reference/error.h"
#include "reference/scalar_table.h"
#include "reference/text.h"

namespace gcnprobe::control {
namespace {

std::optional<uint64_t> statistic(const vk::ExecutableIsa& exe, std::string_view name) {
  for (const auto& [n, v] : exe.statistics)
    if (n == name) return v;
  return std::nullopt;
}

std::vector<uint8_t> bytesOf(std::span<const uint32_t> words) {
  std::vector<uint8_t> out(words.size() * 4);
  std::memcpy(out.data(), words.data(), out.size());
  return out;
}

}  // namespace

routes::DataPath programDataPath() {
  return routes::routePipelineShape("program", routes::DeviceCase{}).dataPath;
}

vk::ExecutableIsa programExecutable(const LaneProgram& program, const std::string& source) {
  vk::ExecutableIsa exe;
  exe.name = std::string(kProgramExecutable);
  exe.description = "gcnprobe's own lane program (docs/program.md)";
  exe.assembly = program.assembly();
  exe.stages = VK_SHADER_STAGE_COMPUTE_BIT;
  exe.source = source;
  return exe;
}

struct ProgramBuilder::Template {
  bool descriptorBuffer = false;
  std::string error;  // why it cannot host programs
  std::vector<uint8_t> cacheData;
  std::vector<uint32_t> code;  // the template's whole code, from its listing
  std::size_t codeOffset = 0;  // where it sits in cacheData
  uint64_t sgprs = 0, vgprs = 0;
  std::string layout;  // what the template's listing confirmed, for the proof text
};

ProgramBuilder::ProgramBuilder(vk::Context& ctx) : ctx_(ctx), chip_(ctx.info().modelledChip()) {}
ProgramBuilder::~ProgramBuilder() = default;

std::string ProgramBuilder::deviceProblem() const {
  const vk::DeviceInfo& info = ctx_.info();
  if (!chip_ || gcn::isRdna(chip_->gen))
    return info.name + " is not a GCN device: gcnprobe's own program is GCN (GFX6-GFX9) code";
  if (!ctx_.features().pipelineExecutableInfo)
    return info.name +
           " captures no ISA (VK_KHR_pipeline_executable_properties): the template's code and "
           "register allocation cannot be read";
  return isa::diskCacheProblem(info);
}

ProgramBuilder::Template& ProgramBuilder::templateFor(bool descriptorBuffer) {
  for (auto& t : templates_)
    if (t->descriptorBuffer == descriptorBuffer) return *t;
  auto t = std::make_unique<Template>();
  t->descriptorBuffer = descriptorBuffer;
  const vk::DeviceInfo& info = ctx_.info();
  const std::string driver = info.driverName + " " + info.driverInfo;
  try {
    const gcn::Gen gen = chip_->gen;
    const std::span<const uint32_t> spirv = routes::shaderVariant(kProgramTemplateVariant);
    if (descriptorBuffer && !ctx_.features().descriptorBuffer)
      throw gcn::Error(info.name + " (" + driver +
                       ") has no VK_EXT_descriptor_buffer: a raw V# cannot reach the program");
    {
      isa::CachedPipeline captured(ctx_, spirv, false, VK_NULL_HANDLE, true, descriptorBuffer);
      const std::vector<vk::ExecutableIsa> exes = vk::captureIsa(ctx_, captured.pipeline());
      if (exes.size() != 1 || exes.front().assembly.empty())
        throw gcn::Error(driver + " gave " + std::to_string(exes.size()) +
                         " executables for the program template, not one with Assembly text "
                         "(RADV on gfx6/7 needs clrxdisasm on PATH; gcnprobe provides one)");
      const vk::ExecutableIsa& exe = exes.front();
      const std::string source = exe.source.empty() ? exe.name : exe.source;
      const std::vector<isa::AsmInstruction> listing = isa::parseAcoAssembly(exe.assembly, source);
      std::vector<std::vector<uint32_t>> words;
      for (const isa::AsmInstruction& a : listing) {
        t->code.insert(t->code.end(), a.words.begin(), a.words.end());
        words.push_back(a.words);
      }
      const std::optional<uint64_t> sgprs = statistic(exe, "SGPRs"),
                                    vgprs = statistic(exe, "VGPRs");
      if (!sgprs || !vgprs)
        throw gcn::Error(source +
                         ": no \"SGPRs\" and \"VGPRs\" statistics: the registers the driver "
                         "allocates for the program template cannot be read");
      t->sgprs = *sgprs;
      t->vgprs = *vgprs;
      // The argument layout the program relies on: the template's own loads of In and Out are
      // traced to set 0 bindings 1 and 2 through the pointer in s2, whose high half is the
      // driver's constant (the trace refuses any other).
      const isa::UserSgprRoles roles =
          isa::radvUserSgprRoles(gen, VK_SHADER_STAGE_COMPUTE_BIT, false);
      if (roles.set0Pointer != 2)
        throw gcn::Error("the program expects set 0's pointer in s2; RADV's layout for " +
                         std::string(gcn::genName(gen)) + " puts it in s" +
                         std::to_string(roles.set0Pointer));
      const std::vector<isa::TracedDescriptor> traced = isa::traceDescriptors(gen, words, roles);
      bool inSeen = false, outSeen = false;
      for (const isa::TracedDescriptor& d : traced)
        if (d.slot && d.slot->kind == routes::BufferSlot::Kind::DescriptorSet && d.slot->set == 0) {
          inSeen = inSeen || d.slot->index == 1;
          outSeen = outSeen || d.slot->index == 2;
        }
      if (!inSeen || !outSeen)
        throw gcn::Error(source +
                         ": the program template's own In and Out accesses are not traced to set 0 "
                         "bindings 1 and 2 through s2: the argument layout the program relies on "
                         "is not the driver's");
      t->layout = "the template's listing (" + std::to_string(listing.size()) +
                  " instructions) reads In and Out through set 0's pointer in s2 (high half " +
                  gcn::hexWord(isa::radvAddress32Hi(gen)) + "); the driver allocates " +
                  std::to_string(t->sgprs) + " SGPRs and " + std::to_string(t->vgprs) + " VGPRs";
    }
    isa::SeededPipelineCache cache(ctx_.device(), {});
    { isa::CachedPipeline compiled(ctx_, spirv, false, cache.get(), false, descriptorBuffer); }
    t->cacheData = cache.data();
    (void)isa::parseCacheHeader(t->cacheData, driver);
    const std::vector<std::size_t> at = isa::findWords(t->cacheData, t->code);
    if (at.size() != 1)
      throw gcn::Error(
          driver + ": the program template's code (" + std::to_string(t->code.size() * 4) +
          " bytes) occurs " + std::to_string(at.size()) + " times in the " +
          std::to_string(t->cacheData.size()) + " bytes of pipeline cache data, not exactly once");
    t->codeOffset = at.front();
  } catch (const std::exception& e) {
    t->error = e.what();
  }
  templates_.push_back(std::move(t));
  return *templates_.back();
}

namespace {

// The program's words padded with s_endpgm to the template's code size, or why it does not fit
// the template's registers or room (`why`).
std::vector<uint32_t> paddedProgram(const gcn::Chip& chip, const LaneProgram& program,
                                    uint64_t sgprs, uint64_t vgprs, std::size_t codeWords,
                                    const std::string& driver, std::string& why) {
  if (program.sgprs > sgprs || program.vgprs > vgprs) {
    why = "the program names " + std::to_string(program.sgprs) + " SGPRs and " +
          std::to_string(program.vgprs) + " VGPRs; " + driver + " allocates " +
          std::to_string(sgprs) + " and " + std::to_string(vgprs) + " for the template";
    return {};
  }
  std::vector<uint32_t> words = program.words();
  if (words.size() > codeWords) {
    why = "the program is " + std::to_string(words.size() * 4) +
          " bytes; the template's code, its room, " + std::to_string(codeWords * 4);
    return {};
  }
  const uint32_t endpgm =
      0xbf800000u |
      (static_cast<uint32_t>(
           gcn::findScalarOpByName(chip.gen, gcn::ScalarClass::Sopp, "s_endpgm")->opcode)
       << 16);
  words.resize(codeWords, endpgm);
  return words;
}

}  // namespace

ProgramBuild ProgramBuilder::build(const gcn::Instruction& inst, uint32_t soffsetValue,
                                   bool descriptorBuffer) {
  ProgramBuild b;
  auto refuse = [&](std::string why) {
    b.reason = "own program: " + std::move(why);
    return b;
  };
  if (std::string d = deviceProblem(); !d.empty()) return refuse(d);
  const gcn::Chip& chip = *chip_;
  if (std::string p = programProblem(chip, inst); !p.empty()) return refuse(p);
  const Template& t = templateFor(descriptorBuffer);
  if (!t.error.empty()) return refuse(t.error);
  const std::string driver = ctx_.info().driverName + " " + ctx_.info().driverInfo;
  try {
    ProgramSpec spec;
    spec.chip = chip;
    spec.setPointer = 2;
    spec.pointerHigh = isa::radvAddress32Hi(chip.gen);
    spec.inst = inst;
    spec.soffsetValue = soffsetValue;
    b.program = writeLaneProgram(spec);
    std::string why;
    const std::vector<uint32_t> words =
        paddedProgram(chip, b.program, t.sgprs, t.vgprs, t.code.size(), driver, why);
    if (!why.empty()) return refuse(why);
    std::vector<uint8_t> data = t.cacheData;
    const std::vector<uint8_t> bytes = bytesOf(words);
    std::memcpy(data.data() + t.codeOffset, bytes.data(), bytes.size());
    isa::SeededPipelineCache cache(ctx_.device(), data);
    auto pipeline =
        std::make_shared<isa::CachedPipeline>(ctx_, routes::shaderVariant(kProgramTemplateVariant),
                                              false, cache.get(), false, descriptorBuffer);
    const isa::PatchedReadBack read = isa::readPatchedCache(*pipeline, cache, words, t.code, driver,
                                                            "the program", "the template's code");
    if (!read.why.empty()) return refuse(read.why);
    b.executables.push_back(programExecutable(
        b.program,
        driver + " (pipeline cache read-back, byte " + std::to_string(read.offset) + ")"));
    // The same shape the route's pipelineIsa gives (routes::routePipelineShape "program").
    routes::DeviceCase c;
    c.inst = inst;
    routes::PipelineIsa shape = routes::routePipelineShape("program", c);
    shape.executables = b.executables;
    if (inst.soffset < 128) shape.soffsetValue = soffsetValue;
    b.check = isa::checkIsa(chip.gen, inst, shape);
    if (b.check.outcome != isa::Outcome::Verified)
      return refuse("the program read back is not proven: " + b.check.reason);
    b.proof = std::string(descriptorBuffer ? "descriptor-buffer " : "") +
              "pipeline from the patched cache (application cache hit); read back: gcnprobe's "
              "program (" +
              std::to_string(b.program.lines.size()) + " instructions, " +
              std::to_string(b.program.words().size() * 4) + " bytes, padded with s_endpgm to " +
              std::to_string(words.size() * 4) + ") at byte " + std::to_string(read.offset) +
              " of " + std::to_string(read.data.size()) + " in place of the template's code; " +
              t.layout;
    b.built = true;
    b.pipeline = std::move(pipeline);
  } catch (const std::exception& e) {
    return refuse(e.what());
  }
  return b;
}

}  // namespace gcnprobe::control
