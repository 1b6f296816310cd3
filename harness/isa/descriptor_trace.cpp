#include "harness/isa/descriptor_trace.h"

#include "harness/isa/instruction_effects.h"

#include <algorithm>
#include <array>
#include <map>

#include "reference/code_scan.h"
#include "reference/encoding.h"
#include "reference/error.h"
#include "reference/opcodes.h"
#include "reference/scalar_table.h"
#include "reference/text.h"
#include "reference/vgpr_table.h"

namespace gcnprobe::isa {

uint32_t radvAddress32Hi(gcn::Gen gen) {
  return gen >= gcn::Gen::Gfx9 ? 0xffff8000u : 0u;
}
namespace {

// SGPR numbers 0..127 (s0-s101, flat_scratch/xnack, vcc 106/107, ttmp, m0 124, exec 126/127).
constexpr unsigned kSgprs = 128;
constexpr unsigned kVcc = 106;

struct Val {
  enum class K : uint8_t { Unknown, Arg, Const, DescWord };
  K k = K::Unknown;
  unsigned arg = 0;       // Arg: the SGPR's number at entry; DescWord: the pointer argument
  uint32_t offset = 0;    // DescWord: byte offset of this dword in the pointed-to table
  uint32_t constant = 0;  // Const
  bool operator==(const Val&) const = default;
};
using SgprState = std::array<Val, kSgprs>;

void setUnknown(SgprState& s, unsigned first, unsigned count) {
  for (unsigned i = first; i < first + count && i < kSgprs; ++i)
    s[i] = Val{};
}

// A scalar source operand (SSRC0): SGPR, inline integer constant or literal.
Val sourceVal(const SgprState& s, unsigned src, const std::vector<uint32_t>& words) {
  if (src < 104) return s[src];
  if (const auto v = gcn::integerInlineValue(src))
    return Val{Val::K::Const, 0, 0, static_cast<uint32_t>(*v)};
  if (src == 255 && words.size() > 1) return Val{Val::K::Const, 0, 0, words[1]};
  return Val{};
}

// The high half of RADV's 32-bit pointers (descriptor sets, the vertex buffer table): the
// argument SGPR holds the low half and the shader sets the high one to the driver's
// address32_hi, the high dword of the 32-bit part of the GPU's address space: 0xffff8000 from
// GFX9 on, where amdgpu's 48-bit address space puts it above the hole at 2^47, and 0 before
// (Mesa: src/amd/common/ac_gpu_info.c and the null winsys set it so; ACO's load of a 32-bit
// pointer, load_desc_ptr / convert_pointer_to_64_bit, writes it with s_mov_b32 or s_movk_i32).
// A pointer whose high half is anything else points elsewhere.
uint32_t address32Hi(gcn::Gen gen) {
  return radvAddress32Hi(gen);
}

// A scalar load of `count` dwords into sdst from the pointer in s[sbase:sbase+1] at
// `byteOffset` (nullopt: offset not an immediate). Traced only when the low half is an argument
// and the high half the constant address32Hi.
void scalarLoad(gcn::Gen gen, SgprState& s, unsigned sdst, unsigned count, unsigned sbase,
                std::optional<uint32_t> byteOffset) {
  const Val base = s[sbase];
  const Val high = sbase + 1 < kSgprs ? s[sbase + 1] : Val{};
  const bool highKnown = high.k == Val::K::Const && high.constant == address32Hi(gen);
  for (unsigned k = 0; k < count && sdst + k < kSgprs; ++k) {
    if (base.k == Val::K::Arg && highKnown && byteOffset)
      s[sdst + k] = Val{Val::K::DescWord, base.arg, *byteOffset + 4 * k, 0};
    else
      s[sdst + k] = Val{};
  }
}

// The VOP3 opcode: [25:17] on gfx6/7, [25:16] from gfx8 on.
unsigned vop3Opcode(gcn::Gen gen, uint32_t w0) {
  return gen >= gcn::Gen::Gfx8 ? (w0 >> 16) & 0x3ff : (w0 >> 17) & 0x1ff;
}

// VOP3 opcodes whose VDST is an SGPR (v_readlane_b32): gfx6/7 v_readlane_b32 is VOP2 op 1
// (e64 257), gfx8/9 0x289 (llvm-mc 14); on RDNA the VGPR table's mnemonic decides (an opcode it
// does not know counts as writing SGPRs). VOP3b carry-outs: vop3bCarryOut
// (instruction_effects.h).
bool vop3WritesSgprVdst(gcn::Gen gen, unsigned op) {
  if (op < 256) return true;  // VOPC as VOP3: an SGPR (pair) destination
  if (gcn::isRdna(gen)) {
    const gcn::VgprOpInfo* info = gcn::findVgprOp(gen, gcn::VgprClass::Valu, op);
    return info == nullptr || info->behaviour == gcn::VgprBehaviour::Readlane;
  }
  return op == (gcn::isGfx8Or9(gen) ? 0x289u : 257u);
}

// SGPRs a SOP1 / SOP2 / SOPK opcode's SDST writes (reference/scalar_table.h); an opcode the
// table does not know counts as writing two.
unsigned scalarDestCount(gcn::Gen gen, gcn::ScalarClass cls, unsigned op) {
  const gcn::ScalarOpInfo* info = gcn::findScalarOp(gen, cls, op);
  return info != nullptr ? info->dstSgprs : 2;
}
// What the scalar table models of the opcode (ScalarBehaviour::None when it does not know it).
gcn::ScalarBehaviour behaviourOf(gcn::Gen gen, gcn::ScalarClass cls, unsigned op) {
  return gcn::scalarBehaviour(gen, cls, op).value_or(gcn::ScalarBehaviour::None);
}

void sop1Transfer(gcn::Gen gen, const std::vector<uint32_t>& w, SgprState& s) {
  const uint32_t w0 = w[0];
  const unsigned sdst = (w0 >> 16) & 0x7f, op = (w0 >> 8) & 0xff, src = w0 & 0xff;
  const gcn::ScalarBehaviour b = behaviourOf(gen, gcn::ScalarClass::Sop1, op);
  const unsigned width = scalarDestCount(gen, gcn::ScalarClass::Sop1, op);
  if (b == gcn::ScalarBehaviour::Mov && width == 1) {  // s_mov_b32
    const Val v = sourceVal(s, src, w);
    if (sdst < kSgprs) s[sdst] = v;
  } else if (b == gcn::ScalarBehaviour::Mov && width == 2) {  // s_mov_b64
    // A 64-bit copy of an SGPR pair; a 64-bit constant's high half is not tracked.
    const Val lo = src < 104 ? s[src] : sourceVal(s, src, w);
    const Val hi = src < 103 ? s[src + 1] : Val{};
    if (sdst < kSgprs) s[sdst] = lo;
    if (sdst + 1 < kSgprs) s[sdst + 1] = hi;
  } else if (b == gcn::ScalarBehaviour::MovRelDst || b == gcn::ScalarBehaviour::MovRelBoth) {
    setUnknown(s, 0, kSgprs);  // SGPR[SDST + M0]: M0 is not followed
  } else {
    setUnknown(s, sdst, width);
  }
}

void sopkTransfer(gcn::Gen gen, uint32_t w0, SgprState& s) {
  const unsigned sdst = (w0 >> 16) & 0x7f, op = (w0 >> 23) & 0x1f;
  if (behaviourOf(gen, gcn::ScalarClass::Sopk, op) == gcn::ScalarBehaviour::Movk && sdst < kSgprs)
    s[sdst] = Val{Val::K::Const, 0, 0,
                  static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(w0)))};
  else
    // At least one SGPR: s_subvector_loop_* save EXEC's other half in SDST, which LLVM does not
    // count as a write.
    setUnknown(s, sdst, std::max(1u, scalarDestCount(gen, gcn::ScalarClass::Sopk, op)));
}

