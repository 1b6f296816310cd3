#include "results/html_report.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

#include "reference/error.h"
#include "reference/opcodes.h"
#include "reference/text.h"
#include "report/page.h"
#include "results/compare.h"

namespace gcnprobe::results {
namespace {

std::vector<std::string> splitDots(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = s.find('.', start);
    out.push_back(s.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return out;
    start = dot + 1;
  }
}

// The lane values of a record: (kind, lane, element, component, actual bits) of each entry.
using LaneValues = std::vector<std::tuple<std::string, int64_t, int64_t, std::string, std::string>>;
LaneValues laneValues(const nlohmann::json& record) {
  LaneValues out;
  const auto lanes = record.find("lanes");
  if (lanes == record.end() || !lanes->is_array()) return out;
  for (const nlohmann::json& l : *lanes)
    out.emplace_back(l.value("kind", ""), l.value("lane", int64_t{-1}),
                     l.value("element", int64_t{-1}), l.value("component", ""),
                     l.value("actual_bits", ""));
  std::sort(out.begin(), out.end());
  return out;
}

// The members of a lane entry (docs/run.md), in the order the page's rows list them.
constexpr const char* kLaneFields[] = {
    "lane",          "element",        "byte_offset", "component",    "kind",    "memory_bits",
    "expected_bits", "expected_value", "actual_bits", "actual_value", "verdict", "classification"};

std::string defaultLabel(const ResultsFile& r) {
  std::string driver = headerText(r.header, "driver_version");
  if (driver.empty()) driver = headerText(r.header, "driver");
  if (driver.empty()) driver = r.source;
  const std::string profile = headerText(r.header, "profile");
  return profile.empty() ? driver : driver + " / " + profile;
}

// The MUBUF/MTBUF opcode a column names (a dotted part that is a mnemonic, with or without
// "buffer_"), as (encoding, opcode on GFX9, else the newest generation that has it); columns
// naming none sort after those that do.
std::optional<std::pair<int, int>> columnInstruction(const std::string& column) {
  for (const std::string& part : splitDots(column)) {
    const gcn::OpcodeInfo* op = gcn::findOpcode(part);
    if (op == nullptr) op = gcn::findOpcode("buffer_" + part);
    if (op == nullptr) continue;
    int number = -1;
    for (int g = 3; g >= 0 && number < 0; --g)
      number = op->opcode[static_cast<std::size_t>(g)];
    return std::make_pair(static_cast<int>(op->encoding), number);
  }
  return std::nullopt;
}

// Text with its digit runs compared as numbers: "offset4" before "offset20".
bool naturalLess(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
    const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
    if (da && db) {
      std::size_t ei = i, ej = j;
      while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei])))
        ++ei;
      while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej])))
        ++ej;
      std::string na = a.substr(i, ei - i), nb = b.substr(j, ej - j);
      na.erase(0, std::min(na.find_first_not_of('0'), na.size()));
      nb.erase(0, std::min(nb.find_first_not_of('0'), nb.size()));
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ei;
      j = ej;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

// Columns in instruction order (opcode), then naturally by the rest of their text.
bool columnBefore(const std::string& a, const std::string& b) {
  const auto ia = columnInstruction(a), ib = columnInstruction(b);
  if (ia.has_value() != ib.has_value()) return ia.has_value();
  if (ia && *ia != *ib) return *ia < *ib;
  return naturalLess(a, b);
}

}  // namespace

MatrixCell matrixCell(const std::string& name, const std::string& suite, const std::string& format,
                      const std::string& binding) {
  std::vector<std::string> parts = splitDots(name);
  if (!parts.empty() && parts.front() == suite) parts.erase(parts.begin());
  MatrixCell cell;
  std::string fmt = gcn::asciiLower(format);
  if (fmt.rfind("vk_format_", 0) == 0) fmt = fmt.substr(10);
  if (!fmt.empty()) {
    cell.row = fmt;
    const auto it = std::find(parts.begin(), parts.end(), fmt);
    if (it != parts.end()) parts.erase(it);
  } else {
    cell.row = "(" + (binding.empty() ? std::string("untyped") : binding) + ")";
  }
  for (const std::string& p : parts)
    cell.column += (cell.column.empty() ? "" : ".") + p;
  if (cell.column.empty()) cell.column = "-";
  return cell;
}

