// `gcnprobe report`: one self-contained HTML page (report/report.{html,css,js}, embedded at
// build time) over one or more JSON reports of `gcnprobe run --json`. One report gives the
// overview (per suite a matrix of formats by instruction, one cell per case coloured by
// verdict); several give the atlas (the same matrix with one column group per report, the
// cases that differ marked and listed with the kind of difference). Usage: docs/report.md.
#pragma once

#include <functional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/results_file.h"

namespace gcnprobe::results {

// The kinds of difference between the reports of an atlas, as the page names them.
// "verdict": the verdicts differ; "missing": a report lacks the case; "value": the same
// failing verdict with other lane values (actual bits); "instruction": the ISA digests
// (isa_digest, where both reports have one) differ, so the driver emitted other code.
inline constexpr const char* kDiffVerdict = "verdict";
inline constexpr const char* kDiffMissing = "missing";
inline constexpr const char* kDiffValue = "value";
inline constexpr const char* kDiffInstruction = "instruction";

// Where a case sits in its suite's matrix: the row is the format (its VkFormat name without
// the VK_FORMAT_ prefix, lower case), or "(binding)" for an untyped case; the column is the
// case name without the suite and the format parts (so every case has its own cell).
struct MatrixCell {
  std::string row, column;
};
MatrixCell matrixCell(const std::string& name, const std::string& suite, const std::string& format,
                      const std::string& binding);

// The data the page renders (its schema is at the top of report/report.js): the reports'
// headers and summaries, the suites with their rows and columns, and per case its cell, its
// verdict in each report, the kinds of difference (several reports), the V# this build's case
// definition binds (decoded for the report's profile; absent for a case this build does not
// define) and each report's record. `labels`: one per report (empty: made from the header:
// driver version and profile). Throws gcn::Error (from compareResults) when a report holds a
// case twice.
// Cases, suites and rows follow `listOrder` (case names as `gcnprobe list` prints them; names
// it lacks follow in report order), columns instruction order (opcode, then the rest of the
// column's text with numbers compared as numbers): never the order in which cases finished.
nlohmann::json reportData(const std::vector<ResultsFile>& runs,
                          const std::vector<std::string>& labels, const std::string& generator,
                          std::span<const std::string> listOrder = {});

// What the page needs of a set of reports, whatever wrote them (`run --json` records, or the
// cases of `isa --json` as results/isa_report.h makes them): reportData and isaReportData fill
// it, reportPageData orders the cases and lays out the matrices the same way for both.
struct ReportPageInput {
  nlohmann::json runs = nlohmann::json::array();  // per report: {label, source, header, summary,
                                                  // finished, cases}
  // Per report, its records: objects with "name", "suite", "format", "binding" and "verdict"
  // (one of `verdicts`), the rest shown on the page as it is.
  std::vector<std::vector<const nlohmann::json*>> records;
  std::vector<std::string> verdicts;  // the names a case's v[k] indexes, in legend order
  std::string kind = "run";           // "run" or "isa": how the page shows a record
  // Marks each case's kinds of difference (several reports), given each case name's index in
  // page order.
  std::function<void(const std::unordered_map<std::string, std::size_t>&,
                     std::vector<std::set<std::string>>&)>
      markDifferences;
};
nlohmann::json reportPageData(ReportPageInput in, const std::string& generator,
                              std::span<const std::string> listOrder);

// The whole page: report/report.html with the CSS, the script and `data` put in. The data is
// JSON in a <script type="application/json"> element with every '<' written \u003c, so no
// text from a report can end the element.
std::string reportHtml(const nlohmann::json& data);

}  // namespace gcnprobe::results
