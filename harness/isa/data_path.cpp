#include "harness/isa/data_path.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <tuple>

#include "harness/isa/instruction_effects.h"
#include "harness/isa/lane_terms.h"
#include "harness/isa/memory_hazards.h"
#include "reference/encoding.h"
#include "reference/opcodes.h"
#include "reference/scalar_table.h"
#include "reference/text.h"

namespace gcnprobe::isa {
namespace {

constexpr unsigned kVgprs = 256;

struct Tag {
  enum class K : uint8_t { Mixed, Entry, Def };
  K k = K::Mixed;
  uint32_t insn = 0;   // Def: the writing instruction's index
  uint16_t index = 0;  // Def: which of its written registers; Entry: the VGPR
  bool operator==(const Tag&) const = default;
  bool operator<(const Tag& o) const {
    return std::tie(k, insn, index) < std::tie(o.k, o.insn, o.index);
  }
};

Tag join(const Tag& a, const Tag& b) {
  return a == b ? a : Tag{};
}

struct State {
  std::array<Tag, kVgprs> cur;   // the value in the lanes EXEC enables now
  std::array<Tag, kVgprs> hist;  // the join of every value since EXEC last changed (not narrowed)
  bool narrowed = false;         // EXEC was narrowed since then
};

void write(State& s, unsigned r, const Tag& t) {
  if (r >= kVgprs) return;
  s.cur[r] = t;
  s.hist[r] = s.narrowed ? join(s.hist[r], t) : t;
}

bool mergeState(State& into, const State& from) {
  bool changed = false;
  for (unsigned r = 0; r < kVgprs; ++r) {
    const Tag c = join(into.cur[r], from.cur[r]), h = join(into.hist[r], from.hist[r]);
    if (!(c == into.cur[r]) || !(h == into.hist[r])) changed = true;
    into.cur[r] = c;
    into.hist[r] = h;
  }
  if (from.narrowed && !into.narrowed) {
    into.narrowed = true;
    changed = true;
  }
  return changed;
}

// Built by appending: GCC 12's -O3 -Wrestrict misreads "v" + std::to_string(...).
std::string vreg(unsigned first, unsigned count) {
  std::string s = "v";
  if (count <= 1) return s.append(std::to_string(first));
  return s.append("[")
      .append(std::to_string(first))
      .append(":")
      .append(std::to_string(first + count - 1))
      .append("]");
}

struct Analysis {
  gcn::Gen gen;
  std::span<const AsmInstruction> code;
  std::span<const TracedDescriptor> traced;
  std::vector<VgprEffects> effects;
  std::vector<std::optional<State>> in;
  std::vector<std::optional<gcn::Instruction>> buffer;  // decoded buffer instructions
  std::span<const std::vector<uint32_t>> words;
  // Per instruction, computed once: its encoding class (empty: no known encoding), the dword it
  // starts at (start[n] = the end), and what it does to SGPRs (descriptor_trace.h).
  std::vector<std::optional<gcn::CodeClass>> cls;
  std::vector<long> start;
  std::vector<SgprWrites> sgprWrites;
  std::optional<routes::DataPath::Lanes> lanes;
  // laneTerm's answers by tag: the term, or why there is none.
  mutable std::map<Tag, std::pair<std::optional<LaneTerm>, std::string>> terms;

