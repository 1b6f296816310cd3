// Retries under expectations (harness/run/expected_run.h) without a device: the hold-back of
// retried cases, driven by a scripted runner.
#include "harness/run/expected_run.h"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "reference/error.h"
#include "tests/support/records.h"

namespace expected_run_test {

using gcnprobe::results::Baseline;
using gcnprobe::results::CaseResult;
using gcnprobe::results::Verdict;

CaseResult result(const std::string& name, Verdict v, const std::string& reason = "") {
  return gcnprobe::test_support::record(name, v, reason);
}

// A runner that plays a script: each call takes the next attempt's verdicts by case name (a
// case not named passes) and records which cases it was given.
struct ScriptedRunner {
  std::vector<std::map<std::string, Verdict>> attempts;
  std::vector<std::vector<std::string>> calls;
  int throwOnCall = -1;  // this call throws after its results
  int stopOnCall = -1;   // this call runs nothing: every case not run
  gcnprobe::results::Summary operator()(std::span<const gcnprobe::judge::Case> cases,
                                        const gcnprobe::results::ResultSink& sink) {
    const std::size_t call = calls.size();
    calls.emplace_back();
    gcnprobe::results::Summary s;
    if (static_cast<int>(call) == stopOnCall) {
      s.notRun = cases.size();
      return s;
    }
    for (const auto& c : cases) {
      calls.back().push_back(c.name);
      const auto& script = attempts.at(call);
      const auto it = script.find(c.name);
      const Verdict v = it == script.end() ? Verdict::Pass : it->second;
      s.add(v);
      sink(result(c.name, v, v == Verdict::Pass ? "" : "attempt " + std::to_string(call + 1)));
    }
    if (static_cast<int>(call) == throwOnCall) throw std::runtime_error("device gone");
    return s;
  }
};

std::vector<gcnprobe::judge::Case> cases(std::initializer_list<const char*> names) {
  std::vector<gcnprobe::judge::Case> out;
  for (const char* n : names) {
    out.emplace_back();
    out.back().name = n;
  }
  return out;
}

TEST(BaselineRetry, PassOnRetryIsFlakeAndOnlyFailuresRerun) {
  ScriptedRunner runner;
  runner.attempts = {{{"s.a", Verdict::Fail}, {"s.b", Verdict::Fail}},
                     {{"s.a", Verdict::Fail}, {"s.b", Verdict::Fail}},
                     {{"s.b", Verdict::Fail}},
                     {{"s.b", Verdict::Fail}}};
  gcnprobe::run::ExpectationOptions opts;
  opts.retries = 3;
  std::vector<CaseResult> reported;
  std::size_t reportedDuringFirst = 0;
  gcnprobe::run::ExpectedRun run(opts, [&](const CaseResult& r) { reported.push_back(r); });
  const auto all = cases({"s.a", "s.b", "s.c"});
  const gcnprobe::results::Summary s = run.run(all, [&](auto some, const auto& sink) {
    const auto out = runner(some, sink);
    if (runner.calls.size() == 1) reportedDuringFirst = reported.size();
    return out;
  });
  // s.c passed at once and was reported at once; the failures were held back.
  EXPECT_EQ(reportedDuringFirst, 1u);
  ASSERT_EQ(runner.calls.size(), 4u);
  EXPECT_EQ(runner.calls[1], (std::vector<std::string>{"s.a", "s.b"}));
  EXPECT_EQ(runner.calls[2], (std::vector<std::string>{"s.a", "s.b"}));
  EXPECT_EQ(runner.calls[3], (std::vector<std::string>{"s.b"}));  // s.a passed on attempt 3
  ASSERT_EQ(reported.size(), 3u);
  EXPECT_EQ(reported[0].name, "s.c");
  EXPECT_EQ(reported[1].name, "s.a");
  EXPECT_EQ(reported[1].verdict, Verdict::Flake);
  EXPECT_EQ(reported[1].reason, "fail: attempt 1 [flaky: attempts fail, fail, pass]");
  EXPECT_EQ(reported[2].name, "s.b");
  EXPECT_EQ(reported[2].verdict, Verdict::Fail);  // failed four times: a real failure
  EXPECT_EQ(reported[2].reason, "attempt 1");
  // Each retry failed with another reason: the notes say which.
  EXPECT_EQ(
      reported[2].notes,
      (std::vector<std::string>{"retried: attempts fail, fail, fail, fail", "attempt 2: attempt 2",
                                "attempt 3: attempt 3", "attempt 4: attempt 4"}));
  EXPECT_EQ(s.count(Verdict::Pass), 1u);
  EXPECT_EQ(s.count(Verdict::Flake), 1u);
  EXPECT_EQ(s.count(Verdict::Fail), 1u);
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(run.retriesInterrupted());
}

TEST(BaselineRetry, ExpectedFailuresAreNotRerun) {
  ScriptedRunner runner;
  runner.attempts = {{{"s.a", Verdict::Fail}}};
  gcnprobe::run::ExpectationOptions opts;
  opts.retries = 2;
  opts.baseline = gcnprobe::results::parseBaseline("s.a,fail\n", "b.txt");
  std::vector<CaseResult> reported;
  gcnprobe::run::ExpectedRun run(opts, [&](const CaseResult& r) { reported.push_back(r); });
  const auto all = cases({"s.a", "s.b"});
  const auto s = run.run(all, [&](auto some, const auto& sink) { return runner(some, sink); });
  EXPECT_EQ(runner.calls.size(), 1u);
  ASSERT_EQ(reported.size(), 2u);
  EXPECT_EQ(reported[0].verdict, Verdict::ExpectedFail);
  EXPECT_TRUE(s.ok());
}

TEST(BaselineRetry, InterruptedRetriesReportFirstVerdicts) {
  ScriptedRunner runner;
  runner.attempts = {{{"s.a", Verdict::Crash}}, {}};
  runner.stopOnCall = 1;
  gcnprobe::run::ExpectationOptions opts;
  opts.retries = 2;
  std::vector<CaseResult> reported;
  gcnprobe::run::ExpectedRun run(opts, [&](const CaseResult& r) { reported.push_back(r); });
  const auto all = cases({"s.a", "s.b"});
  const auto s = run.run(all, [&](auto some, const auto& sink) { return runner(some, sink); });
  EXPECT_TRUE(run.retriesInterrupted());
  EXPECT_EQ(s.notRun, 0u);  // every case has a verdict
  ASSERT_EQ(reported.size(), 2u);
  EXPECT_EQ(reported[1].name, "s.a");
  EXPECT_EQ(reported[1].verdict, Verdict::Crash);
}

TEST(BaselineRetry, AnExceptionStillReportsHeldCases) {
  for (int throwOn : {0, 1}) {
    ScriptedRunner runner;
    runner.attempts = {{{"s.a", Verdict::Fail}}, {}};
    runner.throwOnCall = throwOn;
    gcnprobe::run::ExpectationOptions opts;
    opts.retries = 1;
    std::vector<CaseResult> reported;
    gcnprobe::run::ExpectedRun run(opts, [&](const CaseResult& r) { reported.push_back(r); });
    const auto all = cases({"s.a", "s.b"});
    EXPECT_THROW(run.run(all, [&](auto some, const auto& sink) { return runner(some, sink); }),
                 std::runtime_error);
    ASSERT_EQ(reported.size(), 2u) << "throw on call " << throwOn;
    EXPECT_EQ(reported[1].name, "s.a");
    // Thrown in the first attempt: no retry ran. Thrown after the retry's result: it counts.
    EXPECT_EQ(reported[1].verdict, throwOn == 0 ? Verdict::Fail : Verdict::Flake);
  }
}

}  // namespace expected_run_test
