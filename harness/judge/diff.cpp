#include "harness/judge/diff.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>

#include "harness/judge/atomic_order.h"
#include "harness/judge/diff_report.h"
#include "reference/convert.h"
#include "reference/text.h"

namespace gcnprobe::judge {
namespace {

// The element a lane's index register names, -1 without IDXEN.
int64_t laneElement(const routes::DeviceCase& c, unsigned lane) {
  return c.inst.idxen ? static_cast<int64_t>(c.state.vgpr(c.inst.vaddr)[lane]) : -1;
}

// The initial bytes of an element of the case's buffer ({} when outside it).
std::span<const uint8_t> elementBytes(const routes::DeviceCase& c, const FormatView& fv,
                                      int64_t element) {
  const gcn::DfmtInfo& di = gcn::dfmtInfo(fv.dfmt);
  if (element < 0 || di.bytes == 0) return {};
  const uint64_t off = static_cast<uint64_t>(element) * fv.stride;
  if (off + di.bytes > c.memory.bytes.size()) return {};
  return {c.memory.bytes.data() + off, di.bytes};
}

// "" when some outcome leaves far region `got.base` with exactly `got`'s bytes; else the
// problem, with the first differing byte (against the first outcome) as a memory diff whose
// offset is from the region's start.
std::string farRegionProblem(const Expected& expected, const gcn::MemoryRegion& got,
                             std::vector<results::ComponentDiff>& diffs) {
  const gcn::MemoryRegion* first = nullptr;
  for (const Alternative& alt : expected.alternatives)
    for (const gcn::MemoryRegion& want : alt.result.memory().far) {
      if (want.base != got.base) continue;
      if (want.bytes == got.bytes) return "";
      if (first == nullptr) first = &want;
    }
  if (first == nullptr)
    return "far region at " + gcn::hexNumber(got.base) + " read back, but no outcome has it";
  if (first->bytes.size() != got.bytes.size())
    return "far region at " + gcn::hexNumber(got.base) + ": " + std::to_string(got.bytes.size()) +
           " bytes read back, " + std::to_string(first->bytes.size()) + " expected";
  std::size_t at = 0;
  while (first->bytes[at] == got.bytes[at])
    ++at;
  std::size_t bad = 0;
  for (std::size_t b = 0; b < got.bytes.size(); ++b)
    bad += first->bytes[b] != got.bytes[b] ? 1u : 0u;
  results::ComponentDiff d;
  d.memoryField = true;
  d.byteOffset = static_cast<int64_t>(at);
  d.expectedBits = gcn::hexElement(std::span<const uint8_t>(&first->bytes[at], 1));
  d.actualBits = gcn::hexElement(std::span<const uint8_t>(&got.bytes[at], 1));
  d.classification = "other";
  diffs.push_back(d);
  return "far region at " + gcn::hexNumber(got.base) + ": " + std::to_string(bad) +
         " bytes differ from every outcome, the first at +" + std::to_string(at) + " (expected " +
         d.expectedBits + ", actual " + d.actualBits + ")";
}

// sRGB components: the largest distance from the exact EOTF over the lanes whose set is led
// by the reference (a note, not a verdict).
std::optional<std::string> srgbDistanceNote(const FormatView& fv, const Expected& e,
                                            const routes::DeviceResult& actual) {
  double worst = 0, worstExpected = 0;
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    const LaneSet& set = e.lanes[l];
    if (set.count == 0 || set.alternatives.empty()) continue;
    const LaneAlternative& shown = set.alternatives.front();
    if (shown.rule != kReferenceRule) continue;  // a Vulkan rule fixes this lane
    for (unsigned k = 0; k < std::min<unsigned>(set.count, 4); ++k) {
      if (!fv.srgb[k] || !shown.vdata[k]) continue;
      const double ex = std::bit_cast<float>(*shown.vdata[k]);
      const double a = std::bit_cast<float>(actual.vdata[l][k]);
      if (std::isfinite(ex) && std::isfinite(a) && std::fabs(a - ex) > worst) {
        worst = std::fabs(a - ex);
        worstExpected = ex;
      }
    }
  }
  if (worst > 0) return srgbNote(worst, worstExpected);
  return std::nullopt;
}

// Every component of a lane no alternative accepted, shown against the set's first.
void laneDiffs(std::vector<results::ComponentDiff>& out, const routes::DeviceCase& c,
               const FormatView& fv, const Expected& e, unsigned l,
               const std::array<uint32_t, 5>& actual, const Tolerance& tol) {
  const gcn::LaneResult& pl = e.alternatives.front().result.lanes[l];
  const LaneSet& set = e.lanes[l];
  const std::array<std::optional<uint32_t>, 5>& shown = set.alternatives.front().vdata;
  const gcn::DfmtInfo& di = gcn::dfmtInfo(fv.dfmt);
  const int64_t element = laneElement(c, l);
  const int64_t byteOffset =
      pl.accesses.empty() ? -1 : static_cast<int64_t>(pl.accesses[0].address - c.memory.base);
  const auto bytes = elementBytes(c, fv, element);
  for (unsigned k = 0; k < std::min<unsigned>(set.count, 5); ++k) {
    results::ComponentDiff d;
    d.lane = static_cast<int>(l);
    d.element = element;
    d.byteOffset = byteOffset;
    d.component = k;
    const auto sel = static_cast<uint8_t>(fv.dstSel[k & 3]);
    if (!bytes.empty() && k < 4 && sel >= 4 && sel - 4u < di.components)
      d.memoryBits = gcn::hexWord(gcn::extractComponent(fv.dfmt, sel - 4u, bytes));
    describeRegister(d, fv.reg, shown[k], actual[k], pl.note);
    d.match = !shown[k] || componentMatches(fv, k, *shown[k], actual[k], tol);
    if (!d.match) d.classification = classifyComponent(fv, k, *shown[k], actual[k], shown);
    out.push_back(std::move(d));
  }
}

// The lane the reference has writing each element in range (shown with its fields); -1 for
// none.
std::vector<int> elementWriters(const routes::DeviceCase& c, const gcn::ExecResult& primary,
                                std::size_t bytes, uint32_t es) {
  std::vector<int> writer(bytes / es + 1, -1);
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    for (const gcn::LaneAccess& acc : primary.lanes[l].accesses) {
      const uint64_t off = acc.address - c.memory.base;
      if (acc.write && acc.inRange && off / es < writer.size())
        writer[off / es] = static_cast<int>(l);
    }
  }
  return writer;
}

