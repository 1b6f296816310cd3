#include "harness/judge/acceptance.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>

#include "reference/convert.h"
#include "reference/float_bits.h"

namespace gcnprobe::judge {
namespace {

using gcn::fbits::kFloat32;

bool isNormFloat(const FormatView& fv, unsigned comp) {
  if (fv.reg != gcn::RegType::Float) return false;
  if (fv.nfmt != gcn::Nfmt::Unorm && fv.nfmt != gcn::Nfmt::Snorm && fv.nfmt != gcn::Nfmt::SnormOgl)
    return false;
  const auto sel = static_cast<uint8_t>(fv.dstSel[comp & 3]);
  return sel >= static_cast<uint8_t>(gcn::DstSel::X);
}

// Whether every byte of [begin, end) lies in a range of `kind` (one of them: `rule`).
std::optional<RuleId> covered(const MemorySet& m, AcceptKind kind, uint64_t begin, uint64_t end) {
  std::optional<RuleId> rule;
  for (uint64_t b = begin; b < end; ++b) {
    bool in = false;
    for (const RangeAlternative& r : m.ranges) {
      if (r.kind != kind || b < r.begin || b >= r.end) continue;
      in = true;
      if (!rule) rule = r.rule;
      break;
    }
    if (!in) return std::nullopt;
  }
  return rule;
}

}  // namespace

RuleId Expected::rule(const std::string& label) {
  const auto it = std::find(rules.begin(), rules.end(), label);
  if (it != rules.end()) return static_cast<RuleId>(it - rules.begin());
  rules.push_back(label);
  return static_cast<RuleId>(rules.size() - 1);
}

const std::vector<uint8_t>& Expected::primaryMemory() const {
  static const std::vector<uint8_t> none;
  return alternatives.empty() ? none : alternatives.front().result.memory().bytes;
}

bool registerMatches(gcn::RegType t, uint32_t e, uint32_t a, bool normFloat, const Tolerance& tol) {
  if (e == a) return true;
  if (t != gcn::RegType::Float) return false;
  if (tol.anyNanPayload && gcn::fbits::isNan(kFloat32, e) && gcn::fbits::isNan(kFloat32, a))
    return true;
  if (tol.denormFlush && gcn::fbits::isDenormal(kFloat32, e) && (a & 0x7fffffffu) == 0) return true;
  if (normFloat && tol.normLoadUlps > 0 && gcn::fbits::isFinite(kFloat32, e) &&
      gcn::fbits::isFinite(kFloat32, a) && (e & 0x80000000u) == (a & 0x80000000u)) {
    const int64_t diff = static_cast<int64_t>(e) - static_cast<int64_t>(a);
    return std::llabs(diff) <= tol.normLoadUlps;
  }
  return false;
}

bool componentMatches(const FormatView& fv, unsigned comp, uint32_t e, uint32_t a,
                      const Tolerance& tol) {
  if (comp < 4 && fv.srgb[comp] && tol.srgbAbs > 0 && e != a) {
    const double fe = std::bit_cast<float>(e), fa = std::bit_cast<float>(a);
    if (std::isfinite(fe) && std::isfinite(fa) && std::fabs(fe - fa) <= tol.srgbAbs) return true;
  }
  return registerMatches(fv.reg, e, a, isNormFloat(fv, comp), tol);
}

bool fieldMatches(gcn::Dfmt d, gcn::Nfmt n, unsigned comp, uint32_t e, uint32_t a,
                  const Tolerance& tol) {
  if (e == a) return true;
  const unsigned bits = gcn::dfmtInfo(d).bits[comp];
  if (gcn::isFloatField(d, n)) {
    const gcn::fbits::Layout f = gcn::fbits::formatFloatLayout(bits);
    const uint32_t signBit = gcn::fbits::signMask(f);
    if (tol.anyNanPayload && isNan(f, e) && isNan(f, a)) return true;
    if (tol.denormFlush && isDenormal(f, e) && (a & ~signBit) == 0) return true;
    // Not NaN, same sign: codes are ordered, and infinity sits one code above the largest
    // finite value (an overflow rounded toward zero stores max finite).
    if (tol.storeCodes > 0 && !isNan(f, e) && !isNan(f, a) && (e & signBit) == (a & signBit)) {
      const int64_t diff = static_cast<int64_t>(e) - static_cast<int64_t>(a);
      return std::llabs(diff) <= tol.storeCodes;
    }
    return false;
  }
  if (tol.storeCodes > 0 && (n == gcn::Nfmt::Unorm || n == gcn::Nfmt::Snorm)) {
    const int64_t diff = n == gcn::Nfmt::Snorm ? gcn::signExtend(e, bits) - gcn::signExtend(a, bits)
                                               : static_cast<int64_t>(e) - static_cast<int64_t>(a);
    return std::llabs(diff) <= tol.storeCodes;
  }
  return false;
}

std::optional<Acceptance> acceptLane(const Expected& e, unsigned lane,
                                     std::span<const uint32_t> actual, const FormatView& fv,
                                     const Tolerance& tol, OrderEvidence order) {
  const LaneSet& set = e.lanes.at(lane);
  const unsigned n = std::min<unsigned>({set.count, 5u, static_cast<unsigned>(actual.size())});
  for (const LaneAlternative& alt : set.alternatives) {
    switch (alt.kind) {
      case AcceptKind::Any:
        return Acceptance{alt.rule, false};
      case AcceptKind::SerialAtomicOrder:
        if (order != nullptr && order->lanes[lane]) return Acceptance{alt.rule, false};
        break;
      case AcceptKind::Values: {
        bool ok = true, tolerated = false;
        for (unsigned k = 0; k < n && ok; ++k) {
          if (!alt.vdata[k]) continue;
          ok = componentMatches(fv, k, *alt.vdata[k], actual[k], tol);
          tolerated = tolerated || *alt.vdata[k] != actual[k];
        }
        if (ok) return Acceptance{alt.rule, tolerated};
        break;
      }
    }
  }
  return std::nullopt;
}

std::optional<Acceptance> acceptField(const Expected& e, uint64_t element, unsigned field,
                                      uint32_t expected, uint32_t actual, const FormatView& fv,
                                      const Tolerance& tol) {
  for (const FieldAlternative& f : e.memory.anyFields)
    if (f.element == element && f.field == field) return Acceptance{f.rule, false};
  if (fieldMatches(fv.dfmt, fv.nfmt, field, expected, actual, tol))
    return Acceptance{kReferenceRule, expected != actual};
  return std::nullopt;
}

std::optional<Acceptance> acceptRange(const Expected& e, uint64_t offset, uint64_t length,
                                      std::span<const uint8_t> actual, const FormatView& fv,
                                      const Tolerance& tol, OrderEvidence order) {
  const std::vector<uint8_t>& ref = e.primaryMemory();
  if (actual.size() != ref.size() || offset + length > ref.size()) return std::nullopt;
  const auto same = [&](const std::vector<uint8_t>& image) {
    return image.size() == ref.size() &&
           std::equal(image.begin() + static_cast<std::ptrdiff_t>(offset),
                      image.begin() + static_cast<std::ptrdiff_t>(offset + length),
                      actual.begin() + static_cast<std::ptrdiff_t>(offset));
  };
  if (same(ref)) return Acceptance{kReferenceRule, false};
  if (order != nullptr && order->memoryAccepted(offset, length))
    if (const auto r = covered(e.memory, AcceptKind::SerialAtomicOrder, offset, offset + length))
      return Acceptance{*r, false};
  for (const ImageAlternative& img : e.memory.images)
    if (img.alternative < e.alternatives.size() &&
        same(e.alternatives[img.alternative].result.memory().bytes))
      return Acceptance{img.rule, false};
  if (const auto r = covered(e.memory, AcceptKind::Any, offset, offset + length))
    return Acceptance{*r, false};

  // Field by field: the primary's codes under the tolerance, or any code in an open field.
  const gcn::DfmtInfo& di = gcn::dfmtInfo(fv.dfmt);
  if (di.components == 0 || length < di.bytes) return std::nullopt;
  const std::span<const uint8_t> eb(ref.data() + offset, length);
  const std::span<const uint8_t> ab(actual.data() + offset, length);
  const uint64_t element = fv.stride != 0 ? offset / fv.stride : 0;
  Acceptance all{kReferenceRule, false};
  for (unsigned k = 0; k < di.components; ++k) {
    const auto f = acceptField(e, element, k, gcn::extractComponent(fv.dfmt, k, eb),
                               gcn::extractComponent(fv.dfmt, k, ab), fv, tol);
    if (!f) return std::nullopt;
    if (all.rule == kReferenceRule) all.rule = f->rule;
    all.tolerance = all.tolerance || f->tolerance;
  }
  return all;
}

std::optional<Acceptance> acceptGuard(const Expected& e, std::span<const int64_t> changed) {
  if (changed.empty()) return Acceptance{e.guardRule, false};
  return std::nullopt;
}

bool needsOrderEvidence(const Expected& e) {
  for (const RangeAlternative& r : e.memory.ranges)
    if (r.kind == AcceptKind::SerialAtomicOrder) return true;
  for (const LaneSet& l : e.lanes)
    for (const LaneAlternative& a : l.alternatives)
      if (a.kind == AcceptKind::SerialAtomicOrder) return true;
  return false;
}

}  // namespace gcnprobe::judge