namespace {

// Labels made from headers can repeat (two runs of one driver): number them.
void numberRepeatedLabels(nlohmann::json& runList) {
  std::map<std::string, int> seen;
  for (const nlohmann::json& run : runList)
    ++seen[run["label"].get<std::string>()];
  for (std::size_t k = 0; k < runList.size(); ++k) {
    const std::string l = runList[k]["label"].get<std::string>();
    if (seen[l] > 1) runList[k]["label"] = l + " #" + std::to_string(k + 1);
  }
}

// The cases in list order (`listOrder`), then those it does not name in the order the reports
// hold them (the first report's, then each later report's new cases): a report lists its cases
// as they finish, which is not an order for people.
std::vector<std::string> caseOrder(const std::vector<std::vector<const nlohmann::json*>>& records,
                                   std::span<const std::string> listOrder) {
  std::unordered_map<std::string, std::size_t> listPosition;
  for (std::size_t i = 0; i < listOrder.size(); ++i)
    listPosition.emplace(listOrder[i], i);
  std::vector<std::pair<std::size_t, std::string>> ordered;  // (list position, name)
  std::unordered_map<std::string, std::size_t> seenName;
  for (const std::vector<const nlohmann::json*>& recs : records)
    for (const nlohmann::json* rec : recs) {
      const std::string name = rec->value("name", "");
      if (!seenName.emplace(name, ordered.size()).second) continue;
      const auto it = listPosition.find(name);
      ordered.emplace_back(it != listPosition.end() ? it->second : listOrder.size(), name);
    }
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> names;
  for (auto& [position, name] : ordered)
    names.push_back(std::move(name));
  return names;
}

// A record as the page holds it: without what the case entry says once for all runs, without
// empty ISA lines and proofs, and its lanes as rows of kLaneFields (half the size of the
// objects).
nlohmann::json compactRecord(const nlohmann::json& rec) {
  nlohmann::json r = rec;
  for (const char* member : {"name", "suite", "profile", "device", "format", "binding", "vsharp"})
    r.erase(member);
  if (const auto isa = r.find("isa_lines"); isa != r.end() && isa->empty()) r.erase(isa);
  if (const auto proof = r.find("proof"); proof != r.end() && proof->empty()) r.erase(proof);
  const auto lanes = r.find("lanes");
  if (lanes != r.end() && lanes->is_array()) {
    nlohmann::json rows = nlohmann::json::array();
    for (const nlohmann::json& l : *lanes) {
      nlohmann::json row = nlohmann::json::array();
      for (const char* f : kLaneFields)
        row.push_back(l.is_object() && l.contains(f) ? l[f] : nlohmann::json(nullptr));
      rows.push_back(std::move(row));
    }
    r.erase(lanes);
    r["L"] = std::move(rows);
  }
  return r;
}

// The V# each report's record says the case bound (the page shows one entry when all agree);
// null when no record names one.
nlohmann::json vsharpEntries(const std::vector<const nlohmann::json*>& records,
                             const nlohmann::json& runs) {
  nlohmann::json vs = nlohmann::json::array();
  bool anyVs = false;
  for (std::size_t k = 0; k < records.size(); ++k) {
    const nlohmann::json* rec = records[k];
    const auto it = rec != nullptr ? rec->find("vsharp") : nlohmann::json::const_iterator();
    if (rec == nullptr || it == rec->end() || !it->is_object()) {
      vs.push_back(nullptr);
      continue;
    }
    const auto header = runs[k].find("header");
    vs.push_back({{"profile", header != runs[k].end() ? headerText(*header, "profile") : ""},
                  {"text", it->value("text", "")},
                  {"words", it->value("words", "")}});
    anyVs = true;
  }
  return anyVs ? vs : nlohmann::json(nullptr);
}

// Suites and rows in order of first appearance in list order (the suites' own order: the format
// table's for formats); columns then sorted into instruction order (sortColumns).
struct SuiteAxes {
  std::vector<std::string> rows, columns;
  std::map<std::string, std::size_t> rowIndex, columnIndex;
};

std::size_t indexOf(std::vector<std::string>& list, std::map<std::string, std::size_t>& idx,
                    const std::string& key) {
  auto [it, added] = idx.emplace(key, list.size());
  if (added) list.push_back(key);
  return it->second;
}

// Columns in instruction order: a format missing from the first row would otherwise put its
// instructions last. The cases of suite `s` are renumbered with them.
void sortColumns(SuiteAxes& a, std::size_t s, nlohmann::json& cases) {
  std::vector<std::size_t> order(a.columns.size());
  for (std::size_t j = 0; j < order.size(); ++j)
    order[j] = j;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return columnBefore(a.columns[x], a.columns[y]);
  });
  std::vector<std::size_t> newIndex(order.size());
  std::vector<std::string> sorted;
  for (std::size_t j = 0; j < order.size(); ++j) {
    newIndex[order[j]] = j;
    sorted.push_back(a.columns[order[j]]);
  }
  a.columns = std::move(sorted);
  a.columnIndex.clear();
  for (std::size_t j = 0; j < a.columns.size(); ++j)
    a.columnIndex[a.columns[j]] = j;
  for (nlohmann::json& c : cases)
    if (c["s"].get<std::size_t>() == s) c["c"] = newIndex[c["c"].get<std::size_t>()];
}

}  // namespace

