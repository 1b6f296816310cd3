// computeReach against two independent sources:
// - the executor (a different code path: execute() with its own lane loop, access sizes and
//   range verdicts), run under EVERY combination of the policy points the table marks as
//   addressing, each of those combinations again with every other point flipped in turn
//   (so a point wrongly marked as value-only still shows up here), on adversarial
//   V#s and lane inputs for gfx6..gfx9; the bytes of every in-range access it reports, merged
//   by this file's own code, must equal the reach exactly;
// - hand-computed goldens from the buffer addressing formula (CLRX GcnMemHandling "Buffer
//   addressing", as docs/gcn-facts.md "Addressing" and "Range checking" state it).
// Plus reachBoundProblem's verdict and message, and inactive lanes.
#include "reference/reach.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "reference/error.h"
#include "reference/executor.h"
#include "reference/resource.h"

namespace gcn {
namespace reach_test {

constexpr uint8_t kSrsrc = 8;
constexpr uint8_t kVaddr = 4;
constexpr uint8_t kVdata = 20;
constexpr uint8_t kSoffsetSgpr = 2;
constexpr uint64_t kTop = std::numeric_limits<uint64_t>::max();

struct Case {
  std::string name;
  const Chip* chip = nullptr;
  Instruction inst;
  WaveState st;
};

Case makeCase(std::string name, Gen gen, std::string_view mnemonic, const VSharp& v) {
  Case c;
  c.name = std::move(name);
  c.chip = &representativeChip(gen);
  c.inst.op = &requireOpcode(mnemonic);
  c.inst.srsrc = kSrsrc;
  c.inst.vaddr = kVaddr;
  c.inst.vdata = kVdata;
  setVsharpWords(c.st, kSrsrc, encodeVSharp(gen, v));
  return c;
}

// VADDR must name v0 when the instruction reads no address (validate()).
void settleVaddr(Case& c) {
  if (vaddrRegs(c.inst) == 0) c.inst.vaddr = 0;
}

void setSoffset(Case& c, uint32_t value) {
  c.inst.soffset = kSoffsetSgpr;
  c.st.sgpr[kSoffsetSgpr] = value;
}

// Seeded lane values: every eighth lane an extreme (0, 0xffffffff, 0xfffffffc, 1), the rest
// random below `bound` (0 = any 32-bit value).
void fillLanes(Case& c, unsigned reg, std::mt19937& rng, uint64_t bound) {
  LaneWords& w = c.st.vgprMut(reg);
  constexpr uint32_t kExtremes[] = {0u, 0xffffffffu, 0xfffffffcu, 1u};
  for (unsigned l = 0; l < kWaveSize; ++l) {
    if (l % 8 == 0) {
      w[l] = kExtremes[(l / 8) % 4];
      continue;
    }
    const uint32_t r = rng();
    w[l] = bound == 0 ? r : static_cast<uint32_t>(r % bound);
  }
}

// The oracle: every byte of every in-range access execute() reports, under every combination
// of the options of the addressing policy points, and each of those with every value-only
// point flipped on its own (2^a * (1 + v) runs). No memory is mapped (an empty image): the
// executor still reports each access's address and verdict (LaneAccess::mapped is false).
// Byte 2^64 - 1 is left out: a Reach cannot represent it (reference/reach.h).
std::set<uint64_t> oracleBytes(const Case& c, std::size_t* combinationsRun = nullptr) {
  std::vector<const PolicyPoint*> addressing, valueOnly;
  for (const PolicyPoint& point : allPolicyPoints())
    (point.addressing ? addressing : valueOnly).push_back(&point);
  std::vector<uint8_t> digit(addressing.size(), 0);
  const MemoryImage mem;
  const std::vector<uint8_t> lds;
  // Distinct (address, size) accesses first, compacted now and then: most combinations repeat
  // the same accesses, and expanding each to bytes at once would be slow. A run whose accesses
  // are exactly the previous run's adds nothing (neighbouring combinations differ in one point,
  // and most points do not move most lanes), so it is not even appended.
  std::vector<std::pair<uint64_t, uint8_t>> accesses, run, previous;
  auto compact = [&] {
    std::sort(accesses.begin(), accesses.end());
    accesses.erase(std::unique(accesses.begin(), accesses.end()), accesses.end());
  };
  std::size_t combos = 0;
  auto runOnce = [&](const Policies& p) {
    const ExecResult r = execute(*c.chip, c.inst, c.st, mem, lds, p);
    ++combos;
    run.clear();
    for (const LaneResult& lr : r.lanes)
      for (const LaneAccess& a : lr.accesses)
        if (a.inRange) run.emplace_back(a.address, a.size);
    if (run == previous) return;
    accesses.insert(accesses.end(), run.begin(), run.end());
    std::swap(run, previous);
    if (accesses.size() > (1u << 16)) compact();
  };
  while (true) {
    Policies p;
    for (std::size_t i = 0; i < addressing.size(); ++i)
      p.set(addressing[i]->id, digit[i]);
    runOnce(p);
    for (const PolicyPoint* v : valueOnly) {
      Policies flipped = p;
      flipped.set(v->id, static_cast<uint8_t>(1 - p.get(v->id)));
      runOnce(flipped);
    }
    // Next combination (mixed radix over each point's option count).
    std::size_t i = 0;
    while (i < addressing.size() && ++digit[i] == addressing[i]->options().size())
      digit[i++] = 0;
    if (i == addressing.size()) break;
  }
  compact();
  std::set<uint64_t> bytes;
  for (const auto& [address, size] : accesses)
    for (uint64_t i = 0; i < size; ++i)
      if (address + i != kTop) bytes.insert(address + i);  // wraps like the executor
  if (combinationsRun != nullptr) *combinationsRun = combos;
  return bytes;
}

// How many runs oracleBytes makes: the product of the addressing points' option counts, times
// (1 + v) for the v value-only points.
std::size_t oracleRuns() {
  std::size_t combinations = 1, v = 0;
  for (const PolicyPoint& point : allPolicyPoints()) {
    if (point.addressing)
      combinations *= point.options().size();
    else
      ++v;
  }
  return combinations * (1 + v);
}

// Merged ranges of a byte set, by a plain scan (independent of reach.cpp's merge).
std::vector<ByteRange> rangesOf(const std::set<uint64_t>& bytes) {
  std::vector<ByteRange> out;
  for (uint64_t b : bytes) {
    if (!out.empty() && out.back().end == b)
      ++out.back().end;
    else
      out.push_back({b, b + 1});
  }
  return out;
}

std::string show(const std::vector<ByteRange>& rs) {
  std::ostringstream s;
  s << std::hex;
  for (const ByteRange& r : rs)
    s << "[0x" << r.begin << ", 0x" << r.end << ") ";
  return s.str();
}

// The Reach invariants the header promises.
void expectWellFormed(const Reach& r) {
  uint64_t total = 0;
  for (std::size_t i = 0; i < r.ranges.size(); ++i) {
    EXPECT_LT(r.ranges[i].begin, r.ranges[i].end) << "empty range " << i;
    if (i > 0) {
      EXPECT_LT(r.ranges[i - 1].end, r.ranges[i].begin) << "unmerged at " << i;
    }
    total += r.ranges[i].end - r.ranges[i].begin;
  }
  EXPECT_EQ(r.bytes(), total);
  if (r.ranges.empty()) {
    EXPECT_FALSE(r.span());
  } else {
    ASSERT_TRUE(r.span());
    EXPECT_EQ(r.span()->begin, r.ranges.front().begin);
    EXPECT_EQ(r.span()->end, r.ranges.back().end);
    ASSERT_TRUE(r.lowest && r.highest);
  }
}

void expectMatchesOracle(const Case& c) {
  SCOPED_TRACE(c.name);
  const Reach r = computeReach(*c.chip, c.inst, c.st);
  expectWellFormed(r);
  std::size_t combos = 0;
  const std::vector<ByteRange> want = rangesOf(oracleBytes(c, &combos));
  EXPECT_EQ(combos, oracleRuns());
  EXPECT_EQ(r.ranges, want) << "reach:  " << show(r.ranges) << "\noracle: " << show(want);
}

// ---- adversarial cases --------------------------------------------------------------------

std::vector<Case> adversarialCases() {
  std::vector<Case> cases;
  std::mt19937 rng(20261124);
  for (Gen gen : kGcnGens) {
    const std::string g(genName(gen));
    const bool gfx9 = gen == Gen::Gfx9;
    {
      // Raw OFFEN with huge NUM_RECORDS, large offsets, large SOFFSET and OFFSET 4095.
      VSharp v;
      v.base = 0x123456789000;
      v.numRecords = 0xffffffffu;
      v.dataFormat = Dfmt::F32;
      Case c =
          makeCase(g + " raw offen dword, num_records 0xffffffff", gen, "buffer_load_dword", v);
      c.inst.offen = true;
      c.inst.offset = 4095;
      setSoffset(c, 0xfffff000u);
      fillLanes(c, kVaddr, rng, 0);
      cases.push_back(std::move(c));
    }
    {
      // DWORDX4 raw load straddling NUM_RECORDS at unaligned offsets, SOFFSET > NUM_RECORDS.
      VSharp v;
      v.base = 0x10000;
      v.numRecords = 200;
      v.dataFormat = Dfmt::F32;
      Case c =
          makeCase(g + " dwordx4 straddle, soffset > num_records", gen, "buffer_load_dwordx4", v);
      c.inst.offen = true;
      setSoffset(c, 300);
      fillLanes(c, kVaddr, rng, 256);
      cases.push_back(std::move(c));
    }
    {
      // Swizzle with the largest INDEX_STRIDE and ELEMENT_SIZE, STRIDE at its 14-bit maximum,
      // ADD_TID, IDXEN+OFFEN, a DWORDX4 store.
      VSharp v;
      v.base = 0x40000000;
      v.stride = 0x3fff;
      v.numRecords = 0xffffffffu;
      v.swizzleEnable = true;
      v.indexStride = 3;
      v.elementSize = gfx9 ? 0 : 3;
      v.addTidEnable = true;
      v.dataFormat = Dfmt::F32;
      Case c = makeCase(g + " swizzle istride 64 elem 16, tid, idxen+offen, dwordx4 store", gen,
                        "buffer_store_dwordx4", v);
      c.inst.idxen = c.inst.offen = true;
      c.inst.offset = 12;
      setSoffset(c, 0x7fffffffu);
      fillLanes(c, kVaddr, rng, 0);
      fillLanes(c, kVaddr + 1, rng, 0);
      cases.push_back(std::move(c));
    }
    {
      // Swizzle with small INDEX_STRIDE/ELEMENT_SIZE and a multi-dword format element, with
      // SOFFSET above NUM_RECORDS (swizzle-soffset decides whether the check sees it).
      VSharp v;
      v.base = 0x8000;
      v.stride = 24;
      v.numRecords = 40;
      v.swizzleEnable = true;
      v.indexStride = 0;
      v.elementSize = gfx9 ? 0 : 1;
      v.dataFormat = Dfmt::F32_32_32_32;
      v.numFormat = Nfmt::Float;
      Case c = makeCase(g + " swizzle istride 8, format xyzw 32_32_32_32", gen,
                        "buffer_load_format_xyzw", v);
      c.inst.idxen = c.inst.offen = true;
      setSoffset(c, 1000);
      fillLanes(c, kVaddr, rng, 64);
      fillLanes(c, kVaddr + 1, rng, 64);
      cases.push_back(std::move(c));
    }
    {
      // ADD_TID with IDXEN and big VGPR indices (index + lane wraps at 32 bits), STRIDE 16.
      VSharp v;
      v.base = 0x2000;
      v.stride = 16;
      v.numRecords = 0xffffffffu;
      v.addTidEnable = true;
      v.dataFormat = Dfmt::F32;
      Case c = makeCase(g + " add_tid idxen big indices", gen, "buffer_load_dwordx2", v);
      c.inst.idxen = true;
      c.inst.offset = 20;  // >= STRIDE: offset-vs-stride decides
      LaneWords& w = c.st.vgprMut(kVaddr);
      for (unsigned l = 0; l < kWaveSize; ++l)
        w[l] = l % 2 ? 0xffffffffu - l / 2 : static_cast<uint32_t>(rng());
      cases.push_back(std::move(c));
    }
    {
      // ADD_TID without IDXEN, STRIDE 12, OFFEN with large offsets (tid-noidx, stride-noidx).
      VSharp v;
      v.base = 0x3000;
      v.stride = 12;
      v.numRecords = 48;
      v.addTidEnable = true;
      v.dataFormat = Dfmt::F32;
      Case c = makeCase(g + " add_tid without idxen, offen", gen, "buffer_store_dword", v);
      c.inst.offen = true;
      fillLanes(c, kVaddr, rng, 1u << 20);
      cases.push_back(std::move(c));
    }
    {
      // STRIDE 0 with IDXEN+OFFEN: byte check, index ignored by the product.
      VSharp v;
      v.base = 0x5000;
      v.numRecords = 0x10000;
      v.dataFormat = Dfmt::F32;
      Case c = makeCase(g + " stride 0 idxen+offen ushort", gen, "buffer_load_ushort", v);
      c.inst.idxen = c.inst.offen = true;
      fillLanes(c, kVaddr, rng, 0);
      fillLanes(c, kVaddr + 1, rng, 0x10004);
      cases.push_back(std::move(c));
    }
    {
      // STRIDE without IDXEN (stride-noidx), OFFEN, NUM_RECORDS 0xffffffff.
      VSharp v;
      v.base = 0x6000;
      v.stride = 0x3fff;
      v.numRecords = 0xffffffffu;
      v.dataFormat = Dfmt::F32;
      // DWORDX3 from gfx7 (docs/gcn-facts.md "Opcodes and encodings").
      Case c = makeCase(g + " stride without idxen", gen,
                        gen == Gen::Gfx6 ? "buffer_load_dwordx2" : "buffer_load_dwordx3", v);
      c.inst.offen = true;
      c.inst.offset = 7;
      fillLanes(c, kVaddr, rng, 0);
      cases.push_back(std::move(c));
    }
    {
      // STRIDE without IDXEN, NUM_RECORDS 0 and SOFFSET 16: the index check rejects every lane
      // (AINDEX 0 >= 0); the byte check's limit 0 - 16 wraps and admits them (soffset=wraps).
      VSharp v;
      v.base = 0xd000;
      v.stride = 32;
      v.numRecords = 0;
      v.dataFormat = Dfmt::F32;
      Case c = makeCase(g + " stride without idxen, num_records 0", gen, "buffer_load_dword", v);
      c.inst.offen = true;
      setSoffset(c, 16);
      fillLanes(c, kVaddr, rng, 4096);
      cases.push_back(std::move(c));
    }
    {
      // Structured format load: IDXEN, STRIDE 8, index product past 32 bits.
      VSharp v;
      v.base = 0x7000;
      v.stride = 8;
      v.numRecords = 0xffffffffu;
      v.dataFormat = Dfmt::F16_16_16_16;
      v.numFormat = Nfmt::Unorm;
      Case c = makeCase(g + " idxen format load 16_16_16_16", gen, "buffer_load_format_xyzw", v);
      c.inst.idxen = true;
      fillLanes(c, kVaddr, rng, 0);
      cases.push_back(std::move(c));
    }
    {
      // MTBUF format store: format from the instruction, OFFEN, unaligned offsets.
      VSharp v;
      v.base = 0x9000;
      v.numRecords = 100;
      v.dataFormat = Dfmt::F8;  // the V#'s own format is ignored by MTBUF
      Case c = makeCase(g + " tbuffer store 16_16 uint", gen, "tbuffer_store_format_xy", v);
      c.inst.dfmt = Dfmt::F16_16;
      c.inst.nfmt = Nfmt::Uint;
      c.inst.offen = true;
      fillLanes(c, kVaddr, rng, 128);
      cases.push_back(std::move(c));
    }
    {
      // 64-bit atomic, OFFEN, unaligned offsets near NUM_RECORDS.
      VSharp v;
      v.base = 0xa000;
      v.numRecords = 64;
      v.dataFormat = Dfmt::F32;
      Case c = makeCase(g + " atomic cmpswap_x2", gen, "buffer_atomic_cmpswap_x2", v);
      c.inst.offen = true;
      c.inst.glc = true;
      fillLanes(c, kVaddr, rng, 80);
      cases.push_back(std::move(c));
    }
    {
      // LDS-direct load: memory side only.
      VSharp v;
      v.base = 0xb000;
      v.numRecords = 0x100;
      v.dataFormat = Dfmt::F32;
      Case c = makeCase(g + " lds load dword", gen, "buffer_load_dword", v);
      c.inst.offen = true;
      c.inst.lds = true;
      c.inst.vdata = 0;
      c.st.m0 = 0x100;
      fillLanes(c, kVaddr, rng, 0x110);
      cases.push_back(std::move(c));
    }
    if (gen == Gen::Gfx6 || gen == Gen::Gfx7) {
      // ADDR64: never range-checked; a 64-bit VGPR address up to 2^64 - 1 (wraps past the top).
      VSharp v;
      v.base = 0xffffffffffffull;
      v.numRecords = 0;  // ignored by ADDR64
      v.dataFormat = Dfmt::F32;
      Case c = makeCase(g + " addr64 dwordx2", gen, "buffer_load_dwordx2", v);
      c.inst.addr64 = true;
      c.inst.offset = 4095;
      setSoffset(c, 0xffffffffu);
      fillLanes(c, kVaddr, rng, 0);
      fillLanes(c, kVaddr + 1, rng, 0);
      cases.push_back(std::move(c));
    }
    {
      // 32-bit offsets that wrap inside a DWORDX4: under index-product=trunc32 the later dwords
      // land at the start of the buffer, where only the per-dword check (straddle=whole)
      // admits them; no other lane covers those bytes.
      VSharp v;
      v.base = 0x50000;
      v.numRecords = 64;
      v.dataFormat = Dfmt::F32;
      Case c = makeCase(g + " dwordx4 offset wraps at 2^32", gen, "buffer_store_dwordx4", v);
      c.inst.offen = true;
      constexpr uint32_t kOffsets[] = {0xfffffff0u, 0xfffffff4u, 0xfffffff8u, 0xfffffffcu,
                                       0xfffffffdu, 0xffffffffu, 0xfffffff6u, 0xfffffff1u};
      c.st.exec = 0xff;
      for (unsigned l = 0; l < 8; ++l)
        c.st.vgprMut(kVaddr)[l] = kOffsets[l];
      cases.push_back(std::move(c));
    }
    {
      // Sparse EXEC: lanes outside it hold far offsets that must not appear.
      VSharp v;
      v.base = 0xc000;
      v.numRecords = 0xffffffffu;
      v.dataFormat = Dfmt::F32;
      Case c = makeCase(g + " sparse exec", gen, "buffer_store_short", v);
      c.inst.offen = true;
      c.st.exec = 0x8000000100010001ull;
      fillLanes(c, kVaddr, rng, 0);
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

class ReachOracle : public testing::TestWithParam<std::size_t> {};

TEST_P(ReachOracle, EqualsExecutorUnderEveryPolicyCombination) {
  static const std::vector<Case> cases = adversarialCases();
  ASSERT_LT(GetParam(), cases.size());
  expectMatchesOracle(cases[GetParam()]);
}

// 4 generations x 15 cases + ADDR64 on gfx6/7 (the count is checked below).
constexpr std::size_t kAdversarialCases = 4 * 15 + 2;
INSTANTIATE_TEST_SUITE_P(Adversarial, ReachOracle,
                         testing::Range<std::size_t>(0, kAdversarialCases));

TEST(Reach, AdversarialCaseCount) {
  EXPECT_EQ(adversarialCases().size(), kAdversarialCases);
}

// Random V#s and instructions (like executor_property_test) with a few active lanes, each
// against the full oracle; draws execute() rejects must be rejected by computeReach too.
TEST(Reach, RandomCasesEqualExecutor) {
  std::mt19937 rng(77);
  auto pick = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  const auto ops = allOpcodes();
  int compared = 0, rejected = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const Gen gen = kGcnGens[pick(4)];
    const OpcodeInfo* op = nullptr;
    do
      op = &ops[pick(static_cast<uint32_t>(ops.size()))];
    while (!existsOn(*op, gen));
    VSharp v;
    v.base = pick(2) ? 0x10000 + pick(4096) : (uint64_t{rng()} << 16 | rng());
    v.base &= (uint64_t{1} << 48) - 1;
    v.stride = static_cast<uint16_t>(pick(3) == 0 ? 0 : pick(3) == 0 ? 0x3fff : pick(40));
    v.numRecords = pick(3) == 0 ? 0xffffffffu : pick(300);
    v.dataFormat = static_cast<Dfmt>(pick(16));
    v.numFormat = static_cast<Nfmt>(pick(8));
    v.addTidEnable = pick(3) == 0;
    v.swizzleEnable = pick(3) == 0;
    v.indexStride = static_cast<uint8_t>(pick(4));
    if (gen != Gen::Gfx9) v.elementSize = static_cast<uint8_t>(pick(4));
    Case c = makeCase("random " + std::to_string(trial), gen, op->mnemonic, v);
    c.inst.idxen = pick(2);
    c.inst.offen = pick(2);
    c.inst.addr64 = (gen == Gen::Gfx6 || gen == Gen::Gfx7) && pick(4) == 0;
    if (c.inst.addr64) c.inst.idxen = c.inst.offen = false;
    c.inst.offset = static_cast<uint16_t>(pick(4096));
    if (op->encoding == Encoding::Mtbuf) {
      c.inst.dfmt = static_cast<Dfmt>(pick(16));
      c.inst.nfmt = static_cast<Nfmt>(pick(8));
    }
    if (op->ldsData) {
      c.inst.idxen = c.inst.offen = c.inst.addr64 = false;
      c.inst.lds = true;
    }
    setSoffset(c, pick(2) ? pick(64) : rng());
    fillLanes(c, kVaddr, rng, pick(2) ? 512 : 0);
    fillLanes(c, kVaddr + 1, rng, pick(2) ? 512 : 0);
    settleVaddr(c);
    c.st.exec = 0;
    for (int k = 0; k < 3; ++k)
      c.st.exec |= 1ull << pick(64);
    bool execThrows = false;
    try {
      (void)execute(*c.chip, c.inst, c.st, MemoryImage{}, {}, Policies::defaults(gen));
    } catch (const Error&) {
      execThrows = true;
    }
    if (execThrows) {
      EXPECT_THROW((void)computeReach(*c.chip, c.inst, c.st), Error)
          << c.name << " " << op->mnemonic;
      ++rejected;
      continue;
    }
    expectMatchesOracle(c);
    ++compared;
  }
  EXPECT_GE(compared, 30);
  std::printf("random cases: %d compared with the oracle, %d rejected by both\n", compared,
              rejected);
}

// ---- hand-computed goldens ----------------------------------------------------------------
// CLRX GcnMemHandling "Buffer addressing" (docs/gcn-facts.md "Addressing"):
//   address = BASE + SOFFSET + AINDEX * STRIDE + AOFFSET, AOFFSET = OFFSET + VGPR offset;
// raw range check (STRIDE 0): out of range when the offset >= NUM_RECORDS - SOFFSET;
// structured (IDXEN, NUM_RECORDS in records): out of range when AINDEX >= NUM_RECORDS.

TEST(Reach, GoldenRawDwordOffen) {
  // Lane l: offset 4l, 4 bytes at 0x1000 + 4l. Lanes 0..15 (offset < 64) are in range under
  // every rule; lanes 16..63 start at or past NUM_RECORDS = 64 bytes and are out under every
  // rule. Reach: [0x1000, 0x1040).
  VSharp v;
  v.base = 0x1000;
  v.numRecords = 64;
  v.dataFormat = Dfmt::F32;
  Case c = makeCase("golden raw", Gen::Gfx8, "buffer_load_dword", v);
  c.inst.offen = true;
  for (unsigned l = 0; l < kWaveSize; ++l)
    c.st.vgprMut(kVaddr)[l] = 4 * l;
  const Reach r = computeReach(*c.chip, c.inst, c.st);
  EXPECT_EQ(r.ranges, (std::vector<ByteRange>{{0x1000, 0x1040}}));
  EXPECT_EQ(r.bytes(), 64u);
  EXPECT_EQ(reachBoundProblem(r), "");
}

TEST(Reach, GoldenStructuredFormatLoad) {
  // gfx9, IDXEN, STRIDE 16, NUM_RECORDS 4 records, 32_32_32_32 (16-byte elements). Lanes 0..3
  // hold indices 0..3: elements at base + 16i, in range. Lane 4 holds index 4 >= NUM_RECORDS:
  // out under every rule. Reach: [base, base + 64).
  VSharp v;
  v.base = 0x20000;
  v.stride = 16;
  v.numRecords = 4;
  v.dataFormat = Dfmt::F32_32_32_32;
  v.numFormat = Nfmt::Float;
  Case c = makeCase("golden structured", Gen::Gfx9, "buffer_load_format_xyzw", v);
  c.inst.idxen = true;
  c.st.exec = 0x1f;
  for (unsigned l = 0; l < 5; ++l)
    c.st.vgprMut(kVaddr)[l] = l;
  const Reach r = computeReach(*c.chip, c.inst, c.st);
  EXPECT_EQ(r.ranges, (std::vector<ByteRange>{{0x20000, 0x20040}}));
}

TEST(Reach, GoldenStraddleCoversEveryRule) {
  // gfx8 raw DWORDX2 at offset 61, NUM_RECORDS 64. CLRX start-only check: 61 < 64, both
  // dwords in range; with the low two bits ignored they sit at base+60..+68, unaligned at
  // base+61..+69. AMD RDNA3 ISA per-dword check: 61 + 4 > 64, both out. The union over rules:
  // [base + 60, base + 69), i.e. five bytes past NUM_RECORDS, which a run pinned to the
  // per-dword rule would never touch but the device may.
  VSharp v;
  v.base = 0x30000;
  v.numRecords = 64;
  v.dataFormat = Dfmt::F32;
  Case c = makeCase("golden straddle", Gen::Gfx8, "buffer_load_dwordx2", v);
  c.inst.offen = true;
  c.st.exec = 1;
  c.st.vgprMut(kVaddr)[0] = 61;
  const Reach r = computeReach(*c.chip, c.inst, c.st);
  EXPECT_EQ(r.ranges, (std::vector<ByteRange>{{0x30000 + 60, 0x30000 + 69}}));
}

// ---- bound --------------------------------------------------------------------------------

TEST(Reach, BoundProblem) {
  VSharp v;
  v.base = 0x100000;
  v.numRecords = 0xffffffffu;
  v.dataFormat = Dfmt::F32;
  Case c = makeCase("bound", Gen::Gfx9, "buffer_store_dword", v);
  c.inst.offen = true;
  c.st.exec = 0b110;
  c.st.vgprMut(kVaddr)[1] = 0x10;
  c.st.vgprMut(kVaddr)[2] = 0xfffffff0u;  // NUM_RECORDS admits it: 4 GiB away
  const Reach r = computeReach(*c.chip, c.inst, c.st);
  ASSERT_TRUE(r.span());
  const uint64_t span = 0xfffffff0u + 4 - 0x10;
  EXPECT_EQ(r.span()->end - r.span()->begin, span);
  const std::string msg = reachBoundProblem(r);
  EXPECT_NE(msg.find(std::to_string(span)), std::string::npos) << msg;
  EXPECT_NE(msg.find(std::to_string(kMaxReachSpanBytes)), std::string::npos) << msg;
  EXPECT_NE(msg.find("0x100010"), std::string::npos) << msg;     // lowest address
  EXPECT_NE(msg.find("0x1000ffff4"), std::string::npos) << msg;  // highest (exclusive)
  EXPECT_NE(msg.find("lane 2"), std::string::npos) << msg;       // the far lane
  // The limit is inclusive.
  EXPECT_EQ(reachBoundProblem(r, span), "");
  EXPECT_NE(reachBoundProblem(r, span - 1), "");
  EXPECT_EQ(reachBoundProblem(Reach{}), "");
}

// ---- inactive lanes -----------------------------------------------------------------------

TEST(Reach, InactiveLanesContributeNothing) {
  VSharp v;
  v.base = 0x1000;
  v.numRecords = 0xffffffffu;
  v.dataFormat = Dfmt::F32;
  Case c = makeCase("inactive", Gen::Gfx7, "buffer_atomic_add", v);
  c.inst.offen = true;
  for (unsigned l = 0; l < kWaveSize; ++l)
    c.st.vgprMut(kVaddr)[l] = 0x100000 * (l + 1);  // every lane its own far dword
  c.st.exec = 1ull << 5;
  Reach r = computeReach(*c.chip, c.inst, c.st);
  EXPECT_EQ(r.ranges, (std::vector<ByteRange>{{0x1000 + 0x600000, 0x1000 + 0x600004}}));
  c.st.exec = 0;
  r = computeReach(*c.chip, c.inst, c.st);
  EXPECT_TRUE(r.ranges.empty());
  EXPECT_FALSE(r.span());
  EXPECT_EQ(r.bytes(), 0u);
}

// ---- nothing reaches memory, and rejected instructions ------------------------------------

TEST(Reach, NoAccessCases) {
  VSharp zero;  // all-zero V#: reads 0, drops writes (docs/gcn-facts.md)
  zero.dstSel = {DstSel::Zero, DstSel::Zero, DstSel::Zero, DstSel::Zero};
  ASSERT_EQ(encodeVSharp(Gen::Gfx9, zero), (std::array<uint32_t, 4>{}));
  Case z = makeCase("zero", Gen::Gfx9, "buffer_store_dword", zero);
  settleVaddr(z);
  EXPECT_TRUE(computeReach(*z.chip, z.inst, z.st).ranges.empty());
  expectMatchesOracle(z);
  // DATA_FORMAT INVALID: GFX6/7 drop untyped accesses (Mesa radeonsi si_compute.c, "it cannot
  // be BUF_DATA_FORMAT_INVALID" before GFX8); GFX8/9 ignore it (RADV's GFX8+ ring V#s store
  // with DATA_FORMAT 0).
  VSharp invalid;
  invalid.base = 0x1000;
  invalid.numRecords = 64;
  for (const char* op : {"buffer_store_dword", "buffer_load_dword", "buffer_atomic_add"}) {
    Case s = makeCase("gfx7 invalid dfmt", Gen::Gfx7, op, invalid);
    settleVaddr(s);
    EXPECT_TRUE(computeReach(*s.chip, s.inst, s.st).ranges.empty()) << op;
    expectMatchesOracle(s);
  }
  for (const char* op : {"buffer_store_dword", "buffer_load_dword"}) {
    Case l = makeCase("gfx8 invalid dfmt", Gen::Gfx8, op, invalid);
    settleVaddr(l);
    l.st.exec = 1;
    EXPECT_EQ(computeReach(*l.chip, l.inst, l.st).ranges,
              (std::vector<ByteRange>{{0x1000, 0x1004}}))
        << op;
  }
  Case w = makeCase("cache", Gen::Gfx7, "buffer_wbinvl1", invalid);
  w.inst.vdata = 0;
  w.inst.srsrc = 0;
  settleVaddr(w);
  EXPECT_TRUE(computeReach(*w.chip, w.inst, w.st).ranges.empty());
}

TEST(Reach, RejectsWhatExecuteRejectsAndPlansTheReservedFormatWide) {
  VSharp v;
  v.base = 0x1000;
  v.numRecords = 64;
  // The reserved DATA_FORMAT 15 has no element size: both plan it at 16 bytes (the largest
  // element), so the reach covers it: lane n at 0x1000 + 16 bytes (OFFSET 0, no VADDR).
  v.dataFormat = Dfmt::Reserved;
  Case c = makeCase("reserved dfmt", Gen::Gfx8, "buffer_load_format_x", v);
  settleVaddr(c);
  expectMatchesOracle(c);
  EXPECT_EQ(computeReach(*c.chip, c.inst, c.st).ranges, (std::vector<ByteRange>{{0x1000, 0x1010}}));

  v.dataFormat = Dfmt::F32;
  Case a = makeCase("addr64 on gfx8", Gen::Gfx8, "buffer_load_dword", v);
  a.inst.addr64 = true;
  EXPECT_THROW((void)computeReach(*a.chip, a.inst, a.st), Error);
  Case q = makeCase("srsrc not a quad", Gen::Gfx9, "buffer_load_dword", v);
  settleVaddr(q);
  q.inst.srsrc = 6;
  EXPECT_THROW((void)computeReach(*q.chip, q.inst, q.st), Error);
  Case vcc = makeCase("soffset vcc", Gen::Gfx9, "buffer_load_dword", v);
  settleVaddr(vcc);
  vcc.inst.soffset = 106;
  EXPECT_THROW((void)computeReach(*vcc.chip, vcc.inst, vcc.st), Error);
}

}  // namespace reach_test
}  // namespace gcn