  // "'v_bfe_i32 v7, v7, 23, 2' (listing line 13)"; raw words get the tables' mnemonic.
  std::string where(std::size_t i) const {
    std::string s = "'" + code[i].text + "'";
    if (code[i].text.rfind(".long", 0) == 0 && i < effects.size() && effects[i].decoded)
      s += " (" + effects[i].name + ")";
    return s + " (listing line " + std::to_string(code[i].line) + ")";
  }
  bool onSlot(std::size_t i, const routes::BufferSlot& slot) const {
    return i < traced.size() && traced[i].slot && *traced[i].slot == slot;
  }
  bool isLoadOn(std::size_t i, const std::optional<routes::BufferSlot>& slot) const {
    if (!slot || !buffer[i] || !onSlot(i, *slot)) return false;
    const gcn::OpKind k = buffer[i]->op->kind;
    return k == gcn::OpKind::Load || k == gcn::OpKind::LoadFormat;
  }
  std::string describe(const Tag& t) const {
    switch (t.k) {
      case Tag::K::Mixed:
        return "a value the proof cannot follow (different values meet where paths or EXEC "
               "masks join)";
      case Tag::K::Entry:
        return "the entry value of v" + std::to_string(t.index);
      case Tag::K::Def:
        break;
    }
    const VgprEffects& e = effects[t.insn];
    if (!e.decoded) return "whatever the undecodable " + where(t.insn) + " left";
    if (!e.writeWidthKnown)
      return "a register " + where(t.insn) +
             " may write (the tables do not size its "
             "destination)";
    return "the value written by " + where(t.insn);
  }
};

// The address of a buffer instruction, as far as two instructions' addresses can be shown
// equal: the same VADDR values and the same constant SOFFSET. A VADDR value the proof cannot
// follow (Mixed) or an SGPR SOFFSET (its value is not traced: the register may change between
// two instructions) makes the address equal to no other instruction's: `alone` is then the
// instruction's index.
constexpr std::size_t kComparable = static_cast<std::size_t>(-1);
struct AddrKey {
  std::vector<Tag> vaddr;
  unsigned soffset = 0;
  std::size_t alone = kComparable;
  bool operator<(const AddrKey& o) const {
    return std::tie(vaddr, soffset, alone) < std::tie(o.vaddr, o.soffset, o.alone);
  }
  bool operator==(const AddrKey&) const = default;
};

AddrKey keyOf(gcn::Gen gen, const gcn::Instruction& inst, const State& s, std::size_t index) {
  AddrKey k;
  for (unsigned j = 0; j < gcn::vaddrRegs(inst); ++j) {
    k.vaddr.push_back(s.cur[(inst.vaddr + j) % kVgprs]);
    if (k.vaddr.back().k == Tag::K::Mixed) k.alone = index;
  }
  k.soffset = inst.soffset;
  // Inline integer constants are 128..208; RDNA's NULL (gcn::nullSgprCode) reads 0.
  const bool constant = gcn::integerInlineValue(inst.soffset).has_value() ||
                        (gcn::isRdna(gen) && inst.soffset == gcn::nullSgprCode(gen));
  if (!constant) k.alone = index;
  return k;
}

// An In word: "register j of a load from the In buffer", unchanged.
std::optional<std::pair<AddrKey, uint32_t>> inPosition(const Analysis& a, const Tag& t) {
  if (t.k != Tag::K::Def || !a.buffer[t.insn] || !a.in[t.insn]) return std::nullopt;
  const gcn::Instruction& l = *a.buffer[t.insn];
  return std::make_pair(keyOf(a.gen, l, *a.in[t.insn], t.insn), l.offset + 4u * t.index);
}

// Why an instruction that is not a decoded MUBUF/MTBUF instruction may write global memory,
// or "" when it cannot: a buffer encoding the decoder does not know; any FLAT, GLOBAL or
// SCRATCH instruction and any image instruction (the proof does not model them; RADV's lane
// shaders use neither); a scalar store or atomic (SMEM opcodes 16..30 are the stores, 64 and up
// the atomics, on GFX8-10: AMD's GCN3 and Vega ISA guides, "Scalar Memory Operations"; GFX10's
// s_gl1_inv is 31).
// `cls` and `w0`: the instruction's encoding class and first word.
std::string otherMemoryWrite(gcn::CodeClass cls, uint32_t w0) {
  switch (cls) {
    case gcn::CodeClass::Mubuf:
    case gcn::CodeClass::Mtbuf:
      return "is a buffer instruction the decoder does not know";
    case gcn::CodeClass::Flat:
      return "is a FLAT/GLOBAL/SCRATCH instruction, which the proof does not model";
    case gcn::CodeClass::Mimg:
      return "is an image instruction, which the proof does not model";
    case gcn::CodeClass::Smem: {
      const unsigned op = (w0 >> 18) & 0xff;
      if ((op >= 16 && op <= 30) || op >= 64) return "is a scalar store or atomic";
      return "";
    }
    default:
      return "";
  }
}

// The constant a VOP operand code names: inline integers 128..208, or a literal (255).
std::optional<uint32_t> constantOperand(int code, std::span<const uint32_t> words) {
  if (code >= 0)
    if (const auto v = gcn::integerInlineValue(static_cast<unsigned>(code)))
      return static_cast<uint32_t>(*v);
  if (code == 255 && words.size() > 1) return words.back();
  return std::nullopt;
}

// The value `t` as a term of the lane id (lane_terms.h): the route's lane-id VGPR at entry, a
// constant, or a modelled VALU instruction of terms. Nullopt with `why` otherwise.
std::optional<LaneTerm> laneTerm(const Analysis& a, const Tag& t, std::string& why,
                                 unsigned depth = 0) {
  if (t.k == Tag::K::Entry) {
    if (a.lanes && t.index == a.lanes->laneIdVgpr) return LaneTerm{1, 0};
    why = a.describe(t) + ", which is not the lane id";
    return std::nullopt;
  }
  if (t.k == Tag::K::Mixed || !a.in[t.insn]) {
    why = a.describe(t);
    return std::nullopt;
  }
  if (const auto it = a.terms.find(t); it != a.terms.end()) {
    why = it->second.second;
    return it->second.first;
  }
  std::optional<LaneTerm> r;
  std::string because;
  const VgprEffects& e = a.effects[t.insn];
  const std::optional<LaneOp> op = e.decoded && !e.modifiers && e.writeWidthKnown &&
                                           e.writeCount == 1 && !e.dualWrite && t.index == 0
                                       ? laneOpOf(e.name)
                                       : std::nullopt;
  if (depth > 64) {
    because = "a chain of more than 64 steps";
  } else if (!op) {
    because = !e.decoded || !e.writeWidthKnown ? a.describe(t)
              : e.modifiers
                  ? a.where(t.insn) +
                        " has modifiers (ABS/NEG/OMOD/CLAMP, SDWA or DPP) the terms do not model"
                  : a.where(t.insn) + " is no instruction the terms model";
  } else {
    std::array<std::optional<LaneTerm>, 3> operands;
    for (unsigned k = 0; k < 3 && because.empty(); ++k) {
      const int code = e.src[k];
      if (code >= 256) {
        std::string inner;
        operands[k] = laneTerm(a, a.in[t.insn]->cur[static_cast<unsigned>(code - 256) % kVgprs],
                               inner, depth + 1);
        if (!operands[k]) because = inner;
      } else if (const std::optional<uint32_t> c = constantOperand(code, a.words[t.insn])) {
        operands[k] = LaneTerm{0, *c};
      }
    }
    if (because.empty()) {
      r = evaluateLaneOp(*op, operands, a.lanes ? a.lanes->count : 1, because);
      if (!r) because = a.where(t.insn) + ": " + because;
    }
  }
  a.terms[t] = {r, because};
  why = because;
  return r;
}

// The byte offset a MUBUF/MTBUF instruction accesses in its buffer, as a term of the lane id:
// VADDR (OFFEN) + OFFSET + a constant SOFFSET. IDXEN (the V#'s stride), ADDR64, an SGPR
// SOFFSET (its value is not traced) or a sum that leaves 32 bits is no term.
std::optional<LaneTerm> bufferOffset(const Analysis& a, std::size_t i, std::string& why) {
  const gcn::Instruction& b = *a.buffer[i];
  if (b.idxen || b.addr64) {
    why = std::string(b.idxen ? "IDXEN" : "ADDR64") +
          " addressing, whose byte offset the proof does not evaluate";
    return std::nullopt;
  }
  LaneTerm v;
  if (b.offen) {
    std::string inner;
    const std::optional<LaneTerm> t = laneTerm(a, a.in[i]->cur[b.vaddr % kVgprs], inner);
    if (!t) {
      why = "VADDR " + vreg(b.vaddr, 1) + " is no term of the lane id: " + inner;
      return std::nullopt;
    }
    v = *t;
  }
  int64_t soffset = 0;
  if (b.soffset >= 128 && b.soffset <= 192)
    soffset = b.soffset - 128;
  else if (!(gcn::isRdna(a.gen) && b.soffset == gcn::nullSgprCode(a.gen))) {
    why = "its SOFFSET is not a constant (SGPR values are not traced)";
    return std::nullopt;
  }
  const std::optional<LaneTerm> sum =
      inWordRange(LaneTerm{v.a, v.b + b.offset + soffset}, a.lanes ? a.lanes->count : 1);
  if (!sum) why = "VADDR + OFFSET + SOFFSET leaves 32 bits for some lane";
  return sum;
}

// The In byte offset of an In word (register j of a whole-dword load from In, unchanged), or
// nullopt with `why`: a load of another width or format, or an address that is no term.
std::optional<LaneTerm> inWordOffset(const Analysis& a, const Tag& t,
                                     const std::optional<routes::BufferSlot>& in,
                                     std::string& why) {
  if (t.k != Tag::K::Def || !a.isLoadOn(t.insn, in)) {
    why = a.describe(t) + ", not an In word";
    return std::nullopt;
  }
  const gcn::OpcodeInfo& op = *a.buffer[t.insn]->op;
  if (op.kind != gcn::OpKind::Load || op.d16 || op.ldsData || op.memBytes != 4u * op.components ||
      t.index >= op.components) {
    why = "a register of " + a.where(t.insn) +
          ", which does not load In as whole dwords: the route reads In with "
          "buffer_load_dword[x2-x4]";
    return std::nullopt;
  }
  std::string inner;
  const std::optional<LaneTerm> base = bufferOffset(a, t.insn, inner);
  if (!base) {
    why = "a word of In that " + a.where(t.insn) +
          " loads from an address the proof cannot "
          "evaluate (" +
          inner + ")";
    return std::nullopt;
  }
  return LaneTerm{base->a, base->b + 4 * static_cast<int64_t>(t.index)};
}

// ---- EXEC per lane, and every path --------------------------------------------------------

// The lanes a 64-bit lane mask (EXEC, VCC, an SGPR pair) holds, as far as the proof follows
// it: every lane the wave launched, exactly the launched lanes whose In enable word is not 0,
// or a mask the proof cannot name.
enum class Mask : uint8_t { Full, Enabled, Unknown };

const char* maskText(Mask m) {
  switch (m) {
    case Mask::Full:
      return "every launched lane";
    case Mask::Enabled:
      return "the enabled lanes";
    case Mask::Unknown:
      break;
  }
  return "a lane mask the proof cannot name";
}

Mask maskAnd(Mask x, Mask y) {
  if (x == Mask::Full) return y;
  if (y == Mask::Full) return x;
  return x == Mask::Enabled && y == Mask::Enabled ? Mask::Enabled : Mask::Unknown;
}
Mask maskOr(Mask x, Mask y) {
  if (x == Mask::Unknown || y == Mask::Unknown) return Mask::Unknown;
  return x == Mask::Full || y == Mask::Full ? Mask::Full : Mask::Enabled;
}

constexpr unsigned kExec = 126, kVccLo = 106;

// What one SGPR holds: the low or the high half of a lane mask. A 64-bit mask is read from a
// pair only where the even register holds the low half and the odd one the high half of the
// same mask, so half copies, swapped or duplicated halves name no mask.
struct Half {
  Mask m = Mask::Unknown;
  bool hi = false;
  bool operator==(const Half&) const = default;
};

struct ExecState {
  std::array<Half, 128> sgpr;  // per SGPR; EXEC at 126/127
  uint8_t caseMin = 0;         // runs of the case instruction on every path so far (max 2)
  uint8_t caseMax = 0;         // ... on some path
  uint32_t stored = 0;         // result components stored to Out on every path
  bool operator==(const ExecState&) const = default;
};

// The lanes whose compare `v_cmp[x]_{ne,lt,gt}_{i32,u32} ...` holds, ANDed with EXEC (a compare
// writes 0 for inactive lanes): the enabled lanes when it tests the lane's enable word against
// 0 (x != 0, 0 < x, x > 0), else unknown.
Mask compareMask(const Analysis& a, std::size_t i, const std::optional<routes::BufferSlot>& in,
                 Mask exec) {
  const VgprEffects& e = a.effects[i];
  if (e.modifiers) return Mask::Unknown;
  const gcn::VgprBehaviour b = a.effects[i].behaviour;
  const auto isEnableWord = [&](int code) {
    if (code < 256) return false;
    std::string why;
    const std::optional<LaneTerm> at =
        inWordOffset(a, a.in[i]->cur[static_cast<unsigned>(code - 256) % kVgprs], in, why);
    return at && *at == LaneTerm{4, a.lanes->inEnableWord};
  };
  const bool zero0 = e.src[0] == 128, zero1 = e.src[1] == 128;
  bool test = false;
  using B = gcn::VgprBehaviour;
  if (b == B::CompareNe || b == B::CompareXNe)
    test = (zero0 && isEnableWord(e.src[1])) || (zero1 && isEnableWord(e.src[0]));
  else if (b == B::CompareLtU32 || b == B::CompareXLtU32)  // 0 < x
    test = zero0 && isEnableWord(e.src[1]);
  else if (b == B::CompareGtU32 || b == B::CompareXGtU32)  // x > 0
    test = zero1 && isEnableWord(e.src[0]);
  return test ? maskAnd(exec, Mask::Enabled) : Mask::Unknown;
}

// What instruction i does to the lane masks: the SGPR copies and writes the descriptor trace
// models (sgprWrites), then the lane-mask operations themselves (compares of the enable word,
// v_cmpx_*, s_and_saveexec_b64, s_and_b64 / s_or_b64 into EXEC). Any other write of EXEC makes
// it unknown.
void execTransfer(const Analysis& a, std::size_t i, const std::optional<gcn::CodeClass>& cls,
                  const std::optional<routes::BufferSlot>& in, const SgprWrites& w, ExecState& s) {
  const std::array<Half, 128> before = s.sgpr;
  for (unsigned r = 0; r < 128; ++r)
    if (w[r] == -2)
      s.sgpr[r] = Half{};
    else if (w[r] >= 0)
      s.sgpr[r] = before[static_cast<unsigned>(w[r])];
  const auto beforePair = [&](unsigned r) {
    return r + 1 < 128 && !before[r].hi && before[r + 1].hi && before[r].m == before[r + 1].m
               ? before[r].m
               : Mask::Unknown;
  };
  const Mask exec = beforePair(kExec);
  const VgprEffects& e = a.effects[i];
  const auto setPair = [&](unsigned r, Mask m) {
    if (r + 1 < 128) {
      s.sgpr[r] = Half{m, false};
      s.sgpr[r + 1] = Half{m, true};
    }
  };
  bool execHandled = false;
  const uint32_t w0 = a.words[i][0];
  if (cls && (*cls == gcn::CodeClass::Vopc || *cls == gcn::CodeClass::Vop3) &&
      gcn::isCompare(a.effects[i].behaviour)) {
    const Mask m = compareMask(a, i, in, exec);
    const bool cmpx = gcn::isCompareX(a.effects[i].behaviour);
    // VOPC writes VCC (GCN's v_cmpx too; RDNA's writes EXEC only); VOP3 its SDST [7:0].
    const unsigned dst = *cls == gcn::CodeClass::Vopc ? kVccLo : (w0 & 0xff);
    if (!(cmpx && gcn::isRdna(a.gen))) setPair(dst, m);
    if (cmpx) {
      setPair(kExec, m);
      execHandled = true;
    }
  } else if (cls && *cls == gcn::CodeClass::Sop1) {
    const gcn::ScalarOpInfo* op =
        gcn::findScalarOp(a.gen, gcn::ScalarClass::Sop1, (w0 >> 8) & 0xff);
    const unsigned sdst = (w0 >> 16) & 0x7f, src = w0 & 0xff;
    // s_and_saveexec_b64 (the wave64 form: SDST a pair)
    if (op != nullptr && op->behaviour == gcn::ScalarBehaviour::AndSaveexec && op->dstSgprs == 2 &&
        src < 128) {
      setPair(sdst, exec);
      setPair(kExec, maskAnd(exec, beforePair(src)));
      execHandled = true;
    }
  } else if (cls && *cls == gcn::CodeClass::Sop2) {
    const gcn::ScalarOpInfo* op =
        gcn::findScalarOp(a.gen, gcn::ScalarClass::Sop2, (w0 >> 23) & 0x7f);
    const unsigned sdst = (w0 >> 16) & 0x7f, src0 = w0 & 0xff, src1 = (w0 >> 8) & 0xff;
    // s_and_b64, s_or_b64 (SDST a pair)
    const bool andOp = op != nullptr && op->behaviour == gcn::ScalarBehaviour::And;
    const bool orOp = op != nullptr && op->behaviour == gcn::ScalarBehaviour::Or;
    if ((andOp || orOp) && op->dstSgprs == 2 && sdst == kExec && src0 < 128 && src1 < 128) {
      setPair(kExec, andOp ? maskAnd(beforePair(src0), beforePair(src1))
                           : maskOr(beforePair(src0), beforePair(src1)));
      execHandled = true;
    }
  }
  if (!execHandled) {
    // s_mov_b64 exec, s[2n:2n+1] is a copy (above); anything else that writes EXEC is unknown.
    const bool pairCopy = w[kExec] >= 0 && w[kExec] % 2 == 0 && w[kExec + 1] == w[kExec] + 1;
    const bool touched = e.exec != VgprEffects::Exec::Keeps || w[kExec] != -1 || w[kExec + 1] != -1;
    if (touched && !pairCopy) setPair(kExec, Mask::Unknown);
  }
}

// The mask an SGPR pair holds: both halves must hold the same one.
Mask pairMask(const ExecState& s, unsigned r) {
  return r + 1 < 128 && !s.sgpr[r].hi && s.sgpr[r + 1].hi && s.sgpr[r].m == s.sgpr[r + 1].m
             ? s.sgpr[r].m
             : Mask::Unknown;
}

// Whether the SOPP at i is s_cbranch_execz (1) or s_cbranch_execnz (2); 0 otherwise.
int execBranch(const Analysis& a, std::size_t i, const std::optional<gcn::CodeClass>& cls) {
  if (!cls || *cls != gcn::CodeClass::Sopp) return 0;
  const std::optional<gcn::ScalarBehaviour> b =
      gcn::scalarBehaviour(a.gen, gcn::ScalarClass::Sopp, (a.words[i][0] >> 16) & 0x7f);
  return b == gcn::ScalarBehaviour::BranchExecz    ? 1
         : b == gcn::ScalarBehaviour::BranchExecnz ? 2
                                                   : 0;
}

// Whether a conditional branch before instruction i can jump past it (the raw route's guarded
// store sits behind `if (pc.never != 0)`, a scalar branch): the store is then on a path some
// branch skips, and that it does not run is the route's assumption. A store on every path is not
// guarded at all.
bool skippedByABranch(const Analysis& a, std::size_t i) {
  for (std::size_t j = 0; j < i; ++j) {
    // A branch on EXEC being zero skips the block only when no lane is enabled: no guard.
    if (!a.cls[j] || !a.in[j] || execBranch(a, j, a.cls[j]) != 0) continue;
    const ControlFlow f = controlFlowOf(a.gen, *a.cls[j], a.words[j], a.start[j + 1]);
    if (f.fallsThrough && f.targetDword && *f.targetDword > a.start[i]) return true;
  }
  return false;
}

// The Out stores and the result components each stores at the lane's slot (component k at
// Out byte laneBytes * lane + 4k).
struct OutStores {
  std::vector<bool> at;
  std::vector<uint32_t> components;
};

OutStores outStoreComponents(const Analysis& a, unsigned results, const routes::DataPath& path) {
  const std::size_t n = a.code.size();
  OutStores o{std::vector<bool>(n, false), std::vector<uint32_t>(n, 0)};
  for (std::size_t i = 0; i < n && results > 0; ++i) {
    if (!a.in[i] || !a.buffer[i] || !a.onSlot(i, *path.out)) continue;
    const gcn::Instruction& st = *a.buffer[i];
    if (st.op->kind != gcn::OpKind::Store && st.op->kind != gcn::OpKind::StoreFormat) continue;
    o.at[i] = true;
    std::string why;
    const std::optional<LaneTerm> at = bufferOffset(a, i, why);
    for (unsigned j = 0; at && j < widestVdataRegs(a.gen, st); ++j)
      for (unsigned k = 0; k < results; ++k)
        if (LaneTerm{at->a, at->b + 4 * static_cast<int64_t>(j)} ==
            LaneTerm{a.lanes->laneBytes, 4 * static_cast<int64_t>(k)})
          o.components[i] |= 1u << k;
  }
  return o;
}

// A branch back (every cycle has one): the lane shaders have no loop, and a loop may never end,
// which "every path that reaches the end" would not see. The reason, or empty.
std::string branchBack(const Analysis& a) {
  for (std::size_t i = 0; i < a.code.size(); ++i) {
    if (!a.cls[i] || !a.in[i]) continue;
    const ControlFlow f = controlFlowOf(a.gen, *a.cls[i], a.words[i], a.start[i + 1]);
    if (f.targetDword && *f.targetDword <= a.start[i])
      return a.where(i) + " branches back: the proof does not show that a loop ends";
  }
  return "";
}

bool joinExecStates(ExecState& into, const ExecState& from) {
  ExecState m = into;
  for (unsigned r = 0; r < 128; ++r)
    if (!(m.sgpr[r] == from.sgpr[r])) m.sgpr[r] = Half{};
  m.caseMin = std::min(m.caseMin, from.caseMin);
  m.caseMax = std::max(m.caseMax, from.caseMax);
  m.stored &= from.stored;
  const bool changed = !(m == into);
  into = m;
  return changed;
}

// The obligations at instruction i with state s before it: EXEC at the case instruction and
// the Out stores, the case at most once, and at an end the case run and every component of
// `all` stored. The first break, or empty.
std::string execObligations(const Analysis& a, std::size_t i, std::size_t c, unsigned results,
                            uint32_t all, const OutStores& out, const ExecState& s) {
  const Mask exec = pairMask(s, kExec);
  if (i == c || out.at[i]) {
    if (exec != Mask::Enabled)
      return a.where(i) + " runs with EXEC = " + maskText(exec) +
             ", not exactly the lanes whose enable word (In byte " +
             laneTermText(LaneTerm{4, a.lanes->inEnableWord}) + ") is not 0";
    if (i == c && s.caseMax > 0)
      return "the case instruction " + a.where(i) + " may run more than once on one path";
  }
  ExecState after = s;
  if (i == c) after.caseMin = std::max<uint8_t>(after.caseMin, 1);
  if (out.at[i]) after.stored |= out.components[i];
  const ControlFlow f =
      a.cls[i] ? controlFlowOf(a.gen, *a.cls[i], a.words[i], a.start[i + 1]) : ControlFlow{};
  const bool ends =
      (!f.fallsThrough && !f.targetDword) || (f.fallsThrough && i + 1 == a.code.size());
  if (!ends) return "";
  if (after.caseMin == 0)
    return "a path reaches " + a.where(i) +
           " without running the case instruction while lanes may be enabled";
  if ((after.stored & all) == all) return "";
  for (unsigned k = 0; k < results; ++k)
    if (!(after.stored & (1u << k)))
      return "a path reaches " + a.where(i) + " without storing result component " +
             std::to_string(k) + " to Out while lanes may be enabled";
  return "";
}

// EXEC per lane and every path, on a route with a lane layout: the case instruction runs with
// EXEC = exactly the enabled lanes, at most once on any path; so does every Out store; and every
// path that reaches the end of the program with an enabled lane ran the case and stored every
// component of the `all` mask (of `results`). A branch on EXEC being zero (s_cbranch_execz taken,
// s_cbranch_execnz not taken) while EXEC holds the enabled lanes is a path with no enabled lane,
// where every obligation holds; with every launched lane in EXEC it cannot be taken. Returns
// the first break, or "" when all of it holds.
std::string execAndPaths(const Analysis& a, std::size_t c, unsigned results, uint32_t all,
                         const routes::DataPath& path) {
  const std::size_t n = a.code.size();
  if (n == 0) return "the listing is empty";
  const OutStores out = outStoreComponents(a, results, path);
  if (std::string why = branchBack(a); !why.empty()) return why;
  std::vector<std::optional<ExecState>> in(n);
  ExecState entry;
  entry.sgpr.fill(Half{});
  entry.sgpr[kExec] = Half{Mask::Full, false};
  entry.sgpr[kExec + 1] = Half{Mask::Full, true};
  in[0] = entry;
  forwardFlow<ExecState>(
      a.gen, a.words, in,
      [&](std::size_t i, const std::optional<gcn::CodeClass>& k, ExecState& s) {
        if (i == c) {
          s.caseMin = static_cast<uint8_t>(std::min(2, s.caseMin + 1));
          s.caseMax = static_cast<uint8_t>(std::min(2, s.caseMax + 1));
        }
        if (out.at[i]) s.stored |= out.components[i];
        execTransfer(a, i, k, path.in, a.sgprWrites[i], s);
      },
      joinExecStates, [](ExecState& s) { s.sgpr.fill(Half{}); },
      [&](std::size_t i, bool taken, ExecState& s) {
        const int b = execBranch(a, i, a.cls[i]);
        if (b == 0 || (b == 1) != taken) return true;  // not the EXEC-is-zero edge
        const Mask exec = pairMask(s, kExec);
        if (exec == Mask::Full) return false;  // a launched lane is always active
        if (exec == Mask::Enabled) {           // no lane is enabled on this path
          s.caseMin = std::max<uint8_t>(s.caseMin, 1);
          s.stored = all;
        }
        return true;
      });
  for (std::size_t i = 0; i < n; ++i)
    if (in[i])
      if (std::string why = execObligations(a, i, c, results, all, out, *in[i]); !why.empty())
        return why;
  return "";
}

// Decodes every line once (Analysis: effects, buffer instructions, encoding classes, dword
// starts, SGPR writes); returns each line's encoding class and length as the code scan reads
// them (empty: no known encoding).
std::vector<std::optional<gcn::CodeInstruction>> decodeListing(Analysis& a) {
  const std::size_t n = a.code.size();
  std::vector<std::optional<gcn::CodeInstruction>> scan(n);
  a.effects.resize(n);
  a.buffer.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    a.effects[i] = vgprEffects(a.gen, a.words[i]);
    if (!a.words[i].empty()) scan[i] = gcn::tryScanInstruction(a.gen, a.words[i], 0);
    if (a.words[i].size() == 2 && scan[i] && gcn::isBufferClass(scan[i]->cls))
      if (std::optional<gcn::Instruction> inst =
              gcn::tryDecode(a.gen, a.words[i][0], a.words[i][1]);
          inst && inst->op != nullptr)
        a.buffer[i] = inst;
  }
  a.cls.resize(n);
  a.start.assign(n + 1, 0);
  a.sgprWrites.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (scan[i]) a.cls[i] = scan[i]->cls;
    a.start[i + 1] = a.start[i] + static_cast<long>(a.words[i].size());
    a.sgprWrites[i] = sgprWrites(a.gen, a.words[i]);
  }
  return scan;
}

