// `gcnprobe report` without a browser: reports written here (no device), the command's errors,
// and the data the page embeds: one entry per case of the inputs, the kinds of difference of
// an atlas as the inputs make them. The rendered page is tested in tests/app/browser/.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli.h"

namespace report_cli_test {

using gcnprobe::test_support::runGcnprobe;

std::string tmp(const std::string& name) {
  return ::testing::TempDir() + "report_" + name;
}

struct Rec {
  const char* name;
  const char* verdict;
  const char* digest;      // nullptr: no ISA visible
  const char* actualBits;  // nullptr: no lane entry
};

std::string write(const std::string& name, const std::string& driver,
                  const std::vector<Rec>& recs) {
  nlohmann::json doc{{"driver", "radv"},
                     {"driver_version", driver},
                     {"profile", "gfx8"},
                     {"device", "AMD Radeon RX 580"},
                     {"shard", ""}};
  doc["cases"] = nlohmann::json::array();
  for (const Rec& r : recs) {
    nlohmann::json lanes = nlohmann::json::array();
    if (r.actualBits != nullptr)
      lanes.push_back({{"lane", 3},
                       {"element", 3},
                       {"byte_offset", 12},
                       {"component", "x"},
                       {"kind", "register"},
                       {"memory_bits", "0x00"},
                       {"expected_bits", "0x3f800000"},
                       {"expected_value", "1"},
                       {"actual_bits", r.actualBits},
                       {"actual_value", "?"},
                       {"verdict", "mismatch"},
                       {"classification", "wrong"}});
    doc["cases"].push_back(
        {{"name", r.name},
         {"suite", "storage"},
         {"format", ""},
         {"binding", "storage-buffer"},
         {"instruction", "buffer_load_dword v1, v0, s[4:7], 0 offen"},
         {"verdict", r.verdict},
         {"reason", std::string(r.verdict) == "pass" ? "" : "a reason </script><b>"},
         {"isa_digest", r.digest ? nlohmann::json(r.digest) : nlohmann::json(nullptr)},
         {"lanes", lanes}});
  }
  doc["summary"] = "not read by report";
  const std::string path = tmp(name);
  std::ofstream(path) << doc.dump(1);
  return path;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The JSON the page embeds.
nlohmann::json embedded(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"gcnprobe-data\">";
  const std::size_t at = html.find(open);
  if (at == std::string::npos) return nullptr;
  const std::size_t start = at + open.size();
  return nlohmann::json::parse(html.substr(start, html.find("</script>", start) - start));
}

TEST(ReportCli, AtlasNamesEachKindOfDifference) {
  const std::string a = write("a.json", "Mesa 22.3.6",
                              {{"storage.same", "pass", "1111", nullptr},
                               {"storage.verdict", "pass", nullptr, nullptr},
                               {"storage.value", "fail", nullptr, "0x3f800001"},
                               {"storage.code", "pass", "aaaa", nullptr},
                               {"storage.gone", "pass", nullptr, nullptr}});
  const std::string b = write("b.json", "Mesa 25.0.7",
                              {{"storage.same", "pass", "1111", nullptr},
                               {"storage.verdict", "fail", nullptr, "0x3f800001"},
                               {"storage.value", "fail", nullptr, "0x3f800002"},
                               {"storage.code", "pass", "bbbb", nullptr},
                               {"storage.new", "unsupported", nullptr, nullptr}});
  const std::string out = tmp("atlas.html");
  const auto r = runGcnprobe("report " + a + " " + b + " -o " + out);
  ASSERT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("2 reports, 6 cases, 5 differing"), std::string::npos) << r.out;
  const std::string html = readFile(out);
  // The reason's "</script>" cannot end the data element.
  EXPECT_EQ(html.find("</script><b>"), std::string::npos);
  const nlohmann::json data = embedded(html);
  ASSERT_TRUE(data.is_object());
  ASSERT_EQ(data["runs"].size(), 2u);
  EXPECT_EQ(data["runs"][0]["label"], "Mesa 22.3.6 / gfx8");
  std::map<std::string, std::set<std::string>> kinds;
  std::map<std::string, std::vector<int>> verdicts;
  for (const nlohmann::json& c : data["cases"]) {
    std::set<std::string>& k = kinds[c["n"].get<std::string>()];
    if (c.contains("d"))
      for (const nlohmann::json& x : c["d"])
        k.insert(x.get<std::string>());
    verdicts[c["n"].get<std::string>()] = c["v"].get<std::vector<int>>();
  }
  using K = std::set<std::string>;
  EXPECT_EQ(kinds["storage.same"], K{});
  EXPECT_EQ(kinds["storage.verdict"], K{"verdict"});
  EXPECT_EQ(kinds["storage.value"], K{"value"});
  EXPECT_EQ(kinds["storage.code"], K{"instruction"});
  EXPECT_EQ(kinds["storage.gone"], K{"missing"});
  EXPECT_EQ(kinds["storage.new"], K{"missing"});
  EXPECT_EQ(kinds.size(), 6u);
  // Verdict indices name the verdicts in the order the page lists them; -1: absent.
  const auto& names = data["verdicts"];
  EXPECT_EQ(names[verdicts["storage.verdict"][1]], "fail");
  EXPECT_EQ(verdicts["storage.gone"][1], -1);
  EXPECT_EQ(verdicts["storage.new"][0], -1);
  // Untyped cases sit in their binding's row, the column is the rest of the name; columns that
  // name no instruction come in text order, not in the order the reports hold the cases.
  EXPECT_EQ(data["suites"][0]["rows"][0], "(storage-buffer)");
  EXPECT_EQ(data["suites"][0]["cols"],
            (nlohmann::json{"code", "gone", "new", "same", "value", "verdict"}));
}

TEST(ReportCli, BadInputExitsTwo) {
  const std::string bad = tmp("bad.json");
  std::ofstream(bad) << "{ \"cases\": [ this is not JSON";
  const auto r1 = runGcnprobe("report " + bad + " -o " + tmp("bad.html"));
  EXPECT_EQ(r1.exit, 2) << r1.out;
  EXPECT_NE(r1.out.find(bad), std::string::npos) << r1.out;

  const std::string a =
      write("one.json", "Mesa 22.3.6", {{"storage.same", "pass", nullptr, nullptr}});
  const auto r2 = runGcnprobe("report " + a + " --label x --label y -o " + tmp("labels.html"));
  EXPECT_EQ(r2.exit, 2) << r2.out;
  EXPECT_NE(r2.out.find("--label"), std::string::npos) << r2.out;

  const auto r3 = runGcnprobe("report " + tmp("does-not-exist.json") + " -o " + tmp("x.html"));
  EXPECT_EQ(r3.exit, 2) << r3.out;

  // An output that cannot be written is infrastructure (docs/run.md): exit 3, with the errno.
  const auto r4 = runGcnprobe("report " + a + " -o /nonexistent-dir/x.html");
  EXPECT_EQ(r4.exit, 3) << r4.out;
  EXPECT_NE(r4.out.find("No such file or directory"), std::string::npos) << r4.out;
}

// ---- documents of `isa --json` (the ISA atlas: drivers x chips) ----

struct IsaRec {
  const char* name;
  const char* outcome;
  const char* proven;   // the proven instruction ("" for none: the emitted one counts)
  const char* emitted;  // an instruction on the case's buffer (set 0 binding 0)
  const char* twin;     // the twin's outcome; nullptr: no twin
};

nlohmann::json isaCase(const IsaRec& r) {
  nlohmann::json c{{"case", r.name},
                   {"suite", std::string(r.name).substr(0, std::string(r.name).find('.'))},
                   {"format", ""},
                   {"binding", "storage-buffer"},
                   {"intended", "buffer_load_dword v1, v0, s[4:7], 0 offen"},
                   {"outcome", r.outcome},
                   {"reason", std::string(r.outcome) == "verified" ? "" : "not in the pipeline"},
                   {"unsupported", ""},
                   {"emitted", nlohmann::json::array()},
                   {"proof", nlohmann::json::array()}};
  if (*r.proven != '\0')
    c["proof"].push_back(std::string("instruction: proven: ") + r.proven + " on set 0 binding 0");
  c["emitted"].push_back({{"text", std::string(r.emitted) + " ; set 0 binding 0"}});
  if (r.twin != nullptr)
    c["twin"] = {{"case", std::string(r.name) + "@program"}, {"outcome", r.twin}};
  return c;
}

std::string writeIsa(const std::string& name, const std::string& driver,
                     const std::vector<std::pair<std::string, std::vector<IsaRec>>>& chips) {
  nlohmann::json doc{{"chips", nlohmann::json::array()}};
  for (const auto& [chip, recs] : chips) {
    nlohmann::json c{{"chip", chip},
                     {"driver", driver},
                     {"device", "Null hardware (RADV " + chip + ")"},
                     {"generation", chip == "tonga" ? "gfx8" : "gfx9"},
                     {"summary", chip + ": some cases"},
                     {"cases", nlohmann::json::array()}};
    for (const IsaRec& r : recs)
      c["cases"].push_back(isaCase(r));
    doc["chips"].push_back(std::move(c));
  }
  const std::string path = tmp(name);
  std::ofstream(path) << doc.dump(1);
  return path;
}

constexpr const char* kLoad = "buffer_load_dword v1, v0, s[4:7], 0 offen ; e0301000 80010100";
constexpr const char* kLoadV2 = "buffer_load_dword v2, v0, s[4:7], 0 offen ; e0301000 80010200";
constexpr const char* kLoadX2 =
    "buffer_load_dwordx2 v[1:2], v0, s[4:7], 0 offen ; e0341000 80010100";

// Two drivers' documents, each with tonga and vega10: every column is compared with the same
// chip's column of the first document, never with another chip.
TEST(ReportCli, IsaAtlasComparesEachChipAcrossDrivers) {
  const std::string a = writeIsa("isa-a.json", "radv Mesa 22.3.6",
                                 {{"tonga",
                                   {{"storage.same", "verified", kLoad, kLoad, nullptr},
                                    {"storage.regs", "verified", kLoad, kLoad, nullptr},
                                    {"storage.fixed", "route-miss", "", kLoadX2, nullptr},
                                    {"storage.twin", "route-miss", "", kLoadX2, "unsupported"},
                                    {"storage.chips", "verified", kLoad, kLoad, nullptr}}},
                                  {"vega10",
                                   {{"storage.same", "verified", kLoad, kLoad, nullptr},
                                    {"storage.chips", "route-miss", "", kLoadX2, nullptr}}}});
  const std::string b = writeIsa("isa-b.json", "radv Mesa 25.0.7",
                                 {{"tonga",
                                   {{"storage.same", "verified", kLoad, kLoad, nullptr},
                                    {"storage.regs", "verified", kLoadV2, kLoadV2, nullptr},
                                    {"storage.fixed", "verified", kLoad, kLoad, nullptr},
                                    {"storage.twin", "route-miss", "", kLoadX2, "verified"},
                                    {"storage.chips", "verified", kLoad, kLoad, nullptr}}},
                                  {"vega10",
                                   {{"storage.same", "verified", kLoad, kLoad, nullptr},
                                    {"storage.chips", "route-miss", "", kLoadX2, nullptr},
                                    {"storage.new", "verified", kLoad, kLoad, nullptr}}}});
  const std::string out = tmp("isa-atlas.html");
  const auto r = runGcnprobe("report " + a + " " + b + " --label old --label new -o " + out);
  ASSERT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("4 ISA columns, 6 cases"), std::string::npos) << r.out;
  const nlohmann::json data = embedded(readFile(out));
  ASSERT_TRUE(data.is_object());
  EXPECT_EQ(data["kind"], "isa");
  ASSERT_EQ(data["runs"].size(), 4u);
  EXPECT_EQ(data["runs"][0]["label"], "old / tonga");
  EXPECT_EQ(data["runs"][3]["label"], "new / vega10");
  EXPECT_EQ(data["runs"][1]["header"]["chip"], "vega10");
  std::map<std::string, std::set<std::string>> kinds;
  std::map<std::string, std::vector<std::string>> shown;  // verdict name per column
  for (const nlohmann::json& c : data["cases"]) {
    const std::string n = c["n"].get<std::string>();
    kinds[n];
    if (c.contains("d"))
      for (const nlohmann::json& x : c["d"])
        kinds[n].insert(x.get<std::string>());
    for (const nlohmann::json& v : c["v"])
      shown[n].push_back(v.get<int>() < 0 ? "absent"
                                          : data["verdicts"][v.get<int>()].get<std::string>());
  }
  using K = std::set<std::string>;
  using V = std::vector<std::string>;
  EXPECT_EQ(kinds["storage.same"], K{});
  EXPECT_EQ(kinds["storage.regs"], K{});  // other registers, the same instruction
  EXPECT_EQ(kinds["storage.fixed"], (K{"verdict", "instruction"}));
  EXPECT_EQ(kinds["storage.twin"], K{"verdict"});
  EXPECT_EQ(kinds["storage.chips"], K{});  // tonga and vega10 differ, each driver agrees
  EXPECT_EQ(kinds["storage.new"], K{"missing"});
  EXPECT_EQ(kinds.size(), 6u);
  EXPECT_EQ(shown["storage.twin"], (V{"route-miss", "absent", "twin-verified", "absent"}));
  EXPECT_EQ(shown["storage.chips"], (V{"verified", "route-miss", "verified", "route-miss"}));
  EXPECT_EQ(shown["storage.new"], (V{"absent", "absent", "absent", "verified"}));
  // The legend starts with the proven outcomes.
  EXPECT_EQ(data["verdicts"][0], "verified");
  EXPECT_EQ(data["verdicts"][1], "twin-verified");

