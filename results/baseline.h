// Expected results for CI, in deqp-runner's shapes: a baseline file of known failures and a list
// of known flaky cases (the retries: harness/run/expected_run.h). They turn a run's verdicts
// into the ones the reports show (expected-fail, unexpected-pass, flake) before any report sees
// a case, so that a run exits 0 when everything matches the baseline and 1 only for news. Pure
// logic: no device here.
//
// Baseline file: one entry per line, `NAME_OR_GLOB,STATUS[,DURATION]` (a deqp-runner
// results.csv line is one), `# comments` on their own line or after an entry. STATUS, any
// case:
//   fail                 fail or route-miss (deqp-runner's Fail: the device answered
//                        differently from the reference, whether in the lanes or in the ISA)
//   route-miss, error, crash, timeout   exactly that verdict
//   expected-fail, ExpectedFail         any regression (a line of a run that had a baseline)
//   pass, skip, unsupported, flake, unexpected-pass, UnexpectedPass
//                        no failure expected (accepted so that a whole results.csv can serve)
// An entry's reason is its trailing comment, else the comment lines right above it (up to a
// blank line). An exact name wins over globs; among globs the first in the file wins.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "results/record.h"
#include "results/results_file.h"
#include "results/selection.h"

namespace gcnprobe::results {

struct BaselineEntry {
  std::string pattern;  // a case name or a glob
  std::string status;   // as written, for messages
  // The verdicts this entry expects; empty when it expects no failure (pass, skip, ...).
  std::vector<Verdict> expected;
  std::string reason;  // its comment, "" when none
  std::string file;
  int line = 0;
  bool covers(Verdict v) const;
  bool expectsFailure() const { return !expected.empty(); }
  std::string where() const { return file + ":" + std::to_string(line); }
};

// Where a baseline was recorded: `gcnprobe baseline --from` writes it as the comment line
// `# recorded: profile=P; device=D; driver=V` (a comment, so deqp-runner tools still read the
// file); a hand-written baseline has none.
struct RecordedOn {
  std::string profile, device, driver;
  std::string where;  // FILE:LINE
};

struct Baseline {
  std::vector<BaselineEntry> entries;  // file order
  std::optional<RecordedOn> recorded;
  // The entry for a case: the one naming it exactly, else the first glob matching it.
  const BaselineEntry* find(std::string_view name) const;
  bool empty() const { return entries.empty(); }
};

// The verdicts a STATUS word stands for (above); std::nullopt for an unknown word.
std::optional<std::vector<Verdict>> statusVerdicts(std::string_view status);

// Throw gcn::Error naming `source`:line and the reason: a line without a comma, an empty name
// or status, an unknown status, a third field that is no duration, more fields, a name given
// twice. readBaseline also throws gcn::Error when the file cannot be read.
Baseline parseBaseline(std::string_view text, const std::string& source);
Baseline readBaseline(const std::string& path);

// A list of case globs, one per line, `# comments` on their own line or after a glob: known
// flaky cases (`--flakes`), cases not to run (`--skips`).
struct GlobEntry {
  std::string pattern;
  std::string reason;
  std::string file;
  int line = 0;
};
struct GlobList {
  std::vector<GlobEntry> entries;
  const GlobEntry* find(std::string_view name) const;  // the first glob matching
};
// One line per entry of the baseline and the flakes list that matches none of `names` (every
// case of the profile, caseListOrder): "FILE:LINE: 'PATTERN' matches no case of this build's
// suites" (a misspelt name, or a case that no longer exists), in file order.
std::vector<std::string> unmatchedEntries(const Baseline& baseline, const GlobList& flakes,
                                          std::span<const std::string> names);

// `what` names the list in errors ("flakes list", "skips list"). Throws gcn::Error naming
// `source`:line for a line that is not one glob (blanks, commas) or looks like a regular
// expression (deqp-runner's lists hold regexes), and when the file cannot be read.
GlobList parseGlobList(std::string_view text, const std::string& source, std::string_view what);
GlobList readGlobList(const std::string& path, std::string_view what);

// One case's verdict under the baseline and the flakes list:
//   a regression the baseline expects             -> expected-fail
//   a regression the baseline expects differently -> unchanged, the expectation in the reason
//   a regression a flakes glob lists              -> flake (when the baseline did not expect it)
//   a pass where the baseline expects a failure   -> unexpected-pass (unless a flakes glob
//                                                    lists the case: then it stays pass)
//   anything else                                 -> unchanged
// Reasons keep the original verdict and reason for people ("fail: 3 lane(s) differ ...
// [expected by base.txt:4: known rounding]"); the result's `original` holds them as data.
CaseResult applyExpectations(const Baseline& baseline, const GlobList& flakes, CaseResult r);

// The verdict and reason a case had before applyExpectations (or a retry) changed it: its
// `original` where set, else its own verdict and reason. A record read from a document written
// before `original` existed has the original only in its reason text, which is read then;
// std::nullopt when such an expected-fail or flake reason does not start with a verdict name
// (a report written by something else).
std::optional<std::pair<Verdict, std::string>> originalVerdict(const CaseResult& r);

// A baseline that expects what a run reported (`gcnprobe baseline --from`): a header comment
// naming the run (device, driver, gcnprobe version, profile, start time, summary), then one
// `name,<verdict>  # reason` line per case that was a regression, expected-fail ones with the
// verdict they had before the baseline, in `listOrder` (case names as `gcnprobe list` prints
// them; names not in it come last, sorted).
std::string baselineFromResults(const ResultsFile& results, std::span<const std::string> listOrder);

// The `# recorded:` line's value for a run: "profile=P; device=D; driver=V" (';' in a value
// becomes ',').
std::string recordedLine(const std::string& profile, const std::string& device,
                         const std::string& driver);
// What differs between where `baseline` was recorded and this run, as "profile gfx9 here,
// portable in the baseline; ..."; std::nullopt when nothing differs or the baseline names no
// recording (a hand-written one).
std::optional<std::string> baselineMismatch(const Baseline& baseline, const std::string& profile,
                                            const std::string& device, const std::string& driver);

// A regression that passed on a retry, as a flake: its first verdict and reason kept as
// `original`, and in the reason with the verdict of every attempt ("fail: ... [flaky: attempts
// fail, pass]").
CaseResult flakeOnRetry(CaseResult first, std::string_view attempts);

// The exit status of a finished run: 1 when a regression was reported, or an unexpected pass
// when `failOnUnexpectedPass`; else 0.
int runExitCode(const Summary& reported, bool failOnUnexpectedPass);

}  // namespace gcnprobe::results