// The diffs of one memory element the device left otherwise than expected: its bytes when the
// format has no fields, else one diff per field. `firstBad` gets the first mismatching field's
// text.
void elementDiffs(std::vector<results::ComponentDiff>& out, const routes::DeviceCase& c,
                  const FormatView& fv, const Expected& expected, const Tolerance& tol,
                  std::size_t e, std::size_t off, int writer, std::span<const uint8_t> eb,
                  std::span<const uint8_t> ab, std::string& firstBad) {
  const gcn::DfmtInfo& di = gcn::dfmtInfo(fv.dfmt);
  const std::size_t len = eb.size();
  const std::span<const uint8_t> ib =
      off + len <= c.memory.bytes.size()
          ? std::span<const uint8_t>(c.memory.bytes.data() + off, len)
          : std::span<const uint8_t>();
  results::ComponentDiff d;
  d.lane = writer;
  d.element = static_cast<int64_t>(e);
  d.byteOffset = static_cast<int64_t>(off);
  d.memoryField = true;
  if (di.components == 0 || len < di.bytes) {  // no fields: the element's bytes
    d.memoryBits = ib.empty() ? "" : gcn::hexElement(ib);
    d.expectedBits = gcn::hexElement(eb);
    d.actualBits = gcn::hexElement(ab);
    d.classification = "other";
    out.push_back(d);
    return;
  }
  std::array<uint32_t, 4> ef{};
  for (unsigned k = 0; k < di.components; ++k)
    ef[k] = gcn::extractComponent(fv.dfmt, k, eb);
  for (unsigned k = 0; k < di.components; ++k) {
    results::ComponentDiff f = d;
    f.component = k;
    const std::optional<uint32_t> init =
        ib.empty() ? std::nullopt : std::optional<uint32_t>(gcn::extractComponent(fv.dfmt, k, ib));
    const uint32_t a = gcn::extractComponent(fv.dfmt, k, ab);
    describeField(f, fv, k, ef[k], a, init);
    f.match = acceptField(expected, e, k, ef[k], a, fv, tol).has_value();
    if (!f.match) {
      f.classification = classifyField(fv.dfmt, fv.nfmt, k, ef[k], a, init.value_or(0),
                                       std::span<const uint32_t>(ef.data(), di.components));
      if (firstBad.empty()) firstBad = fieldMismatchText(f);
    }
    out.push_back(std::move(f));
  }
}

