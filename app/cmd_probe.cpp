// `gcnprobe probe FILE... [--gen G] [--device SEL] [--json]`: each probe file evaluated on the
// reference once per policy variant that matters (reference/policy.h), distinct predictions
// printed side by side per lane, then what the device did: the probe becomes the case the
// disputed suite has for it (cases::probeCase, harness/cases/suite_disputed.cpp), runs through
// the runner as `gcnprobe run` runs it (the route whose Vulkan construct realises exactly its
// instruction and V#), and each lane and the memory are matched bit for bit against every
// prediction by the differ (cases::matchPrediction). Exit 1 when any probe's own `expect` lines
// do not hold against the default prediction, or when a device ran a probe and matched none
// of its predictions (the model, or what anyone wrote down, is not what the device does).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <span>

#include "app/clrx_dir.h"
#include "app/commands.h"
#include "harness/cases/suite.h"
#include "harness/control/control_route.h"
#include "harness/formats.h"
#include "harness/isa/binary_route.h"
#include "harness/isa/check.h"
#include "harness/routes/all_routes.h"
#include "harness/run/probe_run.h"
#include "harness/run/runner.h"
#include "harness/vulkan/context.h"
#include "probe/probe_eval.h"
#include "probe/probe_report.h"
#include "reference/text.h"

namespace gcnprobe::app {

namespace {
struct ProbeOptions {
  std::vector<std::string> files;
  std::string gen;
  std::string device;
  std::vector<std::string> policies;
  bool json = false;
};

struct DeviceOutcome {
  std::string text;
  nlohmann::json json;
  bool matchedNone = false;  // the device ran the probe and matched no prediction
  bool expectFails = false;  // an `expect device` line does not hold
};

std::string letter(std::size_t i) {
  return std::string(1, static_cast<char>('A' + i % 26));
}

// The device is opened once, on the first probe a route can realise.
class DeviceSession {
 public:
  explicit DeviceSession(std::string selector) : selector_(std::move(selector)) {}

  // nullptr when no device opens; error() says why.
  vk::Context* context() {
    if (!tried_) {
      tried_ = true;
      try {
        // Probes may run on the binary route, whose templates need its environment; on gfx6/7
        // the ISA check needs the `clrxdisasm` stand-in it puts on PATH (app/clrx_dir.h).
        clrx_ = prepareBinaryRoute();
        ctx_ = vk::Context::open(selector_, false, /*descriptorBuffer=*/true);
        routes_ = control::makeRunRoutes(*ctx_);
      } catch (const std::exception& e) {
        error_ = e.what();
        ctx_.reset();
        routes_.clear();
      }
    }
    return ctx_.get();
  }
  const std::string& error() const { return error_; }
  const std::vector<std::unique_ptr<routes::Route>>& routeList() const { return routes_; }

