// Named policies: every point where CLRX, AMD's later documents, emulators and
// drivers disagree about buffer behaviour (docs/gcn-facts.md, "Disputed
// points" and "Conversions"). The reference never guesses silently: each point is a
// choice with its source, a default per generation, and can be overridden by name
// ("straddle=whole") so a probe can print every prediction side by side.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reference/gen.h"

namespace gcn {

enum class PolicyId : uint8_t {
  RawStraddle,          // raw buffer access that straddles NUM_RECORDS
  SoffsetOverflow,      // SOFFSET in the raw range check: wraps or all out above NUM_RECORDS, or
                        // excluded
  StrideWithoutIdxen,   // STRIDE != 0 but IDXEN = 0: which check applies
  IdxenOffsetVsStride,  // IDXEN with OFFSET >= STRIDE
  TidWithoutIdxen,      // ADD_TID_ENABLE without IDXEN: range check?
  IndexProduct,         // AINDEX * STRIDE: 32-bit truncated or 64-bit
  SwizzleSoffset,       // SOFFSET under swizzle: added to base or swizzled
  SwizzleMultiDword,    // dwords of one multi-dword lane access under swizzle
  TidWithIdxen,         // ADD_TID_ENABLE with IDXEN (no swizzle): lane added?
  OobDstSelOne,         // out-of-range load of a DST_SEL = 1 component
  UnalignedDword,       // dword access at an address with low bits set
  NormToFloat,          // UNORM/SNORM -> float: correctly rounded or c * (1/max)
  IntStoreOverflow,     // UINT/SINT store of a value that does not fit the field
  StoreDstSel,          // BUFFER_STORE_FORMAT through a V# whose DST_SEL is not identity
  Norm32,           // normalized/scaled 32-bit components on load: raw bits, a formula or undefined
  NanWiden,         // 16/11/10-bit float NaN widened on load: quiet bit set or bits kept
  UfOverflow,       // 11/10-bit float store of a finite value above the maximum
  NormStore,        // float -> UNORM/SNORM store: the product rounded once, or via float32
  FloatStoreRound,  // float32 -> 16/11/10-bit float store: nearest even or toward zero
  OffsetCarry,      // VGPR offset + OFFSET at or above 2^32: out of range or wrapped
  ZeroVsharp,       // STRIDE = 0 and NUM_RECORDS = 0: range-checked or not
  Alpha2,           // the 2-bit W of 2_10_10_10 SNORM/SSCALED/SINT loads: signed or not
  PackedOrder,      // 11_11_10 and 10_10_10_2: X at the lowest bits or at the highest
  D16Keep,          // the VGPR half a packed D16 load does not write: kept or not claimed
  SwizzleTid,       // SWIZZLE_ENABLE without ADD_TID_ENABLE: swizzled or linear
  Count
};
inline constexpr std::size_t kPolicyCount = static_cast<std::size_t>(PolicyId::Count);

namespace policy {
enum class RawStraddle : uint8_t { StartOnly, WholeAccess };
enum class SoffsetOverflow : uint8_t { Wraps, AllOutOfRange, Excluded };
enum class StrideWithoutIdxen : uint8_t { IndexCheck, ByteCheck };
enum class IdxenOffsetVsStride : uint8_t { OutOfRange, NotChecked };
enum class TidWithoutIdxen : uint8_t { IndexCheck, NotChecked };
enum class IndexProduct : uint8_t { Truncate32, Wide64 };
enum class SwizzleSoffset : uint8_t { AddedToBase, Swizzled };
enum class SwizzleMultiDword : uint8_t { Contiguous, PerDword };
enum class TidWithIdxen : uint8_t { LaneAdded, LaneNotAdded };
enum class OobDstSelOne : uint8_t { Zero, One };
enum class UnalignedDword : uint8_t { IgnoreLowBits, Unaligned };
enum class NormToFloat : uint8_t { CorrectlyRounded, MulReciprocal };
enum class IntStoreOverflow : uint8_t { Clamp, Truncate };
enum class StoreDstSel : uint8_t { Ignore, Inverse, Forward };
enum class Norm32 : uint8_t { Raw, Formula, Undefined };
enum class NanWiden : uint8_t { Quiet, Exact };
enum class UfOverflow : uint8_t { Max, Inf };
enum class NormStore : uint8_t { Exact, Float32Multiply };
enum class FloatStoreRound : uint8_t { NearestEven, TowardZero };
enum class OffsetCarry : uint8_t { OutOfRange, Wraps };
enum class ZeroVsharp : uint8_t { Checked, NotChecked };
enum class Alpha2 : uint8_t { Signed, Unsigned };
enum class PackedOrder : uint8_t { Clrx, Reversed };
enum class D16Keep : uint8_t { Kept, Unclaimed };
enum class SwizzleTid : uint8_t { Any, TidOnly };
}  // namespace policy

struct PolicyOption {
  std::string_view name;    // short token used on the command line and in probe files
  std::string_view source;  // which document or model says this
};

// A point has two or three options; unused slots have an empty name.
inline constexpr std::size_t kMaxPolicyOptions = 3;

struct PolicyPoint {
  PolicyId id;
  std::string_view name;      // e.g. "straddle"
  std::string_view question;  // one line: what is disputed
  std::array<PolicyOption, kMaxPolicyOptions> slots;
  std::array<uint8_t, kGenCount> defaults;  // option index per generation (genIndex order)
  // Whether an option can move an access (its address, size or range verdict) rather than
  // only the values read or written: computeReach (reference/reach.h) and its oracle test
  // enumerate these; the others never change which bytes a lane touches.
  bool addressing;

