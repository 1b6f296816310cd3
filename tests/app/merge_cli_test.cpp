// `gcnprobe merge`: three shard processes merged give the report of one unsharded run
// (verdicts, list order, summary), and what is not the shards of one run is refused with a
// message naming the file.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/cli.h"

namespace merge_cli_test {

using gcnprobe::test_support::runGcnprobe;
using gcnprobe::test_support::Stderr;

std::string tmp(const std::string& name) {
  return ::testing::TempDir() + "merge_" + name;
}

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

nlohmann::json readJson(const std::string& path) {
  return nlohmann::json::parse(readText(path));
}

std::vector<std::pair<std::string, std::string>> verdicts(const nlohmann::json& doc) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& c : doc["cases"])
    out.emplace_back(c["name"].get<std::string>(), c["verdict"].get<std::string>());
  return out;
}

// The default selection (every suite but the disputed one): hundreds of cases, seconds per run
// on lavapipe.
TEST(MergeCli, ThreeShardsMergedEqualOneRun) {
  const std::string all = tmp("all.json");
  const auto one = runGcnprobe("run --json " + all);
  ASSERT_EQ(one.exit, 0) << one.out;
  const nlohmann::json whole = readJson(all);
  ASSERT_GT(whole["cases"].size(), 300u);
  std::string shards;
  for (int k = 2; k >= 0; --k) {  // given to merge in reverse: merge restores the order
    const std::string json = tmp("shard" + std::to_string(k) + ".json");
    const auto r = runGcnprobe("run --shard " + std::to_string(k) + "/3 --json " + json);
    ASSERT_EQ(r.exit, 0) << r.out;
    shards += " " + json;
  }
  const std::string merged = tmp("merged.json");
  const auto m = runGcnprobe("merge" + shards + " -o " + merged);
  ASSERT_EQ(m.exit, 0) << m.out;
  const nlohmann::json doc = readJson(merged);
  // Same cases, same verdicts, same summary.
  const auto mergedVerdicts = verdicts(doc), wholeVerdicts = verdicts(whole);
  EXPECT_EQ(mergedVerdicts.size(), wholeVerdicts.size());
  using Verdicts = std::map<std::string, std::string>;
  EXPECT_EQ(Verdicts(mergedVerdicts.begin(), mergedVerdicts.end()),
            Verdicts(wholeVerdicts.begin(), wholeVerdicts.end()));
  // In list order: the order `gcnprobe list` prints, which the run follows when it selects
  // (its report lists the cases as they finish: decided ones first, then batch by batch).
  const auto list = runGcnprobe("list", Stderr::Discard);
  ASSERT_EQ(list.exit, 0);
  std::vector<std::string> listed, order;
  std::istringstream lines(list.out);
  for (std::string line; std::getline(lines, line);)
    listed.push_back(line.substr(0, line.find("  ")));
  for (const auto& [name, verdict] : mergedVerdicts)
    order.push_back(name);
  EXPECT_EQ(order, listed);
  EXPECT_EQ(doc["summary"], whole["summary"]);
  EXPECT_NE(m.out.find(whole["summary"].get<std::string>()), std::string::npos) << m.out;
  // The header: the run's, unsharded, saying where it came from.
  EXPECT_EQ(doc["shard"], "");
  for (const char* key : {"driver", "driver_version", "device", "profile", "gcnprobe_version"})
    EXPECT_EQ(doc[key], whole[key]) << key;
  ASSERT_EQ(doc["merged_from"].size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(doc["merged_from"][k]["shard"], std::to_string(k) + "/3");
    EXPECT_EQ(doc["merged_from"][k]["file"], tmp("shard" + std::to_string(k) + ".json"));
  }
  // Each record is the one its shard wrote.
  std::map<std::string, nlohmann::json> written;
  for (int k = 0; k < 3; ++k) {
    const nlohmann::json shard = readJson(tmp("shard" + std::to_string(k) + ".json"));
    for (const auto& c : shard["cases"])
      written[c["name"].get<std::string>()] = c;
  }
  ASSERT_EQ(written.size(), doc["cases"].size());
  for (const auto& c : doc["cases"])
    EXPECT_EQ(c, written[c["name"].get<std::string>()]);
  // lavapipe shows no ISA: every digest is null, present.
  for (const auto& c : doc["cases"]) {
    ASSERT_TRUE(c.contains("isa_digest")) << c["name"];
    EXPECT_TRUE(c["isa_digest"].is_null()) << c["name"];
  }
  // The merged report is a report: gcnprobe reads it back (compare it with the whole run).
  const auto same = runGcnprobe("compare " + all + " " + merged);
  EXPECT_EQ(same.exit, 0) << same.out;
  EXPECT_NE(same.out.find("0 regressions, 0 fixes, 0 new cases, 0 removed cases"),
            std::string::npos)
      << same.out;
}

