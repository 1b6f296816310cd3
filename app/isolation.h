// Isolation: a run's cases go to child processes of this same binary (`gcnprobe run` on a
// case list), so that a case that crashes the process, hangs the device or loses it takes
// down a child, never the run. The parent reads each child's streamed JSON report as it
// grows; when a child dies or makes no progress within the batch timeout, the cases of the
// batch it was dispatching (the child names each batch before it dispatches it) are split in
// halves and rerun, down to the case(s) that cause it, which get Crash or Timeout with the
// signal, the VkResult or the timeout; the cases the child had not reached run in a new
// child, on a new device. Usage: docs/run.md "Isolation".
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "harness/judge/case.h"
#include "harness/run/runner.h"
#include "reference/gen.h"

namespace gcnprobe::app {

struct IsolationOptions {
  // The child's arguments after `run` and before the per-child ones (case list, JSON, batch
  // log): suite, device, profile, jobs, validate.
  std::vector<std::string> childArgs;
  double batchTimeout = 60;       // seconds without a new result before a child is killed
  std::function<bool()> stop;     // as run::RunOptions::stop; the running child is asked to stop
  gcn::Gen gen = gcn::Gen::Gfx9;  // the profile's: the instruction text of a crashed case
};

// The cases' verdicts, in the order the children report them, each given to `sink` as soon as
// it is read. Throws gcn::InfraError when a child fails without running any batch (no device,
// a bad argument), naming the child's error.
results::Summary runIsolated(std::span<const judge::Case> cases, const IsolationOptions& options,
                             const results::ResultSink& sink);

}  // namespace gcnprobe::app
