// `gcnprobe ref FILE|- [--gen G] [--policy name=option]... [--json]`: one probe file on the
// reference model under one set of policies (the generation's defaults, the file's `policy`
// lines, then --policy). Prints per lane the VDATA registers, addresses and range verdicts,
// and the memory changes. Exit 1 when the probe's own `expect` lines do not hold.
#include <cstdio>
#include <memory>

#include "app/commands.h"
#include "probe/probe_eval.h"
#include "probe/probe_report.h"

namespace gcnprobe::app {

namespace {
struct RefOptions {
  std::string file;
  std::string gen;
  std::vector<std::string> policies;
  bool json = false;
};
}  // namespace

void addRefCommand(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<RefOptions>();
  CLI::App* cmd = app.add_subcommand(
      "ref", "Run one probe file (instruction, V#, lane inputs, memory) on the reference model");
  cmd->add_option("file", opts->file, "probe file (docs/probes.md), or - for standard input")
      ->required();
  cmd->add_option("--gen", opts->gen, "chip or generation, overriding the file's 'gen'");
  cmd->add_option("--policy", opts->policies, "pin a policy point, e.g. straddle=whole");
  cmd->add_flag("--json", opts->json, "machine-readable output");
  cmd->callback([opts, &ctx] {
    const gcn::probe::Probe probe = gcn::probe::loadProbe(opts->file);
    gcn::probe::EvalOptions eo;
    if (!opts->gen.empty()) eo.gen = opts->gen;
    eo.policies = opts->policies;
    const gcn::probe::ProbeSetup setup = gcn::probe::prepare(probe, eo);
    const gcn::ExecResult result = gcn::probe::run(probe, setup, setup.policies);
    const auto failures = gcn::probe::checkExpect(probe, setup, result);
    if (opts->json) {
      std::printf("%s\n", gcn::probe::refJson(probe, setup, result, failures)
                              .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                              .c_str());
    } else {
      std::fputs(gcn::probe::refText(probe, setup, result, failures).c_str(), stdout);
    }
    if (!failures.empty()) ctx.exitCode = 1;
  });
}

}  // namespace gcnprobe::app