// Small shard reports written here, in the run's streamed shape.
std::string shardReport(const std::string& shard, const std::vector<std::string>& names,
                        const std::string& driverVersion = "Mesa 22.3.6") {
  std::string s = "{\n\"driver\": \"llvmpipe\",\n\"driver_version\": \"" + driverVersion +
                  "\",\n\"gcnprobe_version\": \"0.1.0\",\n\"shard\": \"" + shard +
                  "\",\n\"profile\": \"portable\",\n\"device\": \"llvmpipe\",\n\"cases\": [";
  for (std::size_t k = 0; k < names.size(); ++k)
    s += std::string(k == 0 ? "\n" : ",\n") + "{\"name\": \"" + names[k] +
         "\", \"verdict\": \"pass\", \"isa_digest\": null}";
  return s + "\n],\n\"summary\": \"" + std::to_string(names.size()) +
         " passed, 0 failed, 0 unsupported\"\n}\n";
}

struct Files {
  std::string s0 = tmp("e0.json"), s1 = tmp("e1.json"), s2 = tmp("e2.json");
  Files() {
    writeText(s0, shardReport("0/3", {"t.a", "t.d"}));
    writeText(s1, shardReport("1/3", {"t.b"}));
    writeText(s2, shardReport("2/3", {"t.c"}));
  }
};

// The CI reports of a sharded run come from the merge: --csv has one line per case with the
// status the shards gave it, --failures-csv only the failing one, --junit one testcase per case.
TEST(MergeCli, WritesTheMergedRunsCiReports) {
  std::string shards;
  for (int k = 0; k < 2; ++k) {
    const std::string json = tmp(std::string("ci").append(std::to_string(k)).append(".json"));
    (void)gcnprobe::test_support::runCommand(
        "XDG_RUNTIME_DIR=/tmp GCNPROBE_TEST_FAULT=fail:storage.load_dword.offset0 " +
        std::string(GCNPROBE_BINARY) + " run --suite storage --shard " + std::to_string(k) +
        "/2 --json " + json + " >/dev/null 2>&1");
    shards += " " + json;
  }
  const std::string csv = tmp("ci.csv"), failures = tmp("ci-failures.csv"), junit = tmp("ci.xml");
  const auto m = runGcnprobe("merge" + shards + " -o " + tmp("ci-merged.json") + " --csv " + csv +
                             " --failures-csv " + failures + " --junit " + junit);
  ASSERT_EQ(m.exit, 0) << m.out;
  const auto lines = [](const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);)
      out.push_back(l);
    return out;
  };
  const std::vector<std::string> all = lines(csv);
  const auto listed = runGcnprobe("list --suite storage", Stderr::Discard);
  std::size_t cases = 0;
  for (char ch : listed.out)
    cases += ch == '\n';
  EXPECT_EQ(all.size(), cases);
  std::size_t fails = 0;
  for (const std::string& l : all)
    fails += l.find(",Fail,") != std::string::npos;
  EXPECT_EQ(fails, 1u);
  const std::vector<std::string> failing = lines(failures);
  ASSERT_EQ(failing.size(), 1u);
  EXPECT_EQ(failing[0].rfind("storage.load_dword.offset0,Fail,", 0), 0u) << failing[0];
  std::ifstream xml(junit);
  const std::string doc((std::istreambuf_iterator<char>(xml)), std::istreambuf_iterator<char>());
  std::size_t testcases = 0;
  for (std::size_t at = doc.find("<testcase "); at != std::string::npos;
       at = doc.find("<testcase ", at + 1))
    ++testcases;
  EXPECT_EQ(testcases, cases);
  EXPECT_NE(doc.find("<failure"), std::string::npos);
}

