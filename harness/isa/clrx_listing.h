// What `clrxdisasm --gpuType=<chip> -r <file>` prints, as far as ACO reads it: Mesa 22.3.6
// aco_print_asm.cpp (print_asm_clrx) runs it for gfx6/7, keeps lines of the form
// "/*<hex byte offset>*/ <instruction text>\n", and prints each instruction as
// "<text> ; <words>" with the length implied by the next line's offset. gcnprobe answers
// as that program (app/cmd_isa.cpp) so the RADV null device yields words on gfx6/7 too.
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>

#include "reference/gen.h"

namespace gcnprobe::isa {

// One line per instruction (code_scan lengths): MUBUF/MTBUF words that the reference
// decodes are printed with gcn::printInstruction, everything else as
// ".long 0x........[, 0x........] /* <class> */". A word that is no instruction encoding of
// the generation becomes a one-dword ".long" line marked "unknown". Never contains ".L"
// (ACO would read it as a branch label) or ';'.
std::string clrxListing(gcn::Gen gen, std::span<const uint32_t> words);

// The generation of a CLRX --gpuType name as ACO passes it (to_clrx_device_name: tahiti,
// pitcairn, capeverde, oland, hainan, bonaire, gfx700, hawaii, tonga, ..., vega10).
// Throws gcn::Error naming the text.
gcn::Gen clrxGpuTypeGen(std::string_view gpuType);

// The stand-in's whole command line (without the program name) as ACO runs it:
// `--version` (exit 0, prints nothing: ACO only asks whether the program is there) or
// `--gpuType=<chip> -r <file>` (also `-g <chip>`, `--raw`), which writes clrxListing of the
// file's little-endian dwords to `out` and returns 0. Anything else throws gcn::Error naming
// the argument or the file. Both the small `gcnprobe-clrxdisasm` program (what `isa` puts on
// the driver's PATH) and gcnprobe's hidden `_clrxdisasm` command run this.
int clrxDisasmMain(std::span<const std::string_view> args, std::FILE* out);

}  // namespace gcnprobe::isa
