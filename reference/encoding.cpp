#include "reference/encoding.h"

#include <cstdio>
#include <string>

#include "reference/error.h"
#include "reference/text.h"

namespace gcn {
namespace {

using F = InstField;
constexpr std::array<bool, 2> kBoth{true, true};
constexpr std::array<bool, 2> kMubuf{true, false};
constexpr std::array<bool, 2> kMtbuf{false, true};
using namespace gens;  // NOLINT(google-build-using-namespace): the table's columns
constexpr GenMask kGfx67Gfx10 = kGfx67 | kGfx10;

// The one table of MUBUF/MTBUF field positions (CLRX GcnInstrsMtbuf; LLVM BUFInstructions.td
// MUBUF_Real_gfx6_gfx7, MUBUF_Real_vi, MUBUF_Real_gfx10, MUBUF_Real_gfx11 and the MTBUF
// counterparts):
//   GFX6/7 MUBUF: ADDR64[15] LDS[16] OP[24:18], SLC in dword 1 bit 22.
//   GFX8/9 MUBUF: LDS[16] SLC[17] OP[24:18]; no ADDR64.
//   MTBUF: GFX6/7 ADDR64[15] OP[18:16]; GFX8/9 OP[18:15]; DFMT[22:19] NFMT[25:23]; SLC stays in
//   dword 1 bit 22 (bit 54).
//   GFX10 (and 10.3): DLC[15] where ADDR64 was; MUBUF LDS[16] OP[24:18] with OP bit 7 at [25];
//   MTBUF OP[18:16] with OP bit 3 at dword 1 bit 21, one FORMAT[25:19]; SLC dword 1 bit 22.
//   GFX11: SLC[12] DLC[13] GLC[14]; MUBUF OP[25:18], no LDS bit; MTBUF OP[18:15] FORMAT[25:19];
//   TFE, OFFEN and IDXEN at dword 1 bits 21, 22, 23.
constexpr InstFieldBits kFields[] = {
    {F::Offset, kBoth, kAll, 0, 0, 12},      {F::Offen, kBoth, kGcnGfx10, 0, 12, 1},
    {F::Offen, kBoth, kGfx11, 1, 22, 1},     {F::Idxen, kBoth, kGcnGfx10, 0, 13, 1},
    {F::Idxen, kBoth, kGfx11, 1, 23, 1},     {F::Glc, kBoth, kAll, 0, 14, 1},
    {F::Addr64, kBoth, kGfx67, 0, 15, 1},    {F::Dlc, kBoth, kGfx10, 0, 15, 1},
    {F::Dlc, kBoth, kGfx11, 0, 13, 1},       {F::Lds, kMubuf, kGcnGfx10, 0, 16, 1},
    {F::Slc, kMubuf, kGfx89, 0, 17, 1},      {F::Slc, kBoth, kGfx11, 0, 12, 1},
    {F::Op, kMubuf, kGcnGfx10, 0, 18, 7},    {F::OpHi, kMubuf, kGfx10, 0, 25, 1},
    {F::Op, kMubuf, kGfx11, 0, 18, 8},       {F::Op, kMtbuf, kGfx67Gfx10, 0, 16, 3},
    {F::OpHi, kMtbuf, kGfx10, 1, 21, 1},     {F::Op, kMtbuf, kGfx89, 0, 15, 4},
    {F::Op, kMtbuf, kGfx11, 0, 15, 4},       {F::Dfmt, kMtbuf, kGcn, 0, 19, 4},
    {F::Nfmt, kMtbuf, kGcn, 0, 23, 3},       {F::Format, kMtbuf, kRdna, 0, 19, 7},
    {F::Encoding, kBoth, kAll, 0, 26, 6},    {F::Vaddr, kBoth, kAll, 1, 0, 8},
    {F::Vdata, kBoth, kAll, 1, 8, 8},        {F::Srsrc, kBoth, kAll, 1, 16, 5},
    {F::Slc, kMubuf, kGfx67Gfx10, 1, 22, 1}, {F::Slc, kMtbuf, kGcnGfx10, 1, 22, 1},
    {F::Tfe, kBoth, kGcnGfx10, 1, 23, 1},    {F::Tfe, kBoth, kGfx11, 1, 21, 1},
    {F::Soffset, kBoth, kAll, 1, 24, 8},
};

bool on(const InstFieldBits& f, Gen gen, Encoding enc) {
  return f.onGen[genIndex(gen)] && f.onEncoding[static_cast<int>(enc)];
}

uint32_t mask(const InstFieldBits& f) {
  return f.width >= 32 ? ~0u : (1u << f.width) - 1u;
}

uint32_t read(const InstFieldBits& f, const std::array<uint32_t, 2>& w) {
  return (w[f.dword] >> f.lsb) & mask(f);
}

// The instruction's value of a field other than OP and ENCODING.
uint32_t valueOf(const Instruction& inst, InstField f) {
  switch (f) {
    case F::Offset:
      return inst.offset;
    case F::Offen:
      return inst.offen;
    case F::Idxen:
      return inst.idxen;
    case F::Glc:
      return inst.glc;
    case F::Addr64:
      return inst.addr64;
    case F::Dlc:
      return inst.dlc;
    case F::Format:
      return inst.format;
    case F::Lds:
      return inst.lds;
    case F::Slc:
      return inst.slc;
    case F::Dfmt:
      return static_cast<uint32_t>(inst.dfmt);
    case F::Nfmt:
      return static_cast<uint32_t>(inst.nfmt);
    case F::Vaddr:
      return inst.vaddr;
    case F::Vdata:
      return inst.vdata;
    case F::Srsrc:
      return uint32_t{inst.srsrc} >> 2;
    case F::Tfe:
      return inst.tfe;
    case F::Soffset:
      return inst.soffset;
    case F::Op:
    case F::OpHi:
    case F::Encoding:
      break;
  }
  return 0;
}

void setField(Instruction& inst, InstField f, uint32_t x) {
  switch (f) {
    case F::Offset:
      inst.offset = static_cast<uint16_t>(x);
      break;
    case F::Offen:
      inst.offen = x != 0;
      break;
    case F::Idxen:
      inst.idxen = x != 0;
      break;
    case F::Glc:
      inst.glc = x != 0;
      break;
    case F::Addr64:
      inst.addr64 = x != 0;
      break;
    case F::Dlc:
      inst.dlc = x != 0;
      break;
    case F::Format:
      inst.format = static_cast<uint8_t>(x);
      break;
    case F::Lds:
      inst.lds = x != 0;
      break;
    case F::Slc:
      inst.slc = x != 0;
      break;
    case F::Dfmt:
      inst.dfmt = static_cast<Dfmt>(x);
      break;
    case F::Nfmt:
      inst.nfmt = static_cast<Nfmt>(x);
      break;
    case F::Vaddr:
      inst.vaddr = static_cast<uint8_t>(x);
      break;
    case F::Vdata:
      inst.vdata = static_cast<uint8_t>(x);
      break;
    case F::Srsrc:
      inst.srsrc = static_cast<uint8_t>(x << 2);
      break;
    case F::Tfe:
      inst.tfe = x != 0;
      break;
    case F::Soffset:
      inst.soffset = static_cast<uint8_t>(x);
      break;
    case F::Op:
    case F::OpHi:
    case F::Encoding:
      break;
  }
}

uint32_t encodingValue(Encoding enc) {
  return enc == Encoding::Mubuf ? kMubufEncoding : kMtbufEncoding;
}

// decode() and tryDecode(): the instruction, or the reason it is none.
std::optional<Instruction> decodeOrWhy(Gen gen, uint32_t w0, uint32_t w1, std::string& why) {
  const std::string where =
      "decoding " + hexWord(w0) + " " + hexWord(w1) + " for " + std::string(genName(gen)) + ": ";
  const std::array<uint32_t, 2> w{w0, w1};
  // ENCODING sits at the same place in both encodings.
  const uint32_t enc = read(*findInstField(gen, Encoding::Mubuf, F::Encoding), w);
  Encoding encoding;
  if (enc == kMubufEncoding) {
    encoding = Encoding::Mubuf;
  } else if (enc == kMtbufEncoding) {
    encoding = Encoding::Mtbuf;
  } else {
    why = where + "not a MUBUF (0b111000) or MTBUF (0b111010) word: ENCODING field is " +
          std::to_string(enc);
    return std::nullopt;
  }
  const InstFieldBits& opField = *findInstField(gen, encoding, F::Op);
  uint32_t opcode = read(opField, w);
  if (const InstFieldBits* hi = findInstField(gen, encoding, F::OpHi))
    opcode |= read(*hi, w) << opField.width;
  Instruction inst;
  inst.op = findOpcode(encoding, gen, opcode);
  if (inst.op == nullptr) {
    why = where + "unknown " + (encoding == Encoding::Mubuf ? "MUBUF" : "MTBUF") + " opcode " +
          std::to_string(opcode) + " on " + std::string(genName(gen));
    return std::nullopt;
  }
  // A cache operation has no operands: every other field must be 0, which the re-encoding
  // below checks.
  if (inst.op->kind != OpKind::Cache) {
    for (const InstFieldBits& f : kFields)
      if (f.field != F::Op && f.field != F::OpHi && f.field != F::Encoding && on(f, gen, encoding))
        setField(inst, f.field, read(f, w));
  }
  // VADDR is a don't-care field when no address is read: ACO leaves a register number there
  // (seen on vega10: e07c4000 05020480) and llvm-mc -disassemble prints it as `off` and
  // re-encodes 0. Decode it the same way; the field is excluded from the round-trip check.
  uint32_t ignoredW1 = 0;
  if (vaddrRegs(inst) == 0 && inst.vaddr != 0) {
    inst.vaddr = 0;
    ignoredW1 = mask(*findInstField(gen, encoding, F::Vaddr))
                << findInstField(gen, encoding, F::Vaddr)->lsb;
  }
  // The same for VDATA of a GFX10 load to LDS, which names none: llvm-mc 15 -disassemble
  // prints e0311000 80010502 as `buffer_load_dword v2, s[4:7], 0 offen lds`.
  if (isRdna(gen) && inst.lds && inst.vdata != 0) {
    inst.vdata = 0;
    ignoredW1 |= mask(*findInstField(gen, encoding, F::Vdata))
                 << findInstField(gen, encoding, F::Vdata)->lsb;
  }
  if (const std::optional<std::string> bad = validationError(gen, inst)) {
    why = where + *bad;
    return std::nullopt;
  }
  const std::array<uint32_t, 2> again = encode(gen, inst);
  if (again[0] != w0 || (again[1] & ~ignoredW1) != (w1 & ~ignoredW1)) {
    why = where + "bits " + hexWord(w0 ^ again[0]) + " " + hexWord(w1 ^ again[1]) +
          " are set but undefined for " + std::string(inst.op->mnemonic) + " on " +
          std::string(genName(gen));
    return std::nullopt;
  }
  return inst;
}

}  // namespace

std::span<const InstFieldBits> instructionFields() {
  return kFields;
}

const InstFieldBits* findInstField(Gen gen, Encoding enc, InstField field) {
  for (const InstFieldBits& f : kFields)
    if (f.field == field && on(f, gen, enc)) return &f;
  return nullptr;
}

std::optional<uint32_t> instFieldValue(Gen gen, Encoding enc, InstField field,
                                       const std::array<uint32_t, 2>& words) {
  const InstFieldBits* f = findInstField(gen, enc, field);
  if (f == nullptr) return std::nullopt;
  return read(*f, words);
}

unsigned srsrcFirstSgpr(Gen gen, Encoding enc, const std::array<uint32_t, 2>& words) {
  return *instFieldValue(gen, enc, F::Srsrc, words) * 4u;
}

std::array<uint32_t, 2> encode(Gen gen, const Instruction& inst) {
  validate(gen, inst);
  const OpcodeInfo& op = *inst.op;
  const auto opcode = static_cast<uint32_t>(op.opcode[genIndex(gen)]);
  const unsigned opWidth = findInstField(gen, op.encoding, F::Op)->width;
  std::array<uint32_t, 2> w{};
  for (const InstFieldBits& f : kFields) {
    if (!on(f, gen, op.encoding)) continue;
    uint32_t x = 0;
    if (f.field == F::Op)
      x = opcode;
    else if (f.field == F::OpHi)
      x = opcode >> opWidth;
    else if (f.field == F::Encoding)
      x = encodingValue(op.encoding);
    else if (op.kind != OpKind::Cache)
      // LLVM's MUBUF_Invalidate has no operands: every field but OP and ENCODING is 0.
      x = valueOf(inst, f.field);
    w[f.dword] |= (x & mask(f)) << f.lsb;
  }
  return w;
}

Instruction decode(Gen gen, uint32_t w0, uint32_t w1) {
  std::string why;
  std::optional<Instruction> inst = decodeOrWhy(gen, w0, w1, why);
  if (!inst) throw Error(why);
  return *inst;
}

std::optional<Instruction> tryDecode(Gen gen, uint32_t w0, uint32_t w1, std::string* why) {
  std::string reason;
  std::optional<Instruction> inst = decodeOrWhy(gen, w0, w1, reason);
  if (!inst && why != nullptr) *why = std::move(reason);
  return inst;
}

}  // namespace gcn