// Memory (stores and atomics, or whatever the device returned), element by element: the
// problem, or empty.
std::string memoryDiffs(std::vector<results::ComponentDiff>& out, const routes::DeviceCase& c,
                        const FormatView& fv, const Expected& expected,
                        const gcn::ExecResult& primary, const routes::DeviceResult& actual,
                        const Tolerance& tol, OrderEvidence evidence) {
  const std::vector<uint8_t>& exp = expected.primaryMemory();
  if (actual.memory.size() != exp.size())
    return memorySizeProblem(actual.memory.size(), exp.size());
  const uint32_t es = fv.stride;
  const std::vector<int> writer = elementWriters(c, primary, exp.size(), es);
  int badElements = 0;
  std::string firstBad;
  for (size_t e = 0; e * es < exp.size(); ++e) {
    const size_t off = e * es;
    const size_t len = std::min<size_t>(es, exp.size() - off);
    if (acceptRange(expected, off, len, actual.memory, fv, tol, evidence)) continue;
    ++badElements;
    elementDiffs(out, c, fv, expected, tol, e, off, writer[e],
                 std::span<const uint8_t>(exp.data() + off, len),
                 std::span<const uint8_t>(actual.memory.data() + off, len), firstBad);
  }
  return badElements > 0 ? memoryProblem(badElements, firstBad) : "";
}

}  // namespace

DiffResult diffCase(const routes::DeviceCase& c, const FormatView& fv, const Expected& expected,
                    const routes::DeviceResult& actual, const Tolerance& tol) {
  DiffResult r;
  if (expected.alternatives.empty()) {
    r.summary = "no expectation";
    return r;
  }
  const gcn::ExecResult& primary = expected.alternatives.front().result;
  // Atomics sharing an address: the evidence for the serial-order alternatives.
  std::optional<AtomicOrderAcceptance> order;
  if (needsOrderEvidence(expected)) order = acceptAtomicOrders(c, primary, actual);
  const OrderEvidence evidence = order ? &*order : nullptr;
  std::vector<std::string> problems;

  if (!acceptGuard(expected, actual.changedGuardBytes))
    problems.push_back(guardProblem(actual.changedGuardBytes));
  if (auto note = srgbDistanceNote(fv, expected, actual)) r.notes.push_back(std::move(*note));

  // Returned registers, lane by lane.
  int failingLanes = 0;
  for (unsigned l = 0; l < gcn::kWaveSize; ++l) {
    if (expected.lanes[l].count == 0 || expected.lanes[l].alternatives.empty()) continue;
    if (acceptLane(expected, l, actual.vdata[l], fv, tol, evidence)) continue;
    ++failingLanes;
    laneDiffs(r.diffs, c, fv, expected, l, actual.vdata[l], tol);
  }
  if (failingLanes > 0) {
    const auto first = std::find_if(r.diffs.begin(), r.diffs.end(),
                                    [](const results::ComponentDiff& d) { return !d.match; });
    problems.push_back(laneProblem(failingLanes, first != r.diffs.end() ? &*first : nullptr));
  }
  if (expected.memory.compared || !actual.memory.empty())
    if (std::string p = memoryDiffs(r.diffs, c, fv, expected, primary, actual, tol, evidence);
        !p.empty())
      problems.push_back(std::move(p));

  // Far regions the route put on the device (the raw V# placement): each byte for byte, as one
  // of the outcomes left it.
  for (const gcn::MemoryRegion& got : actual.far)
    if (std::string p = farRegionProblem(expected, got, r.diffs); !p.empty())
      problems.push_back(std::move(p));

  r.pass = problems.empty();
  r.summary = joinProblems(problems);
  return r;
}

}  // namespace gcnprobe::judge
