// `gcnprobe report` in a real browser: two real runs on the system driver (lavapipe in CI: the
// default profile, and --profile gfx9, which fails some cases there), their reports rendered by
// headless Chromium (--dump-dom), and the rendered DOM checked against the JSON the runs wrote:
// cell counts per verdict, the cases an atlas marks as differing, a case's detail opened by
// #case=<name>. Screenshots of the overview and of a failing case's detail go to
// GCNPROBE_BROWSER_OUT for people to look at. One ctest (label browser): the runs are made once.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli.h"

namespace report_browser_test {

namespace fs = std::filesystem;
using gcnprobe::test_support::runCommand;
using gcnprobe::test_support::runGcnprobe;

const std::string kOut = GCNPROBE_BROWSER_OUT;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::json readJson(const std::string& path) {
  return nlohmann::json::parse(readFile(path));
}

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char ch : s)
    out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// "%XX" for every byte a URL fragment should not hold as is (the page decodes it).
std::string urlEncode(const std::string& s) {
  std::string out;
  for (unsigned char ch : s) {
    if (std::isalnum(ch) || ch == '.' || ch == '_' || ch == '-') {
      out += static_cast<char>(ch);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", ch);
      out += buf;
    }
  }
  return out;
}

// Headless Chromium on file://PATH#FRAGMENT: `mode` "--dump-dom" (the DOM after the scripts
// ran, on standard output) or "--screenshot=FILE --window-size=W,H".
std::string chromium(const std::string& path, const std::string& fragment, const std::string& mode,
                     const std::string& flags = "") {
  static int profile = 0;
  const std::string dataDir = kOut + "/chromium-profile-" + std::to_string(profile++);
  const std::string url =
      "file://" + fs::absolute(path).string() + (fragment.empty() ? "" : "#" + fragment);
  const std::string cmd = "chromium --headless --disable-gpu --no-first-run --disable-extensions " +
                          std::string(geteuid() == 0 ? "--no-sandbox " : "") +
                          "--user-data-dir=" + shellQuote(dataDir) +
                          " --virtual-time-budget=30000 " + flags + " " + mode + " " +
                          shellQuote(url) + " 2>>" + shellQuote(kOut + "/chromium.log");
  const auto r = runCommand(cmd);
  fs::remove_all(dataDir);
  EXPECT_EQ(r.exit, 0) << cmd << "\n(see " << kOut << "/chromium.log)";
  return r.out;
}

// The rendered page of a --dump-dom: everything before the embedded data and script (whose
// text holds markup of its own).
std::string rendered(const std::string& dom) {
  return dom.substr(0, dom.find("<script type=\"application/json\""));
}

// The attributes of every start tag `<tag ...>` of the serialized DOM (Chromium writes each
// attribute as name="value", with &quot; &amp; &lt; &gt; escaped).
using Attrs = std::map<std::string, std::string>;
std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    const std::size_t semi = s.find(';', i);
    const std::string ent = s.substr(i, semi - i + 1);
    if (ent == "&amp;")
      out += '&';
    else if (ent == "&quot;")
      out += '"';
    else if (ent == "&lt;")
      out += '<';
    else if (ent == "&gt;")
      out += '>';
    else if (ent == "&nbsp;")
      out += "\xc2\xa0";
    else
      out += ent;
    i = semi;
  }
  return out;
}

std::vector<Attrs> tags(const std::string& dom, const std::string& tag) {
  std::vector<Attrs> out;
  const std::string open = "<" + tag;
  for (std::size_t at = dom.find(open); at != std::string::npos; at = dom.find(open, at + 1)) {
    const char next = dom[at + open.size()];
    if (next != ' ' && next != '>') continue;
    const std::size_t end = dom.find('>', at);
    const std::string text = dom.substr(at + open.size(), end - at - open.size());
    Attrs a;
    std::size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && text[i] == ' ')
        ++i;
      std::size_t j = i;
      while (j < text.size() && text[j] != '=' && text[j] != ' ')
        ++j;
      const std::string name = text.substr(i, j - i);
      if (j < text.size() && text[j] == '=' && j + 1 < text.size() && text[j + 1] == '"') {
        const std::size_t close = text.find('"', j + 2);
        a[name] = unescape(text.substr(j + 2, close - j - 2));
        i = close + 1;
      } else {
        if (!name.empty()) a[name] = "";
        i = j + 1;
      }
    }
    out.push_back(std::move(a));
  }
  return out;
}