  // One document: its chips are compared with its first chip.
  const auto one = runGcnprobe("report " + a + " -o " + tmp("isa-one.html"));
  ASSERT_EQ(one.exit, 0) << one.out;
  const nlohmann::json d1 = embedded(readFile(tmp("isa-one.html")));
  std::map<std::string, K> oneKinds;
  for (const nlohmann::json& c : d1["cases"]) {
    K& k = oneKinds[c["n"].get<std::string>()];
    if (c.contains("d"))
      for (const nlohmann::json& x : c["d"])
        k.insert(x.get<std::string>());
  }
  EXPECT_EQ(oneKinds["storage.chips"], (K{"verdict", "instruction"}));
  EXPECT_EQ(oneKinds["storage.same"], K{});
  EXPECT_EQ(oneKinds["storage.fixed"], K{"missing"});  // tonga only
}

// `compare` of two isa documents: per case the outcome and the case's own instruction; exit 1 on
// a case verified before and not after; a run report and an isa document are not compared.
TEST(ReportCli, CompareReadsIsaDocuments) {
  const std::string a = writeIsa("cmp-a.json", "radv Mesa 22.3.6",
                                 {{"vega10",
                                   {{"storage.same", "verified", kLoad, kLoad, nullptr},
                                    {"storage.regs", "verified", kLoad, kLoad, nullptr},
                                    {"storage.broken", "verified", kLoad, kLoad, nullptr},
                                    {"storage.code", "verified", kLoad, kLoad, nullptr}}}});
  const std::string b = writeIsa("cmp-b.json", "radv Mesa 25.0.7",
                                 {{"vega10",
                                   {{"storage.same", "verified", kLoad, kLoad, nullptr},
                                    {"storage.regs", "verified", kLoadV2, kLoadV2, nullptr},
                                    {"storage.broken", "route-miss", "", kLoadX2, nullptr},
                                    {"storage.code", "verified", kLoadX2, kLoadX2, nullptr}}}});
  const std::string json = tmp("cmp.json");
  const auto r = runGcnprobe("compare " + a + " " + b + " --json " + json);
  EXPECT_EQ(r.exit, 1) << r.out;
  EXPECT_NE(r.out.find("vega10  storage.broken  verified -> route-miss  (newly broken)"),
            std::string::npos)
      << r.out;
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["compared"], 4);
  EXPECT_EQ(j["newly_broken"], 1);
  EXPECT_EQ(j["same_verdict_new_instruction"], 1);
  ASSERT_EQ(j["changes"].size(), 2u);
  std::set<std::string> changed;
  for (const nlohmann::json& c : j["changes"])
    changed.insert(c["case"].get<std::string>());
  EXPECT_EQ(changed, (std::set<std::string>{"storage.broken", "storage.code"}));
  // No newly broken case: exit 0.
  EXPECT_EQ(runGcnprobe("compare " + b + " " + a).exit, 0);

  const std::string run =
      write("run.json", "Mesa 22.3.6", {{"storage.same", "pass", nullptr, nullptr}});
  const auto mixed = runGcnprobe("compare " + run + " " + b);
  EXPECT_EQ(mixed.exit, 2) << mixed.out;
  EXPECT_NE(mixed.out.find("isa --json"), std::string::npos) << mixed.out;
  const auto mixedReport = runGcnprobe("report " + a + " " + run + " -o " + tmp("mixed.html"));
  EXPECT_EQ(mixedReport.exit, 2) << mixedReport.out;
  EXPECT_NE(mixedReport.out.find(run), std::string::npos) << mixedReport.out;
}

