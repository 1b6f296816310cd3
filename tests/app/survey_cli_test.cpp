// `gcnprobe survey`: on the machine's Vulkan device (lavapipe here) every step runs for real and
// the bundle feeds report, compare, merge and baseline as it is; a step that runs past its time
// budget is stopped, keeps what it finished, and the survey goes on; --dry-run runs the null
// device's steps for a chip.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "harness/vulkan/driver.h"
#include "reference/error.h"
#include "tests/support/cli.h"

namespace survey_cli_test {

namespace fs = std::filesystem;
using gcnprobe::test_support::CliRun;
using gcnprobe::test_support::runCommand;
using gcnprobe::test_support::runGcnprobe;

nlohmann::json readJson(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

std::map<std::string, nlohmann::json> stepsById(const nlohmann::json& survey) {
  std::map<std::string, nlohmann::json> out;
  for (const nlohmann::json& s : survey["steps"])
    out[s["id"].get<std::string>()] = s;
  return out;
}

fs::path freshDir(const std::string& name) {
  const fs::path d = fs::path(testing::TempDir()) / name;
  fs::remove_all(d);
  fs::remove(d.string() + ".tar.gz");
  return d;
}

TEST(SurveyCli, OnTheDefaultDeviceEveryStepRunsAndTheBundleFeedsTheOtherCommands) {
  const fs::path dir = freshDir("survey-bundle");
  const CliRun r = runGcnprobe("survey -o " + dir.string() + " --fuzz-count 3");
  ASSERT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("[7/7] fuzz (3 cases)"), std::string::npos) << r.out;
  const nlohmann::json survey = readJson(dir / "survey.json");
  EXPECT_EQ(survey["result"], "ok");
  const auto steps = stepsById(survey);
  for (const char* id :
       {"devices", "self-check", "default", "disputed", "binary-build", "binary", "fuzz"})
    ASSERT_TRUE(steps.count(id)) << id;
  // Lavapipe is no GCN device: the steps that read GCN code or V#s do not apply, and say so.
  const bool gcn = readJson(dir / "devices.json")[0]["chip"].is_string();
  for (const char* id : {"self-check", "binary-build"})
    if (!gcn) {
      EXPECT_EQ(steps.at(id)["status"], "not applicable") << steps.at(id).dump();
    }
  for (const char* id : {"devices", "default", "disputed", "binary", "fuzz"})
    EXPECT_EQ(steps.at(id)["status"], "ok") << steps.at(id).dump();
  // Each run step's summary is its report's, and the report is a complete run.
  for (const char* id : {"default", "disputed", "binary"}) {
    const nlohmann::json report = readJson(dir / (std::string(id) + ".json"));
    EXPECT_EQ(steps.at(id)["summary"], report["summary"]) << id;
    EXPECT_FALSE(report["cases"].empty()) << id;
    EXPECT_TRUE(fs::exists(dir / (std::string(id) + ".junit.xml"))) << id;
    EXPECT_TRUE(fs::exists(dir / ("report-" + std::string(id) + ".html"))) << id;
  }
  for (const char* f : {"README.txt", "facts.json", "baseline.txt", "fuzz.json", "devices.json"})
    EXPECT_TRUE(fs::exists(dir / f)) << f;
  const nlohmann::json facts = readJson(dir / "facts.json");
  EXPECT_TRUE(facts.contains("kernel"));
  EXPECT_TRUE(facts.contains("gpus"));
  // The tarball holds the folder.
  const CliRun list = runCommand("tar -tzf " + dir.string() + ".tar.gz");
  ASSERT_EQ(list.exit, 0);
  EXPECT_NE(list.out.find("survey-bundle/survey.json"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("survey-bundle/default.json"), std::string::npos) << list.out;
  // The bundle as it is feeds the results commands.
  const std::string d = dir.string();
  EXPECT_EQ(runGcnprobe("compare " + d + "/default.json " + d + "/default.json").exit, 0);
  EXPECT_EQ(runGcnprobe("merge " + d + "/default.json -o " + d + "-merged.json").exit, 0);
  EXPECT_EQ(
      runGcnprobe("report " + d + "/default.json " + d + "/disputed.json -o " + d + "-atlas.html")
          .exit,
      0);
  EXPECT_EQ(runGcnprobe("run --suite storage --baseline " + d + "/baseline.txt").exit, 0);
  // A folder that holds something is refused, before any step runs.
  const CliRun again = runGcnprobe("survey -o " + d);
  EXPECT_EQ(again.exit, 2) << again.out;
  EXPECT_NE(again.out.find("exists and is not empty"), std::string::npos) << again.out;
}

// A step that hangs is stopped at its time budget (SIGTERM: its reports keep the cases that
// finished), marked timeout, and the next steps still run; the survey exits 3.
TEST(SurveyCli, AStepPastItsTimeBudgetIsStoppedAndTheSurveyGoesOn) {
  const fs::path dir = freshDir("survey-timeout");
  const CliRun r = runCommand(
      "XDG_RUNTIME_DIR=/tmp GCNPROBE_TEST_FAULT='hang:storage.store_dword.*' " +
      std::string(GCNPROBE_BINARY) + " survey --no-tarball --fuzz-count 2 --step-timeout 8 -o " +
      dir.string() + " 2>&1");
  EXPECT_EQ(r.exit, 3) << r.out;
  const auto steps = stepsById(readJson(dir / "survey.json"));
  EXPECT_EQ(steps.at("default")["status"], "timeout") << steps.at("default").dump();
  EXPECT_EQ(steps.at("disputed")["status"], "ok") << steps.at("disputed").dump();
  EXPECT_EQ(steps.at("fuzz")["status"], "ok") << steps.at("fuzz").dump();
  const nlohmann::json report = readJson(dir / "default.json");  // parses: a closed report
  EXPECT_GT(report["cases"].size(), 0u);
  EXPECT_NE(report["summary"].get<std::string>().find("not run"), std::string::npos)
      << report["summary"];
}

// --dry-run on RADV's null device: the same sequence without device memory, for one chip.
TEST(SurveyCli, DryRunOnTheNullDeviceBuildsAndProves) {
  try {
    gcnprobe::vk::radvManifest();
  } catch (const gcn::Error&) {
    GTEST_SKIP() << "no RADV in this driver";
  }
  const fs::path dir = freshDir("survey-dry");
  const CliRun r = runGcnprobe("survey --dry-run --family tonga --no-tarball -o " + dir.string());
  // Route-misses are findings (exit 1), never an incomplete survey.
  EXPECT_EQ(r.exit, 1) << r.out;
  const auto steps = stepsById(readJson(dir / "survey.json"));
  EXPECT_EQ(steps.at("devices-tonga")["status"], "ok");
  EXPECT_EQ(readJson(dir / "devices-tonga.json")[0]["chip"], "tonga");
  const std::string selfCheck = steps.at("self-check-tonga")["status"];
  EXPECT_TRUE(selfCheck == "ok" || selfCheck == "not applicable") << selfCheck;
  EXPECT_EQ(steps.at("binary-build-tonga")["status"], "ok");
  EXPECT_EQ(readJson(dir / "binary-build-tonga.json")["built"],
            readJson(dir / "binary-build-tonga.json")["opcodes"]);
  for (const char* id : {"list-default-tonga", "list-disputed-tonga", "list-binary-tonga"}) {
    EXPECT_EQ(steps.at(id)["status"], "ok") << id;
    EXPECT_FALSE(readJson(dir / (std::string(id) + ".json")).empty()) << id;
  }
  EXPECT_EQ(steps.at("isa-default")["status"], "failures");
  // No disputed probe is a route-miss on tonga: ssbo-raw-straddle names `route = program,
  // storage`, and the own program builds it on both drivers (its V# is the driver's SSBO
  // descriptor, which needs no VK_EXT_descriptor_buffer). The storage route's check, a
  // route-miss (ACO splits the 8-byte load), is in the record beside it.
  EXPECT_EQ(steps.at("isa-disputed")["status"], "ok") << steps.at("isa-disputed").dump();
  EXPECT_NE(steps.at("isa-disputed")["summary"].get<std::string>().find(" 0 route-miss"),
            std::string::npos)
      << steps.at("isa-disputed").dump();
  bool straddleSeen = false;
  const nlohmann::json disputed = readJson(dir / "isa-disputed.json");
  for (const nlohmann::json& c : disputed["chips"][0]["cases"]) {
    if (c["case"] != "disputed.ssbo-raw-straddle") continue;
    straddleSeen = true;
    EXPECT_EQ(c["outcome"], "verified") << c.dump();
    EXPECT_EQ(c["elsewhere"]["route"], "storage") << c.dump();
    EXPECT_EQ(c["elsewhere"]["outcome"], "route-miss") << c.dump();
  }
  EXPECT_TRUE(straddleSeen);
  EXPECT_NE(steps.at("isa-default")["summary"].get<std::string>().find("tonga: 885 cases, "),
            std::string::npos);
  const nlohmann::json isa = readJson(dir / "isa-default.json");
  EXPECT_EQ(isa["chips"][0]["cases"].size(), 885u);
}

// `--driver` with a relative folder reaches every step, although the steps run in the bundle
// folder (the path is made absolute once, before any child starts).
TEST(SurveyCli, ARelativeDriverFolderReachesEveryStep) {
  const fs::path driver =
      fs::path(GCNPROBE_BINARY).parent_path().parent_path() / "drivers" / "mesa25";
  if (!fs::exists(driver)) GTEST_SKIP() << "no Mesa 25 folder beside this build";
  const fs::path dir = freshDir("survey-relative");
  const fs::path cwd = fs::path(testing::TempDir());
  const std::string relative = fs::relative(driver, cwd).string();
  const CliRun r =
      runCommand("cd " + cwd.string() + " && XDG_RUNTIME_DIR=/tmp " + std::string(GCNPROBE_BINARY) +
                 " --driver " + relative + " survey --dry-run --family tonga --no-tarball -o " +
                 dir.filename().string() + " 2>&1");
  EXPECT_EQ(r.exit, 1) << r.out;  // findings: route-misses on the null device
  const auto steps = stepsById(readJson(dir / "survey.json"));
  EXPECT_EQ(steps.at("devices-tonga")["status"], "ok") << steps.at("devices-tonga").dump();
  EXPECT_NE(
      readJson(dir / "devices-tonga.json")[0]["driver_info"].get<std::string>().find("Mesa 25"),
      std::string::npos);
}

}  // namespace survey_cli_test
