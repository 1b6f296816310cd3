// What a device may return for a case, as labelled acceptance sets, and the test of an actual
// value against them. expect.h builds the sets (the reference under each policy choice and
// the Vulkan rules that widen it); diff.h runs the test, classifies what no set accepts
// (classify.h) and writes the report (diff_report.h). A set lists alternatives; each names the
// rule, policy or tolerance that allows it (Expected::rules), so a report can say which one
// accepted a value or that none did.
//
//   returned registers  one set per lane: whole register vectors (a component may be "any")
//   memory              per element (a byte range of the buffer): whole-buffer outcomes of
//                       the reference, rules for byte ranges, and field by field the
//                       reference's code (under the tolerance) or any code for open fields
//   guard bytes         unchanged
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "harness/judge/atomic_order.h"
#include "harness/judge/format_view.h"
#include "harness/judge/tolerance.h"
#include "reference/executor.h"

namespace gcnprobe::judge {

// An index into Expected::rules: what makes an alternative acceptable.
using RuleId = uint16_t;
// rules[0]: the reference under the profile's default policies (alternatives[0]).
inline constexpr RuleId kReferenceRule = 0;

enum class AcceptKind : uint8_t {
  Values,             // the listed values, each compared under the case's tolerance
  Any,                // any value
  SerialAtomicOrder,  // one serial order of the lanes sharing an address explains it
                      // (atomic_order.h); decided from the whole device result
};

// One acceptable outcome of the whole wave: the reference under one set of policy choices.
// alternatives[0] is the primary prediction; the sets below are built from these.
struct Alternative {
  std::string label;  // "gfx9 defaults", "gfx9 norm=mul"
  gcn::ExecResult result;
};

struct LaneAlternative {
  RuleId rule = kReferenceRule;
  AcceptKind kind = AcceptKind::Values;
  std::array<std::optional<uint32_t>, 5> vdata{};  // Values: nullopt = any value there
};

// The registers one lane returns. alternatives[0] is what a mismatch is shown against.
struct LaneSet {
  uint8_t count = 0;  // components compared; 0: the lane returns nothing to compare
  std::vector<LaneAlternative> alternatives;
};

// Memory outcomes besides the primary image (alternatives[0]), in payload bytes.
struct ImageAlternative {
  RuleId rule = kReferenceRule;
  uint16_t alternative = 0;  // its bytes: Expected::alternatives[alternative]'s memory
};
struct RangeAlternative {
  uint64_t begin = 0, end = 0;  // [begin, end): accepted where a compared range lies inside
  RuleId rule = kReferenceRule;
  AcceptKind kind = AcceptKind::Any;  // Any or SerialAtomicOrder
};
struct FieldAlternative {  // any code for one field of one element
  uint64_t element = 0;    // byte offset / FormatView::stride
  uint8_t field = 0;
  RuleId rule = kReferenceRule;
};

struct MemorySet {
  bool compared = false;  // compared even when the device returns no memory (a write)
  std::vector<ImageAlternative> images;
  std::vector<RangeAlternative> ranges;
  std::vector<FieldAlternative> anyFields;
};

struct Expected {
  std::vector<Alternative> alternatives;
  std::vector<std::string> rules;  // rules[i] = alternatives[i].label, then the others
  std::array<LaneSet, gcn::kWaveSize> lanes;
  MemorySet memory;
  RuleId guardRule = kReferenceRule;  // guard bytes never change
  std::string description;            // how the expectation was built (for the report)

  // Adds a rule label (or finds the one already there).
  RuleId rule(const std::string& label);
  // The primary image, what mismatching memory is shown against.
  const std::vector<uint8_t>& primaryMemory() const;
};

// What accepted a value: the rule, and whether it took the case's tolerance (the value was
// not bit-exact) to accept it.
struct Acceptance {
  RuleId rule = kReferenceRule;
  bool tolerance = false;
};

// The atomic lanes and memory that a serial order explains (atomic_order.h), for
// SerialAtomicOrder alternatives; nullptr: nothing is explained that way.
using OrderEvidence = const AtomicOrderAcceptance*;

// Whether `actual` register bits are accepted for `expected` under `tol`; normFloat: the
// value came from a UNORM/SNORM -> float conversion.
bool registerMatches(gcn::RegType t, uint32_t expected, uint32_t actual, bool normFloat,
                     const Tolerance& tol);
// registerMatches for returned component `comp` of the format view, with the sRGB allowance
// for components decoded through the EOTF.
bool componentMatches(const FormatView& fv, unsigned comp, uint32_t expected, uint32_t actual,
                      const Tolerance& tol);
// Whether stored field `comp` code `actual` is accepted for `expected` under `tol`.
bool fieldMatches(gcn::Dfmt d, gcn::Nfmt n, unsigned comp, uint32_t expected, uint32_t actual,
                  const Tolerance& tol);

// The first alternative of lane `lane`'s set that accepts the returned registers; nullopt
// when none does (or the lane returns nothing to compare).
std::optional<Acceptance> acceptLane(const Expected& e, unsigned lane,
                                     std::span<const uint32_t> actual, const FormatView& fv,
                                     const Tolerance& tol, OrderEvidence order = nullptr);

// Memory range [offset, offset + length) of the payload (one element): accepted by the
// primary image, another image, a range rule, or field by field (the primary's codes under
// the tolerance, or any code in an open field). `actual`: the whole device buffer, as long
// as the primary image.
std::optional<Acceptance> acceptRange(const Expected& e, uint64_t offset, uint64_t length,
                                      std::span<const uint8_t> actual, const FormatView& fv,
                                      const Tolerance& tol, OrderEvidence order = nullptr);

// Field `field` of element `element`: any code (an open field) or the expected code under
// the tolerance.
std::optional<Acceptance> acceptField(const Expected& e, uint64_t element, unsigned field,
                                      uint32_t expected, uint32_t actual, const FormatView& fv,
                                      const Tolerance& tol);

// Guard bytes around the buffer: accepted when none changed.
std::optional<Acceptance> acceptGuard(const Expected& e, std::span<const int64_t> changed);

// Whether any alternative of the expectation needs the serial-order evidence.
bool needsOrderEvidence(const Expected& e);

}  // namespace gcnprobe::judge
