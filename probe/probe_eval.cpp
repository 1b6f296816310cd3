#include "probe/probe_eval.h"

#include "reference/assembler.h"
#include "reference/encoding.h"
#include "reference/text.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace gcn::probe {
namespace {

// An error from a reference parser (column relative to the text) moved to the probe line.
[[noreturn]] void rethrowAt(const Error& e, const Place& textPlace) {
  Place p = textPlace;
  if (e.place().column > 0 && p.column > 0) p.column += e.place().column - 1;
  throw Error(p, e.reason());
}

const PolicyPoint* findPoint(std::string_view assignment) {
  const std::string_view name = assignment.substr(0, assignment.find('='));
  for (const PolicyPoint& point : allPolicyPoints())
    if (point.name == name) return &point;
  return nullptr;
}

void storeLe(std::vector<uint8_t>& bytes, uint64_t offset, unsigned size, uint64_t value) {
  for (unsigned b = 0; b < size; ++b)
    bytes[offset + b] = static_cast<uint8_t>(value >> (8 * b));
}
uint64_t loadLe(const std::vector<uint8_t>& bytes, uint64_t offset, unsigned size) {
  uint64_t v = 0;
  for (unsigned b = 0; b < size; ++b)
    v |= static_cast<uint64_t>(bytes[offset + b]) << (8 * b);
  return v;
}

void applyWrite(const DataWrite& w, std::vector<uint8_t>& image, const char* what) {
  if (w.fill) {
    for (uint64_t i = 0; i < image.size(); ++i)
      image[i] = static_cast<uint8_t>(w.values.list[0].eval(i));
    return;
  }
  const uint64_t count = w.count.value_or(1);
  const uint64_t bytes = count * w.elementBytes;
  if (w.offset > image.size() || bytes > image.size() - w.offset)
    throw Error(w.values.place, std::string(what) + " write of " + std::to_string(bytes) +
                                    " bytes at offset " + std::to_string(w.offset) +
                                    " runs past the image (" + std::to_string(image.size()) +
                                    " bytes; set '" + what + " size')");
  for (uint64_t i = 0; i < count; ++i) {
    const Expr& e = w.values.isList ? w.values.list[i] : w.values.list[0];
    storeLe(image, w.offset + i * w.elementBytes, w.elementBytes, e.eval(i));
  }
}

// Adds up the expression work of a probe before any of it is done, so an expensive probe is
// refused at once, at the line that crosses the limit.
class EvalBudget {
 public:
  // `times` evaluations of each expression of `values` (one for a single expression, else
  // each entry once, since lists have one entry per index).
  template <class List, class Nodes>
  void charge(const List& list, bool isList, uint64_t times, const Place& place, Nodes nodes) {
    uint64_t perIndex = 0;
    for (const auto& item : list)
      perIndex += nodes(item);
    const uint64_t cost = isList ? perIndex : perIndex * times;
    used_ += cost;
    if (used_ > kMaxEvalTerms)
      throw Error(place, "evaluating the probe's expressions takes more than " +
                             std::to_string(kMaxEvalTerms) + " term evaluations (the limit; " +
                             "this line: " + std::to_string(perIndex) + " terms" +
                             (isList ? "" : ", evaluated " + std::to_string(times) + " times") +
                             ")");
  }

 private:
  uint64_t used_ = 0;
};

std::size_t exprNodes(const Expr& e) {
  return e.nodeCount();
}
std::size_t expectNodes(const ExpectItem& item) {
  return item.value ? item.value->nodeCount() : 0;
}

void checkListLength(std::size_t size, bool isList, unsigned lanes, const Place& place,
                     const std::string& what) {
  if (isList && size != lanes)
    throw Error(place, what + " lists " + std::to_string(size) + " values but the probe has " +
                           std::to_string(lanes) + " lanes (give one per lane, or one expression)");
}

}  // namespace