bool hasClass(const Attrs& a, const std::string& cls) {
  const auto it = a.find("class");
  if (it == a.end()) return false;
  std::istringstream words(it->second);
  std::string w;
  while (words >> w)
    if (w == cls) return true;
  return false;
}

// The <body> of the DOM: rendering finished, and how long it took.
Attrs bodyOf(const std::string& dom) {
  const std::vector<Attrs> b = tags(dom, "body");
  return b.empty() ? Attrs{} : b.front();
}

// Each case's verdict in a report, by name.
std::map<std::string, std::string> verdicts(const nlohmann::json& doc) {
  std::map<std::string, std::string> out;
  for (const nlohmann::json& c : doc["cases"])
    out[c["name"].get<std::string>()] = c["verdict"].get<std::string>();
  return out;
}

class ReportBrowser : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    fs::remove_all(kOut);
    fs::create_directories(kOut);
    // A run exits 1 when a case fails (gfx9 on lavapipe does); 2 and 3 are errors.
    const auto portable = runGcnprobe("run --json " + kOut + "/portable.json");
    ASSERT_LE(portable.exit, 1) << portable.out;
    const auto gfx9 = runGcnprobe("run --profile gfx9 --json " + kOut + "/gfx9.json");
    ASSERT_LE(gfx9.exit, 1) << gfx9.out;
  }
  static std::string report(const std::vector<std::string>& inputs, const std::string& name) {
    std::string args = "report";
    for (const std::string& i : inputs)
      args += " " + kOut + "/" + i;
    const std::string out = kOut + "/" + name;
    const auto r = runGcnprobe(args + " -o " + out);
    EXPECT_EQ(r.exit, 0) << r.out;
    return out;
  }
};

TEST_F(ReportBrowser, PageIsSelfContained) {
  const std::string html = readFile(report({"portable.json"}, "overview.html"));
  ASSERT_FALSE(html.empty());
  // Nothing the page would fetch: no <link>, no script or image by src, no CSS url() or
  // @import, no address of another site.
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
}

TEST_F(ReportBrowser, OverviewCellCountsPerVerdictEqualTheJson) {
  const nlohmann::json doc = readJson(kOut + "/portable.json");
  const std::string path = report({"portable.json"}, "overview.html");
  const std::string dom = rendered(chromium(path, "", "--dump-dom"));
  const Attrs body = bodyOf(dom);
  ASSERT_EQ(body.count("data-state") ? body.at("data-state") : "", "ready") << "not rendered";
  std::map<std::string, int> expected, cells, shownCounts;
  for (const nlohmann::json& c : doc["cases"])
    ++expected[c["verdict"].get<std::string>()];
  for (const Attrs& td : tags(dom, "td")) {
    if (!hasClass(td, "c")) continue;
    EXPECT_EQ(td.at("data-k"), "0");
    ++cells[td.at("data-v")];
    EXPECT_TRUE(hasClass(td, "v-" + td.at("data-v")));
  }
  EXPECT_EQ(cells, expected);
  // The counts table says the same, and so does the summary line the run wrote.
  for (const Attrs& td : tags(dom, "td"))
    if (td.count("data-verdict") && td.at("data-k") == "0") shownCounts[td.at("data-verdict")] = 0;
  const std::string summary = doc["summary"].get<std::string>();
  for (const auto& [v, words] : std::map<std::string, std::string>{
           {"pass", " passed"}, {"fail", " failed"}, {"unsupported", " unsupported"}}) {
    const std::size_t at = summary.find(words);
    ASSERT_NE(at, std::string::npos) << summary;
    std::size_t start = summary.rfind(' ', at - 1);
    start = start == std::string::npos ? 0 : start + 1;
    EXPECT_EQ(std::stoi(summary.substr(start, at - start)), cells[v]) << v << " in " << summary;
  }
  std::printf("[ overview ] %zu cases, %zu bytes, load %s ms\n", doc["cases"].size(),
              static_cast<std::size_t>(fs::file_size(path)), body.at("data-load-ms").c_str());
  EXPECT_GT(std::stod(body.at("data-load-ms")), 0.0);

  chromium(path, "", "--screenshot=" + kOut + "/overview.png --window-size=1400,1000");
  ASSERT_TRUE(fs::exists(kOut + "/overview.png"));
  EXPECT_GT(fs::file_size(kOut + "/overview.png"), 10000u);
}

