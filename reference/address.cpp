#include "reference/address.h"

#include <algorithm>

#include "reference/error.h"

namespace gcn {
namespace {

// None: never out of range; Byte: the buffer offset against NUM_RECORDS in bytes; Index:
// AINDEX against NUM_RECORDS in records (plus an offset test, see offsetTest below); Records:
// RDNA's OOB_SELECT 2, out of range only when NUM_RECORDS is 0.
enum class Check : uint8_t { None, Byte, Index, Records };

// RDNA (GFX10+): the V#'s OOB_SELECT chooses the check (Mesa src/amd/common/ac_descriptors.c,
// ac_set_buf_desc_word3; docs/rdna.md "Range checking"):
//   0  (index >= NUM_RECORDS) || (offset >= STRIDE)          GFX11: offset+payload > STRIDE
//   1  index >= NUM_RECORDS
//   2  NUM_RECORDS == 0
//   3  offset >= NUM_RECORDS (bytes); swizzled: swizzle_address >= NUM_RECORDS
//      GFX11: SWIZZLE_ENABLE && STRIDE: as 0; else offset+payload > NUM_RECORDS
// Whether the payload counts is the straddle policy (start / whole), whose RDNA defaults are
// those rules. `offsetTest` says whether the index check also tests the offset against STRIDE.
Check chooseRdnaCheck(Gen gen, const VSharp& v, bool& offsetTest, std::string_view& why) {
  offsetTest = false;
  const bool swizzled = gen == Gen::Gfx11 ? v.swizzleEnableGfx11 != 0 : v.swizzleEnable;
  switch (v.oobSelect) {
    case 0:
      offsetTest = true;
      why = "OOB_SELECT 0: structured, with the offset tested against STRIDE";
      return Check::Index;
    case 1:
      why = "OOB_SELECT 1: structured, index only";
      return Check::Index;
    case 2:
      why = "OOB_SELECT 2: out of range only when NUM_RECORDS is 0";
      return Check::Records;
    default:
      if (gen == Gen::Gfx11 && swizzled && v.stride != 0) {
        offsetTest = true;
        why = "OOB_SELECT 3 with SWIZZLE_ENABLE and STRIDE on gfx11: structured, with the offset";
        return Check::Index;
      }
      why = "OOB_SELECT 3: raw, NUM_RECORDS in bytes";
      return Check::Byte;
  }
}

bool isPowerOfTwo(uint32_t x) {
  return x != 0 && (x & (x - 1)) == 0;
}

// Which range check applies. NUM_RECORDS units per generation come from docs/gcn-facts.md
// ("NUM_RECORDS units", Mesa radeonsi/RADV comments); the cases without IDXEN, which the sources
// dispute, come from the policies.
Check chooseCheck(Gen gen, const VSharp& v, const AddressOperands& in, const Policies& p,
                  bool& offsetTest, std::string_view& why) {
  if (isRdna(gen)) return chooseRdnaCheck(gen, v, offsetTest, why);
  // CLRX GcnMemHandling: OFFSET >= STRIDE is out of range; GFX9 emulator: no offset test.
  offsetTest = p.idxenOffsetVsStride() == policy::IdxenOffsetVsStride::OutOfRange;
  // CLRX GcnMemHandling: "buffer resources with STRIDE=0": byte check on every generation; RADV
  // observed GFX9 not checking a V# whose STRIDE and NUM_RECORDS are both 0 (zero-vsharp).
  if (v.stride == 0 && v.numRecords == 0 && p.zeroVsharp() == policy::ZeroVsharp::NotChecked) {
    why = "STRIDE == 0 and NUM_RECORDS == 0, zero-vsharp=unchecked";
    return Check::None;
  }
  if (v.stride == 0) {
    why = "STRIDE == 0";
    return Check::Byte;
  }
  // A V# whose NUM_RECORDS counts bytes even for an IDXEN access (GFX8 without SWIZZLE_ENABLE)
  // counts bytes for every access: an index check against a byte count would be meaningless,
  // so the byte check applies.
  if (numRecordsInBytes(gen, v, /*idxen=*/true)) {
    why = "gfx8 without SWIZZLE_ENABLE: NUM_RECORDS in bytes";
    return Check::Byte;
  }
  if (in.idxen) {
    why = "IDXEN with STRIDE != 0";
    return Check::Index;
  }
  // STRIDE != 0 and IDXEN == 0: disputed (docs/gcn-facts.md "Disputed points").
  if (v.addTidEnable) {
    // CLRX GcnMemHandling: "when IDXEN or TID_ENABLE is set" -> index check; GFX9 (scratch): none.
    if (p.tidWithoutIdxen() == policy::TidWithoutIdxen::NotChecked) {
      why = "ADD_TID_ENABLE without IDXEN, tid-noidx=unchecked";
      return Check::None;
    }
    why = "ADD_TID_ENABLE without IDXEN, tid-noidx=index";
    return Check::Index;
  }
  // CLRX GcnMemHandling: STRIDE != 0 selects the index rule; GFX9 emulator: IDXEN selects it.
  if (p.strideWithoutIdxen() == policy::StrideWithoutIdxen::ByteCheck) {
    why = "STRIDE != 0 without IDXEN, stride-noidx=byte";
    return Check::Byte;
  }
  why = "STRIDE != 0 without IDXEN, stride-noidx=index";
  return Check::Index;
}

// CLRX GcnMemHandling swizzled addressing (also AMD RDNA3 ISA's buffer_offset formula):
//   BUFOFFSET = AOFFSET_LSB + ELEMSIZE*AINDEX_LSB + INDEXSTRIDE*(AINDEX_MSB*STRIDE +
//               AOFFSET_MSB*ELEMSIZE)
uint64_t swizzledOffset(uint64_t index, uint64_t offset, uint64_t stride, uint64_t elem,
                        uint64_t indexStride) {
  const uint64_t indexMsb = index / indexStride;
  const uint64_t indexLsb = index % indexStride;
  const uint64_t offsetMsb = offset / elem;
  const uint64_t offsetLsb = offset % elem;
  return offsetLsb + elem * indexLsb + indexStride * (indexMsb * stride + offsetMsb * elem);
}

// swizzle-tid: AMD's rocjitsu swizzles a GFX9/CDNA access only when ADD_TID_ENABLE is set too;
// under `tid-only` such a V# addresses linearly (a copy in `linear`). Read only where it can
// matter.
const VSharp& addressingVSharp(Gen gen, const VSharp& v, const AddressOperands& in,
                               const Policies& p, VSharp& linear) {
  if (v.swizzleEnable && !v.addTidEnable && !isRdna(gen) && !in.addr64 &&
      p.swizzleTid() == policy::SwizzleTid::TidOnly) {
    linear = v;
    linear.swizzleEnable = false;
    return linear;
  }
  return v;
}

void checkAccessOperands(Gen gen, const VSharp& v, const AddressOperands& in, uint32_t bytes,
                         uint32_t alignBytes) {
  if (bytes == 0 || bytes > 16)
    throw Error("buffer access of " + std::to_string(bytes) + " bytes: expected 1..16");
  if (!isPowerOfTwo(alignBytes) || alignBytes > 16)
    throw Error("alignment " + std::to_string(alignBytes) + ": expected 1, 2, 4, 8 or 16");
  if (in.lane >= 64) throw Error("lane " + std::to_string(in.lane) + ": expected 0..63");
  if (in.addr64 && gen != Gen::Gfx6 && gen != Gen::Gfx7)
    throw Error("ADDR64 does not exist on " + std::string(genName(gen)) + " (GFX6/7 only)");
  if (in.addr64 && (in.idxen || in.offen))
    throw Error("ADDR64 cannot be combined with IDXEN or OFFEN (CLRX GcnMemHandling)");
  if (isRdna(gen) && (v.swizzleEnable || v.swizzleEnableGfx11 != 0))
    throw Error("swizzled addressing on " + std::string(genName(gen)) +
                " (its element size and index stride) is not modelled");
}

// One piece of the lane's data: where it sits in the data and how many bytes it has.
struct Span {
  uint32_t dataOffset;
  uint8_t size;
};
struct Spans {
  std::array<Span, 4> store{};  // bytes <= 16: at most four dwords
  std::size_t count = 0;
  std::span<const Span> view() const { return {store.data(), count}; }
};

// One span, or one per dword when the check is per dword or a swizzled access is wider than a
// dword.
Spans spansOf(const VSharp& v, const AddressOperands& in, uint32_t bytes, CheckUnit unit) {
  Spans spans;
  const bool split = unit == CheckUnit::PerDword || (v.swizzleEnable && !in.addr64 && bytes > 4);
  if (!split) {
    spans.store[spans.count++] = {0, static_cast<uint8_t>(bytes)};
    return spans;
  }
  for (uint32_t d = 0; d < bytes; d += 4)
    spans.store[spans.count++] = {d, static_cast<uint8_t>(std::min<uint32_t>(4, bytes - d))};
  return spans;
}

// AMD RDNA3 ISA DWORD alignment mode: the low bits of the byte address are ignored. The whole
// access moves with its start; the range check sees the offsets as computed (CLRX formulas).
uint64_t alignDelta(const Policies& p, uint32_t alignBytes, uint64_t start) {
  if (p.unalignedDword() == policy::UnalignedDword::Unaligned) return 0;
  return start & (alignBytes - 1);
}

// CLRX GcnMemHandling: ADDRESS = BASE + VGPR_ADDRESS + OFFSET + SGPR_OFFSET; no range checking.
void planAddr64(const VSharp& v, const AddressOperands& in, uint32_t alignBytes, const Policies& p,
                std::span<const Span> spans, AccessPlan& plan, bool withRule) {
  const uint64_t vaddr = (static_cast<uint64_t>(in.vaddr[1]) << 32) | in.vaddr[0];
  plan.offset = in.instOffset;
  plan.bufferOffset = vaddr + in.instOffset;
  const uint64_t start = v.base + in.soffset + plan.bufferOffset;
  const uint64_t delta = alignDelta(p, alignBytes, start);
  for (const Span& s : spans)
    plan.pieces.push_back({start - delta + s.dataOffset, s.dataOffset, s.size, true});
  if (withRule) plan.rule = "none: ADDR64 is never range-checked (CLRX GcnMemHandling)";
}

// AINDEX, AOFFSET and the buffer offset of an access without ADDR64.
struct BufferAddress {
  Gen gen;
  const VSharp& v;
  const Policies& p;
  uint32_t soffset = 0;
  uint32_t aindex = 0;
  uint32_t aoffset = 0;
  bool carryOut = false;       // VGPR offset + OFFSET passed 2^32 under offset-carry=oob
  bool soffsetInBase = false;  // SOFFSET belongs to the base, not to the swizzled offset
  bool wide = false;           // index-product=wide64

