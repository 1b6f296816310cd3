// Binary encoding of MUBUF and MTBUF instructions (two dwords) per generation. Field
// positions: CLRX GcnInstrsMtbuf and LLVM BUFInstructions.td (MUBUF_Real_gfx6_gfx7,
// MUBUF_Real_vi, MTBUF_Real_gfx6_gfx7, MTBUF_Real_vi), checked bit by bit against llvm-mc 14
// in tests/reference/encoding_test.cpp and llvm_mc_test.cpp.
#pragma once

#include <array>
#include <cstdint>

#include "reference/gen.h"
#include "reference/opcodes.h"

namespace gcn {

// ENCODING field [31:26] of the first dword.
inline constexpr uint32_t kMubufEncoding = 0x38;  // 0b111000
inline constexpr uint32_t kMtbufEncoding = 0x3a;  // 0b111010

// Throws gcn::Error when validate(gen, inst) does.
std::array<uint32_t, 2> encode(Gen gen, const Instruction& inst);

// Throws gcn::Error for a word that is not MUBUF/MTBUF, an opcode unknown on the generation,
// an instruction validate() rejects, or set bits that the generation does not define (the
// decoder accepts exactly the words encode() produces, so encode(decode(w)) == w), except
// VADDR when the address mode reads no VGPR: a don't-care field, decoded as `off` and
// re-encoded as 0, as llvm-mc does.
Instruction decode(Gen gen, uint32_t w0, uint32_t w1);

}  // namespace gcn
