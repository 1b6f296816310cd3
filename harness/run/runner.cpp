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

results::Summary runCases(std::span<const judge::Case> cases,
                          std::span<const std::unique_ptr<routes::Route>> routes,
                          const RunOptions& options, const results::ResultSink& sink) {
  // Preferred realisations (Case::preferred) resolved once, against this device's routes; a
  // recovered or fresh device has the same routes.
  std::vector<judge::Case> resolved;
  std::vector<std::string> routeNotes;
  if (std::any_of(cases.begin(), cases.end(),
                  [](const judge::Case& c) { return !c.preferred.empty(); })) {
    resolved.reserve(cases.size());
    routeNotes.resize(cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i)
      resolved.push_back(withRunnableRoute(cases[i], routes, RouteNeed::Run, &routeNotes[i]));
    cases = resolved;
  }
  results::Summary summary;
  std::vector<results::CaseResult> results(cases.size());
  for (std::size_t i = 0; i < routeNotes.size(); ++i)
    if (!routeNotes[i].empty()) results[i].notes.push_back(routeNotes[i]);
  const auto emit = [&](std::size_t i) {
    summary.add(results[i].verdict);
    if (sink) sink(results[i]);
  };

  // Which cases run where; the rest are decided now (unsupported / error).
  constexpr std::size_t kNoRoute = static_cast<std::size_t>(-1);
  std::vector<std::size_t> routeOf(cases.size(), kNoRoute);  // index into `routes`
  std::vector<bool> decided(cases.size(), false);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const judge::Case& c = cases[i];
    results::CaseResult& r = results[i];
    r.name = c.name;
    r.suite = c.suite;
    if (!c.broken.empty()) {
      r.verdict = results::Verdict::Error;
      r.reason = c.broken;
      decided[i] = true;
      continue;
    }
    r.instruction = cases::caseInstructionText(options.profile.chip.gen, c);
    const vk::BufferFormat* bf = vk::findBufferFormat(c.device.format);
    r.format = bf != nullptr ? std::string(bf->name) : "";
    r.binding = std::string(routes::bindingName(c.device.binding));
    r.tolerance = tolerance(options.profile.portable ? c.tolerance : c.gcnTolerance).name;
    cases::describeVSharp(options.profile.chip.gen, c, r);
    // Exactly one route claims a case; two claiming it is an error of the route list.
    const routes::RouteChoice choice = routes::chooseRoute(routes, c.device);
    if (choice.route == nullptr) {
      r.verdict = choice.ambiguous ? results::Verdict::Error : results::Verdict::Unsupported;
      r.reason = choice.reason;
      decided[i] = true;
      continue;
    }
    routeOf[i] = choice.index;
    try {
      r.reason = routes[routeOf[i]]->unsupportedReason(c.device);
    } catch (const std::exception& e) {
      r.reason = e.what();
      r.verdict = results::Verdict::Error;
      decided[i] = true;
      continue;
    }
    if (!r.reason.empty()) {
      r.verdict = results::Verdict::Unsupported;
      decided[i] = true;
    }
  }

  for (std::size_t i = 0; i < cases.size(); ++i)
    if (decided[i]) emit(i);

  // Expectations are built per batch, right before it runs, and freed once it is checked
  // (all of them at once would hold every case's alternatives for the whole run). On all
  // cores: the reference is pure; one case per task. A case the reference rejects is an
  // error, reported with its batch and never dispatched.
  // Pointers, not std::optional<Expected>: an empty optional still takes sizeof(Expected)
  // (about 2.2 KB), and constructing one touches its page, so that vector alone was ~2 MB
  // resident for the whole run.
  std::vector<std::unique_ptr<judge::Expected>> expected(cases.size());
  const auto buildExpectations = [&](std::vector<std::size_t>& members) {
    std::atomic<std::size_t> next{0};
    const unsigned jobs =
        std::max(1u, options.jobs != 0 ? options.jobs : std::thread::hardware_concurrency());
    const auto worker = [&] {
      for (std::size_t k = next++; k < members.size(); k = next++) {
        const std::size_t i = members[k];
        try {
          expected[i] = std::make_unique<judge::Expected>(
              buildExpected(cases[i], options.profile, options.rules));
        } catch (const std::exception& e) {
          results[i].verdict = results::Verdict::Error;
          results[i].reason = std::string("reference: ") + e.what();
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
      if (expected[i]) return false;
      emit(i);  // reference error
      return true;
    });
  };

  // Batches: cases sharing a route and batch key, in first-seen order.
  std::vector<std::pair<std::size_t, std::vector<std::size_t>>> batches;
  std::map<std::pair<std::size_t, std::string>, std::size_t> batchIndex;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (decided[i]) continue;
    const auto key = std::make_pair(routeOf[i], routes[routeOf[i]]->batchKey(cases[i].device));
    auto [it, inserted] = batchIndex.emplace(key, batches.size());
    if (inserted) batches.push_back({routeOf[i], {}});
    batches[it->second].second.push_back(i);
  }

  // One submission of some cases of a batch, with the test hook's faults.
  const auto dispatch = [&](std::size_t route, const std::vector<std::size_t>& members) {
    std::vector<const routes::DeviceCase*> inputs;
    for (std::size_t i : members) {
      inputs.push_back(&cases[i].device);
      switch (faultFor(options.faults, cases[i].name).value_or(FaultKind::Fail)) {
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
    return routes[route]->run(inputs);
  };

  // A batch runs in parts of at most kCasesPerDispatch cases, each predicted, dispatched,
  // checked and freed before the next: what a part holds (every case's predictions, device
  // results, and the driver's objects such as texel views) stays bounded however large the
  // batch. The pipelines are kept until the batch's last part.
  std::vector<std::pair<std::size_t, std::vector<std::size_t>>> parts;
  std::vector<bool> lastPart;
  for (auto& [route, members] : batches)
    for (std::size_t first = 0; first < members.size(); first += kCasesPerDispatch) {
      const std::size_t end = std::min(members.size(), first + kCasesPerDispatch);
      parts.push_back(
          {route, std::vector<std::size_t>(members.begin() + first, members.begin() + end)});
      lastPart.push_back(end == members.size());
    }

  std::vector<bool> routeEntered(routes.size(), false);
  for (std::size_t b = 0; b < parts.size(); ++b) {
    auto& [route, members] = parts[b];
    if (options.stop && options.stop()) {
      for (std::size_t rest = b; rest < parts.size(); ++rest)
        summary.notRun += parts[rest].second.size();
      break;
    }
    // A device per route: re-created when the run enters a route for the first time (batches
    // of routes already run may come again, as in the disputed suite, without another one).
    // The part before belongs to another route, entered already: a first entry is a switch.
    if (b > 0 && !routeEntered[route] && options.freshDevice) routes = options.freshDevice();
    routeEntered[route] = true;
    buildExpectations(members);
    if (members.empty()) {
      if (lastPart[b]) routes[route]->releasePipelines();
      continue;
    }
    if (options.onBatchStart) options.onBatchStart(members);
    std::vector<routes::DeviceResult> actual;
    std::string batchError;
    std::map<std::size_t, std::string> lost;  // member position -> why it is a crash
    const auto batchStart = std::chrono::steady_clock::now();
    try {
      try {
        actual = dispatch(route, members);
      } catch (const vk::DeviceLost& e) {
        if (!options.recoverDevice) throw;
        // The device is re-created and the batch's cases run one by one on it: only the
        // ones that lose it again are crashes; the others keep their own verdicts.
        routes = options.recoverDevice();
        actual.assign(members.size(), routes::DeviceResult{});
        for (std::size_t k = 0; k < members.size(); ++k) {
          try {
            std::vector<routes::DeviceResult> one = dispatch(route, {members[k]});
            if (one.size() != 1) throw gcn::Error("route returned a wrong number of results");
            actual[k] = std::move(one.front());
          } catch (const vk::DeviceLost& again) {
            lost[k] = std::string(again.what()) +
                      " (alone in its batch; the device was "
                      "re-created)";
            routes = options.recoverDevice();
          }
        }
      }
      if (actual.size() != members.size()) batchError = "route returned a wrong number of results";
    } catch (const gcn::InfraError&) {
      throw;  // a lost device that could not be recovered, output that cannot be written
    } catch (const std::exception& e) {
      batchError = std::string(routes[route]->name()) + " route: " + e.what();
    }
    const double share =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - batchStart).count() /
        static_cast<double>(members.size());
    for (std::size_t k = 0; k < members.size(); ++k) {
      const std::size_t i = members[k];
      results::CaseResult& r = results[i];
      const auto caseStart = std::chrono::steady_clock::now();
      r.expectation = expected[i]->description;
      if (const auto l = lost.find(k); l != lost.end()) {
        r.verdict = results::Verdict::Crash;
        r.reason = l->second;
      } else if (!batchError.empty()) {
        r.verdict = results::Verdict::Error;
        r.reason = batchError;
      } else if (!actual[k].unsupported.empty()) {
        r.verdict = results::Verdict::Unsupported;
        r.reason = actual[k].unsupported;
      } else {
        if (options.onDeviceResult) options.onDeviceResult(i, actual[k]);
        try {
          const judge::FormatView fv = caseFormatView(options.profile.chip, cases[i]);
          const judge::DiffResult d = diffCase(
              cases[i].device, fv, *expected[i], actual[k],
              tolerance(options.profile.portable ? cases[i].tolerance : cases[i].gcnTolerance));
          r.verdict = d.pass ? results::Verdict::Pass : results::Verdict::Fail;
          r.reason = d.summary;
          if (d.pass && faultFor(options.faults, r.name) == FaultKind::Fail) {
            r.verdict = results::Verdict::Fail;
            r.reason = std::string("injected failure (test hook ") + kFaultVariable + ")";
          }
          r.changedGuardBytes = actual[k].changedGuardBytes;
          if (!d.pass) r.diffs = d.diffs;
          r.notes.insert(r.notes.end(), d.notes.begin(), d.notes.end());
          for (const gcn::LaneResult& lane : expected[i]->alternatives.front().result.lanes)
            if (!lane.note.empty() &&
                std::find(r.notes.begin(), r.notes.end(), lane.note) == r.notes.end())
              r.notes.push_back(lane.note);
        } catch (const std::exception& e) {
          r.verdict = results::Verdict::Error;
          r.reason = std::string("diff: ") + e.what();
        }
      }
      if (r.verdict == results::Verdict::Pass || r.verdict == results::Verdict::Fail)
        applyIsaCheck(*routes[route], cases[i], options.profile.chip.gen, r);
      r.seconds =
          share +
          std::chrono::duration<double>(std::chrono::steady_clock::now() - caseStart).count();
      emit(i);
    }
    for (std::size_t i : members)
      expected[i].reset();
    // Batches have distinct pipelines: the ones of this batch are not needed again.
    if (lastPart[b]) routes[route]->releasePipelines();
  }
  return summary;
}

}  // namespace gcnprobe::run