// Why the proof cannot follow the listing at all, "" when it can: a line whose words are not one
// instruction, an encoding it does not decode, indirect control flow, a mode that changes what
// later vector instructions do, an instruction that stops the wave or enters the trap handler,
// and GFX11's release of the VGPRs anywhere but right before the end.
std::string unfollowable(const Analysis& a,
                         std::span<const std::optional<gcn::CodeInstruction>> scan) {
  const std::size_t n = a.code.size();
  for (std::size_t i = 0; i < n; ++i)
    if (scan[i] && scan[i]->dwords != a.words[i].size()) {
      return a.where(i) + " carries " + std::to_string(a.words[i].size()) +
             " words, but its encoding is " + std::to_string(scan[i]->dwords) +
             ": the proof reads one instruction a line";
    }
  for (std::size_t i = 0; i < n; ++i)
    if (a.effects[i].indirectFlow || a.effects[i].vectorMode) {
      return a.where(i) +
             (!a.effects[i].decoded     ? " is no encoding the proof decodes"
              : a.effects[i].vectorMode ? " sets a mode that changes what later vector "
                                          "instructions do (VGPR indexing or skipping)"
                                        : " transfers control indirectly") +
             ": the proof cannot follow the listing";
    }

  // Instructions that stop the wave or enter the trap handler, and GFX11's release of the VGPRs
  // anywhere but right before the end: the proof does not follow them.
  for (std::size_t i = 0; i < n; ++i) {
    if (!scan[i] || scan[i]->cls != gcn::CodeClass::Sopp) continue;
    const gcn::ScalarOpInfo* op =
        gcn::findScalarOp(a.gen, gcn::ScalarClass::Sopp, (a.words[i][0] >> 16) & 0x7f);
    if (op == nullptr) continue;
    if (op->behaviour == gcn::ScalarBehaviour::Halt) {
      return a.where(i) +
             " stops the wave or enters the trap handler: the proof does not follow it";
    }
    // s_sendmsg MSG_DEALLOC_VGPRS (GFX11, message 3): only s_endpgm may follow.
    if (a.gen == gcn::Gen::Gfx11 && op->behaviour == gcn::ScalarBehaviour::SendMsg &&
        (a.words[i][0] & 0xff) == 3) {
      const gcn::ScalarOpInfo* next =
          i + 1 < n && scan[i + 1] && scan[i + 1]->cls == gcn::CodeClass::Sopp
              ? gcn::findScalarOp(a.gen, gcn::ScalarClass::Sopp, (a.words[i + 1][0] >> 16) & 0x7f)
              : nullptr;
      if (next == nullptr || next->behaviour != gcn::ScalarBehaviour::EndProgram) {
        return a.where(i) +
               " releases the VGPRs before the end of the program: what follows reads "
               "undefined registers";
      }
    }
  }
  return "";
}