// SMRD (gfx6/7): [26:22] OP, [21:15] SDST, [14:9] SBASE (pair), [8] IMM, [7:0] OFFSET (dwords
// when IMM; gfx7: OFFSET 255 without IMM = a literal dword offset in the next word).
void smrdTransfer(gcn::Gen gen, const std::vector<uint32_t>& w, SgprState& s) {
  const uint32_t w0 = w[0];
  const unsigned op = (w0 >> 22) & 0x1f, sdst = (w0 >> 15) & 0x7f;
  const unsigned sbase = ((w0 >> 9) & 0x3f) * 2, off = w0 & 0xff;
  const bool imm = (w0 >> 8) & 1;
  std::optional<uint32_t> byteOffset;
  if (imm)
    byteOffset = off * 4;
  else if (off == 255 && w.size() > 1)
    byteOffset = w[1] * 4;
  if (op <= 4)
    scalarLoad(gen, s, sdst, 1u << op, sbase, byteOffset);
  else if (op >= 8 && op <= 12)
    setUnknown(s, sdst, 1u << (op - 8));  // s_buffer_load
  else
    setUnknown(s, sdst, 2);  // s_memtime ...
}

// SMEM (gfx8+): [25:18] OP, [17] IMM, [14] SOE (gfx9), [12:6] SDATA, [5:0] SBASE (pair); word 1
// [19:0] the byte offset when IMM. RDNA has no IMM: word 1 holds OFFSET [20:0] (signed) and
// SOFFSET [31:25], an SGPR added to it unless it is NULL (125 on gfx10/10.3, 124 on gfx11;
// llvm-mc 15: f4080101 fa000010 is "s_load_dwordx4 s[4:7], s[2:3], 0x10" on gfx1010, f4080101
// f8000010 on gfx1100). The load opcodes are those of gfx8/9.
void smemTransfer(gcn::Gen gen, const std::vector<uint32_t>& w, SgprState& s) {
  const uint32_t w0 = w[0];
  const unsigned op = (w0 >> 18) & 0xff, sdata = (w0 >> 6) & 0x7f, sbase = (w0 & 0x3f) * 2;
  std::optional<uint32_t> byteOffset;
  if (gcn::isRdna(gen)) {
    const unsigned soffset = w.size() > 1 ? w[1] >> 25 : 0;
    const int32_t offset = w.size() > 1 ? static_cast<int32_t>(w[1] << 11) >> 11 : -1;
    if (soffset == gcn::nullSgprCode(gen) && offset >= 0)
      byteOffset = static_cast<uint32_t>(offset);
  } else {
    const bool imm = (w0 >> 17) & 1, soe = gen == gcn::Gen::Gfx9 && ((w0 >> 14) & 1);
    if (imm && !soe && w.size() > 1) byteOffset = w[1] & 0xfffff;
  }
  if (op <= 4)
    scalarLoad(gen, s, sdata, 1u << op, sbase, byteOffset);
  else if (op >= 8 && op <= 12)
    setUnknown(s, sdata, 1u << (op - 8));
  else
    setUnknown(s, sdata, 4);  // stores, s_memtime, gfx9 atomics with return
}

