// The fuzz case generator (harness/explore/fuzz.h), without a device: every kind of case comes up,
// a case is a function of (seed, number) alone, stores and atomics reach distinct places
// (Vulkan leaves two invocations writing one location undefined, and the order of two atomics
// on one place is the device's) with one data value per lane and register,
// and the minimiser's keepLanes keeps each kept lane's address and data together; raw-V# cases
// (GCN only: loads, stores, atomics) replace one case in four, are realisable through the raw V#
// route, and a raw store's or atomic's lanes predict the same in any order.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "harness/cases/suite.h"
#include "harness/explore/fuzz.h"
#include "harness/isa/binary_route.h"
#include "harness/routes/raw.h"
#include "probe/probe_eval.h"
#include "probe/probe_file.h"
#include "reference/error.h"

namespace gcnprobe {
namespace fuzz_test {

TEST(FuzzCase, EveryKindComesUpAndStoresWriteDistinctPlaces) {
  std::map<std::string, unsigned> kinds;
  for (uint64_t n = 0; n < 2000; ++n) {
    const explore::FuzzCase c = explore::makeFuzzCase(gcn::Gen::Gfx8, 99, n);
    SCOPED_TRACE(explore::fuzzProbeText(gcn::Gen::Gfx8, c, ""));
    ++kinds[c.kind];
    ASSERT_GE(c.v0.size(), 1u);
    ASSERT_LE(c.v0.size(), 64u);
    ASSERT_EQ(c.vsharpWords.size(), 4u);
    ASSERT_EQ(c.memory.size() * 4, c.memoryBytes);
    const bool store = c.kind == "texel-store" || c.kind == "storage-store";
    const bool atomic = c.kind == "storage-atomic" || c.kind == "texel-atomic";
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
    if (c.kind == "texel-atomic") {
      // imageAtomic on an R32 view: IDXEN, 32-bit, indices at most two past the end.
      EXPECT_NE(c.inst.find(" idxen glc"), std::string::npos) << c.inst;
      EXPECT_EQ(c.inst.find("_x2"), std::string::npos) << c.inst;
      EXPECT_TRUE(c.format == "VK_FORMAT_R32_UINT" || c.format == "VK_FORMAT_R32_SINT") << c.format;
      for (uint32_t index : c.v0)
        EXPECT_LT(index, c.memoryBytes / 4 + 2);
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
  EXPECT_GT(kinds["texel-atomic"], 30u);  // one in 30
  EXPECT_EQ(kinds.size(), 6u);
}

TEST(FuzzCase, ACaseDependsOnItsSeedAndNumberOnly) {
  const auto text = [](uint64_t seed, uint64_t n) {
    return explore::fuzzProbeText(gcn::Gen::Gfx9, explore::makeFuzzCase(gcn::Gen::Gfx9, seed, n),
                                  "");
  };
  EXPECT_EQ(text(5, 17), text(5, 17));
  EXPECT_NE(text(5, 17), text(5, 18));
  EXPECT_NE(text(5, 17), text(6, 17));
}

TEST(FuzzCase, KeepLanesKeepsEachLanesAddressAndData) {
  for (uint64_t n = 0; n < 200; ++n) {
    const explore::FuzzCase c = explore::makeFuzzCase(gcn::Gen::Gfx8, 3, n);
    if (c.data.empty() || c.v0.size() < 3) continue;
    const explore::FuzzCase k = explore::keepLanes(c, {2, 0});
    ASSERT_EQ(k.v0, (std::vector<uint32_t>{c.v0[2], c.v0[0]}));
    ASSERT_EQ(k.data.size(), c.data.size());
    for (std::size_t r = 0; r < c.data.size(); ++r)
      EXPECT_EQ(k.data[r], (std::vector<uint32_t>{c.data[r][2], c.data[r][0]}));
    const std::string t = explore::fuzzProbeText(gcn::Gen::Gfx8, k, "");
    EXPECT_NE(t.find("lanes = 2\n"), std::string::npos) << t;
    EXPECT_NE(t.find("\nv1 = "), std::string::npos) << t;
    EXPECT_THROW(explore::keepLanes(c, {static_cast<unsigned>(c.v0.size())}), gcn::Error);
    return;
  }
  FAIL() << "no store case with three lanes among the first 200";
}

// A store or atomic whose lanes touch disjoint bytes predicts the same whatever order its
// lanes run in: the whole wave at once equals its lanes one at a time, last lane first, each
// on the memory the later lanes left (registers and memory, under the generation's
// defaults). And every access in range is inside the memory image, so the device's memory
// shows every write.
void expectLaneOrderFree(const gcn::probe::Probe& probe, const gcn::probe::ProbeSetup& setup) {
  const gcn::ExecResult wave = gcn::probe::run(probe, setup, setup.policies);
  for (unsigned l = 0; l < setup.lanes; ++l)
    for (const gcn::LaneAccess& a : wave.lanes[l].accesses) {
      if (a.inRange) {
        EXPECT_TRUE(a.mapped) << "lane " << l << " address " << a.address;
      }
    }
  gcn::probe::ProbeSetup one = setup;
  for (unsigned l = setup.lanes; l-- > 0;) {
    if (((setup.state.exec >> l) & 1) == 0) continue;
    one.state.exec = uint64_t{1} << l;
    const gcn::ExecResult r = gcn::probe::run(probe, one, setup.policies);
    one.memory = r.memory();
    const gcn::LaneResult& a = wave.lanes[l];
    const gcn::LaneResult& b = r.lanes[l];
    EXPECT_EQ(a.vdataCount, b.vdataCount) << "lane " << l;
    for (unsigned k = 0; k < a.vdataCount; ++k)
      EXPECT_EQ(a.vdata[k], b.vdata[k]) << "lane " << l << " register " << k;
  }
  EXPECT_EQ(one.memory.bytes, wave.memory().bytes);
}

// With raw V#s (a GCN device where the raw route runs) one case in four is a raw-V# case,
// chosen from (seed, number) alone: every other case is the same as without them. Each raw
// case is realisable, through a V# no driver builds (the raw route), and placeable: its reach
// is within the raw route's bound. Raw loads, stores and atomics all come up, and a store's or
// atomic's lanes are free of order (above).
TEST(FuzzCase, RawVSharpCasesReplaceOneInFourAndAreRealisable) {
  for (const gcn::Gen gen : {gcn::Gen::Gfx6, gcn::Gen::Gfx8, gcn::Gen::Gfx9}) {
    SCOPED_TRACE(std::string(gcn::genName(gen)));
    std::map<std::string, unsigned> kinds;
    unsigned driverBuilt = 0, patched = 0;
    std::size_t lanesKept = 0;
    std::set<std::string> opcodes;  // of the binary cases
    const unsigned total = 1200;
    for (uint64_t n = 0; n < total; ++n) {
      const explore::FuzzCase off = explore::makeFuzzCase(gen, 41, n, false);
      const explore::FuzzCase on = explore::makeFuzzCase(gen, 41, n, true);
      ++kinds[on.kind];
      // Raw-V# kinds: "raw-*" and "binary" (the binary route's cases take raw V#s).
      const auto rawKind = [](const explore::FuzzCase& c) {
        return c.kind.rfind("raw-", 0) == 0 || c.kind == "binary";
      };
      EXPECT_FALSE(rawKind(off));
      const std::string text = explore::fuzzProbeText(gen, on, "");
      if (!rawKind(on)) {
        EXPECT_EQ(text, explore::fuzzProbeText(gen, off, ""));
        continue;
      }
      SCOPED_TRACE(text);
      ASSERT_EQ(on.memory.size() * 4, on.memoryBytes);
      const bool binary = on.kind == "binary";
      const bool store = on.kind == "raw-texel-store" || on.kind == "raw-storage-store" ||
                         (binary && on.inst.find("_store_") != std::string::npos);
      const bool atomic =
          on.kind == "raw-atomic" || (binary && on.inst.rfind("buffer_atomic_", 0) == 0);
      if (binary) {
        opcodes.insert(on.inst.substr(0, on.inst.find(' ')));
      } else {
        EXPECT_EQ(on.data.empty(), !store && !atomic);
      }
      if (!binary) {
        EXPECT_EQ(on.inst.rfind(atomic  ? "buffer_atomic_"
                                : store ? "buffer_store_"
                                        : "buffer_load_",
                                0),
                  0u)
            << on.inst;
      }
      for (const std::vector<uint32_t>& reg : on.data)
        EXPECT_EQ(reg.size(), on.v0.size());
      const gcn::probe::Probe probe = gcn::probe::parseProbe(text, "fuzz.probe");
      const gcn::probe::ProbeSetup setup = gcn::probe::prepare(probe, {});
      if (store || atomic) {
        expectLaneOrderFree(probe, setup);
        lanesKept += on.v0.size();
      }
      const cases::ProbeCase pc = cases::probeCase("fuzz.probe", setup);
      ASSERT_TRUE(pc.c.has_value()) << pc.reason;
      // The reference predicts every random V# (reserved selectors and formats included)
      // under every policy variant that matters, as `fuzz` asks it to.
      EXPECT_FALSE(gcn::probe::explore(probe, setup).predictions.empty());
      // A binary case goes to the binary route unless a lane shader has its form.
      if (pc.c->device.binaryPatch) {
        EXPECT_TRUE(binary);
        EXPECT_EQ(isa::binaryFormProblem(*setup.chip, pc.c->device), "");
        ++patched;
      }
      if (!pc.c->device.rawVsharp) {
        ++driverBuilt;  // a random V# that happens to be one a driver builds
        continue;
      }
      // On the raw route, the lane shaders have the instruction's exact form.
      if (!pc.c->device.binaryPatch) {
        EXPECT_EQ(routes::rawFormProblem(pc.c->device), "");
      }
      EXPECT_NO_THROW((void)routes::placeRawCase(*setup.chip, pc.c->device, routes::kRawGuard));
    }
    unsigned raw = 0, writes = 0;
    for (const char* k : {"raw-texel", "raw-storage", "raw-texel-store", "raw-storage-store",
                          "raw-atomic", "binary"})
      raw += kinds[k];
    for (const char* k : {"raw-texel-store", "raw-storage-store", "raw-atomic"})
      writes += kinds[k];
    EXPECT_GT(raw, total / 5);
    EXPECT_LT(raw, total * 3 / 10);
    EXPECT_GT(kinds["raw-texel"], total / 16);
    EXPECT_GT(kinds["raw-storage"], total / 16);
    EXPECT_GT(kinds["raw-texel-store"], total / 200);
    EXPECT_GT(kinds["raw-storage-store"], total / 200);
    EXPECT_GT(kinds["raw-atomic"], total / 60);
    // Binary cases: one raw case in five; most go to the binary route, and they spread over
    // the generation's opcodes (cache and LDS ones aside).
    EXPECT_GT(kinds["binary"], total / 40);
    EXPECT_GT(patched, kinds["binary"] / 2);
    EXPECT_GT(opcodes.size(), 20u);
    // Dropping lanes that meet earlier ones leaves most of them: several lanes per case.
    EXPECT_GT(lanesKept, 4u * writes);
    EXPECT_LT(driverBuilt, raw / 20);
  }
}

// Over enough cases the binary kind reaches every opcode of the generation but the cache
// and LDS ones and gfx8.0's unpacked D16 loads of 3-4 registers (binary_patch.h), each in a
// form the binary route accepts.
TEST(FuzzCase, BinaryCasesReachEveryOpcodeATemplateHosts) {
  for (const gcn::Gen gen : {gcn::Gen::Gfx6, gcn::Gen::Gfx7, gcn::Gen::Gfx8, gcn::Gen::Gfx9}) {
    SCOPED_TRACE(std::string(gcn::genName(gen)));
    const gcn::Chip& chip = gcn::representativeChip(gen);
    std::set<std::string> hostable, reached;
    for (const gcn::OpcodeInfo& op : gcn::allOpcodes()) {
      if (!gcn::existsOn(op, gen) || op.kind == gcn::OpKind::Cache || op.ldsData) continue;
      const bool unpackedWide =
          gen == gcn::Gen::Gfx8 && op.d16 && !chip.d16Packed &&
          (op.kind == gcn::OpKind::Load || op.kind == gcn::OpKind::LoadFormat) && op.components > 2;
      if (!unpackedWide) hostable.insert(std::string(op.mnemonic));
    }
    for (uint64_t n = 0; n < 40000 && reached.size() < hostable.size(); ++n) {
      const explore::FuzzCase c = explore::makeFuzzCase(gen, 7, n, true);
      if (c.kind == "binary") reached.insert(c.inst.substr(0, c.inst.find(' ')));
    }
    EXPECT_EQ(reached, hostable);
  }
}

// zeroUnneeded keeps exactly what the failure needs: here memory word 5 must keep its value,
// word 9 must be non-zero and lane 0's first data value non-zero; everything else goes.
TEST(FuzzCase, ZeroUnneededKeepsOnlyWhatTheFailureNeeds) {
  explore::FuzzCase c;
  for (uint32_t i = 0; i < 37; ++i)  // not a power of two: blocks end early
    c.memory.push_back(0x1000u + i);
  c.data = {{7u, 8u}, {9u, 0u}};
  const uint32_t word5 = c.memory[5];
  const auto fails = [&](const explore::FuzzCase& x) {
    return x.memory[5] == word5 && x.memory[9] != 0 && x.data[0][0] != 0;
  };
  const explore::Simplified s = explore::zeroUnneeded(c, fails);
  for (std::size_t i = 0; i < s.c.memory.size(); ++i)
    EXPECT_EQ(s.c.memory[i], i == 5 || i == 9 ? c.memory[i] : 0u) << i;
  EXPECT_EQ(s.c.data, (std::vector<std::vector<uint32_t>>{{7u, 0u}, {0u, 0u}}));
  EXPECT_EQ(s.memoryWordsLeft, 2u);
  EXPECT_EQ(s.dataValuesLeft, 1u);
  EXPECT_TRUE(fails(s.c));
  EXPECT_LE(s.tries, 2u * 37u + 8u);  // blocks of 37, 18, 9, 4, 2, 1 words, 3 values
  // Everything unneeded: all zero. Nothing removable: the case as it was.
  const explore::Simplified all =
      explore::zeroUnneeded(c, [](const explore::FuzzCase&) { return true; });
  EXPECT_EQ(all.memoryWordsLeft, 0u);
  EXPECT_EQ(all.dataValuesLeft, 0u);
  EXPECT_EQ(all.tries, 1u + 3u);  // the whole memory at once, then three non-zero values
  const explore::Simplified none = explore::zeroUnneeded(
      c, [&](const explore::FuzzCase& x) { return x.memory == c.memory && x.data == c.data; });
  EXPECT_EQ(none.c.memory, c.memory);
  EXPECT_EQ(none.c.data, c.data);
}

}  // namespace fuzz_test
}  // namespace gcnprobe
