// One path for every case: a probe file is the case the disputed suite has for it, and
// `gcnprobe probe` runs it through the runner and differ that `gcnprobe run` uses; the route
// of a case is chosen in one place (routes::chooseRoute), where two routes claiming one case
// is an error naming both.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "harness/cases/suite.h"
#include "harness/routes/all_routes.h"
#include "harness/run/runner.h"
#include "harness/vulkan/context.h"
#include "probe/probe_eval.h"
#include "probe/probe_file.h"
#include "reference/resource.h"

#include "tests/support/cli.h"

namespace single_path_test {

using namespace gcnprobe;

std::string probePath(const std::string& name) {
  return std::string(GCNPROBE_SOURCE_DIR) + "/probes/" + name + ".probe";
}

// A route that claims every case of one binding and never runs: enough for the dispatch.
class ClaimingRoute final : public routes::Route {
 public:
  ClaimingRoute(std::string name, routes::Binding binding)
      : name_(std::move(name)), binding_(binding) {}
  std::string_view name() const override { return name_; }
  bool handles(const routes::DeviceCase& c) const override { return c.binding == binding_; }
  std::string unsupportedReason(const routes::DeviceCase&) const override { return ""; }
  std::string batchKey(const routes::DeviceCase&) const override { return name_; }
  std::vector<routes::DeviceResult> run(std::span<const routes::DeviceCase* const> cases) override {
    ++runs;
    return std::vector<routes::DeviceResult>(cases.size());
  }
  int runs = 0;

