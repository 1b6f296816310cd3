// `gcnprobe survey`: the hardware steps of a first run on a GCN machine, in the safe order, as
// one command. Each step is this program run as a child process (a crash, a hang or a lost
// device costs that step, never the survey), with a time budget and a progress line; the
// outputs land in one folder (and a tarball) with the machine's facts, a baseline, HTML
// reports and a README for whoever receives it. `--dry-run` runs what needs no device memory
// on RADV's null device for each chip: the same sequence, testable without a GPU.
// docs/hardware.md describes the steps and what to send back.
#include <sys/utsname.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/child_process.h"
#include "app/commands.h"
#include "app/stop_signals.h"
#include "app/version.h"
#include "harness/vulkan/driver.h"
#include "reference/error.h"
#include "reference/gen.h"

namespace gcnprobe::app {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct SurveyOptions {
  std::string out;  // the bundle folder (default gcnprobe-survey-<time>)
  std::string device;
  std::string profile;
  bool dryRun = false;
  std::vector<std::string> families;  // --dry-run: the null chips
  double stepTimeout = 3600;
  unsigned fuzzCount = 200;
  unsigned fuzzSeed = 1;
  bool noTarball = false;
};

// One step: what it runs, where its standard output goes, and the run report it writes (for
// the summary line, the baseline and the HTML report).
struct Step {
  std::string id, title;
  std::vector<std::string> args;
  std::string stdoutFile;  // in the bundle; "" = step.log with stderr
  std::string runJson;     // a `run --json` report in the bundle, or ""
  std::vector<std::pair<std::string, std::optional<std::string>>> env;
  bool gcnOnly = false;           // reads GCN machine code or V#s: not applicable on another device
  bool descriptorBuffer = false;  // reads the driver's descriptors (VK_EXT_descriptor_buffer)
};

std::string utcStamp(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

// The status of a finished step from its exit: "ok" (0), "failures" (1: the check found
// failures, which on hardware is news, not an error), "bad input" (2), "infrastructure" (3:
// no device, repeated device loss), "timeout", "crashed", "not started".
// A step's record in survey.json: what every step has (id, title, status, summary); a step
// that ran adds its command, environment, exit, time and files.
json stepRecord(const Step& s, std::string_view status, const std::string& summary) {
  return {{"id", s.id}, {"title", s.title}, {"status", status}, {"summary", summary}};
}

std::string stepStatus(const ChildResult& r) {
  if (!r.started) return "not started";
  if (r.timedOut) return "timeout";
  if (r.stopped) return "stopped";
  if (r.signal != 0) return "crashed";
  switch (r.exitCode) {
    case 0:
      return "ok";
    case 1:
      return "failures";
    case 2:
      return "bad input";
    default:
      return "infrastructure";
  }
}

// The last line of a run report's summary, when the step wrote one.
std::string runSummary(const fs::path& report) {
  std::ifstream in(report);
  if (!in) return "";
  try {
    const nlohmann::json doc = nlohmann::json::parse(in);
    return doc.value("summary", std::string());
  } catch (const std::exception&) {
    return "(a report that did not finish)";
  }
}

std::string firstLineOf(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  return line;
}

// The OS's PRETTY_NAME from /etc/os-release, nullopt when it has none.
std::optional<std::string> osName() {
  std::ifstream in("/etc/os-release");
  std::optional<std::string> name;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      name = line.substr(12);
      if (name->size() >= 2 && name->front() == '"' && name->back() == '"')
        name = name->substr(1, name->size() - 2);
    }
  return name;
}

// The GPUs the kernel sees: PCI ids and the kernel driver bound to each.
json kernelGpus() {
  json gpus = json::array();
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/sys/class/drm", ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("card", 0) != 0 || name.find('-') != std::string::npos) continue;
    const fs::path dev = e.path() / "device";
    json g = {{"card", name},
              {"vendor", firstLineOf(dev / "vendor")},
              {"device", firstLineOf(dev / "device")},
              {"revision", firstLineOf(dev / "revision")}};
    std::error_code lec;
    const fs::path drv = fs::read_symlink(dev / "driver", lec);
    g["kernel_driver"] = lec ? "" : drv.filename().string();
    gpus.push_back(g);
  }
  return gpus;
}

