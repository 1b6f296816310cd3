// A test hook, documented as such in docs/run.md ("Test hooks"): faults injected into chosen
// cases so that tests can prove what a run does when a case fails, crashes the process, hangs,
// or loses the device, on a device as well-behaved as lavapipe.
//
//   GCNPROBE_TEST_FAULT="KIND:GLOB[;KIND:GLOB...]"
//
// KIND is fail (the case's diff is turned into a failure), crash (the process aborts when the
// case's batch is dispatched), hang (the batch never finishes) or device-lost (the batch
// reports VK_ERROR_DEVICE_LOST); GLOB matches case names as --filter does. The first entry
// whose glob matches a case decides its fault.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gcnprobe::run {

enum class FaultKind { Fail, Crash, Hang, DeviceLost };
std::string_view faultName(FaultKind k);  // "fail", "crash", "hang", "device-lost"

struct InjectedFault {
  FaultKind kind = FaultKind::Fail;
  std::string glob;
};

inline constexpr const char* kFaultVariable = "GCNPROBE_TEST_FAULT";

// Throws gcn::Error naming the variable and the entry for an unknown kind or an entry without
// a ':'.
std::vector<InjectedFault> parseFaults(std::string_view text);
// The variable's faults; none when it is unset or empty.
std::vector<InjectedFault> faultsFromEnvironment();
std::optional<FaultKind> faultFor(std::span<const InjectedFault> faults, std::string_view name);

}  // namespace gcnprobe::run
