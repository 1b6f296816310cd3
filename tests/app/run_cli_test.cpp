// `gcnprobe list` and `gcnprobe run` as a user runs them: the count line, the exit code,
// and a JSON report with the documented keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "harness/formats.h"
#include "tests/support/cli.h"

namespace run_cli_test {

using gcnprobe::test_support::CliRun;
using gcnprobe::test_support::runGcnprobe;

TEST(RunCli, ListPrintsNameAndInstruction) {
  const CliRun o = runGcnprobe("list --filter 'texel.uniform.r8g8b8a8_unorm.*'");
  EXPECT_EQ(o.exit, 0) << o.out;
  EXPECT_NE(o.out.find("texel.uniform.r8g8b8a8_unorm.load_format_xyzw  buffer_load_format_xyzw "
                       "v[1:4], v0, s[4:7], 0 idxen"),
            std::string::npos)
      << o.out;
}

// `list --json`: the same cases as the text listing, in its order, with their instructions.
TEST(RunCli, ListJsonIsTheTextListing) {
  const CliRun text = runGcnprobe("list --suite storage");
  const CliRun json = runGcnprobe("list --suite storage --json");
  ASSERT_EQ(text.exit, 0);
  ASSERT_EQ(json.exit, 0) << json.out;
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  std::istringstream lines(text.out);
  std::size_t k = 0;
  for (std::string line; std::getline(lines, line); ++k) {
    ASSERT_LT(k, doc.size());
    EXPECT_EQ(line,
              doc[k]["name"].get<std::string>() + "  " + doc[k]["instruction"].get<std::string>());
    EXPECT_EQ(doc[k]["suite"], "storage");
  }
  EXPECT_EQ(k, doc.size());
  EXPECT_GT(k, 20u);
}

TEST(RunCli, RunPrintsCountLineAndWritesJson) {
  const std::string json = ::testing::TempDir() + "gcnprobe_run_cli.json";
  const CliRun o = runGcnprobe("run --filter 'texel.*.r8g8b8a8_u*.*' --json " + json);
  EXPECT_EQ(o.exit, 0) << o.out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      o.out, m, std::regex(R"(\n(\d+) passed, (\d+) failed, (\d+) unsupported\n$)")))
      << o.out;
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
    // The V# the case bound. Word 3 holds NUM_FORMAT in bits 12-14 and DATA_FORMAT in bits
    // 15-18 (AMD GCN3 ISA manual, buffer resource table); VK_FORMAT_R8G8B8A8_* is
    // BUF_DATA_FORMAT_8_8_8_8 = 10 (CLRX GcnOperands, Mesa ac_get_tbuffer_format).
    ASSERT_TRUE(r.contains("vsharp") && r["vsharp"].is_object()) << r["name"];
    unsigned w[4] = {};
    ASSERT_EQ(std::sscanf(r["vsharp"]["words"].get<std::string>().c_str(), "%8x %8x %8x %8x", &w[0],
                          &w[1], &w[2], &w[3]),
              4)
        << r["vsharp"];
    EXPECT_EQ((w[3] >> 15) & 15u, 10u) << r["name"] << ": " << r["vsharp"];
    const std::string name = r["name"];
    if (name.find("r8g8b8a8_unorm") != std::string::npos) {
      EXPECT_EQ((w[3] >> 12) & 7u, 0u) << "UNORM is NUM_FORMAT 0: " << r["vsharp"];
    }
    EXPECT_NE(r["vsharp"]["text"].get<std::string>().find("8_8_8_8"), std::string::npos)
        << r["vsharp"];
  }
  // r8g8b8a8_unorm, _uscaled and _uint: uniform + storage loads x, xyzw, plus one store each
  // (suite.cpp: loads of {1, components, 4} = {1, 4} for 4-component formats).
  EXPECT_EQ(records, 15u);
  EXPECT_EQ(doc["summary"], m[0].str().substr(1, m[0].str().size() - 2));
}