namespace {

// `inst = ` text, or the instruction's two dwords ("0xe00c2000 0x80010100", blanks or a comma
// between them) as a driver listing or a binary gives them, decoded with the generation's
// encoding (reference/encoding.h).
Instruction instructionOf(const Chip& chip, std::string_view text) {
  std::vector<std::string> tokens;
  std::string token;
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == ',') {
      if (!token.empty()) tokens.push_back(token);
      token.clear();
    } else {
      token += c;
    }
  }
  if (!token.empty()) tokens.push_back(token);
  const bool words =
      !tokens.empty() && (tokens[0].rfind("0x", 0) == 0 || tokens[0].rfind("0X", 0) == 0);
  if (!words) return parseInstruction(chip, text);
  std::array<uint64_t, 2> w{};
  if (tokens.size() != 2)
    throw Error("inst: " + std::to_string(tokens.size()) +
                (tokens.size() == 1 ? " word" : " words") +
                ", but a MUBUF/MTBUF instruction is two dwords (0x... 0x...)");
  for (std::size_t i = 0; i < 2; ++i)
    if (!parseUnsigned(tokens[i], w[i]) || w[i] > 0xffffffffull)
      throw Error("inst: '" + tokens[i] + "' is not a 32-bit word");
  return decode(chip.gen, static_cast<uint32_t>(w[0]), static_cast<uint32_t>(w[1]));
}

const Chip& probeChip(const Probe& probe, const EvalOptions& options) {
  if (options.gen) return parseAnyChip(*options.gen);
  if (!probe.gen)
    throw Error(Place{probe.file, 0, 0}, "no 'gen = ...' line and no --gen: which generation?");
  try {
    return parseAnyChip(probe.gen->value);
  } catch (const Error& e) {
    rethrowAt(e, probe.gen->place);
  }
}

// The instruction, and the V# in its SRSRC registers (explicit SGPRs after it).
void setInstructionAndVsharp(const Probe& probe, ProbeSetup& s) {
  const Gen gen = s.chip->gen;
  try {
    s.inst = instructionOf(*s.chip, probe.inst->value);
    validate(gen, s.inst);
  } catch (const Error& e) {
    rethrowAt(e, probe.inst->place);
  }
  if (s.inst.op == nullptr) throw Error(probe.inst->place, "no instruction");
  std::array<uint32_t, 4> words{};
  if (probe.vsharpWords) {
    for (std::size_t i = 0; i < 4; ++i)
      words[i] = static_cast<uint32_t>(probe.vsharpWords->value[i]);
  } else {
    try {
      words = encodeVSharp(gen, parseVSharp(gen, probe.vsharp->value));
    } catch (const Error& e) {
      rethrowAt(e, probe.vsharp->place);
    }
  }
  try {
    setVsharpWords(s.state, s.inst.srsrc, words);
  } catch (const Error&) {
    throw Error(probe.inst->place, "the V# registers run past s103");
  }
  // Explicit SGPRs come after the V#, so a probe can patch single V# dwords.
  for (const auto& sg : probe.sgprs)
    s.state.sgpr[sg.value.first] = static_cast<uint32_t>(sg.value.second);
  s.vsharp = decodeVSharp(gen, vsharpWords(s.state, s.inst.srsrc));
}

// The lanes, EXEC, M0 and VGPRs; per-lane lists (expectations too) must have one value a lane.
void setLanes(const Probe& probe, ProbeSetup& s) {
  s.lanes = probe.lanes ? static_cast<unsigned>(probe.lanes->value) : kWaveSize;
  const uint64_t laneMask = s.lanes == 64 ? ~0ull : (1ull << s.lanes) - 1;
  s.state.exec = laneMask;
  if (probe.exec) {
    if ((probe.exec->value & ~laneMask) != 0)
      throw Error(probe.exec->place,
                  "exec sets lanes at or above 'lanes = " + std::to_string(s.lanes) + "'");
    s.state.exec = probe.exec->value;
  }
  if (probe.m0) s.state.m0 = static_cast<uint32_t>(probe.m0->value);
  for (const RegInit& r : probe.vgprs) {
    checkListLength(r.values.list.size(), r.values.isList, s.lanes, r.values.place,
                    std::string("v").append(std::to_string(r.reg)));
    for (unsigned lane = 0; lane < s.lanes; ++lane) {
      const Expr& e = r.values.isList ? r.values.list[lane] : r.values.list[0];
      s.state.vgprMut(r.reg)[lane] = static_cast<uint32_t>(e.eval(lane));
    }
  }
  for (const ExpectReg& r : probe.expectRegs)
    checkListLength(r.values.list.size(), r.values.isList, s.lanes, r.values.place,
                    "expect v" + std::to_string(r.reg));
  if (probe.expectInRange)
    checkListLength(probe.expectInRange->list.size(), probe.expectInRange->isList, s.lanes,
                    probe.expectInRange->place, "expect inrange");
}