// The VGPR flow (Analysis::in): every VGPR starts as its own entry value; copies, swaps and
// VOPD halves carry their tags, every other write defines a new one, and EXEC writes are marked.
void vgprFlow(Analysis& a) {
  a.in.resize(a.code.size());
  {
    State entry;
    for (unsigned r = 0; r < kVgprs; ++r)
      entry.cur[r] = entry.hist[r] = Tag{Tag::K::Entry, 0, static_cast<uint16_t>(r)};
    a.in[0] = entry;
  }
  forwardFlow<State>(
      a.gen, a.words, a.in,
      [&](std::size_t i, const std::optional<gcn::CodeClass>&, State& s) {
        const VgprEffects& e = a.effects[i];
        // A VOPD's Y half reads its source before either half writes.
        const std::optional<Tag> dual =
            e.dualWrite
                ? std::optional<Tag>(e.dualCopy ? s.cur[e.dualMoveSrc % kVgprs]
                                                : Tag{Tag::K::Def, static_cast<uint32_t>(i), 1})
                : std::nullopt;
        if (e.move == VgprEffects::Move::Copy) {
          const Tag copied = s.cur[e.moveSrc % kVgprs];
          for (unsigned k = 1; k < e.writeCount; ++k)
            write(s, e.writeFirst + k,
                  Tag{Tag::K::Def, static_cast<uint32_t>(i), static_cast<uint16_t>(k)});
          write(s, e.writeFirst, copied);
        } else if (e.move == VgprEffects::Move::Swap) {
          const Tag x = s.cur[e.writeFirst % kVgprs], y = s.cur[e.moveSrc % kVgprs];
          write(s, e.writeFirst, y);
          write(s, e.moveSrc, x);
        } else {
          for (unsigned k = 0; k < e.writeCount; ++k)
            write(s, e.writeFirst + k,
                  Tag{Tag::K::Def, static_cast<uint32_t>(i), static_cast<uint16_t>(k)});
        }
        if (dual) write(s, *e.dualWrite, *dual);
        if (e.exec == VgprEffects::Exec::Narrows) s.narrowed = true;
        // A write of EXEC that is no narrowing may enable lanes again (the values since the
        // last such write are joined) and, on the lane-shader routes, where EXEC per lane is
        // proven, may as well enable fewer lanes than before: writes after it count as reaching
        // only some lanes. (The vertex route's EXEC is an assumed link: its loop restores EXEC
        // every iteration.)
        if (e.exec == VgprEffects::Exec::Changes) {
          s.cur = s.hist;
          s.narrowed = a.lanes.has_value();
        }
      },
      mergeState,
      [](State& s) {
        s.cur.fill(Tag{});
        s.hist.fill(Tag{});
      });
}

