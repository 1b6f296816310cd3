#include "reference/encoding.h"

#include <cstdio>
#include <string>

#include "reference/error.h"

namespace gcn {
namespace {

uint32_t bits(uint32_t word, unsigned hi, unsigned lo) {
  return (word >> lo) & ((1u << (hi - lo + 1)) - 1u);
}

uint32_t bit(bool value, unsigned pos) {
  return value ? (1u << pos) : 0u;
}

std::string hexWord(uint32_t w) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", w);
  return buf;
}

bool isGfx67(Gen gen) {
  return gen <= Gen::Gfx7;
}

}  // namespace

std::array<uint32_t, 2> encode(Gen gen, const Instruction& inst) {
  validate(gen, inst);
  const OpcodeInfo& op = *inst.op;
  const auto opcode = static_cast<uint32_t>(op.opcode[static_cast<int>(gen) - 6]);
  if (op.kind == OpKind::Cache) {
    // LLVM's MUBUF_Invalidate has no operands: every field but OP and ENCODING is 0.
    return {(kMubufEncoding << 26) | (opcode << 18), 0u};
  }
  uint32_t w0 = inst.offset | bit(inst.offen, 12) | bit(inst.idxen, 13) | bit(inst.glc, 14);
  uint32_t w1 = inst.vaddr | (uint32_t{inst.vdata} << 8) | (uint32_t{inst.srsrc} >> 2) << 16 |
                bit(inst.tfe, 23) | (uint32_t{inst.soffset} << 24);
  if (op.encoding == Encoding::Mubuf) {
    // GFX6/7: ADDR64[15] LDS[16] OP[24:18], SLC in dword 1 bit 22.
    // GFX8/9: LDS[16] SLC[17] OP[24:18]; no ADDR64.
    w0 |= bit(inst.lds, 16) | (opcode << 18) | (kMubufEncoding << 26);
    if (isGfx67(gen)) {
      w0 |= bit(inst.addr64, 15);
      w1 |= bit(inst.slc, 22);
    } else {
      w0 |= bit(inst.slc, 17);
    }
  } else {
    // CLRX GcnInstrsMtbuf: GFX6/7 ADDR64[15] OP[18:16]; GFX8/9 OP[18:15]; DFMT[22:19] NFMT[25:23];
    // SLC stays in dword 1 bit 22 (bit 54).
    w0 |= (static_cast<uint32_t>(inst.dfmt) << 19) | (static_cast<uint32_t>(inst.nfmt) << 23) |
          (kMtbufEncoding << 26);
    w0 |= isGfx67(gen) ? (bit(inst.addr64, 15) | (opcode << 16)) : (opcode << 15);
    w1 |= bit(inst.slc, 22);
  }
  return {w0, w1};
}

Instruction decode(Gen gen, uint32_t w0, uint32_t w1) {
  const std::string where =
      "decoding " + hexWord(w0) + " " + hexWord(w1) + " for " + std::string(genName(gen)) + ": ";
  const uint32_t enc = bits(w0, 31, 26);
  Instruction inst;
  if (enc == kMubufEncoding) {
    const uint32_t opcode = bits(w0, 24, 18);
    inst.op = findOpcode(Encoding::Mubuf, gen, opcode);
    if (inst.op == nullptr)
      throw Error(where + "unknown MUBUF opcode " + std::to_string(opcode) + " on " +
                  std::string(genName(gen)));
    inst.lds = bits(w0, 16, 16) != 0;
    if (isGfx67(gen)) {
      inst.addr64 = bits(w0, 15, 15) != 0;
      inst.slc = bits(w1, 22, 22) != 0;
    } else {
      inst.slc = bits(w0, 17, 17) != 0;
    }
  } else if (enc == kMtbufEncoding) {
    const uint32_t opcode = isGfx67(gen) ? bits(w0, 18, 16) : bits(w0, 18, 15);
    inst.op = findOpcode(Encoding::Mtbuf, gen, opcode);
    if (inst.op == nullptr)
      throw Error(where + "unknown MTBUF opcode " + std::to_string(opcode) + " on " +
                  std::string(genName(gen)));
    if (isGfx67(gen)) inst.addr64 = bits(w0, 15, 15) != 0;
    inst.dfmt = static_cast<Dfmt>(bits(w0, 22, 19));
    inst.nfmt = static_cast<Nfmt>(bits(w0, 25, 23));
    inst.slc = bits(w1, 22, 22) != 0;
  } else {
    throw Error(where + "not a MUBUF (0b111000) or MTBUF (0b111010) word: ENCODING field is " +
                std::to_string(enc));
  }
  if (inst.op->kind != OpKind::Cache) {
    inst.offset = static_cast<uint16_t>(bits(w0, 11, 0));
    inst.offen = bits(w0, 12, 12) != 0;
    inst.idxen = bits(w0, 13, 13) != 0;
    inst.glc = bits(w0, 14, 14) != 0;
    inst.vaddr = static_cast<uint8_t>(bits(w1, 7, 0));
    inst.vdata = static_cast<uint8_t>(bits(w1, 15, 8));
    inst.srsrc = static_cast<uint8_t>(bits(w1, 20, 16) << 2);
    inst.tfe = bits(w1, 23, 23) != 0;
    inst.soffset = static_cast<uint8_t>(bits(w1, 31, 24));
  } else {
    inst.lds = false;
    inst.addr64 = false;
    inst.slc = false;
  }
  // VADDR is a don't-care field when no address is read: ACO leaves a register number there
  // (seen on vega10: e07c4000 05020480) and llvm-mc -disassemble prints it as `off` and
  // re-encodes 0. Decode it the same way; the field is excluded from the round-trip check.
  uint32_t ignoredW1 = 0;
  if (vaddrRegs(inst) == 0 && inst.vaddr != 0) {
    inst.vaddr = 0;
    ignoredW1 = 0xffu;
  }
  try {
    validate(gen, inst);
  } catch (const Error& e) {
    throw Error(where + e.reason());
  }
  const std::array<uint32_t, 2> again = encode(gen, inst);
  if (again[0] != w0 || (again[1] & ~ignoredW1) != (w1 & ~ignoredW1))
    throw Error(where + "bits " + hexWord(w0 ^ again[0]) + " " + hexWord(w1 ^ again[1]) +
                " are set but undefined for " + std::string(inst.op->mnemonic) + " on " +
                std::string(genName(gen)));
  return inst;
}

}  // namespace gcn
