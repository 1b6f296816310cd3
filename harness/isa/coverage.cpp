#include "harness/isa/coverage.h"

#include <map>
#include <set>

#include "harness/formats.h"
#include "reference/opcodes.h"

namespace gcnprobe::isa {
namespace {

using Pair = std::pair<int, int>;  // (dfmt, nfmt); (-1, -1) for instructions without one

bool takesFormat(const gcn::OpcodeInfo& op) {
  return op.dfmtSource == gcn::FieldSource::Instruction ||
         op.dfmtSource == gcn::FieldSource::Resource;
}

std::vector<Pair> knownPairs(gcn::Gen gen, const gcn::OpcodeInfo& op) {
  if (!takesFormat(op)) return {{-1, -1}};
  const gcn::Direction dir =
      op.kind == gcn::OpKind::StoreFormat ? gcn::Direction::Store : gcn::Direction::Load;
  std::vector<Pair> out;
  for (const gcn::DfmtInfo& d : gcn::allDfmts()) {
    if (d.components == 0) continue;
    for (int n = 0; n < 8; ++n)
      if (gcn::pairStatus(gen, d.code, static_cast<gcn::Nfmt>(n), dir).status !=
          gcn::PairStatus::Illegal)
        out.push_back({static_cast<int>(d.code), n});
  }
  return out;
}

Pair pairOf(const CaseIsaRecord& r) {
  if (!r.dfmt || !r.nfmt) return {-1, -1};
  return {static_cast<int>(*r.dfmt), static_cast<int>(*r.nfmt)};
}

// Whether some VkFormat of the table gives a texel-buffer V# with the pair.
bool vkFormatMapsTo(Pair p) {
  for (const vk::BufferFormat& f : vk::allBufferFormats())
    if (f.texel && static_cast<int>(f.dfmt) == p.first && static_cast<int>(f.nfmt) == p.second)
      return true;
  return false;
}

// Unsupported reasons name the format first ("VK_FORMAT_X lacks ..."): group without it.
std::string withoutFormatName(const std::string& reason) {
  if (reason.rfind("VK_FORMAT_", 0) == 0) {
    const auto sp = reason.find(' ');
    if (sp != std::string::npos) return "<format>" + reason.substr(sp);
  }
  return reason;
}

}  // namespace

std::string_view caseOutcomeName(CaseOutcome o) {
  switch (o) {
    case CaseOutcome::Verified:
      return outcomeName(Outcome::Verified);
    case CaseOutcome::RouteMiss:
      return outcomeName(Outcome::RouteMiss);
    case CaseOutcome::NoIsa:
      return outcomeName(Outcome::NoIsa);
    case CaseOutcome::NoAssembly:
      return outcomeName(Outcome::NoAssembly);
    case CaseOutcome::Error:
      return "error";
    case CaseOutcome::NoRoute:
      return "no-route";
    case CaseOutcome::Unsupported:
      return "unsupported";
  }
  return "?";
}

std::optional<CaseOutcome> parseCaseOutcome(std::string_view text) {
  for (const CaseOutcome o :
       {CaseOutcome::Verified, CaseOutcome::RouteMiss, CaseOutcome::NoIsa, CaseOutcome::NoAssembly,
        CaseOutcome::Error, CaseOutcome::NoRoute, CaseOutcome::Unsupported})
    if (caseOutcomeName(o) == text) return o;
  return std::nullopt;
}

CaseOutcome caseOutcome(Outcome o) {
  switch (o) {
    case Outcome::Verified:
      return CaseOutcome::Verified;
    case Outcome::RouteMiss:
      return CaseOutcome::RouteMiss;
    case Outcome::NoIsa:
      return CaseOutcome::NoIsa;
    case Outcome::NoAssembly:
      return CaseOutcome::NoAssembly;
  }
  return CaseOutcome::Error;
}

std::vector<CoverageRow> coverage(gcn::Gen gen, std::span<const CaseIsaRecord> records,
                                  std::string_view chipName) {
  std::map<std::string, std::vector<const CaseIsaRecord*>> byOp;
  for (const CaseIsaRecord& r : records)
    byOp[r.mnemonic].push_back(&r);
  std::vector<CoverageRow> rows;
  for (const gcn::OpcodeInfo& op : gcn::allOpcodes()) {
    if (!gcn::existsOn(op, gen)) continue;
    CoverageRow row;
    row.mnemonic = std::string(op.mnemonic);
    const std::vector<Pair> known = knownPairs(gen, op);
    row.known = static_cast<unsigned>(known.size());
    const auto it = byOp.find(row.mnemonic);
    if (it == byOp.end()) {
      row.whyNot = "no case in any suite uses it";
      rows.push_back(row);
      continue;
    }
    std::map<Pair, std::vector<const CaseIsaRecord*>> byPair;
    for (const CaseIsaRecord* r : it->second)
      byPair[pairOf(*r)].push_back(r);
    std::map<std::string, unsigned> why;  // reason -> pairs
    for (const Pair& p : known) {
      const auto pc = byPair.find(p);
      if (pc == byPair.end()) {
        ++why[op.dfmtSource == gcn::FieldSource::Resource && !vkFormatMapsTo(p)
                  ? "no VkFormat gives this V# format (harness/formats.h)"
                  : "no case uses this format pair"];
        continue;
      }
      bool reached = false;
      std::string reason;
      for (const CaseIsaRecord* r : pc->second) {
        if (r->outcome == CaseOutcome::Verified && r->unsupported.empty())
          reached = true;
        else if (r->outcome != CaseOutcome::Verified && reason.empty())
          reason = "ISA " + std::string(caseOutcomeName(r->outcome));
        else if (reason.empty())
          reason =
              "unsupported on " + std::string(chipName) + ": " + withoutFormatName(r->unsupported);
      }
      if (reached)
        ++row.reached;
      else
        ++why[reason];
    }
    for (const auto& [reason, n] : why)
      row.whyNot += (row.whyNot.empty() ? "" : "; ") +
                    (takesFormat(op) ? std::to_string(n) + ": " : std::string()) + reason;
    rows.push_back(row);
  }
  return rows;
}

std::string coverageMarkdown(const gcn::Chip& chip, std::span<const CoverageRow> rows,
                             const std::map<std::string, std::string>* binary) {
  unsigned known = 0, reached = 0, opsReached = 0, built = 0;
  const auto binaryCell = [&](const std::string& m) -> std::string {
    const auto it = binary->find(m);
    if (it == binary->end()) return "not tried";
    return it->second.empty() ? "built" : it->second;
  };
  for (const CoverageRow& r : rows) {
    known += r.known;
    reached += r.reached;
    opsReached += r.reached > 0 ? 1 : 0;
    if (binary != nullptr && binaryCell(r.mnemonic) == "built") ++built;
  }
  std::string out = "### " + std::string(gcn::genName(chip.gen)) + " (" + std::string(chip.name) +
                    "): " + std::to_string(opsReached) + " of " + std::to_string(rows.size()) +
                    " opcodes reached; " + std::to_string(reached) + " of " +
                    std::to_string(known) + " (opcode, DFMT, NFMT) rows";
  if (binary != nullptr)
    out += "; binary route: " + std::to_string(built) + " of " + std::to_string(rows.size()) +
           " opcodes built (not run)";
  out += "\n\n";
  if (binary == nullptr)
    out += "| opcode | known | reached | why not (pairs: reason) |\n|---|---|---|---|\n";
  else
    out +=
        "| opcode | known | reached | why not (pairs: reason) | binary route |\n"
        "|---|---|---|---|---|\n";
  for (const CoverageRow& r : rows) {
    out += "| " + r.mnemonic + " | " + std::to_string(r.known) + " | " + std::to_string(r.reached) +
           " | " + r.whyNot + " |";
    if (binary != nullptr) out += " " + binaryCell(r.mnemonic) + " |";
    out += "\n";
  }
  return out;
}

}  // namespace gcnprobe::isa
