#include "results/selection.h"

#include <fnmatch.h>

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

#include "reference/error.h"
#include "reference/text.h"
#include "results/baseline.h"
#include "results/results_file.h"

namespace gcnprobe::results {

bool globMatches(std::string_view glob, std::string_view name) {
  return fnmatch(std::string(glob).c_str(), std::string(name).c_str(), 0) == 0;
}

namespace {

bool anyMatch(const std::vector<std::string>& globs, const std::string& name) {
  for (const std::string& g : globs)
    if (globMatches(g, name)) return true;
  return false;
}

bool parseUnsigned(std::string_view t, unsigned& out) {
  if (t.empty()) return false;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), out);
  return r.ec == std::errc{} && r.ptr == t.data() + t.size();
}

}  // namespace

Shard parseShard(std::string_view text, std::string_view flag) {
  const auto slash = text.find('/');
  Shard s;
  if (slash == std::string_view::npos || !parseUnsigned(text.substr(0, slash), s.index) ||
      !parseUnsigned(text.substr(slash + 1), s.count) || s.count == 0 || s.index >= s.count)
    throw gcn::Error(gcn::Place{std::string(flag), 0, 0},
                     "'" + std::string(text) + "' is not a shard i/N with 0 <= i < N");
  return s;
}

std::optional<Shard> shardFromEnvironment() {
  const char* index = std::getenv("GTEST_SHARD_INDEX");
  const char* total = std::getenv("GTEST_TOTAL_SHARDS");
  if (index == nullptr && total == nullptr) return std::nullopt;
  if (index == nullptr || total == nullptr)
    throw gcn::Error(
        gcn::Place{index == nullptr ? "GTEST_SHARD_INDEX" : "GTEST_TOTAL_SHARDS", 0, 0},
        "is not set, but the other of GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS is");
  return parseShard(std::string(index) + "/" + total, "GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS");
}

std::vector<std::string> readCaseList(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw gcn::Error(gcn::Place{path, 0, 0}, "cannot read the case list");
  std::stringstream whole;
  whole << in.rdbuf();
  const std::string text = whole.str();
  std::vector<std::string> names;
  const std::string_view start = gcn::trimSpace(text);
  if (!start.empty() && start.front() == '{') {
    // A results file (`run --json`): its regressions and expected failures, to run again.
    for (const CaseResult& c : parseResults(text, path, /*allowTruncated=*/true).cases)
      if (isRegression(c.verdict) || c.verdict == Verdict::ExpectedFail) names.push_back(c.name);
    if (names.empty())
      throw gcn::Error(gcn::Place{path, 0, 0},
                       "a results file with no failing case: nothing to run again");
    return names;
  }
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    std::string_view t = gcn::trimSpace(line);
    if (t.empty() || t.front() == '#') continue;
    if (const std::size_t hash = t.find('#'); hash != std::string_view::npos)
      t = gcn::trimSpace(t.substr(0, hash));
    const std::size_t comma = t.find(',');
    if (comma == std::string_view::npos) {
      names.emplace_back(t);
      continue;
    }
    // A results.csv line (NAME,STATUS,DURATION) or a baseline line (NAME,STATUS): the case is
    // run again when its status is a failure (fail, crash, timeout, route-miss, error,
    // expected-fail; any case), so `--case-list results.csv` reruns what failed.
    const std::string_view status =
        gcn::trimSpace(t.substr(comma + 1, t.find(',', comma + 1) - (comma + 1)));
    const auto verdicts = statusVerdicts(status);
    if (!verdicts)
      throw gcn::Error(gcn::Place{path, number, 0},
                       "unknown status '" + std::string(status) +
                           "' (a results.csv or baseline line: NAME,STATUS[,DURATION])");
    if (!verdicts->empty()) names.emplace_back(gcn::trimSpace(t.substr(0, comma)));
  }
  if (names.empty())
    throw gcn::Error(gcn::Place{path, 0, 0},
                     "names no case (one case name per line, or results.csv / baseline lines "
                     "whose status is a failure; '#' starts a comment)");
  return names;
}

Selector::Selector(Selection s) : s_(std::move(s)), listed_(s_.names.begin(), s_.names.end()) {}

bool Selector::take(const std::string& name) {
  if (!listed_.empty()) seen_.insert(name);
  if (!s_.include.empty() && !anyMatch(s_.include, name)) return false;
  if (anyMatch(s_.exclude, name)) return false;
  if (!listed_.empty() && !listed_.count(name)) return false;
  if (anyMatch(s_.skip, name)) {
    skipped_.push_back(name);
    return false;
  }
  const std::size_t k = position_++;
  return !s_.shard || k % s_.shard->count == s_.shard->index;
}

void Selector::finish() const {
  for (const std::string& n : s_.names)
    if (!seen_.count(n))
      throw gcn::Error(gcn::Place{s_.namesSource.empty() ? "--case-list" : s_.namesSource, 0, 0},
                       "'" + n + "' is no case (see gcnprobe list)");
}

}  // namespace gcnprobe::results
