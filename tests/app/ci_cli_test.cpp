// gcnprobe in a CI fleet: case selection (repeatable --filter, --exclude, --case-list,
// --shard i/N and GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS), and the JUnit, CSV and stdout JSON
// reports, read back with Python's own xml and csv modules (independent parsers).
#include <gtest/gtest.h>

#include <iterator>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "harness/cases/select.h"
#include "reference/error.h"
#include "tests/support/cli.h"

namespace ci_cli_test {

using gcnprobe::test_support::runGcnprobe;
using gcnprobe::test_support::Stderr;

std::string tmp(const std::string& name) {
  return ::testing::TempDir() + name;
}

nlohmann::json readJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::map<std::string, std::string> verdicts(const nlohmann::json& doc) {
  std::map<std::string, std::string> out;
  for (const auto& c : doc["cases"])
    out[c["name"].get<std::string>()] = c["verdict"].get<std::string>();
  return out;
}

gcnprobe::judge::Case named(const std::string& n) {
  gcnprobe::judge::Case c;
  c.name = n;
  return c;
}

TEST(Selection, ShardsPartitionTheSelectionInListOrder) {
  std::vector<gcnprobe::judge::Case> all;
  for (int i = 0; i < 10; ++i)
    all.push_back(named("s.case" + std::to_string(i)));
  std::multiset<std::string> seen;
  for (unsigned k = 0; k < 3; ++k) {
    gcnprobe::results::Selection s;
    s.shard = gcnprobe::results::Shard{k, 3};
    for (const auto& c : gcnprobe::cases::selectCases(all, s))
      seen.insert(c.name);
  }
  EXPECT_EQ(seen.size(), 10u);
  for (const auto& c : all)
    EXPECT_EQ(seen.count(c.name), 1u) << c.name;
  // Shard 1 of 3: positions 1, 4, 7 of the list.
  gcnprobe::results::Selection s;
  s.shard = gcnprobe::results::Shard{1, 3};
  const auto one = gcnprobe::cases::selectCases(all, s);
  ASSERT_EQ(one.size(), 3u);
  EXPECT_EQ(one[0].name, "s.case1");
  EXPECT_EQ(one[2].name, "s.case7");
  // Include any of several globs, then exclude; the shard counts the survivors only.
  s = {};
  s.include = {"s.case1", "s.case[89]"};
  s.exclude = {"*9"};
  const auto inc = gcnprobe::cases::selectCases(all, s);
  ASSERT_EQ(inc.size(), 2u);
  EXPECT_EQ(inc[1].name, "s.case8");
}

TEST(Selection, BadShardsAndUnknownListedCasesAreErrors) {
  EXPECT_EQ(gcnprobe::results::parseShard("2/3").index, 2u);
  for (const char* bad : {"3/3", "1", "a/3", "1/0", "-1/3", "1/3/4", ""})
    EXPECT_THROW(gcnprobe::results::parseShard(bad), gcn::Error) << bad;
  gcnprobe::results::Selection s;
  s.names = {"s.case1", "s.nope"};
  s.namesSource = "list.txt";
  try {
    gcnprobe::cases::selectCases({named("s.case1")}, s);
    FAIL() << "unknown name accepted";
  } catch (const gcn::Error& e) {
    EXPECT_NE(std::string(e.what()).find("list.txt"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("s.nope"), std::string::npos) << e.what();
  }
}

// Three shard processes together give exactly the unsharded run's verdict per case, whether
// the shard comes from --shard or from GoogleTest's sharding variables.
TEST(CiCli, ThreeShardsEqualOneRun) {
  const std::string sel = "--filter 'storage.*' --filter 'atomic.*' --exclude '*offset20*'";
  ASSERT_EQ(runGcnprobe("run " + sel + " --json " + tmp("all.json")).exit, 0);
  const auto all = verdicts(readJson(tmp("all.json")));
  ASSERT_GT(all.size(), 40u);
  for (const auto& [name, v] : all)
    EXPECT_EQ(name.find("offset20"), std::string::npos) << name;
  std::map<std::string, std::string> merged;
  for (int k = 0; k < 3; ++k) {
    const std::string json = tmp("shard" + std::to_string(k) + ".json");
    if (k < 2) {
      const auto r =
          runGcnprobe("run " + sel + " --shard " + std::to_string(k) + "/3 --json " + json);
      ASSERT_EQ(r.exit, 0) << r.out;
    } else {  // the third shard as a GoogleTest-sharding CI would ask for it
      const std::string cmd = "XDG_RUNTIME_DIR=/tmp GTEST_SHARD_INDEX=2 GTEST_TOTAL_SHARDS=3 " +
                              std::string(GCNPROBE_BINARY) + " run " + sel + " --json " + json +
                              " >/dev/null 2>&1";
      ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    }
    for (const auto& [name, v] : verdicts(readJson(json))) {
      EXPECT_FALSE(merged.count(name)) << name << " in two shards";
      merged[name] = v;
    }
  }
  EXPECT_EQ(merged, all);
  // A shard is also what `list` prints for it.
  const auto list = runGcnprobe("list " + sel + " --shard 1/3", Stderr::Discard);
  EXPECT_EQ(static_cast<size_t>(std::count(list.out.begin(), list.out.end(), '\n')),
            verdicts(readJson(tmp("shard1.json"))).size());
}

// A skips list takes cases out before the shard: every shard skips the same cases, the shards
// still merge into one complete run, and each skipped case is named in the JSON, never run.
// A misspelt entry is a warning naming its line; a regex (deqp-runner's habit) is an error.
TEST(CiCli, SkipsListTakesCasesOutBeforeTheShard) {
  const std::string sel = "--filter 'storage.*'";
  ASSERT_EQ(runGcnprobe("run " + sel + " --json " + tmp("noskip.json")).exit, 0);
  const auto all = verdicts(readJson(tmp("noskip.json")));
  std::set<std::string> wanted;  // what the globs below name, from the unskipped run
  for (const auto& [name, v] : all)
    if (name.rfind("storage.load_dword.", 0) == 0 || name == "storage.store_byte.offset0")
      wanted.insert(name);
  ASSERT_GE(wanted.size(), 2u);
  const std::string skips = tmp("skips.txt");
  std::ofstream(skips) << "\xef\xbb\xbf# slow here\nstorage.load_dword.*\n"
                          "storage.store_byte.offset0  # racy\nstorage.no_such_*\n";
  std::set<std::string> ran, skipped;
  for (int k = 0; k < 2; ++k) {
    const std::string json = tmp("skip" + std::to_string(k) + ".json");
    const auto r = runGcnprobe("run " + sel + " --skips " + skips + " --shard " +
                               std::to_string(k) + "/2 --json " + json);
    ASSERT_EQ(r.exit, 0) << r.out;
    EXPECT_NE(r.out.find(skips + ":4: 'storage.no_such_*' matches no case"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(std::to_string(wanted.size()) + " case(s) skipped by " + skips),
              std::string::npos)
        << r.out;
    const nlohmann::json doc = readJson(json);
    for (const auto& [name, v] : verdicts(doc))
      EXPECT_TRUE(ran.insert(name).second) << name << " in both shards";
    std::set<std::string> named;
    for (const auto& n : doc["skipped"]["cases"])
      named.insert(n.get<std::string>());
    EXPECT_EQ(named, wanted);
    skipped.insert(named.begin(), named.end());
  }
  for (const auto& [name, v] : all)
    EXPECT_TRUE(ran.count(name) != 0 || skipped.count(name) != 0)
        << name << " neither ran nor skipped";
  EXPECT_EQ(ran.size() + wanted.size(), all.size());
  for (const std::string& n : wanted)
    EXPECT_EQ(ran.count(n), 0u) << n << " ran although skipped";
  const auto merged = runGcnprobe("merge " + tmp("skip0.json") + " " + tmp("skip1.json") + " -o " +
                                  tmp("skipmerged.json"));
  EXPECT_EQ(merged.exit, 0) << merged.out;
  // `list` takes the same list.
  const auto list = runGcnprobe("list " + sel + " --skips " + skips, Stderr::Discard);
  EXPECT_EQ(static_cast<size_t>(std::count(list.out.begin(), list.out.end(), '\n')), ran.size());

  // An entry naming a binary-suite case matches a case; a list that takes out every selected
  // case says so.
  std::ofstream(tmp("binary-skips.txt")) << "binary.tbuffer_load_format_xy\n";
  const auto binary = runGcnprobe("list --suite binary --skips " + tmp("binary-skips.txt"));
  EXPECT_EQ(binary.exit, 0) << binary.out;
  EXPECT_EQ(binary.out.find("matches no case"), std::string::npos) << binary.out;
  EXPECT_NE(binary.out.find("1 case(s) skipped"), std::string::npos) << binary.out;
  std::ofstream(tmp("all-skips.txt")) << "storage.*\n";
  const auto everything = runGcnprobe("list --suite storage --skips " + tmp("all-skips.txt"));
  EXPECT_EQ(everything.exit, 2) << everything.out;
  EXPECT_NE(everything.out.find("all-skips.txt: the skips list takes out every selected case (28)"),
            std::string::npos)
      << everything.out;

  std::ofstream(tmp("regex-skips.txt")) << "storage\\.load_.*\n";
  const auto regex = runGcnprobe("list --skips " + tmp("regex-skips.txt"));
  EXPECT_EQ(regex.exit, 2) << regex.out;
  EXPECT_NE(regex.out.find("regex-skips.txt:1: "), std::string::npos) << regex.out;
  EXPECT_NE(regex.out.find("looks like a regular expression"), std::string::npos) << regex.out;
}

// The full run's JUnit and CSV, parsed by Python's xml.etree and csv modules: one entry per
// case, counts equal to the summary line; and --json - is the whole JSON on standard output.
TEST(CiCli, JunitCsvAndStdoutJsonOfTheFullRun) {
  const std::string junit = tmp("run.xml"), csv = tmp("run.csv"), out = tmp("stdout.json");
  const int rc =
      std::system(("XDG_RUNTIME_DIR=/tmp " + std::string(GCNPROBE_BINARY) + " run --json - " +
                   "--junit " + junit + " --csv " + csv + " > " + out + " 2>/dev/null")
                      .c_str());
  ASSERT_EQ(rc, 0);
  const auto doc = readJson(out);  // nothing but JSON on stdout
  const std::string summary = doc["summary"].get<std::string>();
  unsigned passed = 0, failed = 0, unsupported = 0;
  ASSERT_EQ(std::sscanf(summary.c_str(), "%u passed, %u failed, %u unsupported", &passed, &failed,
                        &unsupported),
            3)
      << summary;
  for (const char* key : {"gcnprobe_version", "driver", "driver_version", "vulkan_api_version",
                          "device_name", "start_time"})
    EXPECT_FALSE(doc[key].get<std::string>().empty()) << key;
  EXPECT_TRUE(doc["cases"][0].contains("duration_s"));
  const std::string py =
      "import csv, sys, xml.etree.ElementTree as ET\n"
      "r = ET.parse(sys.argv[1]).getroot()\n"
      "cases = r.findall('./testsuite/testcase')\n"
      "skip = sum(1 for c in cases if c.find('skipped') is not None)\n"
      "fail = sum(1 for c in cases if c.find('failure') is not None or c.find('error') is not "
      "None)\n"
      "rows = list(csv.reader(open(sys.argv[2])))\n"
      "st = [x[1] for x in rows]\n"
      "print(len(cases), len(cases) - skip - fail, fail, skip, r.get('tests'), len(rows), "
      "st.count('Pass'), st.count('Fail'), st.count('Skip'), len(set(x[0] for x in rows)))\n";
  std::ofstream(tmp("check.py")) << py;
  FILE* f = popen(("python3 " + tmp("check.py") + " " + junit + " " + csv).c_str(), "r");
  ASSERT_NE(f, nullptr);
  unsigned n = 0, jp = 0, jf = 0, js = 0, jt = 0, rows = 0, cp = 0, cf = 0, cs = 0, names = 0;
  ASSERT_EQ(std::fscanf(f, "%u %u %u %u %u %u %u %u %u %u", &n, &jp, &jf, &js, &jt, &rows, &cp, &cf,
                        &cs, &names),
            10);
  pclose(f);
  const unsigned total = passed + failed + unsupported;
  EXPECT_EQ(n, total);
  EXPECT_EQ(jt, total);
  EXPECT_EQ(jp, passed);
  EXPECT_EQ(jf, failed);
  EXPECT_EQ(js, unsupported);
  EXPECT_EQ(rows, total);
  EXPECT_EQ(names, total);  // one line per case
  EXPECT_EQ(cp, passed);
  EXPECT_EQ(cf, failed);
  EXPECT_EQ(cs, unsupported);
  EXPECT_EQ(doc["cases"].size(), total);
}

TEST(CiCli, SelectionErrorsExitTwo) {
  EXPECT_EQ(runGcnprobe("run --shard 3/3").exit, 2);
  EXPECT_EQ(runGcnprobe("list --shard x").exit, 2);
  EXPECT_EQ(runGcnprobe("run --case-list /nonexistent/list.txt").exit, 2);
  std::ofstream(tmp("list.txt")) << "# a comment\nstorage.load_dword.offset0\nstorage.nope\n";
  const auto r = runGcnprobe("run --case-list " + tmp("list.txt"));
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.out.find("storage.nope"), std::string::npos) << r.out;
  // A list of comments only names no case: an error naming the file, never the whole suite.
  std::ofstream(tmp("empty.txt")) << "# nothing to rerun\n\n";
  const auto e = runGcnprobe("list --case-list " + tmp("empty.txt"));
  EXPECT_EQ(e.exit, 2) << e.out;
  EXPECT_NE(e.out.find("empty.txt: names no case"), std::string::npos) << e.out;
}

// Rerunning what failed: a case list may be a results.csv, a baseline or a --json results file;
// their failing lines name cases, passing ones do not, an unknown status is an error with its
// line. Parsed directly (results::readCaseList) and through `list --case-list`.
TEST(CiCli, CaseListTakesTheFailuresOfResultsAndBaselines) {
  std::ofstream(tmp("results.csv")) << "storage.load_dword.offset0,Fail,0.01\n"
                                       "storage.load_ubyte.offset0,Pass,0.01\n"
                                       "storage.load_ushort.offset0,Crash,0.2\n";
  EXPECT_EQ(
      gcnprobe::results::readCaseList(tmp("results.csv")),
      (std::vector<std::string>{"storage.load_dword.offset0", "storage.load_ushort.offset0"}));
  std::ofstream(tmp("base.txt")) << "# recorded: profile=portable; device=x; driver=y\n"
                                    "storage.load_dword.offset0,fail  # known\n"
                                    "storage.load_ubyte.offset0,expected-fail\n"
                                    "storage.load_ushort.offset0,skip\n";
  EXPECT_EQ(gcnprobe::results::readCaseList(tmp("base.txt")),
            (std::vector<std::string>{"storage.load_dword.offset0", "storage.load_ubyte.offset0"}));
  std::ofstream(tmp("bad.csv")) << "storage.load_dword.offset0,Fail\nstorage.x,Sideways\n";
  try {
    (void)gcnprobe::results::readCaseList(tmp("bad.csv"));
    FAIL() << "an unknown status must be refused";
  } catch (const gcn::Error& err) {
    EXPECT_NE(std::string(err.what()).find("bad.csv:2"), std::string::npos) << err.what();
    EXPECT_NE(std::string(err.what()).find("'Sideways'"), std::string::npos) << err.what();
  }
  std::ofstream(tmp("passing.csv")) << "storage.load_dword.offset0,Pass,0.01\n";
  EXPECT_THROW((void)gcnprobe::results::readCaseList(tmp("passing.csv")), gcn::Error);
  // A --json results file: its failing case, through the command line.
  const std::string json = tmp("failed.json");
  const auto failed = gcnprobe::test_support::runCommand(
      "XDG_RUNTIME_DIR=/tmp GCNPROBE_TEST_FAULT=fail:storage.load_dword.offset0 " +
      std::string(GCNPROBE_BINARY) + " run --suite storage --json " + json + " >/dev/null 2>&1");
  EXPECT_EQ(failed.exit, 1);
  const auto listed = runGcnprobe("list --case-list " + json);
  EXPECT_EQ(listed.exit, 0) << listed.out;
  EXPECT_NE(listed.out.find("storage.load_dword.offset0"), std::string::npos) << listed.out;
  EXPECT_EQ(listed.out.find("storage.load_ubyte.offset0"), std::string::npos) << listed.out;
}

}  // namespace ci_cli_test

namespace ci_cli_test {

// SIGTERM half-way (a CI timeout or cancel): the JSON parses, holds every finished case and
// says the run was interrupted; the exit status is 128 + 15. The test hook
// GCNPROBE_TEST_BATCH_DELAY_MS slows the run down so the signal lands between batches.
TEST(CiCli, SigtermHalfWayKeepsEveryFinishedCase) {
  const std::string json = tmp("sigterm.json"), junit = tmp("sigterm.xml"),
                    csv = tmp("sigterm.csv");
  for (const std::string& f : {json, junit, csv})
    std::remove(f.c_str());
  // until a dispatched case's record is in the file (duration above 0)
  const int rc = gcnprobe::test_support::terminateWhen(
      "GCNPROBE_TEST_BATCH_DELAY_MS=150",
      "run --json " + json + " --junit " + junit + " --csv " + csv,
      "grep -q '\"duration_s\":[0-9.e-]*[1-9]' " + json + " 2>/dev/null", tmp("sigterm.sh"));
  EXPECT_EQ(rc, 128 + 15);
  const auto doc = readJson(json);  // parses: closed properly
  const std::string summary = doc["summary"].get<std::string>();
  EXPECT_EQ(summary.rfind("interrupted by signal 15", 0), 0u) << summary;
  EXPECT_NE(summary.find(" not run"), std::string::npos) << summary;
  EXPECT_GT(doc["cases"].size(), 0u);
  // Every record is complete, and the counts in the summary are those of the records.
  unsigned passed = 0;
  for (const auto& c : doc["cases"]) {
    ASSERT_TRUE(c.contains("verdict")) << c.dump();
    passed += c["verdict"] == "pass";
  }
  EXPECT_NE(summary.find(": " + std::to_string(passed) + " passed"), std::string::npos) << summary;
  // JUnit and CSV are written too, with every selected case: those that did not run are
  // skipped with the reason (a cancelled shard still shows its tests).
  const std::string listed = gcnprobe::test_support::runGcnprobe("list").out;
  const auto total = static_cast<std::size_t>(std::count(listed.begin(), listed.end(), '\n'));
  std::ifstream x(junit);
  const std::string xml((std::istreambuf_iterator<char>(x)), std::istreambuf_iterator<char>());
  std::size_t testcases = 0;
  for (std::size_t at = xml.find("<testcase "); at != std::string::npos;
       at = xml.find("<testcase ", at + 1))
    ++testcases;
  EXPECT_EQ(testcases, total);
  EXPECT_NE(xml.find("not run: interrupted by signal 15"), std::string::npos);
  // deqp-runner's CSV has no reason column: the cases that did not run are Skip rows.
  std::ifstream c(csv);
  std::size_t rows = 0;
  for (std::string line; std::getline(c, line);)
    ++rows;
  EXPECT_EQ(rows, total);
}

}  // namespace ci_cli_test
