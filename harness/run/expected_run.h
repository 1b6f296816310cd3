// A run with expectations (results/baseline.h): every result judged against the baseline and
// the flakes list, and regressions retried, before any report sees them.
#pragma once

#include <functional>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "harness/judge/case.h"
#include "results/baseline.h"
#include "results/record.h"

namespace gcnprobe::run {

struct ExpectationOptions {
  results::Baseline baseline;
  results::GlobList flakes;
  unsigned retries = 0;  // reruns of a case that ends as a regression
  bool active() const {
    return !baseline.entries.empty() || !flakes.entries.empty() || retries > 0;
  }
};

// Runs cases with expectations: applyExpectations on every result; a result that is still a
// regression while retries are left is held back and rerun (up to `retries` more times, only
// the cases that did not pass yet); one that passes on a retry is a flake, the attempts in its
// reason. Every other case goes to `report` as soon as it exists; held-back cases go to it
// after their retries, and also when the run ends early (a signal, an exception: then with
// their first verdict), so results already computed are never lost.
class ExpectedRun {
 public:
  // `runner` runs some cases and gives each result to the sink, as run::runCases does.
  using Runner =
      std::function<results::Summary(std::span<const judge::Case>, const results::ResultSink&)>;
  ExpectedRun(ExpectationOptions options, results::ResultSink report);

  // The first attempt, the retries, then every held-back case reported. The Summary counts the
  // verdicts given to `report`; its notRun is the first attempt's.
  results::Summary run(std::span<const judge::Case> cases, const Runner& runner);
  // A retry ended because the runner was asked to stop (Summary::notRun of a retry): the
  // cases it held back were reported with their first verdict.
  bool retriesInterrupted() const { return retriesInterrupted_; }

 private:
  struct Held {
    results::CaseResult first;  // before applyExpectations
    std::vector<std::pair<results::Verdict, std::string>>
        tries;  // every retry's verdict and reason
    bool passed = false;
  };
  void onFirst(const results::CaseResult& r);
  void flushHeld();
  void emit(const results::CaseResult& r);

  ExpectationOptions options_;
  results::ResultSink report_;
  results::Summary reported_;
  std::vector<std::string> heldOrder_;
  std::map<std::string, Held> held_;
  bool retriesInterrupted_ = false;
};

}  // namespace gcnprobe::run
