// `gcnprobe report`: the JSON reports of `gcnprobe run --json` as one self-contained HTML page
// (overview; an atlas of several reports); no device is opened. Usage: docs/report.md.
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "app/commands.h"
#include "app/version.h"
#include "harness/cases/suite.h"
#include "reference/error.h"
#include "results/html_report.h"
#include "results/isa_report.h"
#include "results/merge.h"
#include "results/results_file.h"

namespace gcnprobe::app {
namespace {

struct ReportOptions {
  std::vector<std::string> inputs;
  std::vector<std::string> labels;
  std::string output;
};

// The documents of `isa --json` among the inputs: all of them, or none (the inputs are then run
// reports). Mixing the two is an error naming the first of each kind.
std::vector<results::IsaDocument> isaDocuments(const std::vector<std::string>& inputs) {
  std::vector<results::IsaDocument> docs;
  std::string firstRun;
  for (const std::string& path : inputs) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw gcn::Error(path + ": cannot be read");
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_discarded() && results::isIsaDocument(j))
      docs.push_back({path, std::move(j)});
    else if (firstRun.empty())
      firstRun = path;
  }
  if (!docs.empty() && !firstRun.empty())
    throw gcn::Error(firstRun + " is not the JSON of `gcnprobe isa --json` but " +
                     docs.front().source +
                     " is: a page shows run reports or isa documents, not both");
  return docs;
}

int runReport(const ReportOptions& o) {
  gcn::requireWritable(o.output, "report");
  const std::string generator =
      std::string("gcnprobe ") + GCNPROBE_VERSION + " (" + GCNPROBE_GIT_REVISION + ")";
  const std::vector<results::IsaDocument> isaDocs = isaDocuments(o.inputs);
  std::size_t reports = o.inputs.size();
  nlohmann::json data;
  if (!isaDocs.empty()) {
    // One column group per chip of each document: the default suite's order of cases.
    data = results::isaReportData(isaDocs, o.labels, generator, cases::caseListOrder(""));
    reports = data["runs"].size();
  } else {
    if (!o.labels.empty() && o.labels.size() != o.inputs.size())
      throw gcn::Error("--label is given " + std::to_string(o.labels.size()) + " times for " +
                       std::to_string(o.inputs.size()) +
                       " reports: give it once per report or not");
    std::vector<results::ResultsFile> runs;
    // A truncated report (a run that died) still shows every case it holds; the page says it
    // did not finish.
    for (const std::string& path : o.inputs)
      runs.push_back(results::readResults(path, true));
    // The order `gcnprobe list` gives the first report's profile: cases, suites and rows follow
    // it.
    const std::string profile = results::headerText(runs.front().header, "profile");
    data = results::reportData(runs, o.labels, generator, cases::caseListOrder(profile));
  }
  const std::string html = results::reportHtml(data);
  std::ofstream out(o.output, std::ios::binary);
  if (!out) throw gcn::cannotWrite(o.output, "report");
  out << html;
  out.close();
  if (!out) throw gcn::InfraError(o.output + ": cannot write the report");
  std::size_t differing = 0;
  for (const nlohmann::json& c : data["cases"])
    differing += c.contains("d") ? 1 : 0;
  std::printf("report: %zu %s%s, %zu cases%s -> %s (%zu bytes)\n", reports,
              isaDocs.empty() ? "report" : "ISA column", reports == 1 ? "" : "s",
              data["cases"].size(),
              reports > 1 ? (", " + std::to_string(differing) + " differing").c_str() : "",
              o.output.c_str(), html.size());
  return 0;
}

}  // namespace

void addReportCommand(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* report = app.add_subcommand(
      "report",
      "Write one self-contained HTML page over JSON reports (run --json) or ISA documents (isa "
      "--json): per suite a matrix of formats by instruction coloured by verdict or ISA outcome, "
      "case details; several reports (or chips) make an atlas that marks the cases that differ");
  report
      ->add_option(
          "reports", o->inputs,
          "the JSON reports of run --json, or documents of isa --json (several: an atlas, in "
          "this order)")
      ->required()
      ->check(CLI::ExistingFile);
  report->add_option("-o,--output", o->output, "the HTML file to write")->required();
  report->add_option("--label", o->labels,
                     "a name for each report, in order (default: driver version / profile)");
  report->callback([o, &ctx] { ctx.exitCode = runReport(*o); });
}

}  // namespace gcnprobe::app