TEST(MergeCli, HandWrittenShardsMerge) {
  const Files f;
  const std::string out = tmp("e_out.json");
  const auto r = runGcnprobe("merge " + f.s1 + " " + f.s2 + " " + f.s0 + " --output " + out);
  ASSERT_EQ(r.exit, 0) << r.out;
  const nlohmann::json doc = readJson(out);
  EXPECT_EQ(verdicts(doc),
            (std::vector<std::pair<std::string, std::string>>{
                {"t.a", "pass"}, {"t.b", "pass"}, {"t.c", "pass"}, {"t.d", "pass"}}));
  EXPECT_EQ(doc["summary"], "4 passed, 0 failed, 0 unsupported");
}

TEST(MergeCli, OverlappingShardsExitTwo) {
  const Files f;
  const std::string dup = tmp("e_dup.json");
  writeText(dup, shardReport("2/3", {"t.b"}));  // t.b is shard 1's
  const auto r = runGcnprobe("merge " + f.s0 + " " + f.s1 + " " + dup + " -o " + tmp("x.json"));
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("case t.b is in both " + f.s1 + " and " + dup), std::string::npos) << r.out;
}

TEST(MergeCli, MissingShardExitsTwo) {
  const Files f;
  const auto r = runGcnprobe("merge " + f.s0 + " " + f.s2 + " -o " + tmp("x.json"));
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find("shard 1/3 is missing"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(f.s0), std::string::npos) << r.out;
}

TEST(MergeCli, MismatchedHeadersExitTwo) {
  const Files f;
  const std::string other = tmp("e_mesa25.json");
  writeText(other, shardReport("1/3", {"t.b"}, "Mesa 25.0.7"));
  const auto r = runGcnprobe("merge " + f.s0 + " " + other + " " + f.s2 + " -o " + tmp("x.json"));
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(
      r.out.find("the headers of " + f.s0 + " and " + other + " disagree on \"driver_version\""),
      std::string::npos)
      << r.out;
}

TEST(MergeCli, TruncatedInputExitsTwoUnlessAllowed) {
  const Files f;
  std::string text = readText(f.s0);
  text.resize(text.find("\n],"));  // the shard's writer died after its records
  const std::string cut = tmp("e_cut.json");
  writeText(cut, text);
  const std::string out = tmp("e_cut_out.json");
  const auto r = runGcnprobe("merge " + cut + " " + f.s1 + " " + f.s2 + " -o " + out);
  EXPECT_EQ(r.exit, 2) << r.out;
  EXPECT_NE(r.out.find(cut + ": incomplete"), std::string::npos) << r.out;
  const auto allowed =
      runGcnprobe("merge --allow-incomplete " + cut + " " + f.s1 + " " + f.s2 + " -o " + out);
  ASSERT_EQ(allowed.exit, 0) << allowed.out;
  const nlohmann::json doc = readJson(out);
  EXPECT_EQ(doc["cases"].size(), 4u);
  EXPECT_NE(doc["summary"].get<std::string>().find("incomplete inputs: " + cut), std::string::npos);
}

TEST(MergeCli, UnwritableOutputExitsThree) {
  const Files f;
  const auto r = runGcnprobe("merge " + f.s0 + " " + f.s1 + " " + f.s2 + " -o /dev/full");
  EXPECT_EQ(r.exit, 3) << r.out;
  EXPECT_NE(r.out.find("/dev/full"), std::string::npos) << r.out;
}

}  // namespace merge_cli_test