// The memory writes the proof allows are the case instruction's own and whole-dword stores
// (buffer_store_dword[x2..x4]) of Out through a traced descriptor, which the result copies
// follow. Any other buffer instruction that writes memory breaks the proof: on Out a byte, short,
// D16 or format store or an atomic would put something else in the dwords the verdict reads; on In
// or the case's buffer it would change the inputs or the case's memory; through a descriptor
// the trace cannot name it could be any of them.
// Returns why one breaks the proof, "" when none does; a guarded store the route's push
// constant keeps from running is added to `assumed` instead.
std::string otherMemoryWrites(const Analysis& a,
                              std::span<const std::optional<gcn::CodeInstruction>> scan,
                              const routes::DataPath& path, std::size_t c,
                              std::vector<std::string>& assumed) {
  const std::size_t n = a.code.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i == c || !a.in[i]) continue;
    if (!a.buffer[i]) {
      // Undecodable words have broken the proof already (indirectFlow).
      if (const std::string why = scan[i] ? otherMemoryWrite(scan[i]->cls, a.words[i][0]) : "";
          !why.empty()) {
        return a.where(i) + " " + why + ": it could write Out, In or the case's buffer";
      }
      continue;
    }
    if (!gcn::writesMemory(a.buffer[i]->op->kind)) continue;
    const gcn::OpcodeInfo& op = *a.buffer[i]->op;
    if (i >= a.traced.size() || !a.traced[i].slot) {
      return a.where(i) + " writes memory through a descriptor the trace cannot name" +
             (i < a.traced.size() ? " (" + a.traced[i].why + ")" : std::string()) +
             ": it could write Out, In or the case's buffer";
    }
    if (!a.onSlot(i, *path.out)) {
      if (path.guardedCaseStores && !(path.in && a.onSlot(i, *path.in)) && skippedByABranch(a, i)) {
        assumed.push_back(a.where(i) + " writes " + bufferSlotName(*a.traced[i].slot) +
                          ": assumed not to run (the route keeps the push constant it is "
                          "behind 0)");
        continue;
      }
      return a.where(i) + " writes " + bufferSlotName(*a.traced[i].slot) +
             ", which is not Out: only the case instruction may write the case's buffer or In";
    }
    const bool wholeDwords = op.kind == gcn::OpKind::Store && !op.d16 && !op.ldsData &&
                             op.memBytes == 4u * op.components;
    if (!wholeDwords) {
      return a.where(i) +
             " writes Out, and not as whole dwords: the proof models only "
             "buffer_store_dword[x2-x4] writing Out";
    }
  }
  return "";
}

// Every Out store slot: (address key, byte offset) -> the tags stored there, with the storing
// instruction.
using OutSlots = std::map<std::pair<AddrKey, uint32_t>, std::vector<std::pair<Tag, std::size_t>>>;
OutSlots outStoreSlots(const Analysis& a, const routes::BufferSlot& outSlot) {
  OutSlots out;
  for (std::size_t i = 0; i < a.code.size(); ++i) {
    if (!a.in[i] || !a.buffer[i] || !a.onSlot(i, outSlot)) continue;
    const gcn::OpKind k = a.buffer[i]->op->kind;
    if (k != gcn::OpKind::Store && k != gcn::OpKind::StoreFormat) continue;
    const gcn::Instruction& st = *a.buffer[i];
    const AddrKey key = keyOf(a.gen, st, *a.in[i], i);
    const unsigned m = widestVdataRegs(a.gen, st) - (st.tfe ? 1u : 0u);
    for (unsigned j = 0; j < m; ++j)
      out[{key, st.offset + 4u * j}].push_back({a.in[i]->cur[(st.vdata + j) % kVgprs], i});
  }
  return out;
}

// Why result component k of the case instruction at c (VDATA vdata + k) reaches no Out store:
// the first instruction after c that overwrites a register holding it (`overwritten`), else
// that it reaches no store unchanged.
struct NotAtOut {
  std::string why;
  bool overwritten = false;
};
NotAtOut whyNotAtOut(const Analysis& a, std::size_t c, unsigned vdata, unsigned k) {
  const Tag want{Tag::K::Def, static_cast<uint32_t>(c), static_cast<uint16_t>(k)};
  const std::string what =
      "result register " + vreg(vdata + k, 1) + " (component " + std::to_string(k) + ")";
  for (std::size_t i = c + 1; i < a.code.size(); ++i) {
    if (!a.in[i]) continue;
    const VgprEffects& e = a.effects[i];
    std::vector<unsigned> written;
    for (unsigned r = e.writeFirst; r < e.writeFirst + e.writeCount && r < kVgprs; ++r)
      written.push_back(r);
    if (e.dualWrite) written.push_back(*e.dualWrite % kVgprs);
    for (const unsigned r : written) {
      if (!(a.in[i]->cur[r] == want)) continue;
      if (e.move == VgprEffects::Move::Copy && r == e.writeFirst &&
          a.in[i]->cur[e.moveSrc % kVgprs] == want)
        continue;
      if (e.dualWrite && e.dualCopy && r == *e.dualWrite &&
          a.in[i]->cur[e.dualMoveSrc % kVgprs] == want)
        continue;
      return {a.where(i) + " overwrites " + vreg(r, 1) + ", which holds " + what +
                  ", before it reaches Out (the driver rewrites the value)",
              true};
    }
  }
  return {what + " reaches no Out store unchanged", false};
}

