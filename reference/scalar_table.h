// The scalar ALU opcodes (SOP1, SOP2, SOPK, SOPC, SOPP) of every generation, as data
// (reference/scalar_table.inc, generated from llvm-mc 14 for gfx6..gfx9 and llvm-mc-15 for
// gfx10..gfx11 by scripts/gen-scalar-table.py, and checked against them row by row in
// tests/reference/scalar_table_test.cpp). Scalar opcodes differ between generations (s_mov_b32
// is SOP1 3 on gfx6/7 and gfx10, 0 on gfx8/9 and gfx11), so code that builds or reads scalar
// words asks here by mnemonic (findScalarOpByName(gen, ScalarClass::Sop1, "s_setpc_b64"))
// instead of hard-coding numbers; and code that must know what a word overwrites reads
// dstSgprs.
//
// Encodings (AMD's Southern Islands .. RDNA 3 ISA manuals; llvm-mc's -show-encoding agrees on
// every generation):
//   SOP1  [31:23] = 0x17d, SDST [22:16], OP [15:8], SSRC0 [7:0]
//   SOPC  [31:23] = 0x17e, OP [22:16], SSRC1 [15:8], SSRC0 [7:0]
//   SOPP  [31:23] = 0x17f, OP [22:16], SIMM16 [15:0]
//   SOPK  [31:28] = 0xb (and none of the above), OP [27:23], SDST [22:16], SIMM16 [15:0]
//   SOP2  [31:30] = 0b10 (and none of the above), OP [29:23], SDST [22:16], SSRC1 [15:8],
//         SSRC0 [7:0]
// SOPK opcodes therefore stop at 28 (gfx10's s_subvector_loop_end is [31:23] = 0x17c) and SOP2
// opcodes below 0x60. Mnemonics are LLVM's as llvm-mc prints them: on gfx11 the RDNA 3 names
// (s_and_not1_b32 for s_andn2_b32, s_ctz_i32_b32 for s_ff1_i32_b32).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "reference/gen.h"

namespace gcn {

enum class ScalarClass : uint8_t { Sop1, Sop2, Sopk, Sopc, Sopp };

struct ScalarOpInfo {
  Gen gen;
  ScalarClass cls;
  uint8_t opcode;
  std::string_view mnemonic;  // LLVM's name as llvm-mc prints it on the generation
  // SGPRs the SDST field writes: 0 (no SDST, or SDST is read: s_cmpk_*, s_setreg_*,
  // s_cbranch_i_fork, s_waitcnt_*cnt, s_subvector_loop_*), 1 or 2. s_movreld_* write
  // SGPR[SDST + M0], s_movrelsd_2_b32 SGPR[SDST + M0[25:16]]: these count the SGPRs written
  // from that base on.
  uint8_t dstSgprs;
  // The encoding always carries a 32-bit literal dword after the word, whatever its operands
  // (s_setreg_imm32_b32). Any SOP1/SOP2/SOPC source of 255 also brings one: not counted here.
  bool extraLiteral;
};

// Sorted by generation, class, opcode; one row per (generation, class, opcode).
std::span<const ScalarOpInfo> scalarOpTable();
// nullptr when LLVM knows no such opcode on the generation.
const ScalarOpInfo* findScalarOp(Gen gen, ScalarClass cls, unsigned opcode);
// nullptr when the generation has no such mnemonic in the class.
const ScalarOpInfo* findScalarOpByName(Gen gen, ScalarClass cls, std::string_view mnemonic);

}  // namespace gcn