TEST_F(ReportBrowser, AtlasMarksExactlyTheCasesWhoseVerdictsDiffer) {
  const nlohmann::json a = readJson(kOut + "/portable.json");
  const nlohmann::json b = readJson(kOut + "/gfx9.json");
  const auto va = verdicts(a), vb = verdicts(b);
  std::set<std::string> differ, any;
  for (const auto& [name, v] : va) {
    const auto it = vb.find(name);
    ASSERT_NE(it, vb.end()) << name << " is in one run only";
    if (it->second != v) differ.insert(name);
  }
  ASSERT_FALSE(differ.empty()) << "the two profiles agree everywhere: nothing to mark";
  // Every other kind of difference the atlas marks, from the JSON: the same failing verdict
  // with other actual bits, or other ISA digests (none on lavapipe).
  std::map<std::string, nlohmann::json> recA;
  for (const nlohmann::json& c : a["cases"])
    recA[c["name"].get<std::string>()] = c;
  any = differ;
  for (const nlohmann::json& c : b["cases"]) {
    const nlohmann::json& o = recA[c["name"].get<std::string>()];
    if (o["verdict"] != c["verdict"]) continue;
    auto bits = [](const nlohmann::json& lanes) {
      std::multiset<std::string> s;
      for (const nlohmann::json& l : lanes)
        s.insert(l["kind"].dump() + l["lane"].dump() + l["element"].dump() + l["component"].dump() +
                 l["actual_bits"].dump());
      return s;
    };
    const bool isa = o["isa_digest"].is_string() && c["isa_digest"].is_string() &&
                     o["isa_digest"] != c["isa_digest"];
    if (bits(o["lanes"]) != bits(c["lanes"]) || isa) any.insert(c["name"].get<std::string>());
  }

  const std::string path = report({"portable.json", "gfx9.json"}, "atlas.html");
  const std::string dom = rendered(chromium(path, "", "--dump-dom"));
  const Attrs body = bodyOf(dom);
  ASSERT_EQ(body.count("data-state") ? body.at("data-state") : "", "ready") << "not rendered";
  std::set<std::string> listed, listedVerdict;
  for (const Attrs& tr : tags(dom, "tr")) {
    if (!tr.count("data-case")) continue;
    listed.insert(tr.at("data-case"));
    if (tr.at("data-kinds").find("verdict") != std::string::npos)
      listedVerdict.insert(tr.at("data-case"));
  }
  EXPECT_EQ(listedVerdict, differ);
  EXPECT_EQ(listed, any);
  // Each case has one cell per report; exactly the differing ones are marked, in both.
  std::size_t cellsA = 0, cellsB = 0, marked = 0;
  for (const Attrs& td : tags(dom, "td")) {
    if (!hasClass(td, "c")) continue;
    (td.at("data-k") == "0" ? cellsA : cellsB) += 1;
    marked += hasClass(td, "dif") ? 1 : 0;
  }
  EXPECT_EQ(cellsA, va.size());
  EXPECT_EQ(cellsB, vb.size());
  EXPECT_EQ(marked, 2 * any.size());
  std::printf("[ atlas ] %zu + %zu cases, %zu differ (%zu in verdict), %zu bytes, load %s ms\n",
              va.size(), vb.size(), any.size(), differ.size(),
              static_cast<std::size_t>(fs::file_size(path)), body.at("data-load-ms").c_str());
}

