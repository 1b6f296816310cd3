// Splitting a GCN (GFX6-GFX9) code stream into instructions: the encoding class of each
// instruction word and its length in dwords, so MUBUF/MTBUF words can be picked out of a
// shader binary without a full disassembler. Used by the `clrxdisasm` stand-in that ACO
// calls for gfx6/7 (app/cmd_isa.cpp) and by the ISA check (harness/isa/).
// Sources: AMD "Southern Islands" / "Sea Islands" / "GCN3" / "Vega" ISA manuals
// (microcode formats chapter), LLVM SIInstrFormats.td / VIInstrFormats.td (encoding fields);
// every class is checked against llvm-mc 14 words in tests/reference/code_scan_test.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reference/gen.h"

namespace gcn {

enum class CodeClass : uint8_t {
  Sop2,
  Sopk,
  Sop1,
  Sopc,
  Sopp,
  Smrd,  // gfx6/7 scalar memory (one dword; gfx7 adds a literal offset dword)
  Smem,  // gfx8/9 scalar memory (two dwords)
  Vop2,
  Vop1,
  Vopc,
  Vop3,
  Vintrp,
  Ds,
  Mubuf,
  Mtbuf,
  Mimg,
  Exp,
  Flat,  // gfx7+ (FLAT, and GLOBAL/SCRATCH on gfx9)
};

// "sop2", "smrd", "mubuf", ...
std::string_view codeClassName(CodeClass c);

struct CodeInstruction {
  std::size_t offset = 0;  // index of the first dword in the stream
  unsigned dwords = 0;     // 1..3: the encoding plus any 32-bit literal
  CodeClass cls = CodeClass::Sopp;
};

// The instruction starting at words[at]. Throws gcn::Error naming the dword offset for a
// word that is no instruction encoding of the generation, or an instruction whose length
// runs past the end of the stream.
CodeInstruction scanInstruction(Gen gen, std::span<const uint32_t> words, std::size_t at);
// The same without throwing: nullopt where scanInstruction throws, its reason in `why` when
// given.
std::optional<CodeInstruction> tryScanInstruction(Gen gen, std::span<const uint32_t> words,
                                                  std::size_t at, std::string* why = nullptr);

// Every instruction of the stream, in order (throws as scanInstruction does).
std::vector<CodeInstruction> scanCode(Gen gen, std::span<const uint32_t> words);

// MUBUF or MTBUF.
inline bool isBufferClass(CodeClass c) {
  return c == CodeClass::Mubuf || c == CodeClass::Mtbuf;
}

}  // namespace gcn