// The SGPRs a VALU instruction writes: VCC, a lane read's SGPR, a VOP3's SDST or carry-out.
void valuTransfer(gcn::Gen gen, gcn::CodeClass cls, const std::vector<uint32_t>& w, SgprState& s) {
  const uint32_t w0 = w[0];
  switch (cls) {
    case gcn::CodeClass::Vop1:
      if (((w0 >> 9) & 0xff) == 2) setUnknown(s, (w0 >> 17) & 0xff, 1);  // v_readfirstlane_b32
      return;
    case gcn::CodeClass::Vop2:
      if (gen <= gcn::Gen::Gfx7 && ((w0 >> 25) & 0x3f) == 1)  // gfx6/7 v_readlane_b32
        setUnknown(s, (w0 >> 17) & 0xff, 1);
      setUnknown(s, kVcc, 2);  // carry-out and VOPC-like VOP2 ops write VCC
      return;
    case gcn::CodeClass::Vopc:
      setUnknown(s, kVcc, 2);
      // SDWA (SRC0 249) on gfx9/gfx10: SD [47] set writes SDST [46:40] instead of VCC.
      if ((gen == gcn::Gen::Gfx9 || gen == gcn::Gen::Gfx10 || gen == gcn::Gen::Gfx10_3) &&
          (w0 & 0x1ff) == 249 && w.size() > 1 && ((w[1] >> 15) & 1))
        setUnknown(s, (w[1] >> 8) & 0x7f, 2);
      return;
    default: {  // VOP3
      const unsigned op = vop3Opcode(gen, w0);
      if (vop3WritesSgprVdst(gen, op)) setUnknown(s, w0 & 0xff, 2);
      if (vop3bCarryOut(gen, op)) setUnknown(s, (w0 >> 8) & 0x7f, 2);
      setUnknown(s, kVcc, 2);
      return;
    }
  }
}

