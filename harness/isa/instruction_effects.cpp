#include "harness/isa/instruction_effects.h"

#include <algorithm>
#include <bit>
#include <optional>

#include "reference/encoding.h"
#include "reference/opcodes.h"
#include "reference/scalar_table.h"
#include "reference/vgpr_table.h"

namespace gcnprobe::isa {
namespace {

constexpr unsigned kExecLo = 126;

bool writesExec(unsigned sdst) {
  return sdst == kExecLo || sdst == kExecLo + 1;
}

using Behaviour = gcn::ScalarBehaviour;

// Control flow the checks do not follow: the table says so, or does not know the opcode.
bool indirectFlow(std::optional<Behaviour> b) {
  return !b || *b == Behaviour::IndirectFlow || *b == Behaviour::IndirectFlowExec;
}

// A 9-bit VOP source operand that names a VGPR.
void addRead(VgprEffects& e, int operand) {
  if (operand >= 256) e.reads.push_back(static_cast<unsigned>(operand - 256));
}

// `widest`: how many registers from `first` an opcode the tables do not know may write; 0 for
// any VGPR (a VALU opcode may write more than its destination: a swap writes its source too,
// as GFX11's v_swap_b16 does, which llvm-mc 15 does not know; a relative move any VGPR).
void setWrite(VgprEffects& e, unsigned first, const gcn::VgprOpInfo* info, unsigned widest) {
  e.writeFirst = first;
  if (info != nullptr) {
    e.name = std::string(info->mnemonic);
    e.behaviour = info->behaviour;
    e.writeCount = info->dstVgprs;
    return;
  }
  e.writeWidthKnown = false;
  e.writeCount = widest;
  if (widest == 0) {
    e.writeFirst = 0;
    e.writeCount = 256;
  }
}

// SRC0 codes that put the real source VGPR in the next dword's low byte: SDWA (0xf9) and DPP
// (0xfa) on gfx8-10.3, DPP (0xfa) and DPP8 (0xe9, 0xea with FI) on gfx10+ (gfx11 has no SDWA).
bool isSdwaOrDpp(gcn::Gen gen, int src0) {
  if (gcn::isGfx8Or9(gen)) return src0 == 0xf9 || src0 == 0xfa;
  if (!gcn::isRdna(gen)) return false;
  return src0 == 0xfa || src0 == 0xe9 || src0 == 0xea || (src0 == 0xf9 && gen != gcn::Gen::Gfx11);
}

// A bit of SDWA's second dword (gfx9, gfx10, gfx10.3; LLVM's SDWA9 encoding): S0 [55] (23) and
// S1 [63] (31) make SRC0 [39:32] or VSRC1 an SGPR (or constant) code instead of a VGPR; a VOPC's
// SD [47] (15) writes SDST [46:40] instead of VCC.
bool sdwaBit(gcn::Gen gen, std::span<const uint32_t> w, unsigned bit) {
  const bool sdwa9 = gen == gcn::Gen::Gfx9 || gen == gcn::Gen::Gfx10 || gen == gcn::Gen::Gfx10_3;
  return sdwa9 && (w[0] & 0x1ff) == 0xf9 && w.size() > 1 && ((w[1] >> bit) & 1) != 0;
}

// A VOP1/VOP2/VOPC (32-bit encoding) with SRC0: SDWA and DPP carry the real source in the second
// dword's low byte, a VGPR unless SDWA's S0 says an SGPR.
int vopSrc0(gcn::Gen gen, std::span<const uint32_t> w, bool& modifiers) {
  const int src0 = static_cast<int>(w[0] & 0x1ff);
  if (isSdwaOrDpp(gen, src0) && w.size() > 1) {
    modifiers = true;
    return (sdwaBit(gen, w, 23) ? 0 : 256) + static_cast<int>(w[1] & 0xff);
  }
  return src0;
}

// VSRC1 [16:9] of a VOP2/VOPC: a VGPR, but an SGPR where SDWA's S1 says so, and the lane select
// of gfx6/7's VOP2 v_readlane_b32 (1) and v_writelane_b32 (2) (AMD's Southern Islands and Sea
// Islands guides: SSRC1 "lane select" in the VSRC1 field).
int vopSrc1(gcn::Gen gen, gcn::CodeClass cls, std::span<const uint32_t> w) {
  const int field = static_cast<int>((w[0] >> 9) & 0xff);
  const unsigned op2 = (w[0] >> 25) & 0x3f;
  const bool laneSelect =
      gen <= gcn::Gen::Gfx7 && cls == gcn::CodeClass::Vop2 && (op2 == 1 || op2 == 2);
  return laneSelect || sdwaBit(gen, w, 31) ? field : 256 + field;
}

// A VALU instruction's VOP3 opcode and VDST, with its sources and modifiers in `e`.
struct ValuFields {
  unsigned vop3 = 0;
  unsigned vdst = 0;
};

// VOP3 (and gfx9 VOP3P): OP [25:17] on gfx6/7, [25:16] from gfx8 on; CLAMP [11] / [15]; gfx9+
// OPSEL [14:11].
ValuFields vop3Fields(gcn::Gen gen, std::span<const uint32_t> w, VgprEffects& e) {
  const uint32_t w0 = w[0];
  const bool wide = gen >= gcn::Gen::Gfx8;
  ValuFields f{wide ? (w0 >> 16) & 0x3ff : (w0 >> 17) & 0x1ff, w0 & 0xff};
  if (w.size() > 1) {
    const uint32_t w1 = w[1];
    e.src = {static_cast<int>(w1 & 0x1ff), static_cast<int>((w1 >> 9) & 0x1ff),
             static_cast<int>((w1 >> 18) & 0x1ff)};
    const bool clamp = wide ? (w0 >> 15) & 1 : (w0 >> 11) & 1;
    // OPSEL [14:11] (gfx9's VOP3 has it too, for its 16-bit operations).
    const bool opsel = (gcn::isRdna(gen) || gen == gcn::Gen::Gfx9) && ((w0 >> 11) & 0xf) != 0;
    e.modifiers = (w1 >> 27) != 0 || ((w0 >> 8) & 7) != 0 || clamp || opsel;
    // gfx11 VOP3 DPP: the real SRC0 VGPR is in the DPP dword.
    if (gen == gcn::Gen::Gfx11 && (e.src[0] == 0xfa || e.src[0] == 0xe9 || e.src[0] == 0xea)) {
      e.modifiers = true;
      e.src[0] = w.size() > 2 ? 256 + static_cast<int>(w[2] & 0xff) : -1;
    }
  }
  if (gen == gcn::Gen::Gfx9 && f.vop3 >= 0x380) e.modifiers = true;  // VOP3P op_sel etc.
  return f;
}

ValuFields valuFields(gcn::Gen gen, gcn::CodeClass cls, std::span<const uint32_t> w,
                      VgprEffects& e) {
  const uint32_t w0 = w[0];
  switch (cls) {
    case gcn::CodeClass::Vop1:
      e.src[0] = vopSrc0(gen, w, e.modifiers);
      return {gcn::vop3OpcodeOfVop1(gen, (w0 >> 9) & 0xff), (w0 >> 17) & 0xff};
    case gcn::CodeClass::Vop2:
      e.src[0] = vopSrc0(gen, w, e.modifiers);
      e.src[1] = vopSrc1(gen, cls, w);
      return {gcn::vop3OpcodeOfVop2((w0 >> 25) & 0x3f), (w0 >> 17) & 0xff};
    case gcn::CodeClass::Vopc:
      e.src[0] = vopSrc0(gen, w, e.modifiers);
      e.src[1] = vopSrc1(gen, cls, w);
      return {(w0 >> 17) & 0xff, 0};
    default:
      return vop3Fields(gen, w, e);
  }
}

// A compare writes VCC or an SGPR pair, never a VGPR; v_cmpx_* also writes EXEC.
void compareEffects(gcn::Gen gen, gcn::CodeClass cls, const gcn::VgprOpInfo* info, unsigned vdst,
                    VgprEffects& e) {
  if (info != nullptr) {
    e.name = std::string(info->mnemonic);
    e.behaviour = info->behaviour;
  }
  if (info == nullptr || gcn::isCompareX(info->behaviour)) e.exec = VgprEffects::Exec::Narrows;
  if (info == nullptr) e.exec = VgprEffects::Exec::Changes;
  // A VOP3 compare whose SDST is EXEC replaces it; RDNA's v_cmpx_*_e64 has no destination
  // (VDST 0 on gfx10, exec_lo on gfx11, llvm-mc-15) and only narrows EXEC.
  const bool cmpxRdna = gcn::isRdna(gen) && info != nullptr && gcn::isCompareX(info->behaviour);
  if (cls != gcn::CodeClass::Vopc && writesExec(vdst) && !cmpxRdna)
    e.exec = VgprEffects::Exec::Changes;
}

// The VALU writes that copy or swap a VGPR: a plain move, a 64-bit shift right by exactly 32 (the
// high dword to the low one), a swap.
void valuMoves(gcn::CodeClass cls, gcn::VgprBehaviour b, VgprEffects& e) {
  if (b == gcn::VgprBehaviour::Mov && !e.modifiers && e.src[0] >= 256) {
    e.move = VgprEffects::Move::Copy;
    e.moveSrc = static_cast<unsigned>(e.src[0] - 256);
  }
  // After a shift by 32 the high dword becomes 0 or the sign: the low dword is a copy. Gfx8/9
  // v_lshrrev_b64 / v_ashrrev_i64 take the shift in SRC0 and the value in SRC1; gfx6/7
  // v_lshr_b64 / v_ashr_i64 the other way.
  const bool rev = b == gcn::VgprBehaviour::Shift64Rev;
  const bool fwd = b == gcn::VgprBehaviour::Shift64;
  if ((rev || fwd) && !e.modifiers && e.writeCount == 2) {
    const int amount = rev ? e.src[0] : e.src[1], value = rev ? e.src[1] : e.src[0];
    if (amount == 128 + 32 && value >= 256) {
      e.move = VgprEffects::Move::Copy;
      e.moveSrc = static_cast<unsigned>(value - 256) + 1;
    }
  }
  if (b == gcn::VgprBehaviour::Swap && cls == gcn::CodeClass::Vop1 && e.src[0] >= 256) {
    e.move = VgprEffects::Move::Swap;
    e.moveSrc = static_cast<unsigned>(e.src[0] - 256);
  }
}

void valu(gcn::Gen gen, gcn::CodeClass cls, std::span<const uint32_t> w, VgprEffects& e) {
  const uint32_t w0 = w[0];
  const auto [vop3, vdst] = valuFields(gen, cls, w, e);
  for (int s : e.src)
    addRead(e, s);
  const gcn::VgprOpInfo* info = gcn::findVgprOp(gen, gcn::VgprClass::Valu, vop3);
  // SDWA on gfx9/gfx10 (SRC0 249): with SD [47] a VOPC writes SDST [46:40] instead of VCC.
  const bool sdwaSdst = cls == gcn::CodeClass::Vopc && sdwaBit(gen, w, 15);
  // A VOP3b's SDST [14:8] (a carry-out) may be EXEC.
  const bool carryToExec =
      (cls == gcn::CodeClass::Vop3 && vop3bCarryOut(gen, vop3) && ((w0 >> 8) & 0x7f) >= kExecLo) ||
      (sdwaSdst && ((w[1] >> 8) & 0x7f) >= kExecLo);
  if (cls == gcn::CodeClass::Vopc || vop3 < 256) {
    compareEffects(gen, cls, info, vdst, e);
    if (carryToExec) e.exec = VgprEffects::Exec::Changes;
    return;
  }
  setWrite(e, vdst, info, 0);
  if (carryToExec) e.exec = VgprEffects::Exec::Changes;
  // Writes relative to M0 (VGPR[VDST + M0]; v_swaprel_b32 also VGPR[SRC0 + M0]): M0 is not
  // followed, so they may write any VGPR.
  const gcn::VgprBehaviour b = info != nullptr ? info->behaviour : gcn::VgprBehaviour::None;
  if (b == gcn::VgprBehaviour::MovRel) {
    e.writeFirst = 0;
    e.writeCount = 256;
    e.writeWidthKnown = false;
    return;
  }
  // v_readlane_b32 / v_readfirstlane_b32: VDST is an SGPR.
  if (info != nullptr && info->dstVgprs == 0 && writesExec(vdst))
    e.exec = VgprEffects::Exec::Changes;
  if (info == nullptr) e.name = std::string(gcn::codeClassName(cls));
  valuMoves(cls, b, e);
}

// RDNA packed math (VOP3P: [31:24] = 0xcc, OP [22:16], VDST [7:0], sources in the second
// dword). Every write is counted as a new value; the width comes from the VGPR table's VOP3P
// rows where it has them; an opcode they lack may write any VGPR.
void vop3p(gcn::Gen gen, std::span<const uint32_t> w, VgprEffects& e) {
  const uint32_t w0 = w[0];
  e.modifiers = true;
  if (w.size() > 1)
    e.src = {static_cast<int>(w[1] & 0x1ff), static_cast<int>((w[1] >> 9) & 0x1ff),
             static_cast<int>((w[1] >> 18) & 0x1ff)};
  for (int s : e.src)
    addRead(e, s);
  setWrite(e, w0 & 0xff, gcn::findVgprOp(gen, gcn::VgprClass::Vop3p, (w0 >> 16) & 0x7f), 0);
  if (!e.writeWidthKnown) e.name = "vop3p";
}

// GFX11 VOPD: OPX [25:22], OPY [21:17], SRC0X [8:0], VSRC1X [16:9]; SRC0Y [40:32],
// VSRC1Y [48:41], VDSTY [55:49] (VGPR VDSTY * 2 + (VDSTX & 1 ^ 1)), VDSTX [63:56] (LLVM
// VOPDInstructions.td; llvm-mc 15: ca100101 00020104 is "v_dual_mov_b32 v0, v1 ::
// v_dual_mov_b32 v3, v4"). v_dual_mov_b32 is 8 in both halves; no VOPD half has modifiers.
void vopd(std::span<const uint32_t> w, VgprEffects& e) {
  if (w.size() < 2) {
    e.decoded = false;
    e.writeCount = 256;
    e.writeWidthKnown = false;
    return;
  }
  const uint32_t w0 = w[0], w1 = w[1];
  const unsigned opx = (w0 >> 22) & 0xf, opy = (w0 >> 17) & 0x1f;
  const unsigned vdstx = w1 >> 24, vdsty = ((w1 >> 17) & 0x7f) << 1 | ((vdstx & 1) ^ 1);
  const int src0x = static_cast<int>(w0 & 0x1ff), src0y = static_cast<int>(w1 & 0x1ff);
  e.src = {src0x, 256 + static_cast<int>((w0 >> 9) & 0xff), src0y};
  addRead(e, src0x);
  addRead(e, src0y);
  e.reads.push_back((w0 >> 9) & 0xff);
  e.reads.push_back((w1 >> 9) & 0xff);
  e.name = "vopd";
  e.writeFirst = vdstx;
  e.writeCount = 1;
  e.dualWrite = vdsty;
  constexpr unsigned kDualMov = 8;
  if (opx == kDualMov && src0x >= 256) {
    e.move = VgprEffects::Move::Copy;
    e.moveSrc = static_cast<unsigned>(src0x - 256);
  }
  if (opy == kDualMov && src0y >= 256) {
    e.dualCopy = true;
    e.dualMoveSrc = static_cast<unsigned>(src0y - 256);
  }
}

void sop1Exec(gcn::Gen gen, uint32_t w0, VgprEffects& e) {
  const unsigned sdst = (w0 >> 16) & 0x7f, op = (w0 >> 8) & 0xff;
  const std::optional<Behaviour> b = gcn::scalarBehaviour(gen, gcn::ScalarClass::Sop1, op);
  // s_setpc/s_swappc/s_rfe, s_cbranch_join; s_and_saveexec_* narrows, every other *_saveexec_*
  // / *_wrexec_* may enable lanes; an opcode the table does not know too.
  if (indirectFlow(b)) e.indirectFlow = true;
  if (b == Behaviour::VectorMode) e.vectorMode = true;  // s_set_gpr_idx_idx
  // SGPR[SDST + M0]: any SGPR, EXEC included (M0 is not followed).
  if (b == Behaviour::MovRelDst || b == Behaviour::MovRelBoth) e.exec = VgprEffects::Exec::Changes;
  if (b == Behaviour::AndSaveexec)
    e.exec = VgprEffects::Exec::Narrows;
  else if (!b || *b == Behaviour::ExecWrite)
    e.exec = VgprEffects::Exec::Changes;
  if (writesExec(sdst)) e.exec = VgprEffects::Exec::Changes;
}

void sop2Exec(gcn::Gen gen, uint32_t w0, VgprEffects& e) {
  const unsigned sdst = (w0 >> 16) & 0x7f, op = (w0 >> 23) & 0x7f;
  const unsigned s0 = w0 & 0xff, s1 = (w0 >> 8) & 0xff;
  const std::optional<Behaviour> b = gcn::scalarBehaviour(gen, gcn::ScalarClass::Sop2, op);
  if (indirectFlow(b)) e.indirectFlow = true;  // s_cbranch_g_fork, s_rfe_restore_b64
  if (writesExec(sdst)) {
    // s_and_b64 exec, exec, x (wave64) or s_and_b32 exec_lo, exec_lo, x (wave32).
    const bool andWithExec =
        b == Behaviour::And && sdst == kExecLo && (s0 == kExecLo || s1 == kExecLo);
    e.exec = andWithExec ? VgprEffects::Exec::Narrows : VgprEffects::Exec::Changes;
  }
}

void sopkExec(gcn::Gen gen, uint32_t w0, VgprEffects& e) {
  const unsigned sdst = (w0 >> 16) & 0x7f, op = (w0 >> 23) & 0x1f;
  const std::optional<Behaviour> b = gcn::scalarBehaviour(gen, gcn::ScalarClass::Sopk, op);
  // s_cbranch_i_fork, s_call_b64; s_subvector_loop_begin/end (gfx10+) branch by SIMM16 and
  // rewrite EXEC (LLVM marks them branches with an implicit def of EXEC; ACO patches their
  // offsets as branch targets): the proofs do not follow them.
  if (indirectFlow(b)) {
    e.indirectFlow = true;
    e.exec = VgprEffects::Exec::Changes;
  }
  if (writesExec(sdst)) e.exec = VgprEffects::Exec::Changes;
  // s_setreg* of the MODE register (hwreg 1) over bit 28 (VSKIP, GFX6-9) or 27 (GPR_IDX_EN,
  // GFX8/9): SIMM16 = ID [5:0], OFFSET [10:6], SIZE - 1 [15:11] (AMD's GCN3 and Vega ISA guides,
  // S_SETREG_B32 and the MODE register).
  if (!gcn::isRdna(gen) && b == Behaviour::SetReg) {
    const unsigned id = w0 & 0x3f, offset = (w0 >> 6) & 0x1f, size = ((w0 >> 11) & 0x1f) + 1;
    const auto covers = [&](unsigned bit) { return bit >= offset && bit < offset + size; };
    if (id == 1 && (covers(27) || covers(28))) e.vectorMode = true;
  }
}

// What scalar words do to EXEC and to control flow, by the scalar table's behaviour column.
void scalarExec(gcn::Gen gen, gcn::CodeClass cls, std::span<const uint32_t> w, VgprEffects& e) {
  const uint32_t w0 = w[0];
  switch (cls) {
    case gcn::CodeClass::Sop1:
      return sop1Exec(gen, w0, e);
    case gcn::CodeClass::Sop2:
      return sop2Exec(gen, w0, e);
    case gcn::CodeClass::Sopk:
      return sopkExec(gen, w0, e);
    case gcn::CodeClass::Sopc:  // s_setvskip, s_set_gpr_idx_on
    case gcn::CodeClass::Sopp:  // s_set_gpr_idx_mode
      if (gcn::scalarBehaviour(
              gen, cls == gcn::CodeClass::Sopc ? gcn::ScalarClass::Sopc : gcn::ScalarClass::Sopp,
              (w0 >> 16) & 0x7f) == Behaviour::VectorMode)
        e.vectorMode = true;
      return;
    case gcn::CodeClass::Smrd:
      if (((w0 >> 15) & 0x7f) >= kExecLo - 3) e.exec = VgprEffects::Exec::Changes;  // into exec
      return;
    case gcn::CodeClass::Smem:
      if (((w0 >> 6) & 0x7f) >= kExecLo - 15) e.exec = VgprEffects::Exec::Changes;
      return;
    default:
      return;
  }
}

void buffer(gcn::Gen gen, gcn::CodeClass cls, std::span<const uint32_t> w, VgprEffects& e) {
  std::string why;
  const std::optional<gcn::Instruction> inst =
      w.size() == 2 ? gcn::tryDecode(gen, w[0], w[1], &why) : std::nullopt;
  if (!inst || inst->op == nullptr) {
    // An unknown buffer opcode: VDATA may be written, up to four registers plus TFE.
    e.name = std::string(gcn::codeClassName(cls));
    e.writeFirst = w.size() > 1 ? (w[1] >> 8) & 0xff : 0;
    e.writeCount = 5;
    e.writeWidthKnown = false;
    return;
  }
  const gcn::OpcodeInfo& op = *inst->op;
  e.name = std::string(op.mnemonic);
  const unsigned regs = widestVdataRegs(gen, *inst);
  for (unsigned k = 0; k < gcn::vaddrRegs(*inst); ++k)
    e.reads.push_back(inst->vaddr + k);
  // With LDS set a load's data goes to LDS (at M0), not to VDATA.
  const bool writes = gcn::returnsData(op.kind, inst->glc) && !inst->lds;
  const bool readsData = gcn::writesMemory(op.kind);
  if (readsData)
    for (unsigned k = 0; k < regs; ++k)
      e.reads.push_back(inst->vdata + k);
  if (writes || (inst->tfe && regs > 0)) {
    e.writeFirst = inst->vdata;
    e.writeCount = writes ? regs : 1;
    if (!writes) e.writeFirst = inst->vdata + regs - 1;  // a store's TFE status register
  }
}

}  // namespace

bool vop3bCarryOut(gcn::Gen gen, unsigned op) {
  if (gcn::isRdna(gen)) {
    const gcn::VgprOpInfo* info = gcn::findVgprOp(gen, gcn::VgprClass::Valu, op);
    return info == nullptr || info->behaviour == gcn::VgprBehaviour::CarryOut;
  }
  if (gcn::isGfx8Or9(gen))
    return (op >= 0x119 && op <= 0x11e) || op == 0x1e0 || op == 0x1e1 || op == 0x1e8 || op == 0x1e9;
  return (op >= 293 && op <= 298) || op == 365 || op == 366 || op == 374 || op == 375;
}

unsigned widestVdataRegs(gcn::Gen gen, const gcn::Instruction& inst) {
  unsigned regs = 0;
  for (const auto chips : {gcn::gcnChips(), gcn::rdnaChips()})
    for (const gcn::Chip& chip : chips)
      if (chip.gen == gen) regs = std::max(regs, gcn::vdataRegs(*inst.op, chip, inst.tfe));
  return regs;
}

ControlFlow controlFlowOf(gcn::Gen gen, gcn::CodeClass cls, std::span<const uint32_t> words,
                          long nextDword) {
  ControlFlow f;
  if (cls != gcn::CodeClass::Sopp || words.empty()) return f;
  const std::optional<Behaviour> b =
      gcn::scalarBehaviour(gen, gcn::ScalarClass::Sopp, (words[0] >> 16) & 0x7f);
  const long simm = static_cast<int16_t>(words[0] & 0xffff);
  if (b == Behaviour::EndProgram) f.fallsThrough = false;
  if (b == Behaviour::Branch) {
    f.fallsThrough = false;
    f.targetDword = nextDword + simm;
  }
  if (b && gcn::isConditionalBranch(*b)) f.targetDword = nextDword + simm;
  return f;
}

bool breaksStraightLine(gcn::Gen gen, std::span<const uint32_t> words) {
  const std::optional<gcn::CodeInstruction> ci =
      words.empty() ? std::nullopt : gcn::tryScanInstruction(gen, words, 0);
  if (!ci) return true;
  if (ci->cls == gcn::CodeClass::Sopp) {
    const ControlFlow f = controlFlowOf(gen, ci->cls, words, 0);
    if (!f.fallsThrough || f.targetDword) return true;
    // s_sethalt, s_trap, s_endpgm_saved (gfx8+), s_endpgm_ordered_ps_done (gfx9-10.3); a SOPP
    // opcode the scalar table does not know.
    const std::optional<Behaviour> b =
        gcn::scalarBehaviour(gen, gcn::ScalarClass::Sopp, (words[0] >> 16) & 0x7f);
    return !b || *b == Behaviour::Halt;
  }
  return vgprEffects(gen, words).indirectFlow;
}

namespace {

// DS: OP [24:17] on gfx8/9, [25:18] on gfx6/7 and RDNA; ADDR, DATA0, DATA1 read, VDST [63:56]
// written as wide as the VGPR table says. False for a word too short.
bool dsEffects(gcn::Gen gen, std::span<const uint32_t> words, VgprEffects& e) {
  if (words.size() < 2) return false;
  const unsigned op = gcn::isGfx8Or9(gen) ? (words[0] >> 17) & 0xff : (words[0] >> 18) & 0xff;
  const uint32_t w1 = words[1];
  e.reads = {w1 & 0xff, (w1 >> 8) & 0xff, (w1 >> 16) & 0xff};
  const gcn::VgprOpInfo* ds = gcn::findVgprOp(gen, gcn::VgprClass::Ds, op);
  setWrite(e, w1 >> 24, ds, 4);
  if (e.writeWidthKnown && e.writeCount == 0) e.writeFirst = 0;
  if (ds == nullptr) {
    // An opcode the table does not know (GFX11's ds_bvh_stack_rtn_b32 also writes ADDR): it
    // may write anything.
    e.writeFirst = 0;
    e.writeCount = 256;
  }
  return true;
}

// MIMG: DMASK [11:8] selects the registers (D16 packs fewer), but a gather4 writes four
// whatever DMASK says; TFE [16] / LWE [17] add one (gfx11 moved them: one is always added
// there). Four plus the status register is the widest: stores and narrower loads are counted
// the same, too strict, never lenient.
bool mimgEffects(gcn::Gen gen, std::span<const uint32_t> words, VgprEffects& e) {
  if (words.size() < 2) return false;
  const bool status = gen == gcn::Gen::Gfx11 || ((words[0] >> 16) & 3) != 0;
  e.writeFirst = (words[1] >> 8) & 0xff;
  e.writeCount = 4u + (status ? 1u : 0u);
  e.writeWidthKnown = false;
  e.reads.push_back(words[1] & 0xff);
  return true;
}

// FLAT: loads write VDST [63:56] (1-4 registers, plus TFE); the width is not tabled here.
bool flatEffects(std::span<const uint32_t> words, VgprEffects& e) {
  if (words.size() < 2) return false;
  e.writeFirst = words[1] >> 24;
  e.writeCount = 5;
  e.writeWidthKnown = false;
  e.reads = {words[1] & 0xff, (words[1] >> 8) & 0xff};
  return true;
}

// VINTRP, gfx11's VINTERP (VDST [7:0], sources in the second dword) and LDSDIR (VDST [7:0]).
bool interpolationEffects(gcn::CodeClass cls, std::span<const uint32_t> words, VgprEffects& e) {
  if (cls == gcn::CodeClass::Vintrp) {
    e.writeFirst = (words[0] >> 18) & 0xff;
    e.writeCount = 1;
    e.reads.push_back(words[0] & 0xff);
    return true;
  }
  if (cls == gcn::CodeClass::Vinterp && words.size() < 2) return false;
  e.writeFirst = words[0] & 0xff;
  e.writeCount = 1;
  if (cls == gcn::CodeClass::Vinterp)
    for (unsigned k = 0; k < 3; ++k)
      addRead(e, static_cast<int>((words[1] >> (9 * k)) & 0x1ff));
  return true;
}

// Every class but the VALU and buffer ones: false for a word too short to read.
bool otherEffects(gcn::Gen gen, gcn::CodeClass cls, std::span<const uint32_t> words,
                  VgprEffects& e) {
  switch (cls) {
    case gcn::CodeClass::Vintrp:
    case gcn::CodeClass::Vinterp:
    case gcn::CodeClass::Ldsdir:
      return interpolationEffects(cls, words, e);
    case gcn::CodeClass::Ds:
      return dsEffects(gen, words, e);
    case gcn::CodeClass::Mimg:
      return mimgEffects(gen, words, e);
    case gcn::CodeClass::Flat:
      return flatEffects(words, e);
    case gcn::CodeClass::Exp:
      if (words.size() > 1)
        for (unsigned k = 0; k < 4; ++k)
          e.reads.push_back((words[1] >> (8 * k)) & 0xff);
      return true;
    default:
      scalarExec(gen, cls, words, e);
      return true;
  }
}

}  // namespace

VgprEffects vgprEffects(gcn::Gen gen, std::span<const uint32_t> words) {
  VgprEffects e;
  const std::optional<gcn::CodeInstruction> ci =
      words.empty() ? std::nullopt : gcn::tryScanInstruction(gen, words, 0);
  if (!ci) {
    e.decoded = false;
    e.name = "<undecodable>";
    e.writeCount = 256;
    e.writeWidthKnown = false;
    e.exec = VgprEffects::Exec::Changes;
    e.indirectFlow = true;
    return e;
  }
  e.name = std::string(gcn::codeClassName(ci->cls));
  switch (ci->cls) {
    case gcn::CodeClass::Vop1:
    case gcn::CodeClass::Vop2:
    case gcn::CodeClass::Vopc:
    case gcn::CodeClass::Vop3:
      valu(gen, ci->cls, words, e);
      return e;
    case gcn::CodeClass::Vop3p:
      vop3p(gen, words, e);
      return e;
    case gcn::CodeClass::Vopd:
      vopd(words, e);
      return e;
    case gcn::CodeClass::Mubuf:
    case gcn::CodeClass::Mtbuf:
      buffer(gen, ci->cls, words, e);
      return e;
    default:
      if (otherEffects(gen, ci->cls, words, e)) return e;
      break;
  }
  e.decoded = false;
  e.writeCount = 256;
  e.writeWidthKnown = false;
  return e;
}

}  // namespace gcnprobe::isa
