#include "results/merge.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>

#include "reference/error.h"
#include "results/json_report.h"
#include "results/selection.h"

namespace gcnprobe::results {
namespace {

std::string shardName(const Shard& s) {
  return std::to_string(s.index) + "/" + std::to_string(s.count);
}

// The input's "shard" member: "" (or none, reports of older versions) is the whole run, 0/1.
Shard shardOf(const ResultsFile& f) {
  const auto it = f.header.find("shard");
  if (it == f.header.end() || (it->is_string() && it->get<std::string>().empty()))
    return Shard{0, 1};
  if (!it->is_string()) throw gcn::Error(f.source + ": \"shard\" is not a string");
  return parseShard(it->get<std::string>(), f.source + ": \"shard\"");
}

nlohmann::json memberOr(const nlohmann::json& j, const std::string& key) {
  const auto it = j.find(key);
  return it == j.end() ? nlohmann::json(nullptr) : *it;
}

std::string describe(const nlohmann::json& v) {
  return v.is_null() ? std::string("none") : reportJsonText(v);
}

// One trailing member over every input: equal values are kept; of an object (the validation
// summary) the counts are summed and the message list ("unattributed") joined, every other
// member must be equal (the layer, its features); anything else is a disagreement.
nlohmann::json mergeTrailing(const std::string& key, const std::vector<const ResultsFile*>& files) {
  const auto has = [&](const ResultsFile* f) { return f->extra.contains(key); };
  const auto with = std::find_if(files.begin(), files.end(), has);
  const auto without = std::find_if_not(files.begin(), files.end(), has);
  if (without != files.end())
    throw gcn::Error("\"" + key + "\" is in " + (*with)->source + " but not in " +
                     (*without)->source + ": were the shards run with the same options?");
  const ResultsFile* first = files.front();
  const nlohmann::json& base = first->extra[key];
  if (std::all_of(files.begin(), files.end(),
                  [&](const ResultsFile* f) { return f->extra[key] == base; }))
    return base;
  if (!base.is_object()) throw gcn::Error("the inputs disagree on \"" + key + "\"");
  nlohmann::json out = base;
  for (std::size_t k = 1; k < files.size(); ++k) {
    const nlohmann::json& other = files[k]->extra[key];
    if (!other.is_object())
      throw gcn::Error(files[k]->source + ": \"" + key + "\" is not an object");
    for (const auto& [m, v] : other.items()) {
      nlohmann::json& acc = out[m];
      if (acc.is_number_unsigned() && v.is_number_unsigned()) {
        acc = acc.get<uint64_t>() + v.get<uint64_t>();
      } else if (acc.is_number() && v.is_number()) {
        acc = acc.get<double>() + v.get<double>();
      } else if (m == "unattributed" && acc.is_array() && v.is_array()) {
        acc.insert(acc.end(), v.begin(), v.end());
      } else if (acc != v) {
        throw gcn::Error(first->source + " and " + files[k]->source + " disagree on \"" + key +
                         "\".\"" + m + "\": " + describe(acc) + " and " + describe(v));
      }
    }
  }
  return out;
}

// Every input finished, unless the user accepts what an unfinished one holds: the unfinished
// ones' names.
std::vector<std::string> checkFinished(const std::vector<ResultsFile>& inputs,
                                       bool allowIncomplete) {
  std::vector<std::string> incomplete;
  for (const ResultsFile& f : inputs) {
    if (f.finished()) continue;
    const std::string why = f.summary
                                ? "its summary says the run stopped early ('" + *f.summary + "')"
                                : "it ends before its summary (a run that did not finish)";
    if (!allowIncomplete)
      throw gcn::Error(f.source + ": incomplete: " + why +
                       "; --allow-incomplete merges the cases it holds");
    incomplete.push_back(f.source);
  }
  return incomplete;
}

// One run: the same driver, device, profile and gcnprobe.
void checkOneRun(const std::vector<ResultsFile>& inputs) {
  const ResultsFile& first = inputs.front();
  for (const ResultsFile& f : inputs)
    for (const char* key : kRunIdentityMembers) {
      const nlohmann::json a = memberOr(first.header, key), b = memberOr(f.header, key);
      if (a != b)
        throw gcn::Error("the headers of " + first.source + " and " + f.source + " disagree on \"" +
                         key + "\": " + describe(a) + " and " + describe(b));
    }
}

// Shards 0..N-1 of one N, each exactly once: the inputs in shard order.
std::vector<const ResultsFile*> inShardOrder(const std::vector<ResultsFile>& inputs) {
  const ResultsFile& first = inputs.front();
  std::vector<Shard> shards;
  for (const ResultsFile& f : inputs)
    shards.push_back(shardOf(f));
  const unsigned count = shards.front().count;
  std::vector<const ResultsFile*> byShard(count, nullptr);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    if (shards[k].count != count)
      throw gcn::Error(first.source + " is shard " + shardName(shards.front()) + " but " +
                       inputs[k].source + " is shard " + shardName(shards[k]) +
                       ": not the shards of one run");
    const ResultsFile*& slot = byShard[shards[k].index];
    if (slot != nullptr)
      throw gcn::Error(slot->source + " and " + inputs[k].source + " are both shard " +
                       shardName(shards[k]));
    slot = &inputs[k];
  }
  for (unsigned k = 0; k < count; ++k)
    if (byShard[k] == nullptr) {
      std::string given;
      for (const ResultsFile& f : inputs)
        given += (given.empty() ? "" : ", ") + f.source;
      throw gcn::Error("shard " + std::to_string(k) + "/" + std::to_string(count) +
                       " is missing (given: " + given + ")");
    }
  return byShard;
}

// Disjoint: no case in two inputs. Shard k holds list positions k, k + N, k + 2N, ...: of T
// cases, (T - k + N - 1) / N; sizes that do not fit come from different selections (checked
// only when every input finished). The total number of cases.
std::size_t checkDisjointShards(const std::vector<const ResultsFile*>& byShard, bool complete) {
  std::map<std::string, const ResultsFile*> seen;
  for (const ResultsFile* f : byShard)
    for (const CaseResult& c : f->cases) {
      const auto [it, fresh] = seen.emplace(c.name, f);
      if (!fresh)
        throw gcn::Error(it->second == f ? "case " + c.name + " is twice in " + f->source
                                         : "case " + c.name + " is in both " + it->second->source +
                                               " and " + f->source);
    }
  std::size_t total = 0;
  for (const ResultsFile* f : byShard)
    total += f->records.size();
  const std::size_t count = byShard.size();
  if (complete)
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t want = (total - std::min<std::size_t>(total, k) + count - 1) / count;
      if (byShard[k]->records.size() != want)
        throw gcn::Error(byShard[k]->source + " (shard " + std::to_string(k) + "/" +
                         std::to_string(count) + ") has " +
                         std::to_string(byShard[k]->records.size()) + " cases where " +
                         std::to_string(want) + " of " + std::to_string(total) +
                         " belong to it: were the shards run with the same selection?");
    }
  return total;
}

