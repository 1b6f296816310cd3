#include "harness/run/test_faults.h"

#include <cstdlib>

#include "reference/error.h"
#include "results/selection.h"

namespace gcnprobe::run {

std::string_view faultName(FaultKind k) {
  switch (k) {
    case FaultKind::Fail:
      return "fail";
    case FaultKind::Crash:
      return "crash";
    case FaultKind::Hang:
      return "hang";
    case FaultKind::DeviceLost:
      return "device-lost";
  }
  return "fail";
}

std::vector<InjectedFault> parseFaults(std::string_view text) {
  std::vector<InjectedFault> out;
  while (!text.empty()) {
    const std::size_t end = text.find(';');
    const std::string_view entry = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (entry.empty()) continue;
    const std::size_t colon = entry.find(':');
    if (colon == std::string_view::npos || colon + 1 == entry.size())
      throw gcn::Error(gcn::Place{kFaultVariable, 0, 0},
                       "'" + std::string(entry) + "' is not KIND:GLOB");
    const std::string_view kind = entry.substr(0, colon);
    InjectedFault f;
    f.glob = std::string(entry.substr(colon + 1));
    bool known = false;
    for (FaultKind k : {FaultKind::Fail, FaultKind::Crash, FaultKind::Hang, FaultKind::DeviceLost})
      if (faultName(k) == kind) {
        f.kind = k;
        known = true;
      }
    if (!known)
      throw gcn::Error(
          gcn::Place{kFaultVariable, 0, 0},
          "unknown fault '" + std::string(kind) + "' (fail, crash, hang or device-lost)");
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<InjectedFault> faultsFromEnvironment() {
  const char* text = std::getenv(kFaultVariable);
  return text != nullptr ? parseFaults(text) : std::vector<InjectedFault>{};
}

std::optional<FaultKind> faultFor(std::span<const InjectedFault> faults, std::string_view name) {
  const std::string n(name);
  for (const InjectedFault& f : faults)
    if (results::globMatches(f.glob, n)) return f.kind;
  return std::nullopt;
}

}  // namespace gcnprobe::run
