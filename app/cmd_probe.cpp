// `gcnprobe probe FILE... [--gen G] [--device SEL] [--json]`: each probe file evaluated on the
// reference once per policy variant that matters (reference/policy.h), distinct predictions
// printed side by side per lane, then what the device did. Exit 1 when any probe's own
// `expect` lines do not hold (against the default prediction, and the device when run).
#include <cstdio>
#include <memory>

#include "app/commands.h"
#include "probe/probe_eval.h"
#include "probe/probe_report.h"

namespace gcnprobe::app {

namespace {
struct ProbeOptions {
  std::vector<std::string> files;
  std::string gen;
  std::string device;
  std::vector<std::string> policies;
  bool json = false;
};

// DEVICE HOOK. The device side needs a route (harness/routes/route.h) that realises the probe:
// build a routes::DeviceCase from the ProbeSetup (inst, state, memory), pick the route whose
// handles() accepts it, run it, and compare its DeviceResult per lane with every
// Prediction (samePrediction on registers and memory) to say which policies it matched.
// No route implementation exists in harness/routes yet, so the device side reports why it
// did not run instead of guessing.
struct DeviceOutcome {
  std::string text;
  nlohmann::json json;
};
DeviceOutcome runOnDevice(const gcn::probe::ProbeSetup& /*setup*/, const std::string& selector) {
  const std::string reason =
      "not run: no route can realise this probe yet (harness/routes has the route interface "
      "but no route implementation" +
      (selector.empty() ? std::string() : ", --device " + selector) + ")";
  return {reason, {{"run", false}, {"reason", reason}}};
}
}  // namespace

void addProbeCommand(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<ProbeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "probe",
      "Evaluate probe files under every policy variant that matters, side by side with the device");
  cmd->add_option("files", opts->files, "probe files (docs/probes.md)")->required();
  cmd->add_option("--gen", opts->gen, "chip or generation, overriding each file's 'gen'");
  cmd->add_option("--device", opts->device, "device selector (as for 'gcnprobe devices')");
  cmd->add_option("--policy", opts->policies, "pin a policy point, e.g. straddle=whole");
  cmd->add_flag("--json", opts->json, "machine-readable output");
  cmd->callback([opts, &ctx] {
    nlohmann::json all = nlohmann::json::array();
    bool first = true;
    for (const std::string& file : opts->files) {
      const gcn::probe::Probe probe = gcn::probe::loadProbe(file);
      gcn::probe::EvalOptions eo;
      if (!opts->gen.empty()) eo.gen = opts->gen;
      eo.policies = opts->policies;
      const gcn::probe::ProbeSetup setup = gcn::probe::prepare(probe, eo);
      const gcn::probe::Exploration ex = gcn::probe::explore(probe, setup);
      const gcn::ExecResult& def = ex.predictions.front().isDefault
                                       ? ex.predictions.front().result
                                       : gcn::probe::run(probe, setup, setup.policies);
      const auto failures = gcn::probe::checkExpect(probe, setup, def);
      const DeviceOutcome device = runOnDevice(setup, opts->device);
      if (!failures.empty()) ctx.exitCode = 1;
      if (opts->json) {
        all.push_back(gcn::probe::exploreJson(probe, setup, ex, failures, device.json));
      } else {
        if (!first) std::fputs("\n", stdout);
        std::fputs(gcn::probe::exploreText(probe, setup, ex, failures, device.text).c_str(),
                   stdout);
      }
      first = false;
    }
    if (opts->json) std::printf("%s\n", all.dump(2).c_str());
  });
}

}  // namespace gcnprobe::app