// An ISA page (isa --json, the system driver's RADV null devices): one column per chip, each
// cell coloured by the case's ISA outcome (a route-miss whose twin in gcnprobe's own program is
// verified: twin-verified), the counts per column those of the documents, and a case's detail
// showing the driver route's outcome and the case's own instruction.
TEST_F(ReportBrowser, IsaPageCellsAreTheDocumentsOutcomes) {
  const std::string filter = " --filter 'texel.storage.r8*' --filter 'storage.load_dword*'";
  for (const char* chip : {"tonga", "vega10"}) {
    const auto r = runGcnprobe("isa --family " + std::string(chip) + filter + " --json " + kOut +
                               "/isa-" + chip + ".json");
    ASSERT_LE(r.exit, 1) << r.out;  // 1: route-misses
  }
  std::map<std::pair<std::string, std::string>, int> expected;  // (column, outcome)
  std::string someRouteMiss;
  std::size_t column = 0;
  for (const char* chip : {"tonga", "vega10"}) {
    const nlohmann::json doc = readJson(kOut + "/isa-" + chip + ".json");
    for (const nlohmann::json& ch : doc["chips"]) {
      for (const nlohmann::json& c : ch["cases"]) {
        std::string outcome = c["outcome"].get<std::string>();
        if (outcome == "route-miss" && c.contains("twin") && c["twin"]["outcome"] == "verified")
          outcome = "twin-verified";
        if (outcome == "route-miss" && someRouteMiss.empty())
          someRouteMiss = c["case"].get<std::string>();
        ++expected[{std::to_string(column), outcome}];
      }
      ++column;
    }
  }
  ASSERT_EQ(column, 2u);
  const std::string path = report({"isa-tonga.json", "isa-vega10.json"}, "isa.html");
  const std::string dom = rendered(chromium(path, "", "--dump-dom"));
  ASSERT_EQ(bodyOf(dom).count("data-state") ? bodyOf(dom).at("data-state") : "", "ready");
  std::map<std::pair<std::string, std::string>, int> cells;
  for (const Attrs& td : tags(dom, "td")) {
    if (!hasClass(td, "c") || !td.count("data-v")) continue;
    ++cells[{td.at("data-k"), td.at("data-v")}];
    EXPECT_TRUE(hasClass(td, "v-" + td.at("data-v")));
  }
  cells.erase({"0", "absent"});
  cells.erase({"1", "absent"});
  EXPECT_EQ(cells, expected);
  EXPECT_GT((expected[{"0", "verified"}]), 0);

  ASSERT_FALSE(someRouteMiss.empty()) << "no route-miss among the filtered cases";
  const std::string detail =
      rendered(chromium(path, "case=" + urlEncode(someRouteMiss), "--dump-dom"));
  const std::size_t aside = detail.find("<aside");
  ASSERT_NE(aside, std::string::npos);
  const std::string text = detail.substr(aside);
  EXPECT_NE(text.find("driver route"), std::string::npos);
  EXPECT_NE(text.find("emitted buffer instructions"), std::string::npos);
  EXPECT_NE(text.find("route-miss"), std::string::npos);
  EXPECT_EQ(text.find("No V#"), std::string::npos);  // isa documents carry no V# record
}

TEST_F(ReportBrowser, CaseHashOpensAFailingCaseWithItsLanes) {
  const nlohmann::json doc = readJson(kOut + "/gfx9.json");
  const nlohmann::json* failing = nullptr;
  for (const nlohmann::json& c : doc["cases"])
    if (c["verdict"] == "fail" && !c["lanes"].empty()) {
      failing = &c;
      break;
    }
  ASSERT_NE(failing, nullptr) << "no failing case with lanes under --profile gfx9";
  const std::string name = (*failing)["name"].get<std::string>();
  const std::string path = report({"gfx9.json"}, "gfx9.html");
  const std::string dom = rendered(chromium(path, "case=" + urlEncode(name), "--dump-dom"));

  const std::vector<Attrs> aside = tags(dom, "aside");
  ASSERT_EQ(aside.size(), 1u);
  EXPECT_EQ(aside[0].count("hidden"), 0u) << "the detail did not open";
  EXPECT_EQ(aside[0].count("data-case") ? aside[0].at("data-case") : "", name);
  // The lanes table: one row per lane entry (the first 256), mismatches marked as such.
  const std::size_t start = dom.find("<table class=\"lanes\"");
  ASSERT_NE(start, std::string::npos);
  const std::string table = dom.substr(start, dom.find("</table>", start) - start);
  std::size_t mm = 0, ok = 0, expectedMm = 0;
  for (const Attrs& tr : tags(table, "tr")) {
    mm += hasClass(tr, "mm") ? 1 : 0;
    ok += hasClass(tr, "ok") ? 1 : 0;
  }
  const nlohmann::json& lanes = (*failing)["lanes"];
  const std::size_t shown = std::min<std::size_t>(lanes.size(), 256);
  for (std::size_t i = 0; i < shown; ++i)
    expectedMm += lanes[i]["verdict"] == "mismatch" ? 1 : 0;
  EXPECT_EQ(mm + ok, shown);
  EXPECT_EQ(mm, expectedMm);
  // The first mismatch's bits, as the run wrote them, and its classification.
  for (const nlohmann::json& l : lanes) {
    if (l["verdict"] != "mismatch") continue;
    EXPECT_NE(table.find(l["expected_bits"].get<std::string>()), std::string::npos);
    EXPECT_NE(table.find(l["actual_bits"].get<std::string>()), std::string::npos);
    EXPECT_NE(table.find(l["classification"].get<std::string>()), std::string::npos);
    break;
  }
  // The differing bits are marked.
  EXPECT_NE(table.find("<b>"), std::string::npos);
  EXPECT_NE(dom.find((*failing)["instruction"].get<std::string>()), std::string::npos);

  chromium(path, "case=" + urlEncode(name),
           "--screenshot=" + kOut + "/failing-case.png --window-size=1400,1000");
  ASSERT_TRUE(fs::exists(kOut + "/failing-case.png"));
  EXPECT_GT(fs::file_size(kOut + "/failing-case.png"), 10000u);
  std::printf("[ detail ] %s: %zu lane entries\n", name.c_str(), lanes.size());
}

