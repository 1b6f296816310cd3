#include "harness/isa/instruction_effects.h"

#include <algorithm>
#include <bit>

#include "reference/encoding.h"
#include "reference/opcodes.h"
#include "reference/vgpr_table.h"

namespace gcnprobe::isa {
namespace {

constexpr unsigned kExecLo = 126;

bool gfx8Plus(gcn::Gen gen) {
  return gen == gcn::Gen::Gfx8 || gen == gcn::Gen::Gfx9;
}

// A 9-bit VOP source operand that names a VGPR.
void addRead(VgprEffects& e, int operand) {
  if (operand >= 256) e.reads.push_back(static_cast<unsigned>(operand - 256));
}

void setWrite(VgprEffects& e, unsigned first, const gcn::VgprOpInfo* info, unsigned widest) {
  e.writeFirst = first;
  if (info != nullptr) {
    e.name = std::string(info->mnemonic);
    e.writeCount = info->dstVgprs;
  } else {
    e.writeCount = widest;
    e.writeWidthKnown = false;
  }
}

bool startsWith(const std::string& s, std::string_view p) {
  return s.size() >= p.size() && std::string_view(s).substr(0, p.size()) == p;
}

// A VOP1/VOP2/VOPC (32-bit encoding) with SRC0: SDWA (0xf9) and DPP (0xfa) on gfx8/9 carry
// the real source VGPR in the second dword's low byte.
int vopSrc0(gcn::Gen gen, std::span<const uint32_t> w, bool& modifiers) {
  const int src0 = static_cast<int>(w[0] & 0x1ff);
  if (gfx8Plus(gen) && (src0 == 0xf9 || src0 == 0xfa) && w.size() > 1) {
    modifiers = true;
    return 256 + static_cast<int>(w[1] & 0xff);
  }
  return src0;
}

void valu(gcn::Gen gen, gcn::CodeClass cls, std::span<const uint32_t> w, VgprEffects& e) {
  const uint32_t w0 = w[0];
  unsigned vop3 = 0, vdst = 0;
  switch (cls) {
    case gcn::CodeClass::Vop1: {
      vop3 = gcn::vop3OpcodeOfVop1(gen, (w0 >> 9) & 0xff);
      vdst = (w0 >> 17) & 0xff;
      e.src[0] = vopSrc0(gen, w, e.modifiers);
      break;
    }
    case gcn::CodeClass::Vop2: {
      vop3 = gcn::vop3OpcodeOfVop2((w0 >> 25) & 0x3f);
      vdst = (w0 >> 17) & 0xff;
      e.src[0] = vopSrc0(gen, w, e.modifiers);
      e.src[1] = 256 + static_cast<int>((w0 >> 9) & 0xff);
      break;
    }
    case gcn::CodeClass::Vopc: {
      vop3 = (w0 >> 17) & 0xff;
      e.src[0] = vopSrc0(gen, w, e.modifiers);
      e.src[1] = 256 + static_cast<int>((w0 >> 9) & 0xff);
      break;
    }
    default: {  // VOP3 (and gfx9 VOP3P)
      vop3 = gfx8Plus(gen) ? (w0 >> 16) & 0x3ff : (w0 >> 17) & 0x1ff;
      vdst = w0 & 0xff;
      if (w.size() > 1) {
        const uint32_t w1 = w[1];
        e.src = {static_cast<int>(w1 & 0x1ff), static_cast<int>((w1 >> 9) & 0x1ff),
                 static_cast<int>((w1 >> 18) & 0x1ff)};
        const bool clamp = gfx8Plus(gen) ? (w0 >> 15) & 1 : (w0 >> 11) & 1;
        e.modifiers = (w1 >> 27) != 0 || ((w0 >> 8) & 7) != 0 || clamp;
      }
      if (gen == gcn::Gen::Gfx9 && vop3 >= 0x380) e.modifiers = true;  // VOP3P op_sel etc.
      break;
    }
  }
  for (int s : e.src)
    addRead(e, s);
  const gcn::VgprOpInfo* info = gcn::findVgprOp(gen, gcn::VgprClass::Valu, vop3);
  if (cls == gcn::CodeClass::Vopc || vop3 < 256) {
    // A compare writes VCC or an SGPR pair, never a VGPR; v_cmpx_* also writes EXEC.
    if (info != nullptr) e.name = std::string(info->mnemonic);
    if (info == nullptr || startsWith(e.name, "v_cmpx")) e.exec = VgprEffects::Exec::Narrows;
    if (info == nullptr) e.exec = VgprEffects::Exec::Changes;
    if (cls != gcn::CodeClass::Vopc && vdst >= kExecLo && vdst <= kExecLo + 1)
      e.exec = VgprEffects::Exec::Changes;
    return;
  }
  setWrite(e, vdst, info, 4);
  if (info != nullptr && info->dstVgprs == 0) {
    // v_readlane_b32 / v_readfirstlane_b32: VDST is an SGPR.
    if (vdst >= kExecLo && vdst <= kExecLo + 1) e.exec = VgprEffects::Exec::Changes;
  }
  if (info == nullptr) e.name = std::string(gcn::codeClassName(cls));
  if (e.name == "v_mov_b32" && !e.modifiers && e.src[0] >= 256) {
    e.move = VgprEffects::Move::Copy;
    e.moveSrc = static_cast<unsigned>(e.src[0] - 256);
  }
  // A 64-bit shift right by exactly 32 moves the high dword to the low one (the high one
  // becomes 0 or the sign): the low dword is a copy. Gfx8/9 v_lshrrev_b64 / v_ashrrev_i64 take
  // the shift in SRC0 and the value in SRC1; gfx6/7 v_lshr_b64 / v_ashr_i64 the other way.
  const bool rev = e.name == "v_lshrrev_b64" || e.name == "v_ashrrev_i64";
  const bool fwd = e.name == "v_lshr_b64" || e.name == "v_ashr_i64";
  if ((rev || fwd) && !e.modifiers && e.writeCount == 2) {
    const int amount = rev ? e.src[0] : e.src[1], value = rev ? e.src[1] : e.src[0];
    if (amount == 128 + 32 && value >= 256) {
      e.move = VgprEffects::Move::Copy;
      e.moveSrc = static_cast<unsigned>(value - 256) + 1;
    }
  }
  if (e.name == "v_swap_b32" && cls == gcn::CodeClass::Vop1 && e.src[0] >= 256) {
    e.move = VgprEffects::Move::Swap;
    e.moveSrc = static_cast<unsigned>(e.src[0] - 256);
  }
}

void scalarExec(gcn::Gen gen, gcn::CodeClass cls, std::span<const uint32_t> w, VgprEffects& e) {
  const uint32_t w0 = w[0];
  const bool g8 = gfx8Plus(gen);
  switch (cls) {
    case gcn::CodeClass::Sop1: {
      const unsigned sdst = (w0 >> 16) & 0x7f, op = (w0 >> 8) & 0xff;
      // llvm-mc 14: gfx6/7 s_setpc 32, s_swappc 33, s_rfe 34, s_and_saveexec_b64 36 .. xnor 43,
      // s_cbranch_join 50; gfx8/9 29, 30, 31, 32 .. 39, 46; gfx9 andn1/orn1_saveexec,
      // andn1/andn2_wrexec 51..54.
      const unsigned setpc = g8 ? 29 : 32, saveFirst = g8 ? 32 : 36, join = g8 ? 46 : 50;
      if (op == setpc || op == setpc + 1 || op == setpc + 2 || op == join) e.indirectFlow = true;
      if (op == saveFirst)
        e.exec = VgprEffects::Exec::Narrows;
      else if ((op > saveFirst && op <= saveFirst + 7) ||
               (gen == gcn::Gen::Gfx9 && op >= 51 && op <= 54))
        e.exec = VgprEffects::Exec::Changes;
      if (sdst == kExecLo || sdst == kExecLo + 1) e.exec = VgprEffects::Exec::Changes;
      return;
    }
    case gcn::CodeClass::Sop2: {
      const unsigned sdst = (w0 >> 16) & 0x7f, op = (w0 >> 23) & 0x7f;
      const unsigned s0 = w0 & 0xff, s1 = (w0 >> 8) & 0xff;
      // s_and_b64: op 15 on gfx6/7, 13 on gfx8/9; s_cbranch_g_fork 43 / 41 (llvm-mc 14).
      if (op == (g8 ? 41u : 43u)) e.indirectFlow = true;
      if (sdst == kExecLo || sdst == kExecLo + 1) {
        const bool andWithExec =
            op == (g8 ? 13u : 15u) && sdst == kExecLo && (s0 == kExecLo || s1 == kExecLo);
        e.exec = andWithExec ? VgprEffects::Exec::Narrows : VgprEffects::Exec::Changes;
      }
      return;
    }
    case gcn::CodeClass::Sopk: {
      const unsigned sdst = (w0 >> 16) & 0x7f, op = (w0 >> 23) & 0x1f;
      // s_cbranch_i_fork: 17 on gfx6/7, 16 on gfx8/9 (llvm-mc 14).
      if (op == (g8 ? 16u : 17u)) e.indirectFlow = true;
      if (sdst == kExecLo || sdst == kExecLo + 1) e.exec = VgprEffects::Exec::Changes;
      return;
    }
    case gcn::CodeClass::Smrd: {
      const unsigned sdst = (w0 >> 15) & 0x7f;
      if (sdst >= kExecLo - 3) e.exec = VgprEffects::Exec::Changes;  // a wide load into exec
      return;
    }
    case gcn::CodeClass::Smem: {
      const unsigned sdata = (w0 >> 6) & 0x7f;
      if (sdata >= kExecLo - 15) e.exec = VgprEffects::Exec::Changes;
      return;
    }
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
  const bool writes = gcn::returnsData(op.kind, inst->glc);
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

unsigned widestVdataRegs(gcn::Gen gen, const gcn::Instruction& inst) {
  unsigned regs = 0;
  for (const gcn::Chip& chip : gcn::gcnChips())
    if (chip.gen == gen) regs = std::max(regs, gcn::vdataRegs(*inst.op, chip, inst.tfe));
  return regs;
}

ControlFlow controlFlowOf(gcn::CodeClass cls, std::span<const uint32_t> words, long nextDword) {
  ControlFlow f;
  if (cls != gcn::CodeClass::Sopp || words.empty()) return f;
  const unsigned op = (words[0] >> 16) & 0x7f;
  const long simm = static_cast<int16_t>(words[0] & 0xffff);
  if (op == 1) f.fallsThrough = false;
  if (op == 2) {
    f.fallsThrough = false;
    f.targetDword = nextDword + simm;
  }
  if ((op >= 4 && op <= 9) || (op >= 23 && op <= 26)) f.targetDword = nextDword + simm;
  return f;
}

bool breaksStraightLine(gcn::Gen gen, std::span<const uint32_t> words) {
  const std::optional<gcn::CodeInstruction> ci =
      words.empty() ? std::nullopt : gcn::tryScanInstruction(gen, words, 0);
  if (!ci) return true;
  if (ci->cls == gcn::CodeClass::Sopp) {
    const ControlFlow f = controlFlowOf(ci->cls, words, 0);
    if (!f.fallsThrough || f.targetDword) return true;
    // s_sethalt 13, s_trap 18; s_endpgm_saved 27 (gfx8+), s_endpgm_ordered_ps_done 30 (gfx9)
    // (llvm-mc 14).
    const unsigned op = (words[0] >> 16) & 0x7f;
    return op == 13 || op == 18 || (gfx8Plus(gen) && op == 27) ||
           (gen == gcn::Gen::Gfx9 && op == 30);
  }
  return vgprEffects(gen, words).indirectFlow;
}

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
    case gcn::CodeClass::Vintrp:
      e.writeFirst = (words[0] >> 18) & 0xff;
      e.writeCount = 1;
      e.reads.push_back(words[0] & 0xff);
      return e;
    case gcn::CodeClass::Ds: {
      if (words.size() < 2) break;
      const unsigned op = gfx8Plus(gen) ? (words[0] >> 17) & 0xff : (words[0] >> 18) & 0xff;
      const uint32_t w1 = words[1];
      e.reads = {w1 & 0xff, (w1 >> 8) & 0xff, (w1 >> 16) & 0xff};
      setWrite(e, w1 >> 24, gcn::findVgprOp(gen, gcn::VgprClass::Ds, op), 4);
      if (e.writeWidthKnown && e.writeCount == 0) e.writeFirst = 0;
      return e;
    }
    case gcn::CodeClass::Mubuf:
    case gcn::CodeClass::Mtbuf:
      buffer(gen, ci->cls, words, e);
      return e;
    case gcn::CodeClass::Mimg: {
      if (words.size() < 2) break;
      // DMASK [11:8] selects the registers (D16 packs fewer), TFE [16] / LWE [17] add one;
      // stores are counted as writes too: too strict, never lenient.
      const unsigned dmask = (words[0] >> 8) & 0xf;
      e.writeFirst = (words[1] >> 8) & 0xff;
      e.writeCount =
          static_cast<unsigned>(std::popcount(dmask)) + (((words[0] >> 16) & 3) != 0 ? 1u : 0u);
      e.reads.push_back(words[1] & 0xff);
      return e;
    }
    case gcn::CodeClass::Flat: {
      if (words.size() < 2) break;
      // Loads write VDST [63:56] (1-4 registers, plus TFE); the width is not tabled here.
      e.writeFirst = words[1] >> 24;
      e.writeCount = 5;
      e.writeWidthKnown = false;
      e.reads = {words[1] & 0xff, (words[1] >> 8) & 0xff};
      return e;
    }
    case gcn::CodeClass::Exp:
      if (words.size() > 1)
        for (unsigned k = 0; k < 4; ++k)
          e.reads.push_back((words[1] >> (8 * k)) & 0xff);
      return e;
    default:
      scalarExec(gen, ci->cls, words, e);
      return e;
  }
  e.decoded = false;
  e.writeCount = 256;
  e.writeWidthKnown = false;
  return e;
}

}  // namespace gcnprobe::isa
