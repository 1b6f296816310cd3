#include "harness/run/runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <map>
#include <optional>
#include <system_error>
#include <thread>

#include "harness/cases/suite.h"
#include "harness/formats.h"
#include "harness/isa/check.h"
#include "harness/judge/diff.h"
#include "harness/judge/tolerance.h"
#include "harness/routes/all_routes.h"
#include "harness/run/isa_digest.h"
#include "harness/vulkan/context.h"

namespace gcnprobe::run {

namespace {

// Where the device captures ISA, a case only counts when its pipeline holds the
// intended instruction (harness/isa/check.h); otherwise it tested something else and is a
// route-miss, never a pass. Devices without VK_KHR_pipeline_executable_properties skip it.
void applyIsaCheck(routes::Route& route, const judge::Case& c, gcn::Gen gen,
                   results::CaseResult& r) {
  try {
    const routes::PipelineIsa pipeline = route.pipelineIsa(c.device);
    r.isaDigest = isaDigest(pipeline);
    const isa::CheckResult check = checkCaseIsa(gen, c, pipeline);
    for (const isa::EmittedInstruction& e : check.emitted)
      r.isaLines.push_back(e.listingLine(gen));
    if (check.outcome == isa::Outcome::NoIsa) return;
    r.proof = check.proven;
    if (check.outcome == isa::Outcome::RouteMiss) {
      r.verdict = results::Verdict::RouteMiss;
      r.reason = check.reason;
      if (check.components == 0) {
        r.diffs.clear();
        return;
      }
      // Proven for some components only: the case stays a route-miss (its weakest component),
      // and the lanes are judged on the proven components alone.
      std::vector<results::ComponentDiff> kept;
      std::size_t differ = 0;
      for (const results::ComponentDiff& d : r.diffs)
        if (!d.memoryField && d.component < 32 && ((check.components >> d.component) & 1)) {
          kept.push_back(d);
          if (!d.match) ++differ;
        }
      r.diffs = std::move(kept);
      r.notes.push_back(
          "isa: components " + isa::componentNames(check.components) + " proven; on them " +
          (differ == 0 ? std::string("every lane agrees with the reference")
                       : std::to_string(differ) + " component values differ from the reference"));
    } else {
      r.notes.push_back("isa: " + std::string(isa::outcomeName(check.outcome)) +
                        (check.reason.empty() ? "" : " (" + check.reason + ")"));
    }
  } catch (const std::exception& e) {
    r.notes.push_back(std::string("isa: not checked: ") + e.what());
  }
}

}  // namespace

isa::CheckResult checkCaseIsa(gcn::Gen gen, const judge::Case& c, const routes::PipelineIsa& isa) {
  const std::vector<judge::ViewLoad> loads = viewLoads(c);
  isa::CheckResult result;
  for (size_t k = 0; k < loads.size(); ++k) {
    isa::CheckResult one = isa::checkIsa(gen, loads[k].inst, isa);
    if (one.outcome != isa::Outcome::Verified) {
      if (loads.size() > 1)
        one.reason = "load " + std::to_string(k + 1) + " of " + std::to_string(loads.size()) +
                     " (channel " + std::to_string(loads[k].channel) + "): " + one.reason;
      return one;
    }
    if (k == 0) result = std::move(one);
  }
  return result;
}

judge::Case withRunnableRoute(const judge::Case& c,
                              std::span<const std::unique_ptr<routes::Route>> routes,
                              RouteNeed need, std::string* note) {
  if (note != nullptr) note->clear();
  if (c.preferred.empty()) return c;
  std::string passed;  // why each preferred realisation before the taken one was passed over
  const auto named = [&](const routes::DeviceCase& d) {
    const routes::RouteChoice choice = routes::chooseRoute(routes, d);
    return choice.route != nullptr ? std::string(choice.route->name()) : std::string("?");
  };
  for (const routes::DeviceCase& p : c.preferred) {
    const routes::RouteChoice choice = routes::chooseRoute(routes, p);
    std::string why = choice.reason;
    if (choice.route != nullptr) {
      try {
        why = need == RouteNeed::Run ? choice.route->unsupportedReason(p)
                                     : choice.route->unbuildableReason(p);
      } catch (const std::exception& e) {
        why = e.what();
      }
    }
    if (why.empty()) {
      judge::Case taken = c;
      taken.device = p;
      taken.preferred.clear();
      if (note != nullptr)
        *note = "route " + named(p) + ", the case's preferred route" +
                (passed.empty() ? std::string() : " after " + passed) + "; elsewhere route " +
                named(c.device);
      return taken;
    }
    passed += (passed.empty() ? "" : "; ") + ("route " + named(p) + " passed over: " + why);
  }
  if (note != nullptr) *note = "route " + named(c.device) + " (" + passed + ")";
  judge::Case rest = c;
  rest.preferred.clear();
  return rest;
}

namespace {

// One runCases call, in named steps: resolve preferred routes, decide what cannot run, group the
// rest into batches and parts, then per part predict, dispatch (recovering a lost device) and
// judge. The state the steps share is the members.
class CaseRun {
 public:
  CaseRun(std::span<const judge::Case> cases,
          std::span<const std::unique_ptr<routes::Route>> routes, const RunOptions& options,
          const results::ResultSink& sink)
      : cases_(cases), routes_(routes), options_(options), sink_(sink) {}

