// What changed between two `gcnprobe isa --json` documents (two drivers, two Mesa builds, two
// chips' runs): per case present in both, the outcome and the case's own instruction (the one
// the proof names, or the emitted instructions on the case's buffer), never the route's own
// scaffolding unless the verdict changed; cases only one side has. `gcnprobe isa --compare A B`
// prints it; exit 1 when a case verified in A is not in B.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gcnprobe::results {

struct IsaCaseChange {
  std::string chip, name;
  std::string before, after;                        // outcomes ("verified", "route-miss", ...)
  std::string instructionBefore, instructionAfter;  // the case's own instruction(s)
  std::string reason;                               // B's reason when B is not verified
  bool newlyBroken() const { return before == "verified" && after != "verified"; }
};

struct IsaComparison {
  std::vector<IsaCaseChange> changes;              // verdict or case instruction changed
  std::vector<std::string> onlyBefore, onlyAfter;  // "chip: case"
  std::vector<std::string> chipsOnlyOnOneSide;
  // newlyBroken: cases verified before and not after, including verified cases (and chips)
  // that the later document lacks.
  unsigned compared = 0, sameVerdictNewInstruction = 0, newlyBroken = 0, fixed = 0;
};

// Throws gcn::Error naming `name`, the chip and the case when `doc` is not a well-formed
// document of `gcnprobe isa --json`: a non-empty "chips" array of objects, each with a "chip"
// name (once) and a "cases" array of objects, each with a "case" name (once per chip), an
// "outcome" name, and "proof", "emitted" and "twin" of their types where present.
void checkIsaDocument(const nlohmann::json& doc, const std::string& name);

// A string member of an isa --json object, "" when it is absent or not a string.
std::string isaString(const nlohmann::json& j, const char* key);
// The case's own instruction in one isa --json case record: the one its proof names
// ("instruction: proven: <text> ; <words> on <slot>"), else the emitted instructions on the
// case's buffer joined with " | " (the route's own In and Out instructions left out).
std::string caseInstruction(const nlohmann::json& caseRecord);
// The same instructions without registers (the driver's allocation), words or slot: what a
// driver developer compares across drivers.
std::string withoutRegisters(const std::string& instructions);

// Throws gcn::Error naming the file when a document is no isa JSON (no "chips" array).
IsaComparison compareIsa(const nlohmann::json& before, const nlohmann::json& after,
                         const std::string& beforeName, const std::string& afterName);

// The comparison as JSON: {compared, newly_broken, fixed, same_verdict_new_instruction,
// changes: [{chip, case, before, after, instruction_before, instruction_after, reason,
// newly_broken}], only_before, only_after, chips_only_on_one_side}.
nlohmann::json isaComparisonJson(const IsaComparison& c);

// The report: one block per changed case, then a summary line per document pair.
std::string isaComparisonText(const IsaComparison& c);

}  // namespace gcnprobe::results
