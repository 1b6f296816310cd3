// Binary encoding of MUBUF and MTBUF instructions (two dwords) per generation. Field
// positions: CLRX GcnInstrsMtbuf and LLVM BUFInstructions.td (MUBUF_Real_gfx6_gfx7,
// MUBUF_Real_vi, MTBUF_Real_gfx6_gfx7, MTBUF_Real_vi), checked bit by bit against llvm-mc 14
// in tests/reference/encoding_test.cpp and llvm_mc_test.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "reference/gen.h"
#include "reference/opcodes.h"

namespace gcn {

// ENCODING field [31:26] of the first dword.
inline constexpr uint32_t kMubufEncoding = 0x38;  // 0b111000
inline constexpr uint32_t kMtbufEncoding = 0x3a;  // 0b111010

// The fields of a MUBUF/MTBUF word pair.
enum class InstField : uint8_t {
  Offset,  // 12-bit OFFSET
  Offen,
  Idxen,
  Glc,
  Addr64,  // GFX6/7
  Dlc,     // GFX10+
  Lds,     // MUBUF, GFX6-10
  Slc,
  Op,
  OpHi,      // GFX10: the opcode's top bit, away from OP (MUBUF bit 25, MTBUF dword 1 bit 21)
  Dfmt,      // MTBUF, GFX6-9
  Nfmt,      // MTBUF, GFX6-9
  Format,    // MTBUF, GFX10+: the unified 7-bit FORMAT
  Encoding,  // kMubufEncoding / kMtbufEncoding
  Vaddr,
  Vdata,
  Srsrc,  // in units of 4 SGPRs
  Tfe,
  Soffset,
};

// The one table of instruction field positions: encode, decode and anything else reading a
// MUBUF/MTBUF word (the descriptor trace's SRSRC) read it. A field may have one row per
// encoding and generation range (MUBUF SLC moved from dword 1 bit 22 to dword 0 bit 17 on
// GFX8; MTBUF OP from [18:16] to [18:15]; GFX11 moved OFFEN, IDXEN and TFE to dword 1).
struct InstFieldBits {
  InstField field;
  std::array<bool, 2> onEncoding;  // MUBUF, MTBUF
  GenMask onGen;                   // per generation (genIndex)
  uint8_t dword;                   // 0 or 1
  uint8_t lsb;
  uint8_t width;
};
std::span<const InstFieldBits> instructionFields();
// The row of `field` for the encoding on the generation; nullptr when it has no such field.
const InstFieldBits* findInstField(Gen gen, Encoding enc, InstField field);
// The field's value in a word pair; nullopt when the encoding has no such field on the
// generation.
std::optional<uint32_t> instFieldValue(Gen gen, Encoding enc, InstField field,
                                       const std::array<uint32_t, 2>& words);
// First SGPR of the V# a MUBUF/MTBUF word pair names (SRSRC * 4).
unsigned srsrcFirstSgpr(Gen gen, Encoding enc, const std::array<uint32_t, 2>& words);

// Throws gcn::Error when validate(gen, inst) does.
std::array<uint32_t, 2> encode(Gen gen, const Instruction& inst);

// Throws gcn::Error for a word that is not MUBUF/MTBUF, an opcode unknown on the generation,
// an instruction validate() rejects, or set bits that the generation does not define (the
// decoder accepts exactly the words encode() produces, so encode(decode(w)) == w), except
// VADDR when the address mode reads no VGPR: a don't-care field, decoded as `off` and
// re-encoded as 0, as llvm-mc does.
Instruction decode(Gen gen, uint32_t w0, uint32_t w1);
// The same without throwing: nullopt where decode() throws, with decode()'s message in `why`
// when given.
std::optional<Instruction> tryDecode(Gen gen, uint32_t w0, uint32_t w1, std::string* why = nullptr);

}  // namespace gcn
