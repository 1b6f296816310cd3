#include "results/isa_compare.h"

#include <map>
#include <regex>
#include <set>

#include "reference/error.h"

namespace gcnprobe::results {
namespace {

using nlohmann::json;

const json& chipsOf(const json& doc, const std::string& name) {
  checkIsaDocument(doc, name);
  return doc["chips"];
}

// An outcome is a name ("verified", "route-miss", ...): lower-case letters and hyphens.
bool isOutcomeName(const std::string& s) {
  if (s.empty() || s.size() > 40) return false;
  for (char ch : s)
    if (!((ch >= 'a' && ch <= 'z') || ch == '-')) return false;
  return true;
}

bool allStrings(const json& a) {
  for (const json& x : a)
    if (!x.is_string()) return false;
  return true;
}

}  // namespace

void checkIsaDocument(const json& doc, const std::string& name) {
  if (!doc.is_object() || !doc.contains("chips") || !doc.at("chips").is_array())
    throw gcn::Error(name + ": no \"chips\" array: not the JSON of `gcnprobe isa --json`");
  const json& chips = doc.at("chips");
  if (chips.empty()) throw gcn::Error(name + ": \"chips\" is empty: the isa run checked no chip");
  std::set<std::string> chipNames;
  for (std::size_t i = 0; i < chips.size(); ++i) {
    const json& chip = chips[i];
    std::string where = name + ": chip " + std::to_string(i);
    if (!chip.is_object()) throw gcn::Error(where + " is not an object");
    if (!chip.contains("chip") || !chip.at("chip").is_string() ||
        chip.at("chip").get<std::string>().empty())
      throw gcn::Error(where + " has no \"chip\" name");
    const std::string chipName = chip.at("chip").get<std::string>();
    where += " (" + chipName + ")";
    if (!chipNames.insert(chipName).second) throw gcn::Error(where + " appears twice");
    if (!chip.contains("cases") || !chip.at("cases").is_array())
      throw gcn::Error(where + " has no \"cases\" array");
    std::set<std::string> caseNames;
    const json& cases = chip.at("cases");
    for (std::size_t k = 0; k < cases.size(); ++k) {
      const json& c = cases[k];
      const std::string at = where + ", case " + std::to_string(k);
      if (!c.is_object()) throw gcn::Error(at + " is not an object");
      if (!c.contains("case") || !c.at("case").is_string() ||
          c.at("case").get<std::string>().empty())
        throw gcn::Error(at + " has no \"case\" name");
      const std::string caseName = c.at("case").get<std::string>();
      if (!caseNames.insert(caseName).second)
        throw gcn::Error(where + " holds case " + caseName + " twice");
      if (!c.contains("outcome") || !c.at("outcome").is_string() ||
          !isOutcomeName(c.at("outcome").get<std::string>()))
        throw gcn::Error(at + " (" + caseName +
                         "): \"outcome\" is not an outcome name (verified, route-miss, ...)");
      for (const char* member : {"proof"})
        if (c.contains(member) && (!c.at(member).is_array() || !allStrings(c.at(member))))
          throw gcn::Error(at + " (" + caseName + "): \"" + member + "\" is not a list of strings");
      if (c.contains("emitted")) {
        if (!c.at("emitted").is_array())
          throw gcn::Error(at + " (" + caseName + "): \"emitted\" is not a list");
        for (const json& e : c.at("emitted"))
          if (!e.is_object())
            throw gcn::Error(at + " (" + caseName + "): an \"emitted\" entry is not an object");
      }
      if (c.contains("twin")) {
        const json& t = c.at("twin");
        if (!t.is_object() || (t.contains("outcome") && !t.at("outcome").is_string()))
          throw gcn::Error(at + " (" + caseName + "): \"twin\" is not an object with an outcome");
        if (t.contains("cases")) {
          if (!t.at("cases").is_array())
            throw gcn::Error(at + " (" + caseName + "): \"twin\" cases is not a list");
          for (const json& one : t.at("cases"))
            if (!one.is_object() || (one.contains("proof") &&
                                     (!one.at("proof").is_array() || !allStrings(one.at("proof")))))
              throw gcn::Error(at + " (" + caseName +
                               "): a twin is not an object with a proof list");
        }
      }
    }
  }
}

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
  checkIsaDocument(before, beforeName);
  checkIsaDocument(after, afterName);
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
      for (const json& c : a.at("cases"))
        if (isaString(c, "outcome") == "verified") ++out.newlyBroken;
      continue;
    }
    std::map<std::string, const json*> bCases;
    for (const json& c : found->second->at("cases"))
      bCases[isaString(c, "case")] = &c;
    std::set<std::string> names;
    for (const json& c : a.at("cases")) {
      const std::string name = isaString(c, "case");
      names.insert(name);
      const auto b = bCases.find(name);
      if (b == bCases.end()) {
        // A verified case that is gone is broken too: a gutted run must not pass a gate.
        out.onlyBefore.push_back(chip + ": " + name);
        if (isaString(c, "outcome") == "verified") ++out.newlyBroken;
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

}  // namespace gcnprobe::results
