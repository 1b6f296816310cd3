#include "results/results_file.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "reference/error.h"
#include "reference/text.h"

namespace gcnprobe::results {
namespace {

const nlohmann::json& member(const nlohmann::json& j, const char* key, const std::string& where) {
  const auto it = j.find(key);
  if (it == j.end()) throw gcn::Error(where + ": the record has no \"" + key + "\"");
  return *it;
}

std::string stringOf(const nlohmann::json& j, const char* key, const std::string& where) {
  const nlohmann::json& v = member(j, key, where);
  if (!v.is_string()) throw gcn::Error(where + ": \"" + key + "\" is not a string");
  return v.get<std::string>();
}

// Members the reader does not need may be absent (reports of older versions).
std::string optionalString(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void readDocument(const nlohmann::json& doc, ResultsFile& out) {
  if (!doc.is_object()) throw gcn::Error(out.source + ": not a gcnprobe results document");
  const auto cases = doc.find("cases");
  if (cases == doc.end() || !cases->is_array())
    throw gcn::Error(out.source + ": no \"cases\" array (not written by gcnprobe run --json?)");
  // nlohmann::json keeps members sorted, not in file order: the header is every member but
  // the known trailing ones.
  for (const auto& [key, value] : doc.items()) {
    if (key == "cases") continue;
    if (key == "summary") {
      if (!value.is_string()) throw gcn::Error(out.source + ": \"summary\" is not a string");
      out.summary = value.get<std::string>();
    } else if (key == "texel_gaps" || key == "validation") {
      out.extra[key] = value;
    } else {
      out.header[key] = value;
    }
  }
  std::size_t k = 0;
  for (const nlohmann::json& record : *cases) {
    out.cases.push_back(caseFromRecord(record, out.source + ": case " + std::to_string(++k)));
    out.records.push_back(record);
  }
}

// A line of the streamed report without its separator comma.
std::string_view withoutComma(std::string_view line) {
  while (!line.empty() && (line.back() == ',' || line.back() == '\r' || line.back() == ' '))
    line.remove_suffix(1);
  return line;
}

void readTruncated(std::string_view text, ResultsFile& out) {
  out.header = nlohmann::json::object();
  std::size_t pos = 0, lineNo = 0, k = 0;
  bool inCases = false;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::size_t lineStart = pos;
    const std::string_view line = withoutComma(text.substr(pos, end - pos));
    pos = end + 1;
    ++lineNo;
    if (line.empty() || line == "{") continue;
    if (!inCases) {
      if (line == "\"cases\": [") {
        inCases = true;
        continue;
      }
      std::string member = "{";  // appended, not "{" + ...: GCC 12's -Wrestrict at -O3
      member.append(line).append("}");
      const nlohmann::json m = nlohmann::json::parse(member, nullptr, false);
      if (m.is_discarded() || !m.is_object())
        throw gcn::Error(gcn::Place{out.source, static_cast<int>(lineNo), 0},
                         "not a line of a gcnprobe results document");
      out.header.update(m);
      continue;
    }
    if (line.front() != '{') break;  // "]" and what follows: the end of the records
    const nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
    if (record.is_discarded()) {
      // The record being written when the writer died is the last line; a damaged line with
      // more text after it is corruption, not a run that stopped.
      if (!gcn::trimSpace(text.substr(std::min(pos, text.size()))).empty())
        throw gcn::Error(gcn::Place{out.source, static_cast<int>(lineNo), 0},
                         "a damaged record with more text after it (byte " +
                             std::to_string(lineStart) +
                             "): the file is corrupt, not a run that stopped (which leaves "
                             "only its last record cut)");
      break;
    }
    out.cases.push_back(caseFromRecord(record, out.source + ": case " + std::to_string(++k)));
    out.records.push_back(record);
  }
  if (!inCases)
    throw gcn::Error(out.source + ": no \"cases\" array (not written by gcnprobe run --json?)");
}

// The record's "original" member (docs/run.md); std::nullopt where it has none.
std::optional<CaseResult::Original> originalOf(const nlohmann::json& record,
                                               const std::string& where) {
  const auto it = record.find("original");
  if (it == record.end() || it->is_null()) return std::nullopt;
  if (!it->is_object()) throw gcn::Error(where + ": \"original\" is not an object");
  const std::string was = stringOf(*it, "verdict", where + ": original");
  const std::optional<Verdict> v = verdictFromName(was);
  if (!v) throw gcn::Error(where + ": original verdict '" + was + "' is not a verdict");
  return CaseResult::Original{*v, optionalString(*it, "reason")};
}

}  // namespace

std::string headerText(const nlohmann::json& header, std::string_view key,
                       std::string_view absent) {
  const auto it = header.find(key);
  if (it == header.end() || it->is_null()) return std::string(absent);
  return it->is_string() ? it->get<std::string>() : it->dump();
}

CaseResult caseFromRecord(const nlohmann::json& record, const std::string& where) {
  if (!record.is_object()) throw gcn::Error(where + ": a case record is not an object");
  CaseResult r;
  r.name = stringOf(record, "name", where);
  if (r.name.empty()) throw gcn::Error(where + ": the case has an empty name");
  const std::string verdict = stringOf(record, "verdict", where);
  const std::optional<Verdict> v = verdictFromName(verdict);
  if (!v) throw gcn::Error(where + " (" + r.name + "): '" + verdict + "' is not a verdict");
  r.verdict = *v;
  r.suite = optionalString(record, "suite");
  r.instruction = optionalString(record, "instruction");
  r.format = optionalString(record, "format");
  r.binding = optionalString(record, "binding");
  r.reason = optionalString(record, "reason");
  r.tolerance = optionalString(record, "tolerance");
  if (const auto it = record.find("vsharp"); it != record.end() && it->is_object()) {
    r.vsharp = optionalString(*it, "text");
    r.vsharpWords = optionalString(*it, "words");
  }
  r.expectation = optionalString(record, "expectation");
  r.original = originalOf(record, where + " (" + r.name + ")");
  if (const auto it = record.find("notes"); it != record.end() && it->is_array())
    for (const nlohmann::json& n : *it)
      if (n.is_string()) r.notes.push_back(n.get<std::string>());
  if (const auto it = record.find("duration_s"); it != record.end() && it->is_number())
    r.seconds = it->get<double>();
  if (const auto it = record.find("changed_guard_bytes"); it != record.end() && it->is_array())
    for (const nlohmann::json& b : *it)
      if (b.is_number_integer()) r.changedGuardBytes.push_back(b.get<int64_t>());
  // The lane details, so that a record read back (a child process's, a shard's) is written
  // again unchanged.
  if (const auto it = record.find("lanes"); it != record.end() && it->is_array()) {
    for (const nlohmann::json& l : *it) {
      if (!l.is_object()) throw gcn::Error(where + " (" + r.name + "): a lane is not an object");
      ComponentDiff d;
      const auto integer = [&](const char* key) -> int64_t {
        const auto m = l.find(key);
        return m != l.end() && m->is_number_integer() ? m->get<int64_t>() : -1;
      };
      d.lane = static_cast<int>(integer("lane"));
      d.element = integer("element");
      d.byteOffset = integer("byte_offset");
      const std::string comp = optionalString(l, "component");
      const std::size_t c = std::string_view("xyzw").find(comp);
      d.component = comp.size() == 1 && c != std::string_view::npos ? static_cast<unsigned>(c) : 4;
      d.memoryField = optionalString(l, "kind") == "memory";
      d.memoryBits = optionalString(l, "memory_bits");
      d.expectedBits = optionalString(l, "expected_bits");
      d.expectedValue = optionalString(l, "expected_value");
      d.actualBits = optionalString(l, "actual_bits");
      d.actualValue = optionalString(l, "actual_value");
      d.match = optionalString(l, "verdict") == "match";
      d.classification = optionalString(l, "classification");
      r.diffs.push_back(std::move(d));
    }
  }
  if (const auto it = record.find("isa_digest"); it != record.end() && !it->is_null()) {
    if (!it->is_string() || it->get<std::string>().empty())
      throw gcn::Error(where + " (" + r.name + "): \"isa_digest\" is neither a string nor null");
    r.isaDigest = it->get<std::string>();
  }
  if (const auto it = record.find("isa_lines"); it != record.end()) {
    if (!it->is_array()) throw gcn::Error(where + " (" + r.name + "): \"isa_lines\" is not a list");
    for (const nlohmann::json& line : *it) {
      if (!line.is_string())
        throw gcn::Error(where + " (" + r.name + "): an \"isa_lines\" entry is not a string");
      r.isaLines.push_back(line.get<std::string>());
    }
  }
  if (const auto it = record.find("proof"); it != record.end()) {
    if (!it->is_array()) throw gcn::Error(where + " (" + r.name + "): \"proof\" is not a list");
    for (const nlohmann::json& line : *it) {
      if (!line.is_string())
        throw gcn::Error(where + " (" + r.name + "): a \"proof\" entry is not a string");
      r.proof.push_back(line.get<std::string>());
    }
  }
  return r;
}

bool ResultsFile::finished() const {
  return summary && summary->rfind("interrupted", 0) != 0 && summary->rfind("incomplete", 0) != 0;
}

ResultsFile parseResults(std::string_view text, const std::string& source, bool allowTruncated) {
  ResultsFile out;
  out.source = source;
  out.header = nlohmann::json::object();
  try {
    readDocument(nlohmann::json::parse(text), out);
    return out;
  } catch (const nlohmann::json::parse_error& e) {
    // Another kind of file (a CSV, a JUnit XML) is named as such, not as a run that stopped.
    const std::string_view body = gcn::trimSpace(text);
    if (body.empty() || body.front() != '{')
      throw gcn::Error(gcn::Place{source, 1, 0},
                       "not a gcnprobe results document: it does not start with '{' (a CSV or "
                       "JUnit report? give the --json output of gcnprobe run)");
    // byte position -> line
    const std::size_t at = std::min<std::size_t>(e.byte, text.size());
    int line = 1;
    for (std::size_t k = 0; k + 1 < at; ++k)
      line += text[k] == '\n';
    // A run that stopped leaves the document cut at its end; an error before the end is
    // damage in the middle.
    const bool atEnd = gcn::trimSpace(text.substr(std::min(at, text.size()))).empty();
    if (!atEnd)
      throw gcn::Error(gcn::Place{source, line, 0},
                       "not valid JSON at byte " + std::to_string(at) +
                           ", with more text after it: the file is corrupt (not a run that "
                           "stopped, which only cuts the end)");
    if (!allowTruncated)
      throw gcn::Error(gcn::Place{source, line, 0},
                       "the document ends early (a run that did not finish? its summary is "
                       "missing)");
  }
  out = ResultsFile{};
  out.source = source;
  readTruncated(text, out);
  return out;
}

ResultsFile readResults(const std::string& path, bool allowTruncated) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw gcn::Error(gcn::Place{path, 0, 0}, "cannot open the results file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw gcn::Error(gcn::Place{path, 0, 0}, "cannot read the results file");
  return parseResults(text.str(), path, allowTruncated);
}

}  // namespace gcnprobe::results