// ---- layout and order, measured in the browser ----

// The report page in an iframe of a probe page (file URLs are one origin with
// --allow-file-access-from-files), whose script waits until the report has rendered, then
// measures it and writes the numbers into its own <body data-...> for --dump-dom:
//  - bits-cells, bits-clipped: the open case's bits cells, and those not wholly inside the
//    detail panel's visible width (its scrolling box at scroll position 0);
//  - matrix-scrolled, matrix-head-offset: whether the tallest matrix box could scroll down,
//    and how far its header rows then sit from the box's top (0: they stayed);
//  - diff-head-offset: with the page scrolled into the differing cases, how far their table's
//    header sits below the sticky controls bar (0: it stayed);
//  - rows, cols: each suite's row names and column titles as rendered, JSON.
Attrs measure(const std::string& reportPath, const std::string& fragment, int width, int height) {
  const std::string probe = reportPath + ".probe.html";
  const std::string src =
      fs::path(reportPath).filename().string() + (fragment.empty() ? "" : "#" + fragment);
  std::ofstream(probe) << R"(<!DOCTYPE html><html><body data-state="waiting">
<iframe id="f" src=")" << src
                       << R"(" width=")" << width << R"(" height=")" << height
                       << R"(" style="border:0"></iframe>
<script>
const f = document.getElementById('f');
function check() {
  const d = f.contentDocument, w = f.contentWindow;
  if (!d || !d.body || d.body.dataset.state !== 'ready') return setTimeout(check, 50);
  const out = document.body.dataset;
  const detail = d.getElementById('detail');
  if (!detail.hidden) {
    const box = detail.getBoundingClientRect();
    const left = box.left + detail.clientLeft, right = left + detail.clientWidth;
    let n = 0, clipped = 0;
    for (const td of detail.querySelectorAll('td.bits')) {
      const r = td.getBoundingClientRect();
      ++n;
      if (r.left < left - 0.5 || r.right > right + 0.5 || td.scrollWidth > td.clientWidth + 1) ++clipped;
    }
    out.bitsCells = n;
    out.bitsClipped = clipped;
  }
  let tallest = null;
  for (const sc of d.querySelectorAll('.scroll'))
    if (!tallest || sc.scrollHeight > tallest.scrollHeight) tallest = sc;
  if (tallest) {
    tallest.scrollTop = 10000;
    out.matrixScrolled = tallest.scrollTop > 0 ? 1 : 0;
    const th = tallest.querySelector('thead');
    out.matrixHeadOffset = Math.round(th.getBoundingClientRect().top - tallest.getBoundingClientRect().top);
  }
  const diff = d.getElementById('diff-list');
  if (diff) {
    const rows = diff.querySelectorAll('tr[data-case]');
    rows[Math.floor(rows.length / 2)].scrollIntoView();
    w.scrollBy(0, 1);
    const controls = d.getElementById('controls').getBoundingClientRect();
    const head = diff.querySelector('thead th').getBoundingClientRect();
    out.diffScrolled = w.scrollY > diff.getBoundingClientRect().top + w.scrollY - head.height ? 1 : 0;
    out.diffHeadOffset = Math.round(head.top - controls.bottom);
  }
  const rows = {}, cols = {};
  for (const t of d.querySelectorAll('table.matrix')) {
    rows[t.dataset.suite] = [...t.querySelectorAll('tbody th.row')].map((x) => x.textContent);
    cols[t.dataset.suite] = [...t.querySelectorAll('thead th.col')].map((x) => x.title);
  }
  out.rows = JSON.stringify(rows);
  out.cols = JSON.stringify(cols);
  document.body.dataset.state = 'measured';
}
f.addEventListener('load', check);
</script></body></html>)";
  const std::string dom = chromium(probe, "", "--dump-dom", "--allow-file-access-from-files");
  return bodyOf(dom);
}