// The memory image (with its far regions) and the LDS image, zeroed.
void setImages(const Probe& probe, ProbeSetup& s) {
  s.memory.base = probe.memoryBase ? probe.memoryBase->value : s.vsharp.base;
  s.memory.bytes.assign(probe.memorySize ? probe.memorySize->value : 256, 0);
  for (const Placed<Probe::FarRegion>& f : probe.farRegions) {
    if (f.value.offset > ~0ull - s.memory.base)
      throw Error(f.place, "the far region's address (image base + " + hexNumber(f.value.offset) +
                               ") runs past 2^64");
    s.memory.far.push_back({s.memory.base + f.value.offset, std::vector<uint8_t>(f.value.size, 0)});
    if (const std::string p = s.memory.layoutProblem(); !p.empty()) throw Error(f.place, p);
  }
  s.lds.assign(probe.ldsSize ? probe.ldsSize->value : kMaxLdsBytes, 0);
}

// Every expression the probe evaluates, counted before any write is made (EvalBudget).
void chargeExpressions(const Probe& probe, const ProbeSetup& s) {
  EvalBudget budget;
  for (const RegInit& r : probe.vgprs)
    budget.charge(r.values.list, r.values.isList, s.lanes, r.values.place, exprNodes);
  for (const DataWrite& w : probe.writes) {
    const uint64_t times =
        w.fill ? (w.lds ? s.lds.size() : s.memory.bytes.size()) : w.count.value_or(1);
    budget.charge(w.values.list, w.values.isList, times, w.values.place, exprNodes);
  }
  for (const ExpectReg& r : probe.expectRegs)
    budget.charge(r.values.list, r.values.isList, s.lanes, r.values.place, expectNodes);
  if (probe.expectInRange)
    budget.charge(probe.expectInRange->list, probe.expectInRange->isList, s.lanes,
                  probe.expectInRange->place, expectNodes);
  for (const ExpectData& e : probe.expectData)
    budget.charge(e.values.list, e.values.isList, e.count.value_or(1), e.values.place, expectNodes);
}

// One memory or LDS write; one that starts past the image goes to the far region holding its
// first byte.
void applyProbeWrite(const DataWrite& w, ProbeSetup& s) {
  if (w.lds || w.fill || s.memory.far.empty()) {
    applyWrite(w, w.lds ? s.lds : s.memory.bytes, w.lds ? "lds" : "memory");
    return;
  }
  MemoryRegion* far = nullptr;
  if (w.offset >= s.memory.bytes.size())
    for (MemoryRegion& r : s.memory.far)
      if (r.base - s.memory.base <= w.offset &&
          w.offset - (r.base - s.memory.base) < r.bytes.size())
        far = &r;
  if (far == nullptr) {
    applyWrite(w, s.memory.bytes, "memory");
    return;
  }
  DataWrite shifted = w;
  shifted.offset = w.offset - (far->base - s.memory.base);
  const uint64_t bytes = w.count.value_or(1) * w.elementBytes;
  if (bytes > far->bytes.size() - shifted.offset)
    throw Error(w.values.place, "memory write of " + std::to_string(bytes) + " bytes at @" +
                                    hexNumber(w.offset) + " runs past the far region at @" +
                                    hexNumber(far->base - s.memory.base) + " (" +
                                    std::to_string(far->bytes.size()) +
                                    " bytes; widen its 'far @OFF = SIZE' line)");
  applyWrite(shifted, far->bytes, "far");
}

// Memory and LDS expectations must lie inside their images.
void checkExpectedData(const Probe& probe, const ProbeSetup& s) {
  for (const ExpectData& e : probe.expectData) {
    const uint64_t size = e.lds ? s.lds.size() : s.memory.bytes.size();
    const uint64_t bytes = e.count.value_or(1) * e.elementBytes;
    if (e.offset > size || bytes > size - e.offset)
      throw Error(e.values.place, "expectation of " + std::to_string(bytes) + " bytes at offset " +
                                      std::to_string(e.offset) + " runs past the image" +
                                      (!e.lds && !s.memory.far.empty() && e.offset >= size
                                           ? " (expectations of far regions are not read: expect "
                                             "the registers a load returns)"
                                           : ""));
  }
}

// The chip's default policies with the probe's and the command line's pinned points.
void pinPolicies(const Probe& probe, const EvalOptions& options, ProbeSetup& s) {
  s.policies = Policies::defaults(*s.chip);
  auto pin = [&s](const std::string& assignment, const Place& place) {
    try {
      s.policies.set(assignment);
    } catch (const Error& e) {
      throw Error(place, e.reason());
    }
    const PolicyId id = findPoint(assignment)->id;
    if (std::find(s.pinned.begin(), s.pinned.end(), id) == s.pinned.end()) s.pinned.push_back(id);
  };
  for (const auto& p : probe.policies)
    pin(p.value, p.place);
  for (const std::string& p : options.policies)
    pin(p, Place{"--policy", 0, 0});
}

}  // namespace