  results::Summary run() {
    resolvePreferredRoutes();
    decideWhatCannotRun();
    const std::vector<Part> parts = partsOfBatches();
    std::vector<bool> routeEntered(routes_.size(), false);
    for (std::size_t b = 0; b < parts.size(); ++b) {
      const Part& part = parts[b];
      if (options_.stop && options_.stop()) {
        for (std::size_t rest = b; rest < parts.size(); ++rest)
          summary_.notRun += parts[rest].members.size();
        break;
      }
      // A device per route: re-created when the run enters a route for the first time (batches
      // of routes already run may come again, as in the disputed suite, without another one).
      // The part before belongs to another route, entered already: a first entry is a switch.
      if (b > 0 && !routeEntered[part.route] && options_.freshDevice)
        routes_ = options_.freshDevice();
      routeEntered[part.route] = true;
      runPart(part);
    }
    return summary_;
  }

 private:
  // Some cases of one batch (one route and batch key), at most kCasesPerDispatch.
  struct Part {
    std::size_t route = 0;
    std::vector<std::size_t> members;  // indices into cases_
    bool last = false;                 // the batch's last part: its pipelines go after it
  };
  // What a part's dispatch gave: one result per member, or the batch's error, and the members
  // that lost the device again when run alone.
  struct Dispatched {
    std::vector<routes::DeviceResult> actual;
    std::string batchError;
    std::map<std::size_t, std::string> lost;  // member position -> why it is a crash
    double share = 0;                         // the dispatch's time per member
  };

  void emit(std::size_t i) {
    summary_.add(results_[i].verdict);
    if (sink_) sink_(results_[i]);
  }

  // Preferred realisations (Case::preferred) resolved once, against this device's routes; a
  // recovered or fresh device has the same routes.
  void resolvePreferredRoutes() {
    results_.assign(cases_.size(), results::CaseResult{});
    if (std::none_of(cases_.begin(), cases_.end(),
                     [](const judge::Case& c) { return !c.preferred.empty(); }))
      return;
    resolved_.reserve(cases_.size());
    std::vector<std::string> notes(cases_.size());
    for (std::size_t i = 0; i < cases_.size(); ++i)
      resolved_.push_back(withRunnableRoute(cases_[i], routes_, RouteNeed::Run, &notes[i]));
    cases_ = resolved_;
    for (std::size_t i = 0; i < notes.size(); ++i)
      if (!notes[i].empty()) results_[i].notes.push_back(notes[i]);
  }

