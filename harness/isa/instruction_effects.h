// What one GFX6-11 instruction does to the things the ISA proofs follow, decoded from its
// encoded words (never from the driver's text: RADV prints most gfx6/7 instructions as raw
// `.long` words): where control goes next (SOPP branches), which VGPRs it writes and reads,
// whether it only moves a value (v_mov_b32 without modifiers, v_swap_b32), and what it does to
// EXEC. Register widths come from the opcode tables (reference/vgpr_table.h for VALU and DS,
// reference/opcodes.h for MUBUF/MTBUF, reference/scalar_table.h for scalar control flow and
// EXEC); a width the tables cannot give is marked unknown and the decoder then assumes the
// widest write the encoding allows (for a VALU opcode the tables lack: any VGPR, since a swap
// also writes its source), so a proof built on these effects can be too strict, never too
// lenient.
//
// The forward data-flow driver below is shared by the descriptor trace (SGPRs) and the
// data-path proof (VGPRs): blocks come from the SOPP branches, states are merged where paths
// join, and the transfer is iterated to a fixed point.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "reference/code_scan.h"
#include "reference/gen.h"
#include "reference/opcodes.h"
#include "reference/vgpr_table.h"

namespace gcnprobe::isa {

// SOPP control flow: s_endpgm ends, s_branch jumps, s_cbranch_* may jump (opcodes by name from
// reference/scalar_table.h: gfx6-10.3 s_endpgm 1, s_branch 2, s_cbranch_* 4..9 and 23..26;
// gfx11 48, 32, 33..42); SIMM16 counts dwords from the next instruction.
struct ControlFlow {
  bool fallsThrough = true;
  std::optional<long> targetDword;
};
ControlFlow controlFlowOf(gcn::Gen gen, gcn::CodeClass cls, std::span<const uint32_t> words,
                          long nextDword);

// Whether control may leave the straight line at this instruction (or never reach the next):
// a SOPP branch or s_cbranch_*, s_endpgm (and gfx8's s_endpgm_saved, gfx9's
// s_endpgm_ordered_ps_done), s_sethalt, s_trap, or indirect flow (VgprEffects::indirectFlow).
// Words of no known encoding count as leaving. Decided from the encoding, never the text.
bool breaksStraightLine(gcn::Gen gen, std::span<const uint32_t> words);

struct VgprEffects {
  bool decoded = true;  // false: words of no known encoding (it could write anything)
  std::string name;     // mnemonic where the tables know it, else the encoding class ("vop3")
  // What the VGPR table models of the instruction (reference/vgpr_table.h); None where it does
  // not know it.
  gcn::VgprBehaviour behaviour = gcn::VgprBehaviour::None;
  // VGPRs written: [writeFirst, writeFirst + writeCount).
  unsigned writeFirst = 0;
  unsigned writeCount = 0;
  bool writeWidthKnown = true;  // false: writeCount is the widest the encoding allows
  std::vector<unsigned> reads;  // VGPRs read (first registers of sources whose width is unknown)
  enum class Move : uint8_t { None, Copy, Swap };
  // Copy: writeFirst <- moveSrc, and any further written registers get new values (a 64-bit
  // shift right by 32 copies the high dword into the low one); Swap: writeFirst <-> moveSrc.
  Move move = Move::None;
  unsigned moveSrc = 0;
  // GFX11 VOPD: a second, independent write of one VGPR (VDSTY; the X half is writeFirst),
  // a copy of `dualMoveSrc` when `dualCopy` (v_dual_mov_b32 without modifiers). Both halves
  // read their sources before either writes.
  std::optional<unsigned> dualWrite;
  bool dualCopy = false;
  unsigned dualMoveSrc = 0;
  enum class Exec : uint8_t {
    Keeps,    // EXEC unchanged
    Narrows,  // EXEC &= something (s_and_saveexec_b64, s_and_b64 exec, exec, x; v_cmpx_*)
    Changes,  // any other write of EXEC (a restore may enable lanes again)
  };
  Exec exec = Exec::Keeps;
  // s_setpc/s_swappc/s_rfe, s_cbranch_join/s_cbranch_g_fork/s_cbranch_i_fork
  bool indirectFlow = false;
  // A mode that changes what later vector instructions do, which the proofs do not model:
  // s_set_gpr_idx_on/_idx/_mode (GFX8/9: VGPR operands indexed by M0 or an SGPR),
  // s_setvskip (GFX6-9: vector instructions skipped while set), and s_setreg of the MODE
  // register's VSKIP or GPR_IDX_EN bit.
  bool vectorMode = false;
  // VOP1/VOP2/VOP3 operand codes (9-bit: 0-255 scalar/constant, 256+n = vn; -1 = none), for
  // recognising an address formula; `modifiers`: ABS/NEG/OMOD/CLAMP, SDWA or DPP present.
  std::array<int, 3> src{-1, -1, -1};
  bool modifiers = false;
};

// VOP3b opcodes (an SGPR carry-out or divide-scale flag in SDST [14:8]). llvm-mc 14: gfx6/7
// v_add/sub/subrev_i32, v_addc/subb/subbrev_u32 = 293..298, v_div_scale_f32/f64 = 365/366,
// gfx7 v_mad_u64_u32/i64_i32 = 374/375; gfx8/9 v_add/sub/subrev_co, v_addc/subb/subbrev_co =
// 0x119..0x11e, v_div_scale = 0x1e0/0x1e1, v_mad_u64/i64 = 0x1e8/9. RDNA renumbered VOP3: the
// VGPR table's mnemonic decides there (llvm-mc 15: v_add_co_u32, v_sub_co_u32,
// v_subrev_co_u32, v_add_co_ci_u32, v_sub_co_ci_u32, v_subrev_co_ci_u32, v_div_scale_f32/f64,
// v_mad_u64_u32, v_mad_i64_i32), and an opcode it does not know counts as one.
bool vop3bCarryOut(gcn::Gen gen, unsigned vop3Opcode);

// VDATA registers of a buffer instruction on the generation: the most any of its chips uses
// (gfx8.0 unpacks D16 data, Stoney and gfx9 pack it), so a write is never under-counted.
unsigned widestVdataRegs(gcn::Gen gen, const gcn::Instruction& inst);

// `words`: one instruction as the listing gives it (the encoding plus any literal or second
// dword). Never throws.
VgprEffects vgprEffects(gcn::Gen gen, std::span<const uint32_t> words);

// Forward data flow over a listing. `in[i]` is the state before instruction i (empty:
// unreachable); in[0] is seeded by the caller.
// `transfer(i, cls, state)` applies instruction i (cls empty: words of no known encoding);
// `merge(into, from)` joins `from` into an existing state and returns whether it changed. A
// branch into the middle of an instruction or out of the code makes `unknownAll(state)` flow
// into every reachable instruction.
//
// `edge(i, taken, state)`, when given, refines the state that leaves instruction i along one
// edge (taken: the branch target; else the fall-through) and returns false when that edge
// cannot be taken in that state (then nothing flows along it).
struct EveryEdge {
  template <class State>
  bool operator()(std::size_t, bool, State&) const {
    return true;
  }
};
template <class State, class Transfer, class Merge, class UnknownAll, class Edge = EveryEdge>
void forwardFlow(gcn::Gen gen, std::span<const std::vector<uint32_t>> instructions,
                 std::vector<std::optional<State>>& in, Transfer transfer, Merge merge,
                 UnknownAll unknownAll, Edge edge = {}) {
  constexpr bool kEdges = !std::is_same_v<Edge, EveryEdge>;
  const std::size_t n = instructions.size();
  std::vector<std::optional<gcn::CodeClass>> cls(n);
  std::vector<long> start(n + 1, 0);
  std::map<long, std::size_t> byDword;
  for (std::size_t i = 0; i < n; ++i) {
    byDword[start[i]] = i;
    start[i + 1] = start[i] + static_cast<long>(instructions[i].size());
    if (instructions[i].empty()) continue;
    if (const std::optional<gcn::CodeInstruction> ci =
            gcn::tryScanInstruction(gen, instructions[i], 0))
      cls[i] = ci->cls;
  }
  const auto mergeInto = [&](std::optional<State>& into, const State& from) {
    if (!into) {
      into = from;
      return true;
    }
    return merge(*into, from);
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (!in[i]) continue;
      State s = *in[i];
      transfer(i, cls[i], s);
      ControlFlow f;
      if (cls[i]) f = controlFlowOf(gen, *cls[i], instructions[i], start[i + 1]);
      if (f.fallsThrough && i + 1 < n) {
        if constexpr (kEdges) {
          State t = s;
          if (edge(i, false, t)) changed = mergeInto(in[i + 1], t) || changed;
        } else {
          changed = mergeInto(in[i + 1], s) || changed;
        }
      }
      if (f.targetDword) {
        if constexpr (kEdges) {
          if (!edge(i, true, s)) continue;
        }
        const auto it = byDword.find(*f.targetDword);
        if (it != byDword.end()) {
          changed = mergeInto(in[it->second], s) || changed;
        } else {
          State u = s;
          unknownAll(u);
          for (std::size_t j = 0; j < n; ++j)
            if (in[j]) changed = mergeInto(in[j], u) || changed;
        }
      }
    }
  }
}

}  // namespace gcnprobe::isa
