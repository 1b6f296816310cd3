#include "probe/probe_report.h"

#include <algorithm>
#include <cstdio>

#include "reference/assembler.h"
#include "reference/convert.h"
#include "reference/text.h"

namespace gcn::probe {
namespace {

std::string regText(RegType t, const std::optional<uint32_t>& v) {
  if (!v) return "undef";
  std::string s = gcn::hexNumber(*v);
  if (t == RegType::Float) s += " (" + registerValueText(t, *v) + ")";
  return s;
}

std::string accessText(const LaneAccess& a) {
  std::string s =
      gcn::hexNumber(a.address) + "+" + std::to_string(a.size) + (a.inRange ? " in" : " oob");
  if (a.write) s += " write";
  if (a.inRange && !a.mapped) s += " unmapped";
  return s;
}

struct Change {
  uint64_t offset;
  std::vector<uint8_t> before, after;
};
// Runs of changed bytes, at most 16 per run.
std::vector<Change> changes(const std::vector<uint8_t>& before, const std::vector<uint8_t>& after) {
  std::vector<Change> out;
  const std::size_t n = std::min(before.size(), after.size());
  for (std::size_t i = 0; i < n;) {
    if (before[i] == after[i]) {
      ++i;
      continue;
    }
    Change c{i, {}, {}};
    while (i < n && before[i] != after[i] && c.before.size() < 16) {
      c.before.push_back(before[i]);
      c.after.push_back(after[i]);
      ++i;
    }
    out.push_back(std::move(c));
  }
  return out;
}
std::string bytesText(const std::vector<uint8_t>& b) {
  std::string s;
  for (uint8_t x : b)
    s.append(s.empty() ? "" : " ").append(gcn::hexDigits(std::span<const uint8_t>(&x, 1)));
  return s;
}
std::string changesText(const char* what, const std::vector<uint8_t>& before,
                        const std::vector<uint8_t>& after, const std::string& indent) {
  std::string out;
  const auto cs = changes(before, after);
  if (cs.empty()) return indent + what + ": unchanged\n";
  for (const Change& c : cs)
    out += indent + what + " +" + gcn::hexNumber(c.offset) + ": " + bytesText(c.before) + " -> " +
           bytesText(c.after) + "\n";
  if (before.size() != after.size())
    out += indent + what + ": size changed from " + std::to_string(before.size()) + " to " +
           std::to_string(after.size()) + "\n";
  return out;
}
nlohmann::json changesJson(const std::vector<uint8_t>& before, const std::vector<uint8_t>& after) {
  nlohmann::json arr = nlohmann::json::array();
  for (const Change& c : changes(before, after))
    arr.push_back({{"offset", c.offset}, {"before", c.before}, {"after", c.after}});
  return arr;
}

std::string header(const Probe& probe, const ProbeSetup& setup) {
  std::string out = "probe: " + probe.file + "\n";
  if (!probe.question.empty()) out += "question: " + probe.question + "\n";
  for (const std::string& s : probe.sources)
    out += "source: " + s + "\n";
  out += "chip: " + std::string(setup.chip->name) + " (" + std::string(genName(setup.chip->gen)) +
         ")\n";
  out += "inst: " + printInstruction(setup.chip->gen, setup.inst) + "\n";
  out += "V#: " + formatVSharp(setup.chip->gen, setup.vsharp) + "\n";
  out += "memory: " + std::to_string(setup.memory.bytes.size()) + " bytes at " +
         gcn::hexNumber(setup.memory.base);
  for (const MemoryRegion& r : setup.memory.far)
    out += ", far " + std::to_string(r.bytes.size()) + " bytes at " + gcn::hexNumber(r.base);
  out += "; exec " + gcn::hexNumber(setup.state.exec) + "; " + std::to_string(setup.lanes) +
         " lanes\n";
  return out;
}

// The changes of each far region, as changesText per region ("far 0x100001000 ...").
std::string farChangesText(const std::string& tag, const MemoryImage& before,
                           const MemoryImage& after) {
  std::string out;
  for (std::size_t k = 0; k < before.far.size() && k < after.far.size(); ++k)
    if (before.far[k].bytes != after.far[k].bytes)  // an unchanged region says nothing
      out += changesText((tag + " " + gcn::hexNumber(before.far[k].base)).c_str(),
                         before.far[k].bytes, after.far[k].bytes, "");
  return out;
}

nlohmann::json headerJson(const Probe& probe, const ProbeSetup& setup) {
  std::vector<std::string> pinned;
  for (PolicyId id : setup.pinned)
    pinned.emplace_back(policyPoint(id).name);
  return {{"file", probe.file},
          {"question", probe.question},
          {"sources", probe.sources},
          {"chip", setup.chip->name},
          {"gen", genName(setup.chip->gen)},
          {"inst", printInstruction(setup.chip->gen, setup.inst)},
          {"vsharp", formatVSharp(setup.chip->gen, setup.vsharp)},
          {"memory_base", setup.memory.base},
          {"memory_size", setup.memory.bytes.size()},
          {"far_regions",
           [&] {
             nlohmann::json far = nlohmann::json::array();
             for (const MemoryRegion& r : setup.memory.far)
               far.push_back({{"base", r.base}, {"size", r.bytes.size()}});
             return far;
           }()},
          {"exec", setup.state.exec},
          {"lanes", setup.lanes},
          {"pinned_policies", pinned}};
}

nlohmann::json lanesJson(const ProbeSetup& setup, const ExecResult& r) {
  nlohmann::json arr = nlohmann::json::array();
  for (unsigned l = 0; l < setup.lanes; ++l) {
    const LaneResult& lr = r.lanes[l];
    nlohmann::json regs = nlohmann::json::array();
    for (unsigned i = 0; i < lr.vdataCount && i < lr.vdata.size(); ++i)
      regs.push_back(lr.vdata[i] ? nlohmann::json(*lr.vdata[i]) : nlohmann::json(nullptr));
    nlohmann::json acc = nlohmann::json::array();
    for (const LaneAccess& a : lr.accesses)
      acc.push_back({{"address", a.address},
                     {"size", a.size},
                     {"in_range", a.inRange},
                     {"mapped", a.mapped},
                     {"write", a.write}});
    arr.push_back({{"lane", l},
                   {"active", lr.active},
                   {"vdata_first", setup.inst.vdata},
                   {"vdata", regs},
                   {"accesses", acc},
                   {"note", lr.note}});
  }
  return arr;
}

nlohmann::json predictionJson(const ProbeSetup& setup, const ExecResult& r) {
  return {{"lanes", lanesJson(setup, r)},
          {"memory_changes", changesJson(setup.memory.bytes, r.memory().bytes)},
          {"far_changes",
           [&] {
             nlohmann::json far = nlohmann::json::array();
             for (std::size_t k = 0; k < setup.memory.far.size() && k < r.memory().far.size(); ++k)
               far.push_back(
                   {{"base", setup.memory.far[k].base},
                    {"changes", changesJson(setup.memory.far[k].bytes, r.memory().far[k].bytes)}});
             return far;
           }()},
          {"lds_changes", changesJson(setup.lds, r.lds)},
          {"notes", r.notes}};
}

}  // namespace

nlohmann::json expectJson(bool given, const std::vector<ExpectFailure>& failures) {
  nlohmann::json f = nlohmann::json::array();
  for (const ExpectFailure& x : failures)
    f.push_back({{"line", x.place.line}, {"what", x.what}});
  return {{"given", given}, {"holds", failures.empty()}, {"failures", f}};
}

std::string expectText(const std::vector<ExpectFailure>& failures, std::string_view label,
                       bool given) {
  const std::string l(label);
  if (!given) return l + ": none given\n";
  if (failures.empty()) return l + ": holds\n";
  std::string out = l + ": FAILS (" + std::to_string(failures.size()) + ")\n";
  for (const ExpectFailure& f : failures)
    out += "  " + Error::format(f.place, f.what) + "\n";
  return out;
}

std::string laneCell(const ProbeSetup& setup, const ExecResult& result, unsigned lane) {
  const LaneResult& lr = result.lanes[lane];
  if (!lr.active) return "(exec off)";
  const RegType t = dataRegType(setup);
  std::string s;
  for (unsigned i = 0; i < lr.vdataCount && i < lr.vdata.size(); ++i)
    s += (s.empty() ? "" : " ") + std::string("v") + std::to_string(setup.inst.vdata + i) + "=" +
         regText(t, lr.vdata[i]);
  std::string acc;
  for (const LaneAccess& a : lr.accesses)
    acc += (acc.empty() ? "" : ", ") + accessText(a);
  if (!acc.empty()) s += (s.empty() ? "" : " | ") + acc;
  if (s.empty()) s = "(no access)";
  return s;
}

std::string refText(const Probe& probe, const ProbeSetup& setup, const ExecResult& result,
                    const std::vector<ExpectFailure>& failures) {
  std::string out = header(probe, setup);
  out += "policies: " + setup.policies.describe() + "\n";
  for (unsigned l = 0; l < setup.lanes; ++l) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "lane %2u: ", l);
    out += buf + laneCell(setup, result, l);
    if (!result.lanes[l].note.empty()) out += "  [" + result.lanes[l].note + "]";
    out += "\n";
  }
  out += changesText("mem", setup.memory.bytes, result.memory().bytes, "");
  out += farChangesText("far", setup.memory, result.memory());
  if (result.lds != setup.lds) out += changesText("lds", setup.lds, result.lds, "");
  for (const std::string& n : result.notes)
    out += "note: " + n + "\n";
  out += expectText(failures, "expect", probe.hasExpect());
  if (probe.hasDeviceExpect()) out += "expect device: checked by `gcnprobe probe` on a device\n";
  return out;
}