  uint64_t fit(uint64_t x) const { return wide ? x : static_cast<uint32_t>(x); }
  // The buffer offset of the byte `extra` bytes into the lane's data.
  uint64_t offsetFor(uint32_t extra) const {
    if (!v.swizzleEnable) {
      const uint64_t product = fit(static_cast<uint64_t>(aindex) * v.stride);
      return fit(product + aoffset + extra);
    }
    const uint64_t off = static_cast<uint64_t>(aoffset) + (soffsetInBase ? 0u : soffset);
    const uint64_t elem = swizzleElementBytes(gen, v);
    const uint64_t istride = swizzleIndexStride(v);
    // CLRX GcnMemHandling's formula gives the start; whether later dwords follow contiguously or
    // are swizzled on their own is disputed (swizzle-multidword).
    if (p.swizzleMultiDword() == policy::SwizzleMultiDword::PerDword)
      return fit(swizzledOffset(aindex, off + extra, v.stride, elem, istride));
    return fit(swizzledOffset(aindex, off, v.stride, elem, istride) + extra);
  }
};

BufferAddress bufferAddressOf(Gen gen, const VSharp& v, const AddressOperands& in,
                              const Policies& p) {
  BufferAddress a{gen, v, p};
  a.soffset = in.soffset;
  // CLRX GcnMemHandling: UINT32 AINDEX = (IDXEN ? VGPR_INDEX : 0) + (TID_ENABLE ? LANEID : 0).
  // With IDXEN and no swizzle the lane is disputed (tid-idx); under swizzle AMD RDNA3 ISA's
  // formula always adds it.
  bool laneAdded = v.addTidEnable;
  if (v.addTidEnable && in.idxen && !v.swizzleEnable &&
      p.tidWithIdxen() == policy::TidWithIdxen::LaneNotAdded)
    laneAdded = false;
  a.aindex = (in.idxen ? in.vaddr[0] : 0u) + (laneAdded ? in.lane : 0u);
  // CLRX GcnMemHandling: UINT32 AOFFSET = OFFSET + (OFFEN ? VGPR_OFFSET : 0); the offset VGPR is
  // the second one when IDXEN is also set.
  const uint64_t aoffsetWide =
      uint64_t{in.instOffset} + (in.offen ? in.vaddr[in.idxen ? 1 : 0] : 0u);
  a.aoffset = static_cast<uint32_t>(aoffsetWide);
  // LLVM AMDGPU: before GFX9 a negative VGPR offset fails the range check although the wrapped
  // address would be valid (offset-carry, `oob` on GFX9 too for want of another record); the
  // address itself stays the wrapped one.
  a.carryOut = aoffsetWide > UINT32_MAX && p.offsetCarry() == policy::OffsetCarry::OutOfRange;
  // CLRX GcnMemHandling and AMD RDNA3 ISA put SGPR_OFFSET in the base; one emulator swizzles it
  // with the offset.
  a.soffsetInBase = !v.swizzleEnable || p.swizzleSoffset() == policy::SwizzleSoffset::AddedToBase;
  // CLRX GcnMemHandling declares AINDEX and AOFFSET UINT32 and casts the product: under trunc32
  // the buffer offset is a 32-bit quantity; the GFX9 emulator computes it in 64 bits.
  a.wide = p.indexProduct() == policy::IndexProduct::Wide64;
  return a;
}

// The range check that applies to an access, with its limits.
struct RangeCheck {
  Check check = Check::None;
  bool offsetTest = false;  // the index check also tests the offset against STRIDE
  std::string_view why;
  bool wholeAccess = false;  // straddle=whole
  bool rdna = false;
  bool soffsetOver = false;  // SOFFSET > NUM_RECORDS in a byte check
  bool allOut = false;       // ... and soffset=all-oob
  uint64_t limit = 0;        // NUM_RECORDS - SOFFSET as the byte check sees it
};

RangeCheck rangeCheckOf(const AddressOperands& in, const BufferAddress& addr) {
  const VSharp& v = addr.v;
  const Policies& p = addr.p;
  RangeCheck rc;
  rc.check = chooseCheck(addr.gen, v, in, p, rc.offsetTest, rc.why);
  rc.wholeAccess = p.rawStraddle() == policy::RawStraddle::WholeAccess;
  rc.rdna = isRdna(addr.gen);
  // Byte check, CLRX GcnMemHandling: out of range when BUFOFFSET >= NUMRECORDS - SGPR_OFFSET.
  // When SOFFSET > NUM_RECORDS the subtraction wraps (LLVM: GFX6/7 clamping bug) or everything
  // is out of range (soffset policy).
  // AMD RDNA3 ISA: "The sgpr_offset is not a part of the offset term ... it's in the base": on
  // RDNA the check sees the buffer offset alone.
  // Under soffset=excluded (LLVM's buffer intrinsics contract) SOFFSET takes no part at all; the
  // point is read only where it can matter (a non-zero SOFFSET in a byte check).
  const bool soffsetExcluded = in.soffset != 0 && addr.soffsetInBase && !rc.rdna &&
                               rc.check == Check::Byte &&
                               p.soffsetOverflow() == policy::SoffsetOverflow::Excluded;
  const uint32_t soffsetInCheck =
      addr.soffsetInBase && !rc.rdna && !soffsetExcluded ? in.soffset : 0u;
  rc.soffsetOver = soffsetInCheck > v.numRecords;
  rc.allOut = rc.soffsetOver && p.soffsetOverflow() == policy::SoffsetOverflow::AllOutOfRange;
  rc.limit = static_cast<uint32_t>(v.numRecords - soffsetInCheck);
  return rc;
}

// Whether each span is in range. Under straddle=start every piece shares the verdict of the
// access start (CLRX GcnMemHandling). Under straddle=whole, PerDword checks each dword alone and
// Whole is all-or-nothing (AMD RDNA3 ISA).
// `offsets`: each span's buffer offset (the first is the access's).
std::array<bool, 4> verdictsOf(const RangeCheck& rc, const BufferAddress& addr,
                               std::span<const Span> spans, std::span<const uint64_t> offsets,
                               uint32_t bytes, CheckUnit unit) {
  const VSharp& v = addr.v;
  auto byteInRange = [&](uint64_t start, uint32_t size) {
    if (rc.allOut || addr.carryOut) return false;
    // start only (CLRX GcnMemHandling) or the whole piece must end inside (AMD RDNA3 ISA,
    // gfx950).
    return rc.wholeAccess ? start + size <= rc.limit : start < rc.limit;
  };
  auto indexInRange = [&](uint32_t offsetInRecord, uint32_t size) {
    if (addr.carryOut || addr.aindex >= v.numRecords)
      return false;  // CLRX GcnMemHandling: AINDEX >= NUMRECORDS
    if (!rc.offsetTest) return true;
    // RDNA OOB_SELECT 0: GFX10 "offset >= STRIDE", GFX11 "offset+payload > STRIDE" (straddle).
    if (rc.rdna && rc.wholeAccess) return uint64_t{offsetInRecord} + size <= v.stride;
    return offsetInRecord < v.stride;
  };
  std::array<bool, 4> verdict{};
  const bool own = rc.wholeAccess && unit == CheckUnit::PerDword;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const Span& s = spans[i];
    switch (rc.check) {
      case Check::None:
        verdict[i] = true;
        break;
      case Check::Byte:
        verdict[i] =
            rc.wholeAccess ? byteInRange(offsets[i], s.size) : byteInRange(offsets[0], bytes);
        break;
      case Check::Index:
        verdict[i] = indexInRange(addr.aoffset + (own ? s.dataOffset : 0u), own ? s.size : bytes);
        break;
      case Check::Records:
        verdict[i] = !addr.carryOut && v.numRecords != 0;
        break;
    }
  }
  if (unit == CheckUnit::Whole) {
    const bool all =
        std::all_of(verdict.begin(), verdict.begin() + spans.size(), [](bool b) { return b; });
    std::fill(verdict.begin(), verdict.begin() + spans.size(), all);
  }
  return verdict;
}

// The short text of the range rule applied, for reports.
std::string ruleText(const RangeCheck& rc, const BufferAddress& addr, CheckUnit unit) {
  const bool carryOut = addr.carryOut;
  const std::string carry =
      carryOut ? "; VGPR offset + OFFSET >= 2^32: out of range (offset-carry)" : "";
  const std::string why = " (" + std::string(rc.why) + ")";
  switch (rc.check) {
    case Check::None:
      return "none" + why;
    case Check::Byte:
      return std::string("byte: out of range when BUFOFFSET") +
             (rc.wholeAccess ? " + size >" : " >=") + " NUM_RECORDS" +
             (addr.soffsetInBase && !rc.rdna ? " - SOFFSET" : "") +
             (rc.wholeAccess ? (unit == CheckUnit::PerDword ? " (each dword)" : " (whole access)")
                             : " (start only)") +
             (rc.soffsetOver ? (rc.allOut ? "; SOFFSET > NUM_RECORDS: all out of range"
                                          : "; SOFFSET > NUM_RECORDS: limit wraps")
                             : "") +
             carry + why;
    case Check::Index:
      return std::string("index: out of range when AINDEX >= NUM_RECORDS") +
             (rc.offsetTest ? (rc.rdna && rc.wholeAccess ? " or AOFFSET + size > STRIDE"
                                                         : " or AOFFSET >= STRIDE")
                            : "") +
             carry + why;
    case Check::Records:
      return "records: out of range when NUM_RECORDS == 0" + carry + why;
  }
  return "";
}

}  // namespace

