#include "harness/run/diff.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "harness/run/atomic_order.h"
#include "harness/run/expect.h"
#include "harness/run/pattern.h"
#include "reference/convert.h"
#include "reference/float_bits.h"
#include "reference/policy.h"
#include "reference/resource.h"

namespace gcnprobe::run {
namespace {

constexpr const char* kComp = "xyzw?";

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

std::string hexBytes(std::span<const uint8_t> bytes) {
  std::string out = "0x";
  char buf[4];
  for (size_t i = bytes.size(); i-- > 0;) {  // little-endian element, printed as a number
    std::snprintf(buf, sizeof buf, "%02x", bytes[i]);
    out += buf;
  }
  return out;
}

bool isNormFloat(const FormatView& fv, unsigned comp) {
  if (fv.reg != gcn::RegType::Float) return false;
  if (fv.nfmt != gcn::Nfmt::Unorm && fv.nfmt != gcn::Nfmt::Snorm && fv.nfmt != gcn::Nfmt::SnormOgl)
    return false;
  const auto sel = static_cast<uint8_t>(fv.dstSel[comp & 3]);
  return sel >= static_cast<uint8_t>(gcn::DstSel::X);
}

// A returned register, with the sRGB allowance for components decoded through the EOTF.
bool componentMatches(const FormatView& fv, unsigned comp, uint32_t e, uint32_t a,
                      const Tolerance& tol) {
  if (comp < 4 && fv.srgb[comp] && tol.srgbAbs > 0 && e != a) {
    const double fe = std::bit_cast<float>(e), fa = std::bit_cast<float>(a);
    if (std::isfinite(fe) && std::isfinite(fa) && std::fabs(fe - fa) <= tol.srgbAbs) return true;
  }
  return registerMatches(fv.reg, e, a, isNormFloat(fv, comp), tol);
}

bool f32Nan(uint32_t b) {
  return gcn::fbits::isNan(gcn::fbits::kFloat32, b);
}
bool f32Denormal(uint32_t b) {
  return gcn::fbits::isDenormal(gcn::fbits::kFloat32, b);
}
bool f32Finite(uint32_t b) {
  return gcn::fbits::isFinite(gcn::fbits::kFloat32, b);
}

int64_t signExtend(uint32_t code, unsigned bits) {
  if (bits >= 32) return static_cast<int32_t>(code);
  const uint32_t sign = 1u << (bits - 1);
  return static_cast<int64_t>(code ^ sign) - static_cast<int64_t>(sign);
}

bool isFloatField(gcn::Dfmt d, gcn::Nfmt n) {
  return n == gcn::Nfmt::Float && gcn::dfmtInfo(d).floatCapable;
}

bool fieldMatches(gcn::Dfmt d, gcn::Nfmt n, unsigned comp, uint32_t e, uint32_t a,
                  const Tolerance& tol) {
  if (e == a) return true;
  const unsigned bits = gcn::dfmtInfo(d).bits[comp];
  if (isFloatField(d, n)) {
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
    const int64_t diff = n == gcn::Nfmt::Snorm ? signExtend(e, bits) - signExtend(a, bits)
                                               : static_cast<int64_t>(e) - static_cast<int64_t>(a);
    return std::llabs(diff) <= tol.storeCodes;
  }
  return false;
}

std::string fieldValue(const FormatView& fv, unsigned comp, uint32_t code) {
  const auto reg =
      gcn::loadComponent(fv.gen, fv.dfmt, fv.nfmt, comp, code, gcn::Policies::defaults(fv.gen));
  return reg ? gcn::registerValueText(fv.reg, *reg) : "?";
}

}  // namespace

FormatView formatViewOf(const gcn::Chip& chip, const routes::DeviceCase& c) {
  FormatView fv;
  fv.gen = chip.gen;
  const gcn::VSharp v = gcn::decodeVSharp(chip.gen, gcn::vsharpWords(c.state, c.inst.srsrc));
  const bool fromInst =
      c.inst.op != nullptr && c.inst.op->dfmtSource == gcn::FieldSource::Instruction;
  fv.dfmt = fromInst ? c.inst.dfmt : v.dataFormat;
  fv.nfmt = fromInst ? c.inst.nfmt : v.numFormat;
  fv.reg = gcn::nfmtInfo(fv.nfmt, chip.gen).reg;
  fv.dstSel = v.dstSel;
  fv.stride = v.stride != 0 ? v.stride : gcn::dfmtInfo(fv.dfmt).bytes;
  if (fv.stride == 0) fv.stride = 4;
  return fv;
}

bool registerMatches(gcn::RegType t, uint32_t e, uint32_t a, bool normFloat, const Tolerance& tol) {
  if (e == a) return true;
  if (t != gcn::RegType::Float) return false;
  if (tol.anyNanPayload && f32Nan(e) && f32Nan(a)) return true;
  if (tol.denormFlush && f32Denormal(e) && (a & 0x7fffffffu) == 0) return true;
  if (normFloat && tol.normLoadUlps > 0 && f32Finite(e) && f32Finite(a) &&
      (e & 0x80000000u) == (a & 0x80000000u)) {
    const int64_t diff = static_cast<int64_t>(e) - static_cast<int64_t>(a);
    return std::llabs(diff) <= tol.normLoadUlps;
  }
  return false;
}

std::string classifyRegister(gcn::RegType t, uint32_t e, uint32_t a, unsigned comp,
                             std::span<const std::optional<uint32_t>> expectedVector) {
  if (e == a) return "";
  if (t == gcn::RegType::Float && f32Nan(e) && f32Nan(a)) return "nan-payload";
  for (unsigned k = 0; k < expectedVector.size(); ++k) {
    // A zero matching another component is more likely a missing value than a swap.
    if (k != comp && expectedVector[k] && *expectedVector[k] == a && a != e && a != 0)
      return std::string("channel-swap(") + kComp[std::min(k, 4u)] + ")";
  }
  if (t == gcn::RegType::Float) {
    if (f32Denormal(e) && (a & 0x7fffffffu) == 0) return "denorm-flush";
    if (f32Finite(e) && f32Finite(a) && (e & 0x80000000u) == (a & 0x80000000u) &&
        std::llabs(static_cast<int64_t>(e) - static_cast<int64_t>(a)) == 1)
      return "1-ulp";
  } else if (std::llabs(static_cast<int64_t>(e) - static_cast<int64_t>(a)) == 1) {
    return "1-lsb";
  }
  if ((e ^ a) == 0x80000000u) return "sign";
  if (a == 0 || e == 0) return "zero-vs-stale";
  return "other";
}

// An sRGB view component whose actual value is the UNORM code c/255 that the expected value
// decodes from: the device skipped the sRGB EOTF (a GCN buffer load has no sRGB NUM_FORMAT,
// so a driver must decode in the shader).
// The expected value may come from any acceptance-set alternative (its UNORM step rounded
// either way), so both comparisons allow 1e-6, far below the 1/255 between codes.
bool srgbNotDecoded(uint32_t e, uint32_t a) {
  if (e == a || !f32Finite(a) || !f32Finite(e)) return false;
  const float fa = std::bit_cast<float>(a);
  const float code = std::nearbyint(fa * 255.0f);  // the code the actual value would be
  if (code < 1 || code > 254) return false;        // 0 and 255 decode to themselves
  const float unorm = code / 255.0f;
  const float decoded = std::bit_cast<float>(srgbToLinearBits(std::bit_cast<uint32_t>(unorm)));
  return std::fabs(fa - unorm) <= 1e-6f && std::fabs(decoded - std::bit_cast<float>(e)) <= 1e-6f;
}

std::string classifyField(gcn::Dfmt d, gcn::Nfmt n, unsigned comp, uint32_t e, uint32_t a,
                          uint32_t initial, std::span<const uint32_t> expectedFields) {
  if (e == a) return "";
  const unsigned bits = gcn::dfmtInfo(d).bits[comp];
  if (isFloatField(d, n)) {
    const gcn::fbits::Layout f = gcn::fbits::formatFloatLayout(bits);
    if (isNan(f, e) && isNan(f, a)) return "nan-payload";
  }
  for (unsigned k = 0; k < expectedFields.size(); ++k) {
    if (k != comp && expectedFields[k] == a && a != 0)
      return std::string("channel-swap(") + kComp[k] + ")";
  }
  if (a == initial) return "not-written";
  if (isFloatField(d, n)) {
    const gcn::fbits::Layout f = gcn::fbits::formatFloatLayout(bits);
    const uint32_t signBit = gcn::fbits::signMask(f);
    if (isDenormal(f, e) && (a & ~signBit) == 0) return "denorm-flush";
    if ((e & signBit) == (a & signBit) &&
        std::llabs(static_cast<int64_t>(e) - static_cast<int64_t>(a)) == 1)
      return "1-ulp";
  } else {
    const int64_t diff = n == gcn::Nfmt::Snorm || n == gcn::Nfmt::Sint
                             ? signExtend(e, bits) - signExtend(a, bits)
                             : static_cast<int64_t>(e) - static_cast<int64_t>(a);
    if (std::llabs(diff) == 1) return "1-lsb";
  }
  if (a == 0 || e == 0) return "zero-vs-stale";
  return "other";
}

DiffResult diffCase(const routes::DeviceCase& c, const FormatView& fv, const Expected& expected,
                    const routes::DeviceResult& actual, const Tolerance& tol) {
  DiffResult r;
  if (expected.alternatives.empty()) {
    r.summary = "no expectation";
    return r;
  }
  const gcn::ExecResult& primary = expected.alternatives.front().result;
  // Atomics sharing an address: any serial order of the lanes is legal (atomic_order.h).
  const AtomicOrderAcceptance order = acceptAtomicOrders(c, primary, actual);
  std::vector<std::string> problems;

  if (!actual.changedGuardBytes.empty()) {
    problems.push_back(std::to_string(actual.changedGuardBytes.size()) +
                       " guard byte(s) changed, first at payload offset " +
                       std::to_string(actual.changedGuardBytes.front()));
  }

  const gcn::DfmtInfo& di = gcn::dfmtInfo(fv.dfmt);
  const auto elementBytes = [&](int64_t element) -> std::span<const uint8_t> {
    if (element < 0 || di.bytes == 0) return {};
    const uint64_t off = static_cast<uint64_t>(element) * fv.stride;
    if (off + di.bytes > c.memory.bytes.size()) return {};
    return {c.memory.bytes.data() + off, di.bytes};
  };

  // sRGB components: the largest distance from the exact EOTF over all lanes (a note).
  double srgbWorst = 0, srgbWorstExpected = 0;
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    const gcn::LaneResult& pl = primary.lanes[l];
    if (!pl.active || expected.onlyLaneOptions[l]) continue;
    for (unsigned k = 0; k < std::min<unsigned>(pl.vdataCount, 4); ++k) {
      if (!fv.srgb[k] || !pl.vdata[k]) continue;
      const double e = std::bit_cast<float>(*pl.vdata[k]);
      const double a = std::bit_cast<float>(actual.vdata[l][k]);
      if (std::isfinite(e) && std::isfinite(a) && std::fabs(a - e) > srgbWorst) {
        srgbWorst = std::fabs(a - e);
        srgbWorstExpected = e;
      }
    }
  }
  if (srgbWorst > 0) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "srgb: largest |actual - exact EOTF| = %.3g (%.3g relative, at %.6g)", srgbWorst,
                  srgbWorstExpected != 0 ? srgbWorst / srgbWorstExpected : 0.0, srgbWorstExpected);
    r.notes.push_back(buf);
  }

  // Returned registers, lane by lane.
  int failingLanes = 0;
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    const gcn::LaneResult& pl = primary.lanes[l];
    if (!pl.active || pl.vdataCount == 0) continue;
    const unsigned n = std::min<unsigned>(pl.vdataCount, 5);
    const auto vecMatches = [&](const std::array<std::optional<uint32_t>, 5>& v) {
      for (unsigned k = 0; k < n; ++k) {
        if (v[k] && !componentMatches(fv, k, *v[k], actual.vdata[l][k], tol)) return false;
      }
      return true;
    };
    bool ok = order.lanes[l];
    if (!expected.onlyLaneOptions[l])
      for (const Alternative& alt : expected.alternatives)
        ok = ok || vecMatches(alt.result.lanes[l].vdata);
    for (const LaneOption& opt : expected.laneOptions[l])
      ok = ok || vecMatches(opt.vdata);
    if (ok) continue;
    ++failingLanes;
    const int64_t element = c.inst.idxen ? static_cast<int64_t>(c.state.vgpr(c.inst.vaddr)[l]) : -1;
    const int64_t byteOffset =
        pl.accesses.empty() ? -1 : static_cast<int64_t>(pl.accesses[0].address - c.memory.base);
    const auto bytes = elementBytes(element);
    const std::array<std::optional<uint32_t>, 5>& shown =
        expected.onlyLaneOptions[l] && !expected.laneOptions[l].empty()
            ? expected.laneOptions[l].front().vdata
            : pl.vdata;
    for (unsigned k = 0; k < n; ++k) {
      ComponentDiff d;
      d.lane = static_cast<int>(l);
      d.element = element;
      d.byteOffset = byteOffset;
      d.component = k;
      const auto sel = static_cast<uint8_t>(fv.dstSel[k & 3]);
      if (!bytes.empty() && k < 4 && sel >= 4 && sel - 4u < di.components)
        d.memoryBits = hex(gcn::extractComponent(fv.dfmt, sel - 4u, bytes));
      const uint32_t a = actual.vdata[l][k];
      d.actualBits = hex(a);
      d.actualValue = gcn::registerValueText(fv.reg, a);
      if (!shown[k]) {
        d.expectedBits = "undefined";
        d.expectedValue = pl.note.empty() ? "the reference claims no value" : pl.note;
        d.match = true;
      } else {
        const uint32_t e = *shown[k];
        d.expectedBits = hex(e);
        d.expectedValue = gcn::registerValueText(fv.reg, e);
        d.match = componentMatches(fv, k, e, a, tol);
        if (!d.match)
          d.classification = k < 4 && fv.srgb[k] && srgbNotDecoded(e, a)
                                 ? "srgb-not-decoded"
                                 : classifyRegister(fv.reg, e, a, k, shown);
      }
      r.diffs.push_back(std::move(d));
    }
  }
  if (failingLanes > 0) {
    const ComponentDiff* first = nullptr;
    for (const ComponentDiff& d : r.diffs)
      if (!d.match && first == nullptr) first = &d;
    std::string s = std::to_string(failingLanes) + " lane(s) differ";
    if (first != nullptr) {
      s += ", first lane " + std::to_string(first->lane) + " component " +
           kComp[std::min(first->component, 4u)] + ": expected " + first->expectedBits + " (" +
           first->expectedValue + "), actual " + first->actualBits + " (" + first->actualValue +
           ") [" + first->classification + "]";
    }
    problems.push_back(s);
  }

  // Memory (stores and atomics): element by element, field by field.
  const gcn::OpKind kind = c.inst.op != nullptr ? c.inst.op->kind : gcn::OpKind::Load;
  const bool writes =
      kind == gcn::OpKind::Store || kind == gcn::OpKind::StoreFormat || kind == gcn::OpKind::Atomic;
  if (writes || !actual.memory.empty()) {
    const std::vector<uint8_t>& exp = primary.memory().bytes;
    if (actual.memory.size() != exp.size()) {
      problems.push_back("memory size " + std::to_string(actual.memory.size()) + " != expected " +
                         std::to_string(exp.size()));
    } else {
      const uint32_t es = fv.stride;
      std::vector<int> writer(exp.size() / es + 1, -1);
      bool anyOob = false;
      for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
        for (const gcn::LaneAccess& acc : primary.lanes[l].accesses) {
          if (!acc.write) continue;
          if (!acc.inRange) anyOob = true;
          const uint64_t off = acc.address - c.memory.base;
          if (acc.inRange && off / es < writer.size()) writer[off / es] = static_cast<int>(l);
        }
      }
      const auto fieldOpen = [&](size_t e, unsigned k) {
        return e < expected.openFields.size() && expected.openFields[e][k];
      };
      int badElements = 0;
      std::string firstBad;
      for (size_t e = 0; e * es < exp.size(); ++e) {
        const size_t off = e * es;
        const size_t len = std::min<size_t>(es, exp.size() - off);
        if (std::equal(exp.begin() + off, exp.begin() + off + len, actual.memory.begin() + off))
          continue;
        bool ok = order.memoryAccepted(off, len);
        for (const Alternative& alt : expected.alternatives) {
          const auto& m = alt.result.memory().bytes;
          ok = ok || (m.size() == exp.size() && std::equal(m.begin() + off, m.begin() + off + len,
                                                           actual.memory.begin() + off));
        }
        if (!ok && expected.oobStoresMayLand && anyOob && writer[e] < 0) ok = true;
        std::span<const uint8_t> eb(exp.data() + off, len), ab(actual.memory.data() + off, len);
        std::span<const uint8_t> ib =
            off + len <= c.memory.bytes.size()
                ? std::span<const uint8_t>(c.memory.bytes.data() + off, len)
                : std::span<const uint8_t>();
        if (!ok && di.components > 0 && len >= di.bytes) {
          bool all = true;
          for (unsigned k = 0; k < di.components; ++k)
            all = all && (fieldOpen(e, k) ||
                          fieldMatches(fv.dfmt, fv.nfmt, k, gcn::extractComponent(fv.dfmt, k, eb),
                                       gcn::extractComponent(fv.dfmt, k, ab), tol));
          ok = all;
        }
        if (ok) continue;
        ++badElements;
        if (di.components == 0 || len < di.bytes) {
          ComponentDiff d;
          d.lane = writer[e];
          d.element = static_cast<int64_t>(e);
          d.byteOffset = static_cast<int64_t>(off);
          d.memoryField = true;
          d.memoryBits = ib.empty() ? "" : hexBytes(ib);
          d.expectedBits = hexBytes(eb);
          d.actualBits = hexBytes(ab);
          d.classification = "other";
          r.diffs.push_back(d);
          continue;
        }
        std::array<uint32_t, 4> ef{};
        for (unsigned k = 0; k < di.components; ++k)
          ef[k] = gcn::extractComponent(fv.dfmt, k, eb);
        for (unsigned k = 0; k < di.components; ++k) {
          ComponentDiff d;
          d.lane = writer[e];
          d.element = static_cast<int64_t>(e);
          d.byteOffset = static_cast<int64_t>(off);
          d.component = k;
          d.memoryField = true;
          const uint32_t init = ib.empty() ? 0 : gcn::extractComponent(fv.dfmt, k, ib);
          const uint32_t a = gcn::extractComponent(fv.dfmt, k, ab);
          d.memoryBits = ib.empty() ? "" : hex(init);
          d.expectedBits = hex(ef[k]);
          d.expectedValue = fieldValue(fv, k, ef[k]);
          d.actualBits = hex(a);
          d.actualValue = fieldValue(fv, k, a);
          d.match = fieldOpen(e, k) || fieldMatches(fv.dfmt, fv.nfmt, k, ef[k], a, tol);
          if (!d.match) {
            d.classification = classifyField(fv.dfmt, fv.nfmt, k, ef[k], a, init,
                                             std::span<const uint32_t>(ef.data(), di.components));
            if (firstBad.empty())
              firstBad = "element " + std::to_string(e) + " field " + kComp[k] + ": expected " +
                         d.expectedBits + ", actual " + d.actualBits + " [" + d.classification +
                         "]";
          }
          r.diffs.push_back(std::move(d));
        }
      }
      if (badElements > 0)
        problems.push_back(std::to_string(badElements) + " memory element(s) differ" +
                           (firstBad.empty() ? "" : ", first " + firstBad));
    }
  }

  r.pass = problems.empty();
  for (const std::string& p : problems)
    r.summary += (r.summary.empty() ? "" : "; ") + p;
  return r;
}

}  // namespace gcnprobe::run
