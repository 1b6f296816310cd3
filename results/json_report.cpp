#include "results/json_report.h"

#include <cerrno>
#include <cstring>

#include "reference/error.h"

namespace gcnprobe::results {
namespace {
constexpr const char* kComp = "xyzw?";

// `"key": value,` per member of an object, one per line.
void writeMembers(std::ostream& out, const nlohmann::json& members) {
  for (const auto& [key, value] : members.items())
    out << reportJsonText(key) << ": " << reportJsonText(value) << ",\n";
}
}  // namespace

nlohmann::json caseRecord(const CaseResult& r, const std::string& profile,
                          const std::string& device) {
  nlohmann::json j;
  j["name"] = r.name;
  j["suite"] = r.suite;
  j["instruction"] = r.instruction;
  j["format"] = r.format;
  j["binding"] = r.binding;
  j["verdict"] = std::string(verdictName(r.verdict));
  j["reason"] = r.reason;
  j["profile"] = profile;
  j["device"] = device;
  j["tolerance"] = r.tolerance;
  j["vsharp"] = r.vsharpWords.empty()
                    ? nlohmann::json(nullptr)
                    : nlohmann::json{{"text", r.vsharp}, {"words", r.vsharpWords}};
  j["expectation"] = r.expectation;
  j["changed_guard_bytes"] = r.changedGuardBytes;
  j["notes"] = r.notes;
  j["duration_s"] = r.seconds;
  j["isa_digest"] = r.isaDigest ? nlohmann::json(*r.isaDigest) : nlohmann::json(nullptr);
  j["isa_lines"] = r.isaLines;
  j["proof"] = r.proof;
  if (r.original)
    j["original"] = {{"verdict", std::string(verdictName(r.original->verdict))},
                     {"reason", r.original->reason}};
  nlohmann::json lanes = nlohmann::json::array();
  for (const ComponentDiff& d : r.diffs) {
    lanes.push_back({{"lane", d.lane},
                     {"element", d.element},
                     {"byte_offset", d.byteOffset},
                     {"component", std::string(1, kComp[d.component < 4 ? d.component : 4])},
                     {"kind", d.memoryField ? "memory" : "register"},
                     {"memory_bits", d.memoryBits},
                     {"expected_bits", d.expectedBits},
                     {"expected_value", d.expectedValue},
                     {"actual_bits", d.actualBits},
                     {"actual_value", d.actualValue},
                     {"verdict", d.match ? "match" : "mismatch"},
                     {"classification", d.classification}});
  }
  j["lanes"] = lanes;
  return j;
}

std::string caseText(const CaseResult& r, bool verbose, std::size_t maxDiffLines) {
  std::string s = std::string(verdictName(r.verdict)) + "  " + r.name +
                  (r.instruction.empty() ? "" : "  " + r.instruction);
  if (!r.reason.empty()) s += "\n    " + r.reason;
  if (r.verdict == Verdict::Fail) {
    s += "\n    tolerance " + r.tolerance + "; expected from " + r.expectation;
    std::size_t shown = 0, more = 0;
    for (const ComponentDiff& d : r.diffs) {
      if (d.match && !verbose) continue;
      if (shown == maxDiffLines) {
        ++more;
        continue;
      }
      ++shown;
      s += "\n    " + std::string(d.memoryField ? "mem " : "reg ") + "lane " +
           std::to_string(d.lane) + " elem " + std::to_string(d.element) + " off " +
           std::to_string(d.byteOffset) + " " + kComp[d.component < 4 ? d.component : 4] +
           ": mem " + (d.memoryBits.empty() ? "-" : d.memoryBits) + " expected " + d.expectedBits +
           " (" + d.expectedValue + ") actual " + d.actualBits + " (" + d.actualValue + ") " +
           (d.match ? "ok" : "MISMATCH " + d.classification);
    }
    if (more > 0)
      s.append("\n    ... ")
          .append(std::to_string(more))
          .append(" more component line(s) (--verbose, or the JSON report, has them all)");
  }
  return s;
}

JsonReport::JsonReport(const std::string& path, const std::string& profile,
                       const std::string& device, const std::string& expectation,
                       const nlohmann::json& header)
    : path_(path), out_(path == "-" ? "/dev/stdout" : path), profile_(profile), device_(device) {
  if (!out_) throw gcn::cannotWrite(path, "JSON report");
  out_ << "{\n";
  writeMembers(out_, header);
  out_ << "\"profile\": " << reportJsonText(profile) << ",\n\"device\": " << reportJsonText(device)
       << ",\n\"expectation\": " << reportJsonText(expectation) << ",\n\"cases\": [";
  out_.flush();
  check();
}

JsonReport::~JsonReport() {
  // Reached on the normal path only after close(), which reported any failure; otherwise
  // another error is already on its way out and is the one to report.
  try {
    close("incomplete: the run stopped early");
  } catch (const gcn::InfraError&) {
  }
}

void JsonReport::check() {
  if (!out_)
    throw gcn::InfraError(path_ + ": cannot write the JSON report: " +
                          (errno != 0 ? std::string(std::strerror(errno)) : "write failed"));
}

void JsonReport::add(const CaseResult& r) {
  if (closed_) return;
  out_ << (first_ ? "\n" : ",\n") << reportJsonText(caseRecord(r, profile_, device_));
  first_ = false;
  out_.flush();
  check();
}

void JsonReport::close(const std::string& summaryLine, const nlohmann::json& extra) {
  if (closed_) return;
  closed_ = true;
  out_ << "\n],\n";
  writeMembers(out_, extra);
  out_ << "\"summary\": " << reportJsonText(summaryLine) << "\n}\n";
  out_.close();
  check();
}

std::string reportJsonText(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace gcnprobe::results
