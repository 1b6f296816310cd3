// Baselines and known flakes (results/baseline.h) without a device: the file formats and their
// errors, glob matching and every verdict transition. Retries:
// tests/harness/run/expected_run_test.cpp.
#include "results/baseline.h"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "reference/error.h"
#include "results/json_report.h"
#include "results/results_file.h"
#include "tests/support/records.h"

namespace baseline_test {

using gcnprobe::results::Baseline;
using gcnprobe::results::CaseResult;
using gcnprobe::results::GlobList;
using gcnprobe::results::Verdict;

// The message of the gcn::Error that parsing `text` throws ("" when it does not throw).
std::string baselineError(const std::string& text) {
  try {
    gcnprobe::results::parseBaseline(text, "base.txt");
  } catch (const gcn::Error& e) {
    return e.what();
  }
  return "";
}

CaseResult result(const std::string& name, Verdict v, const std::string& reason = "") {
  return gcnprobe::test_support::record(name, v, reason);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(BaselineParse, EntriesStatusesAndComments) {
  const Baseline b = gcnprobe::results::parseBaseline(
      "# lavapipe 22.3\n"
      "\n"
      "# rounds 1/255 differently\n"
      "texel.uniform.r8*,Fail\n"
      "texel.storage.r8*,fail\r\n"
      "storage.load_dword.offset0 , CRASH   # loses the device\n"
      "# another block\n"
      "atomic.add,route-miss\n"
      "\n"
      "vertex.x,Timeout,1.250000\n",
      "base.txt");
  ASSERT_EQ(b.entries.size(), 5u);
  EXPECT_EQ(b.entries[0].pattern, "texel.uniform.r8*");
  EXPECT_EQ(b.entries[0].line, 4);
  EXPECT_EQ(b.entries[0].reason, "rounds 1/255 differently");
  EXPECT_EQ(b.entries[1].reason, "rounds 1/255 differently");  // the block covers both
  EXPECT_EQ(b.entries[1].status, "fail");                      // '\r' trimmed
  EXPECT_EQ(b.entries[2].pattern, "storage.load_dword.offset0");
  EXPECT_EQ(b.entries[2].reason, "loses the device");
  EXPECT_EQ(b.entries[2].expected, std::vector<Verdict>{Verdict::Crash});
  EXPECT_EQ(b.entries[3].reason, "another block");
  EXPECT_EQ(b.entries[4].reason, "");  // after a blank line: no block
  EXPECT_EQ(b.entries[4].expected, std::vector<Verdict>{Verdict::Timeout});
  EXPECT_EQ(b.entries[4].where(), "base.txt:10");
  // deqp-runner's Fail: the lanes or the ISA differ; error is named on its own.
  EXPECT_TRUE(b.entries[0].covers(Verdict::Fail));
  EXPECT_TRUE(b.entries[0].covers(Verdict::RouteMiss));
  EXPECT_FALSE(b.entries[0].covers(Verdict::Error));
  EXPECT_FALSE(b.entries[3].covers(Verdict::Fail));
}

TEST(BaselineParse, StatusWords) {
  using gcnprobe::results::statusVerdicts;
  EXPECT_EQ(statusVerdicts("ERROR"), std::vector<Verdict>{Verdict::Error});
  EXPECT_EQ(statusVerdicts("ExpectedFail")->size(), 5u);
  EXPECT_TRUE(statusVerdicts("Skip")->empty());
  EXPECT_TRUE(statusVerdicts("Pass")->empty());
  EXPECT_TRUE(statusVerdicts("UnexpectedPass")->empty());
  EXPECT_FALSE(statusVerdicts("Warn"));
  EXPECT_FALSE(statusVerdicts("failed"));
  EXPECT_FALSE(statusVerdicts(""));
}

TEST(BaselineParse, ErrorsNameFileLineAndReason) {
  const std::string noComma = baselineError("# ok\na.b,fail\nstorage.x fail\n");
  EXPECT_TRUE(contains(noComma, "base.txt:3:")) << noComma;
  EXPECT_TRUE(contains(noComma, "no comma")) << noComma;
  const std::string emptyName = baselineError(" ,fail\n");
  EXPECT_TRUE(contains(emptyName, "base.txt:1:")) << emptyName;
  EXPECT_TRUE(contains(emptyName, "empty case name")) << emptyName;
  const std::string emptyStatus = baselineError("\n\na.b,  # why\n");
  EXPECT_TRUE(contains(emptyStatus, "base.txt:3:")) << emptyStatus;
  EXPECT_TRUE(contains(emptyStatus, "empty status")) << emptyStatus;
  const std::string unknown = baselineError("a.b,fail\na.c,Warn\n");
  EXPECT_TRUE(contains(unknown, "base.txt:2:")) << unknown;
  EXPECT_TRUE(contains(unknown, "unknown status 'Warn'")) << unknown;
  const std::string third = baselineError("a.b,fail,slow\n");
  EXPECT_TRUE(contains(third, "base.txt:1:")) << third;
  EXPECT_TRUE(contains(third, "'slow' is no duration")) << third;
  EXPECT_TRUE(contains(baselineError("a.b,fail,1,2\n"), "too many fields"));
  const std::string twice = baselineError("a.*,fail\na.b,crash\na.*,timeout\n");
  EXPECT_TRUE(contains(twice, "base.txt:3:")) << twice;
  EXPECT_TRUE(contains(twice, "already on line 1")) << twice;
  EXPECT_EQ(baselineError("# only comments\n\n"), "");
  try {
    gcnprobe::results::readBaseline("/nonexistent/base.txt");
    FAIL() << "a missing file was read";
  } catch (const gcn::Error& e) {
    EXPECT_TRUE(contains(e.what(), "/nonexistent/base.txt")) << e.what();
  }
}

TEST(BaselineParse, Flakes) {
  const GlobList f = gcnprobe::results::parseGlobList(
      "# flaky on lavapipe\nstorage.load_*   # sometimes\n\natomic.add\n", "flakes.txt",
      "flakes list");
  ASSERT_EQ(f.entries.size(), 2u);
  EXPECT_EQ(f.entries[0].pattern, "storage.load_*");
  EXPECT_EQ(f.entries[0].reason, "sometimes");
  EXPECT_EQ(f.entries[1].line, 4);
  EXPECT_NE(f.find("storage.load_dword.offset0"), nullptr);
  EXPECT_EQ(f.find("storage.store_dword.offset0"), nullptr);
  try {
    gcnprobe::results::parseGlobList("a.b\nstorage.x,fail\n", "flakes.txt", "flakes list");
    FAIL() << "a baseline line was taken as a glob";
  } catch (const gcn::Error& e) {
    EXPECT_TRUE(contains(e.what(), "flakes.txt:2:")) << e.what();
  }
}

// Files written by other tools: a UTF-8 byte order mark is not part of the first entry, and a
// deqp-runner regex is refused with what to write instead.
TEST(BaselineParse, ByteOrderMarkAndRegexes) {
  const Baseline b = gcnprobe::results::parseBaseline(
      "\xef\xbb\xbf"
      "storage.load_dword.offset0,fail\n",
      "b.txt");
  ASSERT_EQ(b.entries.size(), 1u);
  EXPECT_EQ(b.entries[0].pattern, "storage.load_dword.offset0");
  EXPECT_NE(b.find("storage.load_dword.offset0"), nullptr);
  const GlobList f = gcnprobe::results::parseGlobList(
      "\xef\xbb\xbf"
      "atomic.add\n",
      "flakes.txt", "flakes list");
  ASSERT_EQ(f.entries.size(), 1u);
  EXPECT_EQ(f.entries[0].pattern, "atomic.add");
  for (const char* regex : {"texel\\..*", "^storage.load_dword$", "atomic.(add|sub)",
                            "storage.load_dword.offset[0-9]+"}) {
    try {
      gcnprobe::results::parseGlobList(std::string("atomic.add\n") + regex + "\n", "flakes.txt",
                                       "flakes list");
      ADD_FAILURE() << regex << " was taken as a glob";
    } catch (const gcn::Error& e) {
      EXPECT_TRUE(contains(e.what(), "flakes.txt:2:")) << e.what();
      EXPECT_TRUE(contains(e.what(), "looks like a regular expression")) << e.what();
    }
  }
}

// An entry that matches no case of the suites is named, with its file and line.
TEST(BaselineParse, EntriesMatchingNoCaseAreNamed) {
  const Baseline b = gcnprobe::results::parseBaseline(
      "storage.load_dword.offset0,fail\nstorage.lod_dword.*,fail  # misspelt\n", "b.txt");
  const GlobList f =
      gcnprobe::results::parseGlobList("atomic.add*\natomic.ad\n", "flakes.txt", "flakes list");
  const std::vector<std::string> names = {"storage.load_dword.offset0", "atomic.add.x"};
  EXPECT_EQ(gcnprobe::results::unmatchedEntries(b, f, names),
            (std::vector<std::string>{
                "b.txt:2: 'storage.lod_dword.*' matches no case of this build's suites",
                "flakes.txt:2: 'atomic.ad' matches no case of this build's suites"}));
}

TEST(BaselineGlob, MatchesWholeNames) {
  using gcnprobe::results::globMatches;
  EXPECT_TRUE(globMatches("storage.*", "storage.load_dword.offset0"));
  EXPECT_TRUE(globMatches("*offset0", "storage.load_dword.offset0"));
  EXPECT_TRUE(globMatches("storage.load_dword.offset?", "storage.load_dword.offset4"));
  EXPECT_FALSE(globMatches("storage.load_dword.offset?", "storage.load_dword.offset12"));
  EXPECT_TRUE(globMatches("storage.load_[bs]*", "storage.load_sbyte.offset0"));
  EXPECT_FALSE(globMatches("storage.load_[bs]*", "storage.load_dword.offset0"));
  EXPECT_FALSE(globMatches("storage", "storage.load_dword"));  // no prefix match
  EXPECT_FALSE(globMatches("texel.*", "storage.load_dword"));
  EXPECT_TRUE(globMatches("a.b", "a.b"));
}

TEST(BaselineGlob, ExactNameWinsThenFirstGlob) {
  const Baseline b = gcnprobe::results::parseBaseline(
      "storage.*,fail\nstorage.load_*,crash\nstorage.load_dword.offset0,timeout\n", "b.txt");
  ASSERT_NE(b.find("storage.load_dword.offset0"), nullptr);
  EXPECT_EQ(b.find("storage.load_dword.offset0")->line, 3);
  EXPECT_EQ(b.find("storage.load_dword.offset4")->line, 1);
  EXPECT_EQ(b.find("texel.x"), nullptr);
}

TEST(BaselineApply, EveryTransition) {
  const Baseline b = gcnprobe::results::parseBaseline(
      "s.fail,fail  # known rounding\n"
      "s.miss,Fail\n"
      "s.error,Fail\n"
      "s.crash,crash\n"
      "s.crashwrong,fail\n"
      "s.timeout,Timeout\n"
      "s.any,ExpectedFail\n"
      "s.skip,Skip\n"
      "s.fixed,fail # was broken\n"
      "s.unsup,fail\n",
      "b.txt");
  const GlobList none;
  const auto apply = [&](const CaseResult& r) {
    return gcnprobe::results::applyExpectations(b, none, r);
  };
  const CaseResult ef = apply(result("s.fail", Verdict::Fail, "3 lane(s) differ"));
  EXPECT_EQ(ef.verdict, Verdict::ExpectedFail);
  EXPECT_EQ(ef.reason, "fail: 3 lane(s) differ [expected by b.txt:1: known rounding]");
  EXPECT_EQ(apply(result("s.miss", Verdict::RouteMiss, "v_mov")).verdict, Verdict::ExpectedFail);
  // Fail does not hide an error: gcnprobe could not judge the case.
  const CaseResult err = apply(result("s.error", Verdict::Error, "batch failed"));
  EXPECT_EQ(err.verdict, Verdict::Error);
  EXPECT_EQ(err.reason, "batch failed [the baseline (b.txt:3) expects Fail]");
  EXPECT_EQ(apply(result("s.crash", Verdict::Crash, "SIGSEGV")).verdict, Verdict::ExpectedFail);
  EXPECT_EQ(apply(result("s.crashwrong", Verdict::Crash, "SIGSEGV")).verdict, Verdict::Crash);
  EXPECT_EQ(apply(result("s.timeout", Verdict::Timeout)).verdict, Verdict::ExpectedFail);
  EXPECT_EQ(apply(result("s.any", Verdict::Timeout)).verdict, Verdict::ExpectedFail);
  EXPECT_EQ(apply(result("s.skip", Verdict::Fail)).verdict, Verdict::Fail);
  EXPECT_EQ(apply(result("s.skip", Verdict::Pass)).verdict, Verdict::Pass);
  const CaseResult up = apply(result("s.fixed", Verdict::Pass));
  EXPECT_EQ(up.verdict, Verdict::UnexpectedPass);
  EXPECT_EQ(up.reason, "the baseline expects fail (b.txt:9: was broken)");
  EXPECT_EQ(apply(result("s.unsup", Verdict::Unsupported, "no format")).verdict,
            Verdict::Unsupported);
  const CaseResult news = apply(result("s.new", Verdict::Fail, "1 lane(s) differ"));
  EXPECT_EQ(news.verdict, Verdict::Fail);
  EXPECT_EQ(news.reason, "1 lane(s) differ");
  EXPECT_EQ(apply(result("s.new", Verdict::Pass)).verdict, Verdict::Pass);
}

TEST(BaselineApply, KnownFlakes) {
  const Baseline b = gcnprobe::results::parseBaseline("s.a,crash\ns.b,fail\n", "b.txt");
  const GlobList f = gcnprobe::results::parseGlobList("s.*  # racy\n", "flakes.txt", "flakes list");
  const auto apply = [&](const CaseResult& r) {
    return gcnprobe::results::applyExpectations(b, f, r);
  };
  const CaseResult flake = apply(result("s.c", Verdict::Fail, "2 lane(s) differ"));
  EXPECT_EQ(flake.verdict, Verdict::Flake);
  EXPECT_EQ(flake.reason, "fail: 2 lane(s) differ [known flake flakes.txt:1: racy]");
  EXPECT_EQ(apply(result("s.a", Verdict::Crash)).verdict, Verdict::ExpectedFail);  // baseline first
  EXPECT_EQ(apply(result("s.a", Verdict::Fail)).verdict, Verdict::Flake);
  // A flaky pass is no news.
  const CaseResult pass = apply(result("s.b", Verdict::Pass));
  EXPECT_EQ(pass.verdict, Verdict::Pass);
  ASSERT_EQ(pass.notes.size(), 1u);
  EXPECT_TRUE(contains(pass.notes[0], "known flake")) << pass.notes[0];
}

TEST(BaselineApply, OriginalVerdictReadsReasonsBack) {
  const Baseline b = gcnprobe::results::parseBaseline("s.a,fail # why\n", "b.txt");
  const GlobList f = gcnprobe::results::parseGlobList("s.f\n", "fl.txt", "flakes list");
  const auto ef = gcnprobe::results::originalVerdict(gcnprobe::results::applyExpectations(
      b, f, result("s.a", Verdict::RouteMiss, "the pipeline has v_mov [1-ulp]")));
  ASSERT_TRUE(ef);
  EXPECT_EQ(ef->first, Verdict::RouteMiss);
  EXPECT_EQ(ef->second, "the pipeline has v_mov [1-ulp]");
  const auto fl = gcnprobe::results::originalVerdict(
      gcnprobe::results::applyExpectations(b, f, result("s.f", Verdict::Error, "x: y")));
  ASSERT_TRUE(fl);
  EXPECT_EQ(fl->first, Verdict::Error);
  EXPECT_EQ(fl->second, "x: y");
  EXPECT_FALSE(gcnprobe::results::originalVerdict(
      result("s.x", Verdict::ExpectedFail, "written by something else")));
  EXPECT_EQ(gcnprobe::results::originalVerdict(result("s.x", Verdict::Pass))->first, Verdict::Pass);
}

// What a case had before the expectations changed it is kept as data, not only as reason text:
// each rule of applyExpectations and a retry set `original`, and a case nothing changed has
// none.
TEST(BaselineApply, TheOriginalIsRecordedAsData) {
  const Baseline b =
      gcnprobe::results::parseBaseline("s.a,fail # why\ns.c,crash\ns.p,fail\n", "b.txt");
  const GlobList f = gcnprobe::results::parseGlobList("s.f\n", "fl.txt", "flakes list");
  const auto original = [](const CaseResult& r) {
    return r.original ? std::string(gcnprobe::results::verdictName(r.original->verdict)) + "|" +
                            r.original->reason
                      : std::string("none");
  };
  const CaseResult ef = gcnprobe::results::applyExpectations(
      b, f, result("s.a", Verdict::Fail, "3 lanes [expected by x]"));
  EXPECT_EQ(ef.verdict, Verdict::ExpectedFail);
  EXPECT_EQ(original(ef), "fail|3 lanes [expected by x]");  // a mark inside the reason stays
  const CaseResult other =
      gcnprobe::results::applyExpectations(b, f, result("s.c", Verdict::Fail, "2 lanes"));
  EXPECT_EQ(other.verdict, Verdict::Fail);  // expected as crash: still a regression
  EXPECT_EQ(original(other), "fail|2 lanes");
  const CaseResult flake =
      gcnprobe::results::applyExpectations(b, f, result("s.f", Verdict::Timeout, "slow"));
  EXPECT_EQ(flake.verdict, Verdict::Flake);
  EXPECT_EQ(original(flake), "timeout|slow");
  const CaseResult fixed = gcnprobe::results::applyExpectations(b, f, result("s.p", Verdict::Pass));
  EXPECT_EQ(fixed.verdict, Verdict::UnexpectedPass);
  EXPECT_EQ(original(fixed), "pass|");
  EXPECT_EQ(original(gcnprobe::results::applyExpectations(b, f, result("s.n", Verdict::Fail, "x"))),
            "none");
  const CaseResult retried =
      gcnprobe::results::flakeOnRetry(result("s.r", Verdict::Crash, "SIGSEGV"), "crash, pass");
  EXPECT_EQ(retried.verdict, Verdict::Flake);
  EXPECT_EQ(original(retried), "crash|SIGSEGV");
  // The recorded original wins over whatever the reason text says.
  CaseResult typed = result("s.t", Verdict::ExpectedFail, "timeout: not what happened");
  typed.original = CaseResult::Original{Verdict::Crash, "SIGBUS"};
  const auto o = gcnprobe::results::originalVerdict(typed);
  ASSERT_TRUE(o);
  EXPECT_EQ(o->first, Verdict::Crash);
  EXPECT_EQ(o->second, "SIGBUS");
}

// `original` goes into the case's JSON record and comes back; a record without it has none,
// and one whose original verdict is no verdict is an error naming the case.
TEST(BaselineApply, TheOriginalSurvivesTheRecord) {
  CaseResult r = result("s.a", Verdict::ExpectedFail, "fail: 3 lanes [expected by b.txt:1]");
  r.original = CaseResult::Original{Verdict::Fail, "3 lanes"};
  nlohmann::json j = gcnprobe::results::caseRecord(r, "portable", "dev");
  EXPECT_EQ(j["original"], (nlohmann::json{{"verdict", "fail"}, {"reason", "3 lanes"}}));
  const CaseResult back = gcnprobe::results::caseFromRecord(j, "r.json case 1");
  ASSERT_TRUE(back.original);
  EXPECT_EQ(back.original->verdict, Verdict::Fail);
  EXPECT_EQ(back.original->reason, "3 lanes");
  const nlohmann::json plain =
      gcnprobe::results::caseRecord(result("s.b", Verdict::Fail, "x"), "portable", "dev");
  EXPECT_FALSE(plain.contains("original"));
  EXPECT_FALSE(gcnprobe::results::caseFromRecord(plain, "r.json case 2").original);
  j["original"]["verdict"] = "mostly-fine";
  try {
    gcnprobe::results::caseFromRecord(j, "r.json case 1");
    ADD_FAILURE() << "no error";
  } catch (const gcn::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "r.json case 1 (s.a): original verdict 'mostly-fine' is not a verdict");
  }
}

TEST(BaselineApply, ExitCodes) {
  gcnprobe::results::Summary s;
  s.add(Verdict::Pass);
  s.add(Verdict::ExpectedFail);
  s.add(Verdict::Flake);
  EXPECT_EQ(gcnprobe::results::runExitCode(s, true), 0);
  s.add(Verdict::UnexpectedPass);
  EXPECT_EQ(gcnprobe::results::runExitCode(s, false), 0);
  EXPECT_EQ(gcnprobe::results::runExitCode(s, true), 1);
  gcnprobe::results::Summary t;
  t.add(Verdict::Timeout);
  EXPECT_EQ(gcnprobe::results::runExitCode(t, false), 1);
}

TEST(BaselineFromResults, RegressionsInListOrderWithHeader) {
  gcnprobe::results::ResultsFile f;
  f.source = "run.json";
  f.header = {{"device_name", "llvmpipe"},
              {"driver", "llvmpipe"},
              {"driver_version", "Mesa 22.3.6"},
              {"vulkan_api_version", "1.3.230"},
              {"gcnprobe_version", "0.1.0 (abc)"},
              {"profile", "portable"},
              {"start_time", "2026-01-02T03:04:05Z"},
              {"shard", ""}};
  f.summary = "2 passed, 1 failed, 0 unsupported";
  f.cases = {result("s.z", Verdict::Fail, "2 lane(s)\ndiffer"),
             result("s.pass", Verdict::Pass),
             result("s.a", Verdict::ExpectedFail, "crash: SIGSEGV [expected by b.txt:1]"),
             result("s.flaky", Verdict::Flake, "fail: x [flaky: attempts fail, pass]"),
             result("s.fixed", Verdict::UnexpectedPass, "the baseline expects fail (b.txt:2)"),
             result("s.unknown", Verdict::Timeout),
             result("s.old", Verdict::ExpectedFail, "no verdict here")};
  const std::vector<std::string> order = {"s.a", "s.pass", "s.z", "s.fixed"};
  const std::string text = gcnprobe::results::baselineFromResults(f, order);
  EXPECT_EQ(text,
            "# gcnprobe baseline: the regressions of run.json\n"
            "# device: llvmpipe; driver: llvmpipe Mesa 22.3.6; Vulkan 1.3.230\n"
            "# gcnprobe 0.1.0 (abc); profile portable; started 2026-01-02T03:04:05Z\n"
            "# run summary: 2 passed, 1 failed, 0 unsupported\n"
            "# recorded: profile=portable; device=llvmpipe; driver=llvmpipe Mesa 22.3.6\n"
            "\n"
            "s.a,crash  # SIGSEGV\n"
            "s.z,fail  # 2 lane(s) differ\n"
            "s.old,expected-fail  # no verdict here\n"
            "s.unknown,timeout\n");
  // And it reads back as a baseline expecting those verdicts.
  const Baseline b = gcnprobe::results::parseBaseline(text, "new.txt");
  ASSERT_EQ(b.entries.size(), 4u);
  EXPECT_TRUE(b.find("s.a")->covers(Verdict::Crash));
  EXPECT_EQ(b.find("s.z")->reason, "2 lane(s) differ");
  EXPECT_EQ(b.find("s.pass"), nullptr);
  // The recorded line is where the run was made; the header's other comments are no entry's
  // reason.
  ASSERT_TRUE(b.recorded.has_value());
  EXPECT_EQ(b.recorded->profile, "portable");
  EXPECT_EQ(b.recorded->device, "llvmpipe");
  EXPECT_EQ(b.recorded->driver, "llvmpipe Mesa 22.3.6");
  EXPECT_EQ(b.recorded->where, "new.txt:5");
  EXPECT_EQ(b.find("s.a")->reason, "SIGSEGV");
}

// A baseline recorded on another device, driver or profile: each difference is named with both
// values; the same place, or a baseline that names none, gives nothing.
TEST(BaselineParse, RecordedOnMismatchNamesEachDifference) {
  const Baseline b = gcnprobe::results::parseBaseline(
      "# recorded: profile=gfx8; device=AMD Radeon RX 580; driver=radv Mesa 25.0.7\na,fail\n",
      "b.txt");
  EXPECT_EQ(gcnprobe::results::baselineMismatch(b, "gfx8", "AMD Radeon RX 580", "radv Mesa 25.0.7"),
            std::nullopt);
  const auto m = gcnprobe::results::baselineMismatch(b, "portable", "llvmpipe", "radv Mesa 25.0.7");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(*m,
            "b.txt:1: the baseline was recorded elsewhere: profile 'portable' here, 'gfx8' in the "
            "baseline; device 'llvmpipe' here, 'AMD Radeon RX 580' in the baseline");
  const Baseline hand = gcnprobe::results::parseBaseline("a,fail\n", "hand.txt");
  EXPECT_FALSE(hand.recorded.has_value());
  EXPECT_EQ(gcnprobe::results::baselineMismatch(hand, "portable", "x", "y"), std::nullopt);
  try {
    (void)gcnprobe::results::parseBaseline("# recorded: profile=gfx8; gpu=x\n", "bad.txt");
    FAIL() << "an unknown key must be refused";
  } catch (const gcn::Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.txt:1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("unknown key 'gpu'"), std::string::npos) << e.what();
  }
}

}  // namespace baseline_test
