// Baselines end to end on the gcnprobe program: a run with an injected failure exits 1, the
// baseline written from its JSON makes the same run exit 0 with the case expected-fail, the
// fixed case is unexpected-pass (exit 1 only when asked), retries and known flakes, the JUnit
// and CSV statuses (read by Python's xml and csv modules), bad input, and a signal while a
// failing case is held back for its retries. Kept to the storage suite, so it stays fast.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli.h"

namespace baseline_cli_test {

using gcnprobe::test_support::CliRun;
using gcnprobe::test_support::runCommand;
using gcnprobe::test_support::runGcnprobe;

constexpr const char* kCase = "storage.load_dword.offset0";
const std::string kFault = std::string("GCNPROBE_TEST_FAULT=fail:") + kCase;

std::string tmp(const std::string& name) {
  return ::testing::TempDir() + "baseline_" + name;
}

// `gcnprobe <args>` with extra environment variables ("A=1 B=2"), standard error merged.
CliRun runWith(const std::string& env, const std::string& args) {
  return runCommand("XDG_RUNTIME_DIR=/tmp " + env + " " + std::string(GCNPROBE_BINARY) + " " +
                    args + " 2>&1");
}

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::json readJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

const nlohmann::json* record(const nlohmann::json& doc, const std::string& name) {
  for (const auto& c : doc["cases"])
    if (c["name"] == name) return &c;
  return nullptr;
}

std::map<std::string, unsigned> verdictCounts(const nlohmann::json& doc) {
  std::map<std::string, unsigned> n;
  for (const auto& c : doc["cases"])
    ++n[c["verdict"].get<std::string>()];
  return n;
}

// The CSV status of `name`, and its JUnit testcase as "<child tag>|<message attribute>"
// ("passed|" without a child), read by Python's csv and xml.etree modules.
std::pair<std::string, std::string> ciStatus(const std::string& csv, const std::string& junit,
                                             const std::string& name) {
  const std::string py = tmp("ci.py");
  std::ofstream(py) << "import csv, sys, xml.etree.ElementTree as ET\n"
                       "name = sys.argv[3]\n"
                       "st = [r[1] for r in csv.reader(open(sys.argv[1])) if r[0] == name]\n"
                       "tc = [t for t in ET.parse(sys.argv[2]).getroot().iter('testcase')\n"
                       "      if t.get('name') == name]\n"
                       "kids = [k for k in tc[0] if k.tag != 'system-out'] if tc else []\n"
                       "out = tc[0].find('system-out') if tc else None\n"
                       "j = (kids[0].tag + '|' + kids[0].get('message', '')) if kids else \\\n"
                       "    ('passed|' + (out.text if out is not None else ''))\n"
                       "print(','.join(st) + '\\t' + (j if tc else 'missing'))\n";
  const CliRun r = runCommand("python3 " + py + " " + csv + " " + junit + " " + name);
  const std::size_t tab = r.out.find('\t');
  if (r.exit != 0 || tab == std::string::npos) return {"python failed: " + r.out, ""};
  std::string j = r.out.substr(tab + 1);
  while (!j.empty() && j.back() == '\n')
    j.pop_back();
  return {r.out.substr(0, tab), j};
}

TEST(BaselineCli, RoundTripExpectedFailAndUnexpectedPass) {
  // 1. A failure nobody expects: exit 1.
  const std::string first = tmp("first.json");
  const CliRun r1 = runWith(kFault, "run --suite storage --json " + first);
  ASSERT_EQ(r1.exit, 1) << r1.out;
  const nlohmann::json doc1 = readJson(first);
  ASSERT_NE(record(doc1, kCase), nullptr);
  EXPECT_EQ((*record(doc1, kCase))["verdict"], "fail");
  EXPECT_EQ(verdictCounts(doc1)["fail"], 1u);
  const std::size_t total = doc1["cases"].size();

  // 2. The baseline from that run: a header naming the device, one entry.
  const std::string base = tmp("base.txt");
  const CliRun b = runGcnprobe("baseline --from " + first + " -o " + base);
  ASSERT_EQ(b.exit, 0) << b.out;
  const std::string text = readFile(base);
  EXPECT_NE(text.find("# device: " + doc1["device_name"].get<std::string>()), std::string::npos)
      << text;
  EXPECT_NE(text.find("driver: " + doc1["driver"].get<std::string>()), std::string::npos) << text;
  std::vector<std::string> entries;
  std::istringstream lines(text);
  for (std::string l; std::getline(lines, l);)
    if (!l.empty() && l[0] != '#') entries.push_back(l);
  ASSERT_EQ(entries.size(), 1u) << text;
  EXPECT_EQ(entries[0].rfind(std::string(kCase) + ",fail  # injected failure", 0), 0u)
      << entries[0];
  // On standard output without -o: the same text.
  EXPECT_EQ(runGcnprobe("baseline --from " + first, gcnprobe::test_support::Stderr::Discard).out,
            text);

  // 3. The same failure with the baseline: expected-fail, exit 0, in every report.
  const std::string second = tmp("second.json"), csv = tmp("second.csv"), junit = tmp("second.xml");
  const CliRun r2 = runWith(kFault, "run --suite storage --baseline " + base + " --json " + second +
                                        " --csv " + csv + " --junit " + junit);
  ASSERT_EQ(r2.exit, 0) << r2.out;
  EXPECT_NE(r2.out.find("1 expected-fail"), std::string::npos) << r2.out;
  const nlohmann::json doc2 = readJson(second);
  EXPECT_EQ(doc2["cases"].size(), total);
  const nlohmann::json& ef = *record(doc2, kCase);
  EXPECT_EQ(ef["verdict"], "expected-fail");
  const std::string efReason = ef["reason"].get<std::string>();
  EXPECT_EQ(efReason.rfind("fail: injected failure", 0), 0u) << efReason;
  // The entry's line: after the four header comments and the recorded line.
  EXPECT_NE(efReason.find(base + ":7"), std::string::npos) << efReason;
  // Recorded on this very device, driver and profile: no warning.
  EXPECT_EQ(r2.out.find("recorded elsewhere"), std::string::npos) << r2.out;
  EXPECT_EQ(verdictCounts(doc2)["fail"], 0u);
  EXPECT_NE(doc2["summary"].get<std::string>().find("1 expected-fail"), std::string::npos);
  const auto [csvStatus, junitCase] = ciStatus(csv, junit, kCase);
  EXPECT_EQ(csvStatus, "ExpectedFail");
  EXPECT_EQ(junitCase.rfind("skipped|expected-fail: fail: injected failure", 0), 0u) << junitCase;
  // A baseline from the baselined run expects the same: the original verdict, not
  // expected-fail.
  const CliRun again =
      runGcnprobe("baseline --from " + second, gcnprobe::test_support::Stderr::Discard);
  ASSERT_EQ(again.exit, 0);
  EXPECT_NE(again.out.find("\n" + std::string(kCase) + ",fail  # injected failure"),
            std::string::npos)
      << again.out;

  // 4. Fixed (no fault) with the baseline: unexpected-pass, exit 0 unless asked.
  const std::string third = tmp("third.json"), csv3 = tmp("third.csv"), junit3 = tmp("third.xml");
  const CliRun r3 = runGcnprobe("run --suite storage --baseline " + base + " --json " + third +
                                " --csv " + csv3 + " --junit " + junit3);
  ASSERT_EQ(r3.exit, 0) << r3.out;
  const nlohmann::json doc3 = readJson(third);
  EXPECT_EQ((*record(doc3, kCase))["verdict"], "unexpected-pass");
  EXPECT_EQ(verdictCounts(doc3)["unexpected-pass"], 1u);
  EXPECT_EQ(verdictCounts(doc3)["pass"], verdictCounts(doc1)["pass"]);
  const auto [csvStatus3, junitCase3] = ciStatus(csv3, junit3, kCase);
  EXPECT_EQ(csvStatus3, "UnexpectedPass");
  EXPECT_EQ(junitCase3.rfind("passed|unexpected-pass: the baseline expects fail", 0), 0u)
      << junitCase3;
  const CliRun r4 =
      runGcnprobe("run --suite storage --baseline " + base + " --fail-on-unexpected-pass");
  EXPECT_EQ(r4.exit, 1) << r4.out;
  EXPECT_NE(r4.out.find("1 unexpected-pass"), std::string::npos) << r4.out;
}

TEST(BaselineCli, ARegressionTheBaselineExpectsDifferentlyStillFails) {
  const std::string base = tmp("crash.txt");
  std::ofstream(base) << std::string(kCase) << ",crash  # loses the device\n";
  const std::string json = tmp("crash.json");
  const CliRun r = runWith(kFault, "run --suite storage --baseline " + base + " --json " + json);
  EXPECT_EQ(r.exit, 1) << r.out;
  const nlohmann::json doc = readJson(json);
  ASSERT_NE(record(doc, kCase), nullptr);
  const nlohmann::json& c = *record(doc, kCase);
  EXPECT_EQ(c["verdict"], "fail");
  EXPECT_NE(c["reason"].get<std::string>().find("expects crash"), std::string::npos) << c;
}

// A baseline recorded on another device: a warning naming both devices, the run otherwise as
// usual; with --baseline-must-match it is bad input (exit 2) before any case runs.
TEST(BaselineCli, ABaselineRecordedElsewhereIsWarnedAbout) {
  const std::string base = tmp("elsewhere.txt");
  std::ofstream(base) << "# recorded: profile=gfx8; device=AMD Radeon RX 580 (RADV POLARIS10); "
                         "driver=radv Mesa 25.0.7\n"
                      << kCase << ",fail\n";
  const CliRun warned = runWith(kFault, "run --suite storage --baseline " + base);
  EXPECT_EQ(warned.exit, 0) << warned.out;
  EXPECT_NE(warned.out.find("gcnprobe: warning: " + base +
                            ":1: the baseline was recorded elsewhere: profile"),
            std::string::npos)
      << warned.out;
  EXPECT_NE(warned.out.find("'AMD Radeon RX 580 (RADV POLARIS10)' in the baseline"),
            std::string::npos)
      << warned.out;
  const CliRun strict =
      runWith(kFault, "run --suite storage --baseline " + base + " --baseline-must-match");
  EXPECT_EQ(strict.exit, 2) << strict.out;
  EXPECT_NE(strict.out.find("(--baseline-must-match)"), std::string::npos) << strict.out;
  EXPECT_EQ(strict.out.find("passed"), std::string::npos) << strict.out;
}

TEST(BaselineCli, RetriesAndKnownFlakes) {
  // A deterministic failure fails every retry: still a failure, the attempts in its notes.
  const std::string json = tmp("retry.json");
  const CliRun r = runWith(kFault, "run --suite storage --retry 2 --json " + json);
  EXPECT_EQ(r.exit, 1) << r.out;
  const nlohmann::json doc1 = readJson(json);
  ASSERT_NE(record(doc1, kCase), nullptr);
  const nlohmann::json& c = *record(doc1, kCase);
  EXPECT_EQ(c["verdict"], "fail");
  // Failed the same way every time: one note, no per-attempt reasons.
  std::vector<std::string> retryNotes;
  for (const auto& n : c["notes"])
    if (n.get<std::string>().rfind("retried", 0) == 0 ||
        n.get<std::string>().rfind("attempt ", 0) == 0)
      retryNotes.push_back(n.get<std::string>());
  EXPECT_EQ(retryNotes, std::vector<std::string>{"retried: attempts fail, fail, fail"})
      << c["notes"];
  // Listed as a known flake: flake, exit 0, in every report.
  const std::string flakes = tmp("flakes.txt");
  std::ofstream(flakes) << "# racy on this device\nstorage.load_dword.*  # known\n";
  const std::string json2 = tmp("flake.json"), csv = tmp("flake.csv"), junit = tmp("flake.xml");
  const CliRun r2 = runWith(kFault, "run --suite storage --retry 1 --flakes " + flakes +
                                        " --json " + json2 + " --csv " + csv + " --junit " + junit);
  EXPECT_EQ(r2.exit, 0) << r2.out;
  EXPECT_NE(r2.out.find("1 flake"), std::string::npos) << r2.out;
  const nlohmann::json doc = readJson(json2);
  const nlohmann::json& f = *record(doc, kCase);
  EXPECT_EQ(f["verdict"], "flake");
  EXPECT_NE(f["reason"].get<std::string>().find(flakes + ":2: known"), std::string::npos) << f;
  EXPECT_EQ(verdictCounts(doc)["flake"], 1u);  // the passing load_dword cases stay pass
  const auto [csvStatus, junitCase] = ciStatus(csv, junit, kCase);
  EXPECT_EQ(csvStatus, "Flake");
  EXPECT_EQ(junitCase.rfind("passed|flake: fail: injected failure", 0), 0u) << junitCase;
}

TEST(BaselineCli, BadInputExitsTwo) {
  const CliRun missing = runGcnprobe("run --suite storage --baseline /nonexistent/base.txt");
  EXPECT_EQ(missing.exit, 2) << missing.out;
  EXPECT_NE(missing.out.find("/nonexistent/base.txt"), std::string::npos) << missing.out;
  const std::string bad = tmp("bad.txt");
  std::ofstream(bad) << "# fine\n" << kCase << ",Warn\n";
  const CliRun unknown = runGcnprobe("run --suite storage --baseline " + bad);
  EXPECT_EQ(unknown.exit, 2) << unknown.out;
  EXPECT_NE(unknown.out.find(bad + ":2: unknown status 'Warn'"), std::string::npos) << unknown.out;
  EXPECT_EQ(runGcnprobe("run --suite storage --flakes /nonexistent/flakes.txt").exit, 2);
  EXPECT_EQ(runGcnprobe("run --suite storage --retry -1").exit, 2);

  const CliRun noFile = runGcnprobe("baseline --from /nonexistent/run.json");
  EXPECT_EQ(noFile.exit, 2) << noFile.out;
  EXPECT_NE(noFile.out.find("/nonexistent/run.json"), std::string::npos) << noFile.out;
  EXPECT_EQ(runGcnprobe("baseline").exit, 2);  // --from is required
  // A report cut short (a run that died): a clear error, not a partial baseline.
  const std::string full = tmp("full.json");
  ASSERT_EQ(runWith(kFault, "run --filter 'storage.load_dword.*' --json " + full).exit, 1);
  const std::string text = readFile(full);
  const std::string cut = tmp("cut.json");
  std::ofstream(cut) << text.substr(0, text.size() / 2);
  const CliRun truncated = runGcnprobe("baseline --from " + cut);
  EXPECT_EQ(truncated.exit, 2) << truncated.out;
  EXPECT_NE(truncated.out.find(cut), std::string::npos) << truncated.out;
  EXPECT_NE(truncated.out.find("the document ends early"), std::string::npos) << truncated.out;
}

// deqp-runner habit: each JUnit failure body ends with the command that runs the case again.
TEST(BaselineCli, JunitFailuresCarryTheirReproCommand) {
  const std::string junit = tmp("repro.xml");
  const CliRun r = runWith(kFault, "run --suite storage --junit " + junit);
  EXPECT_EQ(r.exit, 1) << r.out;
  const std::string xml = readFile(junit);
  // (XML-escaped: &apos; is the single quote)
  EXPECT_NE(xml.find("repro: gcnprobe run --filter &apos;" + std::string(kCase) +
                     "&apos; --profile portable</failure>"),
            std::string::npos)
      << xml;
}

// SIGTERM while the failing case waits for its retries: it is still in the JSON, with its
// first verdict, and the run says it was interrupted (exit 128 + 15).
TEST(BaselineCli, SigtermDuringRetriesKeepsTheHeldCase) {
  const CliRun list = runGcnprobe("list --suite storage", gcnprobe::test_support::Stderr::Discard);
  ASSERT_EQ(list.exit, 0);
  std::size_t total = 0;
  for (char ch : list.out)
    total += ch == '\n';
  ASSERT_GT(total, 1u);
  const std::string json = tmp("sigterm.json");
  std::remove(json.c_str());
  // Every other case is in the file once the first attempt is over: then the signal.
  const int rc = gcnprobe::test_support::terminateWhen(
      "GCNPROBE_TEST_BATCH_DELAY_MS=100 " + std::string(kFault),
      "run --suite storage --retry 100 --json " + json,
      "[ \"$(grep -c '^{\"' " + json + " 2>/dev/null)\" -ge " + std::to_string(total - 1) +
          " ] && sleep 0.3",
      tmp("sigterm.sh"));
  EXPECT_EQ(rc, 128 + 15);
  const nlohmann::json doc = readJson(json);
  EXPECT_EQ(doc["cases"].size(), total);
  ASSERT_NE(record(doc, kCase), nullptr);
  EXPECT_EQ((*record(doc, kCase))["verdict"], "fail");
  const std::string summary = doc["summary"].get<std::string>();
  EXPECT_EQ(summary.rfind("interrupted by signal 15", 0), 0u) << summary;
  EXPECT_NE(summary.find("1 failed"), std::string::npos) << summary;
}

}  // namespace baseline_cli_test