// A run left to choose its device that lands on a CPU implementation says so on standard
// error (a CI runner that lost its GPU); naming the device with --device is a choice, not a
// fallback. These machines have lavapipe only; on one with a GPU the note must not appear.
TEST(RunCli, AFallbackToACpuDeviceIsSaidOnStderr) {
  const CliRun devices = runGcnprobe("devices", gcnprobe::test_support::Stderr::Discard);
  const bool cpuOnly =
      devices.out.find("cpu") != std::string::npos && devices.out.find("-gpu") == std::string::npos;
  const CliRun quiet = gcnprobe::test_support::runCommand(
      "XDG_RUNTIME_DIR=/tmp " + std::string(GCNPROBE_BINARY) +
      " run --filter storage.load_dword.offset0 2>&1 >/dev/null");
  EXPECT_EQ(quiet.exit, 0) << quiet.out;
  if (cpuOnly) {
    EXPECT_NE(quiet.out.find("gcnprobe: note: no GPU chosen: running on "), std::string::npos)
        << quiet.out;
    EXPECT_NE(quiet.out.find("(cpu), profile portable"), std::string::npos) << quiet.out;
  } else {
    EXPECT_EQ(quiet.out.find("no GPU chosen"), std::string::npos) << quiet.out;
  }
  const CliRun chosen = gcnprobe::test_support::runCommand(
      "XDG_RUNTIME_DIR=/tmp " + std::string(GCNPROBE_BINARY) +
      " run --device 0 --filter storage.load_dword.offset0 2>&1 >/dev/null");
  EXPECT_EQ(chosen.out.find("no GPU chosen"), std::string::npos) << chosen.out;
}

// A long failure list stays readable: --details N prints the component lines of the first N
// failing cases, 8 at most each, then says how many more there are; --verbose prints all.
// Lavapipe converts UNORM8 with a float reciprocal, so under the exact gfx9 profile the R8_UNORM
// load fails on many lanes (on a device that converts exactly it passes: nothing to check).
TEST(RunCli, DetailsLimitsTheComponentLinesOfFailures) {
  const std::string run =
      "run --profile gfx9 --filter texel.uniform.r8_unorm.load_format_x --filter "
      "texel.uniform.r8g8_unorm.load_format_x";
  const auto count = [](const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
      ++n;
    return n;
  };
  const CliRun verbose = runGcnprobe(run + " --verbose");
  const std::size_t all = count(verbose.out, "MISMATCH");
  if (verbose.exit == 0) GTEST_SKIP() << "both cases pass on this device";
  ASSERT_EQ(verbose.exit, 1) << verbose.out;
  EXPECT_EQ(count(verbose.out, "more component line(s)"), 0u) << verbose.out;
  const CliRun one = runGcnprobe(run + " --details 1");
  const std::size_t shown = count(one.out, "MISMATCH");
  EXPECT_LE(shown, 8u) << one.out;
  EXPECT_GE(shown, 1u) << one.out;
  const CliRun none = runGcnprobe(run + " --details 0");
  EXPECT_EQ(count(none.out, "MISMATCH"), 0u) << none.out;
  EXPECT_EQ(count(none.out, "more component line(s)"), count(none.out, "fail  texel.")) << none.out;
  // What is left out is counted: shown + the "N more" numbers = every mismatch.
  std::size_t more = 0;
  for (std::size_t at = one.out.find("    ... "); at != std::string::npos;
       at = one.out.find("    ... ", at + 1))
    more += std::stoul(one.out.substr(at + 8));
  EXPECT_EQ(shown + more, all) << one.out;
}

TEST(RunCli, UnknownSuiteAndEmptyFilterAreErrors) {
  EXPECT_EQ(runGcnprobe("list --suite nosuch").exit, 2);  // bad input, not a crash
  const CliRun o = runGcnprobe("run --filter 'nothing.matches.*'");
  EXPECT_EQ(o.exit, 2);
  EXPECT_NE(o.out.find("no case matches"), std::string::npos) << o.out;
}