// The bits of a failing case's lanes are never cut off, at a wide and a narrow window: the low
// bits a 1-ulp difference marks are at their right end.
TEST_F(ReportBrowser, BitsColumnIsNeverClipped) {
  const nlohmann::json doc = readJson(kOut + "/gfx9.json");
  std::string name;
  for (const nlohmann::json& c : doc["cases"])
    if (c["verdict"] == "fail" && !c["lanes"].empty()) {
      name = c["name"].get<std::string>();
      break;
    }
  ASSERT_FALSE(name.empty());
  const std::string path = report({"gfx9.json"}, "bits.html");
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1400, 900}, {1000, 700}}) {
    const Attrs m = measure(path, "case=" + urlEncode(name), w, h);
    ASSERT_EQ(m.count("data-state") ? m.at("data-state") : "", "measured") << w << "x" << h;
    ASSERT_GT(std::stoi(m.at("data-bits-cells")), 0);
    EXPECT_EQ(m.at("data-bits-clipped"), "0")
        << w << "x" << h << ": " << m.at("data-bits-cells") << " bits cells";
  }
}

// Column headers stay in view when a matrix scrolls, and the differing cases' header stays
// under the controls bar when the page does.
TEST_F(ReportBrowser, HeadersStayVisibleWhileScrolling) {
  const std::string path = report({"portable.json", "gfx9.json"}, "sticky.html");
  const Attrs m = measure(path, "", 1200, 600);
  ASSERT_EQ(m.count("data-state") ? m.at("data-state") : "", "measured");
  ASSERT_EQ(m.at("data-matrix-scrolled"), "1") << "no matrix taller than its box at 600 px";
  EXPECT_EQ(m.at("data-matrix-head-offset"), "0");
  ASSERT_EQ(m.at("data-diff-scrolled"), "1");
  EXPECT_EQ(m.at("data-diff-head-offset"), "0");
}