ProbeSetup prepare(const Probe& probe, const EvalOptions& options) {
  ProbeSetup s;
  s.chip = &probeChip(probe, options);
  setInstructionAndVsharp(probe, s);
  setLanes(probe, s);
  setImages(probe, s);
  chargeExpressions(probe, s);
  for (const DataWrite& w : probe.writes)
    applyProbeWrite(w, s);
  checkExpectedData(probe, s);
  pinPolicies(probe, options, s);
  s.route = probe.route;
  s.format = probe.format;
  return s;
}

ExecResult run(const Probe& probe, const ProbeSetup& setup, const Policies& policies) {
  try {
    return execute(*setup.chip, setup.inst, setup.state, setup.memory, setup.lds, policies);
  } catch (const Error& e) {
    throw Error(probe.inst->place, e.reason());
  }
}

bool samePrediction(const ExecResult& a, const ExecResult& b, unsigned lanes) {
  for (unsigned l = 0; l < lanes && l < kWaveSize; ++l) {
    const LaneResult& x = a.lanes[l];
    const LaneResult& y = b.lanes[l];
    if (x.active != y.active || x.vdataCount != y.vdataCount || x.vdata != y.vdata) return false;
    if (x.accesses.size() != y.accesses.size()) return false;
    for (std::size_t i = 0; i < x.accesses.size(); ++i) {
      const LaneAccess& p = x.accesses[i];
      const LaneAccess& q = y.accesses[i];
      if (p.address != q.address || p.size != q.size || p.inRange != q.inRange ||
          p.mapped != q.mapped || p.write != q.write)
        return false;
    }
  }
  return a.memory().bytes == b.memory().bytes && a.memory().far == b.memory().far && a.lds == b.lds;
}

namespace {

// An observed value: defined, undefined (the reference claims none), or not observed (a
// device's register the route does not read back).
// (Plain flags rather than std::optional: GCC 12 warns maybe-uninitialized on the latter.)
struct Observed {
  bool defined = false;
  uint64_t value = 0;
  bool observed = true;
  std::string text() const {
    return !observed ? std::string("not read back") : defined ? gcn::hexNumber(value) : "undef";
  }
};

// float32 bits on a line where adjacent floats are adjacent integers (-0 and +0 one apart).
int64_t orderedFloat(uint32_t bits) {
  const int64_t magnitude = bits & 0x7fffffffu;
  return (bits & 0x80000000u) != 0 ? -magnitude - 1 : magnitude;
}
bool isNan32(uint32_t bits) {
  return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu);
}

bool within(const Tolerance& t, uint64_t observed, uint64_t want, uint64_t mask) {
  if (t.ulp) {
    const uint32_t a = static_cast<uint32_t>(observed), b = static_cast<uint32_t>(want);
    if (isNan32(a) || isNan32(b)) return isNan32(a) && isNan32(b);
    const int64_t d = orderedFloat(a) - orderedFloat(b);
    return static_cast<uint64_t>(d < 0 ? -d : d) <= t.amount;
  }
  const uint64_t up = (observed - want) & mask, down = (want - observed) & mask;
  return std::min(up, down) <= t.amount;
}

bool holds(const ExpectValues& values, uint64_t index, const Observed& observed, uint64_t mask,
           std::string& expected) {
  const ExpectItem& item = values.isList ? values.list[index] : values.list[0];
  switch (item.kind) {
    case ExpectItem::Kind::Any:
      return true;
    case ExpectItem::Kind::Undefined:
      expected = "undef";
      return observed.observed && !observed.defined;
    case ExpectItem::Kind::Value:
      break;
  }
  const uint64_t want = item.value->eval(index) & mask;
  expected = gcn::hexNumber(want);
  if (values.tolerance)
    expected += " within " + std::to_string(values.tolerance->amount) +
                (values.tolerance->ulp ? " ulp" : "");
  if (!observed.observed || !observed.defined) return false;
  if (observed.value == want) return true;
  return values.tolerance && within(*values.tolerance, observed.value, want, mask);
}

}  // namespace

