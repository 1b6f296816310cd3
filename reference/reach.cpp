// Confinement: the union, over the policy combinations that can move or admit a piece, of the
// pieces address.h plans for each active lane. The lane loop mirrors execute() (which access
// size and check unit each instruction kind uses, when no memory is touched at all) without
// re-deriving any addressing rule: every address and verdict comes from planAccessInto.
#include "reference/reach.h"

#include <algorithm>
#include <array>
#include <limits>

#include "reference/address.h"
#include "reference/error.h"
#include "reference/format.h"
#include "reference/resource.h"
#include "reference/text.h"

namespace gcn {
namespace {

struct AccessShape {
  uint32_t bytes = 0;
  CheckUnit unit = CheckUnit::Whole;
};

// The points planAccessInto may read for this instruction and V#, in table order, each with the
// options worth trying. Leaving a point out is only safe when address.cpp provably never reads
// it for these inputs; each rule below names the branch that reads it. Five points (soffset,
// offset-vs-stride, tid-noidx, offset-carry, zero-vsharp) only add or drop a condition of a
// verdict and never move a piece, so one option admits a superset of the other's pieces (the
// executor's all-or-nothing rule for whole accesses keeps the superset): trying that option
// alone loses nothing and divides the combinations by the point's option count.
// tests/reference/reach_test.cpp compares the result with the executor under every combination
// of all points.
struct Point {
  PolicyId id;
  std::optional<uint8_t> only;  // the option that admits a superset; nullopt: try every option
};

std::vector<Point> pointsFor(Gen gen, const VSharp& v, const Instruction& inst, uint32_t soffset,
                             const AccessShape& a) {
  std::vector<Point> pts;
  const uint32_t alignBytes = std::min<uint32_t>(a.bytes, 4);
  auto every = [&](PolicyId id) { pts.push_back({id, std::nullopt}); };
  auto widest = [&](PolicyId id, auto option) {
    pts.push_back({id, static_cast<uint8_t>(option)});
  };
  if (inst.addr64) {
    // The ADDR64 branch reads only the alignment rule, and only a wider-than-byte access has low
    // bits to ignore.
    if (alignBytes > 1) every(PolicyId::UnalignedDword);
    return pts;
  }
  // A structured check is possible only when NUM_RECORDS counts records (chooseCheck).
  const bool structured = v.stride != 0 && !numRecordsInBytes(gen, v, /*idxen=*/true);
  // straddle: the byte verdicts, and under PerDword the offset each dword is index-checked at.
  // Neither option admits a superset (a truncated swizzled dword can sit below the start).
  every(PolicyId::RawStraddle);
  // soffset, addresses unchanged under every option. Once SOFFSET exceeds NUM_RECORDS, `wraps`
  // admits every piece the others may (its limit, NUM_RECORDS - SOFFSET mod 2^32, is at least
  // NUM_RECORDS); below, `wraps` and `oob` check against NUM_RECORDS - SOFFSET and `excluded`
  // against NUM_RECORDS, the wider.
  if (soffset > v.numRecords)
    widest(PolicyId::SoffsetOverflow, policy::SoffsetOverflow::Wraps);
  else if (soffset != 0)
    widest(PolicyId::SoffsetOverflow, policy::SoffsetOverflow::Excluded);
  // stride-noidx picks the byte or the index check: neither admits a superset.
  if (structured && !inst.idxen && !v.addTidEnable) every(PolicyId::StrideWithoutIdxen);
  // offset-vs-stride adds `AOFFSET < STRIDE` to the index check.
  if (structured) widest(PolicyId::IdxenOffsetVsStride, policy::IdxenOffsetVsStride::NotChecked);
  // tid-noidx: no check at all, or the index check.
  if (structured && !inst.idxen && v.addTidEnable)
    widest(PolicyId::TidWithoutIdxen, policy::TidWithoutIdxen::NotChecked);
  // index-product: every buffer offset goes through the 32/64-bit fit.
  every(PolicyId::IndexProduct);
  if (v.swizzleEnable && !v.addTidEnable && !isRdna(gen) && !inst.addr64)
    every(PolicyId::SwizzleTid);
  if (v.swizzleEnable) every(PolicyId::SwizzleSoffset);
  // Later dwords of a lane exist only when the access is split (swizzle and more than a dword).
  if (v.swizzleEnable && a.bytes > 4) every(PolicyId::SwizzleMultiDword);
  if (v.addTidEnable && inst.idxen && !v.swizzleEnable) every(PolicyId::TidWithIdxen);
  if (alignBytes > 1) every(PolicyId::UnalignedDword);
  // offset-carry adds "no carry out of the 32-bit offset sum" to the byte and index checks;
  // only an OFFEN VGPR can carry (OFFSET is 12 bits).
  if (inst.offen) widest(PolicyId::OffsetCarry, policy::OffsetCarry::Wraps);
  // zero-vsharp drops the check of an all-zero STRIDE/NUM_RECORDS V#.
  if (v.stride == 0 && v.numRecords == 0)
    widest(PolicyId::ZeroVsharp, policy::ZeroVsharp::NotChecked);
  return pts;
}

// Every combination of the options to try, the points not listed at the generation's defaults
// (which planAccessInto does not read for these inputs).
std::vector<Policies> combinations(Gen gen, const std::vector<Point>& pts) {
  std::vector<Policies> out{Policies::defaults(gen)};
  for (const Point& pt : pts) {
    const std::size_t n = out.size();
    for (std::size_t k = 0; k < n; ++k)
      out[k].set(pt.id, pt.only.value_or(0));
    if (pt.only) continue;
    const std::size_t options = policyPoint(pt.id).options().size();
    for (uint8_t o = 1; o < options; ++o) {
      for (std::size_t k = 0; k < n; ++k) {
        Policies p = out[k];
        p.set(pt.id, o);
        out.push_back(p);
      }
    }
  }
  return out;
}

std::string describePoints(const Policies& p, const std::vector<PolicyId>& ids) {
  const std::string out = p.describe(ids);
  return out.empty() ? "no policy point involved" : out;
}

// Pieces are gathered per lane, merged there (neighbouring combinations mostly plan the same or
// overlapping pieces), and the lanes' few merged ranges are merged again at the end.
class Collector {
 public:
  void add(unsigned lane, uint64_t address, uint8_t size, const Policies& p) {
    constexpr uint64_t kTop = std::numeric_limits<uint64_t>::max();
    // The executor adds addresses modulo 2^64: a piece past the top continues at 0.
    const uint64_t room = kTop - address;  // bytes representable in [address, 2^64 - 1)
    if (size <= room) {
      push({address, address + size}, lane, address, size, p);
    } else {
      if (room > 0) push({address, kTop}, lane, address, size, p);
      const uint64_t low = size - room - 1;  // past 2^64 - 1, which no range can hold
      if (low > 0) push({0, low}, lane, address, size, p);
    }
  }

