#include "harness/judge/diff_report.h"

#include <algorithm>
#include <cstdio>

#include "reference/convert.h"
#include "reference/policy.h"
#include "reference/text.h"

namespace gcnprobe::judge {
namespace {

constexpr const char* kComponentNames = "xyzw?";

}  // namespace

std::string fieldValueText(const FormatView& fv, unsigned comp, uint32_t code) {
  const auto reg = gcn::loadComponent(fv.gen, fv.dfmt, fv.nfmt, comp, code, fv.policies);
  return reg ? gcn::registerValueText(fv.reg, *reg) : "?";
}

void describeRegister(results::ComponentDiff& d, gcn::RegType t, std::optional<uint32_t> expected,
                      uint32_t actual, const std::string& why) {
  d.actualBits = gcn::hexWord(actual);
  d.actualValue = gcn::registerValueText(t, actual);
  if (!expected) {
    d.expectedBits = "undefined";
    d.expectedValue = why.empty() ? "the reference claims no value" : why;
    return;
  }
  d.expectedBits = gcn::hexWord(*expected);
  d.expectedValue = gcn::registerValueText(t, *expected);
}

void describeField(results::ComponentDiff& d, const FormatView& fv, unsigned comp,
                   uint32_t expected, uint32_t actual, std::optional<uint32_t> initial) {
  d.memoryBits = initial ? gcn::hexWord(*initial) : "";
  d.expectedBits = gcn::hexWord(expected);
  d.expectedValue = fieldValueText(fv, comp, expected);
  d.actualBits = gcn::hexWord(actual);
  d.actualValue = fieldValueText(fv, comp, actual);
}

std::string guardProblem(std::span<const int64_t> changed) {
  if (changed.empty()) return "";
  return std::to_string(changed.size()) + " guard byte(s) changed, first at payload offset " +
         std::to_string(changed.front());
}

std::string memorySizeProblem(size_t actual, size_t expected) {
  return "memory size " + std::to_string(actual) + " != expected " + std::to_string(expected);
}

std::string laneProblem(int failingLanes, const results::ComponentDiff* first) {
  std::string s = std::to_string(failingLanes) + " lane(s) differ";
  if (first != nullptr) {
    s += ", first lane " + std::to_string(first->lane) + " component " +
         kComponentNames[std::min(first->component, 4u)] + ": expected " + first->expectedBits +
         " (" + first->expectedValue + "), actual " + first->actualBits + " (" +
         first->actualValue + ") [" + first->classification + "]";
  }
  return s;
}

std::string fieldMismatchText(const results::ComponentDiff& d) {
  return "element " + std::to_string(d.element) + " field " +
         kComponentNames[std::min(d.component, 4u)] + ": expected " + d.expectedBits + ", actual " +
         d.actualBits + " [" + d.classification + "]";
}

std::string memoryProblem(int badElements, const std::string& firstBad) {
  return std::to_string(badElements) + " memory element(s) differ" +
         (firstBad.empty() ? "" : ", first " + firstBad);
}

std::string joinProblems(const std::vector<std::string>& problems) {
  std::string s;
  for (const std::string& p : problems)
    s += (s.empty() ? "" : "; ") + p;
  return s;
}

std::string srgbNote(double worst, double atExpected) {
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "srgb: largest |actual - exact EOTF| = %.3g (%.3g relative, at %.6g)", worst,
                atExpected != 0 ? worst / atExpected : 0.0, atExpected);
  return buf;
}

std::string acceptanceText(const Expected& e, const std::optional<Acceptance>& a,
                           const Tolerance& tol) {
  const auto label = [&](RuleId r) {
    return r < e.rules.size() ? e.rules[r] : "rule " + std::to_string(r);
  };
  if (a) {
    std::string s = label(a->rule);
    if (a->tolerance) s += ", within tolerance " + std::string(tol.name);
    return s;
  }
  std::string s = "no rule accepts it (tolerance " + std::string(tol.name) + "; rules:";
  for (size_t r = 0; r < e.rules.size(); ++r)
    s += (r == 0 ? " " : ", ") + e.rules[r];
  return s + ")";
}

}  // namespace gcnprobe::judge
