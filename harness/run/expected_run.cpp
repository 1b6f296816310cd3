#include "harness/run/expected_run.h"

namespace gcnprobe::run {

ExpectedRun::ExpectedRun(ExpectationOptions options, results::ResultSink report)
    : options_(std::move(options)), report_(std::move(report)) {}

void ExpectedRun::emit(const results::CaseResult& r) {
  reported_.add(r.verdict);
  if (report_) report_(r);
}

void ExpectedRun::onFirst(const results::CaseResult& r) {
  results::CaseResult judged = applyExpectations(options_.baseline, options_.flakes, r);
  if (options_.retries > 0 && isRegression(judged.verdict) && !held_.count(r.name)) {
    heldOrder_.push_back(r.name);
    held_[r.name].first = r;
    return;
  }
  emit(judged);
}

void ExpectedRun::flushHeld() {
  // Taken out first: when reporting throws, nothing is reported twice.
  const std::vector<std::string> order = std::move(heldOrder_);
  std::map<std::string, Held> held = std::move(held_);
  heldOrder_.clear();
  held_.clear();
  for (const std::string& name : order) {
    Held& h = held.at(name);
    results::CaseResult out;
    std::string attempts(verdictName(h.first.verdict));
    for (const auto& [v, why] : h.tries)
      attempts += ", " + std::string(verdictName(v));
    if (h.passed) {
      out = flakeOnRetry(std::move(h.first), attempts);
    } else {
      const std::string firstReason = h.first.reason;
      out = applyExpectations(options_.baseline, options_.flakes, std::move(h.first));
      if (!h.tries.empty()) out.notes.push_back("retried: attempts " + attempts);
      // A retry that failed differently says how.
      for (std::size_t k = 0; k < h.tries.size(); ++k)
        if (h.tries[k].second != firstReason && !h.tries[k].second.empty())
          out.notes.push_back("attempt " + std::to_string(k + 2) + ": " + h.tries[k].second);
    }
    emit(out);
  }
}

results::Summary ExpectedRun::run(std::span<const judge::Case> cases, const Runner& runner) {
  results::Summary first;
  try {
    first = runner(cases, [this](const results::CaseResult& r) { onFirst(r); });
    if (first.notRun == 0 && !heldOrder_.empty()) {
      std::map<std::string, std::size_t> index;
      for (std::size_t i = 0; i < cases.size(); ++i)
        index.emplace(cases[i].name, i);
      for (unsigned attempt = 0; attempt < options_.retries; ++attempt) {
        std::vector<judge::Case> again;
        for (const std::string& name : heldOrder_)
          if (!held_.at(name).passed) again.push_back(cases[index.at(name)]);
        if (again.empty()) break;
        const results::Summary s = runner(again, [this](const results::CaseResult& r) {
          const auto it = held_.find(r.name);
          if (it == held_.end() || it->second.passed) return;
          it->second.tries.emplace_back(r.verdict, r.reason);
          if (r.verdict == results::Verdict::Pass) it->second.passed = true;
        });
        if (s.notRun > 0) {
          retriesInterrupted_ = true;
          break;
        }
      }
    }
  } catch (...) {
    flushHeld();
    throw;
  }
  flushHeld();
  reported_.notRun = first.notRun;
  return reported_;
}

}  // namespace gcnprobe::run
