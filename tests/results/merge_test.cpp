// Merging shard reports and comparing two reports, on documents written here by hand in the
// shape `gcnprobe run --json` writes (docs/run.md).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "reference/error.h"
#include "results/compare.h"
#include "results/merge.h"
#include "results/results_file.h"

namespace merge_test {

using gcnprobe::results::ResultsFile;

struct Rec {
  Rec(std::string n, std::string v, std::string d = "")
      : name(std::move(n)), verdict(std::move(v)), digest(std::move(d)) {}
  std::string name, verdict;
  std::string digest;  // "" = null
};

std::string record(const Rec& r) {
  nlohmann::json j{
      {"name", r.name},
      {"suite", "storage"},
      {"verdict", r.verdict},
      {"reason", r.verdict == "pass" ? "" : "why " + r.name},
      {"lanes", nlohmann::json::array({{{"lane", 3}, {"actual_bits", "0x1"}}})},
      {"isa_digest", r.digest.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.digest)}};
  return j.dump();
}

// A report as the run streams it; `summary` "" leaves the document cut after the records.
std::string report(const std::string& shard, const std::vector<Rec>& recs,
                   const std::string& summary = "done", const std::string& driver = "radv",
                   const std::string& extra = "") {
  std::string s = "{\n\"driver\": \"" + driver +
                  "\",\n\"driver_version\": \"Mesa 25.0.7\",\n\"gcnprobe_version\": \"0.1.0\",\n"
                  "\"shard\": \"" +
                  shard + "\",\n\"start_time\": \"2026-01-0" +
                  (shard.empty() ? "1" : shard.substr(0, 1)) +
                  "T00:00:00Z\",\n\"profile\": \"gfx9\",\n\"device\": \"dev\",\n"
                  "\"expectation\": \"exact\",\n\"cases\": [";
  for (std::size_t k = 0; k < recs.size(); ++k)
    s += (k == 0 ? "\n" : ",\n") + record(recs[k]);
  if (summary.empty()) return s + ",\n";
  return s + "\n],\n" + extra + "\"summary\": \"" + summary + "\"\n}\n";
}

ResultsFile parse(const std::string& text, const std::string& source) {
  return gcnprobe::results::parseResults(text, source, true);
}

std::vector<std::string> names(const gcnprobe::results::MergedReport& m) {
  std::vector<std::string> out;
  for (const auto& r : m.records)
    out.push_back(r["name"].get<std::string>());
  return out;
}

std::string errorOf(const std::vector<ResultsFile>& in, bool allowIncomplete = false) {
  try {
    gcnprobe::results::mergeResults(in, allowIncomplete, {});
  } catch (const gcn::Error& e) {
    return e.what();
  }
  return "no error";
}

