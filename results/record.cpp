#include "results/record.h"

namespace gcnprobe::results {

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

std::string Summary::line() const {
  std::string s = std::to_string(count(Verdict::Pass)) + " passed, " +
                  std::to_string(count(Verdict::Fail)) + " failed, " +
                  std::to_string(count(Verdict::Unsupported)) + " unsupported";
  for (std::size_t k = 0; k < kVerdictCount; ++k) {
    const auto v = static_cast<Verdict>(k);
    if (v == Verdict::Pass || v == Verdict::Fail || v == Verdict::Unsupported || counts[k] == 0)
      continue;
    s += ", " + std::to_string(counts[k]) + " " + std::string(verdictName(v));
  }
  return s;
}

bool Summary::ok() const {
  for (std::size_t k = 0; k < kVerdictCount; ++k)
    if (counts[k] > 0 && isRegression(static_cast<Verdict>(k))) return false;
  return true;
}

}  // namespace gcnprobe::results