// The records in list order. Without it (cases this build does not define), shard by shard:
// record j of shard k, then record j of shard k + 1, ...
void addRecordsInOrder(const std::vector<const ResultsFile*>& byShard, std::size_t total,
                       const std::vector<std::string>& listOrder, MergedReport& m) {
  std::map<std::string_view, std::size_t> rank;
  for (const std::string& name : listOrder)
    rank.emplace(name, rank.size());
  struct Slot {
    std::size_t rank;
    const ResultsFile* file;
    std::size_t index;
  };
  std::vector<Slot> order;
  for (std::size_t j = 0; order.size() < total; ++j)
    for (const ResultsFile* f : byShard)
      if (j < f->records.size()) {
        const auto it = rank.find(f->cases[j].name);
        order.push_back({it == rank.end() ? rank.size() : it->second, f, j});
      }
  std::stable_sort(order.begin(), order.end(),
                   [](const Slot& a, const Slot& b) { return a.rank < b.rank; });
  for (const Slot& p : order) {
    m.records.push_back(p.file->records[p.index]);
    m.summary.add(p.file->cases[p.index].verdict);
  }
}

// The first shard's header without a shard, starting at the earliest start, with where each
// shard came from.
nlohmann::json mergedHeader(const std::vector<const ResultsFile*>& byShard) {
  nlohmann::json header = byShard[0]->header;
  header["shard"] = "";
  nlohmann::json from = nlohmann::json::array();
  for (const ResultsFile* f : byShard) {
    from.push_back(
        {{"file", f->source},
         {"shard", memberOr(f->header, "shard")},
         {"cases", f->records.size()},
         {"summary", f->summary ? nlohmann::json(*f->summary) : nlohmann::json(nullptr)}});
    const nlohmann::json start = memberOr(f->header, "start_time");
    if (start.is_string() && header["start_time"].is_string() &&
        start.get<std::string>() < header["start_time"].get<std::string>())
      header["start_time"] = start;
  }
  header["merged_from"] = from;
  return header;
}

}  // namespace

