#include "results/baseline.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

#include "reference/error.h"
#include "reference/text.h"
#include "results/selection.h"

namespace gcnprobe::results {
namespace {

// The marks applyExpectations and the retries append to a reason, each after the original
// reason; originalVerdict() cuts at the first of them in a record without `original` (one
// written before that member existed).
constexpr std::string_view kExpectedMark = " [expected by ";
constexpr std::string_view kExpectsMark = " [the baseline (";
constexpr std::string_view kFlakeMark = " [known flake ";
constexpr std::string_view kRetryMark = " [flaky: ";

bool isGlob(std::string_view s) {
  return s.find_first_of("*?[") != std::string_view::npos;
}

bool isDuration(std::string_view s) {
  double d = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), d);
  return !s.empty() && r.ec == std::errc{} && r.ptr == s.data() + s.size() && d >= 0;
}

std::string readText(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw gcn::Error(gcn::Place{path, 0, 0}, std::string("cannot read the ") + what);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw gcn::Error(gcn::Place{path, 0, 0}, std::string("cannot read the ") + what);
  return text.str();
}

// The lines of a baseline or flakes file: the text before any '#', the comment, and whether the
// line is a comment alone. Case names never hold '#'.
struct Line {
  int number = 0;
  std::string_view body;
  std::string_view comment;
};

template <typename F>
void forEachLine(std::string_view text, F&& f) {
  int number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view raw = text.substr(pos, end - pos);
    pos = end + 1;
    Line l;
    l.number = ++number;
    // A UTF-8 byte order mark (editors on Windows write one) is not part of the first entry.
    if (number == 1 && raw.substr(0, 3) == "\xef\xbb\xbf") raw.remove_prefix(3);
    const std::size_t hash = raw.find('#');
    if (hash != std::string_view::npos) {
      l.comment = gcn::trimSpace(raw.substr(hash + 1));
      raw = raw.substr(0, hash);
    }
    l.body = gcn::trimSpace(raw);
    f(l);
  }
}

std::string withWhere(std::string_view where, std::string_view reason) {
  return std::string(where) + (reason.empty() ? "" : ": " + std::string(reason));
}

}  // namespace

bool BaselineEntry::covers(Verdict v) const {
  return std::find(expected.begin(), expected.end(), v) != expected.end();
}

const BaselineEntry* Baseline::find(std::string_view name) const {
  for (const BaselineEntry& e : entries)
    if (e.pattern == name) return &e;
  for (const BaselineEntry& e : entries)
    if (isGlob(e.pattern) && globMatches(e.pattern, name)) return &e;
  return nullptr;
}

std::optional<std::vector<Verdict>> statusVerdicts(std::string_view status) {
  const std::string s = gcn::asciiLower(status);
  if (s == "fail") return std::vector<Verdict>{Verdict::Fail, Verdict::RouteMiss};
  if (s == "route-miss") return std::vector<Verdict>{Verdict::RouteMiss};
  if (s == "error") return std::vector<Verdict>{Verdict::Error};
  if (s == "crash") return std::vector<Verdict>{Verdict::Crash};
  if (s == "timeout") return std::vector<Verdict>{Verdict::Timeout};
  if (s == "expected-fail" || s == "expectedfail")
    return std::vector<Verdict>{Verdict::Fail, Verdict::RouteMiss, Verdict::Error, Verdict::Crash,
                                Verdict::Timeout};
  if (s == "pass" || s == "skip" || s == "unsupported" || s == "flake" || s == "unexpected-pass" ||
      s == "unexpectedpass")
    return std::vector<Verdict>{};
  return std::nullopt;
}

namespace {

// "recorded: key=value; ..." (`gcnprobe baseline --from`): where the baseline was recorded.
RecordedOn recordedOn(std::string_view comment, const gcn::Place& at) {
  const auto fail = [&](const std::string& why) { throw gcn::Error(at, why); };
  RecordedOn r;
  r.where = at.file + ":" + std::to_string(at.line);
  std::string_view rest = comment.substr(std::string_view("recorded:").size());
  while (!rest.empty()) {
    const std::size_t semi = rest.find(';');
    const std::string_view pair = gcn::trimSpace(rest.substr(0, semi));
    rest = semi == std::string_view::npos ? std::string_view() : rest.substr(semi + 1);
    const std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos) fail("'" + std::string(pair) + "' is not key=value");
    const std::string key(gcn::trimSpace(pair.substr(0, eq)));
    const std::string value(gcn::trimSpace(pair.substr(eq + 1)));
    if (key == "profile")
      r.profile = value;
    else if (key == "device")
      r.device = value;
    else if (key == "driver")
      r.driver = value;
    else
      fail("unknown key '" + key + "' in the recorded line (known: profile, device, driver)");
  }
  return r;
}

