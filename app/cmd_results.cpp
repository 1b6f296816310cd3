// `gcnprobe merge` and `gcnprobe compare`: commands on the JSON reports `gcnprobe run --json`
// writes; no device is opened. Usage, checks and exit statuses: docs/run.md.
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/commands.h"
#include "harness/cases/suite.h"
#include "reference/error.h"
#include "results/ci_reports.h"
#include "results/compare.h"
#include "results/isa_compare.h"
#include "results/isa_report.h"
#include "results/merge.h"
#include "results/results_file.h"

namespace gcnprobe::app {
namespace {

struct MergeOptions {
  std::vector<std::string> inputs;
  std::string output;
  bool allowIncomplete = false;
  std::string junit, csv, failuresCsv;  // CI reports of the merged run
};

int runMerge(const MergeOptions& o) {
  gcn::requireWritable(o.output, "merged report");
  for (const std::string* path : {&o.junit, &o.csv, &o.failuresCsv})
    if (!path->empty()) gcn::requireWritable(*path, "CI report");
  std::vector<results::ResultsFile> inputs;
  // Read truncated documents too: mergeResults says which input did not finish and how to
  // merge it anyway.
  for (const std::string& path : o.inputs)
    inputs.push_back(results::readResults(path, true));
  // The order `gcnprobe list` prints: a shard lists its cases as they finish.
  const results::MergedReport merged = results::mergeResults(
      inputs, o.allowIncomplete,
      cases::caseListOrder(results::headerText(inputs.front().header, "profile", "portable")));
  results::writeMerged(merged, o.output);
  // The CI reports of the whole run, as `run --junit/--csv` writes them for one shard.
  if (!o.junit.empty() || !o.csv.empty() || !o.failuresCsv.empty()) {
    std::vector<results::CaseOutcome> outcomes;
    for (std::size_t i = 0; i < merged.records.size(); ++i)
      outcomes.push_back(results::outcomeOf(results::caseFromRecord(
          merged.records[i], std::string("merged case ").append(std::to_string(i + 1)))));
    const auto text = [&](const char* key) { return results::headerText(merged.header, key); };
    if (!o.junit.empty())
      results::writeJunit(o.junit, outcomes,
                          {{"device", text("device_name")},
                           {"driver", text("driver") + " " + text("driver_version")},
                           {"profile", text("profile")},
                           {"gcnprobe_version", text("gcnprobe_version")}});
    if (!o.csv.empty()) results::writeCsv(o.csv, outcomes);
    if (!o.failuresCsv.empty()) results::writeCsv(o.failuresCsv, outcomes, /*failuresOnly=*/true);
  }
  // With the report on standard output, the line goes to standard error.
  std::fprintf(o.output == "-" ? stderr : stdout, "merged %zu reports, %zu cases: %s\n",
               inputs.size(), merged.records.size(), merged.summaryLine.c_str());
  return 0;
}

struct CompareOptions {
  std::string oldPath, newPath;
  std::string json;
  bool allowIncomplete = false;
};

// The whole document when it is `isa --json`'s, else nothing (a run report, read as one).
std::optional<nlohmann::json> isaDocument(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !results::isIsaDocument(j)) return std::nullopt;
  return j;
}

void writeJson(const std::string& path, const nlohmann::json& j) {
  std::ofstream out(path == "-" ? "/dev/stdout" : path);
  if (!out) throw gcn::cannotWrite(path, "JSON output");
  out << j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  out.close();
  if (!out)
    throw gcn::InfraError((path == "-" ? std::string("stdout") : path) +
                          ": cannot write the comparison");
}

// Two documents of `isa --json` (two drivers, two Mesa builds): per case what changed in its
// outcome and its own instruction (results/isa_compare.h); exit 1 on a newly broken case.
int compareIsaDocuments(const CompareOptions& o, const nlohmann::json& before,
                        const nlohmann::json& after) {
  const results::IsaComparison c = results::compareIsa(before, after, o.oldPath, o.newPath);
  std::fputs(results::isaComparisonText(c).c_str(), o.json == "-" ? stderr : stdout);
  if (!o.json.empty()) writeJson(o.json, results::isaComparisonJson(c));
  return c.newlyBroken > 0 ? 1 : 0;
}

int runCompare(const CompareOptions& o) {
  gcn::requireWritable(o.json, "JSON output");
  {
    const std::optional<nlohmann::json> before = isaDocument(o.oldPath);
    const std::optional<nlohmann::json> after = isaDocument(o.newPath);
    if (before && after) return compareIsaDocuments(o, *before, *after);
    if (before || after)
      throw gcn::Error((before ? o.oldPath : o.newPath) +
                       " is the JSON of `gcnprobe isa --json` but " +
                       (before ? o.newPath : o.oldPath) +
                       " is not: compare two run reports or two isa documents");
  }
  const results::ResultsFile oldRun = results::readResults(o.oldPath, o.allowIncomplete);
  const results::ResultsFile newRun = results::readResults(o.newPath, o.allowIncomplete);
  const results::Comparison c = results::compareResults(oldRun, newRun);
  FILE* text = o.json == "-" ? stderr : stdout;
  std::fputs(results::comparisonText(c, oldRun, newRun).c_str(), text);
  if (!o.json.empty()) writeJson(o.json, results::comparisonJson(c, oldRun, newRun));
  return c.regressions.empty() ? 0 : 1;
}

}  // namespace

void addResultsCommands(CLI::App& app, Context& ctx) {
  auto m = std::make_shared<MergeOptions>();
  CLI::App* merge = app.add_subcommand(
      "merge", "Merge the JSON reports of the shards of one run (run --shard i/N --json) into one");
  merge->add_option("reports", m->inputs, "the shards' JSON reports, in any order")
      ->required()
      ->check(CLI::ExistingFile);
  merge->add_option("-o,--output", m->output, "the merged report ('-': standard output)")
      ->required();
  merge->add_flag("--allow-incomplete", m->allowIncomplete,
                  "merge a report that did not finish (truncated or interrupted): the cases it "
                  "holds");
  merge->add_option("--junit", m->junit, "also write the merged run as JUnit XML to this file");
  merge->add_option("--csv", m->csv,
                    "also write the merged run as deqp-runner results (name,status,duration)");
  merge->add_option("--failures-csv", m->failuresCsv,
                    "also write the merged run's lines whose status is neither Pass nor Skip");
  merge->callback([m, &ctx] { ctx.exitCode = runMerge(*m); });

  auto c = std::make_shared<CompareOptions>();
  CLI::App* compare = app.add_subcommand(
      "compare",
      "What changed between two JSON reports: regressions, fixes, new and removed cases, and "
      "whether the driver's instructions changed (exit 1 on a regression); of two isa --json "
      "documents, per case the outcome and the case's own instruction (exit 1 on a case "
      "verified before and not after)");
  compare->add_option("old", c->oldPath, "the earlier report")
      ->required()
      ->check(CLI::ExistingFile);
  compare->add_option("new", c->newPath, "the later report")->required()->check(CLI::ExistingFile);
  compare->add_option("--json", c->json,
                      "also write the comparison as JSON to this file ('-': standard output, "
                      "and the text goes to standard error)");
  compare->add_flag("--allow-incomplete", c->allowIncomplete,
                    "read a report that did not finish (truncated): the cases it holds");
  compare->callback([c, &ctx] { ctx.exitCode = runCompare(*c); });
}

}  // namespace gcnprobe::app
