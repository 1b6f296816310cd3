// The runner: case -> (reference expectations, on all cores) + (route on the device, one
// submission per batch of cases sharing a pipeline) -> diff -> a CaseResult per case,
// handed to a sink as soon as it exists, so results already computed are never lost when
// a later batch fails.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "harness/isa/check.h"
#include "harness/judge/case.h"
#include "harness/judge/expect.h"
#include "harness/judge/profile.h"
#include "harness/routes/route.h"
#include "harness/run/test_faults.h"

namespace gcnprobe::run {

// More reference threads than this only cost memory (cases are few thousand, cores far fewer).
inline constexpr unsigned kMaxJobs = 256;
// The most cases of one batch dispatched (and predicted, checked and freed) at a time.
inline constexpr std::size_t kCasesPerDispatch = 256;

struct RunOptions {
  judge::Profile profile;
  judge::DeviceRules rules;
  unsigned jobs = 0;  // reference threads; 0 = hardware concurrency; at most kMaxJobs
  // Checked before every batch: when it returns true the run ends there, every finished
  // case already given to the sink, the rest counted in Summary::notRun (never reported as
  // a verdict). `gcnprobe run` sets it from SIGINT/SIGTERM.
  std::function<bool()> stop;
  // A test hook (test_faults.h): faults injected into chosen cases.
  std::vector<InjectedFault> faults;
  // Called when a batch lost the device (vk::DeviceLost): re-creates the device and returns
  // routes for it, in the same order as the ones given to runCases (which are gone with the
  // old device); throws gcn::InfraError when it cannot. The lost batch's cases then run one
  // by one, so that only the case(s) that lose the device again get Crash. Without it,
  // DeviceLost ends the run: it propagates after every finished case went to the sink.
  std::function<std::span<const std::unique_ptr<routes::Route>>()> recoverDevice;
  // Called before the first part of a route the run has not entered yet (so at most once per
  // route, however the batches of routes interleave): re-creates the
  // device and returns routes for it, as recoverDevice does. A driver keeps per-device state
  // that outlives the objects which made it (lavapipe: the texel and image functions it
  // JIT-compiles per view format, about 7 MB of code pages plus their heap after the texel and
  // atomic routes, never freed before vkDestroyDevice), so a device per route bounds a run's
  // memory by its largest route instead of the sum. Without it one device serves the run.
  std::function<std::span<const std::unique_ptr<routes::Route>>()> freshDevice;
  // Called before each batch is dispatched with the cases it holds (indices into the cases
  // given to runCases): a child process names its batch, so that the parent can tell which
  // cases were on the device when the child crashed or hung (app/isolation.h).
  std::function<void(std::span<const std::size_t>)> onBatchStart;
  // Called with what the device returned for a case (its index into the cases given to
  // runCases) before it is diffed, for a caller that shows the device's own values
  // (`gcnprobe probe`); not called for cases that never ran or whose batch failed.
  std::function<void(std::size_t, const routes::DeviceResult&)> onDeviceResult;
};

// The ISA check of a case (harness/isa/check.h): every load of its read (expect.h viewLoads:
// one for most cases, one per selected channel for a composed view) must be in the pipeline
// on the case's buffer. The first load that is not decides the outcome (route-miss, naming
// it); Verified only when all are.
isa::CheckResult checkCaseIsa(gcn::Gen gen, const judge::Case& c, const routes::PipelineIsa& isa);

// What a device must do with a case's route: build its pipeline (`isa` on a compile-only
// device) or run it.
enum class RouteNeed { Build, Run };
// The case as `routes` take it: with the first of its preferred realisations (Case::preferred)
// whose route claims it and can build or run it (`need`) in place of its device case, else as
// it is. `note` (when given) says which realisation was taken and why the ones before it were
// passed over; "" for a case without preferred realisations.
judge::Case withRunnableRoute(const judge::Case& c,
                              std::span<const std::unique_ptr<routes::Route>> routes,
                              RouteNeed need, std::string* note = nullptr);

// Each case's preferred realisations are resolved first (withRunnableRoute, RouteNeed::Run);
// the note goes to its record.
results::Summary runCases(std::span<const judge::Case> cases,
                          std::span<const std::unique_ptr<routes::Route>> routes,
                          const RunOptions& options, const results::ResultSink& sink);

}  // namespace gcnprobe::run
