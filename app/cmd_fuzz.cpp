// `gcnprobe fuzz --seed S --count N [--time T] [--out DIR] [--json]`: random Vulkan-legal
// cases, and on a GCN device raw-V# and binary-route ones (harness/explore/fuzz.h), through the
// device as `gcnprobe probe` runs a probe (its disputed-suite case through the runner), each
// matched against every reference prediction over the policy points that matter; a case no
// prediction explains is minimised to one lane and written to DIR as a probe file, which is
// run again to show that it reproduces.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app/child_process.h"
#include "app/clrx_dir.h"
#include "app/commands.h"
#include "harness/cases/suite.h"
#include "harness/control/control_route.h"
#include "harness/explore/fuzz.h"
#include "harness/isa/binary_route.h"
#include "harness/routes/raw.h"
#include "harness/run/probe_run.h"
#include "harness/run/test_faults.h"
#include "harness/vulkan/context.h"
#include "probe/probe_eval.h"
#include "probe/probe_file.h"

namespace gcnprobe::app {
namespace {

namespace fs = std::filesystem;

struct FuzzOptions {
  std::string device;
  uint64_t seed = 1;
  uint64_t count = 100;
  double time = 0;  // seconds; 0 = no limit
  std::string out = "gcnprobe-fuzz";
  bool json = false;
};

// What the device did with one case.
struct Outcome {
  // "exact", "policy", "mismatch", "unrealisable", "unsupported", "route-miss", "error"
  std::string status;
  std::string detail;  // policy labels, or why not run
  int firstBadLane = -1;
};

class Fuzzer {
 public:
  explicit Fuzzer(vk::Context& ctx)
      : ctx_(ctx), routes_(control::makeRunRoutes(ctx)), faults_(run::faultsFromEnvironment()) {}

  Outcome run(const std::string& text, const std::string& file) {
    Outcome o;
    try {
      const gcn::probe::Probe probe = gcn::probe::parseProbe(text, file);
      const gcn::probe::ProbeSetup setup = gcn::probe::prepare(probe, {});
      const cases::ProbeCase pc = cases::probeCase(file, setup);
      if (!pc.c) return {"unrealisable", pc.reason};
      const judge::Case& c = *pc.c;
      const gcn::probe::Exploration ex = gcn::probe::explore(probe, setup);
      run::ProbeRun pr =
          run::runProbeCase(c, *setup.chip, routes_, ctx_.features().robustBufferAccess2);
      if (!pr.device)
        return {pr.verdict.verdict == results::Verdict::Unsupported ? "unsupported" : "error",
                pr.verdict.reason};
      // The driver ran another instruction than the case's (the ISA check): its result says
      // nothing about this case.
      if (pr.verdict.verdict == results::Verdict::RouteMiss)
        return {"route-miss", pr.verdict.reason};
      // Test hook (docs/run.md "Test hooks"): `fail` flips the lowest bit of every lane's
      // first register, and of the buffer's first byte after a store, so that tests see the
      // minimiser and the reproducer at work.
      if (run::faultFor(faults_, c.name) == run::FaultKind::Fail) {
        for (auto& lane : pr.device->vdata)
          lane[0] ^= 1u;
        const gcn::OpKind k = c.device.inst.op->kind;
        if ((k == gcn::OpKind::Store || k == gcn::OpKind::StoreFormat) &&
            !pr.device->memory.empty())
          pr.device->memory[0] ^= 1u;
      }
      const std::vector<cases::PredictionMatch> m =
          run::matchPredictions(*setup.chip, c, ex, *pr.device);
      for (std::size_t p = 0; p < m.size(); ++p) {
        if (!m[p].all) continue;
        if (ex.predictions[p].isDefault) return {"exact", ""};
        std::string labels;
        for (std::size_t k = 0; k < ex.predictions[p].labels.size(); ++k)
          labels += (k ? " | " : "") + ex.predictions[p].labels[k];
        return {"policy", labels};
      }
      o.status = "mismatch";
      for (unsigned l = 0; l < setup.lanes && o.firstBadLane < 0; ++l) {
        bool any = false;
        for (const cases::PredictionMatch& pm : m)
          any = any || pm.lanes[l];
        if (!any) o.firstBadLane = static_cast<int>(l);
      }
      o.detail = o.firstBadLane >= 0
                     ? "lane " + std::to_string(o.firstBadLane) + " matches no prediction"
                     : "the memory matches no prediction";
      return o;
    } catch (const std::exception& e) {
      return {"error", e.what()};
    }
  }

