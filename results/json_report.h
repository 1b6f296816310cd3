// Reports of a run: readable text (failing cases with lane details) and JSON (one record
// per case, written incrementally: each record is flushed as it arrives and the document
// is closed by close() or the destructor, so an error later in the run loses nothing).
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "results/record.h"

namespace gcnprobe::results {

// The JSON record of one case (schema in docs/run.md).
nlohmann::json caseRecord(const CaseResult& r, const std::string& profile,
                          const std::string& device);

// Text for one case: one line; for failures also one line per differing component (every
// component of a failing lane when verbose, the mismatching ones otherwise), at most
// `maxDiffLines` of them (then a line saying how many more; the JSON report has them all).
// JSON text of a value as reports write it: bytes of user or driver text that are not UTF-8
// become U+FFFD instead of an exception.
std::string reportJsonText(const nlohmann::json& j);

std::string caseText(const CaseResult& r, bool verbose, std::size_t maxDiffLines = SIZE_MAX);

class JsonReport {
 public:
  // Throws gcn::Error when the file cannot be opened, gcn::InfraError when it cannot be written.
  // `path` "-" is standard output. `header`'s members come first (tool version, driver,
  // API version, chip, start time: docs/run.md "JSON").
  JsonReport(const std::string& path, const std::string& profile, const std::string& device,
             const std::string& expectation,
             const nlohmann::json& header = nlohmann::json::object());
  ~JsonReport();
  JsonReport(const JsonReport&) = delete;
  JsonReport& operator=(const JsonReport&) = delete;
  void add(const CaseResult& r);
  // Writes the members of `extra` (an object, e.g. "texel_gaps"), then the summary, and
  // closes the document (idempotent).
  // Throws gcn::InfraError when the file cannot be written (add() too).
  void close(const std::string& summaryLine,
             const nlohmann::json& extra = nlohmann::json::object());

 private:
  void check();  // throws gcn::InfraError when a write to the file failed
  std::string path_;
  std::ofstream out_;
  std::string profile_, device_;
  bool first_ = true;
  bool closed_ = false;
};

}  // namespace gcnprobe::results
