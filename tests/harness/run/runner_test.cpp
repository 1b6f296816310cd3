// The runner with fake routes (no Vulkan): unsupported is never pass, a batch that throws
// loses only its own cases, results reach the sink as they are produced.
#include <gtest/gtest.h>

#include <map>

#include "harness/cases/suite.h"
#include "harness/run/runner.h"
#include "reference/error.h"

namespace gcnprobe::run {
namespace runner_test {

// Returns the reference's own prediction (a perfect device), except: cases named in
// `unsupported` are refused up front, cases in `lateUnsupported` come back unsupported
// from run(), and a batch containing `throwOn` throws.
class FakeRoute : public routes::Route {
 public:
  std::string unsupported, lateUnsupported, throwOn;
  std::string prefix;  // handles only the cases whose name starts with it ("" = every case)
  const gcn::Chip* chip = &gcn::representativeChip(gcn::Gen::Gfx9);
  std::map<const routes::DeviceCase*, std::string> names;

  std::string_view name() const override { return "fake"; }
  bool handles(const routes::DeviceCase& c) const override {
    return names.at(&c).rfind(prefix, 0) == 0;
  }
  std::string unsupportedReason(const routes::DeviceCase& c) const override {
    return names.at(&c) == unsupported ? "fake: not realisable" : "";
  }
  std::string batchKey(const routes::DeviceCase& c) const override { return names.at(&c); }
  std::vector<routes::DeviceResult> run(std::span<const routes::DeviceCase* const> cs) override {
    std::vector<routes::DeviceResult> out;
    for (const routes::DeviceCase* c : cs) {
      if (names.at(c) == throwOn) throw gcn::Error("fake device lost");
      const auto e =
          gcn::execute(*chip, c->inst, c->state, c->memory, {}, gcn::Policies::defaults(chip->gen));
      routes::DeviceResult r;
      if (names.at(c) == lateUnsupported) r.unsupported = "fake: refused at run time";
      r.vdataCount = c->inst.op->kind == gcn::OpKind::LoadFormat ? c->inst.op->components : 0;
      for (unsigned l = 0; l < gcn::kWaveSize; ++l)
        for (unsigned k = 0; k < r.vdataCount; ++k)
          r.vdata[l][k] = e.lanes[l].vdata[k].value_or(0);
      r.memory = e.memory().bytes;
      out.push_back(r);
    }
    return out;
  }
};

// Fake texel routes (uniform, storage) that know the given cases, made again, counted, each
// time the runner asks for a fresh device (RunOptions::freshDevice).
struct FreshRoutes {
  std::vector<const std::vector<judge::Case>*> known;
  std::vector<std::unique_ptr<routes::Route>> routes;
  int fresh = 0;

  std::vector<std::unique_ptr<routes::Route>> make() const {
    std::vector<std::unique_ptr<routes::Route>> list;
    for (const char* prefix : {"texel.uniform.", "texel.storage."}) {
      auto fake = std::make_unique<FakeRoute>();
      fake->prefix = prefix;
      for (const std::vector<judge::Case>* cases : known)
        for (const judge::Case& c : *cases)
          fake->names[&c.device] = c.name;
      list.push_back(std::move(fake));
    }
    return list;
  }
  // New routes now, and freshDevice counting and remaking them (the old device's are gone).
  void install(RunOptions& o) {
    routes = make();
    fresh = 0;
    o.freshDevice = [this]() -> std::span<const std::unique_ptr<routes::Route>> {
      ++fresh;
      routes = make();
      return routes;
    };
  }
};

// RunOptions::freshDevice: called once at each change of route between parts (a device per
// route), never within a route; the routes it returns run the rest, and every case passes.
TEST(Runner, AFreshDeviceAtEachChangeOfRoute) {
  RunOptions o;
  o.profile = judge::resolveProfile("gfx9", std::nullopt);
  o.jobs = 2;
  const std::vector<judge::Case> all =
      cases::buildCases("texel", "texel.*.r8g8b8a8_uint.load_format_*", o.profile.chip);
  ASSERT_EQ(all.size(), 4u);  // uniform and storage, x and xyzw
  const std::vector<judge::Case> uniform(all.begin(), all.begin() + 2);
  ASSERT_EQ(uniform[1].name.rfind("texel.uniform.", 0), 0u);
  FreshRoutes r;
  r.known = {&all, &uniform};
  r.install(o);
  std::map<std::string, results::Verdict> seen;
  const results::Summary s =
      runCases(all, r.routes, o, [&](const results::CaseResult& c) { seen[c.name] = c.verdict; });
  EXPECT_EQ(r.fresh, 1);
  EXPECT_EQ(s.count(results::Verdict::Pass), 4u);
  EXPECT_EQ(seen.size(), 4u);

  // Batches that go back to a route already run (uniform, storage, uniform): a new device when
  // the storage route is entered, none when the uniform route comes again.
  const std::vector<judge::Case> interleaved = {all[0], all[2], all[1]};
  ASSERT_EQ(interleaved[1].name.rfind("texel.storage.", 0), 0u);
  r.known.push_back(&interleaved);
  r.install(o);
  const results::Summary mixed =
      runCases(interleaved, r.routes, o, [](const results::CaseResult&) {});
  EXPECT_EQ(r.fresh, 1);
  EXPECT_EQ(mixed.count(results::Verdict::Pass), 3u);

  // One route only: no new device.
  r.install(o);
  const results::Summary one = runCases(uniform, r.routes, o, [](const results::CaseResult&) {});
  EXPECT_EQ(r.fresh, 0);
  EXPECT_EQ(one.count(results::Verdict::Pass), 2u);
}

TEST(Runner, UnsupportedIsNeverPassAndErrorsLoseNothing) {
  RunOptions o;
  o.profile = judge::resolveProfile("gfx9", std::nullopt);
  o.jobs = 2;
  const std::vector<judge::Case> cases =
      cases::buildCases("texel", "texel.uniform.r8g8b8a8_uint.*", o.profile.chip);
  ASSERT_EQ(cases.size(), 1u + 1u);  // load_format_x and load_format_xyzw (4 components)
  std::vector<judge::Case> all = cases;
  for (const judge::Case& c :
       cases::buildCases("texel", "texel.uniform.r32_sfloat.*", o.profile.chip))
    all.push_back(c);
  ASSERT_EQ(all.size(), 4u);  // r32: load_format_x, load_format_xyzw

  auto fake = std::make_unique<FakeRoute>();
  for (const judge::Case& c : all)
    fake->names[&c.device] = c.name;
  fake->unsupported = all[0].name;
  fake->lateUnsupported = all[1].name;
  fake->throwOn = all[2].name;
  std::vector<std::unique_ptr<routes::Route>> routes;
  routes.push_back(std::move(fake));

  std::map<std::string, results::Verdict> seen;
  const results::Summary s =
      runCases(all, routes, o, [&](const results::CaseResult& r) { seen[r.name] = r.verdict; });
  EXPECT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[all[0].name], results::Verdict::Unsupported);
  EXPECT_EQ(seen[all[1].name], results::Verdict::Unsupported);
  EXPECT_EQ(seen[all[2].name], results::Verdict::Error);
  EXPECT_EQ(seen[all[3].name], results::Verdict::Pass);  // its batch ran although another threw
  EXPECT_EQ(s.count(results::Verdict::Pass), 1u);
  EXPECT_EQ(s.count(results::Verdict::Unsupported), 2u);
  EXPECT_EQ(s.count(results::Verdict::Error), 1u);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.line(), "1 passed, 0 failed, 2 unsupported, 1 error");
}

}  // namespace runner_test
}  // namespace gcnprobe::run
