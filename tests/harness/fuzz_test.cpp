// The fuzz case generator (harness/run/fuzz.h), without a device: every kind of case comes up,
// a case is a function of (seed, number) alone, stores and atomics reach distinct places
// (Vulkan leaves two invocations writing one location undefined, and the order of two atomics
// on one place is the device's) with one data value per lane and register,
// and the minimiser's keepLanes keeps each kept lane's address and data together.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "harness/run/fuzz.h"
#include "reference/error.h"

namespace gcnprobe {
namespace {

TEST(FuzzCase, EveryKindComesUpAndStoresWriteDistinctPlaces) {
  std::map<std::string, unsigned> kinds;
  for (uint64_t n = 0; n < 2000; ++n) {
    const run::FuzzCase c = run::makeFuzzCase(gcn::Gen::Gfx8, 99, n);
    SCOPED_TRACE(run::fuzzProbeText(gcn::Gen::Gfx8, c, ""));
    ++kinds[c.kind];
    ASSERT_GE(c.v0.size(), 1u);
    ASSERT_LE(c.v0.size(), 64u);
    ASSERT_EQ(c.vsharpWords.size(), 4u);
    ASSERT_EQ(c.memory.size() * 4, c.memoryBytes);
    const bool store = c.kind == "texel-store" || c.kind == "storage-store";
    const bool atomic = c.kind == "storage-atomic";
    EXPECT_EQ(!c.data.empty(), store || atomic);
    EXPECT_EQ(c.inst.rfind(atomic  ? "buffer_atomic_"
                           : store ? "buffer_store_"
                                   : "buffer_load_",
                           0),
              0u)
        << c.inst;
    if (atomic) {
      EXPECT_NE(c.inst.find(" glc"), std::string::npos) << c.inst;
    }
    if (!store && !atomic) continue;
    for (const std::vector<uint32_t>& reg : c.data)
      EXPECT_EQ(reg.size(), c.v0.size());
    // texel stores write 4 registers; storage stores one per dword (byte/short: one).
    if (c.kind == "texel-store") {
      EXPECT_EQ(c.data.size(), 4u);
    }
    EXPECT_EQ(std::set<uint32_t>(c.v0.begin(), c.v0.end()).size(), c.v0.size());
  }
  for (const char* k : {"texel", "texel-store", "storage", "storage-store", "storage-atomic"})
    EXPECT_GT(kinds[k], 100u) << k;
  EXPECT_EQ(kinds.size(), 5u);
}

TEST(FuzzCase, ACaseDependsOnItsSeedAndNumberOnly) {
  const auto text = [](uint64_t seed, uint64_t n) {
    return run::fuzzProbeText(gcn::Gen::Gfx9, run::makeFuzzCase(gcn::Gen::Gfx9, seed, n), "");
  };
  EXPECT_EQ(text(5, 17), text(5, 17));
  EXPECT_NE(text(5, 17), text(5, 18));
  EXPECT_NE(text(5, 17), text(6, 17));
}

TEST(FuzzCase, KeepLanesKeepsEachLanesAddressAndData) {
  for (uint64_t n = 0; n < 200; ++n) {
    const run::FuzzCase c = run::makeFuzzCase(gcn::Gen::Gfx8, 3, n);
    if (c.data.empty() || c.v0.size() < 3) continue;
    const run::FuzzCase k = run::keepLanes(c, {2, 0});
    ASSERT_EQ(k.v0, (std::vector<uint32_t>{c.v0[2], c.v0[0]}));
    ASSERT_EQ(k.data.size(), c.data.size());
    for (std::size_t r = 0; r < c.data.size(); ++r)
      EXPECT_EQ(k.data[r], (std::vector<uint32_t>{c.data[r][2], c.data[r][0]}));
    const std::string t = run::fuzzProbeText(gcn::Gen::Gfx8, k, "");
    EXPECT_NE(t.find("lanes = 2\n"), std::string::npos) << t;
    EXPECT_NE(t.find("\nv1 = "), std::string::npos) << t;
    EXPECT_THROW(run::keepLanes(c, {static_cast<unsigned>(c.v0.size())}), gcn::Error);
    return;
  }
  FAIL() << "no store case with three lanes among the first 200";
}

}  // namespace
}  // namespace gcnprobe
