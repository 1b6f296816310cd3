// Which cases a run takes, in the order `gcnprobe list` prints them: name globs to include
// (any of them) and to exclude, an explicit case list, and a deterministic shard of the
// result, so that N runners each run one shard and `gcnprobe list` says which.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gcnprobe::results {

// `glob` (* ? [...], as --filter) matches the whole of `name`: the one glob rule of --filter,
// --exclude, skips, flakes and baseline entries.
bool globMatches(std::string_view glob, std::string_view name);

struct Shard {
  unsigned index = 0;  // 0-based
  unsigned count = 1;
};

// "i/N" with 0 <= i < N (deqp-runner and GoogleTest count shards from 0). Throws gcn::Error
// (place `flag`) for anything else.
Shard parseShard(std::string_view text, std::string_view flag = "--shard");

// GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS when both are set (CI systems that shard
// GoogleTest binaries set them); std::nullopt when neither is. Throws gcn::Error naming the
// variable when only one is set or a value is not a shard.
std::optional<Shard> shardFromEnvironment();

struct Selection {
  std::vector<std::string> include;  // globs (* ?); empty = every case
  std::vector<std::string> exclude;  // globs
  std::vector<std::string> names;    // exact case names (a case list); empty = no list
  std::string namesSource;           // where `names` came from, for errors ("cases.txt")
  // Globs of cases not to run (a skips list): taken out after the globs and the list, before
  // the shard, so that every shard skips the same cases and the shards still add up.
  std::vector<std::string> skip;
  std::optional<Shard> shard;
};

// A case list file: one case name per line; blank lines and lines starting with '#' are
// skipped, surrounding blanks and trailing '# comments' trimmed. A results.csv line
// (NAME,STATUS,DURATION) or a baseline line (NAME,STATUS) names its case when STATUS is a
// failure; a results file (`run --json`, starting with '{') names its failing and expected-fail
// cases: either reruns what failed. Throws gcn::Error naming the file (and line) when it cannot
// be read, has an unknown status, or names no case (an empty list would otherwise select every
// case).
std::vector<std::string> readCaseList(const std::string& path);

// A Selection applied to case names as a list yields them: take(name) is asked once per case,
// in list order. Shard k of N keeps the cases whose position among the otherwise selected
// ones is k modulo N. finish() throws gcn::Error naming a name of the case list that no case
// had, and the list (a typo must not shrink a CI run silently).
class Selector {
 public:
  explicit Selector(Selection s);
  bool take(const std::string& name);
  void finish() const;
  // The cases `skip` took out, in list order.
  const std::vector<std::string>& skipped() const { return skipped_; }

 private:
  Selection s_;
  std::set<std::string> listed_, seen_;
  std::vector<std::string> skipped_;
  std::size_t position_ = 0;
};

}  // namespace gcnprobe::results