  void endLane() {
    mergeInto(lane_, merged_);
    lane_.clear();
  }

  Reach finish() {
    Reach r;
    mergeInto(merged_, r.ranges);
    r.lowest = lowest_;
    r.highest = highest_;
    return r;
  }

 private:
  static void mergeInto(std::vector<ByteRange>& from, std::vector<ByteRange>& to) {
    std::sort(from.begin(), from.end(),
              [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
    const std::size_t first = to.size();
    for (const ByteRange& b : from) {
      if (to.size() > first && b.begin <= to.back().end)
        to.back().end = std::max(to.back().end, b.end);
      else
        to.push_back(b);
    }
  }

  void push(ByteRange b, unsigned lane, uint64_t address, uint8_t size, const Policies& p) {
    if (!lane_.empty() && lane_.back() == b) return;  // the previous combination's piece
    lane_.push_back(b);
    if (!lowest_ || b.begin < lowBegin_) {
      lowBegin_ = b.begin;
      lowest_ = ReachPiece{lane, address, size, p};
    }
    if (!highest_ || b.end > highEnd_) {
      highEnd_ = b.end;
      highest_ = ReachPiece{lane, address, size, p};
    }
  }

  std::vector<ByteRange> lane_, merged_;
  std::optional<ReachPiece> lowest_, highest_;
  uint64_t lowBegin_ = 0, highEnd_ = 0;
};

}  // namespace

uint64_t Reach::bytes() const {
  uint64_t n = 0;
  for (const ByteRange& b : ranges)
    n += b.end - b.begin;
  return n;
}

std::optional<ByteRange> Reach::span() const {
  if (ranges.empty()) return std::nullopt;
  return ByteRange{ranges.front().begin, ranges.back().end};
}

Reach computeReach(const Chip& chip, const Instruction& inst, const WaveState& state) {
  // The same checks, in the same order, as execute() and its resource decode.
  if (inst.op == nullptr) throw Error("execute: instruction has no opcode");
  validate(chip.gen, inst);
  const OpcodeInfo& op = *inst.op;
  const Gen gen = chip.gen;
  const std::array<uint32_t, 4> words = vsharpWords(state, inst.srsrc);
  const bool zeroV = words == std::array<uint32_t, 4>{};
  const VSharp v = accessVSharp(gen, decodeVSharp(gen, words), op.encoding == Encoding::Mtbuf);
  const unsigned data = vdataRegs(op, chip, inst.tfe);
  if (op.kind != OpKind::Cache && inst.vdata + data > 256)
    throw Error("vdata: v" + std::to_string(inst.vdata) + " plus " + std::to_string(data) +
                " registers runs past v255");
  const AddressInputs address = addressInputs(inst, state);
  const uint32_t soffset = address.soffset;

  // Which access each lane makes (executor: loadFormat/storeFormat, loadTyped/storeTyped,
  // atomic), and the cases where none reaches memory.
  AccessShape shape;
  bool none = zeroV;  // all-zero V#: nothing read or written (docs/gcn-facts.md)
  switch (op.kind) {
    case OpKind::Cache:
      return Reach{};  // no address (CLRX GcnInstrsMtbuf)
    case OpKind::LoadFormat:
    case OpKind::StoreFormat: {
      const Dfmt d = conversionFormat(gen, op, inst, v).dfmt;
      // A V#'s DATA_FORMAT that is stride bits (ADD_TID, GFX8/9 MUBUF) names no format: planned
      // at 16 bytes as execute() does. DATA_FORMAT INVALID: loads return 0, stores do nothing,
      // no access planned. The reserved format 15 is planned at 16 bytes (formatAccessBytes).
      if (op.dfmtSource == FieldSource::Resource &&
          dataFormatIsStrideBits(gen, v, op.encoding == Encoding::Mtbuf)) {
        shape = {formatAccessBytes(Dfmt::Reserved), CheckUnit::Whole};
        break;
      }
      none = none || d == Dfmt::Invalid;
      shape = {formatAccessBytes(d), CheckUnit::Whole};
      break;
    }
    case OpKind::Load:
    case OpKind::Store:
      shape = {op.memBytes, op.memBytes > 4 ? CheckUnit::PerDword : CheckUnit::Whole};
      break;
    case OpKind::Atomic:
      shape = {op.memBytes, CheckUnit::Whole};
      break;
  }
  // GFX6/7 drop untyped accesses through a V# with DATA_FORMAT INVALID (resource.h).
  const bool untyped =
      op.kind == OpKind::Load || op.kind == OpKind::Store || op.kind == OpKind::Atomic;
  if (untyped && untypedAccessDropped(gen, v)) none = true;
  if (none || state.exec == 0) return Reach{};

  const std::vector<Point> pts = pointsFor(gen, v, inst, soffset, shape);
  const std::vector<Policies> combos = combinations(gen, pts);

  Collector out;
  AccessPlan plan;
  const uint32_t alignBytes = std::min<uint32_t>(shape.bytes, 4);
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (((state.exec >> lane) & 1) == 0) continue;  // inactive lanes access nothing
    const AddressOperands a = address.forLane(lane);
    for (const Policies& p : combos) {
      planAccessInto(gen, v, a, shape.bytes, alignBytes, shape.unit, p, plan, false);
      // Whole accesses are all-or-nothing (executor's plan()).
      const bool all = std::all_of(plan.pieces.begin(), plan.pieces.end(),
                                   [](const AccessPiece& x) { return x.inRange; });
      for (const AccessPiece& piece : plan.pieces)
        if (piece.inRange && (shape.unit != CheckUnit::Whole || all))
          out.add(lane, piece.address, piece.size, p);
    }
    out.endLane();
  }
  Reach r = out.finish();
  for (const Point& pt : pts)
    r.points.push_back(pt.id);
  return r;
}

std::string reachBoundProblem(const Reach& r, uint64_t maxSpan) {
  const std::optional<ByteRange> s = r.span();
  if (!s) return "";
  const uint64_t span = s->end - s->begin;
  if (span <= maxSpan) return "";
  std::string msg = "reach from " + hexNumber(s->begin) + " to " + hexNumber(s->end) +
                    " (exclusive) spans " + std::to_string(span) + " bytes, over the limit of " +
                    std::to_string(maxSpan) + " bytes";
  auto piece = [&](const char* which, const std::optional<ReachPiece>& p) {
    if (!p) return;
    msg += std::string("; ") + which + ": lane " + std::to_string(p->lane) + ", " +
           std::to_string(p->size) + " bytes at " + hexNumber(p->address) + " (" +
           describePoints(p->policies, r.points) + ")";
  };
  piece("lowest", r.lowest);
  piece("highest", r.highest);
  return msg;
}

}  // namespace gcn