std::vector<ExpectFailure> checkExpect(const Probe& probe, const ProbeSetup& setup,
                                       const ExecResult& result, ExpectSide side) {
  const bool device = side == ExpectSide::Device;
  const std::string whose = device ? ", device " : ", reference ";
  std::vector<ExpectFailure> out;
  for (const ExpectReg& r : probe.expectRegs) {
    if (r.device != device) continue;
    for (unsigned l = 0; l < setup.lanes; ++l) {
      const LaneResult& lane = result.lanes[l];
      // A register the lane does not write keeps its value (on the device: is not read back).
      Observed observed{true, setup.state.vgpr(r.reg)[l], !device};
      if (lane.active && r.reg >= setup.inst.vdata && r.reg < setup.inst.vdata + lane.vdataCount) {
        const auto& v = lane.vdata[r.reg - setup.inst.vdata];
        observed = v ? Observed{true, *v} : Observed{};
      }
      std::string expected;
      if (!holds(r.values, l, observed, 0xffffffffull, expected))
        out.push_back({r.values.place, "lane " + std::to_string(l) + " v" + std::to_string(r.reg) +
                                           ": expected " + expected + whose + observed.text()});
    }
  }
  if (probe.expectInRange && !device) {
    const ExpectValues& ev = *probe.expectInRange;
    for (unsigned l = 0; l < setup.lanes; ++l) {
      const LaneResult& lane = result.lanes[l];
      if (!lane.active) continue;
      const bool all = std::all_of(lane.accesses.begin(), lane.accesses.end(),
                                   [](const LaneAccess& a) { return a.inRange; });
      std::string expected;
      if (!holds(ev, l, Observed{true, all ? 1u : 0u}, ~0ull, expected))
        out.push_back({ev.place, "lane " + std::to_string(l) + " inrange: expected " + expected +
                                     ", reference " + (all ? "1" : "0")});
    }
  }
  for (const ExpectData& e : probe.expectData) {
    if (e.device != device) continue;
    const std::vector<uint8_t>& image = e.lds ? result.lds : result.memory().bytes;
    const uint64_t count = e.count.value_or(1);
    const uint64_t mask = e.elementBytes == 4 ? 0xffffffffull : (1ull << (8 * e.elementBytes)) - 1;
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t off = e.offset + i * e.elementBytes;
      const Observed observed = off + e.elementBytes <= image.size()
                                    ? Observed{true, loadLe(image, off, e.elementBytes)}
                                    : Observed{false, 0, !device};
      std::string expected;
      if (!holds(e.values, i, observed, mask, expected))
        out.push_back({e.values.place, std::string(e.lds ? "lds" : "mem") + " @" +
                                           gcn::hexNumber(off) + ": expected " + expected + whose +
                                           observed.text()});
    }
  }
  return out;
}

namespace {

// The memory images held while exploring count against maxImageBytes, searched ones included.
class ImageBudget {
 public:
  ImageBudget(const Probe& probe, uint64_t maxImageBytes)
      : probe_(probe), maxImageBytes_(maxImageBytes) {}
  // `r`'s image (with its far regions, which are copied with it: executor.h MemoryImage) is
  // held, as the images-th distinct one.
  void hold(const ExecResult& r, std::size_t images) {
    if (!r.written) return;
    uint64_t held = r.written->bytes.size();
    for (const MemoryRegion& far : r.written->far)
      held += far.bytes.size();
    imageBytes_ += held;
    if (imageBytes_ <= maxImageBytes_) return;
    const Place& place = probe_.memorySize ? probe_.memorySize->place : probe_.inst->place;
    throw Error(place, "exploring the policies gives " + std::to_string(images) +
                           " or more distinct memory images of " + std::to_string(held) +
                           " bytes (far regions included), " + std::to_string(imageBytes_) +
                           " bytes in all (the limit is " + std::to_string(maxImageBytes_) +
                           "): make `memory size` smaller or pin policies with "
                           "`policy = name=option`");
  }
  void releaseAll() { imageBytes_ = 0; }

