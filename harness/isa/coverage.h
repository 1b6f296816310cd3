// The coverage table: for every (opcode, DFMT, NFMT) the reference knows on a
// generation, whether some case reaches it there, verified by ISA, and why not where not.
// "Knows" = the opcode exists on the generation and, for format instructions, the pair is
// not Illegal for the direction in reference/format.h (pairStatus). Other instructions
// take no format: one row each.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/isa/check.h"
#include "reference/format.h"
#include "reference/gen.h"

namespace gcnprobe::isa {

// What `gcnprobe isa` found for one case: the check's Outcome (check.h), or why no check ran.
enum class CaseOutcome : uint8_t {
  Verified,
  RouteMiss,
  NoIsa,
  NoAssembly,
  Error,        // the case could not be built or checked
  NoRoute,      // no route of this build handles its binding
  Unsupported,  // the route cannot build its pipeline on this device
};
// "verified", "route-miss", "no-isa", "no-assembly", "error", "no-route", "unsupported".
std::string_view caseOutcomeName(CaseOutcome o);
// nullopt for text that is no name above.
std::optional<CaseOutcome> parseCaseOutcome(std::string_view text);
CaseOutcome caseOutcome(Outcome o);

// One case's ISA verdict on one chip.
struct CaseIsaRecord {
  std::string caseName;
  std::string mnemonic;           // the intended opcode
  std::optional<gcn::Dfmt> dfmt;  // the format pair the case exercises: MTBUF fields or the
  std::optional<gcn::Nfmt> nfmt;  // V#'s for MUBUF format ops; none for the others
  CaseOutcome outcome = CaseOutcome::Error;
  std::string unsupported;  // why the device could not run it ("" = it can)
};

struct CoverageRow {
  std::string mnemonic;
  unsigned known = 0;    // (DFMT, NFMT) pairs the reference knows (1 for non-format ops)
  unsigned reached = 0;  // of them: some case is ISA-verified and runnable on the chip
  std::string whyNot;    // for the unreached ones, grouped reasons with counts
};

std::vector<CoverageRow> coverage(gcn::Gen gen, std::span<const CaseIsaRecord> records,
                                  std::string_view chipName);

// A markdown table with a heading line for the chip and totals. With `binary` (opcode ->
// "" when the binary route built and proved it, else the reason; binary_patch.h) a column
// and a total for the binary route are added.
std::string coverageMarkdown(const gcn::Chip& chip, std::span<const CoverageRow> rows,
                             const std::map<std::string, std::string>* binary = nullptr);

}  // namespace gcnprobe::isa