// A document that is not well-formed isa JSON is bad input for report and compare alike (exit
// 2, naming the file and the place), never a crash or a silently empty page: an outcome that is
// no outcome name (it would colour cells and could carry markup), a chip without cases, a case
// that is not an object, a case twice, no chip at all.
TEST(ReportCli, MalformedIsaDocumentsAreBadInput) {
  const std::string good =
      writeIsa("good.json", "radv Mesa 25.0.7",
               {{"tonga", {{"storage.same", "verified", kLoad, kLoad, nullptr}}}});
  const auto withDoc = [](const std::string& name, const std::string& text) {
    const std::string path = tmp(name);
    std::ofstream(path) << text;
    return path;
  };
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"chip-number.json", R"({"chips": [5]})"},
      {"no-cases.json", R"({"chips": [{"chip": "tonga"}]})"},
      {"case-number.json", R"({"chips": [{"chip": "tonga", "cases": [7]}]})"},
      {"no-name.json", R"({"chips": [{"chip": "tonga", "cases": [{"outcome": "verified"}]}]})"},
      {"markup.json",
       R"({"chips": [{"chip": "tonga", "cases": [{"case": "storage.x", "outcome": "ev\"><img src=x onerror=alert(1)>"}]}]})"},
      {"dup.json",
       R"({"chips": [{"chip": "tonga", "cases": [{"case": "a.b", "outcome": "verified"}, {"case": "a.b", "outcome": "verified"}]}]})"},
      {"empty.json", R"({"chips": []})"},
      {"proof.json",
       R"({"chips": [{"chip": "tonga", "cases": [{"case": "a.b", "outcome": "verified", "proof": [1]}]}]})"},
  };
  for (const auto& [name, text] : bad) {
    const std::string path = withDoc(name, text);
    const auto report = runGcnprobe("report " + path + " -o " + tmp("bad-isa.html"));
    EXPECT_EQ(report.exit, 2) << name << "\n" << report.out;
    EXPECT_NE(report.out.find(path), std::string::npos) << name << "\n" << report.out;
    const auto compare = runGcnprobe("compare " + good + " " + path);
    EXPECT_EQ(compare.exit, 2) << name << "\n" << compare.out;
    EXPECT_NE(compare.out.find(path), std::string::npos) << name << "\n" << compare.out;
    EXPECT_EQ(compare.out.find("internal error"), std::string::npos) << name << "\n" << compare.out;
  }
}

