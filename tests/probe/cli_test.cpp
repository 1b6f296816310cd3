// `gcnprobe ref` and `gcnprobe probe` run as a user runs them (GCNPROBE_BINARY).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli.h"

namespace cli_test {

using gcnprobe::test_support::CliRun;

CliRun runCli(const std::string& args) {
  return gcnprobe::test_support::runGcnprobe(args);
}

// Runs `gcnprobe <args> -` with `text` on standard input.
CliRun runCliStdin(const std::string& args, const std::string& text) {
  // One file per test: ctest runs several tests of this program at once.
  const std::string path = testing::TempDir() + "/gcnprobe_cli_stdin_" +
                           testing::UnitTest::GetInstance()->current_test_info()->name() + ".probe";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return {};
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  return runCli(args + " - < " + path);
}

const std::string kStraddle = std::string(GCNPROBE_SOURCE_DIR) + "/probes/raw-straddle.probe";

// Default gfx8 policy straddle=start (CLRX GcnMemHandling): lane 1 reads dwords 1 and 2 of the
// pattern 0x11111111 * (k + 1).
TEST(RefCli, PrintsLanesUnderTheDefaultPolicies) {
  const CliRun r = runCli("ref " + kStraddle);
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("lane  1: v1=0x22222222 v2=0x33333333"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0x1008+4 in"), std::string::npos) << r.out;
}

// --policy straddle=whole (AMD RDNA3 ISA): the dword at byte 8 = NUM_RECORDS is out of range.
TEST(RefCli, PolicyOverrideChangesThePrediction) {
  const CliRun r = runCli("ref " + kStraddle + " --policy straddle=whole --json");
  ASSERT_EQ(r.exit, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["result"]["lanes"][1]["vdata"][1], 0);
  EXPECT_EQ(j["result"]["lanes"][1]["accesses"][1]["in_range"], false);
  EXPECT_EQ(j["expect"]["given"], false);
}

TEST(RefCli, ReadsStandardInputAndFailsOnUnmetExpect) {
  const CliRun r = runCliStdin("ref",
                               "gen = gfx8\n"
                               "inst = buffer_load_dword v1, v0, s[4:7], 0 offen\n"
                               "vsharp = base=0x1000 num_records=16 dfmt=32 nfmt=uint\n"
                               "lanes = 2\n"
                               "v0 = lane * 4\n"
                               "expect v1 = 5\n");
  EXPECT_EQ(r.exit, 1) << r.out;
  EXPECT_NE(r.out.find("expect: FAILS"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("<stdin>:6:"), std::string::npos) << r.out;
}

TEST(RefCli, MalformedFileIsAnErrorWithFileAndLine) {
  const CliRun r = runCliStdin("ref",
                               "gen = gfx8\n"
                               "lanes = many\n");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("<stdin>:2:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unknown name 'many'"), std::string::npos) << r.out;
}

TEST(ProbeCli, ShowsEveryPredictionAndTheDevice) {
  const CliRun r = runCli("probe " + kStraddle);
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("policy points that matter: straddle"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 distinct predictions"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("B: v1=0x22222222 v2=0x0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("device: "), std::string::npos) << r.out;
}

TEST(ProbeCli, JsonListsPredictionsPerFile) {
  const CliRun r = runCli("probe --json " + kStraddle + " " + std::string(GCNPROBE_SOURCE_DIR) +
                          "/probes/all-zero-vsharp.probe");
  ASSERT_EQ(r.exit, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["predictions"].size(), 2u);
  EXPECT_EQ(j[1]["expect"]["holds"], true);
}

}  // namespace cli_test