// NAME_OR_GLOB,STATUS (or a results.csv line NAME,STATUS,DURATION): the entry's pattern and
// status, checked.
BaselineEntry baselineEntry(std::string_view body, const gcn::Place& at) {
  const auto fail = [&](const std::string& why) { throw gcn::Error(at, why); };
  const std::size_t comma = body.find(',');
  if (comma == std::string_view::npos)
    fail("'" + std::string(body) + "' has no comma: an entry is NAME_OR_GLOB,STATUS");
  BaselineEntry e;
  e.pattern = std::string(gcn::trimSpace(body.substr(0, comma)));
  std::string_view rest = body.substr(comma + 1);
  const std::size_t comma2 = rest.find(',');
  e.status = std::string(gcn::trimSpace(rest.substr(0, comma2)));
  if (comma2 != std::string_view::npos) {
    const std::string_view third = rest.substr(comma2 + 1);
    if (third.find(',') != std::string_view::npos)
      fail(
          "too many fields: an entry is NAME_OR_GLOB,STATUS (or a results.csv line "
          "NAME,STATUS,DURATION)");
    if (!isDuration(gcn::trimSpace(third)))
      fail("'" + std::string(gcn::trimSpace(third)) +
           "' is no duration (the third field of a results.csv line)");
  }
  if (e.pattern.empty()) fail("empty case name before the comma");
  if (e.status.empty()) fail("empty status after '" + e.pattern + ",'");
  const auto verdicts = statusVerdicts(e.status);
  if (!verdicts)
    fail("unknown status '" + e.status +
         "' (known: fail, route-miss, error, crash, timeout, expected-fail, pass, skip, "
         "unsupported, flake, unexpected-pass; any case)");
  e.expected = *verdicts;
  return e;
}

}  // namespace

Baseline parseBaseline(std::string_view text, const std::string& source) {
  Baseline b;
  std::string block;  // the comment lines right above the next entries
  bool afterEntry = false;
  forEachLine(text, [&](const Line& l) {
    const gcn::Place at{source, l.number, 0};
    const auto fail = [&](const std::string& why) { throw gcn::Error(at, why); };
    if (l.body.empty() && l.comment.rfind("recorded:", 0) == 0 && !b.recorded) {
      b.recorded = recordedOn(l.comment, at);
      return;
    }
    if (l.body.empty()) {
      // A blank line (or a bare '#') ends a comment block; a comment after entries starts one.
      if (l.comment.empty()) {
        block.clear();
        afterEntry = false;
      } else {
        if (afterEntry) block.clear();
        block += (block.empty() ? "" : " ") + std::string(l.comment);
        afterEntry = false;
      }
      return;
    }
    BaselineEntry e = baselineEntry(l.body, at);
    e.reason = !l.comment.empty() ? std::string(l.comment) : block;
    e.file = source;
    e.line = l.number;
    for (const BaselineEntry& other : b.entries)
      if (other.pattern == e.pattern)
        fail("'" + e.pattern + "' is already on line " + std::to_string(other.line));
    b.entries.push_back(std::move(e));
    afterEntry = true;
  });
  return b;
}

Baseline readBaseline(const std::string& path) {
  return parseBaseline(readText(path, "baseline"), path);
}

const GlobEntry* GlobList::find(std::string_view name) const {
  for (const GlobEntry& e : entries)
    if (globMatches(e.pattern, name)) return &e;
  return nullptr;
}

std::vector<std::string> unmatchedEntries(const Baseline& baseline, const GlobList& flakes,
                                          std::span<const std::string> names) {
  const auto matchesSome = [&](const std::string& pattern) {
    for (const std::string& n : names)
      if (globMatches(pattern, n)) return true;
    return false;
  };
  std::vector<std::string> out;
  const auto note = [&](const std::string& where, const std::string& pattern) {
    out.push_back(where + ": '" + pattern + "' matches no case of this build's suites");
  };
  for (const BaselineEntry& e : baseline.entries)
    if (!matchesSome(e.pattern)) note(e.where(), e.pattern);
  for (const GlobEntry& e : flakes.entries)
    if (!matchesSome(e.pattern)) note(e.file + ":" + std::to_string(e.line), e.pattern);
  return out;
}

