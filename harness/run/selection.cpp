#include "harness/run/selection.h"

#include <fnmatch.h>

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <set>

#include "reference/error.h"
#include "reference/text.h"

namespace gcnprobe::run {
namespace {

bool anyMatch(const std::vector<std::string>& globs, const std::string& name) {
  for (const std::string& g : globs)
    if (fnmatch(g.c_str(), name.c_str(), 0) == 0) return true;
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
  std::vector<std::string> names;
  std::string line;
  while (std::getline(in, line)) {
    const std::string_view t = gcn::trimSpace(line);
    if (t.empty() || t.front() == '#') continue;
    names.emplace_back(t);
  }
  return names;
}

std::vector<Case> selectCases(std::vector<Case> all, const Selection& s) {
  if (!s.names.empty()) {
    std::set<std::string> known;
    for (const Case& c : all)
      known.insert(c.name);
    for (const std::string& n : s.names)
      if (!known.count(n))
        throw gcn::Error(gcn::Place{s.namesSource.empty() ? "--case-list" : s.namesSource, 0, 0},
                         "'" + n + "' is no case (see gcnprobe list)");
  }
  const std::set<std::string> listed(s.names.begin(), s.names.end());
  std::vector<Case> out;
  std::size_t position = 0;
  for (Case& c : all) {
    if (!s.include.empty() && !anyMatch(s.include, c.name)) continue;
    if (anyMatch(s.exclude, c.name)) continue;
    if (!listed.empty() && !listed.count(c.name)) continue;
    const std::size_t k = position++;
    if (s.shard && k % s.shard->count != s.shard->index) continue;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace gcnprobe::run
