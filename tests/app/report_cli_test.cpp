// `gcnprobe report` without a browser: reports written here (no device), the command's errors,
// and the data the page embeds: one entry per case of the inputs, the kinds of difference of
// an atlas as the inputs make them. The rendered page is tested in tests/app/browser/.
#include <gtest/gtest.h>

#include <fstream>
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

}  // namespace report_cli_test
