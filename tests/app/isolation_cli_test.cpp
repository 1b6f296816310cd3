// Faults a GPU runner meets (a case that crashes the process, hangs, or loses the device),
// injected with the documented test hook GCNPROBE_TEST_FAULT into chosen cases of the storage
// suite on lavapipe: only the guilty case loses, every other case keeps the verdict a clean run
// gives it, and the JSON report parses. In child processes (--isolate on) and, for a lost
// device, in-process (the device is re-created).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/progress.h"
#include "tests/support/cli.h"

namespace isolation_cli_test {

using gcnprobe::test_support::runCommand;
using gcnprobe::test_support::runGcnprobe;

std::string tmp(const std::string& name) {
  return ::testing::TempDir() + name;
}

std::map<std::string, nlohmann::json> records(const std::string& path) {
  std::ifstream in(path);
  const nlohmann::json doc = nlohmann::json::parse(in);  // throws when it does not parse
  std::map<std::string, nlohmann::json> out;
  for (const auto& c : doc["cases"])
    out[c["name"].get<std::string>()] = c;
  out["(summary)"] = doc["summary"];
  return out;
}

// The verdicts of a clean run of the storage suite, once.
const std::map<std::string, nlohmann::json>& cleanRun() {
  static const std::map<std::string, nlohmann::json> clean = [] {
    const std::string json = tmp("isolation_clean.json");
    const auto r = runGcnprobe("run --suite storage --isolate off --json " + json);
    EXPECT_EQ(r.exit, 0) << r.out;
    return records(json);
  }();
  return clean;
}

const char* kCrash = "storage.load_dword.offset20";
const char* kHang = "storage.load_dwordx2.offset0";
const char* kLost = "storage.store_dword.offset0";

// Every case but `guilty` has the clean run's verdict; the guilty ones have theirs.
void expectOnlyGuiltyLose(const std::map<std::string, nlohmann::json>& got,
                          const std::map<std::string, std::string>& guilty) {
  const auto& clean = cleanRun();
  ASSERT_EQ(got.size(), clean.size());
  for (const auto& [name, record] : clean) {
    if (name == "(summary)") continue;
    ASSERT_TRUE(got.count(name)) << name << " has no record";
    const std::string verdict = got.at(name)["verdict"].get<std::string>();
    if (const auto g = guilty.find(name); g != guilty.end())
      EXPECT_EQ(verdict, g->second) << name << ": " << got.at(name)["reason"];
    else
      EXPECT_EQ(verdict, record["verdict"].get<std::string>()) << name;
  }
}

TEST(IsolationCli, CrashHangAndLostDeviceCostOnlyTheGuiltyCases) {
  const std::string json = tmp("isolation_faults.json");
  const auto r =
      runCommand("XDG_RUNTIME_DIR=/tmp GCNPROBE_TEST_FAULT='crash:" + std::string(kCrash) +
                 ";hang:" + kHang + ";device-lost:" + kLost + "' " + GCNPROBE_BINARY +
                 " run --suite storage --isolate on --batch-timeout 3 --json " + json + " 2>&1");
  EXPECT_EQ(r.exit, 1) << r.out;
  const auto got = records(json);
  expectOnlyGuiltyLose(got, {{kCrash, "crash"}, {kHang, "timeout"}, {kLost, "crash"}});
  // Each says what happened: the signal, the timeout, the VkResult.
  EXPECT_NE(got.at(kCrash)["reason"].get<std::string>().find("signal 6"), std::string::npos)
      << got.at(kCrash)["reason"];
  EXPECT_NE(got.at(kHang)["reason"].get<std::string>().find("batch timeout of 3 s"),
            std::string::npos)
      << got.at(kHang)["reason"];
  EXPECT_NE(got.at(kLost)["reason"].get<std::string>().find("VK_ERROR_DEVICE_LOST"),
            std::string::npos)
      << got.at(kLost)["reason"];
  const std::string summary = got.at("(summary)").get<std::string>();
  EXPECT_NE(summary.find(", 2 crash, 1 timeout"), std::string::npos) << summary;
}

TEST(IsolationCli, InProcessALostDeviceIsRecreatedAndOnlyItsCaseLoses) {
  const std::string json = tmp("isolation_lost.json");
  const auto r = runCommand(
      "XDG_RUNTIME_DIR=/tmp GCNPROBE_TEST_FAULT='device-lost:" + std::string(kLost) + "' " +
      GCNPROBE_BINARY + " run --suite storage --isolate off --json " + json + " 2>&1");
  EXPECT_EQ(r.exit, 1) << r.out;
  const auto got = records(json);
  expectOnlyGuiltyLose(got, {{kLost, "crash"}});
  EXPECT_NE(got.at(kLost)["reason"].get<std::string>().find("re-created"), std::string::npos)
      << got.at(kLost)["reason"];
}

// A lost device is recovered in every route that runs here: one case of each (texel, storage,
// atomic through an SSBO and a texel view, vertex) loses the device, in-process; each gets
// crash with the re-creation in its reason, and every other case of the default suites keeps
// the verdict a clean run gives it.
TEST(IsolationCli, InProcessALostDeviceIsRecoveredInEachRoute) {
  const std::string cleanJson = tmp("isolation_routes_clean.json");
  ASSERT_EQ(runGcnprobe("run --isolate off --json " + cleanJson).exit, 0);
  const auto clean = records(cleanJson);
  const std::vector<std::string> guilty = {
      "texel.uniform.r8_unorm.load_format_x", "storage.store_dword.offset0",
      "atomic.ssbo.atomic_add.offset0", "atomic.texel.atomic_add",
      "vertex.r8_unorm.tbuffer_load_format_x.packed"};
  std::string faults;
  for (const std::string& g : guilty) {
    ASSERT_TRUE(clean.count(g)) << g << " is no case of the default suites";
    ASSERT_EQ(clean.at(g)["verdict"], "pass") << g;
    faults += (faults.empty() ? "" : ";") + std::string("device-lost:") + g;
  }
  const std::string json = tmp("isolation_routes_lost.json");
  const auto r = runCommand("XDG_RUNTIME_DIR=/tmp GCNPROBE_TEST_FAULT='" + faults + "' " +
                            GCNPROBE_BINARY + " run --isolate off --json " + json + " 2>&1");
  EXPECT_EQ(r.exit, 1) << r.out;
  const auto got = records(json);
  ASSERT_EQ(got.size(), clean.size());
  for (const auto& [name, record] : clean) {
    if (name == "(summary)") continue;
    ASSERT_TRUE(got.count(name)) << name;
    const bool isGuilty = std::find(guilty.begin(), guilty.end(), name) != guilty.end();
    if (isGuilty) {
      EXPECT_EQ(got.at(name)["verdict"], "crash") << name;
      EXPECT_NE(got.at(name)["reason"].get<std::string>().find("re-created"), std::string::npos)
          << name << ": " << got.at(name)["reason"];
    } else {
      EXPECT_EQ(got.at(name)["verdict"], record["verdict"]) << name;
    }
  }
}

TEST(IsolationCli, ADeviceLostBeyondRecoveryExitsThreeKeepingFinishedCases) {
  // Every store loses the device: in-process that is more re-creations than the run allows.
  const std::string json = tmp("isolation_beyond.json");
  const auto r = runCommand("XDG_RUNTIME_DIR=/tmp GCNPROBE_TEST_FAULT='device-lost:storage.*' " +
                            std::string(GCNPROBE_BINARY) +
                            " run --suite storage --isolate off --json " + json + " 2>&1");
  EXPECT_EQ(r.exit, 3) << r.out;
  EXPECT_NE(r.out.find("the device was lost"), std::string::npos) << r.out;
  std::ifstream in(json);
  const nlohmann::json doc = nlohmann::json::parse(in);  // closed, parses
  EXPECT_GT(doc["cases"].size(), 0u);
  for (const auto& c : doc["cases"])
    EXPECT_EQ(c["verdict"], "crash") << c["name"];
}

TEST(IsolationCli, SigtermHalfWayKeepsEveryFinishedCase) {
  const std::string json = tmp("isolation_sigterm.json");
  std::remove(json.c_str());
  // until a dispatched case's record reached the parent's report
  const int rc = gcnprobe::test_support::terminateWhen(
      "GCNPROBE_TEST_BATCH_DELAY_MS=200", "run --isolate on --suite texel --json " + json,
      "grep -q '\"duration_s\":[0-9.e-]*[1-9]' " + json + " 2>/dev/null",
      tmp("isolation_sigterm.sh"));
  EXPECT_EQ(rc, 128 + 15);
  std::ifstream in(json);
  const nlohmann::json doc = nlohmann::json::parse(in);
  const std::string summary = doc["summary"].get<std::string>();
  EXPECT_EQ(summary.rfind("interrupted by signal 15", 0), 0u) << summary;
  EXPECT_NE(summary.find(" not run"), std::string::npos) << summary;
  unsigned passed = 0;
  for (const auto& c : doc["cases"])
    passed += c["verdict"] == "pass";
  EXPECT_GT(passed, 0u);
  EXPECT_NE(summary.find(": " + std::to_string(passed) + " passed"), std::string::npos) << summary;
}

TEST(IsolationCli, ProgressOnATerminalOnly) {
  // util-linux `script` gives the run a terminal.
  const auto onTty =
      runCommand("XDG_RUNTIME_DIR=/tmp script -qec '" + std::string(GCNPROBE_BINARY) +
                 " run --suite storage' /dev/null 2>&1");
  EXPECT_EQ(onTty.exit, 0) << onTty.out;
  EXPECT_NE(onTty.out.find("[28/28] 0 failing"), std::string::npos) << onTty.out;
  const auto quiet =
      runCommand("XDG_RUNTIME_DIR=/tmp script -qec '" + std::string(GCNPROBE_BINARY) +
                 " run --suite storage --quiet' /dev/null 2>&1");
  EXPECT_EQ(quiet.out.find("failing"), std::string::npos) << quiet.out;
  const auto piped = runGcnprobe("run --suite storage");  // stderr is a pipe
  EXPECT_EQ(piped.out.find("failing"), std::string::npos) << piped.out;
}

TEST(Progress, LineSaysDoneTotalFailuresAndTimeLeft) {
  EXPECT_EQ(gcnprobe::app::Progress::line(3, 10, 1, 4.2), "[3/10] 1 failing, ~5 s left");
  EXPECT_EQ(gcnprobe::app::Progress::line(0, 10, 0, -1), "[0/10] 0 failing");
}

}  // namespace isolation_cli_test
