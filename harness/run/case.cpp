#include "harness/run/case.h"

namespace gcnprobe::run {

std::string_view verdictName(Verdict v) {
  switch (v) {
    case Verdict::Pass:
      return "pass";
    case Verdict::Fail:
      return "fail";
    case Verdict::Unsupported:
      return "unsupported";
    case Verdict::RouteMiss:
      return "route-miss";
    case Verdict::Error:
      return "error";
    case Verdict::Crash:
      return "crash";
    case Verdict::Timeout:
      return "timeout";
    case Verdict::Flake:
      return "flake";
    case Verdict::ExpectedFail:
      return "expected-fail";
    case Verdict::UnexpectedPass:
      return "unexpected-pass";
  }
  return "error";
}

std::optional<Verdict> verdictFromName(std::string_view name) {
  for (std::size_t k = 0; k < kVerdictCount; ++k) {
    const auto v = static_cast<Verdict>(k);
    if (verdictName(v) == name) return v;
  }
  return std::nullopt;
}

bool isRegression(Verdict v) {
  return v == Verdict::Fail || v == Verdict::RouteMiss || v == Verdict::Error ||
         v == Verdict::Crash || v == Verdict::Timeout;
}

}  // namespace gcnprobe::run
