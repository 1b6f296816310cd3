#include "results/isa_report.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "reference/error.h"
#include "results/html_report.h"
#include "results/isa_compare.h"

namespace gcnprobe::results {
namespace {

using nlohmann::json;

// The page's verdict of an isa case: its outcome, or `twin-verified` for a route-miss whose twin
// in gcnprobe's own program is verified (the driver route's outcome stays in the record).
constexpr const char* kTwinVerified = "twin-verified";
std::string pageVerdict(const json& c) {
  const std::string outcome = isaString(c, "outcome");
  if (const auto t = c.find("twin"); outcome == "route-miss" && t != c.end() && t->is_object() &&
                                     isaString(*t, "outcome") == "verified")
    return kTwinVerified;
  return outcome.empty() ? "error" : outcome;
}

// One isa case as the page shows a record (report/report.js, runDetail for kind "isa").
json pageRecord(const json& c) {
  json r;
  r["name"] = isaString(c, "case");
  std::string suite = isaString(c, "suite");
  if (suite.empty())
    suite = r["name"].get<std::string>().substr(0, r["name"].get<std::string>().find('.'));
  r["suite"] = suite;
  r["format"] = isaString(c, "format");
  r["binding"] = isaString(c, "binding");
  r["verdict"] = pageVerdict(c);
  r["outcome"] = isaString(c, "outcome");
  r["instruction"] = isaString(c, "intended");
  std::string reason = isaString(c, "reason");
  if (const std::string u = isaString(c, "unsupported"); !u.empty())
    reason += (reason.empty() ? "" : "; ") + u;
  if (!reason.empty()) r["reason"] = reason;
  // The case's own instruction as the driver emitted it: what the atlas compares across drivers.
  r["case_instruction"] = caseInstruction(c);
  if (const auto p = c.find("proof"); p != c.end() && p->is_array()) r["proof"] = *p;
  json lines = json::array();
  if (const auto e = c.find("emitted"); e != c.end() && e->is_array())
    for (const json& x : *e)
      if (const std::string t = isaString(x, "text"); !t.empty()) lines.push_back(t);
  r["isa_lines"] = std::move(lines);
  if (const auto t = c.find("twin"); t != c.end() && t->is_object()) {
    json twin{{"case", isaString(*t, "case")},
              {"outcome", isaString(*t, "outcome")},
              {"reason", isaString(*t, "reason")}};
    json proof = json::array();
    if (const auto cs = t->find("cases"); cs != t->end() && cs->is_array())
      for (const json& one : *cs) {
        proof.push_back(isaString(one, "case") + ": " + isaString(one, "outcome"));
        if (const auto p = one.find("proof"); p != one.end() && p->is_array())
          for (const json& link : *p)
            if (link.is_string()) proof.push_back("  " + link.get<std::string>());
      }
    twin["proof"] = std::move(proof);
    r["twin"] = std::move(twin);
  }
  return r;
}

// Outcomes in legend order: verified, twin-verified, then the others by name.
std::vector<std::string> verdictOrder(const std::vector<std::vector<json>>& records) {
  std::set<std::string> seen;
  for (const auto& run : records)
    for (const json& r : run)
      seen.insert(r["verdict"].get<std::string>());
  std::vector<std::string> out;
  for (const char* first : {"verified", kTwinVerified})
    if (seen.erase(first)) out.emplace_back(first);
  out.insert(out.end(), seen.begin(), seen.end());
  return out;
}

}  // namespace

bool isIsaDocument(const json& doc) {
  return doc.is_object() && doc.contains("chips");
}

json isaReportData(const std::vector<IsaDocument>& docs, const std::vector<std::string>& labels,
                   const std::string& generator, std::span<const std::string> listOrder) {
  if (!labels.empty() && labels.size() != docs.size())
    throw gcn::Error("--label is given " + std::to_string(labels.size()) + " times for " +
                     std::to_string(docs.size()) + " documents: give it once per document or not");
  ReportPageInput in;
  in.kind = "isa";
  std::vector<std::vector<json>> records;  // per column (document x chip)
  std::vector<std::string> columnChip;
  for (std::size_t d = 0; d < docs.size(); ++d) {
    const IsaDocument& doc = docs[d];
    checkIsaDocument(doc.doc, doc.source);
    for (const json& chip : doc.doc.at("chips")) {
      const std::string chipName = isaString(chip, "chip");
      std::string label =
          d < labels.size() && !labels[d].empty() ? labels[d] : isaString(chip, "driver");
      if (label.empty()) label = doc.source;
      json header{{"driver", isaString(chip, "driver")},
                  {"device_name", isaString(chip, "device")},
                  {"chip", chipName},
                  {"profile", isaString(chip, "generation")}};
      const std::string summary = isaString(chip, "summary");
      records.emplace_back();
      for (const json& c : chip.at("cases"))
        records.back().push_back(pageRecord(c));
      in.runs.push_back({{"label", label + " / " + chipName},
                         {"source", doc.source},
                         {"header", header},
                         {"summary", summary.empty() ? json(nullptr) : json(summary)},
                         {"finished", !summary.empty()},
                         {"cases", records.back().size()}});
      columnChip.push_back(chipName);
    }
  }
  in.verdicts = verdictOrder(records);
  for (const std::vector<json>& run : records) {
    in.records.emplace_back();
    for (const json& r : run)
      in.records.back().push_back(&r);
  }
  // Each column against the same chip's first column (two drivers of one chip); with one
  // document, each chip against the first (two chips of one driver); a chip's first column of
  // several documents is compared with nothing. Marked: the outcome (verdict), the case's own
  // instruction without registers (instruction), the case on one side only (missing).
  const bool oneDocument = docs.size() == 1;
  in.markDifferences = [&records, &columnChip, oneDocument](
                           const std::unordered_map<std::string, std::size_t>& index,
                           std::vector<std::set<std::string>>& kinds) {
    for (std::size_t k = 1; k < records.size(); ++k) {
      std::size_t base = k;
      for (std::size_t j = 0; j < k && base == k; ++j)
        if (columnChip[j] == columnChip[k]) base = j;
      if (base == k && oneDocument) base = 0;
      if (base == k) continue;
      std::unordered_map<std::string, const json*> before;
      for (const json& r : records[base])
        before.emplace(r["name"].get<std::string>(), &r);
      std::set<std::string> seen;
      for (const json& r : records[k]) {
        const std::string name = r["name"].get<std::string>();
        seen.insert(name);
        const auto b = before.find(name);
        if (b == before.end()) {
          kinds[index.at(name)].insert(kDiffMissing);
          continue;
        }
        if ((*b->second)["verdict"] != r["verdict"]) kinds[index.at(name)].insert(kDiffVerdict);
        if (withoutRegisters((*b->second)["case_instruction"].get<std::string>()) !=
            withoutRegisters(r["case_instruction"].get<std::string>()))
          kinds[index.at(name)].insert(kDiffInstruction);
      }
      for (const auto& [name, r] : before)
        if (!seen.count(name)) kinds[index.at(name)].insert(kDiffMissing);
    }
  };
  return reportPageData(std::move(in), generator, listOrder);
}

}  // namespace gcnprobe::results