// Every component that reaches Out must reach dword k of one address, and nothing else may be
// stored there: appends each way that fails to `breaks` (and, to the entry of a component that
// is stored nowhere, what its Out dword holds instead).
void placementBreaks(const Analysis& a, std::size_t c, unsigned results, const OutSlots& out,
                     const std::vector<std::optional<std::pair<AddrKey, uint32_t>>>& at,
                     const std::vector<std::pair<unsigned, std::size_t>>& missing,
                     std::vector<std::string>& breaks) {
  std::optional<AddrKey> key;
  bool split = false;
  for (const auto& slot : at)
    if (slot) {
      if (key && !(*key == slot->first)) split = true;
      if (!key) key = slot->first;
    }
  if (split) breaks.push_back("the result components reach Out through different addresses");
  if (key && !split) {
    uint32_t minOff = UINT32_MAX;
    for (const auto& [slot, tags] : out)
      if (slot.first == *key) minOff = std::min(minOff, slot.second);
    std::string order;
    bool permuted = false;
    for (unsigned k = 0; k < results; ++k) {
      if (!at[k]) continue;
      const uint32_t dword = (at[k]->second - minOff) / 4;
      permuted = permuted || dword != k;
      order += (order.empty() ? "" : ", ") + std::string("component ") + std::to_string(k) +
               " -> Out dword " + std::to_string(dword);
    }
    if (permuted)
      breaks.push_back("the driver permutes the result components (" + order +
                       "); the route stores them in order");
    // A component that is not stored: say what its Out dword holds instead.
    for (const auto& [k, entry] : missing) {
      const auto it = out.find({*key, minOff + 4u * k});
      if (it == out.end() || it->second.empty()) continue;
      breaks[entry] += "; Out dword " + std::to_string(k) + " holds " +
                       a.describe(it->second.front().first) + " instead";
    }
    for (unsigned k = 0; k < results && !permuted; ++k) {
      if (!at[k]) continue;
      const Tag want{Tag::K::Def, static_cast<uint32_t>(c), static_cast<uint16_t>(k)};
      for (const auto& [t, i] : out.at(*at[k]))
        if (!(t == want)) {
          breaks.push_back("the Out dword of component " + std::to_string(k) +
                           " is also written with " + a.describe(t) + " by " + a.where(i));
          break;
        }
    }
  }
}

// Every dword an Out store writes is result k of the storing lane, in that lane's slot: the
// store's address is a term of the lane id equal to the slot's, for every lane at once. A
// component the partial proof leaves out (not in `partial`, when that is not 0) is not judged;
// dwords of the lane's slot past its results that the route never reads set `unreadSlots`.
// Returns why a store breaks this, "" when none does.
std::string laneSlotStores(const Analysis& a, std::size_t c, unsigned results, uint32_t partial,
                           const routes::DataPath& path, bool& unreadSlots) {
  const LaneTerm slot0{a.lanes->laneBytes, 0};
  for (std::size_t i = 0; i < a.code.size(); ++i) {
    if (!a.in[i] || !a.buffer[i] || !a.onSlot(i, *path.out)) continue;
    const gcn::Instruction& st = *a.buffer[i];
    if (st.op->kind != gcn::OpKind::Store && st.op->kind != gcn::OpKind::StoreFormat) continue;
    std::string why;
    const std::optional<LaneTerm> stored = bufferOffset(a, i, why);
    if (!stored) {
      return a.where(i) + " stores to Out at an address the proof cannot tie to the lane's slot (" +
             why + "): it may overwrite any lane's result";
    }
    const unsigned m = widestVdataRegs(a.gen, st) - (st.tfe ? 1u : 0u);
    for (unsigned j = 0; j < m; ++j) {
      const LaneTerm byte{stored->a, stored->b + 4 * static_cast<int64_t>(j)};
      std::optional<unsigned> component;
      for (unsigned k = 0; k < results; ++k)
        if (byte == LaneTerm{slot0.a, 4 * static_cast<int64_t>(k)}) component = k;
      // A dword of the lane's own slot past its results, where the route reads back only the
      // results (DataPath::unreadSlotsPastResults): never compared, and no result of any
      // lane.
      bool unread = false;
      for (unsigned k = results;
           path.unreadSlotsPastResults && k < a.lanes->laneBytes / 4 && !component; ++k)
        unread = unread || byte == LaneTerm{slot0.a, 4 * static_cast<int64_t>(k)};
      if (unread) {
        unreadSlots = true;
        continue;
      }
      if (!component) {
        return a.where(i) + " writes Out byte " + laneTermText(byte) +
               ", which is no result slot of the storing lane (" + laneTermText(slot0) +
               " + 4k for component k < " + std::to_string(results) + ")";
      }
      const Tag want{Tag::K::Def, static_cast<uint32_t>(c), static_cast<uint16_t>(*component)};
      const Tag got = a.in[i]->cur[(st.vdata + j) % kVgprs];
      // A component the partial proof leaves out holds the driver's rewrite: not judged.
      if (partial != 0 && !(partial & (1u << *component))) continue;
      if (!(got == want)) {
        return a.where(i) + " writes the lane's Out dword " + std::to_string(*component) +
               " with " + a.describe(got) + ", not result component " + std::to_string(*component);
      }
    }
  }
  return "";
}

// The results link: "results v[4:7] reach Out dwords 0-3 through copies", or a partial proof's
// components, with the lane's slot where the route has a lane layout.
std::string resultsLink(const Analysis& a, const gcn::Instruction& ci, unsigned results,
                        uint32_t partial) {
  std::string which;  // "results v[4:7] reach Out dwords 0-3", or the partial's components
  if (partial == 0) {
    which =
        "results " + vreg(ci.vdata, results) + " reach Out dwords 0-" + std::to_string(results - 1);
  } else {
    std::string registers, dwords;
    for (unsigned k = 0; k < results; ++k)
      if (partial & (1u << k)) {
        registers += (registers.empty() ? "" : ", ") + vreg(ci.vdata + k, 1);
        dwords += (dwords.empty() ? "" : ", ") + std::to_string(k);
      }
    which = "result components " + dwords + " of " + std::to_string(results) + " (" + registers +
            ") reach Out dwords " + dwords;
  }
  return which + " through copies" +
         (a.lanes ? ", each in the storing lane's slot (Out byte " +
                        laneTermText(LaneTerm{a.lanes->laneBytes, 0}) + " + 4k)"
                  : std::string());
}

// Store and atomic data, and the registers a D16 load writes half of, are In words, unchanged
// and in order.
// Appends the links to `links`; returns why the data is not that, "" when it is.
std::string dataLinks(const Analysis& a, const gcn::Instruction& ci, const State& atCase,
                      bool takesData, unsigned regs, const routes::DataPath& path,
                      std::vector<std::string>& links) {
  if (takesData && path.dataFromLds) {
    links.push_back(
        "data from LDS, which the template fills from In (assumed: LDS "
        "contents are not traced)");
  } else if (takesData && !ci.op->ldsData) {
    const unsigned data = regs - (ci.tfe ? 1u : 0u);
    std::optional<std::pair<AddrKey, uint32_t>> base;
    for (unsigned k = 0; k < data; ++k) {
      const Tag t = atCase.cur[(ci.vdata + k) % kVgprs];
      const std::string what = "VDATA register " + vreg(ci.vdata + k, 1);
      if (a.lanes) {
        // Data word k of the lane: In byte inData + laneBytes*l + 4k.
        const LaneTerm want{a.lanes->laneBytes, a.lanes->inData + 4 * static_cast<int64_t>(k)};
        std::string why;
        const std::optional<LaneTerm> at = inWordOffset(a, t, path.in, why);
        if (!at || !(*at == want)) {
          return what + " holds " + (at ? "In's word at byte " + laneTermText(*at) : why) +
                 ", not the lane's data word " + std::to_string(k) + " (In byte " +
                 laneTermText(want) + ")";
        }
        continue;
      }
      if (t.k != Tag::K::Def || !a.isLoadOn(t.insn, path.in)) {
        return what + " holds " + a.describe(t) + ", not an In word unchanged";
      }
      const auto pos = inPosition(a, t);
      if (!pos) {
        return what + ": the In load " + a.where(t.insn) + " is unreachable";
      }
      if (k == 0) base = pos;
      if (!(pos->first == base->first) || pos->second != base->second + 4u * k) {
        return what + " holds an In word from another position than word " + std::to_string(k) +
               " of the lane's data (words permuted)";
      }
    }
    links.push_back("VDATA " + vreg(ci.vdata, data) +
                    (a.lanes ? " = the lane's In data words (In byte " +
                                   laneTermText(LaneTerm{a.lanes->laneBytes, a.lanes->inData}) +
                                   " + 4k), unchanged"
                             : " = In words, unchanged"));
  }
  return "";
}