// A run that stopped cuts its document at the end; damage in the middle, or another kind of
// file, is said as such, with the line (and byte) where it is.
TEST(ResultsRead, CorruptTruncatedAndOtherFilesAreToldApart) {
  const std::string whole = report("", {{"storage.a", "pass"}, {"storage.b", "fail"}});
  const auto errorOf = [](const std::string& text, bool allowTruncated) {
    try {
      gcnprobe::results::parseResults(text, "r.json", allowTruncated);
    } catch (const gcn::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // Cut at the end: a run that did not finish (readable with allowTruncated).
  const std::string cut = whole.substr(0, whole.find("storage.b") + 5);
  EXPECT_NE(errorOf(cut, false).find("the document ends early"), std::string::npos);
  EXPECT_EQ(errorOf(cut, true), "no error");
  EXPECT_EQ(parse(cut, "r.json").cases.size(), 1u);
  // One damaged byte inside the first record, the rest intact: corrupt, with or without
  // allowTruncated, naming the line.
  std::string damaged = whole;
  damaged[damaged.find("\"storage.a\"")] = '#';
  const std::string e1 = errorOf(damaged, false), e2 = errorOf(damaged, true);
  EXPECT_NE(e1.find("the file is corrupt"), std::string::npos) << e1;
  EXPECT_NE(e2.find("the file is corrupt"), std::string::npos) << e2;
  EXPECT_NE(e2.find("r.json:11:"), std::string::npos) << e2;  // the first record's line
  // A CSV given where a results document belongs.
  const std::string csv = errorOf("storage.a,Pass,0.01\nstorage.b,Fail,0.02\n", true);
  EXPECT_NE(csv.find("not a gcnprobe results document"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("did not finish"), std::string::npos) << csv;
}

TEST(Merge, PutsRecordsInListOrder) {
  // List a b c d e f g, 3 shards: positions 0 3 6 / 1 4 / 2 5, each written in the order its
  // cases finished (decided cases first, then batch by batch).
  const std::vector<ResultsFile> in = {
      parse(report("2/3", {{"f", "unsupported"}, {"c", "pass"}}), "s2.json"),
      parse(report("0/3", {{"g", "pass"}, {"a", "pass"}, {"d", "fail"}}), "s0.json"),
      parse(report("1/3", {{"b", "crash"}, {"e", "pass"}}), "s1.json")};
  const std::vector<std::string> list = {"a", "b", "c", "d", "e", "f", "g"};
  const auto m = gcnprobe::results::mergeResults(in, false, list);
  EXPECT_EQ(names(m), list);
  EXPECT_EQ(m.summaryLine, "4 passed, 1 failed, 1 unsupported, 1 crash");
  EXPECT_EQ(m.header["shard"], "");
  ASSERT_EQ(m.header["merged_from"].size(), 3u);
  EXPECT_EQ(m.header["merged_from"][0]["file"], "s0.json");
  EXPECT_EQ(m.header["merged_from"][0]["cases"], 3);
  EXPECT_EQ(m.header["merged_from"][2]["shard"], "2/3");
  EXPECT_EQ(m.header["start_time"], "2026-01-00T00:00:00Z");  // shard 0's, the earliest
  // Records are copied whole, lane details included.
  EXPECT_EQ(m.records[3]["lanes"][0]["lane"], 3);
  EXPECT_EQ(m.records[3]["reason"], "why d");
  // Cases the list does not name follow the named ones, shard by shard: record 0 of shards
  // 0, 1, 2, then record 1 of each, ...
  const auto partial = gcnprobe::results::mergeResults(in, false, {"e", "c"});
  EXPECT_EQ(names(partial), (std::vector<std::string>{"e", "c", "g", "b", "f", "a", "d"}));
}

TEST(Merge, RejectsWhatIsNotOneRun) {
  const auto s0 = parse(report("0/2", {{"a", "pass"}, {"c", "pass"}}), "s0.json");
  const auto s1 = parse(report("1/2", {{"b", "pass"}}), "s1.json");
  EXPECT_EQ(errorOf({s0, s1}), "no error");
  // Overlap.
  const auto s1b = parse(report("1/2", {{"c", "pass"}}), "dup.json");
  EXPECT_EQ(errorOf({s0, s1b}), "case c is in both s0.json and dup.json");
  // A missing shard, a shard twice, another N.
  EXPECT_EQ(errorOf({s0}), "shard 1/2 is missing (given: s0.json)");
  EXPECT_EQ(errorOf({s0, s0, s1}), "s0.json and s0.json are both shard 0/2");
  const auto third = parse(report("1/3", {{"b", "pass"}}), "third.json");
  EXPECT_NE(errorOf({s0, third}).find("third.json is shard 1/3"), std::string::npos);
  // Another driver.
  const auto other = parse(report("1/2", {{"b", "pass"}}, "done", "amdvlk"), "other.json");
  EXPECT_EQ(errorOf({s0, other}),
            "the headers of s0.json and other.json disagree on \"driver\": \"radv\" and "
            "\"amdvlk\"");
  // Sizes no single list gives (3 cases in 2 shards are 2 + 1, not 1 + 2).
  const auto small0 = parse(report("0/2", {{"a", "pass"}}), "a0.json");
  const auto big1 = parse(report("1/2", {{"b", "pass"}, {"d", "pass"}}), "a1.json");
  EXPECT_NE(errorOf({small0, big1}).find("a0.json (shard 0/2) has 1 cases where 2 of 3"),
            std::string::npos);
}

TEST(Merge, IncompleteInputsOnlyWhenAllowed) {
  const auto s0 = parse(report("0/2", {{"a", "pass"}, {"c", "fail"}}), "s0.json");
  const auto cut = parse(report("1/2", {{"b", "pass"}}, ""), "cut.json");
  ASSERT_FALSE(cut.complete());
  EXPECT_EQ(cut.cases.size(), 1u);
  EXPECT_NE(errorOf({s0, cut}).find("cut.json: incomplete"), std::string::npos);
  const auto stopped = parse(
      report("1/2", {{"b", "pass"}}, "interrupted by signal 15 (Terminated): 1 passed"), "i.json");
  EXPECT_NE(errorOf({s0, stopped}).find("i.json: incomplete"), std::string::npos);
  const auto m = gcnprobe::results::mergeResults({s0, cut}, true, {});
  EXPECT_EQ(names(m), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(m.summaryLine, "2 passed, 1 failed, 0 unsupported; incomplete inputs: cut.json");
}

TEST(Merge, ValidationCountsAreSummed) {
  const std::string v0 =
      "\"validation\": {\"layer\": \"L\", \"features\": [\"core\", \"sync\"], \"messages\": 2, "
      "\"unattributed\": [\"x\"]},\n";
  const std::string v1 =
      "\"validation\": {\"layer\": \"L\", \"features\": [\"core\", \"sync\"], \"messages\": 3, "
      "\"unattributed\": [\"y\"]},\n";
  const auto s0 = parse(report("0/2", {{"a", "pass"}}, "done", "radv", v0), "s0.json");
  const auto s1 = parse(report("1/2", {{"b", "pass"}}, "done", "radv", v1), "s1.json");
  const auto m = gcnprobe::results::mergeResults({s0, s1}, false, {});
  EXPECT_EQ(m.extra["validation"]["messages"], 5);
  EXPECT_EQ(m.extra["validation"]["unattributed"], nlohmann::json({"x", "y"}));
  EXPECT_EQ(m.extra["validation"]["features"], nlohmann::json({"core", "sync"}));
  EXPECT_EQ(m.extra["validation"]["layer"], "L");
  EXPECT_EQ(m.summaryLine, "2 passed, 0 failed, 0 unsupported, 5 validation messages");
  const auto plain = parse(report("1/2", {{"b", "pass"}}), "plain.json");
  EXPECT_EQ(errorOf({s0, plain}),
            "\"validation\" is in s0.json but not in plain.json: were the shards run with the "
            "same options?");
}

TEST(Compare, ClassifiesEveryCase) {
  const auto oldRun = parse(report("", {{"reg", "pass", "aaaa"},
                                        {"fix", "fail", "bbbb"},
                                        {"gone", "pass"},
                                        {"same", "pass", "cccc"},
                                        {"isa", "pass", "dddd"},
                                        {"skip", "pass"}}),
                            "old.json");
  const auto newRun = parse(report("", {{"skip", "unsupported"},
                                        {"isa", "pass", "eeee"},
                                        {"same", "pass", "cccc"},
                                        {"fix", "pass", "bbbb"},
                                        {"reg", "crash", "ffff"},
                                        {"new", "fail"}}),
                            "new.json");
  const auto c = gcnprobe::results::compareResults(oldRun, newRun);
  ASSERT_EQ(c.regressions.size(), 1u);
  EXPECT_EQ(c.regressions[0].name, "reg");
  EXPECT_EQ(c.regressions[0].isa, gcnprobe::results::IsaChange::Different);
  ASSERT_EQ(c.fixes.size(), 1u);
  EXPECT_EQ(c.fixes[0].isa, gcnprobe::results::IsaChange::Same);
  ASSERT_EQ(c.changed.size(), 1u);
  EXPECT_EQ(c.changed[0].name, "skip");
  EXPECT_EQ(c.changed[0].isa, gcnprobe::results::IsaChange::NotVisible);
  ASSERT_EQ(c.isaChanged.size(), 1u);
  EXPECT_EQ(c.isaChanged[0].name, "isa");
  ASSERT_EQ(c.added.size(), 1u);
  EXPECT_EQ(c.added[0].name, "new");
  ASSERT_EQ(c.removed.size(), 1u);
  EXPECT_EQ(c.removed[0].name, "gone");
  EXPECT_EQ(c.unchanged, 1u);
  // A case twice in one report is bad input.
  const auto twice = parse(report("", {{"a", "pass"}, {"a", "fail"}}), "twice.json");
  EXPECT_THROW(gcnprobe::results::compareResults(twice, newRun), gcn::Error);
}

}  // namespace merge_test
