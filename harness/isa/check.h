// The ISA check: which MUBUF/MTBUF instructions a pipeline really holds, decoded
// by the reference's decoder from the encoded words (never by trusting the driver's text),
// and whether the case's intended instruction is among them ON THE CASE'S BUFFER (its SRSRC
// traced to the descriptor the route names, descriptor_trace.h): opcode, DFMT/NFMT for MTBUF,
// IDXEN/OFFEN/ADDR64/LDS/TFE, GLC on atomics (it selects whether the pre-op value returns),
// SOFFSET's kind (the same inline constant, or some SGPR), and OFFSET where the route fixes
// it. GLC/SLC elsewhere only steer caches: a difference is noted, not a miss. A pipeline without it
// is a route-miss; an instruction whose descriptor cannot be traced proves nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "harness/isa/data_path.h"
#include "harness/routes/route.h"
#include "harness/vulkan/pipeline.h"
#include "reference/gen.h"
#include "reference/opcodes.h"

namespace gcnprobe::isa {

// One buffer instruction of a pipeline's code.
struct EmittedInstruction {
  std::string executable;       // ExecutableIsa::name ("Compute Shader")
  std::string driverText;       // the driver's text for it (ACO / LLVM / clrxdisasm)
  std::vector<uint32_t> words;  // its encoded dwords
  bool decoded = false;         // the reference decoder accepted the words
  gcn::Instruction inst;        // valid when decoded
  std::string decodeError;      // why not, when !decoded
  // "" when the driver's text, read by gcn::parseInstruction, is the decoded instruction;
  // else what differs (or why the text could not be read).
  std::string textDisagreement;
  // The descriptor its SRSRC holds (descriptor_trace.h); empty when not traced.
  std::optional<routes::BufferSlot> descriptor;
  std::string descriptorWhy;     // why not traced
  std::size_t listingIndex = 0;  // its index in the executable's instruction list
  // The constant its SGPR or M0 SOFFSET holds on every path (descriptor_trace.h), if any.
  std::optional<uint32_t> soffsetConstant;

  // "set 0 binding 1", "vertex buffer 0" or "descriptor not traced".
  std::string descriptorName() const;

  // printInstruction of the decoded words, or "<undecodable: reason>"; plus " ; <words>"
  // and " ; <descriptorName()>".
  std::string describe(gcn::Gen gen) const;

  // The record line: "<executable>: <driverText> ; <words> ; <descriptorName()>", plus
  // " ; decodes as '...'" when the words do not read as the driver's text.
  std::string listingLine(gcn::Gen gen) const;
};

// printInstruction, or "<mnemonic> <why it cannot be printed>".
std::string printOrReason(gcn::Gen gen, const gcn::Instruction& inst);

// The MUBUF/MTBUF instructions of every executable's "Assembly" text (code_scan picks the
// buffer encodings from the words). Throws gcn::Error for unreadable assembly text.
// `legacyVertexShader`: routes::DataPath::legacyVertexShader (the vertex shader's arguments).
std::vector<EmittedInstruction> emittedBufferInstructions(
    gcn::Gen gen, std::span<const gcnprobe::vk::ExecutableIsa> executables,
    bool legacyVertexShader = false);

// The data-path proof (data_path.h) for `e`, one of emittedBufferInstructions(executables).
DataPathProof proveEmittedDataPath(gcn::Gen gen,
                                   std::span<const gcnprobe::vk::ExecutableIsa> executables,
                                   const EmittedInstruction& e, const routes::DataPath& path);

// Whether `emitted` realises `intended` in the fields the check compares. "" when it does,
// else the first field that differs ("opcode", "format", "idxen", "offen", "addr64", "lds",
// "tfe", "glc", "soffset", "offset").
std::string mismatchField(const gcn::Instruction& intended, const gcn::Instruction& emitted,
                          bool offsetFixed);
// "" when GLC (outside atomics) and SLC agree, else a note naming both settings.
std::string cacheBitsNote(const gcn::Instruction& intended, const gcn::Instruction& emitted);

enum class Outcome : uint8_t {
  Verified,    // the intended instruction is in the pipeline, on the case's buffer, and the
               // data-path proof holds (results reach Out, data and address come from In,
               // through copies only)
  RouteMiss,   // it is not (or only on other buffers, or on an untraced descriptor), or the
               // driver puts something other than copies between it and In / Out
  NoIsa,       // the device captures no ISA (no VK_KHR_pipeline_executable_properties)
  NoAssembly,  // executables exist but their Assembly text is empty (gfx6/7 without clrxdisasm)
};
std::string_view outcomeName(Outcome o);  // "verified", "route-miss", "no-isa", "no-assembly"

struct CheckResult {
  Outcome outcome = Outcome::NoIsa;
  std::string reason;  // for RouteMiss / NoAssembly: the intended and the emitted instructions;
                       // for Verified: cacheBitsNote, if the cache bits differ
  std::vector<EmittedInstruction> emitted;
  // Verified: what was proven, one link per line: "instruction: proven: <words> on <slot>",
  // "V#: <the route's vsharpSource>", "data path: <link>" per data-path link.
  std::vector<std::string> proven;
  std::optional<std::size_t> verifiedIndex;  // Verified: the proven instruction, in `emitted`
  // RouteMiss whose instruction and data path are proven for some result components only (the
  // driver rewrites the others; DataPathProof::components): bit k per proven component, with
  // `proven` holding the links as for Verified. The case's outcome is the weakest component's;
  // a device run judges the proven components (harness/run/runner.cpp). 0 otherwise.
  uint32_t components = 0;
};

// "X, Y, Z" for the components of `mask` (bit k = component k: X, Y, Z, W, then "component 4"
// for a TFE status dword).
std::string componentNames(uint32_t mask);

// Throws gcn::Error as emittedBufferInstructions does. `candidate`, when given, limits the
// emitted instructions that may realise the case (a saved listing's `case` line).
CheckResult checkIsa(gcn::Gen gen, const gcn::Instruction& intended, const routes::PipelineIsa& isa,
                     const std::function<bool(const EmittedInstruction&)>& candidate = {});

}  // namespace gcnprobe::isa