// Firmware versions (debugfs: root only) into firmware.txt; the file's name, or why it is
// missing.
std::string firmwareFacts(const fs::path& dir) {
  std::string firmware;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/sys/kernel/debug/dri", ec)) {
    const fs::path f = e.path() / "amdgpu_firmware_info";
    std::ifstream in(f);
    if (in) firmware += "== " + f.string() + "\n" + readWholeFile(f);
  }
  if (firmware.empty())
    return "not readable (/sys/kernel/debug/dri/*/amdgpu_firmware_info needs root)";
  std::ofstream(dir / "firmware.txt") << firmware;
  return "firmware.txt";
}

// The kernel's GPU lines (resets, ring timeouts, page faults) from dmesg, often restricted,
// into kernel-gpu.txt; the file's name, or why it is missing.
std::string kernelGpuLines(const fs::path& dir) {
  ChildSpec dmesg;
  dmesg.program = "dmesg";
  dmesg.stdoutPath = (dir / "dmesg.txt").string();
  dmesg.stderrPath = "/dev/null";
  dmesg.timeoutSeconds = 20;
  const ChildResult d = runChildProcess(dmesg);
  std::string fact;
  if (d.started && d.exitCode == 0) {
    std::string kept;
    std::istringstream lines(readWholeFile(dir / "dmesg.txt"));
    for (std::string l; std::getline(lines, l);)
      if (l.find("amdgpu") != std::string::npos || l.find("radeon") != std::string::npos ||
          l.find("drm") != std::string::npos)
        kept += l + "\n";
    std::ofstream(dir / "kernel-gpu.txt") << kept;
    fact = "kernel-gpu.txt";
  } else {
    fact = "not readable (dmesg: " + d.describe() + ")";
  }
  std::error_code ec;
  fs::remove(dir / "dmesg.txt", ec);
  return fact;
}

// `vulkaninfo --summary` into vulkaninfo.txt; the file's name, or why it is missing.
std::string vulkaninfoFacts(const fs::path& dir) {
  ChildSpec vi;
  vi.program = "vulkaninfo";
  vi.args = {"--summary"};
  vi.stdoutPath = (dir / "vulkaninfo.txt").string();
  vi.stderrPath = "/dev/null";
  vi.timeoutSeconds = 60;
  const ChildResult v = runChildProcess(vi);
  if (v.started && v.exitCode == 0) return "vulkaninfo.txt";
  std::error_code ec;
  fs::remove(dir / "vulkaninfo.txt", ec);
  return "not available (vulkaninfo --summary: " + v.describe() + "; Debian's vulkan-tools has it)";
}

// Facts about the machine a reader of the bundle needs: what is readable without privileges,
// and for the rest why it is missing.
json machineFacts(const fs::path& dir) {
  json facts;
  facts["gcnprobe"] = std::string(GCNPROBE_VERSION) + " (" + GCNPROBE_GIT_REVISION + ")";
  facts["time"] = utcStamp("%Y-%m-%dT%H:%M:%SZ");
  utsname u{};
  if (uname(&u) == 0)
    facts["kernel"] = std::string(u.sysname) + " " + u.release + " " + u.version + " " + u.machine;
  if (const std::optional<std::string> os = osName()) facts["os"] = *os;
  facts["kernel_cmdline"] = firstLineOf("/proc/cmdline");
  const char* driver = std::getenv("GCNPROBE_DRIVER");
  facts["driver_choice"] = driver != nullptr ? driver : "system";
  facts["gpus"] = kernelGpus();
  facts["firmware"] = firmwareFacts(dir);
  facts["kernel_gpu_lines"] = kernelGpuLines(dir);
  facts["vulkaninfo"] = vulkaninfoFacts(dir);
  return facts;
}

