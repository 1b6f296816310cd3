// Typed lookups: suites through one registry, tolerances by id, ISA outcomes by enum. Each
// test states what the command line shows or the runner applies, independently of how the
// code looks it up.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "harness/cases/suite.h"
#include "harness/isa/coverage.h"
#include "harness/judge/tolerance.h"
#include "reference/error.h"
#include "reference/gen.h"

namespace gcnprobe::cases {
namespace registry_test {

// texel, storage, atomic and vertex run by default, disputed only when named (--suite help).
TEST(SuiteRegistry, NamesOrderAndDefaultRun) {
  std::vector<std::string> names;
  for (const SuiteInfo& s : allSuites())
    names.emplace_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"texel", "storage", "atomic", "vertex", "disputed",
                                             "binary"}));
  EXPECT_EQ(suiteNames(), names);
  ASSERT_NE(findSuite("disputed"), nullptr);
  EXPECT_FALSE(findSuite("disputed")->inAll);
  EXPECT_TRUE(findSuite("vertex")->inAll);
  ASSERT_NE(findSuite("binary"), nullptr);
  EXPECT_FALSE(findSuite("binary")->inAll);
  EXPECT_EQ(findSuite("texels"), nullptr);
  EXPECT_EQ(suiteOptionHelp(),
            "only this suite (texel, storage, atomic, vertex; disputed, binary run only when "
            "named)");
}

// Every case a builder makes carries the registry's name for it; an unknown --suite is an
// error naming the known ones.
TEST(SuiteRegistry, BuildersNameTheirCasesAndUnknownSuitesFail) {
  const gcn::Chip chip = gcn::representativeChip(gcn::Gen::Gfx9);
  for (const std::string_view name : {kStorageSuite, kAtomicSuite}) {
    const std::vector<judge::Case> cases = buildCases(name, "", chip);
    ASSERT_FALSE(cases.empty()) << name;
    for (const judge::Case& c : cases)
      EXPECT_EQ(c.suite, name) << c.name;
  }
  try {
    (void)buildCases("atomics", "", chip);
    ADD_FAILURE() << "unknown suite accepted";
  } catch (const gcn::Error& e) {
    EXPECT_NE(std::string(e.what()).find("known: texel, storage, atomic, vertex, disputed"),
              std::string::npos)
        << e.what();
  }
}

// The fields a route and the reference read of a case, compared between two builds of it.
void expectSameCase(const judge::Case& a, const judge::Case& b) {
  SCOPED_TRACE(a.name);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.suite, b.suite);
  EXPECT_EQ(a.broken, b.broken);
  EXPECT_EQ(a.tolerance, b.tolerance);
  EXPECT_EQ(a.gcnTolerance, b.gcnTolerance);
  EXPECT_EQ(a.view.has_value(), b.view.has_value());
  const routes::DeviceCase& x = a.device;
  const routes::DeviceCase& y = b.device;
  EXPECT_TRUE(x.inst == y.inst);
  EXPECT_EQ(x.binding, y.binding);
  EXPECT_EQ(x.format, y.format);
  EXPECT_EQ(x.viewComponents, y.viewComponents);
  EXPECT_EQ(x.rawVsharp, y.rawVsharp);
  EXPECT_EQ(x.binaryPatch, y.binaryPatch);
  EXPECT_EQ(x.lds, y.lds);
  EXPECT_EQ(x.memory.base, y.memory.base);
  EXPECT_EQ(x.memory.bytes, y.memory.bytes);
  EXPECT_EQ(x.state.sgpr, y.state.sgpr);
  EXPECT_EQ(x.state.m0, y.state.m0);
  EXPECT_EQ(x.state.exec, y.state.exec);
  for (unsigned r = 0; r < 256; ++r) {
    ASSERT_EQ(x.state.hasVgpr(r), y.state.hasVgpr(r)) << "v" << r;
    if (x.state.hasVgpr(r)) {
      EXPECT_EQ(x.state.vgpr(r), y.state.vgpr(r)) << "v" << r;
    }
  }
}