// Rows and columns follow the format table and the instruction table, not the order in which
// the run's cases finished: a report of the same cases reversed renders the same matrices;
// texel rows follow `gcnprobe formats`; columns follow the MUBUF/MTBUF opcode numbers of the
// AMD ISA manuals (GFX8/9 numbering: LOAD_FORMAT_X..XYZW 0-3, STORE_FORMAT_X..XYZW 4-7,
// LOAD_UBYTE 0x10 .. LOAD_DWORDX4 0x17, STORE_BYTE 0x18, STORE_SHORT 0x1a, STORE_DWORD
// 0x1c..X4 0x1f; ATOMIC_SWAP 0x40 .. DEC 0x4c, their X2 forms 0x60..; TBUFFER LOAD_FORMAT_X
// .. XYZW 0-3, STORE 4-7).
TEST_F(ReportBrowser, MatricesAreInFormatAndInstructionOrder) {
  nlohmann::json reversed = readJson(kOut + "/portable.json");
  std::reverse(reversed["cases"].begin(), reversed["cases"].end());
  std::ofstream(kOut + "/reversed.json") << reversed.dump();
  const Attrs a = measure(report({"portable.json"}, "ordered.html"), "", 1200, 800);
  const Attrs b = measure(report({"reversed.json"}, "reversed.html"), "", 1200, 800);
  ASSERT_EQ(a.count("data-rows"), 1u);
  EXPECT_EQ(a.at("data-rows"), b.at("data-rows"));
  EXPECT_EQ(a.at("data-cols"), b.at("data-cols"));
  const nlohmann::json rows = nlohmann::json::parse(a.at("data-rows"));
  const nlohmann::json cols = nlohmann::json::parse(a.at("data-cols"));

  // `gcnprobe formats`: one VkFormat per line, in the table's order.
  const auto formats = runGcnprobe("formats");
  std::vector<std::string> table;
  std::istringstream lines(formats.out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("VK_FORMAT_", 0) == 0) {
      std::string f = line.substr(10, line.find(' ') - 10);
      std::transform(f.begin(), f.end(), f.begin(),
                     [](unsigned char ch) { return std::tolower(ch); });
      table.push_back(f);
    }
  ASSERT_GT(table.size(), 50u);
  for (const char* suite : {"texel", "vertex"}) {
    ASSERT_TRUE(rows.contains(suite)) << suite;
    std::size_t last = 0;
    for (const auto& r : rows[suite]) {
      const auto at = std::find(table.begin(), table.end(), r.get<std::string>());
      ASSERT_NE(at, table.end()) << r;
      const std::size_t pos = static_cast<std::size_t>(at - table.begin());
      EXPECT_GE(pos, last) << suite << ": " << r << " out of the format table's order";
      last = pos;
    }
  }

  const std::map<std::string, int> opcode = {{"load_format_x", 0x00},
                                             {"load_format_xy", 0x01},
                                             {"load_format_xyz", 0x02},
                                             {"load_format_xyzw", 0x03},
                                             {"store_format_x", 0x04},
                                             {"store_format_xy", 0x05},
                                             {"store_format_xyz", 0x06},
                                             {"store_format_xyzw", 0x07},
                                             {"load_ubyte", 0x10},
                                             {"load_sbyte", 0x11},
                                             {"load_ushort", 0x12},
                                             {"load_sshort", 0x13},
                                             {"load_dword", 0x14},
                                             {"load_dwordx2", 0x15},
                                             {"load_dwordx3", 0x16},
                                             {"load_dwordx4", 0x17},
                                             {"store_byte", 0x18},
                                             {"store_short", 0x1a},
                                             {"store_dword", 0x1c},
                                             {"store_dwordx2", 0x1d},
                                             {"store_dwordx3", 0x1e},
                                             {"store_dwordx4", 0x1f},
                                             {"atomic_swap", 0x40},
                                             {"atomic_cmpswap", 0x41},
                                             {"atomic_add", 0x42},
                                             {"atomic_sub", 0x43},
                                             {"atomic_smin", 0x44},
                                             {"atomic_umin", 0x45},
                                             {"atomic_smax", 0x46},
                                             {"atomic_umax", 0x47},
                                             {"atomic_and", 0x48},
                                             {"atomic_or", 0x49},
                                             {"atomic_xor", 0x4a},
                                             {"atomic_inc", 0x4b},
                                             {"atomic_dec", 0x4c},
                                             {"atomic_swap_x2", 0x60},
                                             {"atomic_cmpswap_x2", 0x61},
                                             {"atomic_add_x2", 0x62},
                                             {"atomic_sub_x2", 0x63},
                                             {"atomic_smin_x2", 0x64},
                                             {"atomic_umin_x2", 0x65},
                                             {"atomic_smax_x2", 0x66},
                                             {"atomic_umax_x2", 0x67},
                                             {"atomic_and_x2", 0x68},
                                             {"atomic_or_x2", 0x69},
                                             {"atomic_xor_x2", 0x6a},
                                             {"atomic_inc_x2", 0x6b},
                                             {"atomic_dec_x2", 0x6c},
                                             {"tbuffer_load_format_x", 0x100},
                                             {"tbuffer_load_format_xy", 0x101},
                                             {"tbuffer_load_format_xyz", 0x102},
                                             {"tbuffer_load_format_xyzw", 0x103}};
  std::size_t checked = 0;
  for (const auto& [suite, list] : cols.items()) {
    if (suite == "disputed" || suite == "binary") continue;  // one column per probe/opcode
    int last = -1;
    for (const auto& c : list) {
      const std::string col = c.get<std::string>();
      int op = -1;
      std::istringstream parts(col);
      for (std::string p; std::getline(parts, p, '.');)
        if (opcode.count(p)) op = opcode.at(p);
      if (op < 0) continue;
      ++checked;
      EXPECT_GE(op, last) << suite << ": " << col << " out of instruction order";
      last = op;
    }
  }
  EXPECT_GT(checked, 50u);
}

}  // namespace report_browser_test