  // Which cases run where; the rest are decided now (unsupported / error) and reported.
  void decideWhatCannotRun() {
    routeOf_.assign(cases_.size(), kNoRoute);
    decided_.assign(cases_.size(), false);
    expected_.resize(cases_.size());
    for (std::size_t i = 0; i < cases_.size(); ++i) {
      const judge::Case& c = cases_[i];
      results::CaseResult& r = results_[i];
      r.name = c.name;
      r.suite = c.suite;
      if (!c.broken.empty()) {
        r.verdict = results::Verdict::Error;
        r.reason = c.broken;
        decided_[i] = true;
        continue;
      }
      r.instruction = cases::caseInstructionText(options_.profile.chip.gen, c);
      const vk::BufferFormat* bf = vk::findBufferFormat(c.device.format);
      r.format = bf != nullptr ? std::string(bf->name) : "";
      r.binding = std::string(routes::bindingName(c.device.binding));
      r.tolerance = tolerance(options_.profile.portable ? c.tolerance : c.gcnTolerance).name;
      cases::describeVSharp(options_.profile.chip.gen, c, r);
      // Exactly one route claims a case; two claiming it is an error of the route list.
      const routes::RouteChoice choice = routes::chooseRoute(routes_, c.device);
      if (choice.route == nullptr) {
        r.verdict = choice.ambiguous ? results::Verdict::Error : results::Verdict::Unsupported;
        r.reason = choice.reason;
        decided_[i] = true;
        continue;
      }
      routeOf_[i] = choice.index;
      try {
        r.reason = routes_[routeOf_[i]]->unsupportedReason(c.device);
      } catch (const std::exception& e) {
        r.reason = e.what();
        r.verdict = results::Verdict::Error;
        decided_[i] = true;
        continue;
      }
      if (!r.reason.empty()) {
        r.verdict = results::Verdict::Unsupported;
        decided_[i] = true;
      }
    }
    for (std::size_t i = 0; i < cases_.size(); ++i)
      if (decided_[i]) emit(i);
  }

  // Batches: cases sharing a route and batch key, in first-seen order. A batch runs in parts of
  // at most kCasesPerDispatch cases, each predicted, dispatched, checked and freed before the
  // next: what a part holds (every case's predictions, device results, and the driver's objects
  // such as texel views) stays bounded however large the batch. The pipelines are kept until
  // the batch's last part.
  std::vector<Part> partsOfBatches() const {
    std::vector<std::pair<std::size_t, std::vector<std::size_t>>> batches;
    std::map<std::pair<std::size_t, std::string>, std::size_t> batchIndex;
    for (std::size_t i = 0; i < cases_.size(); ++i) {
      if (decided_[i]) continue;
      const auto key =
          std::make_pair(routeOf_[i], routes_[routeOf_[i]]->batchKey(cases_[i].device));
      auto [it, inserted] = batchIndex.emplace(key, batches.size());
      if (inserted) batches.push_back({routeOf_[i], {}});
      batches[it->second].second.push_back(i);
    }
    std::vector<Part> parts;
    for (auto& [route, members] : batches)
      for (std::size_t first = 0; first < members.size(); first += kCasesPerDispatch) {
        const std::size_t end = std::min(members.size(), first + kCasesPerDispatch);
        parts.push_back({route,
                         std::vector<std::size_t>(members.begin() + first, members.begin() + end),
                         end == members.size()});
      }
    return parts;
  }

