#include "harness/isa/binary_patch.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <tuple>

#include "harness/isa/aco_asm.h"
#include "harness/isa/cached_pipeline.h"
#include "harness/isa/check.h"
#include "harness/isa/instruction_effects.h"
#include "harness/routes/route.h"
#include "harness/routes/storage.h"
#include "harness/vulkan/pipeline.h"
#include "reference/assembler.h"
#include "reference/code_scan.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/text.h"

namespace gcnprobe::isa {
namespace {

// Bytes on each side of the instruction that must read back as in the template's data: more
// than the templates' whole code (under 200 bytes).
constexpr std::size_t kCodeWindow = 512;
const std::string kLdsTemplate(kLdsTemplateVariant);
const std::string kAtomicTemplate(kAtomicTemplateVariant);

uint32_t u32At(std::span<const uint8_t> d, std::size_t at) {
  uint32_t v = 0;
  std::memcpy(&v, d.data() + at, 4);
  return v;
}

}  // namespace

CacheHeader parseCacheHeader(std::span<const uint8_t> data, const std::string& driver) {
  if (data.size() < 32)
    throw gcn::Error(driver + ": pipeline cache data of " + std::to_string(data.size()) +
                     " bytes, shorter than the 32-byte header");
  CacheHeader h;
  h.headerSize = u32At(data, 0);
  h.version = u32At(data, 4);
  h.vendorId = u32At(data, 8);
  h.deviceId = u32At(data, 12);
  std::memcpy(h.uuid.data(), data.data() + 16, 16);
  if (h.headerSize < 32 || h.headerSize > data.size())
    throw gcn::Error(driver + ": pipeline cache header size " + std::to_string(h.headerSize) +
                     " (offset 0) is not between 32 and the data's " + std::to_string(data.size()) +
                     " bytes");
  if (h.version != VK_PIPELINE_CACHE_HEADER_VERSION_ONE)
    throw gcn::Error(driver + ": pipeline cache header version " + std::to_string(h.version) +
                     " (offset 4) is not 1");
  return h;
}

PatchedReadBack readPatchedCache(const CachedPipeline& pipeline, const SeededPipelineCache& cache,
                                 std::span<const uint32_t> patched,
                                 std::span<const uint32_t> original, const std::string& driver,
                                 std::string_view what, std::string_view originalWhat) {
  PatchedReadBack r;
  if (!pipeline.feedbackValid()) {
    r.why = driver +
            " gives no pipeline creation feedback: whether the patched cache was used cannot be "
            "proven";
    return r;
  }
  if (!pipeline.cacheHit()) {
    r.why = driver +
            " did not take the pipeline from the patched cache (it compiled the shader again): "
            "the cache data was rejected";
    return r;
  }
  r.data = cache.data();
  const std::vector<std::size_t> mine = findWords(r.data, patched);
  const bool same = std::equal(patched.begin(), patched.end(), original.begin(), original.end());
  const std::vector<std::size_t> old =
      same ? std::vector<std::size_t>{} : findWords(r.data, original);
  if (mine.size() != 1 || !old.empty()) {
    r.why = "the cache read back from " + driver + " holds " + std::string(what) + " " +
            std::to_string(mine.size()) + " time(s) and " + std::string(originalWhat) + " " +
            std::to_string(old.size()) + " time(s), not once and never";
    return r;
  }
  r.offset = mine.front();
  return r;
}

std::vector<std::size_t> findWords(std::span<const uint8_t> data, std::span<const uint32_t> words) {
  std::vector<uint8_t> needle(words.size() * 4);
  std::memcpy(needle.data(), words.data(), needle.size());
  std::vector<std::size_t> out;
  if (needle.empty() || data.size() < 32 + needle.size()) return out;
  for (std::size_t at = 32; at + needle.size() <= data.size(); ++at)
    if (std::memcmp(data.data() + at, needle.data(), needle.size()) == 0) out.push_back(at);
  return out;
}

std::string patchProblem(const gcn::Chip& chip, const gcn::Instruction& templ,
                         const gcn::Instruction& intended, std::span<const uint32_t> patched) {
  if (intended.op == nullptr) return "no instruction";
  const gcn::OpcodeInfo& op = *intended.op;
  if (patched.size() != 2)
    return "the encoding is " + std::to_string(patched.size()) +
           " dwords: a MUBUF/MTBUF instruction is 2, the template's slot is 8 bytes";
  std::string why;
  const std::optional<gcn::Instruction> decoded =
      gcn::tryDecode(chip.gen, patched[0], patched[1], &why);
  if (!decoded)
    return "the words " + gcn::hexWordList(patched) + " are no buffer instruction of " +
           std::string(gcn::genName(chip.gen)) + ": " + why;
  if (!(*decoded == intended))
    return "the words " + gcn::hexWordList(patched) + " decode on " +
           std::string(gcn::genName(chip.gen)) + " as '" + printOrReason(chip.gen, *decoded) +
           "', not the intended '" + printOrReason(chip.gen, intended) +
           "' (an encoding of another generation?)";
  if (intended.lds && !op.ldsData)
    return "a load with the LDS bit writes LDS, which no template reads back";
  if (intended.addr64) return "ADDR64 needs two VADDR registers; the templates address with one";
  if (op.kind == gcn::OpKind::Cache) return "";  // no data, no address: any slot takes it
  if (op.ldsData) {
    // No VDATA, no VADDR: the memory address is the V#'s base + SOFFSET + OFFSET.
    if (intended.srsrc != templ.srsrc || intended.soffset != templ.soffset ||
        intended.offset != templ.offset)
      return "the template's SRSRC is s" + std::to_string(templ.srsrc) + ", SOFFSET code " +
             std::to_string(templ.soffset) + ", OFFSET " + std::to_string(templ.offset) +
             "; the instruction must use them";
    return "";
  }
  // The template's registers and address form; or no VADDR at all (neither OFFEN nor IDXEN:
  // the register is then not read). OFFSET is an immediate of the instruction itself: any.
  const bool usesVaddr = intended.offen || intended.idxen;
  if (intended.srsrc != templ.srsrc || intended.soffset != templ.soffset ||
      (usesVaddr && (intended.vaddr != templ.vaddr || intended.offen != templ.offen ||
                     intended.idxen != templ.idxen)))
    return "the template's operands are SRSRC s" + std::to_string(templ.srsrc) + ", VADDR v" +
           std::to_string(templ.vaddr) + (templ.offen ? " offen" : "") +
           (templ.idxen ? " idxen" : "") + " (or no VADDR), SOFFSET code " +
           std::to_string(templ.soffset) + "; the instruction must use them";
  const unsigned need = gcn::vdataRegs(op, chip, intended.tfe);
  const unsigned have = gcn::vdataRegs(*templ.op, chip, templ.tfe);
  if (intended.vdata != templ.vdata || need > have)
    return "the instruction needs VDATA v" + std::to_string(intended.vdata) + " and " +
           std::to_string(need) + " register(s); the template " + std::string(templ.op->mnemonic) +
           " has v" + std::to_string(templ.vdata) + " and " + std::to_string(have);
  return "";
}

bool writesHalfRegisters(const gcn::Chip& chip, const gcn::OpcodeInfo& op) {
  return op.d16 && (op.kind == gcn::OpKind::Load || op.kind == gcn::OpKind::LoadFormat) &&
         (!chip.d16Packed || op.d16Hi || op.components % 2 != 0);
}

bool isTexelTemplate(std::string_view variant) {
  return variant == kTexelLoadTemplateVariant || variant == kTexelStoreTemplateVariant;
}

routes::DataPath templateDataPath(std::string_view variant, const gcn::Instruction& templ) {
  routes::DataPath path;
  path.in = routes::BufferSlot{routes::BufferSlot::Kind::DescriptorSet, 0, 1};
  path.out = routes::BufferSlot{routes::BufferSlot::Kind::DescriptorSet, 0, 2};
  path.dataFromLds = variant == kLdsTemplate;
  path.lanes = routes::DataPath::Lanes{};  // the templates keep the lane shaders' In and Out
  // The route reads back only the patched instruction's registers (routes/raw.h returnedRegs).
  path.unreadSlotsPastResults = true;
  if (!isTexelTemplate(variant) && templ.op != nullptr) {
    path.address = routes::DataPath::Address::AlignedInputWords;
    path.alignBytes = std::max(1u, static_cast<unsigned>(templ.op->memBytes));
  }
  return path;
}

std::string templateVariant(const gcn::Chip& chip, const gcn::OpcodeInfo& op, bool idxen) {
  if (op.ldsData) return kLdsTemplate;
  if (idxen && op.kind != gcn::OpKind::Cache && op.kind != gcn::OpKind::Atomic &&
      !writesHalfRegisters(chip, op))
    return std::string(op.kind == gcn::OpKind::Load || op.kind == gcn::OpKind::LoadFormat
                           ? kTexelLoadTemplateVariant
                           : kTexelStoreTemplateVariant);
  if (writesHalfRegisters(chip, op) && gcn::vdataRegs(op, chip, false) <= kAtomicTemplateReturned)
    return kAtomicTemplate;
  switch (op.kind) {
    case gcn::OpKind::LoadFormat:
    case gcn::OpKind::Load:
    case gcn::OpKind::Cache:
      return "binary_template_load";
    case gcn::OpKind::StoreFormat:
    case gcn::OpKind::Store:
      return "binary_template_store";
    case gcn::OpKind::Atomic:
      return kAtomicTemplate;
  }
  return "";
}

gcn::Instruction onTemplateOperands(gcn::Gen gen, const gcn::Instruction& templ,
                                    const gcn::OpcodeInfo& op, gcn::Dfmt dfmt, gcn::Nfmt nfmt) {
  gcn::Instruction i = templ;
  i.op = &op;
  i.glc = op.kind == gcn::OpKind::Atomic;
  i.slc = false;
  i.tfe = false;
  i.lds = op.ldsData;  // BUFFER_STORE_LDS_DWORD always carries LDS, and no VDATA or VADDR
  if (op.ldsData) {
    i.vdata = i.vaddr = 0;
    i.offen = i.idxen = false;
  }
  i.dfmt = op.encoding == gcn::Encoding::Mtbuf ? dfmt : gcn::Dfmt::F8;
  i.nfmt = op.encoding == gcn::Encoding::Mtbuf ? nfmt : gcn::Nfmt::Unorm;
  i.format = gcn::kDefaultUnifiedFormat;
  if (gcn::isRdna(gen) && op.encoding == gcn::Encoding::Mtbuf) {
    // RDNA: the pair's unified FORMAT; the GCN fields keep their defaults.
    const gcn::UnifiedFormat* u = gcn::findUnifiedFormat(gen, dfmt, nfmt);
    if (u == nullptr)
      throw gcn::Error(std::string(gcn::dfmtName(dfmt)) + " " +
                       std::string(gcn::nfmtName(nfmt, gen)) + " has no " +
                       std::string(gcn::genName(gen)) + " buffer format");
    i.format = u->code;
    i.dfmt = gcn::Dfmt::F8;
    i.nfmt = gcn::Nfmt::Unorm;
  }
  if (op.kind == gcn::OpKind::Cache) {
    // No data, no address (CLRX GcnInstrsMubuf): the encoder wants every operand 0.
    i.vdata = i.vaddr = i.srsrc = 0;
    i.soffset = 128;
    i.offen = i.idxen = false;
    i.offset = 0;
  }
  return i;
}

// What a template pipeline gives the patches made from it (BinaryBuilder::Template; a named
// type of this file, which the file's helpers can name).
struct BinaryTemplate {
  std::string variant;
  bool descriptorBuffer = false;  // set 0 from a descriptor buffer (raw V#s)
  std::string error;              // why the template cannot be used
  gcn::Instruction inst;
  std::array<uint32_t, 2> words{};
  std::vector<uint8_t> cacheData;
  std::size_t offset = 0;
  // The LDS template's M0 setup slot: the marked instruction's words and text, and its offset
  // in cacheData (before `offset`, within kCodeWindow of it).
  bool setsM0 = false;
  std::array<uint32_t, 2> setupWords{};
  std::string setupText;
  std::size_t setupOffset = 0;
  std::string pathProof;  // the template's data path, as proven (docs/isa.md "The data path")
  std::vector<vk::ExecutableIsa> exes;  // the template's listing, which patched ones rewrite
};

struct BinaryBuilder::Template : BinaryTemplate {};

namespace {

bool namesM0(std::string_view text) {
  for (std::size_t at = text.find("m0"); at != std::string_view::npos;
       at = text.find("m0", at + 1)) {
    const auto word = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    if ((at == 0 || !word(text[at - 1])) && (at + 2 == text.size() || !word(text[at + 2])))
      return true;
  }
  return false;
}

// The LDS template's M0 setup slot in its listing: the one instruction whose literal is
// kLdsTemplateMark (a VOP2 with a literal: 8 bytes), before the template's buffer instruction
// (`slot`) in the same basic block: between them no block label, no branch and nothing that
// names m0, so the M0 the patch sets there is the M0 the instruction reads.
std::pair<std::array<uint32_t, 2>, std::string> locateM0Setup(
    gcn::Gen gen, std::span<const vk::ExecutableIsa> exes, const std::array<uint32_t, 2>& slot,
    const std::string& driver) {
  for (const vk::ExecutableIsa& exe : exes) {
    const std::string source = exe.source.empty() ? exe.name : exe.source;
    const std::vector<AsmInstruction> code = parseAcoAssembly(exe.assembly, source);
    std::vector<std::size_t> marks, slots;
    for (std::size_t i = 0; i < code.size(); ++i) {
      const std::vector<uint32_t>& w = code[i].words;
      if (w.size() == 2 && w[0] == slot[0] && w[1] == slot[1]) slots.push_back(i);
      const auto ci = gcn::tryScanInstruction(gen, w, 0);
      if (w.size() == 2 && w[1] == kLdsTemplateMark && ci && ci->cls == gcn::CodeClass::Vop2 &&
          ci->dwords == 2)
        marks.push_back(i);
    }
    if (slots.empty()) continue;
    const std::string mark = gcn::hexWord(kLdsTemplateMark);
    const std::string where = driver + ", " + source;
    if (marks.size() != 1 || slots.size() != 1)
      throw gcn::Error(where + ": the LDS template has " + std::to_string(marks.size()) +
                       " VOP2 instructions with the literal " + mark + " and " +
                       std::to_string(slots.size()) +
                       " copies of its buffer instruction, not one of each (its M0 setup slot)");
    const std::size_t m = marks.front(), s = slots.front();
    const auto at = [&](std::size_t i) {
      return "'" + code[i].text + "' (line " + std::to_string(code[i].line) + ")";
    };
    if (m > s)
      throw gcn::Error(where + ": the M0 setup slot " + at(m) + " comes after the instruction " +
                       at(s) + ": M0 would not be set when it runs");
    // GFX9 needs a wait state between an M0 write and an LDS DMA instruction that reads it
    // (LLVM GCNHazardRecognizer, hasReadM0LdsDmaHazard); ACO inserts it for its own code, the
    // patch does not: at least one instruction must lie between.
    if (s == m + 1)
      throw gcn::Error(where + ": the M0 setup slot " + at(m) +
                       " directly precedes the instruction " + at(s) +
                       ": no wait state between an M0 write and the LDS access that reads it");
    for (std::size_t i = m + 1; i <= s; ++i) {
      if (code[i].line > code[i - 1].line + 1)
        throw gcn::Error(where + ": a block label lies between the M0 setup slot " + at(m) +
                         " and the instruction " + at(s) + " (before line " +
                         std::to_string(code[i].line) + "): they are not in one basic block");
      if (i == s) break;
      if (breaksStraightLine(gen, code[i].words) || namesM0(code[i].text))
        throw gcn::Error(where + ": " + at(i) + " between the M0 setup slot " + at(m) +
                         " and the instruction " + at(s) +
                         " branches or uses m0: the M0 set in the slot might not reach it");
    }
    return {{code[m].words[0], code[m].words[1]}, code[m].text};
  }
  throw gcn::Error(driver + ": no executable of the LDS template holds its buffer instruction");
}

// The listing with the instruction whose words are `from` rewritten as `text` ; `to` (the line
// shape of aco_asm.h), in every executable that holds it; the others unchanged.
std::vector<vk::ExecutableIsa> rewriteListing(std::vector<vk::ExecutableIsa> exes,
                                              std::span<const uint32_t> from,
                                              const std::string& text,
                                              std::span<const uint32_t> to) {
  for (vk::ExecutableIsa& exe : exes) {
    const std::vector<AsmInstruction> code =
        parseAcoAssembly(exe.assembly, exe.source.empty() ? exe.name : exe.source);
    for (const AsmInstruction& a : code) {
      if (!std::equal(a.words.begin(), a.words.end(), from.begin(), from.end())) continue;
      std::string line = "\t" + text;
      if (line.size() < 61) line.resize(61, ' ');
      line += " ; " + gcn::hexWordList(to);
      std::string out;
      int n = 0;
      std::size_t start = 0;
      while (start <= exe.assembly.size()) {
        const std::size_t end = exe.assembly.find('\n', start);
        const std::string_view l(exe.assembly.data() + start,
                                 (end == std::string::npos ? exe.assembly.size() : end) - start);
        out += ++n == a.line ? std::string_view(line) : l;
        if (end == std::string::npos) break;
        out += '\n';
        start = end + 1;
      }
      exe.assembly = std::move(out);
      break;
    }
  }
  return exes;
}

}  // namespace

BinaryBuilder::BinaryBuilder(vk::Context& ctx)
    : ctx_(ctx),
      // GCN devices carry their chip; an RDNA device (RADV's null device for isa) is known by
      // its RADV name. Only `isa` builds on RDNA: the binary route runs GCN devices only.
      chip_(ctx.info().modelledChip()) {}
BinaryBuilder::~BinaryBuilder() = default;

void BinaryBuilder::setCorruption(std::function<void(std::vector<uint8_t>&)> corrupt) {
  corrupt_ = std::move(corrupt);
}

std::string BinaryBuilder::deviceProblem() const {
  const vk::DeviceInfo& info = ctx_.info();
  if (!chip_)
    return info.name + " is not a GCN device: its pipeline cache holds no GCN machine code";
  if (!ctx_.features().pipelineExecutableInfo)
    return info.name +
           " captures no ISA (VK_KHR_pipeline_executable_properties): the template "
           "instruction cannot be found";
  return diskCacheProblem(info);
}

namespace {

// 1. The template's instruction on set 0 binding 0, from its captured ISA, with its data path
// proven (and the LDS template's M0 setup slot).
void captureTemplate(vk::Context& ctx, gcn::Gen gen, std::span<const uint32_t> spirv,
                     const std::string& driver, BinaryTemplate& t) {
  const vk::DeviceInfo& info = ctx.info();
  if (t.descriptorBuffer && !ctx.features().descriptorBuffer)
    throw gcn::Error(info.name + " (" + driver +
                     ") has no VK_EXT_descriptor_buffer: a raw V# cannot reach a template");
  CachedPipeline captured(ctx, spirv, isTexelTemplate(t.variant), VK_NULL_HANDLE, true,
                          t.descriptorBuffer);
  const std::vector<vk::ExecutableIsa> exes = vk::captureIsa(ctx, captured.pipeline());
  t.exes = exes;
  if (std::none_of(exes.begin(), exes.end(),
                   [](const vk::ExecutableIsa& e) { return !e.assembly.empty(); }))
    throw gcn::Error(driver +
                     " returned no Assembly text for the template (RADV on gfx6/7 needs "
                     "clrxdisasm on PATH; gcnprobe binary provides one)");
  const std::vector<EmittedInstruction> emitted = emittedBufferInstructions(gen, exes);
  std::vector<const EmittedInstruction*> onCase;
  for (const EmittedInstruction& e : emitted)
    if (e.decoded && e.descriptor == routes::BufferSlot{} && e.inst.op != nullptr &&
        e.inst.op->kind != gcn::OpKind::Cache)
      onCase.push_back(&e);
  if (onCase.size() != 1)
    throw gcn::Error("template " + t.variant + " has " + std::to_string(onCase.size()) +
                     " buffer instructions on set 0 binding 0 (" + driver + "), not exactly one");
  t.inst = onCase.front()->inst;
  t.words = {onCase.front()->words.at(0), onCase.front()->words.at(1)};
  // The patched instruction inherits the template's registers, so the template's own data path
  // is the case's.
  const routes::DataPath path = templateDataPath(t.variant, t.inst);
  const DataPathProof proof = proveEmittedDataPath(gen, exes, *onCase.front(), path);
  if (!proof.proven)
    throw gcn::Error("template " + t.variant + " (" + driver +
                     "): its data path is not proven: " + proof.reason);
  for (const std::string& link : proof.links)
    t.pathProof += (t.pathProof.empty() ? "" : "; ") + link;
  if (t.variant == kLdsTemplate) {
    std::tie(t.setupWords, t.setupText) = locateM0Setup(gen, exes, t.words, driver);
    t.setsM0 = true;
  }
}

// 2. The same pipeline compiled into an empty cache: the words must be there once (and the M0
// setup once, shortly before them).
void locateInCache(vk::Context& ctx, std::span<const uint32_t> spirv, const std::string& driver,
                   BinaryTemplate& t) {
  SeededPipelineCache cache(ctx.device(), {});
  {
    CachedPipeline compiled(ctx, spirv, isTexelTemplate(t.variant), cache.get(), false,
                            t.descriptorBuffer);
  }
  t.cacheData = cache.data();
  (void)parseCacheHeader(t.cacheData, driver);
  const std::vector<std::size_t> at = findWords(t.cacheData, t.words);
  if (at.size() != 1)
    throw gcn::Error(driver + ": the template instruction " + gcn::hexWordList(t.words) +
                     " occurs " + std::to_string(at.size()) + " times in the " +
                     std::to_string(t.cacheData.size()) +
                     " bytes of pipeline cache data, not exactly once");
  t.offset = at.front();
  if (!t.setsM0) return;
  const std::vector<std::size_t> setup = findWords(t.cacheData, t.setupWords);
  if (setup.size() != 1 || setup.front() + 8 > t.offset || t.offset - setup.front() > kCodeWindow)
    throw gcn::Error(
        driver + ": the LDS template's M0 setup slot " + gcn::hexWordList(t.setupWords) +
        " occurs " + std::to_string(setup.size()) + " times in the pipeline cache data" +
        (setup.size() == 1
             ? ", not within " + std::to_string(kCodeWindow) + " bytes before the instruction"
             : ", not exactly once"));
  t.setupOffset = setup.front();
}

}  // namespace

BinaryBuilder::Template& BinaryBuilder::templateFor(const std::string& variant,
                                                    bool descriptorBuffer) {
  for (auto& t : templates_)
    if (t->variant == variant && t->descriptorBuffer == descriptorBuffer) return *t;
  auto t = std::make_unique<Template>();
  t->variant = variant;
  t->descriptorBuffer = descriptorBuffer;
  const vk::DeviceInfo& info = ctx_.info();
  const std::string driver = info.driverName + " " + info.driverInfo;
  try {
    const std::span<const uint32_t> spirv = routes::shaderVariant(variant);
    captureTemplate(ctx_, chip_->gen, spirv, driver, *t);
    locateInCache(ctx_, spirv, driver, *t);
  } catch (const std::exception& e) {
    t->error = e.what();
  }
  templates_.push_back(std::move(t));
  return *templates_.back();
}

gcn::Instruction BinaryBuilder::templateInstruction(const gcn::OpcodeInfo& op, bool idxen,
                                                    bool descriptorBuffer) {
  if (std::string d = deviceProblem(); !d.empty()) throw gcn::Error(d);
  const Template& t = templateFor(templateVariant(*chip_, op, idxen), descriptorBuffer);
  if (!t.error.empty()) throw gcn::Error(t.error);
  return t.inst;
}

namespace {

// Where the patched words sit in the cache read back, and the code compared around them.
struct ReadBack {
  std::size_t offset = 0;       // of the patched words
  std::size_t before = 0;       // bytes compared before them
  std::size_t after = 0;        // and after them
  std::size_t setupBefore = 0;  // the M0 setup's distance before them
};

// The cache read back holds the patched words once and the template's never, the M0 setup once
// at the template's distance before them (its marked instruction nowhere), the code around them
// as the template's cache data had it, and words that decode to the intended instruction. Why
// not, or empty.
std::string readBackProblem(const BinaryTemplate& t, gcn::Gen gen, const std::vector<uint8_t>& back,
                            std::size_t at, const std::array<uint32_t, 2>& setup,
                            const gcn::Instruction& intended, const std::string& driver,
                            ReadBack& rb) {
  rb.setupBefore = t.offset - t.setupOffset;
  if (t.setsM0) {
    const std::vector<std::size_t> set = findWords(back, setup);
    const std::size_t marked = findWords(back, t.setupWords).size();
    if (set.size() != 1 || marked != 0 || at < rb.setupBefore || set.front() != at - rb.setupBefore)
      return "the cache read back from " + driver + " holds the M0 setup " +
             gcn::hexWordList(setup) + " " + std::to_string(set.size()) +
             " time(s) and the template's marked instruction " + std::to_string(marked) +
             " time(s), not once " + std::to_string(rb.setupBefore) +
             " bytes before the instruction and never";
  }
  const auto inSetup = [&](std::size_t k) {  // byte k before the instruction
    return t.setsM0 && k <= rb.setupBefore && k + 8 > rb.setupBefore;
  };
  // The code around the instruction as the template's cache data had it: only the instruction
  // changed. A window, not the whole data: Mesa 25 serialises the cache's objects in an order of
  // its own, so the same entries may sit elsewhere.
  const std::size_t m = at;
  rb.offset = m;
  rb.before = std::min({kCodeWindow, m, t.offset});
  rb.after = std::min({kCodeWindow, back.size() - m - 8, t.cacheData.size() - t.offset - 8});
  for (std::size_t k = 1; k <= rb.before; ++k)
    if (!inSetup(k) && back[m - k] != t.cacheData[t.offset - k])
      return "the cache read back from " + driver + " differs from the template's " +
             std::to_string(k) + " bytes before the patched instruction";
  for (std::size_t k = 0; k < rb.after; ++k)
    if (back[m + 8 + k] != t.cacheData[t.offset + 8 + k])
      return "the cache read back from " + driver + " differs from the template's " +
             std::to_string(k) + " bytes after the patched instruction";
  const std::optional<gcn::Instruction> again =
      gcn::tryDecode(gen, u32At(back, m), u32At(back, m + 4));
  if (!again || !(*again == intended))
    return "the read-back words do not decode to the intended instruction";
  return "";
}

// The proof text of a patched build: what the cache read back holds where, and the template's
// data path.
std::string patchProof(const BinaryTemplate& t, gcn::Gen gen, const gcn::Instruction& intended,
                       const std::vector<uint32_t>& w, std::size_t cacheBytes, const ReadBack& rb,
                       bool descriptorBuffer, uint32_t m0, const std::array<uint32_t, 2>& setup) {
  std::string proof = std::string(descriptorBuffer ? "descriptor-buffer " : "") +
                      "pipeline from the patched cache (application cache hit); read back: '" +
                      printOrReason(gen, intended) + "' (" + gcn::hexWordList(w) + ") at byte " +
                      std::to_string(rb.offset) + " of " + std::to_string(cacheBytes) +
                      " in place of the template's '" + printOrReason(gen, t.inst) + "', the " +
                      std::to_string(rb.before) + " bytes before and " + std::to_string(rb.after) +
                      " after it unchanged; the template's data path: " + t.pathProof;
  if (t.setsM0)
    proof += " but the M0 setup: 's_mov_b32 m0, " + gcn::hexWord(m0) + "' (" +
             gcn::hexWordList(setup) + ") " + std::to_string(rb.setupBefore) +
             " bytes before it, in place of the template's '" + t.setupText + "'";
  return proof;
}

}  // namespace

BinaryBuild BinaryBuilder::build(const gcn::Instruction& intended,
                                 std::optional<std::vector<uint32_t>> words, uint32_t m0,
                                 bool descriptorBuffer) {
  BinaryBuild b;
  auto refuse = [&](std::string why) {
    b.reason = "binary route: " + std::move(why);
    return b;
  };
  if (std::string d = deviceProblem(); !d.empty()) return refuse(d);
  if (intended.op == nullptr) return refuse("no instruction");
  const gcn::Chip& chip = *chip_;
  const Template& t =
      templateFor(templateVariant(chip, *intended.op, intended.idxen), descriptorBuffer);
  if (!t.error.empty()) return refuse(t.error);
  b.templ = t.inst;
  std::vector<uint32_t> w;
  if (words) {
    w = *words;
  } else {
    try {
      const auto e = gcn::encode(chip.gen, intended);
      w.assign(e.begin(), e.end());
    } catch (const gcn::Error& e) {
      return refuse(std::string("cannot encode: ") + e.what());
    }
  }
  if (std::string p = patchProblem(chip, t.inst, intended, w); !p.empty()) return refuse(p);
  b.words = {w[0], w[1]};
  std::vector<uint8_t> data = t.cacheData;
  std::memcpy(data.data() + t.offset, w.data(), 8);
  std::array<uint32_t, 2> setup{};
  if (t.setsM0) {
    setup = gcn::encodeSMovB32Literal(chip.gen, gcn::m0SgprCode(chip.gen), m0);
    std::memcpy(data.data() + t.setupOffset, setup.data(), 8);
    b.m0Setup = setup;
  }
  if (corrupt_) corrupt_(data);
  const std::string driver = ctx_.info().driverName + " " + ctx_.info().driverInfo;
  try {
    (void)parseCacheHeader(data, driver);
    SeededPipelineCache cache(ctx_.device(), data);
    const auto pipeline = std::make_shared<CachedPipeline>(ctx_, routes::shaderVariant(t.variant),
                                                           isTexelTemplate(t.variant), cache.get(),
                                                           false, descriptorBuffer);
    // The template's own instruction "patched" into itself: its words are the patched ones.
    const PatchedReadBack read = readPatchedCache(*pipeline, cache, w, t.words, driver,
                                                  "the patched words", "the template's");
    if (!read.why.empty()) return refuse(read.why);
    const std::vector<uint8_t>& back = read.data;
    ReadBack rb;
    if (std::string why =
            readBackProblem(t, chip.gen, back, read.offset, setup, intended, driver, rb);
        !why.empty())
      return refuse(why);
    b.cacheOffset = rb.offset;
    b.cacheBytes = back.size();
    b.proof = patchProof(t, chip.gen, intended, w, back.size(), rb, descriptorBuffer, m0, setup);
    b.built = true;
    b.pipeline = pipeline;
    // The listing of what the cache read-back holds: the template's, with the instruction (and
    // the M0 setup) as patched; the ISA check proves it as any driver listing.
    b.executables = rewriteListing(t.exes, t.words, printOrReason(chip.gen, intended), w);
    if (t.setsM0) {
      b.executables = rewriteListing(std::move(b.executables), t.setupWords,
                                     "s_mov_b32 m0, " + gcn::hexNumber(m0), setup);
    }
  } catch (const std::exception& e) {
    return refuse(e.what());
  }
  return b;
}

}  // namespace gcnprobe::isa
