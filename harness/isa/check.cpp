#include "harness/isa/check.h"

#include <cstdio>

#include "harness/isa/aco_asm.h"
#include "harness/isa/data_path.h"
#include "harness/isa/descriptor_trace.h"
#include "reference/assembler.h"
#include "reference/code_scan.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/text.h"

namespace gcnprobe::isa {
namespace {

// Compares the driver's text with the decoded words: parsed with the project's LLVM-syntax
// parser, the two must be the same instruction (every field, not just the mnemonic).
std::string disagreement(gcn::Gen gen, const EmittedInstruction& e) {
  if (!e.decoded) return "";
  gcn::Instruction fromText;
  try {
    fromText = gcn::parseInstruction(gen, e.driverText);
  } catch (const gcn::Error& err) {
    return "driver text not readable: " + std::string(err.what());
  }
  if (fromText == e.inst) return "";
  return "driver text reads as '" + printOrReason(gen, fromText) + "', the words decode as '" +
         printOrReason(gen, e.inst) + "'";
}

}  // namespace

DataPathProof proveEmittedDataPath(gcn::Gen gen,
                                   std::span<const gcnprobe::vk::ExecutableIsa> executables,
                                   const EmittedInstruction& e, const routes::DataPath& path) {
  for (const auto& exe : executables) {
    if (exe.name != e.executable) continue;
    const std::vector<AsmInstruction> code =
        parseAcoAssembly(exe.assembly, exe.source.empty() ? exe.name : exe.source);
    std::vector<std::vector<uint32_t>> words;
    for (const AsmInstruction& a : code)
      words.push_back(a.words);
    const UserSgprRoles roles = radvUserSgprRoles(gen, exe.stages, path.legacyVertexShader);
    std::vector<SgprEntryCopies> sgprs;
    const std::vector<TracedDescriptor> traced = traceDescriptors(gen, words, roles, &sgprs);
    return proveDataPath(gen, code, traced, sgprs, DataPathRequest{e.listingIndex, path, roles});
  }
  DataPathProof none;
  none.reason = "executable '" + e.executable + "' not found";
  return none;
}

std::string printOrReason(gcn::Gen gen, const gcn::Instruction& inst) {
  try {
    return gcn::printInstruction(gen, inst);
  } catch (const gcn::Error& e) {
    return std::string(inst.op != nullptr ? inst.op->mnemonic : "?") + " <" + e.reason() + ">";
  }
}

std::string EmittedInstruction::descriptorName() const {
  return descriptor ? bufferSlotName(*descriptor) : "descriptor not traced";
}

std::string EmittedInstruction::describe(gcn::Gen gen) const {
  const std::string text =
      decoded ? printOrReason(gen, inst) : "<undecodable: " + decodeError + ">";
  return text + " ; " + gcn::hexWordList(words) + " ; " + descriptorName();
}

std::string EmittedInstruction::listingLine(gcn::Gen gen) const {
  std::string line =
      executable + ": " + driverText + " ; " + gcn::hexWordList(words) + " ; " + descriptorName();
  if (!decoded)
    line += " ; undecodable: " + decodeError;
  else if (!textDisagreement.empty())
    line += " ; decodes as '" + printOrReason(gen, inst) + "'";
  return line;
}

std::vector<EmittedInstruction> emittedBufferInstructions(
    gcn::Gen gen, std::span<const gcnprobe::vk::ExecutableIsa> executables,
    bool legacyVertexShader) {
  std::vector<EmittedInstruction> out;
  for (const auto& exe : executables) {
    const std::vector<AsmInstruction> code =
        parseAcoAssembly(exe.assembly, exe.source.empty() ? exe.name : exe.source);
    std::vector<std::vector<uint32_t>> words;
    for (const AsmInstruction& a : code)
      words.push_back(a.words);
    const std::vector<TracedDescriptor> traced =
        traceDescriptors(gen, words, radvUserSgprRoles(gen, exe.stages, legacyVertexShader));
    for (std::size_t i = 0; i < code.size(); ++i) {
      const AsmInstruction& a = code[i];
      // Not an encoding of this generation: certainly no buffer instruction.
      const std::optional<gcn::CodeInstruction> ci = gcn::tryScanInstruction(gen, a.words, 0);
      if (!ci || !gcn::isBufferClass(ci->cls)) continue;
      EmittedInstruction e;
      e.executable = exe.name;
      e.driverText = a.text;
      e.words = a.words;
      if (a.words.size() != 2) {
        e.decodeError = "a buffer instruction has two dwords";
      } else if (std::optional<gcn::Instruction> inst =
                     gcn::tryDecode(gen, a.words[0], a.words[1], &e.decodeError)) {
        e.inst = *inst;
        e.decoded = true;
      }
      e.textDisagreement = disagreement(gen, e);
      e.descriptor = traced[i].slot;
      e.descriptorWhy = traced[i].why;
      e.soffsetConstant = traced[i].soffsetConstant;
      e.listingIndex = i;
      out.push_back(std::move(e));
    }
  }
  return out;
}

std::string mismatchField(const gcn::Instruction& intended, const gcn::Instruction& emitted,
                          bool offsetFixed) {
  if (intended.op != emitted.op) return "opcode";
  // DFMT/NFMT on GCN, the unified FORMAT on RDNA (the other fields keep their defaults).
  if (intended.op != nullptr && intended.op->encoding == gcn::Encoding::Mtbuf &&
      (intended.dfmt != emitted.dfmt || intended.nfmt != emitted.nfmt ||
       intended.format != emitted.format))
    return "format";
  if (intended.idxen != emitted.idxen) return "idxen";
  if (intended.offen != emitted.offen) return "offen";
  if (intended.addr64 != emitted.addr64) return "addr64";
  if (intended.lds != emitted.lds) return "lds";
  if (intended.tfe != emitted.tfe) return "tfe";
  // An atomic returns the pre-op value only with GLC: there the bit is semantics.
  if (intended.op != nullptr && intended.op->kind == gcn::OpKind::Atomic &&
      intended.glc != emitted.glc)
    return "glc";
  // SOFFSET: an inline constant must be the same constant; an SGPR may be any register (the
  // route puts the case's value there), but not a constant.
  const bool intendedConst = intended.soffset >= 128, emittedConst = emitted.soffset >= 128;
  if (intendedConst != emittedConst || (intendedConst && intended.soffset != emitted.soffset))
    return "soffset";
  if (offsetFixed && intended.offset != emitted.offset) return "offset";
  return "";
}

std::string cacheBitsNote(const gcn::Instruction& intended, const gcn::Instruction& emitted) {
  const bool atomic = intended.op != nullptr && intended.op->kind == gcn::OpKind::Atomic;
  const bool glcDiffers = !atomic && intended.glc != emitted.glc;
  if (!glcDiffers && intended.slc == emitted.slc) return "";
  auto bits = [](const gcn::Instruction& i) {
    return std::string("glc=") + (i.glc ? "1" : "0") + " slc=" + (i.slc ? "1" : "0");
  };
  return "cache bits differ (intended " + bits(intended) + ", emitted " + bits(emitted) +
         "): cache policy only, no effect on the values of one dispatch";
}

std::string_view outcomeName(Outcome o) {
  switch (o) {
    case Outcome::Verified:
      return "verified";
    case Outcome::RouteMiss:
      return "route-miss";
    case Outcome::NoIsa:
      return "no-isa";
    case Outcome::NoAssembly:
      return "no-assembly";
  }
  return "?";
}

CheckResult checkIsa(gcn::Gen gen, const gcn::Instruction& intended, const routes::PipelineIsa& isa,
                     const std::function<bool(const EmittedInstruction&)>& candidate) {
  CheckResult r;
  if (isa.executables.empty()) {
    r.outcome = Outcome::NoIsa;
    r.reason = "the device captures no ISA (VK_KHR_pipeline_executable_properties)";
    return r;
  }
  bool anyAssembly = false;
  for (const auto& exe : isa.executables)
    anyAssembly = anyAssembly || !exe.assembly.empty();
  if (!anyAssembly) {
    r.outcome = Outcome::NoAssembly;
    r.reason =
        "the driver returned no Assembly text (RADV on gfx6/7 needs clrxdisasm on PATH; "
        "`gcnprobe isa` provides one)";
    return r;
  }
  r.emitted = emittedBufferInstructions(gen, isa.executables, isa.dataPath.legacyVertexShader);
  const std::string caseBuffer = bufferSlotName(isa.caseBuffer);
  std::vector<std::string> elsewhere, untraced;  // matches that prove nothing
  std::string pathBreak;                         // a match whose data path is not proven
  CheckResult partial;                           // a match proven for some components only
  std::string partialBreak;                      // why its other components are not
  for (std::size_t index = 0; index < r.emitted.size(); ++index) {
    const EmittedInstruction& e = r.emitted[index];
    if (candidate && !candidate(e)) continue;
    if (!e.decoded || !mismatchField(intended, e.inst, isa.offsetFixed).empty()) continue;
    if (e.descriptor == isa.caseBuffer) {
      const DataPathProof proof = proveEmittedDataPath(gen, isa.executables, e, isa.dataPath);
      const auto links = [&](CheckResult& into) {
        into.proven.push_back("instruction: proven: " + printOrReason(gen, e.inst) + " ; " +
                              gcn::hexWordList(e.words) + " on " + bufferSlotName(*e.descriptor));
        into.proven.push_back("V#: " + (isa.vsharpSource.empty()
                                            ? std::string("not stated by the route")
                                            : isa.vsharpSource));
        for (const std::string& link : proof.links)
          into.proven.push_back("data path: " + link);
      };
      // An SGPR SOFFSET the route sets: it must hold the case's value, as the trace proves.
      if (proof.proven && isa.soffsetValue && e.inst.soffset < 128 &&
          e.soffsetConstant != isa.soffsetValue) {
        if (pathBreak.empty())
          pathBreak = "its SOFFSET register holds " +
                      (e.soffsetConstant ? gcn::hexWord(*e.soffsetConstant)
                                         : std::string("no constant the trace follows")) +
                      ", not the case's SOFFSET value " + gcn::hexWord(*isa.soffsetValue);
        continue;
      }
      if (!proof.proven) {
        if (pathBreak.empty()) pathBreak = proof.reason;
        if (proof.components != 0 && partial.components == 0) {
          partial.components = proof.components;
          partial.verifiedIndex = index;
          partialBreak = proof.reason;
          links(partial);
        }
        continue;
      }
      r.outcome = Outcome::Verified;
      r.verifiedIndex = index;
      r.reason = cacheBitsNote(intended, e.inst);
      links(r);
      return r;
    }
    if (e.descriptor)
      elsewhere.push_back(bufferSlotName(*e.descriptor));
    else
      untraced.push_back(e.descriptorWhy);
  }
  r.outcome = Outcome::RouteMiss;
  r.reason = "intended '" + printOrReason(gen, intended) + "'" +
             (isa.offsetFixed ? "" : " (OFFSET not compared)");
  if (partial.components != 0) {
    r.components = partial.components;
    r.verifiedIndex = partial.verifiedIndex;
    r.proven = std::move(partial.proven);
    r.reason += " is in the pipeline on the case's buffer, and its data path is proven for " +
                componentNames(r.components) + " only: " + partialBreak;
    return r;
  }
  if (!pathBreak.empty()) {
    r.reason +=
        " is in the pipeline on the case's buffer, but its data path is not proven: " + pathBreak;
    return r;
  }
  if (!untraced.empty())
    r.reason += " is in the pipeline but its descriptor is not traced to the case's buffer (" +
                caseBuffer + "): " + untraced.front() + "; ";
  else if (!elsewhere.empty())
    r.reason += " is in the pipeline only on " + elsewhere.front() +
                " (the route's own I/O), not on the case's buffer (" + caseBuffer + "); ";
  else
    r.reason += " is not in the pipeline; ";
  if (r.emitted.empty()) {
    r.reason += "it holds no buffer instruction";
  } else {
    r.reason += "it holds:";
    for (const EmittedInstruction& e : r.emitted)
      r.reason += " [" + e.describe(gen) + "]";
  }
  return r;
}

std::string componentNames(uint32_t mask) {
  static constexpr const char* kNames[] = {"X", "Y", "Z", "W"};
  std::string s;
  for (unsigned k = 0; k < 32; ++k)
    if (mask & (1u << k))
      s += (s.empty() ? "" : ", ") +
           (k < 4 ? std::string(kNames[k]) : "component " + std::to_string(k));
  return s;
}

}  // namespace gcnprobe::isa