  // The options in use, in table order (an option's index is what Policies stores).
  constexpr std::span<const PolicyOption> options() const {
    std::size_t n = 0;
    while (n < slots.size() && !slots[n].name.empty())
      ++n;
    return {slots.data(), n};
  }
};

// The table of all points (one row per PolicyId, in enum order).
std::span<const PolicyPoint> allPolicyPoints();
const PolicyPoint& policyPoint(PolicyId id);

class Policies;

// The options of a point other than `current`, in table order.
std::vector<uint8_t> otherOptions(PolicyId id, uint8_t current);
// How many combinations everyCombination gives for these points.
std::size_t combinationCount(std::span<const PolicyId> points);
// Every combination of the options of `points`, the other points as in `base`; `base` itself
// comes first.
std::vector<Policies> everyCombination(const Policies& base, std::span<const PolicyId> points);

class Policies {
 public:
  // The default choice of every point for a generation (its generic chip).
  static Policies defaults(Gen gen);
  // The same with the chip's own quirks (Chip::signedAlpha2 picks alpha2).
  static Policies defaults(const Chip& chip);

  uint8_t get(PolicyId id) const { return choice_[static_cast<std::size_t>(id)]; }
  void set(PolicyId id, uint8_t option) { choice_[static_cast<std::size_t>(id)] = option; }
  // "name=option" (e.g. "straddle=whole"); throws gcn::Error naming the valid choices.
  void set(std::string_view assignment);
  // "straddle=start soffset=wraps ..." in table order.
  std::string describe() const;
  // "name=option ..." of these points, in this order; empty for none.
  std::string describe(std::span<const PolicyId> ids) const;
  bool operator==(const Policies&) const = default;

  policy::RawStraddle rawStraddle() const { return as<policy::RawStraddle>(PolicyId::RawStraddle); }
  policy::SoffsetOverflow soffsetOverflow() const {
    return as<policy::SoffsetOverflow>(PolicyId::SoffsetOverflow);
  }
  policy::StrideWithoutIdxen strideWithoutIdxen() const {
    return as<policy::StrideWithoutIdxen>(PolicyId::StrideWithoutIdxen);
  }
  policy::IdxenOffsetVsStride idxenOffsetVsStride() const {
    return as<policy::IdxenOffsetVsStride>(PolicyId::IdxenOffsetVsStride);
  }
  policy::TidWithoutIdxen tidWithoutIdxen() const {
    return as<policy::TidWithoutIdxen>(PolicyId::TidWithoutIdxen);
  }
  policy::IndexProduct indexProduct() const {
    return as<policy::IndexProduct>(PolicyId::IndexProduct);
  }
  policy::SwizzleSoffset swizzleSoffset() const {
    return as<policy::SwizzleSoffset>(PolicyId::SwizzleSoffset);
  }
  policy::SwizzleMultiDword swizzleMultiDword() const {
    return as<policy::SwizzleMultiDword>(PolicyId::SwizzleMultiDword);
  }
  policy::TidWithIdxen tidWithIdxen() const {
    return as<policy::TidWithIdxen>(PolicyId::TidWithIdxen);
  }
  policy::OobDstSelOne oobDstSelOne() const {
    return as<policy::OobDstSelOne>(PolicyId::OobDstSelOne);
  }
  policy::UnalignedDword unalignedDword() const {
    return as<policy::UnalignedDword>(PolicyId::UnalignedDword);
  }
  policy::NormToFloat normToFloat() const { return as<policy::NormToFloat>(PolicyId::NormToFloat); }
  policy::IntStoreOverflow intStoreOverflow() const {
    return as<policy::IntStoreOverflow>(PolicyId::IntStoreOverflow);
  }
  policy::StoreDstSel storeDstSel() const { return as<policy::StoreDstSel>(PolicyId::StoreDstSel); }
  policy::Norm32 norm32() const { return as<policy::Norm32>(PolicyId::Norm32); }
  policy::NanWiden nanWiden() const { return as<policy::NanWiden>(PolicyId::NanWiden); }
  policy::UfOverflow ufOverflow() const { return as<policy::UfOverflow>(PolicyId::UfOverflow); }
  policy::NormStore normStore() const { return as<policy::NormStore>(PolicyId::NormStore); }
  policy::FloatStoreRound floatStoreRound() const {
    return as<policy::FloatStoreRound>(PolicyId::FloatStoreRound);
  }
  policy::OffsetCarry offsetCarry() const { return as<policy::OffsetCarry>(PolicyId::OffsetCarry); }
  policy::ZeroVsharp zeroVsharp() const { return as<policy::ZeroVsharp>(PolicyId::ZeroVsharp); }
  policy::Alpha2 alpha2() const { return as<policy::Alpha2>(PolicyId::Alpha2); }
  policy::D16Keep d16Keep() const { return as<policy::D16Keep>(PolicyId::D16Keep); }
  policy::SwizzleTid swizzleTid() const { return as<policy::SwizzleTid>(PolicyId::SwizzleTid); }
  policy::PackedOrder packedOrder() const { return as<policy::PackedOrder>(PolicyId::PackedOrder); }

 private:
  template <class E>
  E as(PolicyId id) const {
    return static_cast<E>(get(id));
  }
  std::array<uint8_t, kPolicyCount> choice_{};
};

}  // namespace gcn
