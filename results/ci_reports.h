// Results in the shapes CI systems read: JUnit XML (GitLab and GitHub test reports) and
// deqp-runner's results.csv (one "name,status,duration" line per case). Both are written at
// the end of a run from every case's verdict; the JSON report is the streamed, complete one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "results/record.h"

namespace gcnprobe::results {

// What the CI reports need of a case (CaseResult without its lane details).
struct CaseOutcome {
  std::string name, suite, instruction, reason;
  Verdict verdict = Verdict::Error;
  double seconds = 0;
};
CaseOutcome outcomeOf(const CaseResult& r);

// deqp-runner's status words: pass -> Pass, fail, route-miss and error -> Fail, unsupported
// -> Skip, and Crash, Timeout, Flake, ExpectedFail, UnexpectedPass for the verdicts of the
// same names.
std::string_view csvStatus(Verdict v);

// Throw gcn::Error when the file cannot be opened, gcn::InfraError when it cannot be written.
// JUnit: one <testsuite> per gcnprobe suite, a <testcase classname="gcnprobe.<suite>"> per
// case; fail and route-miss are <failure type="fail|route-miss">, error, crash and timeout
// are <error type="...">, unsupported and expected-fail are <skipped message="reason">, flake
// and unexpected-pass pass with a <system-out> line saying so. `properties` go into each
// <testsuite>'s <properties> (device, driver, profile, version).
void writeJunit(const std::string& path, const std::vector<CaseOutcome>& cases,
                const std::vector<std::pair<std::string, std::string>>& properties);
// With `failuresOnly`, the lines whose status is neither Pass nor Skip (deqp-runner's
// failures.csv).
void writeCsv(const std::string& path, const std::vector<CaseOutcome>& cases,
              bool failuresOnly = false);

// XML text with &, <, >, " and ' escaped and bytes that XML 1.0 cannot hold (control
// characters, invalid UTF-8) replaced by U+FFFD.
std::string xmlEscape(std::string_view s);

}  // namespace gcnprobe::results