 private:
  vk::Context& ctx_;
  std::vector<std::unique_ptr<routes::Route>> routes_;
  std::vector<run::InjectedFault> faults_;
};

std::string name(const explore::FuzzCase& c) {
  return "fuzz-" + std::to_string(c.seed) + "-" + std::to_string(c.number);
}

// The device the cases run on, and whether raw V#s run there.
struct FuzzDevice {
  std::unique_ptr<vk::Context> ctx;
  std::unique_ptr<ClrxDir> clrx;  // the binary route's environment, with raw V#s
  std::string rawWhy;             // why raw V#s do not run, empty when they do
};

FuzzDevice openFuzzDevice(const std::string& selector) {
  FuzzDevice d;
  d.ctx = vk::Context::open(selector, false, /*descriptorBuffer=*/true);
  if (!d.ctx->canExecute())
    throw gcn::Error(d.ctx->info().name +
                     " has no memory types (a compile-only device such as RADV's null "
                     "device): fuzz cases must run; `gcnprobe binary` and `isa` "
                     "are what such a device can do");
  // Raw V#s where the raw V# route runs: a GCN device with descriptor buffers whose own
  // descriptors are the V#s gcnprobe builds (harness/routes/raw.h).
  d.rawWhy = !d.ctx->info().chip                   ? "not a GCN device"
             : !d.ctx->features().descriptorBuffer ? "no VK_EXT_descriptor_buffer"
                                                   : routes::lane::rawDeviceProblem(*d.ctx);
  // Binary-route cases (with raw V#s) need the binary route's environment before the device
  // exists (app/clrx_dir.h): it is set and the device opened again.
  if (d.rawWhy.empty()) {
    d.clrx = prepareBinaryRoute();
    d.ctx.reset();
    d.ctx = vk::Context::open(selector, false, /*descriptorBuffer=*/true);
  }
  return d;
}

// How the cases went: per status, per kind, and the reasons behind each count.
struct FuzzTally {
  std::map<std::string, uint64_t> counts;
  std::map<std::string, std::map<std::string, uint64_t>> byKind;  // kind -> status -> cases
  std::map<std::string, uint64_t> why;          // unrealisable / unsupported / error reasons
  std::map<std::string, uint64_t> explainedBy;  // policy cases: the options that explain them

  void add(const explore::FuzzCase& fc, const Outcome& out) {
    ++counts[out.status];
    ++byKind[fc.kind][out.status];
    if (out.status == "unrealisable" || out.status == "unsupported" || out.status == "route-miss" ||
        out.status == "error")
      ++why[out.status + ": " + out.detail.substr(0, 160)];
    if (out.status == "policy") ++explainedBy[fc.kind + ": " + out.detail.substr(0, 160)];
  }

  void print(FILE* text, uint64_t n, double seconds) {
    for (const auto& [reason, k] : why)
      std::fprintf(text, "  %llu x %s\n", static_cast<unsigned long long>(k), reason.c_str());
    for (const auto& [labels, k] : explainedBy)
      std::fprintf(text, "  %llu x policy, %s\n", static_cast<unsigned long long>(k),
                   labels.c_str());
    for (const auto& [kind, statuses] : byKind) {
      std::string line = "  " + kind + ":";
      for (const auto& [status, k] : statuses)
        line += " " + std::to_string(k) + " " + status;
      std::fprintf(text, "%s\n", line.c_str());
    }
    std::string summary = std::to_string(n) + " cases:";
    for (const char* s :
         {"exact", "policy", "mismatch", "unsupported", "unrealisable", "route-miss", "error"})
      summary += " " + std::to_string(counts[s]) + " " + s;
    char tail[64];
    std::snprintf(tail, sizeof tail, "; %.2f s", seconds);
    std::fprintf(text, "%s%s\n", summary.c_str(), tail);
  }

