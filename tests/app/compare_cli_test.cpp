// `gcnprobe compare OLD NEW`: two reports written here with one case of each kind of change;
// the text groups and counts them, --json says the same for machines, the exit status is 1
// exactly when there is a regression.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli.h"

namespace compare_cli_test {

using gcnprobe::test_support::runGcnprobe;
using gcnprobe::test_support::Stderr;

std::string tmp(const std::string& name) {
  return ::testing::TempDir() + "compare_" + name;
}

struct Rec {
  const char* name;
  const char* verdict;
  const char* digest;  // nullptr: no ISA visible
};

std::string reportText(const std::string& driverVersion, const std::vector<Rec>& recs,
                       const std::string& shard = "") {
  nlohmann::json doc{{"driver", "radv"},
                     {"driver_version", driverVersion},
                     {"gcnprobe_version", "0.1.0"},
                     {"shard", shard},
                     {"profile", "gfx8"},
                     {"device", "AMD Radeon RX 580"}};
  doc["cases"] = nlohmann::json::array();
  for (const Rec& r : recs)
    doc["cases"].push_back(
        {{"name", r.name},
         {"verdict", r.verdict},
         {"reason", std::string(r.verdict) == "pass" ? "" : std::string("reason of ") + r.name},
         {"isa_digest", r.digest ? nlohmann::json(r.digest) : nlohmann::json(nullptr)}});
  doc["summary"] = "not read by compare";
  return doc.dump(1);
}

std::string write(const std::string& name, const std::string& text) {
  const std::string path = tmp(name);
  std::ofstream(path) << text;
  return path;
}

// OLD -> NEW: storage.reg regresses with other instructions, storage.fix is fixed by the
// same instructions, storage.gone is removed, storage.added is new, storage.recompiled keeps
// its verdict with other instructions, storage.skip becomes unsupported (neither a
// regression nor a fix), storage.same and storage.lavapipe do not change.
struct Reports {
  std::string oldPath = write(
      "old.json", reportText("Mesa 22.3.6", {
                                                {"storage.same", "pass", "1111111111111111"},
                                                {"storage.reg", "pass", "2222222222222222"},
                                                {"storage.fix", "fail", "3333333333333333"},
                                                {"storage.gone", "pass", nullptr},
                                                {"storage.recompiled", "pass", "4444444444444444"},
                                                {"storage.skip", "pass", nullptr},
                                                {"storage.lavapipe", "fail", nullptr},
                                                {"storage.accepted", "fail", nullptr},
                                            }));
  std::string newPath = write(
      "new.json", reportText("Mesa 25.0.7", {
                                                {"storage.added", "fail", nullptr},
                                                {"storage.lavapipe", "fail", nullptr},
                                                {"storage.skip", "unsupported", nullptr},
                                                {"storage.recompiled", "pass", "5555555555555555"},
                                                {"storage.fix", "pass", "3333333333333333"},
                                                {"storage.reg", "route-miss", "6666666666666666"},
                                                {"storage.same", "pass", "1111111111111111"},
                                                {"storage.accepted", "expected-fail", nullptr},
                                            }));
};

TEST(CompareCli, GroupsEveryKindOfChange) {
  const Reports r;
  const auto out = runGcnprobe("compare " + r.oldPath + " " + r.newPath);
  EXPECT_EQ(out.exit, 1) << out.out;  // a regression
  const std::string& t = out.out;
  EXPECT_NE(t.find("1 regression, 1 fix, 1 regression now accepted by a baseline or flakes "
                   "list, 1 new case, 1 removed case, 1 other verdict change, "
                   "1 instruction change with the same verdict, 2 unchanged"),
            std::string::npos)
      << t;
  // fail -> expected-fail is a baseline change, not a fix: the failure is still there.
  EXPECT_NE(t.find("accepted by a baseline or flakes list (still failing: not fixes) (1):\n"
                   "  storage.accepted: fail -> expected-fail"),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find("note: "), std::string::npos) << t;  // both are whole runs
  EXPECT_NE(t.find("driver_version: Mesa 22.3.6 -> Mesa 25.0.7"), std::string::npos) << t;
  EXPECT_NE(t.find("regressions (1):\n  storage.reg: pass -> route-miss; different instructions "
                   "(isa 2222222222222222 -> 6666666666666666)\n    reason of storage.reg"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("fixes (1):\n  storage.fix: fail -> pass; same instructions (isa "
                   "3333333333333333), different result: driver or hardware behaviour"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("other verdict changes (1):\n  storage.skip: pass -> unsupported; no ISA "
                   "visible"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("instructions changed, same verdict (1):\n  storage.recompiled: pass; "
                   "different instructions (isa 4444444444444444 -> 5555555555555555)"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("new cases (1):\n  storage.added: fail"), std::string::npos) << t;
  EXPECT_NE(t.find("removed cases (1):\n  storage.gone: was pass"), std::string::npos) << t;
  // The unchanged cases are counted, not listed.
  EXPECT_EQ(t.find("storage.same"), std::string::npos) << t;
  EXPECT_EQ(t.find("storage.lavapipe"), std::string::npos) << t;
}

TEST(CompareCli, JsonForMachines) {
  const Reports r;
  const std::string json = tmp("out.json");
  const auto out = runGcnprobe("compare " + r.oldPath + " " + r.newPath + " --json " + json);
  EXPECT_EQ(out.exit, 1) << out.out;
  std::ifstream in(json);
  const nlohmann::json doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc["counts"], nlohmann::json({{"regressions", 1},
                                           {"fixes", 1},
                                           {"baselined", 1},
                                           {"new_cases", 1},
                                           {"removed_cases", 1},
                                           {"changed", 1},
                                           {"isa_changed", 1},
                                           {"unchanged", 2}}));
  ASSERT_EQ(doc["regressions"].size(), 1u);
  EXPECT_EQ(doc["regressions"][0]["name"], "storage.reg");
  EXPECT_EQ(doc["regressions"][0]["old_verdict"], "pass");
  EXPECT_EQ(doc["regressions"][0]["new_verdict"], "route-miss");
  EXPECT_EQ(doc["regressions"][0]["isa"], "different-instructions");
  EXPECT_EQ(doc["fixes"][0]["isa"], "same-instructions");
  EXPECT_EQ(doc["changed"][0]["isa"], "no-isa");
  EXPECT_EQ(doc["isa_changed"][0]["new_isa_digest"], "5555555555555555");
  EXPECT_EQ(doc["new_cases"][0]["name"], "storage.added");
  EXPECT_TRUE(doc["new_cases"][0]["old_verdict"].is_null());
  EXPECT_EQ(doc["removed_cases"][0]["name"], "storage.gone");
  EXPECT_EQ(doc["old"]["driver_version"], "Mesa 22.3.6");
  EXPECT_EQ(doc["new"]["file"], r.newPath);
  // "-": the JSON alone on standard output.
  const auto stdoutJson =
      runGcnprobe("compare " + r.oldPath + " " + r.newPath + " --json -", Stderr::Discard);
  EXPECT_EQ(stdoutJson.exit, 1);
  EXPECT_EQ(nlohmann::json::parse(stdoutJson.out), doc);
}

// A shard compared with the whole run: the other shards' cases would count as new; the
// comparison says so first.
TEST(CompareCli, AShardAgainstTheWholeRunIsNamed) {
  const std::string part =
      write("shard.json", reportText("Mesa 25.0.7", {{"storage.same", "pass", nullptr}}, "1/3"));
  const std::string whole =
      write("whole.json", reportText("Mesa 25.0.7", {{"storage.same", "pass", nullptr},
                                                     {"storage.other", "pass", nullptr}}));
  const auto out = runGcnprobe("compare " + part + " " + whole);
  EXPECT_NE(out.out.find("note: OLD is shard 1/3, NEW the whole run: cases outside the smaller "
                         "part count as new or removed"),
            std::string::npos)
      << out.out;
  EXPECT_EQ(runGcnprobe("compare " + whole + " " + whole).out.find("note: "), std::string::npos);
}

TEST(CompareCli, NoRegressionExitsZero) {
  const Reports r;
  // A run against itself, and against a run where every case passes.
  const auto self = runGcnprobe("compare " + r.newPath + " " + r.newPath);
  EXPECT_EQ(self.exit, 0) << self.out;
  EXPECT_NE(self.out.find("0 regressions, 0 fixes, 0 new cases, 0 removed cases, 0 other "
                          "verdict changes, 0 instruction changes with the same verdict, 8 "
                          "unchanged"),
            std::string::npos)
      << self.out;
  const std::string better =
      write("better.json", reportText("Mesa 22.3.6", {{"storage.same", "pass", nullptr},
                                                      {"storage.reg", "pass", nullptr},
                                                      {"storage.fix", "pass", nullptr},
                                                      {"storage.gone", "pass", nullptr},
                                                      {"storage.recompiled", "pass", nullptr},
                                                      {"storage.skip", "pass", nullptr},
                                                      {"storage.lavapipe", "pass", nullptr}}));
  const auto fixed = runGcnprobe("compare " + r.oldPath + " " + better);
  EXPECT_EQ(fixed.exit, 0) << fixed.out;
  EXPECT_NE(fixed.out.find("0 regressions, 2 fixes"), std::string::npos) << fixed.out;
}

TEST(CompareCli, BadInputExitsTwo) {
  const Reports r;
  const std::string notReport = write("not.json", "{\"hello\": 1}");
  const auto a = runGcnprobe("compare " + r.oldPath + " " + notReport);
  EXPECT_EQ(a.exit, 2) << a.out;
  EXPECT_NE(a.out.find(notReport), std::string::npos) << a.out;
  std::string text = reportText("Mesa 22.3.6", {{"storage.a", "pass", nullptr}});
  text.resize(text.size() / 2);
  const std::string cut = write("cut.json", text);
  const auto b = runGcnprobe("compare " + cut + " " + r.newPath);
  EXPECT_EQ(b.exit, 2) << b.out;
  EXPECT_NE(b.out.find(cut), std::string::npos) << b.out;
  const auto c = runGcnprobe("compare " + r.oldPath + " " + tmp("does-not-exist.json"));
  EXPECT_EQ(c.exit, 2) << c.out;
  const std::string badVerdict =
      write("verdict.json", reportText("Mesa 22.3.6", {{"storage.a", "passed", nullptr}}));
  const auto d = runGcnprobe("compare " + r.oldPath + " " + badVerdict);
  EXPECT_EQ(d.exit, 2) << d.out;
  EXPECT_NE(d.out.find("'passed' is not a verdict"), std::string::npos) << d.out;
}

}  // namespace compare_cli_test
