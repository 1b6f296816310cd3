#include "harness/judge/atomic_order.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <set>

#include "reference/atomic.h"
#include "reference/error.h"
#include "reference/text.h"

namespace gcnprobe::judge {
namespace {

constexpr std::size_t kMaxLanes = 12;

struct Search {
  gcn::AtomicOp op;
  bool wide;
  std::span<const AtomicLaneOp> ops;
  uint64_t final;
  uint64_t mask;  // value bits (32 or 64)
  std::vector<unsigned> order;
  std::set<std::pair<uint32_t, uint64_t>> dead;  // (lanes done, value) known to fail

  bool step(uint32_t done, uint64_t value) {
    if (done == (1u << ops.size()) - 1) return value == final;
    if (dead.count({done, value}) != 0) return false;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (done & (1u << i)) continue;
      const AtomicLaneOp& o = ops[i];
      if (o.returned && (*o.returned & mask) != value) continue;
      const gcn::AtomicOutcome r = gcn::applyAtomic(op, wide, value, o.src, o.cmp);
      if (!r.claimed) return false;
      order.push_back(o.lane);
      if (step(done | (1u << i), r.newValue & mask)) return true;
      order.pop_back();
    }
    dead.insert({done, value});
    return false;
  }
};

uint64_t readLe(std::span<const uint8_t> bytes, uint64_t off, unsigned size) {
  uint64_t v = 0;
  std::memcpy(&v, bytes.data() + off, size);
  return v;
}

}  // namespace

std::optional<std::vector<unsigned>> findSerialOrder(gcn::AtomicOp op, bool wide, uint64_t initial,
                                                     std::span<const AtomicLaneOp> ops,
                                                     uint64_t final) {
  if (ops.size() > kMaxLanes)
    throw gcn::Error("atomic order: " + std::to_string(ops.size()) +
                     " lanes on one address (at most " + std::to_string(kMaxLanes) + ")");
  Search s{op, wide, ops, 0, wide ? ~0ull : 0xffffffffull, {}, {}};
  s.final = final & s.mask;
  if (!s.step(0, initial & s.mask)) return std::nullopt;
  return s.order;
}

bool AtomicOrderAcceptance::memoryAccepted(uint64_t offset, uint64_t length) const {
  for (uint64_t b = offset; b < offset + length; ++b) {
    bool in = false;
    for (const auto& [lo, hi] : ranges)
      in = in || (b >= lo && b < hi);
    if (!in) return false;
  }
  return true;
}

AtomicOrderAcceptance acceptAtomicOrders(const routes::DeviceCase& c,
                                         const gcn::ExecResult& predicted,
                                         const routes::DeviceResult& actual) {
  AtomicOrderAcceptance acc;
  const gcn::OpcodeInfo* op = c.inst.op;
  if (op == nullptr || op->kind != gcn::OpKind::Atomic) return acc;
  if (actual.memory.size() != c.memory.bytes.size()) return acc;
  const bool wide = op->wide;
  const unsigned size = wide ? 8 : 4;
  const unsigned words = wide ? 2 : 1;
  const bool hasCmp = op->atomic == gcn::AtomicOp::Cmpswap || op->atomic == gcn::AtomicOp::Fcmpswap;

  // Lanes per in-range, mapped address, from the reference's access plan.
  std::map<uint64_t, std::vector<AtomicLaneOp>> groups;
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    const gcn::LaneResult& pl = predicted.lanes[l];
    if (!pl.active || pl.accesses.size() != 1) continue;
    const gcn::LaneAccess& a = pl.accesses[0];
    if (!a.write || !a.inRange || !a.mapped || a.address < c.memory.base) continue;
    const uint64_t off = a.address - c.memory.base;
    if (off + size > c.memory.bytes.size()) continue;
    const auto operand = [&](unsigned first) {
      uint64_t x = c.state.vgpr(c.inst.vdata + first)[l];
      if (wide) x |= static_cast<uint64_t>(c.state.vgpr(c.inst.vdata + first + 1)[l]) << 32;
      return x;
    };
    AtomicLaneOp o;
    o.lane = l;
    o.src = operand(0);
    o.cmp = hasCmp ? operand(words) : 0;
    if (pl.vdataCount > 0) {
      uint64_t r = actual.vdata[l][0];
      if (wide) r |= static_cast<uint64_t>(actual.vdata[l][1]) << 32;
      o.returned = r;
    }
    groups[off].push_back(o);
  }

  for (const auto& [off, ops] : groups) {
    if (ops.size() < 2 || ops.size() > kMaxLanes) continue;
    const uint64_t initial = readLe(c.memory.bytes, off, size);
    const uint64_t final = readLe(actual.memory, off, size);
    const auto order = findSerialOrder(op->atomic, wide, initial, ops, final);
    if (!order) continue;
    for (const AtomicLaneOp& o : ops)
      acc.lanes[o.lane] = true;
    acc.ranges.push_back({off, off + size});
    std::string text;
    for (unsigned l : *order)
      text.append(text.empty() ? "" : ",").append(std::to_string(l));
    acc.notes.push_back(std::to_string(ops.size()) + " lanes " + std::string(op->mnemonic) +
                        " at +" + gcn::hexNumber(off) + ": explained by serial order " + text);
  }
  return acc;
}

}  // namespace gcnprobe::judge
