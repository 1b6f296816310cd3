// Splitting a GCN (GFX6-GFX9) or RDNA (GFX10, GFX10.3, GFX11) code stream into instructions:
// the encoding class of each instruction word and its length in dwords, so MUBUF/MTBUF words
// can be picked out of a shader binary without a full disassembler. Used by the `clrxdisasm`
// stand-in that ACO calls for gfx6/7 (app/cmd_isa.cpp) and by the ISA check (harness/isa/).
// Sources: AMD "Southern Islands" / "Sea Islands" / "GCN3" / "Vega" / "RDNA" / "RDNA2" /
// "RDNA3" ISA manuals (microcode formats chapter), LLVM SIInstrFormats.td / VIInstrFormats.td
// and the GFX10/GFX11 encodings in SIInstrInfo.td / VOP*Instructions.td; every class is
// checked against llvm-mc 14 (GCN) and llvm-mc 15 (RDNA) words in
// tests/reference/code_scan_test.cpp. RDNA moved VOP3 to [31:26] = 110101 and SMEM to
// 111101, added VOP3P (110011 00), SOP/VOP literals on VOP3, DPP8, MIMG NSA address dwords
// and, on GFX11, VOPD (110010), VINTERP (110011 01) and LDSDIR (110011 10).
#pragma once

#include <array>
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
  Flat,     // gfx7+ (FLAT, and GLOBAL/SCRATCH on gfx9+)
  Vop3p,    // gfx10+ packed math (gfx9's VOP3P shares VOP3's encoding and is Vop3 there)
  Vopd,     // gfx11 dual issue: two VALU operations, two destinations
  Vinterp,  // gfx11 parameter interpolation (gfx6-10: Vintrp)
  Ldsdir,   // gfx11 LDS parameter / direct loads
};

// "sop2", "smrd", "mubuf", ...
std::string_view codeClassName(CodeClass c);

struct CodeInstruction {
  std::size_t offset = 0;  // index of the first dword in the stream
  unsigned dwords = 0;     // 1..5: the encoding, plus any 32-bit literal, DPP/SDWA dword or
                           // MIMG NSA address dwords
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

// SOP1 S_MOV_B32's opcode: 3 on gfx6/7 and gfx10/10.3, 0 on gfx8/9 and gfx11
// (reference/scalar_table.h).
unsigned sMovB32Opcode(Gen gen);
// "s_mov_b32 <sdst>, <literal>": SOP1 (bits 31:23 = 0x17d, SDST 22:16, OP 15:8) with SSRC0 =
// 255 (a 32-bit literal) followed by the literal dword; sdst 124 is M0. Throws gcn::Error for
// an SDST above 127.
std::array<uint32_t, 2> encodeSMovB32Literal(Gen gen, unsigned sdst, uint32_t literal);

// MUBUF or MTBUF.
inline bool isBufferClass(CodeClass c) {
  return c == CodeClass::Mubuf || c == CodeClass::Mtbuf;
}

}  // namespace gcn