bool numRecordsInBytes(Gen gen, uint32_t stride, bool swizzleEnable, bool idxen) {
  // docs/gcn-facts.md "NUM_RECORDS units" (Mesa radeonsi/RADV driver comments).
  if (stride == 0) return true;
  switch (gen) {
    case Gen::Gfx6:
    case Gen::Gfx7:
      return false;
    case Gen::Gfx8:
      return !swizzleEnable;
    case Gen::Gfx9:
      return !idxen;
    case Gen::Gfx10:
    case Gen::Gfx10_3:
    case Gen::Gfx11:
      // RDNA chooses the unit with the V#'s OOB_SELECT: the V# overloads answer.
      throw Error("NUM_RECORDS units on " + std::string(genName(gen)) +
                  " follow the V#'s OOB_SELECT, which this question does not give");
  }
  return true;
}

bool rdnaNumRecordsInBytes(Gen gen, uint8_t oobSelect, uint32_t stride, bool swizzled) {
  if (!isRdna(gen))
    throw Error("OOB_SELECT does not exist on " + std::string(genName(gen)) + " (GFX10 and later)");
  // Only OOB_SELECT 3 counts bytes, and not GFX11's swizzled structured form of it. Mode 2
  // only compares NUM_RECORDS with 0: records, like 0 and 1.
  return oobSelect == 3 && !(gen == Gen::Gfx11 && swizzled && stride != 0);
}