// Applies one instruction to the state.
void transfer(gcn::Gen gen, gcn::CodeClass cls, const std::vector<uint32_t>& w, SgprState& s) {
  switch (cls) {
    case gcn::CodeClass::Sop1:
      return sop1Transfer(gen, w, s);
    case gcn::CodeClass::Sop2:
      return setUnknown(s, (w[0] >> 16) & 0x7f,
                        scalarDestCount(gen, gcn::ScalarClass::Sop2, (w[0] >> 23) & 0x7f));
    case gcn::CodeClass::Sopk:
      return sopkTransfer(gen, w[0], s);
    case gcn::CodeClass::Smrd:
      return smrdTransfer(gen, w, s);
    case gcn::CodeClass::Smem:
      return smemTransfer(gen, w, s);
    case gcn::CodeClass::Vop1:
    case gcn::CodeClass::Vop2:
    case gcn::CodeClass::Vopc:
    case gcn::CodeClass::Vop3:
      return valuTransfer(gen, cls, w, s);
    default:
      // VINTRP, DS, MUBUF, MTBUF, MIMG, EXP, FLAT, SOPC, SOPP and RDNA's VOP3P, VOPD,
      // VINTERP and LDSDIR write no SGPR (VOP3P's VDST is a VGPR).
      return;
  }
}

bool merge(SgprState& into, const SgprState& from) {
  bool changed = false;
  for (unsigned i = 0; i < kSgprs; ++i)
    if (!(into[i] == from[i]) && into[i].k != Val::K::Unknown) {
      into[i] = Val{};
      changed = true;
    }
  return changed;
}

}  // namespace

UserSgprRoles radvUserSgprRoles(gcn::Gen gen, VkShaderStageFlags stages, bool legacyVertexShader) {
  if (stages == VK_SHADER_STAGE_COMPUTE_BIT) return {2, -1, -1, -1};
  if (stages == VK_SHADER_STAGE_VERTEX_BIT) {
    if (gcn::isRdna(gen) && !legacyVertexShader) return {10, 8, 9, 5};
    return {4, 2, 3, 0};
  }
  return {};
}

std::string bufferSlotName(const routes::BufferSlot& s) {
  if (s.kind == routes::BufferSlot::Kind::VertexBuffer)
    return "vertex buffer " + std::to_string(s.index);
  return "set " + std::to_string(s.set) + " binding " + std::to_string(s.index);
}

SgprWrites sgprWrites(gcn::Gen gen, std::span<const uint32_t> words) {
  SgprState s;
  for (unsigned r = 0; r < kSgprs; ++r)
    s[r] = Val{Val::K::Arg, r, 0, 0};
  const SgprState before = s;
  const std::optional<gcn::CodeInstruction> ci =
      words.empty() ? std::nullopt : gcn::tryScanInstruction(gen, words, 0);
  if (!ci)
    setUnknown(s, 0, kSgprs);
  else
    transfer(gen, ci->cls, std::vector<uint32_t>(words.begin(), words.end()), s);
  SgprWrites w;
  for (unsigned r = 0; r < kSgprs; ++r) {
    if (s[r] == before[r])
      w[r] = -1;
    else if (s[r].k == Val::K::Arg)
      w[r] = static_cast<int16_t>(s[r].arg);
    else
      w[r] = -2;
  }
  return w;
}

