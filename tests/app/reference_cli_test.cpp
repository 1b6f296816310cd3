// `gcnprobe policies` and `gcnprobe oracle`, the reference model's own commands. Policies: every
// disputed point once with its options and sources, and the defaults a chip gets. The expected
// defaults come from the record of the drivers and documents the points cite (docs/gcn-facts.md):
// Mesa undoes the unsigned 2-bit alpha of 2_10_10_10 vertex fetches on GFX8 and older except Stoney
// (ac_shader_util.c, alpha_adjust), so tonga's alpha2 is "unsigned" and Stoney's (gfx810) and
// Vega's "signed"; LLVM's AMDGPUUsage records the SOFFSET clamping bug of GFX6/7 only (soffset
// "wraps" there, "oob" from GFX8).
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tests/support/cli.h"

namespace policies_cli_test {

using gcnprobe::test_support::CliRun;
using gcnprobe::test_support::runGcnprobe;

nlohmann::json policiesJson(const std::string& args) {
  const CliRun r = runGcnprobe("policies --json " + args, gcnprobe::test_support::Stderr::Discard);
  EXPECT_EQ(r.exit, 0) << r.out;
  return nlohmann::json::parse(r.out, nullptr, false);
}

std::string defaultOf(const nlohmann::json& j, const std::string& point, const std::string& col) {
  for (const auto& p : j["policies"])
    if (p["name"] == point) return p["defaults"].value(col, std::string("(none)"));
  return "(no point)";
}

TEST(PoliciesCli, EveryPointOnceWithSourcedOptionsAndADefaultPerGeneration) {
  const nlohmann::json j = policiesJson("");
  ASSERT_TRUE(j.contains("policies")) << j.dump();
  std::set<std::string> names;
  for (const auto& p : j["policies"]) {
    EXPECT_TRUE(names.insert(p["name"].get<std::string>()).second) << p["name"];
    EXPECT_GE(p["options"].size(), 2u) << p["name"];
    std::set<std::string> options;
    for (const auto& o : p["options"]) {
      options.insert(o["name"].get<std::string>());
      EXPECT_FALSE(o["source"].get<std::string>().empty()) << p["name"] << " " << o["name"];
    }
    // Every generation has a default, and it is one of the point's options.
    for (const char* gen : {"gfx6", "gfx7", "gfx8", "gfx9", "gfx10", "gfx10.3", "gfx11"})
      EXPECT_TRUE(options.count(p["defaults"].value(gen, std::string())))
          << p["name"] << " " << gen;
  }
  EXPECT_GE(names.size(), 20u);
  for (const char* n : {"straddle", "soffset", "alpha2", "d16-keep"})
    EXPECT_TRUE(names.count(n)) << n;
}

TEST(PoliciesCli, AChipGetsItsOwnQuirksAndAGenerationItsDefaults) {
  EXPECT_EQ(defaultOf(policiesJson("--chip tonga"), "alpha2", "tonga"), "unsigned");
  EXPECT_EQ(defaultOf(policiesJson("--chip stoney"), "alpha2", "stoney"), "signed");
  EXPECT_EQ(defaultOf(policiesJson("--chip vega10"), "alpha2", "vega10"), "signed");
  EXPECT_EQ(defaultOf(policiesJson("--gen gfx7"), "soffset", "gfx7"), "wraps");
  EXPECT_EQ(defaultOf(policiesJson("--gen gfx8"), "soffset", "gfx8"), "oob");
  // The text names each default's column.
  const CliRun t = runGcnprobe("policies --chip tonga");
  EXPECT_EQ(t.exit, 0);
  EXPECT_NE(t.out.find("[default: tonga]"), std::string::npos) << t.out.substr(0, 400);
}

TEST(PoliciesCli, BadInputIsAnErrorNamingIt) {
  CliRun r = runGcnprobe("policies --gen gfx42");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.out.find("gfx42"), std::string::npos) << r.out;
  r = runGcnprobe("policies --gen gfx8 --chip tonga");
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.out.find("not both"), std::string::npos) << r.out;
}

}  // namespace policies_cli_test

namespace oracle_cli_test {

using gcnprobe::test_support::CliRun;
using gcnprobe::test_support::runCommand;

// `gcnprobe oracle` answers line for line and in order, a bad line with an error line, and the
// stream goes on after it.
TEST(OracleCli, OneAnswerPerLineInOrderThroughABadLine) {
  const std::string good =
      R"({"id":ID,"chip":"tonga","inst":"buffer_load_dword v1, v0, s[4:7], 0 offen",)"
      R"("vsharp":"base=0x1000 num_records=16","lanes":1,"memory":{"base":4096,"words":[ID]}})";
  std::string in;
  for (int i = 1; i <= 3; ++i) {
    std::string q = good;
    for (std::size_t at; (at = q.find("ID")) != std::string::npos;)
      q.replace(at, 2, std::to_string(i));
    in += (i == 2 ? std::string("{\"id\":2,\"chip\":") : q) + "\n";
  }
  const std::string file = ::testing::TempDir() + "oracle-in.jsonl";
  FILE* f = std::fopen(file.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs(in.c_str(), f);
  std::fclose(f);
  const CliRun r = runCommand(std::string(GCNPROBE_BINARY) + " oracle < " + file);
  EXPECT_EQ(r.exit, 0);
  std::vector<nlohmann::json> lines;
  std::size_t start = 0;
  for (std::size_t nl; (nl = r.out.find('\n', start)) != std::string::npos; start = nl + 1)
    lines.push_back(nlohmann::json::parse(r.out.substr(start, nl - start)));
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_TRUE(lines[0]["ok"]);
  EXPECT_EQ(lines[0]["lanes"][0]["vdata"][0], "0x1");
  EXPECT_FALSE(lines[1]["ok"]);  // not JSON: its id is not known
  EXPECT_TRUE(lines[2]["ok"]);
  EXPECT_EQ(lines[2]["id"], 3);
  EXPECT_EQ(lines[2]["lanes"][0]["vdata"][0], "0x3");
}

}  // namespace oracle_cli_test