nlohmann::json reportPageData(ReportPageInput in, const std::string& generator,
                              std::span<const std::string> listOrder) {
  nlohmann::json data;
  data["generator"] = generator;
  data["kind"] = in.kind;
  data["verdicts"] = in.verdicts;
  data["lane_fields"] = kLaneFields;
  // The kinds of difference, weightiest first: the atlas groups its differing cases so.
  data["diff_kinds"] = {kDiffVerdict, kDiffInstruction, kDiffValue, kDiffMissing};
  numberRepeatedLabels(in.runs);
  const std::size_t runCount = in.runs.size();
  data["runs"] = std::move(in.runs);
  const std::vector<std::string> names = caseOrder(in.records, listOrder);
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < names.size(); ++i)
    index.emplace(names[i], i);
  std::vector<std::vector<const nlohmann::json*>> records(
      names.size(), std::vector<const nlohmann::json*>(runCount, nullptr));  // [case][run]
  for (std::size_t k = 0; k < runCount; ++k)
    for (const nlohmann::json* rec : in.records[k])
      records[index.at(rec->value("name", ""))][k] = rec;

  std::vector<std::set<std::string>> kinds(names.size());
  if (runCount > 1 && in.markDifferences) in.markDifferences(index, kinds);

  std::vector<std::string> suiteNames;
  std::map<std::string, std::size_t> suiteIndex;
  std::vector<SuiteAxes> axes;
  nlohmann::json cases = nlohmann::json::array();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const nlohmann::json* first = nullptr;
    for (const nlohmann::json* rec : records[i])
      if (first == nullptr) first = rec;
    const std::string suite = first->value("suite", "");
    const std::string format = first->value("format", "");
    const std::string binding = first->value("binding", "");
    const MatrixCell cell = matrixCell(names[i], suite, format, binding);
    std::size_t s = indexOf(suiteNames, suiteIndex, suite);
    if (s == axes.size()) axes.emplace_back();
    nlohmann::json c;
    c["n"] = names[i];
    c["s"] = s;
    c["r"] = indexOf(axes[s].rows, axes[s].rowIndex, cell.row);
    c["c"] = indexOf(axes[s].columns, axes[s].columnIndex, cell.column);
    c["f"] = format;
    c["b"] = binding;
    nlohmann::json v = nlohmann::json::array();
    nlohmann::json recs = nlohmann::json::array();
    for (const nlohmann::json* rec : records[i]) {
      if (rec == nullptr) {
        v.push_back(-1);
        recs.push_back(nullptr);
        continue;
      }
      const auto verdict =
          std::find(in.verdicts.begin(), in.verdicts.end(), rec->value("verdict", ""));
      v.push_back(verdict != in.verdicts.end() ? static_cast<int>(verdict - in.verdicts.begin())
                                               : -1);
      recs.push_back(compactRecord(*rec));
    }
    c["v"] = v;
    c["rec"] = recs;
    if (!kinds[i].empty()) c["d"] = kinds[i];
    if (nlohmann::json vs = vsharpEntries(records[i], data["runs"]); !vs.is_null()) c["vs"] = vs;
    cases.push_back(std::move(c));
  }
  for (std::size_t s = 0; s < axes.size(); ++s)
    sortColumns(axes[s], s, cases);
  nlohmann::json suites = nlohmann::json::array();
  for (std::size_t s = 0; s < suiteNames.size(); ++s)
    suites.push_back({{"name", suiteNames[s]}, {"rows", axes[s].rows}, {"cols", axes[s].columns}});
  data["suites"] = suites;
  data["cases"] = std::move(cases);
  return data;
}

