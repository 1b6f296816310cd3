// `gcnprobe list` and `gcnprobe run`: cases from the suites, expected from the reference
// (profile.h), actual from the routes on the chosen device, the lane-by-lane diff, text and
// JSON reports. Usage and the JSON schema: docs/run.md.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <set>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/clrx_dir.h"
#include "app/commands.h"
#include "app/isolation.h"
#include "app/progress.h"
#include "app/stop_signals.h"
#include "app/version.h"
#include "harness/cases/select.h"
#include "harness/cases/suite.h"
#include "harness/cases/twin.h"
#include "harness/control/control_route.h"
#include "harness/isa/binary_route.h"
#include "harness/judge/profile.h"
#include "harness/routes/all_routes.h"
#include "harness/run/coverage.h"
#include "harness/run/expected_run.h"
#include "harness/run/runner.h"
#include "harness/run/test_faults.h"
#include "harness/vulkan/context.h"
#include "harness/vulkan/pipeline_cache.h"
#include "reference/error.h"
#include "results/ci_reports.h"
#include "results/json_report.h"
#include "results/merge.h"

namespace gcnprobe::app {
namespace {

struct RunOptions {
  std::vector<std::string> filters;
  std::vector<std::string> excludes;
  std::string caseList;
  std::string skips;  // a skips list: cases not to run (deqp-runner's --skips)
  std::string shard;
  std::string suite;
  std::string device;
  std::string profile;
  std::string json;
  std::string junit;
  std::string csv;
  std::string failuresCsv;
  unsigned jobs = 0;
  bool verbose = false;
  bool validate = false;
  // On a GCN device, every case's twins in gcnprobe's own program run too (harness/cases/twin.h).
  bool twins = false;
  std::string isolate = "auto";  // auto | on | off (app/isolation.h)
  double batchTimeout = 60;
  std::string batchLog;  // set for a child process: it names each batch here before dispatch
  bool quiet = false;
  // Expected results (results/baseline.h, docs/run.md "Baselines").
  std::string baseline;
  std::string flakes;
  unsigned retry = 0;
  bool failOnUnexpectedPass = false;
  bool baselineMustMatch = false;
  // Text output: the component lines of the first N failing cases, K lines each.
  unsigned details = 20;
  bool listJson = false;  // list --json
};

// --baseline, --flakes and --retry, read before any device is opened: a bad file is bad input.
run::ExpectationOptions expectationOptions(const RunOptions& o) {
  run::ExpectationOptions e;
  if (!o.baseline.empty()) e.baseline = results::readBaseline(o.baseline);
  if (!o.flakes.empty()) e.flakes = results::readGlobList(o.flakes, "flakes list");
  e.retries = o.retry;
  return e;
}

// --isolate auto: child processes on a GPU (where a case can crash, hang or lose the
// device), in-process on a CPU implementation such as lavapipe (where spawning costs more
// than it protects).
bool isolated(const RunOptions& o, const vk::DeviceInfo& info) {
  if (o.isolate == "on") return true;
  if (o.isolate == "off") return false;
  return info.type != VK_PHYSICAL_DEVICE_TYPE_CPU;
}

// --shard, else GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS, else none.
std::optional<results::Shard> shardOf(const RunOptions& o) {
  return o.shard.empty() ? results::shardFromEnvironment() : results::parseShard(o.shard);
}

std::string shardText(const std::optional<results::Shard>& s) {
  return s ? std::to_string(s->index) + "/" + std::to_string(s->count) : "";
}

// --skips, read before any device is opened (a bad file is bad input); empty without it.
results::GlobList readSkips(const RunOptions& o) {
  return o.skips.empty() ? results::GlobList{} : results::readGlobList(o.skips, "skips list");
}

// The cases --skips took out, and its entries that match no case of this build: said on
// standard error (a misspelt entry would skip nothing).
void reportSkips(const RunOptions& o, const results::GlobList& skips, const std::string& profile,
                 const std::vector<std::string>& skipped) {
  if (o.skips.empty()) return;
  // The default and disputed suites' cases, and whatever the list took out of the suite run
  // (the binary suite's cases are in neither otherwise).
  std::vector<std::string> names = cases::caseListOrder(profile);
  names.insert(names.end(), skipped.begin(), skipped.end());
  for (const std::string& w : results::unmatchedEntries(results::Baseline{}, skips, names))
    std::fprintf(stderr, "gcnprobe: warning: %s\n", w.c_str());
  std::fprintf(stderr, "gcnprobe: %zu case(s) skipped by %s\n", skipped.size(), o.skips.c_str());
}

// `--twins`: on a GCN device, each case's twins in gcnprobe's own program join the run after it
// (harness/cases/twin.h), so a case whose driver path is a route-miss has a proven one; a case
// the program cannot host is said once on standard error. Elsewhere nothing is added.
void addTwins(const vk::DeviceInfo& info, std::vector<judge::Case>& cases) {
  if (!info.chip) {
    std::fprintf(stderr,
                 "gcnprobe: note: --twins: %s is not a GCN device; gcnprobe's own program runs "
                 "on GCN GPUs only, so no twins were added\n",
                 info.name.c_str());
    return;
  }
  std::vector<judge::Case> out;
  std::size_t none = 0;
  for (judge::Case& c : cases) {
    std::string why;
    std::vector<judge::Case> twins = cases::programTwins(*info.chip, c, why);
    if (twins.empty()) ++none;
    out.push_back(std::move(c));
    for (judge::Case& t : twins)
      out.push_back(std::move(t));
  }
  if (none > 0)
    std::fprintf(stderr,
                 "gcnprobe: note: --twins: %zu cases have no twin (gcnprobe isa says why)\n", none);
  cases = std::move(out);
}

std::vector<judge::Case> selectCases(const RunOptions& o, const gcn::Chip& chip,
                                     const results::GlobList& skips,
                                     std::vector<std::string>* skipped = nullptr,
                                     const vk::DeviceInfo* twinsOn = nullptr) {
  results::Selection s;
  s.include = o.filters;
  s.exclude = o.excludes;
  if (!o.caseList.empty()) {
    s.names = results::readCaseList(o.caseList);
    s.namesSource = o.caseList;
  }
  for (const results::GlobEntry& e : skips.entries)
    s.skip.push_back(e.pattern);
  s.shard = shardOf(o);
  std::vector<std::string> skippedHere;
  std::vector<judge::Case> cases;
  if (twinsOn != nullptr) {
    // The twins join before the selection, so --filter, --case-list and shards see them too.
    cases = cases::buildCases(o.suite, "", chip);
    addTwins(*twinsOn, cases);
    cases = cases::selectCases(std::move(cases), s, &skippedHere);
  } else {
    cases = cases::selectCases(o.suite, chip, s, &skippedHere);
  }
  if (skipped != nullptr) *skipped = skippedHere;
  if (cases.empty() && !s.shard && !skippedHere.empty())
    throw gcn::Error(gcn::Place{o.skips, 0, 0}, "the skips list takes out every selected case (" +
                                                    std::to_string(skippedHere.size()) +
                                                    "): nothing would run");
  if (cases.empty() && !s.shard) throw noCaseMatches(o.filters, o.excludes, o.suite);
  return cases;
}

void runList(const RunOptions& o) {
  // No device is opened: the V# (and so the assembler text) follows the profile's chip;
  // without --profile, the portable profile's generation.
  const judge::Profile profile = judge::resolveProfile(o.profile, std::nullopt);
  const results::GlobList skips = readSkips(o);
  std::vector<std::string> skipped;
  const std::vector<judge::Case> cases = selectCases(o, profile.chip, skips, &skipped);
  reportSkips(o, skips, profile.name, skipped);
  if (o.listJson) {
    // One object per case: name, suite, and the instruction (or why the case is broken).
    nlohmann::json all = nlohmann::json::array();
    for (const judge::Case& c : cases) {
      nlohmann::json j = {{"name", c.name}, {"suite", c.suite}};
      if (c.broken.empty())
        j["instruction"] = cases::caseInstructionText(profile.chip.gen, c);
      else
        j["error"] = c.broken;
      all.push_back(std::move(j));
    }
    std::printf("%s\n", all.dump(1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    return;
  }
  for (const judge::Case& c : cases)
    std::printf("%s  %s\n", c.name.c_str(),
                c.broken.empty() ? cases::caseInstructionText(profile.chip.gen, c).c_str()
                                 : ("error: " + c.broken).c_str());
}

// Pipelines persist between runs (docs/run.md, "Pipeline cache"); the file, for devices the run
// opens again. With --validate, a test hook (docs/run.md) makes one deliberate invalid call, so
// a test can prove the validation layer is loaded and that its messages reach the report.
std::filesystem::path keepPipelines(const RunOptions& o, vk::Context& ctx) {
  const std::filesystem::path file = vk::PipelineCacheFile::defaultFile(ctx);
  if (const std::string note = ctx.keepPipelineCache(file); !note.empty())
    std::fprintf(stderr, "gcnprobe: %s\n", note.c_str());
  if (o.validate && std::getenv("GCNPROBE_TEST_INVALID_CALL") != nullptr) {
    VkFormatProperties ignored{};
    vkGetPhysicalDeviceFormatProperties(ctx.physicalDevice(), static_cast<VkFormat>(0x7ffffff0),
                                        &ignored);
  }
  return file;
}

// The runner's options for the device: its profile, rules and threads. A runner that lost its
// GPU falls back to the CPU implementation: said on standard error whenever the best-device
// choice (no --device) lands on something other than a GPU, so a CI log shows it even when the
// text report goes elsewhere (docs/ci.md: pin --device).
run::RunOptions runnerOptions(const RunOptions& o, vk::Context& ctx) {
  const vk::DeviceInfo& info = ctx.info();
  run::RunOptions ro;
  ro.profile = judge::resolveProfile(o.profile, info.chip);
  if (o.device.empty() && info.type != VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU &&
      info.type != VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU)
    std::fprintf(stderr,
                 "gcnprobe: note: no GPU chosen: running on %s (%s), profile %s; pass --device "
                 "to require one\n",
                 info.name.c_str(), vk::deviceTypeName(info.type).c_str(), ro.profile.name.c_str());
  ro.rules.robustBufferAccess2 = ctx.features().robustBufferAccess2;
  ro.jobs = o.jobs;
  return ro;
}

// Said before any case runs. A misspelt baseline or flakes entry would silently expect nothing:
// each one that matches no case of any suite is named (a warning: an old entry may outlive its
// case). A baseline recorded on another device, driver or profile expects another run's
// failures: its matches and unexpected passes mean nothing here.
void checkExpectations(const RunOptions& o, const run::ExpectationOptions& expectations,
                       const std::string& profile, const vk::DeviceInfo& info) {
  if (!expectations.baseline.empty() || !expectations.flakes.entries.empty())
    for (const std::string& w : results::unmatchedEntries(
             expectations.baseline, expectations.flakes, cases::caseListOrder(profile)))
      std::fprintf(stderr, "gcnprobe: warning: %s\n", w.c_str());
  if (const auto mismatch = results::baselineMismatch(expectations.baseline, profile, info.name,
                                                      info.driverName + " " + info.driverInfo)) {
    if (o.baselineMustMatch) throw gcn::Error(*mismatch + " (--baseline-must-match)");
    std::fprintf(stderr, "gcnprobe: warning: %s\n", mismatch->c_str());
  }
}

// How the expected values were obtained, as the report's second line says it.
std::string expectationText(const judge::Profile& profile) {
  return "profile " + profile.name + ": " + std::string(profile.chip.name) + " (" +
         std::string(gcn::genName(profile.chip.gen)) + ") reference" +
         (profile.portable ? ", widened to what the Vulkan spec guarantees (acceptance sets, "
                             "named tolerances)"
                           : ", exact");
}

// The JSON report's header: the program, driver, device and when the run started. The driver
// and its version name the results: the same device answers differently on Mesa 22.3 and 25
// (docs/drivers.md).
nlohmann::json reportHeader(const RunOptions& o, const vk::DeviceInfo& info) {
  const std::string api = std::to_string(VK_API_VERSION_MAJOR(info.apiVersion)) + "." +
                          std::to_string(VK_API_VERSION_MINOR(info.apiVersion)) + "." +
                          std::to_string(VK_API_VERSION_PATCH(info.apiVersion));
  char started[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return {
      {"gcnprobe_version", std::string(GCNPROBE_VERSION) + " (" + GCNPROBE_GIT_REVISION + ")"},
      {"driver", info.driverName},
      {"driver_version", info.driverInfo},
      {"vulkan_api_version", api},
      {"device_name", info.name},
      {"chip", info.chip ? nlohmann::json(std::string(info.chip->name)) : nlohmann::json(nullptr)},
      {"start_time", started},
      {"shard", shardText(shardOf(o))}};
}

// The run's device, re-created when lost (a few times: a device that keeps getting lost is an
// infrastructure failure, exit 3) or for a fresh one per route, and the validation messages of
// --validate: those that arrived since the previous case are attached to the case reported
// next (the batch that made them); any message fails the run.
struct RunDevice {
  static constexpr int kMaxRecoveries = 16;

  RunDevice(const RunOptions& o, std::unique_ptr<vk::Context> c, std::filesystem::path cache)
      : options(o),
        ctx(std::move(c)),
        cacheFile(std::move(cache)),
        routes(control::makeRunRoutes(*ctx)) {}

  // The messages that arrived since the last call go to `pending`.
  void newMessages() {
    const std::vector<std::string> all = ctx->validationMessages();
    for (std::size_t k = messagesSeen; k < all.size(); ++k)
      pending.push_back(all[k]);
    messagesSeen = all.size();
  }

  std::span<const std::unique_ptr<routes::Route>> reopen() {
    newMessages();  // the old device's last messages go to the next case reported
    messagesBefore += messagesSeen;
    messagesSeen = 0;
    errorsBefore += ctx->validationErrors();
    routes.clear();
    ctx.reset();
#ifdef __GLIBC__
    // What the old device freed is mostly small chunks in the middle of the heap, which glibc
    // keeps resident; give those pages back before the new device allocates.
    malloc_trim(0);
#endif
    try {
      ctx = vk::Context::open(options.device, options.validate, /*descriptorBuffer=*/true);
    } catch (const gcn::Error& e) {
      // The device opened at the start: failing now is the machine's fault, not the input's.
      throw gcn::InfraError(std::string("re-creating the device: ") + e.what());
    }
    ctx->keepPipelineCache(cacheFile);
    routes = control::makeRunRoutes(*ctx);
    return routes;
  }

  std::span<const std::unique_ptr<routes::Route>> recover() {
    if (++recoveries > kMaxRecoveries)
      throw gcn::InfraError("the device was lost " + std::to_string(kMaxRecoveries) +
                            " times; giving up");
    return reopen();
  }

  const RunOptions& options;
  std::unique_ptr<vk::Context> ctx;
  std::filesystem::path cacheFile;
  std::vector<std::unique_ptr<routes::Route>> routes;
  std::size_t messagesSeen = 0;      // of the current device
  std::vector<std::string> pending;  // not yet attached to a case
  std::size_t messagesBefore = 0;    // validation messages of the devices already gone
  std::size_t errorsBefore = 0;      // and the errors among them
  int recoveries = 0;
};

// Where each reported case goes: its validation messages attached, the JSON report, the CI
// reports' outcomes, the texel coverage, and the terminal for regressions and news.
struct CaseReports {
  void add(const results::CaseResult& reported) {
    dev.newMessages();
    results::CaseResult withMessages;
    if (!dev.pending.empty()) {
      withMessages = reported;
      for (const std::string& m : dev.pending)
        withMessages.notes.push_back("vulkan validation: " + m);
      dev.pending.clear();
    }
    for (const std::string& n : reported.notes)
      childMessages += n.rfind("vulkan validation: ", 0) == 0;
    const results::CaseResult& r = withMessages.name.empty() ? reported : withMessages;
    if (jsonReport != nullptr) jsonReport->add(r);
    if (!o.junit.empty() || !o.csv.empty() || !o.failuresCsv.empty())
      outcomes.push_back(results::outcomeOf(r));
    if (wholeTexelSuite && r.suite == "texel") {
      texelOutcomes.push_back(r);
      texelOutcomes.back().diffs.clear();
    }
    // Regressions (fail, route-miss, error, crash, timeout) and news (unexpected-pass).
    const bool show = results::isRegression(r.verdict) ||
                      r.verdict == results::Verdict::UnexpectedPass || o.verbose;
    if (show) {
      progress.clear();
      // A long failure list stays readable: component lines for the first --details failing
      // cases (8 each), one line per case after that; --verbose prints everything.
      constexpr std::size_t kLinesPerCase = 8;
      const bool detailed = o.verbose || failuresShown < o.details;
      if (r.verdict == results::Verdict::Fail) ++failuresShown;
      std::fprintf(text, "%s\n",
                   results::caseText(r, o.verbose,
                                     o.verbose  ? SIZE_MAX
                                     : detailed ? kLinesPerCase
                                                : 0)
                       .c_str());
      std::fflush(text);
    }
    progress.caseDone(r.verdict);
  }

  const RunOptions& o;
  RunDevice& dev;
  Progress& progress;
  FILE* text;
  results::JsonReport* jsonReport;  // nullptr without --json
  bool wholeTexelSuite;
  std::vector<results::CaseOutcome> outcomes = {};      // for --junit / --csv
  std::vector<results::CaseResult> texelOutcomes = {};  // without lane details
  std::size_t childMessages = 0;  // validation notes in the records of child processes
  unsigned failuresShown = 0;     // failing cases printed (their component lines, --details)
};

// The child processes' options under isolation (app/isolation.h).
IsolationOptions isolationOptions(const RunOptions& o, const run::RunOptions& ro) {
  IsolationOptions iso;
  iso.batchTimeout = o.batchTimeout;
  iso.stop = ro.stop;
  iso.gen = ro.profile.chip.gen;
  iso.childArgs = {"--profile", ro.profile.name, "--batch-timeout", std::to_string(o.batchTimeout)};
  if (!o.suite.empty()) iso.childArgs.insert(iso.childArgs.end(), {"--suite", o.suite});
  if (!o.device.empty()) iso.childArgs.insert(iso.childArgs.end(), {"--device", o.device});
  if (o.jobs != 0) iso.childArgs.insert(iso.childArgs.end(), {"--jobs", std::to_string(o.jobs)});
  if (o.validate) iso.childArgs.push_back("--validate");
  if (o.twins) iso.childArgs.push_back("--twins");
  return iso;
}

// What the JUnit report names the run by.
struct CiReportFacts {
  std::string device, driver, profile, version;
};

void writeCiReports(const RunOptions& o, const std::vector<results::CaseOutcome>& outcomes,
                    const CiReportFacts& f) {
  if (!o.junit.empty())
    results::writeJunit(o.junit, outcomes,
                        {{"device", f.device},
                         {"driver", f.driver},
                         {"profile", f.profile},
                         {"gcnprobe_version", f.version}});
  if (!o.csv.empty()) results::writeCsv(o.csv, outcomes);
  if (!o.failuresCsv.empty()) results::writeCsv(o.failuresCsv, outcomes, /*failuresOnly=*/true);
}

// The cases a stopped run did not reach, as skipped outcomes with the reason.
void addNotRun(std::vector<results::CaseOutcome>& outcomes, const std::vector<judge::Case>& cases,
               const std::string& stopped) {
  std::set<std::string> done;
  for (const results::CaseOutcome& c : outcomes)
    done.insert(c.name);
  for (const judge::Case& c : cases)
    if (!done.count(c.name))
      outcomes.push_back(
          {c.name, c.suite, "", "not run: " + stopped, results::Verdict::Unsupported});
}

// The whole texel suite ran: which supported texel formats no case proved, printed and as JSON.
nlohmann::json texelGaps(const std::vector<results::CaseResult>& texelOutcomes, vk::Context& ctx,
                         FILE* text) {
  const auto gaps = run::texelCoverageGaps(
      texelOutcomes, [&](VkFormat f) { return ctx.formatProperties(f).bufferFeatures; });
  nlohmann::json list = nlohmann::json::array();
  if (!gaps.empty())
    std::fprintf(text, "texel-buffer formats this device supports that no case proved (%zu):\n",
                 gaps.size());
  for (const run::FormatGap& g : gaps) {
    std::fprintf(text, "  %s\n", run::gapText(g).c_str());
    list.push_back({{"format", g.format}, {"binding", g.binding}, {"reason", g.reason}});
  }
  return list;
}

// What is checked before a device is opened: --jobs, and the output paths (a typo there must
// not cost a device and a run: exit 3, the errno).
void checkBeforeTheDevice(const RunOptions& o) {
  if (o.jobs > run::kMaxJobs)
    throw gcn::Error(
        gcn::Place{"--jobs", 0, 0},
        std::to_string(o.jobs) + " threads is over the limit of " + std::to_string(run::kMaxJobs));
  gcn::requireWritable(o.json, "JSON report");
  gcn::requireWritable(o.junit, "JUnit report");
  gcn::requireWritable(o.csv, "CSV results");
}

// The stop test the runner asks before every batch: a signal arrived. GCNPROBE_TEST_BATCH_DELAY_MS,
// a test hook (docs/run.md), waits first, so a test can signal a run half-way through on a
// device as fast as lavapipe.
std::function<bool()> stopHook() {
  const char* delayText = std::getenv("GCNPROBE_TEST_BATCH_DELAY_MS");
  const long delayMs = delayText != nullptr ? std::strtol(delayText, nullptr, 10) : 0;
  return [delayMs] {
    if (delayMs > 0 && delayMs < 60000)
      std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
    return StopSignals::received() != 0;
  };
}

// --batch-log: a child process (app/isolation.h) names each batch before it goes to the device;
// the parent re-creates a lost device (a new child, a new device), so the child does not.
using BatchLog = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;
BatchLog openBatchLog(const RunOptions& o, const std::vector<judge::Case>& cases,
                      run::RunOptions& ro) {
  BatchLog log(nullptr, std::fclose);
  if (o.batchLog.empty()) return log;
  log.reset(std::fopen(o.batchLog.c_str(), "w"));
  if (!log) throw gcn::InfraError(o.batchLog + ": cannot write the batch log");
  ro.onBatchStart = [&cases, file = log.get()](std::span<const std::size_t> members) {
    std::string line;
    for (std::size_t i : members)
      line += (line.empty() ? "" : "\t") + cases[i].name;
    line += '\n';
    std::fputs(line.c_str(), file);
    std::fflush(file);
  };
  ro.recoverDevice = nullptr;
  ro.freshDevice = nullptr;
  return log;
}

// A run a signal stopped: its summary with the cases not run, and exit 128 + the signal. A
// cancelled shard still shows every test in JUnit and CSV: the cases that did not run are there
// as skipped, with the reason.
int stoppedRun(const RunOptions& o, const results::Summary& summary,
               const std::vector<judge::Case>& cases, CaseReports& reports,
               results::JsonReport* jsonReport, const CiReportFacts& ci) {
  const std::string stopped = "interrupted by signal " + std::to_string(StopSignals::received()) +
                              " (" + strsignal(StopSignals::received()) + ")";
  const std::string line =
      stopped + ": " + summary.line() + ", " + std::to_string(summary.notRun) + " not run";
  if (jsonReport != nullptr) jsonReport->close(line);
  if (!o.junit.empty() || !o.csv.empty()) {
    addNotRun(reports.outcomes, cases, stopped);
    writeCiReports(o, reports.outcomes, ci);
  }
  std::fprintf(reports.text, "%s\n", line.c_str());
  return 128 + StopSignals::received();
}

// A finished run's summary line (skips, validation messages), the reports closed, and the exit
// status: 1 on a regression (or an unexpected pass when asked) or any validation message.
int finishedRun(const RunOptions& o, const results::Summary& summary,
                const std::vector<std::string>& skipped, RunDevice& dev, CaseReports& reports,
                results::JsonReport* jsonReport, const CiReportFacts& ci, nlohmann::json extra) {
  const std::size_t messages =
      dev.messagesBefore + dev.ctx->validationMessages().size() + reports.childMessages;
  std::string line = summary.line();
  if (!o.skips.empty()) {
    extra["skipped"] = {{"file", o.skips}, {"cases", skipped}};
    line += ", " + std::to_string(skipped.size()) + " skipped by " + o.skips;
  }
  if (o.validate) {
    extra["validation"] = {{"layer", "VK_LAYER_KHRONOS_validation"},
                           {"features", {"core", "synchronization"}},
                           {"messages", messages},
                           {"errors", dev.errorsBefore + dev.ctx->validationErrors()},
                           {"unattributed", dev.pending}};
    line += ", " + std::to_string(messages) + " validation messages";
  }
  if (jsonReport != nullptr) jsonReport->close(line, extra);
  writeCiReports(o, reports.outcomes, ci);
  std::fprintf(reports.text, "%s\n", line.c_str());
  return results::runExitCode(summary, o.failOnUnexpectedPass) == 0 && messages == 0 ? 0 : 1;
}

int runRun(const RunOptions& o) {
  checkBeforeTheDevice(o);
  run::ExpectationOptions expectations = expectationOptions(o);
  const results::GlobList skips = readSkips(o);
  // The suites with binary-route cases (the binary suite; probes in the disputed suite) need
  // the binary route's environment (app/clrx_dir.h) before the device exists.
  std::unique_ptr<ClrxDir> clrx;
  if (o.suite == cases::kBinarySuite || o.suite == cases::kDisputedSuite || o.twins)
    clrx = prepareBinaryRoute();
  auto ctx = vk::Context::open(o.device, o.validate, /*descriptorBuffer=*/true);
  const vk::DeviceInfo info = ctx->info();  // a copy: a lost device is re-created
  const std::filesystem::path pipelineCacheFile = keepPipelines(o, *ctx);
  run::RunOptions ro = runnerOptions(o, *ctx);
  std::vector<std::string> skipped;
  const std::vector<judge::Case> cases =
      selectCases(o, ro.profile.chip, skips, &skipped, o.twins ? &info : nullptr);
  reportSkips(o, skips, ro.profile.name, skipped);
  checkExpectations(o, expectations, ro.profile.name, info);

  // With the JSON on standard output, the readable text goes to standard error.
  FILE* text = o.json == "-" ? stderr : stdout;
  // The driver and its version name the results: the same device answers differently on
  // Mesa 22.3 and 25 (docs/drivers.md).
  const std::string device = info.name + " (" + info.driverName + " " + info.driverInfo + ")";
  const std::string expectation = expectationText(ro.profile);
  std::fprintf(text, "device: %s\n%s\n", device.c_str(), expectation.c_str());
  std::fflush(text);
  const nlohmann::json header = reportHeader(o, info);
  std::unique_ptr<results::JsonReport> jsonReport;
  if (!o.json.empty())
    jsonReport =
        std::make_unique<results::JsonReport>(o.json, ro.profile.name, device, expectation, header);

  RunDevice dev(o, std::move(ctx), pipelineCacheFile);

  // The whole texel suite ran: say which supported texel formats no case proved.
  const bool wholeTexelSuite = o.filters.empty() && o.excludes.empty() && o.caseList.empty() &&
                               !shardOf(o) && (o.suite.empty() || o.suite == "texel");
  dev.newMessages();  // from opening the device and the test hook: go to the first case
  Progress progress(cases.size(), !o.quiet);
  ro.faults = run::faultsFromEnvironment();
  ro.recoverDevice = [&dev] { return dev.recover(); };
  // A device per route (runner.h RunOptions::freshDevice): lavapipe's per-device caches of one
  // route are gone before the next route runs.
  ro.freshDevice = [&dev] { return dev.reopen(); };
  CaseReports reports{o, dev, progress, text, jsonReport.get(), wholeTexelSuite};
  const auto sink = [&reports](const results::CaseResult& r) { reports.add(r); };
  const StopSignals signals;
  ro.stop = stopHook();
  const BatchLog batchLog = openBatchLog(o, cases, ro);
  // Baseline, known flakes and retries decide a case's verdict before any report sees it:
  // `expected` holds back the cases it may retry and reruns them with the same runner.
  run::ExpectedRun expected(std::move(expectations), sink);
  results::Summary summary;
  if (isolated(o, info)) {
    const IsolationOptions iso = isolationOptions(o, ro);
    std::fprintf(text, "isolation: batches run in child processes (batch timeout %g s)\n",
                 o.batchTimeout);
    summary =
        expected.run(cases, [&](auto some, const auto& to) { return runIsolated(some, iso, to); });
  } else {
    summary = expected.run(
        cases, [&](auto some, const auto& to) { return run::runCases(some, dev.routes, ro, to); });
  }
  progress.clear();
  const CiReportFacts ci{device, info.driverName + " " + info.driverInfo, ro.profile.name,
                         header["gcnprobe_version"].get<std::string>()};
  if (summary.notRun > 0 || expected.retriesInterrupted())
    return stoppedRun(o, summary, cases, reports, jsonReport.get(), ci);
  nlohmann::json extra = nlohmann::json::object();
  if (wholeTexelSuite) extra["texel_gaps"] = texelGaps(reports.texelOutcomes, *dev.ctx, text);
  dev.newMessages();
  progress.clear();
  return finishedRun(o, summary, skipped, dev, reports, jsonReport.get(), ci, std::move(extra));
}

void addCommon(CLI::App* sub, RunOptions& o) {
  sub->add_option("--filter", o.filters,
                  "only cases whose name matches this glob (* and ?); repeat for several");
  sub->add_option("--exclude", o.excludes, "leave out cases matching this glob; repeatable");
  sub->add_option("--case-list", o.caseList,
                  "only the cases named in this file (one per line, # comments), or the "
                  "failing cases of a results.csv, baseline or --json results file");
  sub->add_option("--skips", o.skips,
                  "cases not to run: one glob per line, # comments (deqp-runner's skips list, "
                  "with globs for its regexes); applied before --shard, the count said on "
                  "standard error");
  sub->add_option("--shard", o.shard,
                  "i/N: only shard i (0-based) of N, by list order (default: GTEST_SHARD_INDEX/"
                  "GTEST_TOTAL_SHARDS when set)");
  sub->add_option("--suite", o.suite, cases::suiteOptionHelp());
  sub->add_option("--profile", o.profile,
                  "gfx6|gfx7|gfx8|gfx9|portable (default: the device's generation on an AMD GCN "
                  "device, else portable)");
}

}  // namespace

void addRunCommands(CLI::App& app, Context& ctx) {
  auto list = std::make_shared<RunOptions>();
  CLI::App* ls = app.add_subcommand("list", "List the cases of the suites: name and instruction");
  addCommon(ls, *list);
  ls->add_flag("--json", list->listJson,
               "print the cases as a JSON array of {name, suite, instruction} (error instead of "
               "instruction for a case that cannot be built)");
  ls->callback([list, &ctx] {
    runList(*list);
    ctx.exitCode = 0;
  });

  auto opts = std::make_shared<RunOptions>();
  CLI::App* rn = app.add_subcommand(
      "run", "Run cases on a Vulkan device and diff every lane against the reference");
  addCommon(rn, *opts);
  rn->add_option("--device", opts->device,
                 "device: index or name substring (default: the best one, see `devices`)");
  rn->add_option("--json", opts->json,
                 "write one JSON record per case to this file ('-': standard output, and the "
                 "text report goes to standard error)");
  rn->add_option("--junit", opts->junit, "write a JUnit XML report to this file");
  rn->add_option("--csv", opts->csv,
                 "write deqp-runner style results (name,status,duration per line) to this file");
  rn->add_option("--failures-csv", opts->failuresCsv,
                 "write the --csv lines whose status is neither Pass nor Skip to this file "
                 "(deqp-runner's failures.csv)");
  rn->add_option("--jobs", opts->jobs, "threads for the reference (default: all cores)");
  rn->add_flag("--verbose", opts->verbose, "print every case and every compared component");
  rn->add_option("--isolate", opts->isolate,
                 "run batches in child processes, so that a crash, hang or lost device costs "
                 "only the case(s) that cause it: auto (on a GPU, not on a CPU device such as "
                 "lavapipe), on, off")
      ->check(CLI::IsMember({"auto", "on", "off"}))
      ->default_str("auto");
  rn->add_option("--batch-timeout", opts->batchTimeout,
                 "isolation: seconds a child may go without a result before it is killed and "
                 "its batch counted as hung")
      ->check(CLI::Range(0.1, 86400.0))
      ->default_str("60");
  rn->add_option("--batch-log", opts->batchLog,
                 "(internal, for isolation) name each batch in this file before dispatching it")
      ->group("");
  rn->add_flag("--quiet", opts->quiet, "no progress line on a terminal");
  rn->add_flag("--validate", opts->validate,
               "run under the Khronos validation layer (core + synchronization); its messages "
               "are attached to the case reported next and any message fails the run");
  // Expected results (docs/run.md "Baselines").
  rn->add_option("--baseline", opts->baseline,
                 "expected failures, one NAME_OR_GLOB,STATUS per line: a failure it expects is "
                 "expected-fail, a case it expects to fail that passes is unexpected-pass");
  rn->add_option("--flakes", opts->flakes,
                 "known flaky cases, one glob per line: one that fails is a flake");
  rn->add_option("--retry", opts->retry,
                 "rerun a case that fails up to N more times; passing on a retry makes it a "
                 "flake")
      ->check(CLI::Range(0u, 100u));
  rn->add_flag("--fail-on-unexpected-pass", opts->failOnUnexpectedPass,
               "exit 1 when a case the baseline expects to fail passes");
  rn->add_option("--details", opts->details,
                 "print the component lines (8 at most) of the first N failing cases, one line "
                 "per case after that (default 20; --verbose prints everything)");
  rn->add_flag("--twins", opts->twins,
               "on a GCN device, also run each case's twins in gcnprobe's own program "
               "(docs/program.md): the same instruction, V#, lanes and memory with every "
               "instruction of the shader gcnprobe's");
  rn->add_flag("--baseline-must-match", opts->baselineMustMatch,
               "exit 2 when the baseline was recorded on another device, driver or profile "
               "(otherwise a warning)");
  rn->callback([opts, &ctx] { ctx.exitCode = runRun(*opts); });
}

}  // namespace gcnprobe::app