MergedReport mergeResults(const std::vector<ResultsFile>& inputs, bool allowIncomplete,
                          const std::vector<std::string>& listOrder) {
  if (inputs.empty()) throw gcn::Error("no report to merge");
  const std::vector<std::string> incomplete = checkFinished(inputs, allowIncomplete);
  checkOneRun(inputs);
  const std::vector<const ResultsFile*> byShard = inShardOrder(inputs);
  const std::size_t total = checkDisjointShards(byShard, incomplete.empty());

  MergedReport m;
  addRecordsInOrder(byShard, total, listOrder, m);
  m.header = mergedHeader(byShard);
  std::vector<std::string> keys;
  for (const ResultsFile* f : byShard)
    for (const auto& [key, value] : f->extra.items())
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  for (const std::string& key : keys)
    m.extra[key] = mergeTrailing(key, byShard);

  m.summaryLine = m.summary.line();
  if (const auto v = m.extra.find("validation");
      v != m.extra.end() && v->is_object() && v->contains("messages"))
    m.summaryLine += ", " + reportJsonText((*v)["messages"]) + " validation messages";
  if (!incomplete.empty()) {
    m.summaryLine += "; incomplete inputs:";
    for (const std::string& s : incomplete)
      m.summaryLine += " " + s;
  }
  return m;
}

void writeMerged(const MergedReport& m, const std::string& path) {
  std::ofstream out(path == "-" ? "/dev/stdout" : path);
  if (!out) throw gcn::cannotWrite(path, "merged report");
  // The run's layout: its header members, then profile, device and expectation, then the
  // records one per line.
  constexpr std::array<const char*, 3> kLast = {"profile", "device", "expectation"};
  out << "{\n";
  for (const auto& [key, value] : m.header.items())
    if (std::find(kLast.begin(), kLast.end(), key) == kLast.end())
      out << reportJsonText(key) << ": " << reportJsonText(value) << ",\n";
  for (const char* key : kLast)
    if (m.header.contains(key))
      out << reportJsonText(key) << ": " << reportJsonText(m.header[key]) << ",\n";
  out << "\"cases\": [";
  bool firstRecord = true;
  for (const nlohmann::json& r : m.records) {
    out << (firstRecord ? "\n" : ",\n") << reportJsonText(r);
    firstRecord = false;
  }
  out << "\n],\n";
  for (const auto& [key, value] : m.extra.items())
    out << reportJsonText(key) << ": " << reportJsonText(value) << ",\n";
  out << "\"summary\": " << reportJsonText(m.summaryLine) << "\n}\n";
  out.close();
  if (!out)
    throw gcn::InfraError((path == "-" ? std::string("stdout") : path) +
                          ": cannot write the merged report: " +
                          (errno != 0 ? std::string(std::strerror(errno)) : "write failed"));
}

}  // namespace gcnprobe::results