// A suite asks its filter once per case of its list, in list order, and a case it builds for
// a filter that takes only some names is the case the whole build has under that name: a run
// of a few cases builds only those, and they are the cases a whole run would have run.
TEST(SuiteRegistry, FilteredBuildsAskEveryNameInOrderAndBuildTheSameCases) {
  for (const gcn::Chip& chip :
       {gcn::representativeChip(gcn::Gen::Gfx6), gcn::representativeChip(gcn::Gen::Gfx9)}) {
    for (const SuiteInfo& s : allSuites()) {
      SCOPED_TRACE(std::string(s.name) + " on " + std::string(chip.name));
      const std::vector<judge::Case> all = s.build(chip, {});
      ASSERT_FALSE(all.empty());
      std::vector<std::string> asked;
      const std::vector<judge::Case> none = s.build(chip, [&](const std::string& n) {
        asked.push_back(n);
        return false;
      });
      EXPECT_TRUE(none.empty());
      ASSERT_EQ(asked.size(), all.size());
      for (std::size_t i = 0; i < all.size(); ++i)
        EXPECT_EQ(asked[i], all[i].name);
      // Every fifth case, from an offset that differs per suite.
      std::size_t k = s.name.size();
      const std::vector<judge::Case> some =
          s.build(chip, [&](const std::string&) { return k++ % 5 == 0; });
      std::size_t expected = 0;
      for (std::size_t i = 0; i < all.size(); ++i)
        expected += (s.name.size() + i) % 5 == 0;
      ASSERT_EQ(some.size(), expected);
      std::size_t j = 0;
      for (std::size_t i = 0; i < all.size(); ++i)
        if ((s.name.size() + i) % 5 == 0) expectSameCase(some[j++], all[i]);
    }
  }
}

// The tolerance rows by id: what the runner writes as "tolerance" in a record.
TEST(ToleranceIds, EachIdIsItsRow) {
  EXPECT_EQ(tolerance(judge::ToleranceId::Exact).name, "exact");
  EXPECT_EQ(tolerance(judge::ToleranceId::Norm1Ulp).name, "norm-1ulp");
  EXPECT_EQ(tolerance(judge::ToleranceId::PortableTexel).name, "portable-texel");
  EXPECT_EQ(tolerance(judge::ToleranceId::Srgb).name, "srgb");
  EXPECT_EQ(tolerance(judge::ToleranceId::SrgbGcn).name, "srgb-gcn");
  EXPECT_EQ(tolerance(judge::ToleranceId::Norm1Ulp).normLoadUlps, 1);
  EXPECT_EQ(tolerance(judge::ToleranceId::Srgb).srgbAbs, 1.0 / 128);
  EXPECT_EQ(judge::tryFindTolerance("loose"), nullptr);
  EXPECT_EQ(&judge::findTolerance("srgb"), &tolerance(judge::ToleranceId::Srgb));
}

// The names `gcnprobe isa` prints and writes, and that its reader parses back.
TEST(IsaOutcomes, NamesRoundTrip) {
  using isa::CaseOutcome;
  std::set<std::string> seen;
  for (const CaseOutcome o :
       {CaseOutcome::Verified, CaseOutcome::RouteMiss, CaseOutcome::NoIsa, CaseOutcome::NoAssembly,
        CaseOutcome::Error, CaseOutcome::NoRoute, CaseOutcome::Unsupported}) {
    const std::string name(isa::caseOutcomeName(o));
    EXPECT_TRUE(seen.insert(name).second) << name;
    EXPECT_EQ(isa::parseCaseOutcome(name), o) << name;
  }
  EXPECT_EQ(seen, (std::set<std::string>{"verified", "route-miss", "no-isa", "no-assembly", "error",
                                         "no-route", "unsupported"}));
  EXPECT_EQ(isa::caseOutcome(isa::Outcome::RouteMiss), CaseOutcome::RouteMiss);
  EXPECT_FALSE(isa::parseCaseOutcome("verfied"));
}

}  // namespace registry_test
}  // namespace gcnprobe::cases