  bool clean() {
    return counts["mismatch"] == 0 && counts["route-miss"] == 0 && counts["error"] == 0;
  }
};

// A mismatching case made small: the case, its outcome and what zeroUnneeded left.
struct Minimised {
  explore::FuzzCase c;
  Outcome out;
  explore::Simplified simple;
};

Minimised minimise(Fuzzer& fuzzer, gcn::Gen gen, const explore::FuzzCase& fc, const Outcome& out) {
  const auto runCase = [&](const explore::FuzzCase& c) {
    return fuzzer.run(explore::fuzzProbeText(gen, c, ""), name(c) + ".probe");
  };
  // The first lane no prediction explains, alone. A store's or atomic's memory matches no
  // prediction as a whole, so there each lane is tried alone, in order, until one still
  // mismatches. Else every lane stays. With ADD_TID a lane's address depends on its lane id, so
  // there the lanes up to it stay (it keeps its id).
  Minimised m{fc, out, {}};
  std::vector<unsigned> tries;
  const bool writes = gcn::writesMemory(explore::fuzzOpcode(fc).kind);
  if (fc.v0.size() > 1 && out.firstBadLane >= 0)
    tries.push_back(static_cast<unsigned>(out.firstBadLane));
  else if (fc.v0.size() > 1 && writes)
    for (unsigned l = 0; l < fc.v0.size(); ++l)
      tries.push_back(l);
  const bool addTid = gcn::decodeVSharp(gen, {fc.vsharpWords[0], fc.vsharpWords[1],
                                              fc.vsharpWords[2], fc.vsharpWords[3]})
                          .addTidEnable;
  for (unsigned lane : tries) {
    std::vector<unsigned> keep{lane};
    if (addTid) {
      keep.clear();
      for (unsigned l = 0; l <= lane; ++l)
        keep.push_back(l);
    }
    const explore::FuzzCase one = explore::keepLanes(fc, keep);
    const Outcome oneOut = runCase(one);
    if (oneOut.status == "mismatch") {
      m.c = one;
      m.out = oneOut;
      break;
    }
  }
  // Then zero the memory words and data values the difference does not need, so that the probe
  // file shows what matters (each try is a run on the device).
  m.simple = explore::zeroUnneeded(m.c, [&](const explore::FuzzCase& c) {
    const Outcome o2 = runCase(c);
    if (o2.status != "mismatch") return false;
    m.out = o2;  // the outcome of the case zeroUnneeded keeps
    return true;
  });
  m.c = m.simple.c;
  return m;
}

// Writes the minimised case as a probe file into `dir`, reads it back and runs it again (the
// file is the reproducer, not the in-memory case); the finding's record.
nlohmann::json writeReproducer(Fuzzer& fuzzer, gcn::Gen gen, const std::string& dir, uint64_t n,
                               const explore::FuzzCase& fc, const Outcome& out,
                               const Minimised& small, FILE* text) {
  fs::create_directories(dir);
  const fs::path file = fs::path(dir) / (name(small.c) + ".probe");
  {
    std::ofstream f(file);
    f << explore::fuzzProbeText(gen, small.c, small.out.detail);
    if (!f) throw gcn::Error(file.string() + ": cannot write the minimised probe");
  }
  const bool reproduces = fuzzer.run(readWholeFile(file), file.string()).status == "mismatch";
  std::fprintf(text,
               "case %llu: %s %s: mismatch (%s); %s, %zu lane(s), %u of %zu memory words "
               "non-zero%s\n",
               static_cast<unsigned long long>(n), fc.kind.c_str(),
               (fc.format.empty() ? fc.inst : fc.format).c_str(), out.detail.c_str(),
               file.string().c_str(), small.c.v0.size(), small.simple.memoryWordsLeft,
               small.c.memory.size(),
               reproduces ? ", reproduces" : ", does NOT reproduce when run again");
  return {{"case", n},
          {"kind", fc.kind},
          {"format", fc.format},
          {"inst", fc.inst},
          {"detail", out.detail},
          {"file", file.string()},
          {"lanes", small.c.v0.size()},
          {"memory_words_nonzero", small.simple.memoryWordsLeft},
          {"data_values_nonzero", small.simple.dataValuesLeft},
          {"reproduces", reproduces}};
}

int runFuzz(const FuzzOptions& o) {
  const FuzzDevice device = openFuzzDevice(o.device);
  const bool raw = device.rawWhy.empty();
  const vk::DeviceInfo& info = device.ctx->info();
  const gcn::Gen gen = info.chip ? info.chip->gen : gcn::Gen::Gfx8;
  Fuzzer fuzzer(*device.ctx);
  FuzzTally tally;
  nlohmann::json findings = nlohmann::json::array();
  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  FILE* text = o.json ? stderr : stdout;
  std::fprintf(text, "fuzz on %s (%s %s), %s, seed %llu%s; raw V#s %s\n", info.name.c_str(),
               info.driverName.c_str(), info.driverInfo.c_str(),
               std::string(gcn::genName(gen)).c_str(), static_cast<unsigned long long>(o.seed),
               info.chip ? "" : ": NOT an AMD GCN device, a match says what this driver does",
               raw ? "on (one case in four, through the lane shaders or the binary route)"
                   : ("off: " + device.rawWhy).c_str());
  uint64_t n = 0;
  for (; n < o.count && (o.time <= 0 || elapsed() < o.time); ++n) {
    const explore::FuzzCase fc = explore::makeFuzzCase(gen, o.seed, n, raw);
    const Outcome out = fuzzer.run(explore::fuzzProbeText(gen, fc, ""), name(fc) + ".probe");
    tally.add(fc, out);
    if (out.status != "mismatch") continue;
    const Minimised small = minimise(fuzzer, gen, fc, out);
    findings.push_back(writeReproducer(fuzzer, gen, o.out, n, fc, out, small, text));
  }
  const double seconds = elapsed();
  tally.print(text, n, seconds);
  if (o.json) {
    nlohmann::json c = nlohmann::json::object();
    for (const auto& [k, v] : tally.counts)
      c[k] = v;
    std::printf("%s\n", nlohmann::json{{"device", info.name},
                                       {"driver", info.driverName + " " + info.driverInfo},
                                       {"gen", std::string(gcn::genName(gen))},
                                       {"seed", o.seed},
                                       {"raw_vsharps", raw},
                                       {"raw_vsharps_why", device.rawWhy},
                                       {"cases", n},
                                       {"counts", c},
                                       {"kinds", tally.byKind},
                                       {"policies", tally.explainedBy},
                                       {"findings", findings},
                                       {"seconds", seconds}}
                            .dump(2)
                            .c_str());
  }
  return tally.clean() ? 0 : 1;
}

}  // namespace

void addFuzzCommand(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<FuzzOptions>();
  auto* c = app.add_subcommand("fuzz",
                               "Random Vulkan-legal cases diffed against the reference; each "
                               "mismatch minimised and written as a probe file");
  c->add_option("--device", opts->device, "device selector (as for 'gcnprobe devices')");
  c->add_option("--seed", opts->seed, "seed (the same seed gives the same cases; default 1)");
  c->add_option("--count", opts->count, "cases (default 100)");
  c->add_option("--time", opts->time, "stop after this many seconds (default: no limit)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--out", opts->out, "folder for the minimised probe files (default gcnprobe-fuzz)");
  c->add_flag("--json", opts->json, "machine-readable output on standard output");
  c->callback([opts, &ctx] { ctx.exitCode = runFuzz(*opts); });
}

}  // namespace gcnprobe::app