nlohmann::json refJson(const Probe& probe, const ProbeSetup& setup, const ExecResult& result,
                       const std::vector<ExpectFailure>& failures) {
  nlohmann::json j = headerJson(probe, setup);
  j["policies"] = setup.policies.describe();
  j["result"] = predictionJson(setup, result);
  j["expect"] = expectJson(probe.hasExpect(), failures);
  return j;
}

std::string exploreText(const Probe& probe, const ProbeSetup& setup, const Exploration& ex,
                        const std::vector<ExpectFailure>& failures, const std::string& device) {
  std::string out = header(probe, setup);
  if (const std::string pinned = setup.policies.describe(setup.pinned); !pinned.empty())
    out += "pinned: " + pinned + "\n";
  if (ex.mattering.empty()) {
    out += "policy points that matter: none (every policy predicts the same)\n";
  } else {
    out += "policy points that matter:";
    for (PolicyId id : ex.mattering)
      out += " " + std::string(policyPoint(id).name);
    out += ex.exhaustive ? "\n" : " (too many to combine: one flip at a time)\n";
  }
  out += std::to_string(ex.predictions.size()) + " distinct prediction" +
         (ex.predictions.size() == 1 ? "" : "s") + ":\n";
  for (std::size_t i = 0; i < ex.predictions.size(); ++i) {
    const Prediction& p = ex.predictions[i];
    out += "  " + std::string(1, static_cast<char>('A' + i % 26)) +
           (p.isDefault ? " (default)" : "") + ": ";
    for (std::size_t k = 0; k < p.labels.size(); ++k)
      out += (k ? " | " : "") + p.labels[k];
    out += "\n";
  }
  for (PolicyId id : ex.mattering) {
    const PolicyPoint& point = policyPoint(id);
    out += "  " + std::string(point.name) + ": " + std::string(point.question) + "\n";
    for (const PolicyOption& o : point.options())
      out += "    " + std::string(o.name) + ": " + std::string(o.source) + "\n";
  }
  // Per lane: one line when every prediction agrees; else one line per prediction, aligned
  // under each other, and '*' marks the lane.
  for (unsigned l = 0; l < setup.lanes; ++l) {
    std::vector<std::string> cells;
    for (const Prediction& p : ex.predictions)
      cells.push_back(laneCell(setup, p.result, l));
    const bool differ = std::any_of(cells.begin(), cells.end(),
                                    [&](const std::string& c) { return c != cells[0]; });
    char buf[32];
    std::snprintf(buf, sizeof buf, "%clane %2u ", differ ? '*' : ' ', l);
    if (!differ) {
      out += buf + std::string(ex.predictions.size() > 1 ? "all: " : "") + cells[0] + "\n";
      continue;
    }
    for (std::size_t i = 0; i < cells.size(); ++i)
      out += (i == 0 ? std::string(buf) : std::string(9, ' ')) +
             std::string(1, static_cast<char>('A' + i % 26)) + ": " + cells[i] + "\n";
  }
  for (std::size_t i = 0; i < ex.predictions.size(); ++i) {
    const ExecResult& r = ex.predictions[i].result;
    const std::string tag = std::string(1, static_cast<char>('A' + i % 26));
    out += changesText(("mem " + tag).c_str(), setup.memory.bytes, r.memory().bytes, "");
    out += farChangesText("far " + tag, setup.memory, r.memory());
    if (r.lds != setup.lds) out += changesText(("lds " + tag).c_str(), setup.lds, r.lds, "");
  }
  if (!ex.predictions.empty())
    for (const std::string& n : ex.predictions[0].result.notes)
      out += "note: " + n + "\n";
  out += expectText(failures, "expect", probe.hasExpect());
  out += "device: " + device + "\n";
  return out;
}

nlohmann::json exploreJson(const Probe& probe, const ProbeSetup& setup, const Exploration& ex,
                           const std::vector<ExpectFailure>& failures,
                           const nlohmann::json& device) {
  nlohmann::json j = headerJson(probe, setup);
  nlohmann::json mattering = nlohmann::json::array();
  for (PolicyId id : ex.mattering)
    mattering.push_back(policyPoint(id).name);
  j["mattering"] = mattering;
  j["exhaustive"] = ex.exhaustive;
  nlohmann::json preds = nlohmann::json::array();
  for (const Prediction& p : ex.predictions) {
    nlohmann::json pj = predictionJson(setup, p.result);
    pj["policies"] = p.policies.describe();
    pj["labels"] = p.labels;
    pj["default"] = p.isDefault;
    preds.push_back(std::move(pj));
  }
  j["predictions"] = preds;
  j["expect"] = expectJson(probe.hasExpect(), failures);
  j["device"] = device;
  return j;
}

}  // namespace gcn::probe
