// A probe case on a device, as `gcnprobe probe` and `gcnprobe fuzz` both run it: through the
// runner (route choice, unsupported reasons, dispatch, diff, ISA check) under the probe
// generation's own profile (the reference under its default policies, exact, one job), then
// matched against every prediction of the probe's exploration.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "harness/cases/suite.h"
#include "harness/judge/case.h"
#include "harness/routes/route.h"
#include "probe/probe_eval.h"
#include "reference/gen.h"

namespace gcnprobe::run {

struct ProbeRun {
  // What the device returned; empty when the case did not reach it (`verdict` says why:
  // unsupported, or an error).
  std::optional<routes::DeviceResult> device;
  results::CaseResult verdict;  // the runner's record of the case
};
// `chip` is the generation the probe is prepared for; `robustBufferAccess2` the device's.
ProbeRun runProbeCase(const judge::Case& c, const gcn::Chip& chip,
                      std::span<const std::unique_ptr<routes::Route>> routes,
                      bool robustBufferAccess2);

// The device's result against each of the exploration's predictions, in their order.
std::vector<cases::PredictionMatch> matchPredictions(const gcn::Chip& chip, const judge::Case& c,
                                                     const gcn::probe::Exploration& ex,
                                                     const routes::DeviceResult& actual);

}  // namespace gcnprobe::run
