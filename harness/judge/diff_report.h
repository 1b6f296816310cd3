// The report text of a diff: component lines (ComponentDiff's text fields), the one-line
// summary's parts and the notes. Only wording; what is accepted is acceptance.h's, what kind
// of mismatch classify.h's.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "harness/judge/acceptance.h"
#include "harness/judge/case.h"
#include "harness/judge/format_view.h"

namespace gcnprobe::judge {

// The value text of a stored field's code, as the format view loads it ("?" when it cannot).
std::string fieldValueText(const FormatView& fv, unsigned comp, uint32_t code);

// Fills the text of a returned register: expected nullopt = the reference claims no value
// (`why` says why, or a stock phrase when empty).
void describeRegister(results::ComponentDiff& d, gcn::RegType t, std::optional<uint32_t> expected,
                      uint32_t actual, const std::string& why);
// Fills the text of a stored field; `initial` nullopt when the buffer had no bytes there.
void describeField(results::ComponentDiff& d, const FormatView& fv, unsigned comp,
                   uint32_t expected, uint32_t actual, std::optional<uint32_t> initial);

// Summary parts.
std::string guardProblem(std::span<const int64_t> changed);
std::string memorySizeProblem(size_t actual, size_t expected);
// `first`: the first mismatching component of a failing lane (nullptr when none is known).
std::string laneProblem(int failingLanes, const results::ComponentDiff* first);
// "element 10 field z: expected 0x..., actual 0x... [1-lsb]".
std::string fieldMismatchText(const results::ComponentDiff& d);
std::string memoryProblem(int badElements, const std::string& firstBad);
// The problems joined with "; ".
std::string joinProblems(const std::vector<std::string>& problems);

// The note on sRGB components: the largest |actual - exact EOTF| and where.
std::string srgbNote(double worst, double atExpected);

// Which rule accepted a value ("gfx9 defaults", "gfx9 defaults, within tolerance exact"), or
// that none did, naming the rules of the set that were tried.
std::string acceptanceText(const Expected& e, const std::optional<Acceptance>& a,
                           const Tolerance& tol);

}  // namespace gcnprobe::judge
