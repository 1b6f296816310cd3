// Buffer addressing and range checking of MUBUF/MTBUF (CLRX GcnMemHandling "Buffer addressing", AMD
// RDNA3 ISA swizzle / OOB / alignment rules; on GFX10+ the V#'s OOB_SELECT modes as Mesa's
// ac_set_buf_desc_word3 records them, docs/rdna.md "Range checking"). Every point docs/gcn-facts.md
// lists as disputed
// ("NUM_RECORDS units", "Disputed points") is read from gcn::Policies. Pure
// functions over plain structs: no memory is touched here; the executor performs the pieces this
// plans.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reference/gen.h"
#include "reference/policy.h"
#include "reference/resource.h"

namespace gcn {

struct AddressOperands {
  bool offen = false, idxen = false, addr64 = false;
  uint16_t instOffset = 0;          // the instruction's 12-bit OFFSET
  std::array<uint32_t, 2> vaddr{};  // VGPR values as the instruction reads them (CLRX table:
                                    // idxen only: vaddr[0]=index; offen only: vaddr[0]=offset;
                                    // both: vaddr[0]=index, vaddr[1]=offset; addr64: 64-bit)
  uint32_t soffset = 0;             // SOFFSET value
  unsigned lane = 0;                // 0..63
};

enum class CheckUnit : uint8_t {
  Whole,
  PerDword
};  // format ops/atomics: all-or-nothing;
    // DWORDX2..4: per dword (AMD RDNA3 ISA)

struct AccessPiece {
  uint64_t address = 0;     // byte address = V#.base + SOFFSET + buffer offset (+ rules)
  uint32_t dataOffset = 0;  // where this piece sits in the lane's data (bytes)
  uint8_t size = 0;         // bytes
  bool inRange = false;
};

struct AccessPlan {
  uint64_t index = 0;         // AINDEX
  uint32_t offset = 0;        // AOFFSET
  uint64_t bufferOffset = 0;  // BUFOFFSET (before SOFFSET and base)
  bool swizzled = false;
  std::vector<AccessPiece> pieces;  // one piece, or one per dword for PerDword / swizzle
  std::string rule;                 // short text of the range rule applied (for reports)
};

// bytes: how much the lane accesses (1..16); alignBytes: the natural alignment the address is
// forced to under the `unaligned` policy (4 for dword-or-wider typed ops, 2 for 16-bit, 1 for
// bytes; format ops pass the format's rule). Throws gcn::Error for illegal combinations
// (ADDR64 on gfx8+, ADDR64 with IDXEN/OFFEN, lane > 63, bytes 0 or > 16, alignBytes not a
// power of two up to 16).
AccessPlan planAccess(Gen gen, const VSharp& v, const AddressOperands& in, uint32_t bytes,
                      uint32_t alignBytes, CheckUnit unit, const Policies& p);
// planAccess into `plan`, reusing its storage; the rule text only when withRule (it depends on
// the V#, the policies, SOFFSET, the unit and the instruction's flags, never on a lane's VGPRs,
// so a wave needs it once). For the executor's lane loop.
void planAccessInto(Gen gen, const VSharp& v, const AddressOperands& in, uint32_t bytes,
                    uint32_t alignBytes, CheckUnit unit, const Policies& p, AccessPlan& plan,
                    bool withRule);

// The one statement of how NUM_RECORDS counts (docs/gcn-facts.md "NUM_RECORDS units", Mesa
// radeonsi/RADV descriptor builders): true for bytes, false for records (STRIDE units), for a
// V# with this STRIDE and SWIZZLE_ENABLE read by an access with or without IDXEN. The address
// model and every driver-side V# builder ask it.
bool numRecordsInBytes(Gen gen, uint32_t stride, bool swizzleEnable, bool idxen);
// RDNA: the unit follows the V#'s OOB_SELECT (bytes for 3, records otherwise; GFX11's
// swizzled OOB_SELECT 3 with STRIDE is structured). The (stride, swizzleEnable, idxen) form
// above throws for RDNA, which it cannot answer; this one throws for GCN.
bool rdnaNumRecordsInBytes(Gen gen, uint8_t oobSelect, uint32_t stride, bool swizzled);
// The same for a V# (GCN: its STRIDE and SWIZZLE_ENABLE; RDNA: its OOB_SELECT).
bool numRecordsInBytes(Gen gen, const VSharp& v, bool idxen);

// ---------------------------------------------------------------------------------------------
}  // namespace gcn