std::vector<Step> hardwareSteps(const SurveyOptions& o) {
  std::vector<std::string> common;
  if (!o.device.empty()) common.insert(common.end(), {"--device", o.device});
  std::vector<std::string> runCommon = common;
  if (!o.profile.empty()) runCommon.insert(runCommon.end(), {"--profile", o.profile});
  runCommon.insert(runCommon.end(), {"--isolate", "on", "--quiet"});
  const auto run = [&](std::vector<std::string> first, const std::string& name) {
    std::vector<std::string> a = {"run"};
    a.insert(a.end(), first.begin(), first.end());
    a.insert(a.end(), runCommon.begin(), runCommon.end());
    a.insert(a.end(),
             {"--json", name + ".json", "--junit", name + ".junit.xml", "--csv", name + ".csv"});
    return a;
  };
  std::vector<std::string> devices = {"devices", "--json"};
  std::vector<std::string> selfCheck = {"formats", "--self-check", "--json"};
  selfCheck.insert(selfCheck.end(), common.begin(), common.end());
  std::vector<std::string> binary = {"binary", "--json"};
  binary.insert(binary.end(), common.begin(), common.end());
  std::vector<std::string> fuzz = {"fuzz",    "--json",
                                   "--seed",  std::to_string(o.fuzzSeed),
                                   "--count", std::to_string(o.fuzzCount),
                                   "--out",   "fuzz-probes"};
  fuzz.insert(fuzz.end(), common.begin(), common.end());
  return {
      {"devices", "devices and driver", devices, "devices.json", "", {}},
      {"self-check",
       "V# self-check (the raw route's gate)",
       selfCheck,
       "self-check.json",
       "",
       {},
       true,
       true},
      {"default", "default suite", run({}, "default"), "", "default.json", {}},
      {"disputed",
       "disputed suite (the probes)",
       run({"--suite", "disputed"}, "disputed"),
       "",
       "disputed.json",
       {}},
      {"binary-build",
       "binary route: every opcode built and proven",
       binary,
       "binary-build.json",
       "",
       {},
       true},
      {"binary", "binary suite", run({"--suite", "binary"}, "binary"), "", "binary.json", {}},
      {"fuzz", "fuzz (" + std::to_string(o.fuzzCount) + " cases)", fuzz, "fuzz.json", "", {}},
  };
}

// The steps of --dry-run: per null chip what needs no device memory (device and self-check,
// the default and disputed suites built and ISA-proven, every binary-route opcode built and
// proven, the cases each suite realises).
std::vector<Step> dryRunSteps(const SurveyOptions& o) {
  std::vector<Step> steps;
  std::vector<std::string> isaAll = {"isa"}, isaDisputed = {"isa", "--suite", "disputed"};
  for (const std::string& f : o.families) {
    isaAll.insert(isaAll.end(), {"--family", f});
    isaDisputed.insert(isaDisputed.end(), {"--family", f});
  }
  isaAll.insert(isaAll.end(), {"--json", "isa-default.json"});
  isaDisputed.insert(isaDisputed.end(), {"--json", "isa-disputed.json"});
  // `isa` runs its own null-device children; the other steps run on the null device.
  const std::pair<std::string, std::optional<std::string>> noNull{"GCNPROBE_RADV_NULL",
                                                                  std::nullopt};
  for (const std::string& f : o.families) {
    const std::pair<std::string, std::optional<std::string>> null{"GCNPROBE_RADV_NULL", f};
    const std::string gen(gcn::genName(gcn::parseChip(f).gen));
    steps.push_back({"devices-" + f,
                     f + ": devices and driver",
                     {"devices", "--json"},
                     "devices-" + f + ".json",
                     "",
                     {null}});
    steps.push_back({"self-check-" + f,
                     f + ": V# self-check (the raw route's gate)",
                     {"formats", "--self-check", "--json"},
                     "self-check-" + f + ".json",
                     "",
                     {null},
                     true,
                     true});
    steps.push_back({"binary-build-" + f,
                     f + ": binary route: every opcode built and proven",
                     {"binary", "--json"},
                     "binary-build-" + f + ".json",
                     "",
                     {null}});
    for (const char* suite : {"default", "disputed", "binary"}) {
      std::vector<std::string> a = {"list", "--json", "--profile", gen};
      if (std::string(suite) != "default") a.insert(a.end(), {"--suite", suite});
      steps.push_back({"list-" + std::string(suite) + "-" + f,
                       f + ": " + suite + " suite realised (" + gen + ")",
                       a,
                       "list-" + std::string(suite) + "-" + f + ".json",
                       "",
                       {null}});
    }
  }
  steps.push_back({"isa-default",
                   "default suite built and ISA-proven on every chip",
                   isaAll,
                   "",
                   "",
                   {noNull}});
  steps.push_back({"isa-disputed",
                   "disputed suite built and ISA-proven on every chip",
                   isaDisputed,
                   "",
                   "",
                   {noNull}});
  return steps;
}

const char* kReceiverReadme = R"(gcnprobe survey bundle
======================