// `gcnprobe formats --json`: the documented keys, with V# fields checked against CLRX
// GcnMemHandling (BUF_DATA_FORMAT 8_8_8_8 = 10, 8 = 1, 16 = 2, 32_32 = 11; BUF_NUM_FORMAT UNORM =
// 0, UINT = 4; DST_SEL X..W = 4..7, 1 = ONE) and the Vulkan spec's mandatory texel-buffer support
// of R8G8B8A8_UNORM (uniform and storage).
TEST(FormatsCli, JsonHasTheDocumentedFields) {
  const CliRun o = runGcnprobe("formats --json", gcnprobe::test_support::Stderr::Discard);
  ASSERT_EQ(o.exit, 0) << o.out;
  const nlohmann::json doc = nlohmann::json::parse(o.out);
  ASSERT_TRUE(doc.is_array());
  std::map<std::string, nlohmann::json> rows;
  for (const auto& r : doc) {
    for (const char* key : {"vk_format", "dfmt", "nfmt", "dst_sel", "stride", "uniform_texel",
                            "storage_texel", "texel_model", "channel_dfmt", "srgb"})
      ASSERT_TRUE(r.contains(key)) << key << " missing in " << r.dump();
    EXPECT_TRUE(rows.emplace(r["vk_format"].get<std::string>(), r).second)
        << "duplicate " << r["vk_format"];
  }
  const nlohmann::json& rgba8 = rows.at("VK_FORMAT_R8G8B8A8_UNORM");
  EXPECT_EQ(rgba8["dfmt"], 10);
  EXPECT_EQ(rgba8["nfmt"], 0);
  EXPECT_EQ(rgba8["dst_sel"], nlohmann::json::array({4, 5, 6, 7}));
  EXPECT_EQ(rgba8["stride"], 4);
  EXPECT_EQ(rgba8["uniform_texel"], true);
  EXPECT_EQ(rgba8["storage_texel"], true);
  EXPECT_EQ(rgba8["texel_model"], "single-load");
  EXPECT_EQ(rows.at("VK_FORMAT_B8G8R8A8_UNORM")["dst_sel"], nlohmann::json::array({6, 5, 4, 7}));
  EXPECT_EQ(rows.at("VK_FORMAT_R8G8B8_UNORM")["texel_model"], "per-channel");
  EXPECT_EQ(rows.at("VK_FORMAT_R8G8B8_UNORM")["channel_dfmt"], 1);
  EXPECT_EQ(rows.at("VK_FORMAT_R16G16B16_SFLOAT")["channel_dfmt"], 2);
  EXPECT_EQ(rows.at("VK_FORMAT_R8G8B8A8_SRGB")["srgb"], true);
  EXPECT_EQ(rows.at("VK_FORMAT_R8G8B8A8_SRGB")["nfmt"], 0);
  EXPECT_EQ(rows.at("VK_FORMAT_R64_UINT")["dfmt"], 11);
  EXPECT_EQ(rows.at("VK_FORMAT_R64_UINT")["nfmt"], 4);
  EXPECT_EQ(rows.at("VK_FORMAT_R64_UINT")["texel_model"], "wide");
  EXPECT_EQ(rows.at("VK_FORMAT_R64G64_UINT")["texel_model"], "none");
}

// The numbers README.md and docs/run.md give for lavapipe are what the tool prints now: the
// default run's summary line and its per-suite passed/failed/unsupported, for the Mesa the
// test runs on (22.3.6 or 25.0.7; another version has no numbers written down).
TEST(RunCli, ReadmeNumbersAreWhatTheToolPrints) {
  const std::string json = ::testing::TempDir() + "gcnprobe_readme_numbers.json";
  const CliRun o = runGcnprobe("run --quiet --json " + json);
  ASSERT_EQ(o.exit, 0) << o.out;
  std::ifstream in(json);
  const nlohmann::json doc = nlohmann::json::parse(in);
  const std::string driver = doc.value("driver_version", "");
  if (doc.value("driver", "") != "llvmpipe") GTEST_SKIP() << "not lavapipe";
  const bool mesa22 = driver.rfind("Mesa 22.3.6", 0) == 0;
  const bool mesa25 = driver.rfind("Mesa 25.0.7", 0) == 0;
  if (!mesa22 && !mesa25) GTEST_SKIP() << driver << ": no numbers written down for it";
  std::map<std::string, std::array<int, 3>> counts;
  std::array<int, 3> total{};
  for (const nlohmann::json& c : doc["cases"]) {
    const std::string v = c["verdict"].get<std::string>();
    const int k = v == "pass" ? 0 : v == "fail" ? 1 : v == "unsupported" ? 2 : -1;
    ASSERT_GE(k, 0) << c["name"] << " " << v;
    ++counts[c["suite"].get<std::string>()][static_cast<std::size_t>(k)];
    ++total[static_cast<std::size_t>(k)];
  }
  const auto readText = [](const std::string& path) {
    std::ifstream f(std::string(GCNPROBE_SOURCE_DIR) + "/" + path);
    std::stringstream t;
    t << f.rdbuf();
    std::string s = t.str();
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s;
  };
  const auto triple = [](const std::array<int, 3>& a) {
    return std::to_string(a[0]) + "/" + std::to_string(a[1]) + "/" + std::to_string(a[2]);
  };
  const auto line = [](const std::array<int, 3>& a) {
    return std::to_string(a[0]) + " passed, " + std::to_string(a[1]) + " failed, " +
           std::to_string(a[2]) + " unsupported";
  };
  const std::string readme = readText("README.md");
  const std::size_t at = readme.find("On lavapipe (Mesa 22.3.6) the suites give");
  const std::size_t at25 = readme.find("on lavapipe 25.0.7", at);
  ASSERT_NE(at, std::string::npos);
  ASSERT_NE(at25, std::string::npos);
  const std::string sentence = mesa22 ? readme.substr(at, at25 - at)
                                      : readme.substr(at25, readme.find('.', at25 + 20) - at25);
  for (const char* suite : {"texel", "storage", "atomic", "vertex"})
    EXPECT_NE(sentence.find(std::string(suite) + " " + triple(counts[suite])), std::string::npos)
        << suite << " " << triple(counts[suite]) << " is not in README's: " << sentence;
  if (mesa22) {
    EXPECT_NE(readme.find(" " + line(total) + " ```"), std::string::npos)
        << line(total) << " is not README's example summary";
    EXPECT_NE(readText("docs/run.md")
                  .find("Whole texel suite on lavapipe 22.3.6, portable: `" +
                        line(counts["texel"]) + "`"),
              std::string::npos)
        << line(counts["texel"]);
  } else {
    EXPECT_NE(sentence.find("in all " + line(total)), std::string::npos)
        << line(total) << " is not in README's: " << sentence;
  }
}