  // Expectations are built per part, right before it runs, and freed once it is checked (all of
  // them at once would hold every case's alternatives for the whole run). On all cores: the
  // reference is pure; one case per task. A case the reference rejects is an error, reported
  // with its part and never dispatched. Pointers, not std::optional<Expected>: an empty
  // optional still takes sizeof(Expected) (about 2.2 KB), and constructing one touches its
  // page, so that vector alone was ~2 MB resident for the whole run.
  void buildExpectations(std::vector<std::size_t>& members) {
    std::atomic<std::size_t> next{0};
    const unsigned jobs =
        std::max(1u, options_.jobs != 0 ? options_.jobs : std::thread::hardware_concurrency());
    const auto worker = [&] {
      for (std::size_t k = next++; k < members.size(); k = next++) {
        const std::size_t i = members[k];
        try {
          expected_[i] = std::make_unique<judge::Expected>(
              buildExpected(cases_[i], options_.profile, options_.rules));
        } catch (const std::exception& e) {
          results_[i].verdict = results::Verdict::Error;
          results_[i].reason = std::string("reference: ") + e.what();
        }
      }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < jobs && t < kMaxJobs && t < members.size(); ++t) {
      try {
        pool.emplace_back(worker);
      } catch (const std::system_error&) {
        break;  // the system gives no more threads: the ones running share the work
      }
    }
    worker();
    for (std::thread& t : pool)
      t.join();
    std::erase_if(members, [&](std::size_t i) {
      if (expected_[i]) return false;
      emit(i);  // reference error
      return true;
    });
  }

  // One submission of some cases of a batch, with the test hook's faults.
  std::vector<routes::DeviceResult> dispatch(std::size_t route,
                                             const std::vector<std::size_t>& members) {
    std::vector<const routes::DeviceCase*> inputs;
    for (std::size_t i : members) {
      inputs.push_back(&cases_[i].device);
      switch (faultFor(options_.faults, cases_[i].name).value_or(FaultKind::Fail)) {
        case FaultKind::Crash:
          std::abort();
        case FaultKind::Hang:
          for (;;)
            std::this_thread::sleep_for(std::chrono::seconds(1));
        case FaultKind::DeviceLost:
          throw vk::DeviceLost("vkQueueSubmit failed: VK_ERROR_DEVICE_LOST (injected by " +
                               std::string(kFaultVariable) + ")");
        case FaultKind::Fail:
          break;
      }
    }
    return routes_[route]->run(inputs);
  }

  // The part's dispatch. A lost device is re-created and the part's cases run one by one on it:
  // only the ones that lose it again are crashes; the others keep their own verdicts.
  Dispatched dispatchPart(std::size_t route, const std::vector<std::size_t>& members) {
    Dispatched d;
    const auto start = std::chrono::steady_clock::now();
    try {
      try {
        d.actual = dispatch(route, members);
      } catch (const vk::DeviceLost& e) {
        if (!options_.recoverDevice) throw;
        routes_ = options_.recoverDevice();
        d.actual.assign(members.size(), routes::DeviceResult{});
        for (std::size_t k = 0; k < members.size(); ++k) {
          try {
            std::vector<routes::DeviceResult> one = dispatch(route, {members[k]});
            if (one.size() != 1) throw gcn::Error("route returned a wrong number of results");
            d.actual[k] = std::move(one.front());
          } catch (const vk::DeviceLost& again) {
            d.lost[k] = std::string(again.what()) +
                        " (alone in its batch; the device was "
                        "re-created)";
            routes_ = options_.recoverDevice();
          }
        }
      }
      if (d.actual.size() != members.size())
        d.batchError = "route returned a wrong number of results";
    } catch (const gcn::InfraError&) {
      throw;  // a lost device that could not be recovered, output that cannot be written
    } catch (const std::exception& e) {
      d.batchError = std::string(routes_[route]->name()) + " route: " + e.what();
    }
    d.share = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
              static_cast<double>(members.size());
    return d;
  }

