// Which VGPRs a vector ALU or LDS (DS) instruction's VDST writes, per generation and opcode,
// as data (reference/vgpr_table.inc, generated from llvm-mc by scripts/gen-vgpr-table.py and
// checked against it in tests/reference/vgpr_table_test.cpp: llvm-mc 14 for GCN, llvm-mc-15 for
// RDNA). The data-path proof (harness/isa/data_path.h) needs it to know what an instruction
// overwrites: RADV prints most gfx6/7 instructions as raw words, so the answer must come from
// the encoding.
//
// VALU opcodes are given in the VOP3 opcode space, where every VOP1/VOP2/VOPC opcode has a VOP3
// twin: VOPC n = n, VOP2 n = 256 + n, VOP1 n = 384 + n on gfx6/7 and RDNA (gfx10, gfx10.3,
// gfx11) and 320 + n on gfx8/9 (AMD's Southern Islands / Sea Islands / GCN3 / Vega / RDNA ISA
// manuals, "VOP3" encoding; LLVM VOP1Instructions.td, VOP2Instructions.td). The VOP3 opcode is
// 9 bits at [25:17] of the first dword on gfx6/7 ([31:26] = 0x34), 10 bits at [25:16] on gfx8/9
// ([31:26] = 0x34) and on RDNA ([31:26] = 0x35). VOP1/VOP2-only opcodes without a VOP3 form
// (v_swap_b32, v_fmaak_f32, ...) have rows at the same numbers.
//
// VOP3P (v_pk_*, v_dot*, v_fma_mix* / v_mad_mix*): on gfx9 ([31:23] = 0x1a7) its 7-bit opcode
// sits inside the VOP3 10-bit field, so its rows are Valu at 0x380 + op. On RDNA VOP3P is its
// own encoding, [31:23] = 0x198 (first byte 0xcc), whose 7-bit opcode at [22:16] overlaps the
// VOPC numbers: its rows are class Vop3p with that opcode.
//
// DS opcodes are 8 bits: at [25:18] on gfx6/7 and RDNA, at [24:17] on gfx8/9.
//
// Not in the table: VINTRP (gfx6/7/10 [31:26] = 0x32, gfx8/9 0x35; its VOP3 forms,
// v_interp_*_e64 on gfx8-gfx10.3, are Valu rows), gfx11 VINTERP (first byte 0xcd), LDSDIR
// (first byte 0xce) and VOPD (v_dual_*, [31:26] = 0x32, two destinations).
//
// dstVgprs counts only VDST: v_swap_b32 / v_swaprel_b32 also write their SRC0 VGPR.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "reference/gen.h"

namespace gcn {

// The values order the table (generation, then class, then opcode). Vop3p rows exist on RDNA
// only (see above).
enum class VgprClass : uint8_t { Valu, Ds, Vop3p };

// What the ISA checks (harness/isa) model of an instruction: a column of the table, so that code
// asks `info->behaviour == VgprBehaviour::Mov` instead of comparing mnemonic strings, where a
// misspelt name would silently never match. The generator assigns it from LLVM's mnemonics
// (scripts/gen-vgpr-table.py, BEHAVIOUR) and stops on a name no generation knows. Sources: AMD's
// Southern Islands .. RDNA 3 ISA manuals, the VOP1/VOP2/VOPC/VOP3 and DS descriptions.
enum class VgprBehaviour : uint8_t {
  None,
  Mov,         // v_mov_b32: VDST = SRC0
  Swap,        // v_swap_b32: VDST and the SRC0 VGPR exchange (both written)
  MovRel,      // v_movreld/v_movrelsd/v_movrelsd_2/v_swaprel_b32: VGPRs relative to M0 (any VGPR)
  Readlane,    // v_readlane_b32: VDST is an SGPR
  Shift64,     // v_lshr_b64, v_ashr_i64 (gfx6/7): SRC0 shifted right by SRC1
  Shift64Rev,  // v_lshrrev_b64, v_ashrrev_i64 (gfx8+): SRC1 shifted right by SRC0
  // Compares write VCC or an SGPR pair (VOP3's SDST); the X forms write EXEC (GCN: VCC too).
  CompareNe,      // v_cmp_ne_i32 / v_cmp_ne_u32
  CompareLtU32,   // v_cmp_lt_u32
  CompareGtU32,   // v_cmp_gt_u32
  CompareOther,   // every other v_cmp_* / v_cmps_*
  CompareXNe,     // v_cmpx_ne_i32 / v_cmpx_ne_u32
  CompareXLtU32,  // v_cmpx_lt_u32
  CompareXGtU32,  // v_cmpx_gt_u32
  CompareXOther,  // every other v_cmpx_* / v_cmpsx_*
  DsRead,         // ds_read_* / ds_load_*: reads LDS, writes none of it (DATA0 unused)
  // DS with data in both DATA0 and DATA1: write2/store2 (two addresses), wrxchg2/storexchg2,
  // cmpst/cmpswap (compare and new value), mskor (mask and value)
  DsTwoData,
  // VOP3b with SDST [14:8] a carry-out SGPR (v_div_scale_*: VCC): v_add/sub/subrev_co_u32,
  // v_add/sub/subrev_co_ci_u32, v_div_scale_f32/f64, v_mad_u64_u32, v_mad_i64_i32. Complete on
  // RDNA; GCN's VOP3b opcodes also include names that mean other things on other generations
  // (gfx8 v_add_u32 carries out, gfx9's does not), which harness/isa decides by opcode.
  CarryOut,
};

// Whether the behaviour is a compare (writes VCC / an SGPR pair or EXEC), and one that writes
// EXEC.
constexpr bool isCompare(VgprBehaviour b) {
  return b >= VgprBehaviour::CompareNe && b <= VgprBehaviour::CompareXOther;
}
constexpr bool isCompareX(VgprBehaviour b) {
  return b >= VgprBehaviour::CompareXNe && b <= VgprBehaviour::CompareXOther;
}

struct VgprOpInfo {
  Gen gen;
  VgprClass cls;
  uint16_t opcode;            // VOP3 opcode (Valu), DS opcode or RDNA VOP3P opcode
  std::string_view mnemonic;  // LLVM's name, without _e32/_e64
  uint8_t dstVgprs;           // VGPRs VDST writes: 0 (none, or an SGPR destination), 1, 2, 3, 4
  VgprBehaviour behaviour;
};

std::span<const VgprOpInfo> vgprOpTable();
// nullptr when LLVM's assembler knows no such opcode on the generation.
const VgprOpInfo* findVgprOp(Gen gen, VgprClass cls, unsigned opcode);

// The VOP3 twin of a VOP1 / VOP2 opcode on the generation (see above: VOP1 n is 320 + n on
// gfx8/9, 384 + n on gfx6/7 and RDNA); VOPC keeps its number.
unsigned vop3OpcodeOfVop1(Gen gen, unsigned vop1Opcode);
unsigned vop3OpcodeOfVop2(unsigned vop2Opcode);

}  // namespace gcn