// The whole texel suite on the default device: the JSON report lists the supported
// texel-buffer formats no case proved. On lavapipe only the 64-bit formats may be there
// (no shader can read them without shaderImageInt64Atomics, or they have no GCN model);
// every other format it supports as a texel buffer must have a passing case.
TEST(RunCli, TexelSuiteReportsItsCoverageGaps) {
  const std::string json = ::testing::TempDir() + "gcnprobe_texel_gaps.json";
  const CliRun o = runGcnprobe("run --suite texel --json " + json);
  EXPECT_EQ(o.exit, 0) << o.out;
  std::ifstream in(json);
  ASSERT_TRUE(in.good());
  const nlohmann::json doc = nlohmann::json::parse(in);
  ASSERT_TRUE(doc.contains("texel_gaps")) << doc.dump().substr(0, 200);
  ASSERT_TRUE(doc["texel_gaps"].is_array());
  if (o.out.find("llvmpipe") != std::string::npos) {
    // lavapipe offers R64_UINT as a uniform texel buffer but cannot read it (README).
    EXPECT_NE(o.out.find("VK_FORMAT_R64_UINT uniform-texel: unsupported"), std::string::npos)
        << o.out;
    // lavapipe (22.3 and 25) offers 5-6-5 as a uniform texel buffer; GCN has no such buffer
    // DATA_FORMAT and the table no row: listed, not silently untested.
    EXPECT_NE(o.out.find("VK_FORMAT_R5G6B5_UNORM_PACK16 uniform-texel: not modelled"),
              std::string::npos)
        << o.out;
    EXPECT_FALSE(doc["texel_gaps"].empty());
  }
  for (const auto& g : doc["texel_gaps"]) {
    const std::string format = g["format"].get<std::string>();
    EXPECT_FALSE(g["reason"].get<std::string>().empty()) << format;
    EXPECT_NE(o.out.find(format), std::string::npos) << "gap not printed: " << format;
    // On lavapipe every gap is one of the documented kinds (README, docs/run.md): a 64-bit
    // texel, or a format with no GCN buffer data format (5-6-5, 5-5-5-1, 4-4-4-4, E5B9G9R9:
    // no table row, or A1B5G5R5's row without a model).
    if (o.out.find("llvmpipe") != std::string::npos) {
      const std::string reason = g["reason"].get<std::string>();
      const bool known = format.find("_R64") != std::string::npos ||
                         reason.rfind("not modelled", 0) == 0 ||
                         reason.find("5-5-5-1") != std::string::npos;
      EXPECT_TRUE(known) << g.dump();
      if (reason.rfind("not modelled", 0) == 0) {
        for (const auto& row : gcnprobe::vk::allBufferFormats())
          EXPECT_NE(row.name, format) << "a table row reported as not modelled";
      }
    }
  }
  // A filtered run proves nothing about whole formats: no gap list.
  const CliRun f =
      runGcnprobe("run --filter 'texel.uniform.r8_unorm.*' --json " + json + ".filtered");
  std::ifstream fin(json + ".filtered");
  ASSERT_TRUE(fin.good());
  EXPECT_FALSE(nlohmann::json::parse(fin).contains("texel_gaps"));
}

}  // namespace run_cli_test
