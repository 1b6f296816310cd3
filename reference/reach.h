// Confinement of one buffer instruction: every byte of memory an active lane may read or write,
// whatever the hardware does among the alternatives the reference models as policies. A route
// that puts an arbitrary V# on a device sizes its buffer (and guard bands) from this and refuses
// a case whose reach is too wide (docs/confinement.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/executor.h"
#include "reference/gen.h"
#include "reference/opcodes.h"
#include "reference/policy.h"

namespace gcn {

// [begin, end): absolute byte addresses.
struct ByteRange {
  uint64_t begin = 0, end = 0;
  bool operator==(const ByteRange&) const = default;
};

// One piece of one lane's access under one policy combination: where a reach's extremes come
// from, for messages.
struct ReachPiece {
  unsigned lane = 0;
  uint64_t address = 0;
  uint8_t size = 0;
  Policies policies;  // the combination that puts the piece there (only Reach::points
                      // matter; the others hold the generation's defaults)
};

struct Reach {
  std::vector<ByteRange> ranges;      // sorted, merged (touching ranges too), none empty
  std::optional<ReachPiece> lowest;   // a piece starting at span()->begin
  std::optional<ReachPiece> highest;  // a piece ending at span()->end
  // The policy points that can move a piece or change its verdict for this case, table order:
  // each was tried with every option, or fixed at the option whose in-range pieces include the
  // other's (docs/confinement.md).
  std::vector<PolicyId> points;

  uint64_t bytes() const;                 // total bytes covered
  std::optional<ByteRange> span() const;  // lowest begin .. highest end; nullopt when empty
};

// Every byte an active lane of `inst` may access (read or write, LDS-direct forms included: the
// memory side) on `chip` with this wave state and V#, under any option of every policy point
// that affects addressing or range checking. A piece counts when it is in range under at least
// one combination of those points; a piece every combination puts out of range is never
// performed. No Policies argument: confinement must hold whatever the device does among the
// modelled alternatives, not only under the choices a run pins.
//
// A piece that runs past 2^64 - 1 wraps to address 0 (the executor's 64-bit address
// arithmetic); its part up to the top is kept as [address, 2^64 - 1), so the one byte at
// 2^64 - 1 is not representable. Such a reach spans the whole address space and fails any
// bound.
//
// Throws gcn::Error where execute() would for the instruction and wave state (validate(), the
// V# quad, SOFFSET operand, VADDR/VDATA registers, a reserved data format on an active lane).
Reach computeReach(const Chip& chip, const Instruction& inst, const WaveState& state);

// The widest span a case may reach: the probe layer's largest memory image (16 MiB), so a
// case within it can be described, predicted and compared with the memory images the rest of
// gcnprobe already bounds (docs/confinement.md).
inline constexpr uint64_t kMaxReachSpanBytes = 16ull << 20;

// "" when the reach is empty or its span is at most maxSpan bytes; otherwise a message with
// the lowest and highest address, the span, the limit, and the lane, piece and policy
// combination at each end.
std::string reachBoundProblem(const Reach& r, uint64_t maxSpan = kMaxReachSpanBytes);

}  // namespace gcn