What a `gcnprobe survey` run wrote: one folder per machine. Start with survey.json (every
step: its command, exit status, wall time, summary) and facts.json (the machine: kernel, OS,
GPUs and their kernel driver, the Vulkan driver gcnprobe used; firmware and the kernel's GPU
reset lines where readable).

Per step:
  devices.json          `gcnprobe devices --json`: the Vulkan devices, the chip of each
  self-check.json       `formats --self-check --json`: the driver's descriptors against
                        gcnprobe's V#s (the raw V# route's gate)
  default.json/.csv/.junit.xml     the default suite (`run --json`), isolated
  disputed.json/...     the disputed probes as cases
  binary-build.json     every opcode patched into a template pipeline, built and proven
  binary.json/...       the binary suite
  fuzz.json             random cases; fuzz-probes/ holds minimised probes of mismatches
  *.log                 each step's standard error (the driver's own lines included)
  baseline.txt          a baseline from default.json (`gcnprobe baseline --from`)
  report-*.html         one HTML page per run report (`gcnprobe report`)

Every *.json run report feeds `gcnprobe report`, `compare`, `merge` and `baseline` as it is,
for example: gcnprobe compare an-older-default.json default.json
)";

// The options with their defaults filled in, checked.
SurveyOptions checkedOptions(const SurveyOptions& opts) {
  SurveyOptions o = opts;
  if (o.dryRun && o.families.empty())
    o.families = {"tahiti", "bonaire", "tonga", "polaris10", "vega10"};
  for (const std::string& f : o.families) {
    const gcn::Chip& c = gcn::parseChip(f);
    if (c.radvFamily.empty())
      throw gcn::Error(gcn::Place{"--family", 0, 0}, "RADV has no null device for '" + f + "'");
  }
  if (!o.dryRun && !o.families.empty())
    throw gcn::Error(gcn::Place{"--family", 0, 0},
                     "--family chooses null chips: only with --dry-run");
  if (o.out.empty())
    o.out = std::string(o.dryRun ? "gcnprobe-survey-dry-run-" : "gcnprobe-survey-") +
            utcStamp("%Y%m%dT%H%M%SZ");
  return o;
}

// The bundle folder, new or empty, created.
fs::path createBundleFolder(const std::string& out) {
  fs::path dir = fs::absolute(out).lexically_normal();
  if (dir.filename().empty()) dir = dir.parent_path();  // "bundle/" names the folder "bundle"
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec))
    throw gcn::Error(gcn::Place{"--output", 0, 0},
                     dir.string() + " exists and is not empty: choose a new folder");
  fs::create_directories(dir, ec);
  if (ec) throw gcn::InfraError(dir.string() + ": cannot create the folder: " + ec.message());
  return dir;
}

// A step's one-line summary: its run report's, or for `isa` each chip's summary line
// ("tonga: 885 cases, ..."), joined.
std::string stepSummary(const Step& s, const fs::path& dir, const std::string& stdoutPath) {
  std::string summary = s.runJson.empty() ? "" : runSummary(dir / s.runJson);
  if (!summary.empty() || !s.stdoutFile.empty()) return summary;
  std::istringstream out(readWholeFile(stdoutPath));
  for (std::string l; std::getline(out, l);)
    if (l.find(": ") != std::string::npos && l.find(" cases, ") != std::string::npos && l[0] != ' ')
      summary += (summary.empty() ? "" : "; ") + l;
  return summary;
}

// Runs one step in a child process in the bundle folder and returns its record.
json runStep(const Step& s, const fs::path& dir, int stepTimeout) {
  ChildSpec spec;
  spec.args = s.args;
  spec.env = s.env;
  spec.stdoutPath = (dir / (s.stdoutFile.empty() ? s.id + ".out" : s.stdoutFile)).string();
  spec.stderrPath = (dir / (s.id + ".log")).string();
  spec.timeoutSeconds = stepTimeout;
  spec.stop = [] { return StopSignals::received() != 0; };
  // A stopped run finishes the batch it is in (a hung submission gives up after 10 s) and
  // writes its reports: time for that before SIGKILL.
  spec.graceSeconds = 30;
  // The child works in the bundle folder: its relative output paths land there.
  spec.workingDirectory = dir.string();
  const ChildResult r = runChildProcess(spec);
  const std::string status = stepStatus(r);
  const std::string summary = stepSummary(s, dir, spec.stdoutPath);
  std::printf("      %s (%s, %.1f s)%s%s\n", status.c_str(), r.describe().c_str(), r.seconds,
              summary.empty() ? "" : ": ", summary.c_str());
  std::fflush(stdout);
  json args = json::array({"gcnprobe"});
  for (const std::string& a : s.args)
    args.push_back(a);
  json env = json::object();
  for (const auto& [k, v] : s.env)
    env[k] = v ? json(*v) : json(nullptr);
  json step = stepRecord(s, status, summary);
  step["command"] = args;
  step["environment"] = env;
  step["exit"] = r.describe();
  step["seconds"] = r.seconds;
  step["stdout"] = fs::path(spec.stdoutPath).filename().string();
  step["stderr"] = fs::path(spec.stderrPath).filename().string();
  step["report"] = s.runJson;
  return step;
}

