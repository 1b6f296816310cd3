// `gcnprobe fuzz` on the default device (lavapipe here): the same seed gives the same cases,
// every generated case is one a Vulkan route realises, and a case the device gets wrong
// (made wrong with the documented test hook GCNPROBE_TEST_FAULT) is minimised to one lane
// and written as a probe file that reproduces it, and that the probe command runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli.h"
#include "tests/support/radv.h"

namespace gcnprobe {
namespace fuzz_cli_test {

namespace fs = std::filesystem;

fs::path freshDir(const std::string& name) {
  const fs::path d = fs::path(::testing::TempDir()) / name;
  fs::remove_all(d);
  return d;
}

uint64_t count(const nlohmann::json& doc, const char* status) {
  return doc.at("counts").value(status, uint64_t{0});
}

TEST(FuzzCli, TheSameSeedGivesTheSameCasesAndEveryCaseIsRealisable) {
  const fs::path out = freshDir("fuzz-same");
  const std::string args = "fuzz --seed 11 --count 120 --json --out " + out.string();
  const auto a = test_support::runGcnprobe(args, test_support::Stderr::Discard);
  const auto b = test_support::runGcnprobe(args, test_support::Stderr::Discard);
  ASSERT_EQ(a.exit, 0) << a.out;
  ASSERT_EQ(b.exit, 0) << b.out;
  const auto da = nlohmann::json::parse(a.out), db = nlohmann::json::parse(b.out);
  EXPECT_EQ(da.at("cases"), 120u);
  EXPECT_EQ(da.at("counts"), db.at("counts"));
  EXPECT_EQ(da.at("kinds"), db.at("kinds"));
  EXPECT_EQ(count(da, "unrealisable"), 0u);  // Vulkan-legal by construction
  EXPECT_EQ(count(da, "error"), 0u);
  EXPECT_EQ(count(da, "mismatch"), 0u);
  EXPECT_GT(count(da, "exact") + count(da, "policy"), 60u);
  EXPECT_EQ(count(da, "exact") + count(da, "policy") + count(da, "unsupported"), 120u);
  EXPECT_FALSE(fs::exists(out));  // nothing to write
}

TEST(FuzzCli, AWrongResultIsMinimisedToAProbeFileThatReproducesIt) {
  const fs::path out = freshDir("fuzz-fault");
  const auto r = test_support::runCommand(
      "XDG_RUNTIME_DIR=/tmp GCNPROBE_TEST_FAULT='fail:*fuzz-3-*' " + std::string(GCNPROBE_BINARY) +
      " fuzz --seed 3 --count 12 --json --out " + out.string() + " 2>/dev/null");
  EXPECT_EQ(r.exit, 1) << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  const auto& findings = doc.at("findings");
  // Every case the device ran is wrong now, and each is a finding.
  EXPECT_EQ(findings.size(), count(doc, "mismatch"));
  EXPECT_EQ(count(doc, "exact") + count(doc, "policy"), 0u);
  ASSERT_GT(findings.size(), 0u);
  for (const auto& f : findings) {
    SCOPED_TRACE(f.dump());
    EXPECT_EQ(f.at("lanes"), 1u);
    // The fault fails a case whatever its data: every memory word and data value is zeroed.
    EXPECT_EQ(f.at("memory_words_nonzero"), 0u);
    EXPECT_EQ(f.at("data_values_nonzero"), 0u);
    EXPECT_TRUE(f.at("reproduces").get<bool>());
    const fs::path file = f.at("file").get<std::string>();
    ASSERT_TRUE(fs::exists(file));
    std::ifstream in(file);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("lanes = 1\n"), std::string::npos) << text;
    EXPECT_NE(text.find("gcnprobe fuzz --seed 3"), std::string::npos) << text;
  }
  // Without the fault the device gets the written case right: the probe command says so.
  const auto probe = test_support::runGcnprobe("probe " + findings[0].at("file").get<std::string>(),
                                               test_support::Stderr::Discard);
  EXPECT_EQ(probe.exit, 0) << probe.out;
  EXPECT_NE(probe.out.find("device matched: A (default)"), std::string::npos) << probe.out;
}

TEST(FuzzCli, ACompileOnlyDeviceIsRefusedWithTheReason) {
  if (const auto why = test_support::radvMissing()) GTEST_SKIP() << *why;
  const auto r = test_support::runGcnprobe("--radv-null tonga fuzz --count 3");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("no memory types"), std::string::npos) << r.out;
}

TEST(FuzzCli, ANegativeTimeIsAUsageError) {
  const auto r = test_support::runGcnprobe("fuzz --time -1");
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("--time"), std::string::npos) << r.out;
}

}  // namespace fuzz_cli_test
}  // namespace gcnprobe
