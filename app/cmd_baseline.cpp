// `gcnprobe baseline --from RESULTS.json [-o FILE]`: a baseline (results/baseline.h) that
// expects what a run reported: every regression of the run, in list order, under a header
// naming the device, driver and version. Usage: docs/run.md "Baselines".
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>

#include "app/commands.h"
#include "harness/cases/suite.h"
#include "reference/error.h"
#include "results/baseline.h"
#include "results/merge.h"
#include "results/results_file.h"

namespace gcnprobe::app {
namespace {

struct BaselineOptions {
  std::string from;
  std::string output;
};

void runBaseline(const BaselineOptions& o) {
  gcn::requireWritable(o.output, "baseline");
  const results::ResultsFile results = results::readResults(o.from);
  if (!results.complete())
    throw gcn::Error(gcn::Place{o.from, 0, 0}, "the results document has no summary");
  // The run's profile, for the order `gcnprobe list` gives its cases.
  const std::string profile = results::headerText(results.header, "profile");
  const std::string text = results::baselineFromResults(results, cases::caseListOrder(profile));
  if (o.output.empty() || o.output == "-") {
    std::fputs(text.c_str(), stdout);
    return;
  }
  std::ofstream out(o.output);
  if (!out) throw gcn::cannotWrite(o.output, "baseline");
  out << text;
  out.flush();
  if (!out)
    throw gcn::InfraError(o.output + ": cannot write the baseline: " +
                          (errno != 0 ? std::string(std::strerror(errno)) : "write failed"));
}

}  // namespace

void addBaselineCommand(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<BaselineOptions>();
  CLI::App* sub = app.add_subcommand(
      "baseline", "Write a baseline (expected failures) from the JSON report of a run");
  sub->add_option("--from", opts->from, "the run's JSON report (gcnprobe run --json)")->required();
  sub->add_option("-o,--output", opts->output, "write the baseline here (default: stdout)");
  sub->callback([opts, &ctx] {
    runBaseline(*opts);
    ctx.exitCode = 0;
  });
}

}  // namespace gcnprobe::app