// Why the steps that read GCN machine code or V#s, or need VK_EXT_descriptor_buffer, do not
// apply to the device the steps run on; empty where they do.
struct NotApplicable {
  std::string notGcn, noDescriptorBuffer;

  std::string reasonFor(const Step& s) const {
    if (s.gcnOnly && !notGcn.empty()) return notGcn;
    if (s.descriptorBuffer && !noDescriptorBuffer.empty()) return noDescriptorBuffer;
    return {};
  }
  // From a devices step's output: the device `run` picks is the one `devices` marks selected.
  // Each devices step (one per null chip) describes its own device.
  void readDevices(const fs::path& devicesJson) {
    notGcn.clear();
    noDescriptorBuffer.clear();
    try {
      std::ifstream in(devicesJson);
      for (const json& d : json::parse(in)) {
        if (!d.value("selected", false)) continue;
        const std::string name = d.value("name", std::string("the device"));
        if (d["chip"].is_null()) notGcn = name + " is not a GCN device";
        if (!d.value("descriptor_buffer", false))
          noDescriptorBuffer = name + " (" + d.value("driver", std::string()) + " " +
                               d.value("driver_info", std::string()) +
                               ") has no VK_EXT_descriptor_buffer (RADV has it since Mesa 23)";
      }
    } catch (const std::exception&) {
    }
  }
};

// What the run reports give: a baseline of the default suite and one HTML page each.
void deriveFromReports(const std::vector<Step>& steps, const fs::path& dir, json& record) {
  const auto post = [&](const std::vector<std::string>& args, const std::string& log) {
    ChildSpec spec;
    spec.args = args;
    spec.stdoutPath = (dir / (log + ".out")).string();
    spec.stderrPath = (dir / (log + ".log")).string();
    spec.timeoutSeconds = 600;
    spec.workingDirectory = dir.string();
    const ChildResult r = runChildProcess(spec);
    record["derived"].push_back({{"command", args}, {"exit", r.describe()}});
  };
  record["derived"] = json::array();
  if (fs::exists(dir / "default.json"))
    post({"baseline", "--from", "default.json", "-o", "baseline.txt"}, "baseline");
  for (const Step& s : steps)
    if (!s.runJson.empty() && fs::exists(dir / s.runJson))
      post({"report", s.runJson, "-o", "report-" + s.id + ".html"}, "report-" + s.id);
}

// The bundle folder as a tarball beside it; the folder is complete without it.
void packTarball(const fs::path& dir) {
  ChildSpec tar;
  tar.program = "tar";
  tar.args = {"-czf", dir.string() + ".tar.gz", "-C", dir.parent_path().string(),
              dir.filename().string()};
  tar.timeoutSeconds = 600;
  const ChildResult t = runChildProcess(tar);
  if (!t.started || t.exitCode != 0)
    std::fprintf(stderr, "gcnprobe: warning: no tarball (tar: %s); the folder is complete\n",
                 t.describe().c_str());
  else
    std::printf("survey: %s.tar.gz\n", dir.c_str());
}

