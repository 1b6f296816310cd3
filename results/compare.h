// `gcnprobe compare OLD NEW`: what changed between two run reports (another driver version,
// another machine, another gcnprobe): regressions, fixes, new and removed cases, other verdict
// changes, and for each changed case whether the driver emitted different instructions (the
// ISA digest differs) or the same instructions now give a different result. Usage:
// docs/run.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/record.h"
#include "results/results_file.h"

namespace gcnprobe::results {

// What the ISA digests of a case in two runs say.
enum class IsaChange : uint8_t {
  Different,   // both digests known and different: the driver emitted other instructions
  Same,        // both known and equal: the same instructions, another result
  NotVisible,  // a digest missing on either side (lavapipe, or a case that built no pipeline)
};
// "different-instructions", "same-instructions", "no-isa".
std::string_view isaChangeName(IsaChange c);

struct CaseChange {
  std::string name;
  std::optional<Verdict> oldVerdict, newVerdict;  // std::nullopt: not in that report
  std::optional<std::string> oldDigest, newDigest;
  std::string oldReason, newReason;
  IsaChange isa = IsaChange::NotVisible;
};

struct Comparison {
  // Each list sorted by case name.
  std::vector<CaseChange> regressions;  // not isRegression in OLD, isRegression in NEW
  std::vector<CaseChange> fixes;        // isRegression in OLD, pass (or better) in NEW
  // isRegression in OLD, expected-fail or flake in NEW: the failure is still there, a baseline
  // or flakes list now accepts it (a baseline change, not a fix)
  std::vector<CaseChange> baselined;
  // "" when both runs hold the same part of the suites; else a note that one is a shard
  // ("OLD is shard 1/3, NEW the whole run: ..."), whose missing cases count as added/removed.
  std::string shardNote;
  std::vector<CaseChange> changed;     // any other verdict change (pass -> unsupported, ...)
  std::vector<CaseChange> isaChanged;  // the same verdict, different instructions
  std::vector<CaseChange> added;       // only in NEW
  std::vector<CaseChange> removed;     // only in OLD
  std::size_t unchanged = 0;           // in both, same verdict, no known ISA change
};

// Throws gcn::Error naming the file when a case is twice in one report.
Comparison compareResults(const ResultsFile& oldRun, const ResultsFile& newRun);

// The readable report: the two runs, the counts, then one group per non-empty list.
std::string comparisonText(const Comparison& c, const ResultsFile& oldRun,
                           const ResultsFile& newRun);
// The same as a JSON document (schema in docs/run.md).
nlohmann::json comparisonJson(const Comparison& c, const ResultsFile& oldRun,
                              const ResultsFile& newRun);

}  // namespace gcnprobe::results