GlobList parseGlobList(std::string_view text, const std::string& source, std::string_view what) {
  GlobList f;
  forEachLine(text, [&](const Line& l) {
    if (l.body.empty()) return;
    if (l.body.find_first_of(" \t,") != std::string_view::npos)
      throw gcn::Error(gcn::Place{source, l.number, 0},
                       "'" + std::string(l.body) + "' is not one case name or glob");
    // deqp-runner's flakes and skips files hold regular expressions; these are globs (as
    // --filter).
    if (l.body.find_first_of("\\^$()|+{") != std::string_view::npos)
      throw gcn::Error(gcn::Place{source, l.number, 0},
                       "'" + std::string(l.body) +
                           "' looks like a regular expression (deqp-runner's " + std::string(what) +
                           " holds regexes); gcnprobe's entries are globs: * any text, ? one "
                           "character, [...] a set (e.g. texel.uniform.*)");
    f.entries.push_back({std::string(l.body), std::string(l.comment), source, l.number});
  });
  return f;
}

GlobList readGlobList(const std::string& path, std::string_view what) {
  return parseGlobList(readText(path, std::string(what).c_str()), path, what);
}

CaseResult applyExpectations(const Baseline& baseline, const GlobList& flakes, CaseResult r) {
  const BaselineEntry* e = baseline.find(r.name);
  const GlobEntry* flake = flakes.find(r.name);
  const CaseResult::Original before{r.verdict, r.reason};
  if (isRegression(r.verdict)) {
    const std::string original = std::string(verdictName(r.verdict)) + ": " + r.reason;
    if (e != nullptr && e->covers(r.verdict)) {
      r.verdict = Verdict::ExpectedFail;
      r.reason = original + std::string(kExpectedMark) + withWhere(e->where(), e->reason) + "]";
      r.original = before;
      return r;
    }
    if (e != nullptr) {
      r.reason += std::string(kExpectsMark) + e->where() + ") expects " + e->status + "]";
      r.original = before;
    }
    if (flake != nullptr) {
      r.reason = std::string(verdictName(r.verdict)) + ": " + r.reason + std::string(kFlakeMark) +
                 withWhere(flake->file + ":" + std::to_string(flake->line), flake->reason) + "]";
      r.verdict = Verdict::Flake;
      r.original = before;
    }
    return r;
  }
  if (r.verdict == Verdict::Pass && e != nullptr && e->expectsFailure()) {
    const std::string expects =
        "the baseline expects " + e->status + " (" + withWhere(e->where(), e->reason) + ")";
    if (flake != nullptr) {
      r.notes.push_back("known flake (" + flake->file + ":" + std::to_string(flake->line) +
                        "): " + expects);
      return r;
    }
    r.verdict = Verdict::UnexpectedPass;
    r.reason = expects;
    r.original = before;
  }
  return r;
}

std::optional<std::pair<Verdict, std::string>> originalVerdict(const CaseResult& r) {
  if (r.original) return std::make_pair(r.original->verdict, r.original->reason);
  if (r.verdict == Verdict::UnexpectedPass) return std::make_pair(Verdict::Pass, std::string());
  // A record without "original" was written before the member existed (or nothing changed
  // it): the marks the expectations appended, and an expected-fail or flake's leading verdict
  // name, are read from the reason.
  const auto cut = [](std::string_view s) {
    std::size_t at = s.size();
    for (std::string_view mark : {kExpectedMark, kExpectsMark, kFlakeMark, kRetryMark})
      at = std::min(at, s.find(mark));
    return std::string(s.substr(0, at));
  };
  if (r.verdict != Verdict::ExpectedFail && r.verdict != Verdict::Flake)
    return std::make_pair(r.verdict, cut(r.reason));
  const std::size_t colon = r.reason.find(": ");
  if (colon == std::string::npos) return std::nullopt;
  const std::optional<Verdict> v = verdictFromName(std::string_view(r.reason).substr(0, colon));
  if (!v || !isRegression(*v)) return std::nullopt;
  return std::make_pair(*v, cut(std::string_view(r.reason).substr(colon + 2)));
}