  // Member k's (case i's) verdict from what the device returned: the diff against its expectation,
  // the test hook's injected failure, then the ISA check of a pass or fail.
  void decide(std::size_t route, std::size_t i, std::size_t k, const Dispatched& d) {
    results::CaseResult& r = results_[i];
    const auto caseStart = std::chrono::steady_clock::now();
    r.expectation = expected_[i]->description;
    if (const auto l = d.lost.find(k); l != d.lost.end()) {
      r.verdict = results::Verdict::Crash;
      r.reason = l->second;
    } else if (!d.batchError.empty()) {
      r.verdict = results::Verdict::Error;
      r.reason = d.batchError;
    } else if (!d.actual[k].unsupported.empty()) {
      r.verdict = results::Verdict::Unsupported;
      r.reason = d.actual[k].unsupported;
    } else {
      if (options_.onDeviceResult) options_.onDeviceResult(i, d.actual[k]);
      try {
        const judge::FormatView fv = caseFormatView(options_.profile.chip, cases_[i]);
        const judge::DiffResult diff = diffCase(
            cases_[i].device, fv, *expected_[i], d.actual[k],
            tolerance(options_.profile.portable ? cases_[i].tolerance : cases_[i].gcnTolerance));
        r.verdict = diff.pass ? results::Verdict::Pass : results::Verdict::Fail;
        r.reason = diff.summary;
        if (diff.pass && faultFor(options_.faults, r.name) == FaultKind::Fail) {
          r.verdict = results::Verdict::Fail;
          r.reason = std::string("injected failure (test hook ") + kFaultVariable + ")";
        }
        r.changedGuardBytes = d.actual[k].changedGuardBytes;
        if (!diff.pass) r.diffs = diff.diffs;
        r.notes.insert(r.notes.end(), diff.notes.begin(), diff.notes.end());
        for (const gcn::LaneResult& lane : expected_[i]->alternatives.front().result.lanes)
          if (!lane.note.empty() &&
              std::find(r.notes.begin(), r.notes.end(), lane.note) == r.notes.end())
            r.notes.push_back(lane.note);
      } catch (const std::exception& e) {
        r.verdict = results::Verdict::Error;
        r.reason = std::string("diff: ") + e.what();
      }
    }
    if (r.verdict == results::Verdict::Pass || r.verdict == results::Verdict::Fail)
      applyIsaCheck(*routes_[route], cases_[i], options_.profile.chip.gen, r);
    r.seconds = d.share +
                std::chrono::duration<double>(std::chrono::steady_clock::now() - caseStart).count();
    emit(i);
  }

  // One part: predicted, dispatched, judged, its expectations freed; the batch's pipelines
  // after its last part (batches have distinct pipelines: they are not needed again).
  void runPart(const Part& part) {
    std::vector<std::size_t> members = part.members;
    buildExpectations(members);
    if (!members.empty()) {
      if (options_.onBatchStart) options_.onBatchStart(members);
      const Dispatched d = dispatchPart(part.route, members);
      for (std::size_t k = 0; k < members.size(); ++k)
        decide(part.route, members[k], k, d);
      for (std::size_t i : members)
        expected_[i].reset();
    }
    if (part.last) routes_[part.route]->releasePipelines();
  }

  static constexpr std::size_t kNoRoute = static_cast<std::size_t>(-1);

  std::span<const judge::Case> cases_;
  std::span<const std::unique_ptr<routes::Route>> routes_;
  const RunOptions& options_;
  const results::ResultSink& sink_;
  std::vector<judge::Case> resolved_;  // cases_ with preferred routes resolved, when any
  results::Summary summary_;
  std::vector<results::CaseResult> results_;
  std::vector<std::size_t> routeOf_;  // index into routes_
  std::vector<bool> decided_;         // reported before any dispatch
  std::vector<std::unique_ptr<judge::Expected>> expected_;
};

}  // namespace

results::Summary runCases(std::span<const judge::Case> cases,
                          std::span<const std::unique_ptr<routes::Route>> routes,
                          const RunOptions& options, const results::ResultSink& sink) {
  return CaseRun(cases, routes, options, sink).run();
}

}  // namespace gcnprobe::run
