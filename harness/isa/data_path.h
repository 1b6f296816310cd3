// The data-path proof: that what the case instruction returned is what reaches the route's Out
// buffer, and that what it stored (and the address it used) is what the route's In buffer
// held, with nothing but copies in between. The ISA check (check.h) proves that the intended
// instruction is in the pipeline on the case's buffer; this proves that the driver put no
// arithmetic between that instruction and the values the verdict compares (RADV rewrites
// vertex-fetch results for formats the hardware fetches "wrong", e.g. the W of signed
// 2_10_10_10, and swaps B and R of BGRA vertex formats: docs/isa-misses.md).
//
// Method: a forward data flow over the listing (instruction_effects.h) in which every VGPR
// holds a value tag: its entry value, "register j written by instruction i", or Mixed (paths
// or EXEC masks merge different values). A copy (v_mov_b32 without modifiers) moves a tag,
// v_swap_b32 exchanges two; every other write makes a new tag. Writes under a narrowed EXEC
// only reach some lanes: each VGPR also keeps the join of every tag it held since EXEC was
// last changed by anything but a narrowing, and such a change (a restore that may enable lanes
// again) falls back to that join. A register whose writer the tables cannot size, an
// undecodable word or an indirect branch breaks the proof: it is never a pass.
//
// Out positions: a store's VDATA dword j goes to (its address operands' tags, SOFFSET, OFFSET +
// 4j); result register k must reach position p0 + 4k of one such address for every k, and In
// words likewise come from consecutive positions of one In load address. Where the route gives
// its lane layout (routes::DataPath::lanes), every In load and Out store address is also
// evaluated as an exact linear term of the lane id (lane_terms.h): each Out store dword must be
// result k of the storing lane at its slot, VDATA word k the lane's In data word k and VADDR the
// lane's In address word, each loaded as a whole dword; an address that is no term breaks it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "harness/isa/aco_asm.h"
#include "harness/isa/descriptor_trace.h"
#include "harness/routes/route.h"
#include "reference/gen.h"

namespace gcnprobe::isa {

struct DataPathRequest {
  std::size_t caseIndex = 0;  // the case instruction's index in the listing
  routes::DataPath path;      // the route's Out / In buffers and address rule
  UserSgprRoles roles;        // the stage's argument SGPRs (base vertex for VertexIndex)
};

struct DataPathProof {
  bool proven = false;
  // Not proven: the first break, quoting the instruction and its listing line.
  std::string reason;
  // What was proven (or assumed), one phrase per link: "results v[4:7] reach Out dwords 0-3
  // through copies, each in the storing lane's slot (...)", "VADDR register v1 = the lane's In
  // word (byte 4*lane)", "SOFFSET assumed".
  std::vector<std::string> links;
  // Not proven, but only because some result components are rewritten by the driver (the
  // alpha of signed 2_10_10_10 vertex fetches on GFX6-8): bit k set for each component k that
  // is proven, with everything else the proof requires; `links` then hold what is proven and
  // `reason` why the other components are not. 0 otherwise.
  uint32_t components = 0;
};

DataPathProof proveDataPath(gcn::Gen gen, std::span<const AsmInstruction> code,
                            std::span<const TracedDescriptor> traced,
                            std::span<const SgprEntryCopies> sgprs, const DataPathRequest& req);

}  // namespace gcnprobe::isa
