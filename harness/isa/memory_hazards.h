// Registers read before the memory instruction that writes them has returned. GCN and RDNA have
// no scoreboard for memory results: a vector memory load writes its VGPRs whenever its data
// arrives, a scalar load its SGPRs, an LDS read its VGPRs, and only `s_waitcnt` (vmcnt for
// vector memory loads, lgkmcnt for scalar memory, LDS, GDS and messages, expcnt on GFX6 for
// the VGPRs a vector memory store still reads) makes a later instruction see them (AMD's
// Southern Islands .. Vega ISA guides, "Data dependency resolution" and "S_WAITCNT"; the RDNA
// guides, which add s_waitcnt_vmcnt and friends). An instruction that reads or overwrites such
// a register too early reads the old value or loses the race, whatever the data flow says; the
// proofs over the listing assume the opposite, so a listing with such a hazard proves nothing.
//
// The model: a forward flow over the listing (instruction_effects.h's forwardFlow) that keeps,
// per VGPR, the vector memory load whose result is still outstanding and how many loads were
// issued after it; per VGPR an outstanding LDS or FLAT result; per SGPR an outstanding scalar
// load; on GFX6 the VGPRs an issued store may still read. `s_waitcnt vmcnt(N)` completes the
// loads with at least N loads issued after them (vector memory loads return in the order they
// were issued); lgkmcnt completes anything only at 0 (scalar loads return out of order);
// expcnt(0) releases store data. Paths merge by keeping whatever is outstanding on either. A
// waitcnt the model cannot read (an SGPR count) completes nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "harness/isa/descriptor_trace.h"
#include "harness/isa/instruction_effects.h"
#include "reference/gen.h"

namespace gcnprobe::isa {

struct MemoryHazard {
  std::size_t index = 0;   // the instruction that reads or overwrites too early
  std::size_t writer = 0;  // the memory instruction whose result (or data) is outstanding
  std::string what;        // "reads v1", "overwrites v2", "reads s[8:11]"
  std::string why;         // "before its result returns (no s_waitcnt vmcnt covers it)"
};

// The first hazard in program order, or nullopt. Per instruction i: `effects[i]` its
// vgprEffects, `cls[i]` its encoding class (empty: none known), `sgprs[i]` its sgprWrites
// (descriptor_trace.h), as the data-path proof has them already.
std::optional<MemoryHazard> firstMemoryHazard(gcn::Gen gen,
                                              std::span<const std::vector<uint32_t>> words,
                                              std::span<const VgprEffects> effects,
                                              std::span<const std::optional<gcn::CodeClass>> cls,
                                              std::span<const SgprWrites> sgprs);

}  // namespace gcnprobe::isa
