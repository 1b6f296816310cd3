// Text form of MUBUF/MTBUF instructions: LLVM's AMDGPU assembler syntax, so that llvm-mc
// reads what printInstruction writes and gcnprobe reads what llvm-mc prints.
//
//   INSTRUCTION VDATA, VADDR|off, SRSRC, SOFFSET [modifiers]
//   tbuffer_load_format_xyzw v[0:3], v4, s[8:11], 0
//       format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] idxen offset:16
//
// Modifiers in any order and any case: offen idxen addr64 glc slc tfe lds offset:N
// format:[DFMT,NFMT] (LLVM names, CLRX short names or numbers) and LLVM 14's format:N
// (N = dfmt | nfmt << 4). Cache operations take no operands; buffer_store_lds_dword takes
// `SRSRC, SOFFSET` and lds. See docs/asm.md.
#pragma once

#include <string>
#include <string_view>

#include "reference/gen.h"
#include "reference/opcodes.h"

namespace gcn {

// Throws gcn::Error with Place{.column} (1-based) at the offending token for bad syntax,
// unknown mnemonics or modifiers, wrong register counts and modifiers illegal on the
// generation. D16 register counts follow the generation's representative chip
// (representativeChip: tonga unpacked on gfx8, packed on gfx9). With tfe, VDATA may name the
// extra register (the canonical form) or omit it (LLVM 14's form).
Instruction parseInstruction(Gen gen, std::string_view text);
// The same with the chip's D16 register counts (Stoney, gfx810, packs D16 data like GFX9).
Instruction parseInstruction(const Chip& chip, std::string_view text);

// The one canonical form: operands, then format:[...] (MTBUF, always explicit), the address
// mode (idxen offen | offen | idxen | addr64), offset:N (when not 0), glc, slc, tfe, lds:
// the order llvm-mc 14 prints. parseInstruction(gen, printInstruction(gen, x)) == x.
// Throws gcn::Error when validate(gen, inst) does.
std::string printInstruction(Gen gen, const Instruction& inst);

// The SOFFSET operand's text: "s5", "m0", "vcc_lo", "-3", "0.5"... Throws gcn::Error for a
// code soffsetLegal() rejects.
std::string soffsetText(Gen gen, uint8_t code);

}  // namespace gcn
