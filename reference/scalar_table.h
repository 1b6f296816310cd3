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

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "reference/gen.h"

namespace gcn {

enum class ScalarClass : uint8_t { Sop1, Sop2, Sopk, Sopc, Sopp };

// What the ISA checks (harness/isa, harness/control) model of an instruction: a column of the
// table, so that code asks `op->behaviour == ScalarBehaviour::EndProgram` instead of comparing
// mnemonic strings, where a misspelt name would silently never match. The generator assigns it
// from LLVM's mnemonics (scripts/gen-scalar-table.py, BEHAVIOUR) and stops on a name no
// generation knows. Sources: AMD's Southern Islands, Sea Islands, GCN3, Vega and RDNA ISA
// manuals, the instruction descriptions of SOP1/SOP2/SOPK/SOPC/SOPP.
enum class ScalarBehaviour : uint8_t {
  None,          // nothing the checks model beyond SDST (dstSgprs)
  Mov,           // s_mov_b32/b64: SDST = SSRC0
  Movk,          // s_movk_i32: SDST = sign-extended SIMM16
  MovRelDst,     // s_movreld_b32/b64: SGPR[SDST + M0] = SSRC0 (any SGPR, EXEC included)
  MovRelSrc,     // s_movrels_b32/b64: SDST = SGPR[SSRC0 + M0] (reads any SGPR)
  MovRelBoth,    // s_movrelsd_2_b32 (gfx10+): SGPR[SDST + M0[25:16]] = SGPR[SSRC0 + M0[9:0]]
  And,           // s_and_b32/b64
  Or,            // s_or_b32/b64
  AndSaveexec,   // s_and_saveexec_b32/b64: SDST = EXEC, EXEC &= SSRC0 (only narrows EXEC)
  ExecWrite,     // every other *_saveexec_* / *_wrexec_*: EXEC may gain lanes
  EndProgram,    // s_endpgm
  Branch,        // s_branch: PC += SIMM16 * 4 + 4, always
  BranchExecz,   // s_cbranch_execz: that branch when EXEC is 0
  BranchExecnz,  // s_cbranch_execnz: that branch when EXEC is not 0
  BranchOther,   // every other SOPP s_cbranch_* (SCC, VCC, debug conditions)
  // s_setpc/s_swappc/s_rfe_b64, s_rfe_restore_b64, s_cbranch_join, s_cbranch_g_fork: targets in
  // SGPRs
  IndirectFlow,
  // s_cbranch_i_fork, s_call_b64, s_subvector_loop_begin/end: control flow the checks do not
  // follow that also rewrites EXEC (LLVM marks the loop pair as branches defining EXEC)
  IndirectFlowExec,
  Halt,        // s_sethalt, s_trap, s_endpgm_saved, s_endpgm_ordered_ps_done
  VectorMode,  // s_set_gpr_idx_on/idx/mode, s_setvskip: later VALU operands or skipping change
  SetReg,      // s_setreg_b32, s_setreg_imm32_b32: a hardware register (MODE's VSKIP, GPR_IDX_EN)
  Waitcnt,     // s_waitcnt: SIMM16 holds every counter
  WaitcntVm,   // s_waitcnt_vmcnt / _lgkmcnt / _expcnt (gfx10+): one counter, SDST + SIMM16
  WaitcntLgkm,
  WaitcntExp,
  SendMsg,  // s_sendmsg
};

// A branch by SIMM16 that may fall through (every SOPP s_cbranch_*).
constexpr bool isConditionalBranch(ScalarBehaviour b) {
  return b == ScalarBehaviour::BranchExecz || b == ScalarBehaviour::BranchExecnz ||
         b == ScalarBehaviour::BranchOther;
}

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
  ScalarBehaviour behaviour;
  // SGPRs the SSRC0 and SSRC1 fields read when they name an SGPR: 1 or 2 (s_lshl_b64 reads a
  // pair and one SGPR); 0 where the class has no such field (SOPK, SOPP, SOP1's SSRC1) or the
  // field holds no register operand (s_getpc_b64's SSRC0, s_set_gpr_idx_on's mode bits). As
  // llvm-mc prints the operand the field holds.
  std::array<uint8_t, 2> srcSgprs;
};

// Sorted by generation, class, opcode; one row per (generation, class, opcode).
std::span<const ScalarOpInfo> scalarOpTable();
// nullptr when LLVM knows no such opcode on the generation.
const ScalarOpInfo* findScalarOp(Gen gen, ScalarClass cls, unsigned opcode);
// nullptr when the generation has no such mnemonic in the class.
const ScalarOpInfo* findScalarOpByName(Gen gen, ScalarClass cls, std::string_view mnemonic);
// The behaviour column of an opcode; std::nullopt when LLVM knows no such opcode.
std::optional<ScalarBehaviour> scalarBehaviour(Gen gen, ScalarClass cls, unsigned opcode);

}  // namespace gcn