 private:
  std::string selector_;
  bool tried_ = false;
  std::unique_ptr<ClrxDir> clrx_;  // outlives the context: pipelines are built through it
  std::unique_ptr<vk::Context> ctx_;
  std::vector<std::unique_ptr<routes::Route>> routes_;
  std::string error_;
};

DeviceOutcome notRun(const std::string& reason, nlohmann::json extra = nlohmann::json::object()) {
  extra["run"] = false;
  extra["reason"] = reason;
  return {"not run: " + reason, extra};
}

// A device without memory (RADV's compile-only null device) builds pipelines but runs
// nothing: the case's pipeline is built and the ISA check proves (or refutes) that it holds
// the probe's instruction on the probe's buffer; execution needs hardware.
DeviceOutcome compileOnly(const judge::Case& c, routes::Route& route, const vk::DeviceInfo& info,
                          const std::string& deviceName, nlohmann::json j) {
  if (const std::string why = route.unsupportedReason(c.device); !why.empty())
    return notRun(deviceName + ": " + why, j);
  isa::CheckResult check;
  try {
    check = run::checkCaseIsa(info.chip->gen, c, route.pipelineIsa(c.device));
  } catch (const std::exception& e) {
    return notRun(deviceName + ": building the pipeline failed: " + e.what(), j);
  }
  nlohmann::json lines = nlohmann::json::array();
  for (const isa::EmittedInstruction& e : check.emitted)
    lines.push_back(e.listingLine(info.chip->gen));
  j["isa_check"] = std::string(isa::outcomeName(check.outcome));
  j["isa_reason"] = check.reason;
  j["isa_lines"] = lines;
  j["proof"] = check.proven;
  const std::string what =
      check.outcome == isa::Outcome::Verified
          ? "its buffer instruction is the probe's, on the probe's buffer (set 0 binding 0), "
            "and the data path is proven" +
                (check.reason.empty() ? std::string() : "; " + check.reason)
          : std::string(isa::outcomeName(check.outcome)) + ": " + check.reason;
  DeviceOutcome out =
      notRun(deviceName + " cannot execute (no memory types: a compile-only device); route " +
                 std::string(route.name()) + ": pipeline built, ISA check " +
                 std::string(isa::outcomeName(check.outcome)) + "; execution needs hardware",
             j);
  out.text += "\n  isa check: " + what;
  for (const nlohmann::json& line : lines)
    out.text += "\n  emitted: " + line.get<std::string>();
  for (const std::string& link : check.proven)
    out.text += "\n  " + link;
  return out;
}

// What the device changed in a buffer: every byte in JSON, the first 16 as text
// (" +4: 0x00 -> 0xff", then " ..." when there are more).
struct ByteChanges {
  std::string text;
  nlohmann::json json = nlohmann::json::array();
};
ByteChanges byteChanges(const std::vector<uint8_t>& before, const std::vector<uint8_t>& after) {
  ByteChanges c;
  for (std::size_t i = 0; i < after.size() && i < before.size(); ++i) {
    if (after[i] == before[i]) continue;
    if (c.json.size() < 16) {
      char b[48];
      std::snprintf(b, sizeof b, " +%zu: 0x%02x -> 0x%02x", i, before[i], after[i]);
      c.text += b;
    }
    c.json.push_back({{"offset", i}, {"before", before[i]}, {"after", after[i]}});
  }
  if (c.json.size() > 16) c.text += " ...";
  return c;
}

// The device's registers as a result the probe report can print (into `shown`), each lane with
// the predictions it matches, into `text` and j["lanes"].
void laneMatches(const gcn::probe::ProbeSetup& setup, const routes::DeviceCase& dc,
                 const routes::DeviceResult& r, const std::vector<cases::PredictionMatch>& m,
                 gcn::ExecResult& shown, std::string& text, nlohmann::json& j) {
  nlohmann::json lanes = nlohmann::json::array();
  for (unsigned l = 0; l < setup.lanes; ++l) {
    gcn::LaneResult& lr = shown.lanes[l];
    lr.active = ((dc.state.exec >> l) & 1u) != 0;
    lr.vdataCount = r.vdataCount;
    nlohmann::json vdata = nlohmann::json::array();
    for (unsigned k = 0; k < r.vdataCount && k < 5; ++k) {
      lr.vdata[k] = r.vdata[l][k];
      vdata.push_back(r.vdata[l][k]);
    }
    std::string matched;
    nlohmann::json mj = nlohmann::json::array();
    for (std::size_t p = 0; p < m.size(); ++p)
      if (m[p].lanes[l]) {
        matched += " " + letter(p);
        mj.push_back(letter(p));
      }
    char buf[40];
    std::snprintf(buf, sizeof buf, "%clane %2u device: ", matched.empty() ? '!' : ' ', l);
    text += buf + gcn::probe::laneCell(setup, shown, l) +
            (lr.active ? "  matches" + (matched.empty() ? std::string(" none") : matched) : "") +
            "\n";
    lanes.push_back({{"lane", l}, {"active", lr.active}, {"vdata", vdata}, {"matches", mj}});
  }
  j["lanes"] = lanes;
}

// What the device changed in the memory image and in each far region, with the predictions the
// image matches, into `text` and j.
void memoryMatches(const routes::DeviceCase& dc, const routes::DeviceResult& r,
                   const std::vector<cases::PredictionMatch>& m, std::string& text,
                   nlohmann::json& j) {
  const ByteChanges image = byteChanges(dc.memory.bytes, r.memory);
  std::string memMatched;
  nlohmann::json memj = nlohmann::json::array();
  for (std::size_t p = 0; p < m.size(); ++p)
    if (m[p].memory) {
      memMatched += " " + letter(p);
      memj.push_back(letter(p));
    }
  text += "  mem device: " + std::to_string(image.json.size()) + " of " +
          std::to_string(r.memory.size()) + " bytes changed" + image.text +
          (r.changedGuardBytes.empty()
               ? std::string()
               : ", " + std::to_string(r.changedGuardBytes.size()) + " guard bytes changed") +
          "  matches" + (memMatched.empty() ? std::string(" none") : memMatched) + "\n";
  j["memory_changes"] = image.json;
  j["changed_guard_bytes"] = r.changedGuardBytes;
  j["memory_matches"] = memj;
  // Far regions the route put on the device (docs/routes.md "Far regions"): what changed there.
  nlohmann::json farj = nlohmann::json::array();
  for (const gcn::MemoryRegion& got : r.far) {
    const auto before =
        std::find_if(dc.memory.far.begin(), dc.memory.far.end(),
                     [&](const gcn::MemoryRegion& x) { return x.base == got.base; });
    if (before == dc.memory.far.end() || before->bytes.size() != got.bytes.size()) continue;
    const ByteChanges far = byteChanges(before->bytes, got.bytes);
    text += "  far " + gcn::hexNumber(got.base) + " device: " + std::to_string(far.json.size()) +
            " of " + std::to_string(got.bytes.size()) + " bytes changed" + far.text + "\n";
    farj.push_back({{"base", got.base}, {"changes", far.json}});
  }
  j["far_changes"] = farj;
}

// The predictions the device matched on every lane and in memory, into `text` and j; returns
// them as one line ("" when none did).
std::string matchedPredictions(const gcn::probe::Exploration& ex,
                               const std::vector<cases::PredictionMatch>& m, std::string& text,
                               nlohmann::json& j) {
  nlohmann::json all = nlohmann::json::array();
  std::string overall;
  for (std::size_t p = 0; p < m.size(); ++p) {
    if (!m[p].all) continue;
    const gcn::probe::Prediction& pr = ex.predictions[p];
    std::string labels;
    for (std::size_t k = 0; k < pr.labels.size(); ++k)
      labels += (k ? " | " : "") + pr.labels[k];
    overall += (overall.empty() ? "" : "; ") + letter(p) + (pr.isDefault ? " (default)" : "") +
               (labels.empty() ? "" : ": " + labels);
    all.push_back({{"prediction", letter(p)}, {"default", pr.isDefault}, {"labels", pr.labels}});
  }
  text += "  device matched: " + (overall.empty() ? "none of the predictions" : overall);
  j["matched"] = all;
  j["matched_none"] = overall.empty();
  return overall;
}

// Every route the probe's case considered, as JSON; each one not taken, and why, is added to
// `passedOver` as a line.
nlohmann::json routeAttempts(const cases::ProbeCase& pc, std::string& passedOver) {
  nlohmann::json attempts = nlohmann::json::array();
  for (const cases::RouteAttempt& a : pc.attempts) {
    attempts.push_back({{"route", a.route}, {"taken", a.taken}, {"why", a.why}});
    if (!a.taken) passedOver += "\n  route " + a.route + " not taken: " + a.why;
  }
  return attempts;
}

// The realised routes this device did not take are passed over, with the note.
void markPassedOver(nlohmann::json& attempts, const routes::RouteChoice& taken,
                    const std::string& routeNote) {
  for (nlohmann::json& a : attempts)
    if (a["taken"].get<bool>() && taken.route != nullptr &&
        a["route"].get<std::string>() != taken.route->name()) {
      a["taken"] = false;
      a["why"] = "passed over on this device: " + routeNote;
    }
}

// What a match on this device says: the silicon's answer on GCN, a driver's elsewhere.
std::string matchCaveat(const vk::DeviceInfo& info) {
  return info.chip
             ? "an AMD GCN device (" + std::string(info.chip->name) + ", " +
                   std::string(gcn::genName(info.chip->gen)) + "): a match is the silicon's answer"
             : "NOT an AMD GCN device: a match says what Vulkan on the " + info.driverName +
                   " driver does, not what GCN silicon does";
}

// The first lines of a device run's report: the device and what a match on it says, the route,
// its binding and format, and the routes passed over; the same facts into j.
std::string runHeading(const vk::DeviceInfo& info, const std::string& deviceName,
                       const routes::Route& route, const routes::DeviceCase& dc,
                       const std::string& passedOver, nlohmann::json& j) {
  const std::string caveat = matchCaveat(info);
  const vk::BufferFormat* bf = vk::findBufferFormat(dc.format);
  const std::string format = bf != nullptr ? std::string(bf->name) : "";
  j["run"] = true;
  j["caveat"] = caveat;
  j["format"] = format;
  return deviceName + ", " + caveat + "\n" + "  route: " + std::string(route.name()) + " (" +
         j["binding"].get<std::string>() + (format.empty() ? "" : ", " + format) + ")" +
         passedOver + "\n";
}

// The probe's `expect device` lines against what the device returned (`shown`), into `text` and
// j["expect"]; whether one failed.
bool expectDevice(const gcn::probe::Probe& probe, const gcn::probe::ProbeSetup& setup,
                  const gcn::ExecResult& shown, std::string& text, nlohmann::json& j) {
  const std::vector<gcn::probe::ExpectFailure> failures =
      gcn::probe::checkExpect(probe, setup, shown, gcn::probe::ExpectSide::Device);
  if (probe.hasDeviceExpect()) {
    text += "\n  " + gcn::probe::expectText(failures, "expect device");
    while (!text.empty() && text.back() == '\n')
      text.pop_back();
  }
  j["expect"] = gcn::probe::expectJson(probe.hasDeviceExpect(), failures);
  return !failures.empty();
}

// Why a GCN device of another generation than the probe's does not run it.
std::string otherGeneration(const std::string& deviceName, gcn::Gen device, gcn::Gen probe) {
  const std::string d(gcn::genName(device));
  return deviceName + " is " + d + " but the probe is prepared for " +
         std::string(gcn::genName(probe)) + ": pass --gen " + d;
}

// The probe as its disputed-suite case (cases::probeCase), through the runner as `gcnprobe
// run` runs it (route choice, unsupported, dispatch, diff under the probe generation's
// profile), then the device's result matched against every prediction (cases::matchPrediction).
DeviceOutcome runOnDevice(const gcn::probe::Probe& probe, const gcn::probe::ProbeSetup& setup,
                          const gcn::probe::Exploration& ex, DeviceSession& session) {
  const std::string& file = probe.file;
  const cases::ProbeCase pc = cases::probeCase(file, setup);
  // Every route considered, and why each one not taken was passed over.
  std::string passedOver;
  nlohmann::json attempts = routeAttempts(pc, passedOver);
  if (!pc.c) {
    DeviceOutcome out =
        notRun("no route can realise this probe: " + pc.reason, {{"routes", attempts}});
    out.text += passedOver;
    return out;
  }
  // A device outcome with the routes passed over after it.
  const auto passed = [&](DeviceOutcome o) {
    o.text += passedOver;
    return o;
  };
  vk::Context* ctx = session.context();
  if (ctx == nullptr)
    return passed(notRun("no Vulkan device: " + session.error(), {{"routes", attempts}}));
  // A probe naming several routes takes the first this device can run (or build, on a
  // compile-only device).
  std::string routeNote;
  const judge::Case c = run::withRunnableRoute(
      *pc.c, session.routeList(), ctx->canExecute() ? run::RouteNeed::Run : run::RouteNeed::Build,
      &routeNote);
  if (!routeNote.empty()) {
    passedOver += "\n  " + routeNote;
    markPassedOver(attempts, routes::chooseRoute(session.routeList(), c.device), routeNote);
  }
  const routes::DeviceCase& dc = c.device;
  const vk::DeviceInfo& info = ctx->info();
  const std::string deviceName = info.name + " (" + info.driverName + " " + info.driverInfo + ")";
  nlohmann::json j = {
      {"routes", attempts},
      {"device", deviceName},
      {"gcn", info.chip.has_value()},
      {"chip", info.chip ? nlohmann::json(std::string(info.chip->name)) : nlohmann::json(nullptr)}};
  // On a GCN device the V# the driver builds (and the rules) are its generation's.
  if (info.chip && info.chip->gen != setup.chip->gen)
    return passed(notRun(otherGeneration(deviceName, info.chip->gen, setup.chip->gen), j));

  j["binding"] = std::string(routes::bindingName(dc.binding));
  const routes::RouteChoice choice = routes::chooseRoute(session.routeList(), dc);
  if (choice.route == nullptr) return passed(notRun(choice.reason, j));
  j["route"] = std::string(choice.route->name());
  if (!ctx->canExecute() && info.chip)
    return passed(compileOnly(c, *choice.route, info, deviceName, j));

  // The probe generation's own profile: the reference under its default policies, exact.
  const run::ProbeRun done =
      run::runProbeCase(c, *setup.chip, session.routeList(), ctx->features().robustBufferAccess2);
  const results::CaseResult& verdict = done.verdict;
  if (!done.device)
    return passed(notRun(verdict.verdict == results::Verdict::Unsupported
                             ? deviceName + ": " + verdict.reason
                             : verdict.reason,
                         j));
  const routes::DeviceResult& r = *done.device;
  j["verdict"] = std::string(results::verdictName(verdict.verdict));
  j["verdict_reason"] = verdict.reason;

  const std::vector<cases::PredictionMatch> m = run::matchPredictions(*setup.chip, c, ex, r);

  std::string text = runHeading(info, deviceName, *choice.route, dc, passedOver, j);

  // The device's registers as a result the probe report can print.
  gcn::ExecResult shown;
  laneMatches(setup, dc, r, m, shown, text, j);

  memoryMatches(dc, r, m, text, j);
  if (!routeNote.empty()) j["route_note"] = routeNote;

  const std::string overall = matchedPredictions(ex, m, text, j);

  shown.written = gcn::MemoryImage{dc.memory.base, r.memory, r.far};
  const bool expectFailed = expectDevice(probe, setup, shown, text, j);
  return {text, j, overall.empty(), expectFailed};
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
    DeviceSession session(opts->device);
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
      DeviceOutcome device = runOnDevice(probe, setup, ex, session);
      if (probe.hasDeviceExpect() && !device.json.value("run", false)) {
        device.text += "\n  expect device: not checked (the device did not run the probe)";
        device.json["expect"] = {{"given", true}, {"checked", false}};
      }
      if (!failures.empty() || device.matchedNone || device.expectFails) ctx.exitCode = 1;
      if (opts->json) {
        all.push_back(gcn::probe::exploreJson(probe, setup, ex, failures, device.json));
      } else {
        if (!first) std::fputs("\n", stdout);
        // The discovery comes first: the device did something no prediction says.
        if (device.matchedNone)
          std::printf("%s: the device matched NONE of the predictions (details below)\n",
                      file.c_str());
        if (device.expectFails)
          std::printf("%s: an 'expect device' line does NOT hold (details below)\n", file.c_str());
        std::fputs(gcn::probe::exploreText(probe, setup, ex, failures, device.text).c_str(),
                   stdout);
      }
      first = false;
    }
    if (opts->json)
      std::printf("%s\n",
                  all.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  });
}

}  // namespace gcnprobe::app