int runSurvey(const SurveyOptions& opts) {
  const SurveyOptions o = checkedOptions(opts);
  const fs::path dir = createBundleFolder(o.out);
  std::printf("survey: %s into %s\n", o.dryRun ? "dry run on RADV's null device" : "hardware",
              dir.c_str());
  std::fflush(stdout);
  json facts = machineFacts(dir);
  facts["dry_run"] = o.dryRun;
  {
    std::ofstream f(dir / "facts.json");
    f << facts.dump(1) << "\n";
    if (!f) throw gcn::InfraError((dir / "facts.json").string() + ": cannot write");
  }

  const std::vector<Step> steps = o.dryRun ? dryRunSteps(o) : hardwareSteps(o);
  json record = {{"gcnprobe", facts["gcnprobe"]},
                 {"dry_run", o.dryRun},
                 {"started", facts["time"]},
                 {"steps", json::array()}};
  // Written after every step: a survey cut short keeps what it did.
  const auto writeRecord = [&] {
    std::ofstream f(dir / "survey.json");
    f << record.dump(1) << "\n";
  };
  bool findings = false, incomplete = false;
  {
    // SIGINT/SIGTERM to the survey: the running step is stopped (its process group gets
    // SIGTERM, its reports keep what finished), the steps after it are not started, and the
    // bundle is written as far as it got.
    const StopSignals stopSignals;
    NotApplicable notApplicable;  // set by the devices step
    for (std::size_t k = 0; k < steps.size(); ++k) {
      const Step& s = steps[k];
      std::printf("[%zu/%zu] %s ...\n", k + 1, steps.size(), s.title.c_str());
      std::fflush(stdout);
      if (StopSignals::received() != 0) {
        std::printf("      not started: the survey was stopped (signal %d)\n",
                    StopSignals::received());
        record["steps"].push_back(stepRecord(s, "stopped", "not started"));
        incomplete = true;
      } else if (const std::string why = notApplicable.reasonFor(s); !why.empty()) {
        std::printf("      not applicable: %s\n", why.c_str());
        record["steps"].push_back(stepRecord(s, "not applicable", why));
      } else {
        const json step = runStep(s, dir, o.stepTimeout);
        const std::string status = step["status"].get<std::string>();
        findings = findings || status == "failures";
        incomplete = incomplete || (status != "ok" && status != "failures");
        record["steps"].push_back(step);
        if (s.id.rfind("devices", 0) == 0 && status == "ok" && o.device.empty())
          notApplicable.readDevices(dir / s.stdoutFile);
      }
      writeRecord();
    }
    if (!o.dryRun) deriveFromReports(steps, dir, record);
  }
  if (StopSignals::received() != 0) record["stopped_by_signal"] = StopSignals::received();
  record["finished"] = utcStamp("%Y-%m-%dT%H:%M:%SZ");
  record["result"] = incomplete ? "incomplete" : findings ? "findings" : "ok";
  writeRecord();
  std::ofstream(dir / "README.txt") << kReceiverReadme;
  if (!o.noTarball) packTarball(dir);
  std::printf("survey: %s: %s\n", record["result"].get<std::string>().c_str(),
              incomplete ? "a step did not complete (see survey.json and its .log)"
              : findings ? "every step completed; some found failures (the news to send back)"
                         : "every step completed");
  return incomplete ? 3 : findings ? 1 : 0;
}

}  // namespace

void addSurveyCommand(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<SurveyOptions>();
  CLI::App* cmd = app.add_subcommand(
      "survey",
      "First contact with a GCN GPU: devices, the V# self-check, the default, disputed and "
      "binary suites and a fuzz budget, each step isolated in a child process with a time "
      "limit, into one folder and tarball to send back (--dry-run: RADV's null device)");
  cmd->add_option("-o,--output", opts->out,
                  "the bundle folder, new or empty (default gcnprobe-survey-<UTC time>)");
  cmd->add_option("--device", opts->device, "device selector (as for `devices`)");
  cmd->add_option("--profile", opts->profile, "profile of the run steps (default: the device's)");
  cmd->add_flag("--dry-run", opts->dryRun,
                "run what needs no device memory, on RADV's null device for each --family");
  cmd->add_option("--family", opts->families,
                  "--dry-run: the null chips (default tahiti, bonaire, tonga, polaris10, vega10)");
  cmd->add_option("--step-timeout", opts->stepTimeout,
                  "seconds a step may take before it is stopped (SIGTERM; its reports keep what "
                  "finished) and the survey goes on (default 3600)")
      ->check(CLI::Range(1.0, 86400.0));
  cmd->add_option("--fuzz-count", opts->fuzzCount, "cases of the fuzz step (default 200)");
  cmd->add_option("--fuzz-seed", opts->fuzzSeed, "seed of the fuzz step (default 1)");
  cmd->add_flag("--no-tarball", opts->noTarball, "leave the folder only");
  cmd->callback([opts, &ctx] { ctx.exitCode = runSurvey(*opts); });
}

}  // namespace gcnprobe::app