// SOFFSET's link: the constant the descriptor trace found on every path, else an assumption.
std::string soffsetLink(const Analysis& a, const gcn::Instruction& ci, std::size_t caseIndex) {
  const std::string reg =
      ci.soffset == gcn::m0SgprCode(a.gen) ? std::string("m0") : "s" + std::to_string(ci.soffset);
  if (const std::optional<uint32_t> v =
          caseIndex < a.traced.size() ? a.traced[caseIndex].soffsetConstant : std::nullopt)
    return "SOFFSET " + reg + " = " + gcn::hexWord(*v) +
           ", a constant on every path to the instruction";
  return "SOFFSET " + reg + " assumed to hold the route's value (not one constant the trace " +
         "follows)";
}

// VADDR is formed from In words (or the vertex index) as the route documents. The vertex
// id arrives where RADV's stage arguments put it on the generation (descriptor_trace.h),
// else where the route says.
// Appends the links (SOFFSET's too) to `links`; returns why VADDR is not formed so, "" when it
// is.
std::string addressLinks(const Analysis& a, const gcn::Instruction& ci, const State& atCase,
                         std::span<const SgprEntryCopies> sgprs, const DataPathRequest& req,
                         std::vector<std::string>& links) {
  const routes::DataPath& path = req.path;
  const unsigned vertexIdVgpr = req.roles.vertexIdVgpr >= 0
                                    ? static_cast<unsigned>(req.roles.vertexIdVgpr)
                                    : path.vertexIdVgpr;
  for (unsigned j = 0; j < gcn::vaddrRegs(ci); ++j) {
    const unsigned r = ci.vaddr + j;
    const Tag t = atCase.cur[r % kVgprs];
    const std::string what = "VADDR register " + vreg(r, 1);
    // An In word; with a lane layout, the lane's own address word (In byte inAddressWord + 4l).
    std::string notTheLanes;
    const std::optional<LaneTerm> addressWord =
        a.lanes ? std::optional<LaneTerm>(LaneTerm{4, a.lanes->inAddressWord}) : std::nullopt;
    const auto isInWord = [&](const Tag& x) {
      if (x.k != Tag::K::Def || !a.isLoadOn(x.insn, path.in)) return false;
      if (!addressWord) return true;
      std::string why;
      const std::optional<LaneTerm> at = inWordOffset(a, x, path.in, why);
      if (at && *at == *addressWord) return true;
      notTheLanes = (at ? "In's word at byte " + laneTermText(*at) : why) +
                    ", not the lane's address word (In byte " + laneTermText(*addressWord) + ")";
      return false;
    };
    const std::string inWordName =
        addressWord ? "the lane's In word (byte " + laneTermText(*addressWord) + ")"
                    : std::string("an In word");
    if (path.address != routes::DataPath::Address::VertexIndex && isInWord(t)) {
      links.push_back(what + " = " + inWordName);
      continue;
    }
    bool ok = false;
    std::string how;
    if (t.k == Tag::K::Def && a.in[t.insn]) {
      const VgprEffects& e = a.effects[t.insn];
      const State& s = *a.in[t.insn];
      const std::vector<uint32_t>& w = a.words[t.insn];
      const std::optional<LaneOp> laneOp = laneOpOf(e.name);
      if (path.address == routes::DataPath::Address::AlignedInputWords && laneOp == LaneOp::And &&
          !e.modifiers && path.alignBytes > 1) {
        const uint32_t mask = ~(path.alignBytes - 1u);
        for (int x = 0; x < 2 && !ok; ++x) {
          const int other = e.src[1 - x];
          ok = constantOperand(e.src[x], w) == mask && other >= 256 &&
               isInWord(s.cur[static_cast<unsigned>(other - 256) % kVgprs]);
        }
        how = inWordName + " ANDed with " + std::to_string(static_cast<int32_t>(mask));
      }
      if (path.address == routes::DataPath::Address::VertexIndex && laneOp == LaneOp::Add &&
          !e.modifiers && t.insn < sgprs.size()) {
        for (int x = 0; x < 2 && !ok; ++x) {
          const int v = e.src[1 - x], sg = e.src[x];
          ok = v >= 256 && sg >= 0 && sg < 128 && req.roles.baseVertexSgpr >= 0 &&
               s.cur[static_cast<unsigned>(v - 256) % kVgprs] ==
                   Tag{Tag::K::Entry, 0, static_cast<uint16_t>(vertexIdVgpr)} &&
               sgprs[t.insn][static_cast<std::size_t>(sg)] == req.roles.baseVertexSgpr;
        }
        how = "the vertex id plus the base vertex";
      }
    }
    if (!ok) {
      // notTheLanes already says which In word it holds and which it should.
      return what + " holds " +
             (!notTheLanes.empty() ? notTheLanes
                                   : a.describe(t) + ", not " +
                                         (path.address == routes::DataPath::Address::VertexIndex
                                              ? std::string("the vertex index (vertex id "
                                                            "+ base vertex)")
                                              : std::string("an In word"))) +
             ": the driver changes the address";
    }
    links.push_back(what + " = " + how);
  }
  if (ci.soffset < 128) links.push_back(soffsetLink(a, ci, req.caseIndex));
  return "";
}

// How many result components the case instruction returns (a compare-swap returns half its
// data registers; TFE's status dword counts as one).
unsigned resultComponents(gcn::Gen gen, const gcn::Instruction& ci) {
  if (!gcn::returnsData(ci.op->kind, ci.glc)) return 0;
  const unsigned regs = widestVdataRegs(gen, ci);
  const bool cmpswap =
      ci.op->atomic == gcn::AtomicOp::Cmpswap || ci.op->atomic == gcn::AtomicOp::Fcmpswap;
  if (!cmpswap) return regs;
  return (regs - (ci.tfe ? 1u : 0u)) / 2 + (ci.tfe ? 1u : 0u);
}

// Whether the case instruction's VDATA must be the lane's In data. A D16 load that writes half
// of a register keeps (or may clear) the other half, which the verdict compares: its VDATA must
// be the lane's In data too, as a store's. Packed D16 (gfx810, gfx9) keeps a half with D16_HI or
// an odd number of halves; gfx8.0 unpacked D16 writes the low half of every register, and the
// generation alone does not tell gfx8.0 from gfx810.
bool takesInData(gcn::Gen gen, const gcn::Instruction& ci) {
  const gcn::OpKind kind = ci.op->kind;
  const bool keepsHalves = ci.op->d16 &&
                           (kind == gcn::OpKind::Load || kind == gcn::OpKind::LoadFormat) &&
                           (gen == gcn::Gen::Gfx8 || ci.op->d16Hi || ci.op->components % 2 != 0);
  return gcn::writesMemory(kind) || keepsHalves;
}

// An Out address the proof cannot compare (see AddrKey) may be any other store's: with more
// than one Out store, one of them could overwrite a result component. The reason, or empty.
std::string incomparableOutStore(const Analysis& a, const OutSlots& out) {
  std::set<std::size_t> outStores;
  std::optional<std::size_t> incomparable;
  for (const auto& [slot, tags] : out)
    for (const auto& [t, i] : tags) {
      outStores.insert(i);
      if (slot.first.alone != kComparable) incomparable = slot.first.alone;
    }
  if (!incomparable || outStores.size() <= 1) return "";
  return a.where(*incomparable) +
         " stores to Out at an address the proof cannot compare with the other Out stores' (a "
         "VADDR value it cannot follow, or an SGPR SOFFSET): it may overwrite a result";
}