bool numRecordsInBytes(Gen gen, const VSharp& v, bool idxen) {
  if (isRdna(gen))
    return rdnaNumRecordsInBytes(gen, v.oobSelect, v.stride,
                                 gen == Gen::Gfx11 ? v.swizzleEnableGfx11 != 0 : v.swizzleEnable);
  return numRecordsInBytes(gen, v.stride, v.swizzleEnable, idxen);
}

AccessPlan planAccess(Gen gen, const VSharp& v, const AddressOperands& in, uint32_t bytes,
                      uint32_t alignBytes, CheckUnit unit, const Policies& p) {
  AccessPlan plan;
  planAccessInto(gen, v, in, bytes, alignBytes, unit, p, plan, true);
  return plan;
}

void planAccessInto(Gen gen, const VSharp& vIn, const AddressOperands& in, uint32_t bytes,
                    uint32_t alignBytes, CheckUnit unit, const Policies& p, AccessPlan& plan,
                    bool withRule) {
  VSharp linear;
  const VSharp& v = addressingVSharp(gen, vIn, in, p, linear);
  checkAccessOperands(gen, v, in, bytes, alignBytes);
  plan.index = 0;
  plan.offset = 0;
  plan.bufferOffset = 0;
  plan.swizzled = false;
  plan.pieces.clear();
  plan.rule.clear();
  const Spans spans = spansOf(v, in, bytes, unit);
  if (in.addr64) {
    planAddr64(v, in, alignBytes, p, spans.view(), plan, withRule);
    return;
  }

  const BufferAddress addr = bufferAddressOf(gen, v, in, p);
  plan.index = addr.aindex;
  plan.offset = addr.aoffset;
  plan.swizzled = v.swizzleEnable;
  // Each span's buffer offset, once; the first span starts the access (dataOffset 0).
  std::array<uint64_t, 4> offsetStore{};
  for (std::size_t i = 0; i < spans.count; ++i)
    offsetStore[i] = addr.offsetFor(spans.store[i].dataOffset);
  const std::span<const uint64_t> offsets(offsetStore.data(), spans.count);
  plan.bufferOffset = offsets[0];
  const RangeCheck rc = rangeCheckOf(in, addr);
  const std::array<bool, 4> verdict = verdictsOf(rc, addr, spans.view(), offsets, bytes, unit);

  const uint64_t base = v.base + (addr.soffsetInBase ? in.soffset : 0u);
  const uint64_t delta = alignDelta(p, alignBytes, base + plan.bufferOffset);
  for (std::size_t i = 0; i < spans.count; ++i) {
    const Span& s = spans.store[i];
    plan.pieces.push_back({base + offsets[i] - delta, s.dataOffset, s.size, verdict[i]});
  }
  if (withRule) plan.rule = ruleText(rc, addr, unit);
}

}  // namespace gcn