nlohmann::json reportData(const std::vector<ResultsFile>& runs,
                          const std::vector<std::string>& labels, const std::string& generator,
                          std::span<const std::string> listOrder) {
  ReportPageInput in;
  for (std::size_t v = 0; v < kVerdictCount; ++v)
    in.verdicts.push_back(std::string(verdictName(static_cast<Verdict>(v))));
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const ResultsFile& r = runs[k];
    nlohmann::json run;
    run["label"] = k < labels.size() && !labels[k].empty() ? labels[k] : defaultLabel(r);
    run["source"] = r.source;
    run["header"] = r.header;
    run["summary"] = r.summary ? nlohmann::json(*r.summary) : nlohmann::json(nullptr);
    run["finished"] = r.finished();
    run["cases"] = r.cases.size();
    in.runs.push_back(run);
    in.records.emplace_back();
    for (const nlohmann::json& rec : r.records)
      in.records.back().push_back(&rec);
  }
  // The differences: verdicts and ISA digests as `gcnprobe compare` sees them (the first
  // report against each other: equal verdicts are equal to each other), lane values here.
  in.markDifferences = [&runs](const std::unordered_map<std::string, std::size_t>& index,
                               std::vector<std::set<std::string>>& kinds) {
    std::unordered_map<std::string, const nlohmann::json*> first;
    for (const nlohmann::json& rec : runs[0].records)
      first.emplace(rec.value("name", ""), &rec);
    for (std::size_t k = 1; k < runs.size(); ++k) {
      const Comparison c = compareResults(runs[0], runs[k]);
      auto mark = [&](const std::vector<CaseChange>& list, const char* kind) {
        for (const CaseChange& ch : list) {
          const auto it = index.find(ch.name);
          if (it == index.end()) continue;
          kinds[it->second].insert(kind);
          if (ch.isa == IsaChange::Different) kinds[it->second].insert(kDiffInstruction);
        }
      };
      mark(c.regressions, kDiffVerdict);
      mark(c.fixes, kDiffVerdict);
      mark(c.changed, kDiffVerdict);
      mark(c.isaChanged, kDiffInstruction);
      mark(c.added, kDiffMissing);
      mark(c.removed, kDiffMissing);
      for (const nlohmann::json& b : runs[k].records) {
        const auto a = first.find(b.value("name", ""));
        if (a == first.end() || a->second->value("verdict", "") != b.value("verdict", "")) continue;
        if (laneValues(*a->second) != laneValues(b)) kinds[index.at(a->first)].insert(kDiffValue);
      }
    }
  };
  return reportPageData(std::move(in), generator, listOrder);
}

std::string reportHtml(const nlohmann::json& data) {
  const std::string_view page = report::pageHtml();
  std::string json = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string safe;
  safe.reserve(json.size() + json.size() / 16);
  for (char ch : json) {
    if (ch == '<')
      safe += "\\u003c";  // only inside JSON strings: no "</script" or "<!--" can appear
    else
      safe += ch;
  }
  // Each placeholder once, filled in page order; the inserted text is never searched again.
  const std::pair<std::string_view, std::string_view> fills[] = {
      {"/*@GCNPROBE_CSS@*/", report::pageCss()},
      {"@GCNPROBE_DATA@", safe},
      {"/*@GCNPROBE_JS@*/", report::pageJs()},
  };
  std::string out;
  out.reserve(page.size() + safe.size() + report::pageCss().size() + report::pageJs().size());
  std::size_t pos = 0;
  for (const auto& [key, text] : fills) {
    const std::size_t at = page.find(key, pos);
    if (at == std::string_view::npos)
      throw gcn::InfraError("report/report.html: placeholder " + std::string(key) +
                            " missing or out of order");
    out.append(page.substr(pos, at - pos));
    out.append(text);
    pos = at + key.size();
  }
  out.append(page.substr(pos));
  return out;
}

}  // namespace gcnprobe::results