// Which result components reach Out: the reason the results break (empty when they hold, or
// when only some components are missing and `partial` then has those that reach Out, with
// `partialReason` saying why the others do not).
std::string resultComponentsAtOut(const Analysis& a, std::size_t c, unsigned vdata,
                                  unsigned results, const OutSlots& out, uint32_t& partial,
                                  std::string& partialReason) {
  std::vector<std::string> breaks;
  std::vector<std::pair<unsigned, std::size_t>> missing;  // component, its entry in breaks
  std::vector<std::optional<std::pair<AddrKey, uint32_t>>> at(results);
  for (unsigned k = 0; k < results; ++k) {
    const Tag want{Tag::K::Def, static_cast<uint32_t>(c), static_cast<uint16_t>(k)};
    for (const auto& [slot, tags] : out)
      for (const auto& [t, i] : tags)
        if (t == want && !at[k]) at[k] = slot;
    if (at[k]) continue;
    const NotAtOut no = whyNotAtOut(a, c, vdata, k);
    if (!no.overwritten) missing.push_back({k, breaks.size()});
    breaks.push_back(no.why);
  }
  // Every component that reaches Out must reach dword k of one address (placementBreaks).
  placementBreaks(a, c, results, out, at, missing, breaks);
  partial = 0;
  if (breaks.empty()) return "";
  // Components that reach no Out slot come first in `breaks`, one entry each. When they are the
  // only breaks and some component does reach its slot, the proof is partial: those components
  // are proven (if the rest holds), the others are the driver's rewrite.
  unsigned absent = 0;
  for (unsigned k = 0; k < results; ++k) {
    if (!at[k])
      ++absent;
    else
      partial |= 1u << k;
  }
  std::string reason = breaks.front();
  for (std::size_t j = 1; j < breaks.size(); ++j)
    reason += "; " + breaks[j];
  if (breaks.size() != absent || absent == results) {
    partial = 0;
    return reason;
  }
  partialReason = reason;
  return "";
}

// 1. Results reach Out through copies, in order: the reason they do not, or empty with the
// links (and `partial`, see resultComponentsAtOut).
std::string resultLinks(const Analysis& a, const gcn::Instruction& ci, std::size_t c,
                        unsigned results, const routes::DataPath& path,
                        std::vector<std::string>& links, std::vector<std::string>& assumed,
                        uint32_t& partial, std::string& partialReason) {
  const OutSlots out = outStoreSlots(a, *path.out);
  if (std::string why = incomparableOutStore(a, out); !why.empty()) return why;
  if (std::string why = resultComponentsAtOut(a, c, ci.vdata, results, out, partial, partialReason);
      !why.empty())
    return why;
  // Each Out store in the storing lane's slot (laneSlotStores).
  bool unreadSlots = false;
  if (a.lanes) {
    if (std::string why = laneSlotStores(a, c, results, partial, path, unreadSlots); !why.empty())
      return why;
  }
  links.push_back(resultsLink(a, ci, results, partial));
  if (unreadSlots)
    links.push_back("Out dwords " + std::to_string(results) + "-" +
                    std::to_string(a.lanes->laneBytes / 4 - 1) +
                    " of a lane's slot are stored but not read (no result of any lane)");
  if (!a.lanes)
    assumed.push_back(
        "Out address assumed to be the lane's slot (the route's shader picks it in a loop over "
        "In that the proof does not evaluate)");
  return "";
}

// 4. EXEC per lane and every path (lane-shader routes; assumed on the others).
std::string execLinks(const Analysis& a, std::size_t c, unsigned resultCount, uint32_t partial,
                      const routes::DataPath& path, std::vector<std::string>& links,
                      std::vector<std::string>& assumed) {
  if (!a.lanes) {
    assumed.push_back(
        "EXEC and paths assumed (the route's shader selects its lanes in a loop over In that "
        "the proof does not evaluate, so it does not check that each copy and store runs on "
        "every lane that needs it)");
    return "";
  }
  const uint32_t required = partial != 0        ? partial
                            : resultCount >= 32 ? ~0u
                                                : (1u << resultCount) - 1u;
  if (std::string why = execAndPaths(a, c, resultCount, required, path); !why.empty()) return why;
  links.push_back(std::string("EXEC = exactly the enabled lanes (In byte ") +
                  laneTermText(LaneTerm{4, a.lanes->inEnableWord}) +
                  " not 0) at the case instruction" +
                  (resultCount > 0 ? " and every Out store" : "") +
                  "; every path with an enabled lane runs it once" +
                  (resultCount > 0 ? " and stores every result component" : ""));
  return "";
}

}  // namespace

DataPathProof proveDataPath(gcn::Gen gen, std::span<const AsmInstruction> code,
                            std::span<const TracedDescriptor> traced,
                            std::span<const SgprEntryCopies> sgprs, const DataPathRequest& req) {
  DataPathProof proof;
  const routes::DataPath& path = req.path;
  if (!path.out) {
    proof.reason = "the route names no Out buffer, so no data path can be proven";
    return proof;
  }
  const std::size_t n = code.size();
  if (req.caseIndex >= n) {
    proof.reason = "the case instruction is not in the listing";
    return proof;
  }
  std::vector<std::vector<uint32_t>> words(n);
  for (std::size_t i = 0; i < n; ++i)
    words[i] = code[i].words;
  Analysis a{gen, code, traced, {}, {}, {}, words, {}, {}, {}, path.lanes, {}};
  const std::vector<std::optional<gcn::CodeInstruction>> scan = decodeListing(a);
  if (std::string why = unfollowable(a, scan); !why.empty()) {
    proof.reason = std::move(why);
    return proof;
  }
  vgprFlow(a);

  const std::size_t c = req.caseIndex;
  if (!a.in[c] || !a.buffer[c]) {
    proof.reason = "the case instruction " + a.where(c) + " is unreachable or not decoded";
    return proof;
  }
  const gcn::Instruction& ci = *a.buffer[c];
  const State& atCase = *a.in[c];
  const unsigned resultCount = resultComponents(gen, ci);
  std::vector<std::string> assumed;  // links that hold only by the route's word
  // A partial proof (DataPathProof::components): the result components that reach Out, when
  // others do not; `partialReason` says why those do not.
  uint32_t partial = 0;
  std::string partialReason;
  // 0. Memory writes other than the case instruction's (otherMemoryWrites); 1. results
  // (resultLinks); 2. store and atomic data (dataLinks); 3. VADDR and SOFFSET (addressLinks);
  // 4. EXEC and paths (execLinks).
  proof.reason = otherMemoryWrites(a, scan, path, c, assumed);
  if (proof.reason.empty() && gcn::returnsData(ci.op->kind, ci.glc))
    proof.reason =
        resultLinks(a, ci, c, resultCount, path, proof.links, assumed, partial, partialReason);
  if (proof.reason.empty())
    proof.reason =
        dataLinks(a, ci, atCase, takesInData(gen, ci), widestVdataRegs(gen, ci), path, proof.links);
  if (proof.reason.empty()) proof.reason = addressLinks(a, ci, atCase, sgprs, req, proof.links);
  if (proof.reason.empty())
    proof.reason = execLinks(a, c, resultCount, partial, path, proof.links, assumed);
  if (!proof.reason.empty()) return proof;
  // 5. Registers read or overwritten before a memory instruction's result returns: the flows
  // above follow values the hardware does not deliver then (memory_hazards.h).
  if (const std::optional<MemoryHazard> h =
          firstMemoryHazard(gen, words, a.effects, a.cls, a.sgprWrites)) {
    proof.reason =
        a.where(h->index) + " " + h->what + ", written by " + a.where(h->writer) + ", " + h->why;
    proof.components = 0;
    proof.links.clear();
    return proof;
  }
  proof.links.push_back(
      "every register is read after the memory instruction that writes it has returned "
      "(s_waitcnt)");
  proof.links.insert(proof.links.end(), assumed.begin(), assumed.end());
  if (partial != 0) {
    proof.components = partial;
    proof.reason = partialReason;
    return proof;
  }
  proof.proven = true;
  return proof;
}

}  // namespace gcnprobe::isa