 private:
  const Probe& probe_;
  uint64_t maxImageBytes_;
  uint64_t imageBytes_ = 0;  // held by the images so far
};

// The policy points that matter. A point matters when another of its options changes the
// prediction: from the base, or from the base with one point that matters already set
// otherwise, since a point can matter only together with another (a store's norm-store under
// store-dst-sel=inverse, when the inverse swizzle moves a tie-breaking value into the field).
// Repeated until no point is added.
std::vector<PolicyId> matteringPoints(const Probe& probe, const ProbeSetup& setup,
                                      const ExecResult& baseResult, ImageBudget& budget) {
  const Policies& base = setup.policies;
  std::vector<PolicyId> mattering;
  // from[k] for k >= 1 is the base with one point that matters at another option; each pass
  // tests the points that do not matter yet against the entries the previous pass added (the
  // older ones were tested already).
  std::vector<Policies> from = {base};
  std::vector<ExecResult> fromResults;  // of from[1..]; from[0]'s is baseResult
  std::size_t firstNew = 0;
  std::size_t expanded = 0;  // points of `mattering` whose other options are in `from`
  const auto matters = [&](const Policies& at, const ExecResult& before, PolicyId id) {
    for (uint8_t o : otherOptions(id, at.get(id))) {
      Policies q = at;
      q.set(id, o);
      if (!samePrediction(run(probe, setup, q), before, setup.lanes)) return true;
    }
    return false;
  };
  for (bool grown = true; grown;) {
    grown = false;
    for (const PolicyPoint& point : allPolicyPoints()) {
      if (std::find(setup.pinned.begin(), setup.pinned.end(), point.id) != setup.pinned.end() ||
          std::find(mattering.begin(), mattering.end(), point.id) != mattering.end())
        continue;
      for (std::size_t k = firstNew; k < from.size(); ++k) {
        if (!matters(from[k], k == 0 ? baseResult : fromResults[k - 1], point.id)) continue;
        mattering.push_back(point.id);
        grown = true;
        break;
      }
    }
    firstNew = from.size();
    for (; expanded < mattering.size(); ++expanded) {
      const PolicyId id = mattering[expanded];
      for (uint8_t o : otherOptions(id, base.get(id))) {
        from.push_back(base);
        from.back().set(id, o);
        fromResults.push_back(run(probe, setup, from.back()));
        budget.hold(fromResults.back(), fromResults.size() + 1);
      }
    }
  }
  return mattering;
}

// Every combination of the points that matter (a few hundred runs of one instruction at most);
// with more, only one point at another option at a time, so the run stays short.
constexpr std::size_t kMaxCombinations = 256;
std::vector<Policies> predictionPolicies(const Policies& base,
                                         const std::vector<PolicyId>& mattering, bool exhaustive) {
  if (exhaustive) return everyCombination(base, mattering);
  std::vector<Policies> combos{base};
  for (PolicyId id : mattering) {
    for (uint8_t o : otherOptions(id, base.get(id))) {
      combos.push_back(base);
      combos.back().set(id, o);
    }
  }
  return combos;
}

// "name=option ..." of the points that matter, "(every policy)" for none.
std::string policyLabel(const std::vector<PolicyId>& mattering, const Policies& p) {
  const std::string label = p.describe(mattering);
  return label.empty() ? "(every policy)" : label;
}

}  // namespace

Exploration explore(const Probe& probe, const ProbeSetup& setup, uint64_t maxImageBytes) {
  Exploration ex;
  ImageBudget budget(probe, maxImageBytes);
  const Policies base = setup.policies;
  const ExecResult baseResult = run(probe, setup, base);
  ex.mattering = matteringPoints(probe, setup, baseResult, budget);
  budget.releaseAll();  // the searched images are freed before the predictions are made
  ex.exhaustive = combinationCount(ex.mattering) <= kMaxCombinations;
  for (const Policies& p : predictionPolicies(base, ex.mattering, ex.exhaustive)) {
    const std::string label = policyLabel(ex.mattering, p);
    ExecResult r = p == base ? baseResult : run(probe, setup, p);
    auto same =
        std::find_if(ex.predictions.begin(), ex.predictions.end(),
                     [&](const Prediction& q) { return samePrediction(q.result, r, setup.lanes); });
    if (same == ex.predictions.end()) {
      budget.hold(r, ex.predictions.size() + 1);
      ex.predictions.push_back(Prediction{std::move(r), p, {label}, p == base});
    } else {
      same->labels.push_back(label);
      same->isDefault = same->isDefault || p == base;
    }
  }
  return ex;
}

RegType dataRegType(const ProbeSetup& setup) {
  const OpcodeInfo& op = *setup.inst.op;
  if (op.d16) return RegType::Uint;
  if (op.kind == OpKind::LoadFormat || op.kind == OpKind::StoreFormat) {
    const Nfmt n =
        op.nfmtSource == FieldSource::Instruction ? setup.inst.nfmt : setup.vsharp.numFormat;
    return nfmtInfo(n, setup.chip->gen).reg;
  }
  return op.signExtend ? RegType::Sint : RegType::Uint;
}

}  // namespace gcn::probe