 private:
  std::string name_;
  routes::Binding binding_;
};

std::vector<std::unique_ptr<routes::Route>> claimingRoutes(
    std::initializer_list<std::pair<const char*, routes::Binding>> list) {
  std::vector<std::unique_ptr<routes::Route>> out;
  for (const auto& [name, binding] : list)
    out.push_back(std::make_unique<ClaimingRoute>(name, binding));
  return out;
}

routes::DeviceCase storageCase() {
  routes::DeviceCase d;
  d.inst.op = gcn::findOpcode("buffer_load_dword");
  d.binding = routes::Binding::StorageBuffer;
  return d;
}

TEST(RouteChoice, TheOneRouteThatClaimsTheCase) {
  const auto list = claimingRoutes(
      {{"texel", routes::Binding::UniformTexel}, {"storage", routes::Binding::StorageBuffer}});
  const routes::RouteChoice c = routes::chooseRoute(list, storageCase());
  ASSERT_NE(c.route, nullptr) << c.reason;
  EXPECT_EQ(c.route->name(), "storage");
  EXPECT_EQ(c.index, 1u);
  EXPECT_FALSE(c.ambiguous);
  EXPECT_EQ(c.reason, "");
}

TEST(RouteChoice, NoRouteSaysWhichBinding) {
  const auto list = claimingRoutes({{"texel", routes::Binding::UniformTexel}});
  const routes::RouteChoice c = routes::chooseRoute(list, storageCase());
  EXPECT_EQ(c.route, nullptr);
  EXPECT_FALSE(c.ambiguous);
  EXPECT_EQ(c.reason, "no route for binding storage-buffer on this build");
}

TEST(RouteChoice, TwoRoutesClaimingOneCaseIsAnErrorNamingBoth) {
  const auto list = claimingRoutes({{"texel", routes::Binding::UniformTexel},
                                    {"first-ssbo", routes::Binding::StorageBuffer},
                                    {"second-ssbo", routes::Binding::StorageBuffer}});
  const routes::RouteChoice c = routes::chooseRoute(list, storageCase());
  EXPECT_EQ(c.route, nullptr);
  EXPECT_TRUE(c.ambiguous);
  EXPECT_NE(c.reason.find("first-ssbo"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("second-ssbo"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("buffer_load_dword"), std::string::npos) << c.reason;
}

// The runner takes its route from chooseRoute: an ambiguous claim is the case's error (no
// route runs it), a missing route makes it unsupported, and the one route runs the rest.
TEST(RouteChoice, TheRunnerReportsAnAmbiguousClaimAsAnError) {
  const gcn::Chip& chip = gcn::representativeChip(gcn::Gen::Gfx9);
  std::vector<judge::Case> cases = cases::disputedSuite(chip);
  ASSERT_FALSE(cases.empty());
  std::set<routes::Binding> bindings;
  for (const judge::Case& c : cases)
    bindings.insert(c.device.binding);
  ASSERT_TRUE(bindings.count(routes::Binding::StorageBuffer));
  ASSERT_TRUE(bindings.count(routes::Binding::UniformTexel));
  const auto list = claimingRoutes({{"ssbo-a", routes::Binding::StorageBuffer},
                                    {"ssbo-b", routes::Binding::StorageBuffer},
                                    {"uniform", routes::Binding::UniformTexel}});
  run::RunOptions ro;
  ro.profile = judge::resolveProfile("gfx9", std::nullopt);
  ro.jobs = 1;
  std::map<std::string, results::CaseResult> results;
  run::runCases(cases, list, ro, [&](const results::CaseResult& r) { results[r.name] = r; });
  ASSERT_EQ(results.size(), cases.size());
  for (const judge::Case& c : cases) {
    SCOPED_TRACE(c.name);
    const results::CaseResult& r = results.at(c.name);
    switch (c.device.binding) {
      case routes::Binding::StorageBuffer:
        EXPECT_EQ(r.verdict, results::Verdict::Error);
        EXPECT_NE(r.reason.find("ssbo-a"), std::string::npos) << r.reason;
        EXPECT_NE(r.reason.find("ssbo-b"), std::string::npos) << r.reason;
        break;
      case routes::Binding::UniformTexel:
        // The fake route returns an empty result: judged, not dispatched elsewhere.
        EXPECT_TRUE(r.verdict == results::Verdict::Pass || r.verdict == results::Verdict::Fail)
            << r.reason;
        break;
      default:
        EXPECT_EQ(r.verdict, results::Verdict::Unsupported);
        EXPECT_NE(r.reason.find("no route for binding"), std::string::npos) << r.reason;
    }
  }
  EXPECT_EQ(static_cast<ClaimingRoute&>(*list[0]).runs, 0);
  EXPECT_EQ(static_cast<ClaimingRoute&>(*list[1]).runs, 0);
  EXPECT_GT(static_cast<ClaimingRoute&>(*list[2]).runs, 0);
}

// Every case of the disputed suite is the case probeCase makes of its probe file.
TEST(ProbeCase, TheDisputedSuiteIsMadeOfProbeCases) {
  const gcn::Chip& chip = gcn::representativeChip(gcn::Gen::Gfx9);
  std::map<std::string, judge::Case> suite;
  for (judge::Case& c : cases::disputedSuite(chip))
    suite.emplace(c.name, std::move(c));
  std::size_t realised = 0;
  for (const std::string& file : gcn::probe::shippedProbeFiles()) {
    const gcn::probe::Probe probe = gcn::probe::loadProbe(file);
    gcn::probe::EvalOptions eo;
    eo.gen = std::string(chip.name);
    std::optional<gcn::probe::ProbeSetup> setup;
    try {
      setup = gcn::probe::prepare(probe, eo);
    } catch (const gcn::Error&) {
      continue;  // not valid on gfx9: not in the suite either
    }
    const cases::ProbeCase pc = cases::probeCase(file, *setup);
    const std::string name = "disputed." + std::filesystem::path(file).stem().string();
    SCOPED_TRACE(name);
    EXPECT_EQ(cases::probeCaseName(file), name);
    const auto it = suite.find(name);
    if (!pc.c) {
      EXPECT_EQ(it, suite.end());
      EXPECT_FALSE(pc.reason.empty());
      continue;
    }
    ++realised;
    ASSERT_NE(it, suite.end());
    const judge::Case& c = it->second;
    EXPECT_EQ(pc.c->name, c.name);
    EXPECT_EQ(pc.c->suite, "disputed");
    EXPECT_EQ(pc.c->device.inst, c.device.inst);
    EXPECT_EQ(pc.c->device.binding, c.device.binding);
    EXPECT_EQ(pc.c->device.format, c.device.format);
    EXPECT_EQ(pc.c->device.memory.base, c.device.memory.base);
    EXPECT_EQ(pc.c->device.memory.bytes, c.device.memory.bytes);
    EXPECT_EQ(pc.c->device.state.exec, c.device.state.exec);
    EXPECT_EQ(pc.c->device.state.sgpr, c.device.state.sgpr);
    EXPECT_EQ(pc.c->device.state.vgpr(c.device.inst.vaddr),
              c.device.state.vgpr(c.device.inst.vaddr));
  }
  EXPECT_EQ(realised, suite.size());
}

bool haveDevice() {
  try {
    return vk::Context::open("") != nullptr;
  } catch (const std::exception&) {
    return false;
  }
}

using test_support::CliRun;
using test_support::runGcnprobe;
using test_support::Stderr;

// A probe through `gcnprobe probe` and the same probe in `gcnprobe run --suite disputed`
// (same generation) get the same verdict, and the lanes `run` reports as differing are the
// lanes where `probe` says the device did not match the default prediction, with the same
// device bits. texel-unorm8-to-float on lavapipe: the device rounds UNORM8 like norm=mulrcp
// (docs/platform.md), not like the gfx8 default, so both fail on the same lanes.
void expectSameVerdictAndLanes(const std::string& probe) {
  SCOPED_TRACE(probe);
  const CliRun p = runGcnprobe("probe --json " + probePath(probe), Stderr::Discard);
  ASSERT_EQ(p.exit, 0) << p.out;
  const nlohmann::json pj = nlohmann::json::parse(p.out);
  ASSERT_EQ(pj.size(), 1u);
  const nlohmann::json& device = pj[0]["device"];
  ASSERT_EQ(device["run"], true) << device.dump();
  const std::string gen = pj[0]["gen"];
  // The default prediction is what the runner expects under the generation's profile
  // (no policy pinned in these probes).
  ASSERT_TRUE(pj[0]["pinned_policies"].empty());
  std::string defaultLetter;
  for (std::size_t i = 0; i < pj[0]["predictions"].size(); ++i)
    if (pj[0]["predictions"][i]["default"].get<bool>())
      defaultLetter = std::string(1, static_cast<char>('A' + i));
  ASSERT_FALSE(defaultLetter.empty());

  const std::string json = testing::TempDir() + "/single-path-" + probe + ".json";
  const CliRun r = runGcnprobe(
      "run --suite disputed --profile " + gen + " --filter disputed." + probe + " --json " + json,
      Stderr::Discard);
  std::ifstream in(json);
  ASSERT_TRUE(in.good()) << r.out;
  const nlohmann::json rj = nlohmann::json::parse(in);
  ASSERT_EQ(rj.at("cases").size(), 1u) << r.out;
  const nlohmann::json& rc = rj["cases"][0];
  EXPECT_EQ(rc["verdict"], device["verdict"]);
  EXPECT_EQ(rc["reason"], device["verdict_reason"]);

  std::set<int> runLanes, probeLanes;
  for (const nlohmann::json& d : rc["lanes"]) {
    if (d["kind"] != "register") continue;
    const int lane = d["lane"];
    runLanes.insert(lane);
    const int comp = std::string("xyzw").find(d["component"].get<std::string>());
    const uint32_t bits =
        static_cast<uint32_t>(std::stoul(d["actual_bits"].get<std::string>(), nullptr, 16));
    EXPECT_EQ(device["lanes"][lane]["vdata"][comp].get<uint32_t>(), bits) << "lane " << lane;
  }
  for (const nlohmann::json& l : device["lanes"]) {
    if (!l["active"].get<bool>()) continue;
    bool matchesDefault = false;
    for (const nlohmann::json& m : l["matches"])
      matchesDefault = matchesDefault || m == defaultLetter;
    if (!matchesDefault) probeLanes.insert(l["lane"].get<int>());
  }
  EXPECT_EQ(runLanes, probeLanes);
  return;
}

TEST(SinglePath, ProbeAndDisputedRunAgreeOnAFailingLoad) {
  if (!haveDevice()) GTEST_SKIP() << "no Vulkan device";
  expectSameVerdictAndLanes("texel-unorm8-to-float");
}

TEST(SinglePath, ProbeAndDisputedRunAgreeOnAStore) {
  if (!haveDevice()) GTEST_SKIP() << "no Vulkan device";
  expectSameVerdictAndLanes("texel-uint-store-overflow");
}

// A device that matches none of the predictions is the explorer's discovery: `probe` says so
// first and exits 1. Lavapipe converts UNORM8 with a float reciprocal (docs/platform.md), so
// with norm=exact pinned the only prediction is one it does not match; unpinned it matches
// norm=mulrcp and the run exits 0.
TEST(ProbeCli, ADeviceMatchingNoPredictionExitsOne) {
  if (!haveDevice()) GTEST_SKIP() << "no Vulkan device";
  const std::string probe = probePath("texel-unorm8-to-float");
  const CliRun pinned = runGcnprobe("probe " + probe + " --policy norm=exact", Stderr::Discard);
  EXPECT_EQ(pinned.exit, 1) << pinned.out;
  EXPECT_EQ(pinned.out.rfind(probe + ": the device matched NONE of the predictions", 0), 0u)
      << pinned.out;
  const CliRun json =
      runGcnprobe("probe --json " + probe + " --policy norm=exact", Stderr::Discard);
  EXPECT_EQ(json.exit, 1);
  EXPECT_EQ(nlohmann::json::parse(json.out)[0]["device"]["matched_none"], true) << json.out;
  const CliRun free = runGcnprobe("probe " + probe, Stderr::Discard);
  EXPECT_EQ(free.exit, 0) << free.out;
  EXPECT_EQ(free.out.find("NONE of the predictions"), std::string::npos);
}

// `expect device` lines check what the device returned. Lane l of texel-unorm8-to-float reads
// UNORM8 code 4l+1; the expected values here are c/255 correctly rounded to float (computed in
// double, which cannot land on a float rounding tie for c/255). Lavapipe multiplies by the
// reciprocal (docs/platform.md), 1 ulp off for some of these codes: exact values fail, the same
// values `within 1 ulp` hold.
TEST(ProbeCli, ExpectDeviceLinesCheckTheDeviceWithTolerances) {
  if (!haveDevice()) GTEST_SKIP() << "no Vulkan device";
  std::ifstream in(probePath("texel-unorm8-to-float"));
  std::stringstream text;
  text << in.rdbuf();
  std::string list;
  for (unsigned l = 0; l < 64; ++l) {
    const float f = static_cast<float>(static_cast<double>(4 * l + 1) / 255.0);
    uint32_t bits = 0;
    std::memcpy(&bits, &f, 4);
    list += (l ? ", " : "") + std::to_string(bits);
  }
  const auto write = [&](const std::string& name, const std::string& tolerance) {
    const std::string path = testing::TempDir() + name;
    std::ofstream(path) << text.str() << "expect device v1 = " << list << tolerance << "\n";
    return path;
  };
  const std::string exact = write("exact.probe", "");
  const CliRun strict = runGcnprobe("probe " + exact, Stderr::Discard);
  EXPECT_EQ(strict.exit, 1) << strict.out;
  EXPECT_NE(strict.out.find("expect device: FAILS ("), std::string::npos) << strict.out;
  EXPECT_NE(strict.out.find(exact + ":"), std::string::npos) << strict.out;
  const CliRun json = runGcnprobe("probe --json " + exact, Stderr::Discard);
  EXPECT_EQ(nlohmann::json::parse(json.out)[0]["device"]["expect"]["holds"], false) << json.out;

  const std::string loose = write("loose.probe", " within 1 ulp");
  const CliRun tolerant = runGcnprobe("probe " + loose, Stderr::Discard);
  EXPECT_EQ(tolerant.exit, 0) << tolerant.out;
  EXPECT_NE(tolerant.out.find("expect device: holds"), std::string::npos) << tolerant.out;
  // The reference's own expectations are untouched by device lines.
  EXPECT_NE(tolerant.out.find("expect: none given"), std::string::npos) << tolerant.out;
}

}  // namespace single_path_test