int runExitCode(const Summary& reported, bool failOnUnexpectedPass) {
  if (!reported.ok()) return 1;
  if (failOnUnexpectedPass && reported.count(Verdict::UnexpectedPass) > 0) return 1;
  return 0;
}

CaseResult flakeOnRetry(CaseResult first, std::string_view attempts) {
  first.original = CaseResult::Original{first.verdict, first.reason};
  first.reason = std::string(verdictName(first.verdict)) + ": " + first.reason +
                 std::string(kRetryMark) + "attempts " + std::string(attempts) + "]";
  first.verdict = Verdict::Flake;
  return first;
}

namespace {

std::string oneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

// A value of the `# recorded:` line: ';' separates its pairs and it is one line.
std::string recordedValue(std::string v) {
  std::replace(v.begin(), v.end(), ';', ',');
  std::replace(v.begin(), v.end(), '\n', ' ');
  return v;
}

}  // namespace

std::string recordedLine(const std::string& profile, const std::string& device,
                         const std::string& driver) {
  return "profile=" + recordedValue(profile) + "; device=" + recordedValue(device) +
         "; driver=" + recordedValue(driver);
}

std::optional<std::string> baselineMismatch(const Baseline& baseline, const std::string& profile,
                                            const std::string& device, const std::string& driver) {
  if (!baseline.recorded) return std::nullopt;
  const RecordedOn& r = *baseline.recorded;
  std::string out;
  const auto differ = [&](const char* what, const std::string& here, const std::string& there) {
    const std::string value = recordedValue(here);
    if (value == there) return;
    if (!out.empty()) out += "; ";
    out.append(what)
        .append(" '")
        .append(value)
        .append("' here, '")
        .append(there)
        .append("' in the baseline");
  };
  differ("profile", profile, r.profile);
  differ("device", device, r.device);
  differ("driver", driver, r.driver);
  if (out.empty()) return std::nullopt;
  return r.where + ": the baseline was recorded elsewhere: " + out;
}

std::string baselineFromResults(const ResultsFile& results,
                                std::span<const std::string> listOrder) {
  // Header members as the comment lines show them: "?" where absent.
  const auto shown = [&](const char* key) { return headerText(results.header, key, "?"); };
  std::string out = "# gcnprobe baseline: the regressions of " + results.source + "\n";
  out += "# device: " + shown("device_name") + "; driver: " + shown("driver") + " " +
         shown("driver_version") + "; Vulkan " + shown("vulkan_api_version") + "\n";
  out += "# gcnprobe " + shown("gcnprobe_version") + "; profile " + shown("profile") +
         "; started " + shown("start_time");
  if (const std::string shard = shown("shard"); shard != "?" && !shard.empty())
    out += "; shard " + shard;
  out += "\n# run summary: " + oneLine(results.summary.value_or("?")) + "\n";
  // Read back by parseBaseline: a run on another device, driver or profile is warned about.
  out += "# recorded: " +
         recordedLine(shown("profile"), shown("device_name"),
                      shown("driver") + " " + shown("driver_version")) +
         "\n\n";

  std::map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < listOrder.size(); ++i)
    position.emplace(listOrder[i], i);
  struct Row {
    std::size_t position;
    std::string name, line;
  };
  std::vector<Row> rows;
  for (const CaseResult& c : results.cases) {
    if (c.verdict == Verdict::Flake) continue;  // passed on a retry or a known flake
    const auto original = originalVerdict(c);
    std::string status, reason;
    if (original) {
      if (!isRegression(original->first)) continue;
      status = verdictName(original->first);
      reason = original->second;
    } else {  // an expected-fail reason this version did not write
      status = verdictName(c.verdict);
      reason = c.reason;
    }
    reason = oneLine(reason);
    const auto it = position.find(c.name);
    rows.push_back({it != position.end() ? it->second : listOrder.size(), c.name,
                    c.name + "," + status + (reason.empty() ? "" : "  # " + reason)});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.position != b.position ? a.position < b.position : a.name < b.name;
  });
  for (const Row& r : rows)
    out += r.line + "\n";
  return out;
}

}  // namespace gcnprobe::results
