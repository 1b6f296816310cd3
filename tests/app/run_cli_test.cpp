// `gcnprobe list` and `gcnprobe run` as a user runs them: the count line, the exit code,
// and a JSON report with the documented keys.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

namespace {

struct Output {
  std::string text;
  int status = -1;
};

Output runTool(const std::string& args) {
  Output o;
  const std::string cmd =
      "XDG_RUNTIME_DIR=/tmp " + std::string(GCNPROBE_BINARY) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return o;
  std::array<char, 4096> buf;
  while (fgets(buf.data(), buf.size(), p) != nullptr)
    o.text += buf.data();
  o.status = pclose(p);
  return o;
}

TEST(RunCli, ListPrintsNameAndInstruction) {
  const Output o = runTool("list --filter 'texel.uniform.r8g8b8a8_unorm.*'");
  EXPECT_EQ(o.status, 0) << o.text;
  EXPECT_NE(o.text.find("texel.uniform.r8g8b8a8_unorm.load_format_xyzw  buffer_load_format_xyzw "
                        "v[1:4], v0, s[4:7], 0 idxen"),
            std::string::npos)
      << o.text;
}

TEST(RunCli, RunPrintsCountLineAndWritesJson) {
  const std::string json = ::testing::TempDir() + "gcnprobe_run_cli.json";
  const Output o = runTool("run --filter 'texel.*.r8g8b8a8_u*.*' --json " + json);
  EXPECT_EQ(o.status, 0) << o.text;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      o.text, m, std::regex(R"(\n(\d+) passed, (\d+) failed, (\d+) unsupported\n$)")))
      << o.text;
  EXPECT_GT(std::stoi(m[1]), 0);
  EXPECT_EQ(m[2], "0");

  std::ifstream in(json);
  ASSERT_TRUE(in.good());
  const nlohmann::json doc = nlohmann::json::parse(in);  // throws on invalid JSON
  ASSERT_TRUE(doc.contains("cases"));
  size_t records = 0;
  for (const auto& r : doc["cases"]) {
    ++records;
    for (const char* key :
         {"name", "instruction", "verdict", "reason", "profile", "device", "lanes"})
      EXPECT_TRUE(r.contains(key)) << key;
    EXPECT_EQ(r["profile"], "portable");
  }
  // r8g8b8a8_unorm, _uscaled and _uint: uniform + storage loads x, xyzw, plus one store each
  // (suite.cpp: loads of {1, components, 4} = {1, 4} for 4-component formats).
  EXPECT_EQ(records, 15u);
  EXPECT_EQ(doc["summary"], m[0].str().substr(1, m[0].str().size() - 2));
}

TEST(RunCli, UnknownSuiteAndEmptyFilterAreErrors) {
  EXPECT_NE(runTool("list --suite nosuch").status, 0);
  const Output o = runTool("run --filter 'nothing.matches.*'");
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.text.find("no case matches"), std::string::npos) << o.text;
}

}  // namespace
