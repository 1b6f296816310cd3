#include "results/compare.h"

#include <algorithm>
#include <map>

#include "reference/error.h"

namespace gcnprobe::results {
namespace {

std::map<std::string, const CaseResult*> byName(const ResultsFile& f) {
  std::map<std::string, const CaseResult*> out;
  for (const CaseResult& c : f.cases)
    if (!out.emplace(c.name, &c).second)
      throw gcn::Error(f.source + ": case " + c.name + " is in the report twice");
  return out;
}

IsaChange isaChangeOf(const std::optional<std::string>& a, const std::optional<std::string>& b) {
  if (!a || !b) return IsaChange::NotVisible;
  return *a == *b ? IsaChange::Same : IsaChange::Different;
}

std::string verdictText(const std::optional<Verdict>& v) {
  return v ? std::string(verdictName(*v)) : std::string("absent");
}

std::string runLine(const char* label, const ResultsFile& f) {
  return std::string(label) + ": " + f.source + " (" + headerText(f.header, "driver", "?") + " " +
         headerText(f.header, "driver_version", "?") + ", profile " +
         headerText(f.header, "profile", "?") +
         "): " + (f.summary ? *f.summary : "no summary (the run did not finish)");
}

// Why a changed case changed, as far as the digests tell.
std::string isaText(const CaseChange& c) {
  switch (c.isa) {
    case IsaChange::Different:
      return "different instructions (isa " + *c.oldDigest + " -> " + *c.newDigest + ")";
    case IsaChange::Same:
      return "same instructions (isa " + *c.newDigest +
             "), different result: driver or hardware behaviour";
    case IsaChange::NotVisible:
      break;
  }
  if (c.oldDigest) return "no ISA visible in the new run";
  if (c.newDigest) return "no ISA visible in the old run";
  return "no ISA visible";
}

std::string plural(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

nlohmann::json digestJson(const std::optional<std::string>& d) {
  return d ? nlohmann::json(*d) : nlohmann::json(nullptr);
}

nlohmann::json changeJson(const CaseChange& c) {
  nlohmann::json j{{"name", c.name}};
  j["old_verdict"] = c.oldVerdict ? nlohmann::json(std::string(verdictName(*c.oldVerdict)))
                                  : nlohmann::json(nullptr);
  j["new_verdict"] = c.newVerdict ? nlohmann::json(std::string(verdictName(*c.newVerdict)))
                                  : nlohmann::json(nullptr);
  j["old_isa_digest"] = digestJson(c.oldDigest);
  j["new_isa_digest"] = digestJson(c.newDigest);
  j["isa"] = std::string(isaChangeName(c.isa));
  j["old_reason"] = c.oldReason;
  j["new_reason"] = c.newReason;
  return j;
}

nlohmann::json runJson(const ResultsFile& f) {
  nlohmann::json j{{"file", f.source}};
  for (const char* key : kRunIdentityMembers) {
    const auto it = f.header.find(key);
    j[key] = it == f.header.end() ? nlohmann::json(nullptr) : *it;
  }
  j["summary"] = f.summary ? nlohmann::json(*f.summary) : nlohmann::json(nullptr);
  j["cases"] = f.cases.size();
  return j;
}

}  // namespace

std::string_view isaChangeName(IsaChange c) {
  switch (c) {
    case IsaChange::Different:
      return "different-instructions";
    case IsaChange::Same:
      return "same-instructions";
    case IsaChange::NotVisible:
      break;
  }
  return "no-isa";
}

Comparison compareResults(const ResultsFile& oldRun, const ResultsFile& newRun) {
  const auto olds = byName(oldRun), news = byName(newRun);
  Comparison out;
  // Both maps are in name order, and so is every list filled from them.
  for (const auto& [name, o] : olds) {
    const auto it = news.find(name);
    CaseChange c;
    c.name = name;
    c.oldVerdict = o->verdict;
    c.oldDigest = o->isaDigest;
    c.oldReason = o->reason;
    if (it == news.end()) {
      out.removed.push_back(std::move(c));
      continue;
    }
    const CaseResult& n = *it->second;
    c.newVerdict = n.verdict;
    c.newDigest = n.isaDigest;
    c.newReason = n.reason;
    c.isa = isaChangeOf(c.oldDigest, c.newDigest);
    if (!isRegression(o->verdict) && isRegression(n.verdict))
      out.regressions.push_back(std::move(c));
    else if (isRegression(o->verdict) &&
             (n.verdict == Verdict::ExpectedFail || n.verdict == Verdict::Flake))
      out.baselined.push_back(std::move(c));
    else if (isRegression(o->verdict) && !isRegression(n.verdict))
      out.fixes.push_back(std::move(c));
    else if (o->verdict != n.verdict)
      out.changed.push_back(std::move(c));
    else if (c.isa == IsaChange::Different)
      out.isaChanged.push_back(std::move(c));
    else
      ++out.unchanged;
  }
  for (const auto& [name, n] : news) {
    if (olds.count(name) != 0) continue;
    CaseChange c;
    c.name = name;
    c.newVerdict = n->verdict;
    c.newDigest = n->isaDigest;
    c.newReason = n->reason;
    out.added.push_back(std::move(c));
  }
  // A shard holds a part of the cases: compared with another part or the whole run, the rest
  // shows up as added or removed, which is no change of the device or driver.
  const auto shardOf = [](const ResultsFile& f) {
    const std::string s = headerText(f.header, "shard");
    return s.empty() || s == "0/1" ? std::string() : s;
  };
  const std::string os = shardOf(oldRun), ns = shardOf(newRun);
  if (os != ns)
    out.shardNote = "OLD is " + (os.empty() ? std::string("the whole run") : "shard " + os) +
                    ", NEW " + (ns.empty() ? std::string("the whole run") : "shard " + ns) +
                    ": cases outside the smaller part count as new or removed; compare runs "
                    "of the same shard, or merge the shards first (gcnprobe merge)";
  return out;
}

std::string comparisonText(const Comparison& c, const ResultsFile& oldRun,
                           const ResultsFile& newRun) {
  std::string s = runLine("old", oldRun) + "\n" + runLine("new", newRun) + "\n";
  for (const char* key : kRunIdentityMembers) {
    const std::string a = headerText(oldRun.header, key, "?"),
                      b = headerText(newRun.header, key, "?");
    if (a != b) s += "  " + std::string(key) + ": " + a + " -> " + b + "\n";
  }
  if (!c.shardNote.empty()) s += "note: " + c.shardNote + "\n";
  s += plural(c.regressions.size(), "regression", "regressions") + ", " +
       plural(c.fixes.size(), "fix", "fixes") + ", " +
       (c.baselined.empty()
            ? std::string()
            : plural(c.baselined.size(), "regression now accepted by a baseline or flakes list",
                     "regressions now accepted by a baseline or flakes list") +
                  ", ") +
       plural(c.added.size(), "new case", "new cases") + ", " +
       plural(c.removed.size(), "removed case", "removed cases") + ", " +
       plural(c.changed.size(), "other verdict change", "other verdict changes") + ", " +
       plural(c.isaChanged.size(), "instruction change", "instruction changes") +
       " with the same verdict, " + std::to_string(c.unchanged) + " unchanged\n";
  const auto group = [&](const char* title, const std::vector<CaseChange>& list, const auto& line) {
    if (list.empty()) return;
    s += "\n" + std::string(title) + " (" + std::to_string(list.size()) + "):\n";
    for (const CaseChange& x : list)
      s += "  " + line(x) + "\n";
  };
  const auto verdictChange = [](const CaseChange& x, const std::string& reason) {
    return x.name + ": " + verdictText(x.oldVerdict) + " -> " + verdictText(x.newVerdict) + "; " +
           isaText(x) + (reason.empty() ? "" : "\n    " + reason);
  };
  group("regressions", c.regressions,
        [&](const CaseChange& x) { return verdictChange(x, x.newReason); });
  group("fixes", c.fixes, [&](const CaseChange& x) {
    return verdictChange(x, x.oldReason.empty() ? "" : "was: " + x.oldReason);
  });
  group("accepted by a baseline or flakes list (still failing: not fixes)", c.baselined,
        [&](const CaseChange& x) { return verdictChange(x, x.newReason); });
  group("other verdict changes", c.changed,
        [&](const CaseChange& x) { return verdictChange(x, x.newReason); });
  group("instructions changed, same verdict", c.isaChanged, [](const CaseChange& x) {
    return x.name + ": " + verdictText(x.newVerdict) + "; " + isaText(x);
  });
  group("new cases", c.added, [](const CaseChange& x) {
    return x.name + ": " + verdictText(x.newVerdict) +
           (x.newReason.empty() ? "" : "\n    " + x.newReason);
  });
  group("removed cases", c.removed,
        [](const CaseChange& x) { return x.name + ": was " + verdictText(x.oldVerdict); });
  return s;
}

nlohmann::json comparisonJson(const Comparison& c, const ResultsFile& oldRun,
                              const ResultsFile& newRun) {
  const auto list = [](const std::vector<CaseChange>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const CaseChange& x : v)
      a.push_back(changeJson(x));
    return a;
  };
  return {{"old", runJson(oldRun)},
          {"new", runJson(newRun)},
          {"counts",
           {{"regressions", c.regressions.size()},
            {"fixes", c.fixes.size()},
            {"baselined", c.baselined.size()},
            {"new_cases", c.added.size()},
            {"removed_cases", c.removed.size()},
            {"changed", c.changed.size()},
            {"isa_changed", c.isaChanged.size()},
            {"unchanged", c.unchanged}}},
          {"regressions", list(c.regressions)},
          {"fixes", list(c.fixes)},
          {"baselined", list(c.baselined)},
          {"shard_note", c.shardNote},
          {"changed", list(c.changed)},
          {"isa_changed", list(c.isaChanged)},
          {"new_cases", list(c.added)},
          {"removed_cases", list(c.removed)}};
}

}  // namespace gcnprobe::results