namespace {

// Buffer instruction i's descriptor: the slot its SRSRC was loaded from, or why it is not known;
// and the constant its SGPR SOFFSET holds.
TracedDescriptor traceOne(gcn::Gen gen, gcn::CodeClass cls, const std::vector<uint32_t>& words,
                          const SgprState& s, const UserSgprRoles& roles) {
  TracedDescriptor t;
  const gcn::Encoding enc =
      cls == gcn::CodeClass::Mubuf ? gcn::Encoding::Mubuf : gcn::Encoding::Mtbuf;
  const std::array<uint32_t, 2> pair{words[0], words[1]};
  const unsigned srsrc = gcn::srsrcFirstSgpr(gen, enc, pair);
  if (const std::optional<uint32_t> so =
          gcn::instFieldValue(gen, enc, gcn::InstField::Soffset, pair);
      so && *so < kSgprs && s[*so].k == Val::K::Const)
    t.soffsetConstant = s[*so].constant;
  const Val& first = s[srsrc];
  bool same = first.k == Val::K::DescWord && first.offset % 16 == 0;
  for (unsigned k = 1; same && k < 4; ++k)
    same = s[srsrc + k].k == Val::K::DescWord && s[srsrc + k].arg == first.arg &&
           s[srsrc + k].offset == first.offset + 4 * k;
  const std::string reg = "s[" + std::to_string(srsrc) + ":" + std::to_string(srsrc + 3) + "]";
  if (!same) {
    t.why = "descriptor not traced: " + reg +
            " is not one 16-byte-aligned scalar load from an argument pointer (its low half an "
            "argument SGPR, its high half the driver's constant " +
            gcn::hexWord(address32Hi(gen)) + ")";
    return t;
  }
  const uint32_t index = first.offset / 16;
  if (static_cast<int>(first.arg) == roles.set0Pointer)
    t.slot = routes::BufferSlot{routes::BufferSlot::Kind::DescriptorSet, 0, index};
  else if (static_cast<int>(first.arg) == roles.vertexBuffersPointer)
    t.slot = routes::BufferSlot{routes::BufferSlot::Kind::VertexBuffer, 0, index};
  else
    t.why = "descriptor not traced: " + reg + " is loaded from the pointer in s" +
            std::to_string(first.arg) + ", which is no known argument of this stage";
  return t;
}

}  // namespace

std::vector<TracedDescriptor> traceDescriptors(gcn::Gen gen,
                                               std::span<const std::vector<uint32_t>> instructions,
                                               const UserSgprRoles& roles,
                                               std::vector<SgprEntryCopies>* entryCopies) {
  const std::size_t n = instructions.size();
  std::vector<std::optional<gcn::CodeClass>> cls(n);
  for (std::size_t i = 0; i < n; ++i)
    if (!instructions[i].empty())
      if (const std::optional<gcn::CodeInstruction> ci =
              gcn::tryScanInstruction(gen, instructions[i], 0))
        cls[i] = ci->cls;
  // Entry: every SGPR holds its own argument value (user SGPRs, then system SGPRs).
  std::vector<std::optional<SgprState>> in(n);
  if (n > 0) {
    SgprState entry;
    for (unsigned i = 0; i < kSgprs; ++i)
      entry[i] = Val{Val::K::Arg, i, 0, 0};
    in[0] = entry;
  }
  // Forward data flow to a fixed point; each SGPR only ever moves towards Unknown.
  forwardFlow<SgprState>(
      gen, instructions, in,
      [&](std::size_t i, const std::optional<gcn::CodeClass>& c, SgprState& s) {
        if (!c || instructions[i].empty())
          setUnknown(s, 0, kSgprs);  // an unknown word: it could write anything
        else
          transfer(gen, *c, instructions[i], s);
      },
      merge, [](SgprState& s) { setUnknown(s, 0, kSgprs); });
  if (entryCopies != nullptr) {
    entryCopies->assign(n, {});
    for (std::size_t i = 0; i < n; ++i)
      for (unsigned r = 0; r < kSgprs; ++r)
        (*entryCopies)[i][r] =
            in[i] && (*in[i])[r].k == Val::K::Arg ? static_cast<int16_t>((*in[i])[r].arg) : -1;
  }
  std::vector<TracedDescriptor> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!cls[i] || !gcn::isBufferClass(*cls[i]) || instructions[i].size() < 2)
      out[i].why = "not a buffer instruction";
    else if (!in[i])
      out[i].why = "unreachable code";
    else
      out[i] = traceOne(gen, *cls[i], instructions[i], *in[i], roles);
  }
  return out;
}

}  // namespace gcnprobe::isa
