// Reading back what `gcnprobe run --json` wrote (schema in docs/run.md): for merging shards,
// comparing two runs, making a baseline from a run, and collecting the records a child
// process wrote before it died (the report is streamed one record per line, so a truncated
// document still holds every case that finished).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/record.h"

namespace gcnprobe::results {

// The header members that name what a report is about: the shards of one run agree on them,
// and two runs that differ in them differ in more than the cases.
inline constexpr std::array<const char*, 5> kRunIdentityMembers = {
    "driver", "driver_version", "device", "profile", "gcnprobe_version"};

struct ResultsFile {
  std::string source;     // the path, for messages
  nlohmann::json header;  // the members before "cases": version, driver, device, profile, ...
  std::vector<CaseResult> cases;
  // Each case's record as read (cases[k] is records[k] as a CaseResult): what `gcnprobe
  // merge` copies, member for member, members this version does not know included.
  std::vector<nlohmann::json> records;
  nlohmann::json extra = nlohmann::json::object();  // members after "cases" but the summary
  std::optional<std::string> summary;  // std::nullopt: the document ended before its summary
  bool complete() const { return summary.has_value(); }
  // Complete, and the run was not stopped early: not by a signal (summary "interrupted by
  // signal ...") nor by an error that closed the document ("incomplete: ...").
  bool finished() const;
};

// A run header's member as text: its string, the JSON text of any other value, and `absent`
// where the header has no such member or it is null. The one reader of header members for
// display and comparison (merge validates "shard" itself).
std::string headerText(const nlohmann::json& header, std::string_view key,
                       std::string_view absent = "");

// One case record back into a CaseResult. Throws gcn::Error naming `where` (file and record
// number) when a member is missing, has the wrong type, or the verdict is not a verdict name.
CaseResult caseFromRecord(const nlohmann::json& record, const std::string& where);

// The whole document. A document that is not valid JSON is a gcn::Error naming `source` and
// the line, unless `allowTruncated`: then the text is read as the report writes it (one header
// member, then one case record, per line) and every complete record before the cut is kept,
// with `summary` left empty.
ResultsFile parseResults(std::string_view text, const std::string& source, bool allowTruncated);
// Throws gcn::Error when the file cannot be read.
ResultsFile readResults(const std::string& path, bool allowTruncated = false);

}  // namespace gcnprobe::results
