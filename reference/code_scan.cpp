#include "reference/code_scan.h"

#include <cstdio>
#include <string>

#include "reference/error.h"
#include "reference/scalar_table.h"
#include "reference/text.h"
#include "reference/vgpr_table.h"

namespace gcn {
namespace {

constexpr uint32_t kLiteral = 255;  // operand code: a 32-bit literal follows the instruction
constexpr uint32_t kSdwa = 249;     // VOP1/2/C SRC0 on gfx8+: an SDWA dword follows
constexpr uint32_t kDpp = 250;      // VOP1/2/C SRC0 on gfx8+: a DPP dword follows
constexpr uint32_t kDpp8 = 233;     // SRC0 on gfx10+: a DPP8 dword follows
constexpr uint32_t kDpp8Fi = 234;   // the same with FI (fetch inactive lanes) set

struct Classified {
  CodeClass cls;
  unsigned dwords;
};

// VOP2 opcodes whose encoding always carries a 32-bit constant (K): v_madmk_*/v_madak_*,
// v_fmamk_*/v_fmaak_*. gfx6/7: v_madmk_f32 = 32, v_madak_f32 = 33; gfx8/9: v_madmk_f32 = 23,
// v_madak_f32 = 24, v_madmk_f16 = 36, v_madak_f16 = 37; gfx10: v_madmk_f32 = 32,
// v_madak_f32 = 33 (gone on gfx10.3 and gfx11), v_fmamk_f32 = 44, v_fmaak_f32 = 45,
// v_fmamk_f16 = 55, v_fmaak_f16 = 56 (LLVM VOP2Instructions.td; llvm-mc words in the test).
bool vop2HasConstant(Gen gen, uint32_t opcode) {
  if (isRdna(gen))
    return opcode == 44 || opcode == 45 || opcode == 55 || opcode == 56 ||
           (gen == Gen::Gfx10 && (opcode == 32 || opcode == 33));
  if (isGfx8Or9(gen)) return opcode == 23 || opcode == 24 || opcode == 36 || opcode == 37;
  return opcode == 32 || opcode == 33;
}

// SOPK opcodes that always carry a constant dword (s_setreg_imm32_b32: scalar_table.h).
bool sopkHasConstant(Gen gen, uint32_t opcode) {
  const ScalarOpInfo* op = findScalarOp(gen, ScalarClass::Sopk, opcode);
  return op != nullptr && op->extraLiteral;
}

// GFX11 VOPD: OPX [25:22] and OPY [21:17] number v_dual_fmaak_f32 1 and v_dual_fmamk_f32 2 in
// both halves; either carries a constant dword (LLVM VOPDInstructions.td).
bool vopdHasConstant(uint32_t w) {
  const uint32_t opx = (w >> 22) & 0xf, opy = (w >> 17) & 0x1f;
  return opx == 1 || opx == 2 || opy == 1 || opy == 2;
}

// RDNA classes by the top bits (the GCN rules differ: VOP3 is 110100 there, SMEM 110000).
bool classifyRdna(Gen gen, uint32_t w, Classified& out) {
  const uint32_t top6 = w >> 26, top8 = w >> 24;
  const bool gfx11 = gen == Gen::Gfx11;
  switch (top6) {
    case 0x38:
      out = {CodeClass::Mubuf, 2};
      return true;
    case 0x3a:
      out = {CodeClass::Mtbuf, 2};
      return true;
    case 0x3c:  // NSA address dwords: gfx10 NSA [2:1] counts them; gfx11 NSA [0] adds one
      out = {CodeClass::Mimg, 2 + (gfx11 ? (w & 1) : (w >> 1) & 3)};
      return true;
    case 0x35:
      out = {CodeClass::Vop3, 2};
      return true;
    case 0x36:
      out = {CodeClass::Ds, 2};
      return true;
    case 0x37:
      out = {CodeClass::Flat, 2};
      return true;
    case 0x3d:
      out = {CodeClass::Smem, 2};
      return true;
    case 0x3e:
      out = {CodeClass::Exp, 2};
      return true;
    case 0x32:
      out = gfx11 ? Classified{CodeClass::Vopd, 2} : Classified{CodeClass::Vintrp, 1};
      return true;
    default:
      break;
  }
  if (top8 == 0xcc) {
    out = {CodeClass::Vop3p, 2};
    return true;
  }
  if (gfx11 && top8 == 0xcd) {
    out = {CodeClass::Vinterp, 2};
    return true;
  }
  if (gfx11 && top8 == 0xce) {
    out = {CodeClass::Ldsdir, 1};
    return true;
  }
  return false;
}

// Encoding and base length of the instruction whose first dword is w (literals added by the
// caller from the operand fields). Returns false for a word no encoding of `gen` matches.
bool classify(Gen gen, uint32_t w, Classified& out) {
  const uint32_t top9 = w >> 23;
  const uint32_t top6 = w >> 26;
  if ((w >> 31) == 0) {  // VOP1 / VOPC / VOP2: [31] = 0
    const uint32_t top7 = w >> 25;
    out = {top7 == 0x3f ? CodeClass::Vop1 : top7 == 0x3e ? CodeClass::Vopc : CodeClass::Vop2, 1};
    return true;
  }
  if ((w >> 30) == 0b10) {  // scalar ALU: [31:30] = 10 (every generation)
    if (top9 == 0x17d)
      out = {CodeClass::Sop1, 1};
    else if (top9 == 0x17e)
      out = {CodeClass::Sopc, 1};
    else if (top9 == 0x17f)
      out = {CodeClass::Sopp, 1};
    else if ((w >> 28) == 0b1011)
      out = {CodeClass::Sopk, 1};
    else
      out = {CodeClass::Sop2, 1};
    return true;
  }
  if (isRdna(gen)) return classifyRdna(gen, w, out);
  switch (top6) {
    case 0x38:
      out = {CodeClass::Mubuf, 2};
      return true;
    case 0x3a:
      out = {CodeClass::Mtbuf, 2};
      return true;
    case 0x3c:
      out = {CodeClass::Mimg, 2};
      return true;
    case 0x34:
      out = {CodeClass::Vop3, 2};  // VOP3 (and VOP3P on gfx9): no literal before gfx10
      return true;
    case 0x36:
      out = {CodeClass::Ds, 2};
      return true;
    case 0x37:
      if (gen == Gen::Gfx6) return false;  // FLAT arrived with gfx7
      out = {CodeClass::Flat, 2};
      return true;
    default:
      break;
  }
  if (isGfx8Or9(gen)) {
    if (top6 == 0x30)
      out = {CodeClass::Smem, 2};
    else if (top6 == 0x31)
      out = {CodeClass::Exp, 2};
    else if (top6 == 0x35)
      out = {CodeClass::Vintrp, 1};
    else
      return false;
    return true;
  }
  if ((w >> 27) == 0x18)
    out = {CodeClass::Smrd, 1};  // [31:27] = 11000
  else if (top6 == 0x32)
    out = {CodeClass::Vintrp, 1};
  else if (top6 == 0x3e)
    out = {CodeClass::Exp, 2};
  else
    return false;
  return true;
}

}  // namespace

std::string_view codeClassName(CodeClass c) {
  switch (c) {
    case CodeClass::Sop2:
      return "sop2";
    case CodeClass::Sopk:
      return "sopk";
    case CodeClass::Sop1:
      return "sop1";
    case CodeClass::Sopc:
      return "sopc";
    case CodeClass::Sopp:
      return "sopp";
    case CodeClass::Smrd:
      return "smrd";
    case CodeClass::Smem:
      return "smem";
    case CodeClass::Vop2:
      return "vop2";
    case CodeClass::Vop1:
      return "vop1";
    case CodeClass::Vopc:
      return "vopc";
    case CodeClass::Vop3:
      return "vop3";
    case CodeClass::Vintrp:
      return "vintrp";
    case CodeClass::Ds:
      return "ds";
    case CodeClass::Mubuf:
      return "mubuf";
    case CodeClass::Mtbuf:
      return "mtbuf";
    case CodeClass::Mimg:
      return "mimg";
    case CodeClass::Exp:
      return "exp";
    case CodeClass::Flat:
      return "flat";
    case CodeClass::Vop3p:
      return "vop3p";
    case CodeClass::Vopd:
      return "vopd";
    case CodeClass::Vinterp:
      return "vinterp";
    case CodeClass::Ldsdir:
      return "ldsdir";
  }
  return "?";
}

std::optional<CodeInstruction> tryScanInstruction(Gen gen, std::span<const uint32_t> words,
                                                  std::size_t at, std::string* why) {
  const auto fail = [why](std::string reason) -> std::optional<CodeInstruction> {
    if (why != nullptr) *why = std::move(reason);
    return std::nullopt;
  };
  if (at >= words.size())
    return fail("dword " + std::to_string(at) + ": past the end of the code (" +
                std::to_string(words.size()) + " dwords)");
  const uint32_t w = words[at];
  Classified c{};
  if (!classify(gen, w, c))
    return fail("dword " + std::to_string(at) + ": " + hexWord(w) + " is no " +
                std::string(genName(gen)) + " instruction encoding");
  unsigned extra = 0;
  switch (c.cls) {
    case CodeClass::Sop2:
    case CodeClass::Sopc:  // SSRC0 [7:0], SSRC1 [15:8]
      extra = ((w & 0xff) == kLiteral || ((w >> 8) & 0xff) == kLiteral) ? 1 : 0;
      break;
    case CodeClass::Sop1:  // SSRC0 [7:0]
      extra = (w & 0xff) == kLiteral ? 1 : 0;
      break;
    case CodeClass::Sopk:  // OP [27:23]
      extra = sopkHasConstant(gen, (w >> 23) & 0x1f) ? 1 : 0;
      break;
    case CodeClass::Smrd:  // gfx7: IMM [8] = 0 with OFFSET [7:0] = 255 -> literal offset
      extra = (gen == Gen::Gfx7 && ((w >> 8) & 1) == 0 && (w & 0xff) == kLiteral) ? 1 : 0;
      break;
    case CodeClass::Vop1:
    case CodeClass::Vop2:
    case CodeClass::Vopc: {  // SRC0 [8:0]
      const uint32_t src0 = w & 0x1ff;
      if (src0 == kLiteral || (isGfx8Or9(gen) && (src0 == kSdwa || src0 == kDpp))) extra = 1;
      // gfx10: SDWA, DPP16, DPP8; gfx11: DPP16, DPP8 (no SDWA).
      if (isRdna(gen) && ((src0 == kSdwa && gen != Gen::Gfx11) || src0 == kDpp || src0 == kDpp8 ||
                          src0 == kDpp8Fi))
        extra = 1;
      if (c.cls == CodeClass::Vop2 && vop2HasConstant(gen, (w >> 25) & 0x3f)) extra = 1;
      break;
    }
    case CodeClass::Vop3:
    case CodeClass::Vop3p: {
      // RDNA: a literal when any SRC [40:32], [49:41], [58:50] is 255; gfx11 adds a DPP16 /
      // DPP8 dword when SRC0 says so. Before gfx10 VOP3 has neither.
      if (!isRdna(gen) || at + 1 >= words.size()) break;
      // gfx10/10.3 VOP3 v_interp_* keep the attribute in the SRC0 field (attr63.w is 0xff):
      // no literal (llvm-mc-15 disassembles d7420000 000202ff as two dwords).
      if (c.cls == CodeClass::Vop3 && gen != Gen::Gfx11)
        if (const VgprOpInfo* info = findVgprOp(gen, VgprClass::Valu, (w >> 16) & 0x3ff);
            info != nullptr && info->mnemonic.substr(0, 9) == "v_interp_")
          break;
      const uint32_t w1 = words[at + 1];
      const uint32_t src0 = w1 & 0x1ff;
      if (src0 == kLiteral || ((w1 >> 9) & 0x1ff) == kLiteral || ((w1 >> 18) & 0x1ff) == kLiteral)
        extra = 1;
      else if (gen == Gen::Gfx11 && (src0 == kDpp || src0 == kDpp8 || src0 == kDpp8Fi))
        extra = 1;
      break;
    }
    case CodeClass::Vopd: {  // SRC0X [8:0]; SRC0Y [40:32]
      const bool srcLiteral =
          (w & 0x1ff) == kLiteral || (at + 1 < words.size() && (words[at + 1] & 0x1ff) == kLiteral);
      extra = srcLiteral || vopdHasConstant(w) ? 1 : 0;
      break;
    }
    default:
      break;
  }
  const unsigned dwords = c.dwords + extra;
  if (at + dwords > words.size())
    return fail("dword " + std::to_string(at) + ": " + std::string(codeClassName(c.cls)) +
                " instruction " + hexWord(w) + " needs " + std::to_string(dwords) +
                " dwords, the code ends after " + std::to_string(words.size() - at));
  return CodeInstruction{at, dwords, c.cls};
}

CodeInstruction scanInstruction(Gen gen, std::span<const uint32_t> words, std::size_t at) {
  std::string why;
  if (std::optional<CodeInstruction> ci = tryScanInstruction(gen, words, at, &why)) return *ci;
  throw Error(Place{"code", 0, 0}, why);
}

std::vector<CodeInstruction> scanCode(Gen gen, std::span<const uint32_t> words) {
  std::vector<CodeInstruction> out;
  for (std::size_t at = 0; at < words.size();) {
    out.push_back(scanInstruction(gen, words, at));
    at += out.back().dwords;
  }
  return out;
}

unsigned sMovB32Opcode(Gen gen) {
  return findScalarOpByName(gen, ScalarClass::Sop1, "s_mov_b32")->opcode;
}

std::array<uint32_t, 2> encodeSMovB32Literal(Gen gen, unsigned sdst, uint32_t literal) {
  if (sdst > 127) throw Error("s_mov_b32: SDST " + std::to_string(sdst) + " is not a 7-bit code");
  return {0xbe800000u | sdst << 16 | sMovB32Opcode(gen) << 8 | 0xffu, literal};
}

}  // namespace gcn