// A verified case, or a whole chip, that the later document lacks is newly broken: a gutted isa
// run does not pass a gate.
TEST(ReportCli, CompareCountsVanishedVerifiedCasesAsBroken) {
  const std::string before =
      writeIsa("gone-a.json", "radv Mesa 22.3.6",
               {{"tonga",
                 {{"storage.same", "verified", kLoad, kLoad, nullptr},
                  {"storage.gone", "verified", kLoad, kLoad, nullptr}}},
                {"vega10", {{"storage.same", "verified", kLoad, kLoad, nullptr}}}});
  const std::string caseGone =
      writeIsa("gone-b.json", "radv Mesa 25.0.7",
               {{"tonga", {{"storage.same", "verified", kLoad, kLoad, nullptr}}},
                {"vega10", {{"storage.same", "verified", kLoad, kLoad, nullptr}}}});
  const auto r1 = runGcnprobe("compare " + before + " " + caseGone);
  EXPECT_EQ(r1.exit, 1) << r1.out;
  EXPECT_NE(r1.out.find("only before: tonga: storage.gone"), std::string::npos) << r1.out;
  const std::string chipGone = writeIsa("gone-c.json", "radv Mesa 25.0.7",
                                        {{"tonga",
                                          {{"storage.same", "verified", kLoad, kLoad, nullptr},
                                           {"storage.gone", "verified", kLoad, kLoad, nullptr}}}});
  const auto r2 = runGcnprobe("compare " + before + " " + chipGone);
  EXPECT_EQ(r2.exit, 1) << r2.out;
  EXPECT_NE(r2.out.find("vega10 (only in"), std::string::npos) << r2.out;
  // The other way round nothing verified is lost.
  EXPECT_EQ(runGcnprobe("compare " + chipGone + " " + before).exit, 0);
}

}  // namespace report_cli_test
