// Acceptance rule for atomics that several lanes aim at one address. The reference applies
// lanes in order 0..63 (reference/executor.cpp: "one legal order"); the hardware and the
// Vulkan memory model fix no order, so the returned pre-op values depend on it even when
// the final memory does not (commutative ops). A device result is accepted for such an
// address when ONE serial order of its lanes explains every returned value (each lane got
// the value before its own operation) and the final memory; any other result is rejected.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "harness/routes/route.h"
#include "reference/executor.h"
#include "reference/opcodes.h"

namespace gcnprobe::judge {

// One lane's operation on the shared address.
struct AtomicLaneOp {
  unsigned lane = 0;
  uint64_t src = 0;                  // data operand (VDATA[0] or VDATA[0:1])
  uint64_t cmp = 0;                  // CMPSWAP compare operand
  std::optional<uint64_t> returned;  // what the device returned (nullopt: not returned, GLC=0)
};

// A serial order (lanes, first to last) of `ops` that, applied from `initial` with the
// reference's atomic arithmetic (gcn::applyAtomic), gives each lane its `returned` value and
// leaves `final`; nullopt when no order does (or an operation's result is not claimed by
// the reference). Throws gcn::Error for more than 12 lanes (the search is factorial).
std::optional<std::vector<unsigned>> findSerialOrder(gcn::AtomicOp op, bool wide, uint64_t initial,
                                                     std::span<const AtomicLaneOp> ops,
                                                     uint64_t final);

struct AtomicOrderAcceptance {
  std::array<bool, gcn::kWaveSize> lanes{};           // returned registers explained by an order
  std::vector<std::pair<uint64_t, uint64_t>> ranges;  // accepted memory [begin, end), payload
  std::vector<std::string> notes;                     // "lanes 32,33,34,35 at +0x40: order ..."
  // Whether every byte of [offset, offset + length) lies in an accepted range.
  bool memoryAccepted(uint64_t offset, uint64_t length) const;
};

// For an atomic case: every address that two or more lanes hit in range (per `predicted`,
// the reference's plan) and whose device result one serial order explains. Empty for
// non-atomic cases and when the device memory has the wrong size.
AtomicOrderAcceptance acceptAtomicOrders(const routes::DeviceCase& c,
                                         const gcn::ExecResult& predicted,
                                         const routes::DeviceResult& actual);

}  // namespace gcnprobe::judge
