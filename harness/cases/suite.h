// Suites: named generators of cases. A suite builds its cases for the chip whose reference
// predicts them (the V# layout and NUM_RECORDS units depend on the generation).
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/judge/case.h"
#include "probe/probe_eval.h"
#include "reference/gen.h"

namespace gcnprobe::cases {

// Suite names (Case::suite), for the builders and the registry below.
inline constexpr std::string_view kTexelSuite = "texel";
inline constexpr std::string_view kStorageSuite = "storage";
inline constexpr std::string_view kAtomicSuite = "atomic";
inline constexpr std::string_view kVertexSuite = "vertex";
inline constexpr std::string_view kDisputedSuite = "disputed";
inline constexpr std::string_view kBinarySuite = "binary";

// The register layout of every suite's cases: the V# in s[4:7], the address (a byte offset for
// OFFEN, an element or vertex index for IDXEN) in v0, the data in v[1:4].
inline constexpr uint8_t kCaseSrsrc = 4;
inline constexpr uint8_t kCaseVaddr = 0;
inline constexpr uint8_t kCaseVdata = 1;
// `op` on that layout with SOFFSET the inline constant 0; the caller sets the address form
// (OFFEN or IDXEN), OFFSET and the modifiers.
gcn::Instruction caseInstruction(const gcn::OpcodeInfo& op);

// Which of a suite's cases to build. A suite asks it once for each case of its list, in list
// order, before it keeps the case, and where it can before it fills the case in (memory
// images, registers, V#s): running a few cases then costs only those cases. Empty: every case.
using CaseFilter = std::function<bool(const std::string& name)>;
inline bool wanted(const CaseFilter& want, const std::string& name) {
  return !want || want(name);
}
// A suite's case makers return std::nullopt for a case `want` does not take: appends the ones
// that were made.
inline void addCase(std::vector<judge::Case>& cases, std::optional<judge::Case> c) {
  if (c) cases.push_back(std::move(*c));
}

// The suite registry: every suite once, in list order, the default one first. `list`,
// `run --suite` (validation and help) and buildCases read it.
struct SuiteInfo {
  std::string_view name;
  std::vector<judge::Case> (*build)(const gcn::Chip& chip, const CaseFilter& want);
  bool inAll;  // part of a run without --suite (disputed: only when named)
  std::string_view description;
};
std::span<const SuiteInfo> allSuites();
// nullptr when no suite has that name.
const SuiteInfo* findSuite(std::string_view name);

// Suite names, the default one first.
std::vector<std::string> suiteNames();
// The help text of --suite: "only this suite (texel, storage, ...; disputed runs only when
// named)".
std::string suiteOptionHelp();

// All cases of `suite` ("" = the default suites, SuiteInfo::inAll) whose name matches
// `filter` (a glob with * and ?; "" = all). Throws gcn::Error for an unknown suite.
std::vector<judge::Case> buildCases(std::string_view suite, std::string_view filter,
                                    const gcn::Chip& chip);
// The cases of `suite` ("" = the default suites) that `want` takes (CaseFilter above).
// Throws gcn::Error for an unknown suite.
std::vector<judge::Case> buildWantedCases(std::string_view suite, const CaseFilter& want,
                                          const gcn::Chip& chip);

// The texel suite: BUFFER_LOAD_FORMAT_{X..XYZW} through uniform and storage texel buffers
// and BUFFER_STORE_FORMAT_XYZW through storage texel buffers, on every table format that
// has a texel-buffer V# (harness/formats.h).
std::vector<judge::Case> texelSuite(const gcn::Chip& chip, const CaseFilter& want = {});

// The storage suite (suite_storage.cpp): BUFFER_LOAD/STORE_<type> through an SSBO.
std::vector<judge::Case> storageSuite(const gcn::Chip& chip, const CaseFilter& want = {});
// The atomic suite (suite_atomic.cpp): BUFFER_ATOMIC_* on SSBOs and R32 texel buffers.
std::vector<judge::Case> atomicSuite(const gcn::Chip& chip, const CaseFilter& want = {});
// The vertex suite (suite_vertex.cpp): TBUFFER_LOAD_FORMAT_* / BUFFER_LOAD_DWORD* through a
// vertex attribute, every format with a vertex fetch instruction.
std::vector<judge::Case> vertexSuite(const gcn::Chip& chip, const CaseFilter& want = {});

// The binary suite (suite_binary.cpp): one case per MUBUF/MTBUF opcode of the chip's
// generation, run by patching it into a compiled template (harness/isa/binary_route.h);
// unsupported, with the reason, where the device cannot (any device that is not GCN).
std::vector<judge::Case> binarySuite(const gcn::Chip& chip, const CaseFilter& want = {});

// The disputed suite (suite_disputed.cpp): every probe in probes/ (docs/probes.md) that a
// route can realise on `chip`, prepared for that chip's generation, as case
// "disputed.<probe-name>". A malformed probe is a case with `broken` set to the error
// (file:line:column: reason), which the runner reports as an error record.
std::vector<judge::Case> disputedSuite(const gcn::Chip& chip, const CaseFilter& want = {});

// A probe file (docs/probes.md) prepared for a chip, as the case the disputed suite has for
// it: named "disputed.<file stem>" (probeCaseName), the probe's instruction, registers and
// memory as the route binds them, compared bit for bit. `c` is set when a route's Vulkan
// construct makes the driver run exactly this instruction with exactly this V# (memory cut
// to what the route binds); else `reason` says why not. `run --suite disputed` and
// `gcnprobe probe` both take their cases from here.
// A route considered for a probe: taken, or why not.
struct RouteAttempt {
  std::string route;  // "texel", "storage", "atomic", "raw", "binary", "program"
  bool taken = false;
  std::string why;
};
struct ProbeCase {
  std::optional<judge::Case> c;
  std::string reason;
  std::vector<RouteAttempt> attempts;  // in the order tried
};
// Throws gcn::Error at the probe's line for an unknown `route` or `format` name.
ProbeCase probeCase(const std::string& file, const gcn::probe::ProbeSetup& setup);
std::string probeCaseName(const std::string& file);

// The device's result for a probe case against one reference prediction, through the
// differ (diff.h) with the prediction as the only acceptable outcome, bit for bit (a
// register the reference leaves undefined matches anything): per lane (inactive lanes
// match) and memory (the route's buffer afterwards, no guard byte changed).
struct PredictionMatch {
  std::array<bool, gcn::kWaveSize> lanes{};
  bool memory = false;
  bool all = false;  // every lane and memory
};
PredictionMatch matchPrediction(const gcn::Chip& chip, const judge::Case& c,
                                const gcn::ExecResult& prediction,
                                const routes::DeviceResult& actual);

// Elements in each texel case's view; lanes index in range, at the last element and past
// the end (see suite.cpp).
inline constexpr uint32_t kTexelElements = 48;

// The assembler text of a case's instruction (gcn::printInstruction, llvm-mc syntax):
// "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 idxen".
std::string instructionText(gcn::Gen gen, const gcn::Instruction& inst);
// The case's intended GCN code: instructionText, or for a composed view (case.h
// ViewCompose) every load joined with " ; ", plus the sRGB decode a driver must add.
std::string caseInstructionText(gcn::Gen gen, const judge::Case& c);
// Fills r.vsharp and r.vsharpWords with the V# the case binds (its SRSRC quad), decoded for
// gen; leaves them empty when the instruction's SRSRC is not a quad in range.
void describeVSharp(gcn::Gen gen, const judge::Case& c, results::CaseResult& r);

// The case names of every suite (the disputed one last), in the order `gcnprobe list` prints
// them, as this build defines the suites for `profile` (a report's "profile"); empty when
// the profile is unknown to this build.
std::vector<std::string> caseListOrder(const std::string& profile);

}  // namespace gcnprobe::cases
