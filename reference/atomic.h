// The arithmetic of BUFFER_ATOMIC_*: one read-modify-write on a 32- or 64-bit memory value,
// kept apart from addressing so it can be tested exhaustively. Semantics per CLRX
// (doc/GcnInstrsMubuf.md, "Operation" blocks), which LLVM's BUFInstructions.td operand
// lists agree with: CMPSWAP data = {src, cmp} (VDATA[0] = new value, VDATA[1] = compare
// value; _X2: VDATA[0:1] = src, VDATA[2:3] = cmp).
#pragma once

#include <cstdint>
#include <string_view>

#include "reference/opcodes.h"

namespace gcn {

struct AtomicOutcome {
  uint64_t newValue = 0;    // value written back to memory (low 32 bits for 32-bit ops)
  bool claimed = true;      // false: no source fixes the stored value (see reason)
  std::string_view reason;  // why not claimed
};

// `mem` is the pre-op memory value, `src` the data operand, `cmp` the compare operand
// (CMPSWAP/FCMPSWAP only). For 32-bit ops (wide = false) only the low 32 bits are used.
// Throws gcn::Error for AtomicOp::None.
AtomicOutcome applyAtomic(AtomicOp op, bool wide, uint64_t mem, uint64_t src, uint64_t cmp);

// Upper-case ISA name of the operation without prefix ("CMPSWAP"), for notes.
std::string_view atomicOpName(AtomicOp op);

}  // namespace gcn
