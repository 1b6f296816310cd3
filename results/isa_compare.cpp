#include "results/isa_compare.h"

#include <map>
#include <regex>
#include <set>

#include "reference/error.h"

namespace gcnprobe::run {
namespace {

using nlohmann::json;

const json& chipsOf(const json& doc, const std::string& name) {
  if (!doc.is_object() || !doc.contains("chips") || !doc["chips"].is_array())
    throw gcn::Error(name + ": no \"chips\" array: not the JSON of `gcnprobe isa --json`");
  return doc["chips"];
}

}  // namespace

std::string isaString(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The case's own instruction: the one the proof names ("instruction: proven: <text> ; <words>
// on <slot>"), else the emitted instructions on the case's buffer (binding 0 of set 0, or vertex
// buffer 0: harness/routes/route.cpp routePipelineShape), joined; the route's own In and Out
// instructions are left out.
std::string caseInstruction(const json& c) {
  static const std::string kProven = "instruction: proven: ";
  if (const auto p = c.find("proof"); p != c.end() && p->is_array())
    for (const json& link : *p)
      if (link.is_string() && link.get<std::string>().rfind(kProven, 0) == 0)
        return link.get<std::string>().substr(kProven.size());
  std::string out;
  if (const auto e = c.find("emitted"); e != c.end() && e->is_array())
    for (const json& x : *e) {
      const std::string t = isaString(x, "text");
      if (t.ends_with("; set 0 binding 0") || t.ends_with("; vertex buffer 0"))
        out += (out.empty() ? "" : " | ") + t;
    }
  return out.empty() ? "(none on the case's buffer)" : out;
}

// What a driver developer compares: the instructions without their registers (the driver's
// allocation), their words and the slot's wording: "buffer_store_format_x v?, v?, s?, 0 idxen
// glc". Several instructions stay in order.
std::string withoutRegisters(const std::string& instructions) {
  static const std::regex kRegister(R"(\b[vs](\[\d+:\d+\]|\d+\b))");
  std::string out;
  std::size_t start = 0;
  while (start <= instructions.size()) {
    const std::size_t bar = instructions.find(" | ", start);
    std::string one = instructions.substr(start, bar == std::string::npos ? bar : bar - start);
    one = one.substr(0, one.find(" ; "));
    out += (out.empty() ? "" : " | ") + std::regex_replace(one, kRegister, "r");
    if (bar == std::string::npos) break;
    start = bar + 3;
  }
  return out;
}

IsaComparison compareIsa(const json& before, const json& after, const std::string& beforeName,
                         const std::string& afterName) {
  IsaComparison out;
  std::map<std::string, const json*> afterChips;
  for (const json& ch : chipsOf(after, afterName))
    afterChips[isaString(ch, "chip")] = &ch;
  std::set<std::string> seen;
  for (const json& a : chipsOf(before, beforeName)) {
    const std::string chip = isaString(a, "chip");
    seen.insert(chip);
    const auto found = afterChips.find(chip);
    if (found == afterChips.end()) {
      out.chipsOnlyOnOneSide.push_back(chip + " (only in " + beforeName + ")");
      continue;
    }
    std::map<std::string, const json*> bCases;
    for (const json& c : (*found->second)["cases"])
      bCases[isaString(c, "case")] = &c;
    std::set<std::string> names;
    for (const json& c : a["cases"]) {
      const std::string name = isaString(c, "case");
      names.insert(name);
      const auto b = bCases.find(name);
      if (b == bCases.end()) {
        out.onlyBefore.push_back(chip + ": " + name);
        continue;
      }
      ++out.compared;
      IsaCaseChange ch{chip,
                       name,
                       isaString(c, "outcome"),
                       isaString(*b->second, "outcome"),
                       caseInstruction(c),
                       caseInstruction(*b->second),
                       isaString(*b->second, "reason")};
      if (ch.before == ch.after &&
          withoutRegisters(ch.instructionBefore) == withoutRegisters(ch.instructionAfter))
        continue;
      if (ch.before == ch.after) ++out.sameVerdictNewInstruction;
      if (ch.newlyBroken()) ++out.newlyBroken;
      if (ch.before != "verified" && ch.after == "verified") ++out.fixed;
      out.changes.push_back(std::move(ch));
    }
    for (const auto& [name, c] : bCases)
      if (!names.count(name)) out.onlyAfter.push_back(chip + ": " + name);
  }
  for (const auto& [chip, c] : afterChips)
    if (!seen.count(chip)) out.chipsOnlyOnOneSide.push_back(chip + " (only in " + afterName + ")");
  return out;
}

json isaComparisonJson(const IsaComparison& c) {
  json changes = json::array();
  for (const IsaCaseChange& ch : c.changes)
    changes.push_back({{"chip", ch.chip},
                       {"case", ch.name},
                       {"before", ch.before},
                       {"after", ch.after},
                       {"instruction_before", ch.instructionBefore},
                       {"instruction_after", ch.instructionAfter},
                       {"reason", ch.reason},
                       {"newly_broken", ch.newlyBroken()}});
  return {{"compared", c.compared},
          {"newly_broken", c.newlyBroken},
          {"fixed", c.fixed},
          {"same_verdict_new_instruction", c.sameVerdictNewInstruction},
          {"changes", std::move(changes)},
          {"only_before", c.onlyBefore},
          {"only_after", c.onlyAfter},
          {"chips_only_on_one_side", c.chipsOnlyOnOneSide}};
}

std::string isaComparisonText(const IsaComparison& c) {
  std::string s;
  for (const IsaCaseChange& ch : c.changes) {
    s += ch.chip + "  " + ch.name + "  " + ch.before + " -> " + ch.after +
         (ch.newlyBroken() ? "  (newly broken)" : "") + "\n";
    if (withoutRegisters(ch.instructionBefore) != withoutRegisters(ch.instructionAfter))
      s += "    case instruction: " + ch.instructionBefore + "\n                   -> " +
           ch.instructionAfter + "\n";
    if (ch.after != "verified" && !ch.reason.empty()) s += "    reason: " + ch.reason + "\n";
  }
  for (const std::string& n : c.onlyBefore)
    s += "only before: " + n + "\n";
  for (const std::string& n : c.onlyAfter)
    s += "only after: " + n + "\n";
  for (const std::string& n : c.chipsOnlyOnOneSide)
    s += "chip " + n + "\n";
  s += std::to_string(c.compared) + " cases in both: " + std::to_string(c.changes.size()) +
       " changed (" + std::to_string(c.newlyBroken) + " newly broken, " + std::to_string(c.fixed) +
       " newly verified, " + std::to_string(c.sameVerdictNewInstruction) +
       " with the same verdict and another case instruction, registers aside), " +
       std::to_string(c.onlyBefore.size()) + " only before, " + std::to_string(c.onlyAfter.size()) +
       " only after\n";
  return s;
}

}  // namespace gcnprobe::run
