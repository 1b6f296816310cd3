// Which VGPRs a vector ALU or LDS (DS) instruction's VDST writes, per generation and opcode,
// as data (reference/vgpr_table.inc, generated from llvm-mc by scripts/gen-vgpr-table.py and
// checked against it row by row in tests/reference/vgpr_table_test.cpp). The data-path proof
// (harness/isa/data_path.h) needs it to know what an instruction overwrites: RADV prints most
// gfx6/7 instructions as raw words, so the answer must come from the encoding.
//
// VALU opcodes are given in the VOP3 opcode space, where every VOP1/VOP2/VOPC opcode has a VOP3
// twin: VOPC n = n, VOP2 n = 256 + n, VOP1 n = 384 + n on gfx6/7 and 320 + n on gfx8/9 (AMD's
// Southern Islands / Sea Islands / GCN3 / Vega ISA manuals, "VOP3" encoding; LLVM
// VOP1Instructions.td, VOP2Instructions.td). On gfx9 the VOP3P opcodes (v_pk_*, v_mad_mix*)
// share the same 10-bit field.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "reference/gen.h"

namespace gcn {

enum class VgprClass : uint8_t { Valu, Ds };

struct VgprOpInfo {
  Gen gen;
  VgprClass cls;
  uint16_t opcode;            // VOP3 opcode (Valu) or DS opcode
  std::string_view mnemonic;  // LLVM's name, without _e32/_e64
  uint8_t dstVgprs;           // VGPRs VDST writes: 0 (none, or an SGPR destination), 1, 2, 3, 4
};

std::span<const VgprOpInfo> vgprOpTable();
// nullptr when LLVM's assembler knows no such opcode on the generation.
const VgprOpInfo* findVgprOp(Gen gen, VgprClass cls, unsigned opcode);

// The VOP3 twin of a VOP1 / VOP2 opcode on the generation (see above); VOPC keeps its number.
unsigned vop3OpcodeOfVop1(Gen gen, unsigned vop1Opcode);
unsigned vop3OpcodeOfVop2(unsigned vop2Opcode);

}  // namespace gcn
